"""Root faults and their consequences (rules.md §12), on deals made faulty by one mutation.

The mutations (tests/mutations.py) put one fault into a legal deal at a known trick and seat;
the evaluation must report it as the first root, mark what follows from it, and keep the
verdict a legal deal or a faulty one would get card by card.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.randomdeals import random_deal, record
from service.rules.cards import parse_card
from service.rules.deal import evaluate_deal
from service.rules.play import legal_cards, trick_winner
from service.rules.verdicts import ViolationCode

from .mutations import KINDS, faulty, first_root_at, mutate, roots

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = range(60)
PLAY_CODES = {
    ViolationCode.WRONG_LEADER,
    ViolationCode.CARD_NOT_IN_HAND,
    ViolationCode.DUPLICATE_CARD,
    ViolationCode.CALLED_SUIT_LEAD,
    ViolationCode.RENOUNCE,
    ViolationCode.MUST_TRUMP,
    ViolationCode.MUST_OVERTRUMP,
}


def played_legally(d: dict[str, Any]) -> bool:
    """Card by card, each seat in turn (the winner leading the next trick) plays a legal card
    of its hand: the verdict on the play before any reading of faults (§2, §6, §7)."""
    n = d["players"]
    hands = [{parse_card(c) for c in h} for h in d["hands"]]
    taker = d["taker"]
    if d["contract"] in ("prise", "garde"):
        hands[taker] = (hands[taker] | {parse_card(c) for c in d["dog"]}) - {parse_card(c) for c in d["discard"]}
    leader = taker if d["chelem_announced"] else (d["dealer"] + 1) % n
    called = parse_card(d["called_card"]) if d["called_card"] else None
    plays = [parse_card(c) for c in d["plays"]]
    for t in range(0, len(plays), n):
        cards = plays[t : t + n]
        for pos, card in enumerate(cards):
            hand = hands[(leader + pos) % n]
            mask = sum(1 << c for c in hand)
            ban = called if t == 0 and n == 5 else None
            if card not in hand or not legal_cards(mask, cards[:pos], banned_lead=ban).cards >> card & 1:
                return False
            hand.discard(card)
        leader = (leader + (trick_winner(cards) or 0)) % n
    return True


mutations = st.builds(mutate, st.sampled_from(sorted(KINDS)), st.integers(0, 2**32), st.sampled_from([3, 4, 5]))


@SETTINGS
@given(mutations)
def test_12_every_consequence_points_at_an_earlier_root(m: Any) -> None:
    assume(m is not None)  # a kind that does not apply to this deal (no discard in a garde sans)
    violations = evaluate_deal(record(m.deal)).violations
    for i, v in enumerate(violations):
        if v.caused_by is not None:
            assert 0 <= v.caused_by < i, (i, violations)
            assert violations[v.caused_by].caused_by is None, (i, violations)


@SETTINGS
@given(mutations)
def test_12_reading_the_faults_keeps_the_verdict(m: Any) -> None:
    assume(m is not None)
    ev = evaluate_deal(record(m.deal))
    before_play = [v for v in ev.violations if v.code not in PLAY_CODES]
    assert ev.valid == (not before_play and played_legally(m.deal)), ev.violations


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5]))
def test_12_a_legal_deal_stays_legal(seed: int, players: int) -> None:
    d = random_deal(seed, players)
    assert played_legally(d)
    assert evaluate_deal(record(d)).violations == ()


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_12_one_fault_makes_few_roots_the_first_where_it_was_put(kind: str, players: int) -> None:
    found = list(faulty(kind, SEEDS, players))
    # Rare hands (a tier's trumps, with the Excuse or at three players) may give none here.
    rare = kind == "poignee_excuse" or (kind == "poignee_late" and players == 3)
    assert found or rare, "no deal of this kind: the test would check nothing"
    for m, ev in found:
        assert 1 <= len(roots(ev)) <= 4, ev.violations
        if kind != "swapped_pair":
            assert first_root_at(m, ev), (m.trick, m.seat, ev.violations)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_12_swapped_pair_first_root_from_the_swap_on(players: int) -> None:
    # A seat's card led out of order is a legal lead: the seats answering it, or the next
    # lead when it changed the trick's winner, show the fault. The first root is never before
    # the swap, and is at its trick and seat for most deals.
    found = list(faulty("swapped_pair", SEEDS, players))
    assert found
    for m, ev in found:
        first = ev.violations[roots(ev)[0]]
        assert first.trick is not None and m.trick is not None and first.trick >= m.trick
    assert sum(first_root_at(m, ev) for m, ev in found) >= 0.6 * len(found)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_12_one_root_per_faulty_deal_at_the_median(players: int) -> None:
    counts = [len(roots(ev)) for kind in KINDS for _, ev in faulty(kind, range(30), players)]
    assert len(counts) >= 200
    assert statistics.median(counts) == 1


def test_12_the_excuse_shown_while_a_trump_is_kept_is_one_root_where_it_was_shown() -> None:
    # A rare hand (the Excuse and a poignée's count of trumps but one): pooled over the tables.
    found = [f for players in (3, 4, 5) for f in faulty("poignee_excuse", range(700), players)]
    assert found
    for m, ev in found:
        assert len(roots(ev)) == 1 and first_root_at(m, ev), ev.violations
