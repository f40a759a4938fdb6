"""POST /v1/deals/evaluate: requests, in-progress deals, variants, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.randomdeals import random_deal

from .conftest import golden

PATH = "/v1/deals/evaluate"
FIELDS = (
    "players",
    "dealer",
    "hands",
    "dog",
    "contract",
    "taker",
    "called_card",
    "discard",
    "chelem_announced",
    "poignees",
    "plays",
)


def body_of(deal: dict[str, Any]) -> dict[str, Any]:
    return {k: deal[k] for k in FIELDS}


def test_in_progress_gives_the_next_seat_and_its_legal_cards(client: FlaskClient) -> None:
    deal = random_deal(11, 4)
    for cut in (0, 1, 5, 17, 40):
        body = body_of(deal) | {"plays": deal["plays"][:cut]}
        answer = client.post(PATH, json=body).get_json()
        assert answer["status"] == "in_progress" and answer["valid"]
        assert answer["score"] is None and answer["points"] is None
        nxt = answer["next"]
        assert deal["plays"][cut] in nxt["legal"], "the card actually played next is legal"
        full = client.post(PATH, json=body_of(deal)).get_json()
        trick, pos = divmod(cut, 4)
        leader = full["tricks"][trick]["leader"]
        assert nxt["seat"] == (leader + pos) % 4


def test_in_progress_without_hands_has_no_legal_list(client: FlaskClient) -> None:
    deal = random_deal(12, 3)
    body = body_of(deal) | {"plays": deal["plays"][:7], "hands": None, "dog": None}
    answer = client.post(PATH, json=body).get_json()
    assert answer["status"] == "in_progress"
    assert answer["next"]["legal"] is None


def test_first_lead_variant_after_taker(client: FlaskClient) -> None:
    deal = next(d for d in golden("deals.jsonl") if d["players"] == 4 and not d["chelem_announced"])
    body = body_of(deal) | {"rules": {"first_lead": "after_taker"}}
    answer = client.post(PATH, json=body).get_json()
    assert answer["tricks"][0]["leader"] == (deal["taker"] + 1) % 4


def test_excuse_last_trick_variant(client: FlaskClient) -> None:
    deal = next(d for d in golden("deals.jsonl") if "excuse-last-own-side-won" in d["notes"])
    fft = client.post(PATH, json=body_of(deal)).get_json()
    variant = client.post(PATH, json=body_of(deal) | {"rules": {"excuse_last_trick": "trick_winner"}}).get_json()
    assert fft["excuse"]["outcome"] == "changed_side"
    assert variant["excuse"]["outcome"] == "kept_in_last_trick"
    assert variant["excuse"]["kept_by"] != fft["excuse"]["kept_by"]
    assert abs(variant["points"]["attack"] - fft["points"]["attack"]) == 4.5


def test_excuse_chelem_variant_requires_announce(client: FlaskClient) -> None:
    deal = next(
        d
        for d in golden("deals.jsonl")
        if "excuse-led-last-in-chelem" in d["notes"] and not d["chelem_announced"] and d["players"] < 5
    )
    fft = client.post(PATH, json=body_of(deal)).get_json()
    assert (fft["excuse"]["outcome"], fft["chelem"]["made_by"]) == ("took_last_trick", "attack")
    answer = client.post(PATH, json=body_of(deal) | {"rules": {"excuse_chelem_requires_announce": True}}).get_json()
    # Unannounced: the taker's led Excuse no longer takes the last trick; a defender wins it,
    # the Excuse changes side and the chelem is lost.
    assert answer["excuse"]["outcome"] == "changed_side"
    assert answer["excuse"]["kept_by"] == "defence"
    assert answer["tricks"][-1]["winner"] not in answer["attack"]
    assert answer["chelem"]["made_by"] is None
    assert answer["points"]["attack"] < fft["points"]["attack"]


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        ({"players": 6}, "/players", "enum"),
        ({"dealer": 4}, "/dealer", "seat_out_of_range"),
        ({"hands": [["KS"], ["QS"], ["JS"]]}, "/hands", "hands_count"),
        ({"hands": [["KS"], ["QS"]]}, "/hands", "length"),
        ({"contract": None, "taker": None}, "/contract", "required"),
        ({"taker": None}, "/taker", "required"),
        ({"contract": "pousse"}, "/contract", "pousse_not_enabled"),
        ({"called_card": "KS"}, "/called_card", "called_card_not_allowed"),
        ({"plays": ["KS", "zz"]}, "/plays/1", "unknown_card"),
        ({"poignees": [{"seat": 4, "cards": ["1T"]}]}, "/poignees/0/seat", "seat_out_of_range"),
        ({"poignees": [{"seat": 7, "cards": ["1T"]}]}, "/poignees/0/seat", "seat_out_of_range"),
        ({"bids": ["pass", "raise"]}, "/bids/1", "enum"),
        ({"surprise": True}, "/surprise", "unknown_field"),
    ],
)
def test_malformed_records_are_422(client: FlaskClient, change: dict[str, Any], pointer: str, code: str) -> None:
    body = body_of(random_deal(13, 4)) | change
    r = client.post(PATH, json=body)
    assert r.status_code == 422
    assert (pointer, code) in [(e["pointer"], e["code"]) for e in r.get_json()["errors"]]


def test_five_players_needs_the_called_card(client: FlaskClient) -> None:
    body = body_of(random_deal(14, 5)) | {"called_card": None}
    r = client.post(PATH, json=body)
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["pointer"] == "/called_card"
