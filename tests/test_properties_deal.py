"""Hypothesis: random legal deals played to the end, evaluated through the core."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.randomdeals import random_deal, record
from service.rules.cards import EXCUSE, parse_card
from service.rules.deal import evaluate_deal
from service.rules.excuse import ExcuseOutcome
from service.rules.record import DealRecord

deals = st.builds(random_deal, st.integers(0, 2**32), st.sampled_from([3, 4, 5]))


@settings(max_examples=150, deadline=None)
@given(deals)
def test_random_legal_deals(d: dict[str, Any]) -> None:
    ev = evaluate_deal(record(d))
    assert ev.valid, ev.violations
    assert ev.status.value == "complete"
    # 78 cards conserved: every card is dealt once and ends in a trick, the dog or the discard.
    dealt = [c for h in d["hands"] for c in h] + d["dog"]
    assert sorted(map(parse_card, dealt)) == list(range(78))
    in_tricks = [c for t in ev.tricks for c in t.cards]
    aside = d["discard"] if d["contract"] in ("prise", "garde") else d["dog"]
    assert sorted(in_tricks + [parse_card(c) for c in aside]) == list(range(78))
    assert ev.points_half is not None and sum(ev.points_half) == 182
    assert ev.oudlers is not None and sum(ev.oudlers) == 3
    assert ev.score is not None and sum(ev.score.scores) == 0
    # The Excuse never wins a trick, except the last one under the chelem exception.
    for index, t in enumerate(ev.tricks):
        if EXCUSE in t.cards and t.winner == t.seat_of(EXCUSE, d["players"]):
            assert index == len(ev.tricks) - 1
            assert ev.excuse is not None and ev.excuse.outcome is ExcuseOutcome.TOOK_LAST_TRICK
            assert ev.chelem_made_by is not None
    assert evaluate_deal(record(d)) == ev, "evaluation is deterministic"


@settings(max_examples=60, deadline=None)
@given(deals)
def test_inferred_hands_give_the_same_result(d: dict[str, Any]) -> None:
    full = evaluate_deal(record(d))
    bare = evaluate_deal(DealRecord(**{**_fields(record(d)), "hands": None, "dog": None}))
    assert bare.valid
    assert [t.winner for t in bare.tricks] == [t.winner for t in full.tricks]
    assert bare.points_half == full.points_half
    assert bare.partner == full.partner
    assert bare.score == full.score


def _fields(r: DealRecord) -> dict[str, Any]:
    return {f.name: getattr(r, f.name) for f in dataclasses.fields(DealRecord)}
