"""The two trick operations through the Flask test client."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import golden


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    r = client.post(path, json=body)
    return r.status_code, r.get_json()


def test_legal_cards_answer(client: FlaskClient) -> None:
    status, body = post(
        client, "/v1/tricks/legal-cards", {"players": 4, "hand": ["EX", "KS", "2S", "5T"], "trick": ["QS"]}
    )
    assert status == 200
    assert body["legal"] == ["2S", "KS", "EX"]
    assert body["reason"] == "follow"
    assert body["message"]


@pytest.mark.parametrize(
    "row", golden("legal_positions.jsonl"), ids=lambda r: f"{r['players']}p-{'-'.join(r['trick'])}"
)
def test_golden_positions_over_http(client: FlaskClient, row: dict[str, Any]) -> None:
    body = {k: row[k] for k in ("players", "hand", "trick", "first_trick", "called_card")}
    status, answer = post(client, "/v1/tricks/legal-cards", body)
    assert status == 200
    assert answer["legal"] == row["legal"]


def test_first_trick_ban_at_five_players(client: FlaskClient) -> None:
    body = {"players": 5, "hand": ["3S", "KS", "2H"], "first_trick": True, "called_card": "KS"}
    status, answer = post(client, "/v1/tricks/legal-cards", body)
    assert (status, answer["legal"], answer["reason"]) == (200, ["KS", "2H"], "called_suit_ban")
    body["rules"] = {"called_suit_lead_ban": False}
    assert post(client, "/v1/tricks/legal-cards", body)[1]["legal"] == ["3S", "KS", "2H"]


def test_winner_answer(client: FlaskClient) -> None:
    status, body = post(client, "/v1/tricks/winner", {"players": 4, "leader": 2, "cards": ["QS", "EX", "1T", "KS"]})
    assert status == 200
    assert body == {
        "winner": 0,
        "winner_index": 2,
        "winning_card": "1T",
        "led_suit": "S",
        "trumped": True,
        "complete": True,
    }


def test_winner_so_far_and_excuse_alone(client: FlaskClient) -> None:
    status, body = post(client, "/v1/tricks/winner", {"players": 3, "cards": ["EX"]})
    assert status == 200
    assert body == {
        "winner": None,
        "winner_index": None,
        "winning_card": None,
        "led_suit": None,
        "trumped": False,
        "complete": False,
    }
    status, body = post(client, "/v1/tricks/winner", {"players": 3, "leader": 1, "cards": ["EX", "2H"]})
    assert (body["winner"], body["led_suit"], body["complete"]) == (2, "H", False)


def test_deal_winners_over_http(client: FlaskClient) -> None:
    # Every trick of the golden deals, except a last trick won by the Excuse (chelem exception).
    checked = 0
    for deal in golden("deals.jsonl"):
        n, plays, winners = deal["players"], deal["plays"], deal["expected"]["trick_winners"]
        leader = deal["taker"] if deal["chelem_announced"] else (deal["dealer"] + 1) % n
        for t, expected in enumerate(winners):
            cards = plays[t * n : (t + 1) * n]
            status, body = post(client, "/v1/tricks/winner", {"players": n, "leader": leader, "cards": cards})
            assert status == 200
            if body["winner"] != expected:
                assert t == len(winners) - 1 and cards[(expected - leader) % n] == "EX"
            leader = expected
            checked += 1
    assert checked > 700


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"players": 4, "hand": ["KS", "ks"]}, "/hand/1", "unknown_card"),
        ({"players": 4, "hand": ["KS", "KS"]}, "/hand/1", "duplicate_card"),
        ({"players": 4, "hand": ["KS"], "trick": ["KS"]}, "/trick/0", "card_in_hand_and_trick"),
        ({"players": 3, "hand": ["KS"], "trick": ["1S", "2S", "3S"]}, "/trick", "trick_full"),
        ({"players": 4, "hand": ["KS"], "called_card": "KH"}, "/called_card", "called_card_not_allowed"),
        ({"players": 5, "hand": ["KS"], "called_card": "1H"}, "/called_card", "not_callable"),
        ({"players": 5, "hand": ["KS"], "first_trick": True}, "/called_card", "required"),
        ({"players": 6, "hand": ["KS"]}, "/players", "enum"),
        ({"players": "4", "hand": ["KS"]}, "/players", "type"),
        ({"players": True, "hand": ["KS"]}, "/players", "type"),
        ({"players": 4}, "/hand", "required"),
        ({"players": 4, "hand": []}, "/hand", "length"),
        ({"players": 4, "hand": "KS"}, "/hand", "type"),
        ({"players": 4, "hand": [1]}, "/hand/0", "type"),
        ({"players": 4, "hand": ["KS"], "first_trick": "yes"}, "/first_trick", "type"),
        ({"players": 4, "hand": ["KS"], "extra": 1}, "/extra", "unknown_field"),
        ({"players": 4, "hand": ["KS"], "rules": {"first_lead": "sideways"}}, "/rules/first_lead", "enum"),
        ({"players": 4, "hand": ["KS"], "rules": {"nope": True}}, "/rules/nope", "unknown_field"),
        ({"players": 3, "hand": [f"{n}T" for n in range(1, 22)] + ["EX", "KS", "KH", "KD"]}, "/hand", "length"),
        ({"players": 5, "hand": [f"{n}T" for n in range(1, 17)]}, "/hand", "hand_too_large"),
    ],
)
def test_legal_cards_invalid_requests(client: FlaskClient, body: dict[str, Any], pointer: str, code: str) -> None:
    r = client.post("/v1/tricks/legal-cards", json=body)
    assert r.status_code == 422
    assert r.mimetype == "application/problem+json"
    problem = r.get_json()
    assert problem["status"] == 422
    assert {"pointer": pointer, "code": code} in [
        {"pointer": e["pointer"], "code": e["code"]} for e in problem["errors"]
    ]


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"players": 3, "leader": 3, "cards": ["KS"]}, "/leader", "seat_out_of_range"),
        ({"players": 3, "cards": ["KS", "1S", "2S", "3S"]}, "/cards", "trick_too_long"),
        ({"players": 4, "cards": []}, "/cards", "length"),
        ({"players": 4, "cards": ["KS", "KS"]}, "/cards/1", "duplicate_card"),
        ({"players": 4, "leader": -1, "cards": ["KS"]}, "/leader", "seat_out_of_range"),
    ],
)
def test_winner_invalid_requests(client: FlaskClient, body: dict[str, Any], pointer: str, code: str) -> None:
    r = client.post("/v1/tricks/winner", json=body)
    assert r.status_code == 422
    assert {"pointer": pointer, "code": code} in [
        {"pointer": e["pointer"], "code": e["code"]} for e in r.get_json()["errors"]
    ]
