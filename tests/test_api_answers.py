"""Answers match their response schemas exactly.

Views build their answers ready to send instead of dumping them through the response
schemas on every request (service.api.parsing). These tests hold the two together: every
kind of answer (complete, in-progress, faulty and redealt deals; every legal-card rule;
tricks with and without a winner; scores with every term) is loaded back through its
response schema, which refuses a missing, extra or mistyped field, and dumped again to the
same JSON. The schemas are those the operations are served with, every operation's.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema

from service.contract.operations import OPERATIONS
from service.randomdeals import random_deal

from .conftest import deal_request, golden
from .test_api_plans import BODIES, PATHS

SCHEMAS: dict[str, Schema] = {PATHS[name]: op.response_schema for name, op in OPERATIONS.items()}


@pytest.mark.parametrize("path", sorted(BODIES))
def test_every_operation_answers_its_valid_body_exactly(client: FlaskClient, path: str) -> None:
    exact(client, path, BODIES[path])


def exact(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.get_json()
    sent: dict[str, Any] = answer.get_json()
    schema = SCHEMAS[path]
    assert schema.dump(schema.load(sent)) == sent
    return sent


@pytest.mark.parametrize("deal", golden("deals.jsonl"), ids=lambda d: d["id"])
def test_golden_deals_complete_and_in_progress(client: FlaskClient, deal: dict[str, Any]) -> None:
    body = deal_request(deal)
    exact(client, "/v1/deals/evaluate", body)
    for cut in (0, 1, len(body["plays"]) // 2, len(body["plays"]) - 1):
        exact(client, "/v1/deals/evaluate", {**body, "plays": body["plays"][:cut]})
    exact(client, "/v1/deals/evaluate", {**body, "plays": body["plays"][:7], "hands": None, "dog": None})


@pytest.mark.parametrize("row", golden("legal_positions.jsonl"))
def test_golden_positions(client: FlaskClient, row: dict[str, Any]) -> None:
    body = {k: row[k] for k in ("players", "hand", "trick", "first_trick", "called_card")}
    exact(client, "/v1/tricks/legal-cards", body)
    if row["trick"]:
        exact(client, "/v1/tricks/winner", {"players": row["players"], "cards": row["trick"]})


def test_a_trick_of_only_the_excuse_has_no_winner(client: FlaskClient) -> None:
    assert exact(client, "/v1/tricks/winner", {"players": 3, "cards": ["EX"]})["winner"] is None


def test_faulty_and_redealt_deals(client: FlaskClient) -> None:
    body = deal_request(next(d for d in golden("deals.jsonl") if d["players"] == 4))
    plays = list(body["plays"])
    plays[1], plays[2] = plays[2], plays[1]  # two seats of one trick: neither holds the other's card
    faulty = exact(client, "/v1/deals/evaluate", {**body, "plays": plays})
    assert faulty["violations"] and faulty["violations"][0]["card"]
    everyone_passed = {"bids": ["pass"] * 4, "contract": None, "taker": None, "plays": []}
    passed = exact(client, "/v1/deals/evaluate", {**body, **everyone_passed})
    assert passed["status"] == "redeal"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deals_of_the_cards_with_and_without_redeal(client: FlaskClient, players: int) -> None:
    exact(client, "/v1/deals/deal", {"players": players, "dealer": 0, "seed": "answers", "packet": 1})
    redealt = exact(client, "/v1/deals/deal", {"players": 4, "dealer": 1, "seed": "redeal-8"})
    assert redealt["redeal"] and redealt["redeal_message"]


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans", "garde_contre"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_scores_with_every_term(client: FlaskClient, contract: str, players: int) -> None:
    body: dict[str, Any] = {
        "players": players,
        "contract": contract,
        "taker": 0,
        "points": 45.5,
        "oudlers": 2,
        "petit_au_bout": "defence",
        "poignees": [{"side": "attack", "size": "simple"}],
        "chelem": {"announced": True, "made_by": None},
    }
    if players == 5:
        body["partner"] = 2
    exact(client, "/v1/deals/score", body)


@pytest.fixture(scope="module")
def module_client(app: Flask) -> FlaskClient:
    return app.test_client()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5]), st.data())
def test_random_deals(module_client: FlaskClient, seed: int, players: int, data: st.DataObject) -> None:
    deal = random_deal(seed, players)
    exact(module_client, "/v1/deals/evaluate", deal)
    faulty = copy.deepcopy(deal)
    i = data.draw(st.integers(0, len(deal["plays"]) - 1))
    faulty["plays"][i] = deal["plays"][(i + 1) % len(deal["plays"])]
    exact(module_client, "/v1/deals/evaluate", faulty)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 2**32), st.sampled_from([3, 4, 5]), st.booleans()), max_size=5))
def test_random_batches(module_client: FlaskClient, deals: list[tuple[int, int, bool]]) -> None:
    records: list[Any] = []
    for seed, players, swap in deals:
        deal = random_deal(seed, players)
        if swap:
            deal["plays"][0], deal["plays"][-1] = deal["plays"][-1], deal["plays"][0]
        records.append({**deal, "id": str(seed), "claims": {"valid": not swap}})
    records.append({"players": 4})  # one refused record beside the others: a problem item
    exact(module_client, "/v1/deals/evaluate-batch", {"deals": records})
