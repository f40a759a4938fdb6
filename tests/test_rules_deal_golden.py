"""Whole deals (rules.md §2–§9) replayed from the golden sample, through the core and over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import deal_request, golden

DEALS = golden("deals.jsonl")


def request_of(deal: dict[str, Any], *, with_hands: bool = True) -> dict[str, Any]:
    body = deal_request(deal)
    if not with_hands:
        del body["hands"], body["dog"]
    return body


def check(answer: dict[str, Any], deal: dict[str, Any]) -> None:
    exp = deal["expected"]
    assert answer["status"] == "complete"
    assert answer["valid"], answer["violations"]
    assert [t["winner"] for t in answer["tricks"]] == exp["trick_winners"]
    assert answer["points"]["attack"] == exp["attack_points"]
    assert answer["points"]["attack"] + answer["points"]["defence"] == 91
    assert answer["oudlers"]["attack"] == exp["attack_oudlers"]
    assert answer["partner"] == exp["partner"]
    assert answer["score"]["scores"] == exp["scores"]
    b = exp["breakdown"]
    assert answer["score"]["per_defender"] == b["per_defender"]
    assert answer["score"]["chelem"] == b["chelem_bonus"]
    assert answer["petit_au_bout"] == {1: "attack", -1: "defence", 0: None}[b["petit_au_bout"]]


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d["id"])
def test_golden_deal(client: FlaskClient, deal: dict[str, Any]) -> None:
    r = client.post("/v1/deals/evaluate", json=request_of(deal))
    assert r.status_code == 200
    check(r.get_json(), deal)


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d["id"])
def test_golden_deal_with_hands_inferred(client: FlaskClient, deal: dict[str, Any]) -> None:
    r = client.post("/v1/deals/evaluate", json=request_of(deal, with_hands=False))
    assert r.status_code == 200
    check(r.get_json(), deal)


EXCUSE_TAGS = {
    "excuse-exchanged": "returned",
    "excuse-last-own-side-won": "changed_side",
    "excuse-last-other-side-won": "changed_side",
    "excuse-led-last-in-chelem": "took_last_trick",
}


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d["id"])
def test_8_excuse_outcome_matches_the_notes(client: FlaskClient, deal: dict[str, Any]) -> None:
    excuse = client.post("/v1/deals/evaluate", json=request_of(deal)).get_json()["excuse"]
    for tag, outcome in EXCUSE_TAGS.items():
        if tag in deal["notes"]:
            assert excuse["outcome"] == outcome
    if "excuse-card-never-paid" in deal["notes"]:
        assert excuse["exchange"]["on_paper"] is True
        assert excuse["exchange"]["paid_at_trick"] is None


def test_golden_sample_covers_every_table_size() -> None:
    assert {d["players"] for d in DEALS} == {3, 4, 5}
