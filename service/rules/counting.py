"""Counting a complete deal (rules.md §9.1, §9.4): card points and oudlers of each side, the Petit au bout."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import EXCUSE, EXCUSE_BIT, OUDLERS, PETIT, CardMask, count, half_points_of
from .discard import dog_of
from .excuse import ExcuseOutcome, ExcuseSettlement, excuse_of_deal
from .play import Trick
from .record import DealContext
from .scoring import Contract, Side


def count_points(
    deal: DealContext,
    tricks: Sequence[Trick],
    trick_masks: Sequence[CardMask],
    side_of: Sequence[Side],
    contract: Contract,
    discard: CardMask,
) -> tuple[ExcuseSettlement, tuple[int, int], tuple[int, int]]:
    """Card points and oudlers of each side after the Excuse settlement (§8, §9)."""
    r = deal.record
    won = [0, 0]  # cards won by attack, defence
    for t, cards in zip(tricks, trick_masks, strict=True):
        assert t.winner is not None
        won[side_of[t.winner] is Side.DEFENCE] |= cards
    dog = dog_of(r, tricks, discard, contract)
    if contract is Contract.GARDE_SANS:
        won[0] |= dog
    elif contract is Contract.GARDE_CONTRE:
        won[1] |= dog
    else:
        won[0] |= discard
    excuse = excuse_of_deal(deal, tricks, side_of, contract, discard, dog)
    # Move the Excuse to the side that keeps it, then the half-point exchange.
    for s in (0, 1):
        won[s] &= ~EXCUSE_BIT
    adjust = [0, 0]
    if excuse.kept_by is not None:
        won[excuse.kept_by is Side.DEFENCE] |= EXCUSE_BIT
    if excuse.exchange is not None:
        adjust[excuse.exchange.from_side is Side.DEFENCE] -= 1
        adjust[excuse.exchange.to_side is Side.DEFENCE] += 1
    points = (half_points_of(won[0]) + adjust[0], half_points_of(won[1]) + adjust[1])
    oudlers = (count(won[0] & OUDLERS), count(won[1] & OUDLERS))
    return excuse, points, oudlers


def petit_au_bout_side(tricks: Sequence[Trick], side_of: Sequence[Side], excuse: ExcuseSettlement) -> Side | None:
    """§9.4: the Petit in the last trick goes to that trick's winner; when the chelem side led
    the Excuse to the last trick (and so took it), a Petit in the second-to-last trick counts."""
    last = tricks[-1]
    if PETIT in last.cards and last.winner is not None:
        return side_of[last.winner]
    if excuse.outcome is ExcuseOutcome.TOOK_LAST_TRICK and last.cards[0] == EXCUSE and len(tricks) > 1:
        before = tricks[-2]
        if PETIT in before.cards and before.winner is not None:
            return side_of[before.winner]
    return None
