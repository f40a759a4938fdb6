"""Hypothesis: random legal deals, mutated, sent to POST /v1/deals/evaluate.

The service must never fail (every answer a 200 verdict), must flag each mutation that
makes the deal illegal for certain, and must answer the same request identically.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.randomdeals import random_deal, record
from service.rules.deal import evaluate_deal

deals = st.builds(random_deal, st.integers(0, 2**32), st.sampled_from([3, 4, 5]))
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seats_of_plays(d: dict[str, Any]) -> list[int]:
    """The seat that played each card of the (legal) deal ``d``."""
    ev = evaluate_deal(record(d))
    return [(t.leader + i) % d["players"] for t in ev.tricks for i in range(len(t.cards))]


@pytest.fixture(scope="module")
def evaluate(app: Flask) -> Any:
    client = app.test_client()

    def call(body: dict[str, Any], refusable: bool = False) -> dict[str, Any]:
        first = client.post("/v1/deals/evaluate", json=body)
        again = client.post("/v1/deals/evaluate", json=body)
        assert first.status_code == 200 or (refusable and first.status_code == 422), first.get_json()
        assert first.data == again.data, "the same request gets the same answer"
        if first.status_code == 422:
            return {}
        # The same deal with the hands left to inference: still a verdict, never a failure.
        bare = client.post("/v1/deals/evaluate", json={**body, "hands": None, "dog": None})
        assert bare.status_code == 200, bare.get_json()
        answer: dict[str, Any] = first.get_json()
        return answer

    return call


def codes(answer: dict[str, Any]) -> list[str]:
    return [v["code"] for v in answer["violations"]]


@SETTINGS
@given(deals, st.data())
def test_swapping_two_seats_cards_is_flagged(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    seats = seats_of_plays(d)
    i = data.draw(st.integers(0, len(seats) - 1))
    j = data.draw(st.sampled_from([k for k in range(len(seats)) if seats[k] != seats[i]]))
    plays = list(d["plays"])
    plays[i], plays[j] = plays[j], plays[i]
    answer = evaluate({**d, "plays": plays})
    assert not answer["valid"] and answer["violations"]
    assert answer["score"] is None


@SETTINGS
@given(deals, st.data())
def test_reordering_a_trick_is_flagged(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    n = d["players"]
    k = data.draw(st.integers(0, len(d["plays"]) // n - 1))
    trick = d["plays"][k * n : (k + 1) * n]
    order = data.draw(st.permutations(range(n)).filter(lambda p: list(p) != list(range(n))))
    plays = [*d["plays"][: k * n], *(trick[p] for p in order), *d["plays"][(k + 1) * n :]]
    answer = evaluate({**d, "plays": plays})
    # Every seat holds its own cards: a card moved within a trick is played by a seat without it.
    assert not answer["valid"]


@SETTINGS
@given(deals, st.data())
def test_dropping_a_card_from_the_plays(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    seats = seats_of_plays(d)
    i = data.draw(st.integers(0, len(seats) - 1))
    answer = evaluate({**d, "plays": d["plays"][:i] + d["plays"][i + 1 :]})
    if i == len(seats) - 1:
        # The last card missing: a legal deal still in progress, the dropped card its next play.
        assert answer["valid"] and answer["status"] == "in_progress"
        assert answer["next"]["seat"] == seats[i] and d["plays"][i] in answer["next"]["legal"]
    elif seats[i + 1] != seats[i]:
        # The next card is now the dropped card's seat's play, and that seat never held it.
        assert not answer["valid"]


@SETTINGS
@given(deals, st.data())
def test_changing_the_dealer_moves_every_seat(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    dealer = data.draw(st.sampled_from([s for s in range(d["players"]) if s != d["dealer"]]))
    answer = evaluate({**d, "dealer": dealer})
    if not d["chelem_announced"]:
        # The first lead follows the dealer, so the first trick is played by the wrong seats.
        assert not answer["valid"]


@SETTINGS
@given(deals, st.data())
def test_a_hand_short_of_a_card_is_flagged(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    hands = copy.deepcopy(d["hands"])
    seat = data.draw(st.integers(0, d["players"] - 1))
    hands[seat].pop(data.draw(st.integers(0, len(hands[seat]) - 1)))
    answer = evaluate({**d, "hands": hands})
    assert not answer["valid"] and "hand_size" in codes(answer)


@SETTINGS
@given(deals, st.data())
def test_a_card_played_twice_is_flagged(evaluate: Any, d: dict[str, Any], data: st.DataObject) -> None:
    n = len(d["plays"])
    i = data.draw(st.integers(1, n - 1))
    j = data.draw(st.integers(0, i - 1))
    plays = list(d["plays"])
    plays[i] = plays[j]
    answer = evaluate({**d, "plays": plays})
    assert not answer["valid"] and answer["violations"]


@SETTINGS
@given(deals, st.integers(0, 10), st.sampled_from(["taker", "contract", "called_card", "discard", "poignees"]))
def test_any_field_changed_gets_a_verdict(evaluate: Any, d: dict[str, Any], salt: int, name: str) -> None:
    # Changes whose legality depends on the deal: only no failure and determinism are certain.
    # Some make the request itself invalid (a discard listing a card twice, a trump called):
    # a located 422 then, still never a failure.
    mutated = copy.deepcopy(d)
    if name == "taker":
        mutated["taker"] = (d["taker"] + 1 + salt) % d["players"]
    elif name == "contract":
        mutated["contract"] = ["prise", "garde", "garde_sans", "garde_contre"][salt % 4]
    elif name == "called_card" and d["players"] == 5:
        mutated["called_card"] = ["KS", "KH", "KD", "KC", "QS", "1T"][salt % 6]
    elif name == "discard" and d["discard"]:
        mutated["discard"] = [*d["discard"][1:], d["plays"][salt % len(d["plays"])]]
    elif name == "poignees":
        mutated["poignees"] = [{"seat": salt % d["players"], "cards": d["hands"][0][:10]}]
    evaluate(mutated, refusable=True)
