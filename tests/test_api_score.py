"""POST /v1/deals/score through the Flask test client."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

PATH = "/v1/deals/score"


def test_fft_example_over_http(client: FlaskClient) -> None:
    body = {
        "players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2,
        "petit_au_bout": "attack", "poignees": [{"side": "attack", "size": "simple"}],
    }  # fmt: skip
    r = client.post(PATH, json=body)
    assert r.status_code == 200
    answer = r.get_json()
    assert answer["scores"] == [318, -106, -106, -106]
    assert (answer["won"], answer["threshold"], answer["margin"], answer["multiplier"]) == (True, 41, 8, 2)
    assert (answer["contract_points"], answer["petit_au_bout"], answer["poignees"], answer["chelem"]) == (66, 20, 20, 0)
    assert answer["per_defender"] == 106
    assert len(answer["explanation"]) >= 3


def test_five_players_with_partner_and_half_points(client: FlaskClient) -> None:
    body = {"players": 5, "contract": "prise", "taker": 4, "partner": 1, "points": 30.5, "oudlers": 1}
    answer = client.post(PATH, json=body).get_json()
    assert answer["scores"] == [46, -46, 46, 46, -92]
    assert answer["margin"] == 21


def test_pousse_only_with_its_flag(client: FlaskClient) -> None:
    body: dict[str, Any] = {"players": 3, "contract": "pousse", "taker": 0, "points": 50, "oudlers": 2}
    r = client.post(PATH, json=body)
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["code"] == "pousse_not_enabled"
    body["rules"] = {"pousse_alias": True}
    assert client.post(PATH, json=body).get_json()["multiplier"] == 2


def test_chelem_both_terms(client: FlaskClient) -> None:
    body = {
        "players": 4,
        "contract": "prise",
        "taker": 0,
        "points": 5,
        "oudlers": 0,
        "chelem": {"announced": True, "made_by": "defence"},
    }
    answer = client.post(PATH, json=body).get_json()
    assert answer["chelem"] == -400


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        ({"points": 41.25}, "/points", "half_point_grid"),
        ({"points": 91.5}, "/points", "range"),
        ({"points": -1}, "/points", "range"),
        ({"points": -1.7976931348623157e308}, "/points", "range"),
        ({"points": 1e308}, "/points", "range"),
        ({"points": "41"}, "/points", "type"),
        ({"oudlers": 4}, "/oudlers", "range"),
        ({"partner": 1}, "/partner", "partner_not_allowed"),
        ({"taker": 4}, "/taker", "seat_out_of_range"),
        ({"contract": "petite"}, "/contract", "enum"),
        ({"points": 91, "oudlers": 0}, "/points", "points_oudlers_mismatch"),
        ({"points": 10, "oudlers": 3}, "/points", "points_oudlers_mismatch"),
        (
            {"poignees": [{"side": "attack", "size": "triple"}, {"side": "defence", "size": "simple"}]},
            "/poignees",
            "too_many_trumps_shown",
        ),
        ({"poignees": [{"side": "attack", "size": "huge"}]}, "/poignees/0/size", "enum"),
        ({"chelem": {"made_by": "nobody"}}, "/chelem/made_by", "enum"),
        ({"chelem": {"announced": 1}}, "/chelem/announced", "type"),
    ],
)
def test_impossible_summaries_are_422(client: FlaskClient, change: dict[str, Any], pointer: str, code: str) -> None:
    body = {"players": 4, "contract": "garde", "taker": 0, "points": 50, "oudlers": 2} | change
    r = client.post(PATH, json=body)
    assert r.status_code == 422, r.get_json()
    errors = [(e["pointer"], e["code"]) for e in r.get_json()["errors"]]
    assert (pointer, code) in errors


def test_partner_seat_checked_at_five(client: FlaskClient) -> None:
    body = {"players": 5, "contract": "garde", "taker": 0, "partner": 5, "points": 50, "oudlers": 2}
    r = client.post(PATH, json=body)
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["pointer"] == "/partner"
