"""A club's evening from start to finish, through the service only (rules.md §16).

Sixteen players, five positions of four deals. Each position is seated by
``POST /v1/tournaments/seating`` with the positions played so far; each table's deals are drawn
at random and scored one by one with ``POST /v1/deals/score``, and North writes the marks and
the bilans on the card; the control table (``POST /v1/tournaments/standings``) then ranks the
evening. The standings must be each player's marks summed deal by deal, and each scored error
planted in the cards (every kind the control table knows) reported once, at its pointer,
naming the table's players; the clean evening reports none.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rules.verdicts import Anomaly
from tests.tournaments import KINDS, ORIENTATIONS, Planted, card_players, plant, random_summary

PLAYERS = [f"{wind}{n}" for n in range(1, 5) for wind in "NSEW"]
POSITIONS = 5
DEALS = 4


def seat_the_evening(client: FlaskClient, seed: str) -> list[dict[str, Any]]:
    """Every position seated in turn, each request carrying the positions played before it."""
    played: list[dict[str, Any]] = []
    for position in range(1, POSITIONS + 1):
        body = {"players": PLAYERS, "positions": POSITIONS, "seed": seed, "played": played}
        answer = client.post("/v1/tournaments/seating", json=body)
        assert answer.status_code == 200, answer.get_json()
        seated = answer.get_json()["seated"]
        assert {t["position"] for t in seated} == {position}
        assert answer.get_json()["repeats"] == []
        played += seated
    return played


def score(client: FlaskClient, summary: dict[str, Any], players: int) -> list[int]:
    answer = client.post("/v1/deals/score", json={"players": players, **summary})
    assert answer.status_code == 200, answer.get_json()
    scores: list[int] = answer.get_json()["scores"]
    return scores


def evening(client: FlaskClient, rng: random.Random) -> tuple[dict[str, Any], Counter[str]]:
    """The control table's request for a clean evening, and each player's marks summed here."""
    seating = seat_the_evening(client, f"evening-{rng.randrange(10**6)}")
    totals: Counter[str] = Counter()
    cards = []
    for table in seating:
        order = [o for o in ORIENTATIONS if o in table["seats"]]
        sums = [0] * len(order)
        deals = []
        for _ in range(DEALS):
            summary = random_summary(rng, len(order))
            row = score(client, summary, len(order))
            sums = [a + b for a, b in zip(sums, row, strict=True)]
            marks = {"row": dict(zip(order, row, strict=True)), "taker": order[summary["taker"]]}
            marks["contract"] = summary["contract"]
            deals.append({"summary": summary, "marks": marks})
        for o, mark in zip(order, sums, strict=True):
            totals[table["seats"][o]] += mark
        cards.append(
            {**table, "seats": dict(table["seats"]), "deals": deals, "totals": dict(zip(order, sums, strict=True))}
        )
    entrants = [{"id": p, "name": f"Player {p}"} for p in PLAYERS]
    request = {
        "players": entrants,
        "plan": {"positions": POSITIONS, "deals": DEALS},
        "seating": seating,
        "scorecards": cards,
    }
    return request, totals


def standings(client: FlaskClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/v1/tournaments/standings", json=request)
    assert answer.status_code == 200, answer.get_json()
    result: dict[str, Any] = answer.get_json()
    return result


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_16_an_evening_seated_by_the_service_is_ranked_by_the_sum_of_its_marks(client: FlaskClient, seed: int) -> None:
    request, totals = evening(client, random.Random(seed))
    # Seated by the service: nobody met anyone twice in the five positions (16 players, 5
    # positions: everyone meets everyone exactly once, the affine plane of order 4).
    met = Counter(frozenset(pair) for card in request["seating"] for pair in combinations(card["seats"].values(), 2))
    assert max(met.values()) == 1
    assert len(met) == 16 * 15 // 2
    answer = standings(client, request)
    assert answer["anomalies"] == []
    assert {row["player"]: row["total"] for row in answer["standings"]} == dict(totals)
    assert all(len(row["positions"]) == POSITIONS for row in answer["standings"])


@pytest.mark.parametrize("kind", KINDS)
def test_16_3_each_scored_error_planted_in_the_evening_is_reported_once(client: FlaskClient, kind: str) -> None:
    rng = random.Random(kind)
    request, _ = evening(client, rng)
    # Everyone meets everyone once in such an evening: two teammates named in the players always
    # sat at one table, and that is the error planted for them.
    planted = _teammates(request) if kind == "teammates_together" else plant(request, kind, rng)
    assert planted is not None, kind
    anomalies = standings(client, planted.request)["anomalies"]
    assert [(a["code"], a["pointer"], a["players"]) for a in anomalies] == [
        (planted.code, planted.pointer, planted.players)
    ]


def test_16_3_every_kind_of_scored_error_is_planted_in_an_evening() -> None:
    assert {kind if kind != "seated_card_missing" else "card_not_returned" for kind in KINDS} == {
        a.value for a in Anomaly
    }


def _teammates(request: dict[str, Any]) -> Planted:
    """Two players who sat at the first card's table named teammates."""
    t = copy.deepcopy(request)
    card = t["scorecards"][0]
    pair = (card["seats"]["north"], card["seats"]["south"])
    for entrant in t["players"]:
        if entrant["id"] in pair:
            entrant["team"] = "T1"
    return Planted(t, "teammates_together", "/scorecards/0/seats/south", card_players(card))
