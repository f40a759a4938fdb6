"""rules.md §7 (the chelem exception) and §8 (the Excuse settlement), case by case.

settle_excuse works on tricks and sides only, so each case is a few hand-made tricks at
three players: seat 0 is the taker (attack), seats 1 and 2 the defence.
"""

from __future__ import annotations

import dataclasses

import pytest

from service.randomdeals import random_deal, record
from service.rules.cards import parse_card
from service.rules.counting import petit_au_bout_side
from service.rules.deal import Status, evaluate_deal
from service.rules.excuse import ExcuseOutcome, settle_excuse
from service.rules.play import Trick
from service.rules.scoring import Side
from service.rules.variants import ExcuseLastTrick, Rules

A, D = Side.ATTACK, Side.DEFENCE
SIDES = (A, D, D)


def trick(leader: int, cards: str, winner: int) -> Trick:
    return Trick(leader, tuple(parse_card(c) for c in cards.split()), winner)


def test_8_1_returned_and_exchanged_when_the_other_side_wins() -> None:
    tricks = [trick(0, "KS 1S 2S", 0), trick(0, "3S EX 4S", 0), trick(0, "5S 6S 7S", 0)]
    x = settle_excuse(tricks, SIDES)
    assert x is not None
    assert (x.outcome, x.played_by, x.trick, x.kept_by) == (ExcuseOutcome.RETURNED, 1, 1, D)
    assert x.exchange is not None
    assert (x.exchange.from_side, x.exchange.to_side, x.exchange.paid_at_trick) == (D, A, None)


def test_8_1_no_exchange_when_the_own_side_wins() -> None:
    tricks = [trick(0, "1S EX KS", 2), trick(2, "5S 6S 7S", 1), trick(1, "8S 9S 10S", 0)]
    x = settle_excuse(tricks, SIDES)
    assert x is not None and x.exchange is None and x.kept_by is D


def test_8_1_paid_at_once_when_the_owner_already_won_a_trick() -> None:
    # Seat 0 (attack) played the Excuse in trick 1, won by the defence; the attack wins trick 2.
    tricks = [trick(0, "KS 2S 1S", 0), trick(0, "EX 3S 4S", 2), trick(2, "5S 6S 7S", 1)]
    x = settle_excuse(tricks, SIDES)
    assert x is not None and x.exchange is not None
    assert (x.exchange.from_side, x.exchange.paid_at_trick) == (A, 1)


def test_8_2_owed_until_the_owner_wins_a_trick() -> None:
    tricks = [trick(0, "EX 3S 4S", 2), trick(2, "5S 6S KS", 1), trick(1, "1S 2S QS", 0)]
    x = settle_excuse(tricks, SIDES)
    assert x is not None and x.exchange is not None
    assert x.exchange.paid_at_trick == 2


def test_8_2_never_paid_when_the_owner_wins_nothing() -> None:
    tricks = [trick(0, "EX 3S 4S", 2), trick(2, "5S 6S KS", 1), trick(1, "1S QS 2S", 2)]
    x = settle_excuse(tricks, SIDES)
    assert x is not None and x.exchange is not None
    assert x.exchange.paid_at_trick is None


@pytest.mark.parametrize(
    ("tricks", "rules", "outcome", "kept_by"),
    [
        # §8.3 last trick, the other side wins it: changes side.
        ([trick(0, "KS 1S 2S", 0), trick(0, "5S EX 4S", 0)], Rules(), ExcuseOutcome.CHANGED_SIDE, A),
        # §8.3 last trick, its own side wins it: still changes side (FFT).
        ([trick(0, "KS 1S 2S", 1), trick(1, "5S EX 4S", 1)], Rules(), ExcuseOutcome.CHANGED_SIDE, A),
        # Variant: it goes to the trick winner's side.
        (
            [trick(0, "KS 1S 2S", 1), trick(1, "5S EX 4S", 1)],
            Rules(excuse_last_trick=ExcuseLastTrick.TRICK_WINNER),
            ExcuseOutcome.KEPT_IN_LAST_TRICK,
            D,
        ),
        (
            [trick(0, "KS 1S 2S", 0), trick(0, "5S EX 4S", 0)],
            Rules(excuse_last_trick=ExcuseLastTrick.TRICK_WINNER),
            ExcuseOutcome.CHANGED_SIDE,
            A,
        ),
        # §8.4: led to the last trick by a side that won every trick: it took the trick.
        ([trick(0, "KS 1S 2S", 0), trick(0, "EX 3S 4S", 0)], Rules(), ExcuseOutcome.TOOK_LAST_TRICK, A),
    ],
)
def test_8_3_and_8_4_last_trick(tricks: list[Trick], rules: Rules, outcome: ExcuseOutcome, kept_by: Side) -> None:
    x = settle_excuse(tricks, SIDES, rules)
    assert x is not None
    assert (x.outcome, x.kept_by, x.exchange) == (outcome, kept_by, None)


def test_not_played() -> None:
    assert settle_excuse([trick(0, "KS 1S 2S", 0)], SIDES) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_8_2_in_progress_the_exchange_is_shown_owed_or_paid(players: int) -> None:
    """Cut a deal just after the trick where the other side took the Excuse, and later: the
    exchange is what the complete deal settles, paid once the owner's side has won a trick,
    owed until then."""
    checked = 0
    for seed in range(200):
        deal = random_deal(seed, players)
        full = evaluate_deal(record(deal))
        x = full.excuse
        if x is None or x.exchange is None or x.trick is None:
            continue
        for cut in range(x.trick + 1, len(full.tricks)):
            partial = evaluate_deal(dataclasses.replace(record(deal), plays=record(deal).plays[: cut * players]))
            assert partial.status is Status.IN_PROGRESS
            assert partial.excuse is not None and partial.excuse.exchange is not None
            paid = x.exchange.paid_at_trick
            expected = paid if paid is not None and paid < cut else None
            assert (partial.excuse.exchange.from_side, partial.excuse.exchange.to_side) == (
                x.exchange.from_side,
                x.exchange.to_side,
            )
            assert partial.excuse.exchange.paid_at_trick == expected, (seed, cut)
            checked += 1
        if checked > 40:
            break
    assert checked > 20


def test_9_4_petit_au_bout_in_the_second_to_last_trick_only_when_the_excuse_is_led() -> None:
    # The taker's side took every trick; the Petit fell in the second-to-last trick.
    before = trick(0, "1T 2S 3S", 0)
    led = [before, trick(0, "EX 4S 5S", 0)]
    x = settle_excuse(led, SIDES)
    assert x is not None and x.outcome is ExcuseOutcome.TOOK_LAST_TRICK
    assert petit_au_bout_side(led, SIDES, x) is A
    # Five players: the partner plays the Excuse after the taker's lead; it takes the trick
    # (§7, led or not), but the Petit before it is not au bout.
    sides5 = (A, A, D, D, D)
    before5 = trick(0, "1T 2S 3S 4S 5S", 0)
    followed = [before5, trick(0, "6S EX 7S 8S 9S", 1)]
    x = settle_excuse(followed, sides5)
    assert x is not None and x.outcome is ExcuseOutcome.TOOK_LAST_TRICK
    assert petit_au_bout_side(followed, sides5, x) is None
