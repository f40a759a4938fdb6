"""The Excuse settlement (rules.md §7, §8): where it goes, and the half point it owes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import EXCUSE, EXCUSE_BIT, CardMask
from .frozen import copied_by_constructor
from .play import Trick
from .record import DealContext
from .scoring import Contract, Side
from .variants import FFT, ExcuseLastTrick, Rules


class ExcuseOutcome(StrEnum):
    """What became of the Excuse (rules.md §7, §8)."""

    RETURNED = "returned"
    """Played before the last trick: it goes back to its owner's side."""
    CHANGED_SIDE = "changed_side"
    """Played to the last trick outside the chelem case: it goes to the other side."""
    KEPT_IN_LAST_TRICK = "kept_in_last_trick"
    """Variant ``excuse_last_trick = trick_winner``: its own side won the last trick."""
    TOOK_LAST_TRICK = "took_last_trick"
    """Played to the last trick by a side that won every earlier trick: it wins that trick."""
    IN_DOG = "in_dog"
    IN_DISCARD = "in_discard"
    NOT_PLAYED = "not_played"


@dataclass(frozen=True, slots=True)
class ExcuseExchange:
    """The half point owed for an Excuse returned from a trick the other side won (§8.1–2)."""

    from_side: Side
    to_side: Side
    paid_at_trick: int | None
    """The trick at which the owner's side paid with a 0.5-point card; ``None`` if it never
    won a trick and the debt was settled on paper (the Excuse then counts 4 for it)."""


@dataclass(frozen=True, slots=True)
class ExcuseSettlement:
    outcome: ExcuseOutcome
    played_by: int | None = None
    trick: int | None = None
    kept_by: Side | None = None
    exchange: ExcuseExchange | None = None


def settle_excuse(
    tricks: Sequence[Trick], side_of: Sequence[Side], rules: Rules = FFT, last_trick: int | None = None
) -> ExcuseSettlement | None:
    """What becomes of the Excuse once played (§7, §8); ``None`` if it was not played.

    ``tricks`` may be a deal in progress: ``last_trick`` is then the index of the deal's last
    trick (by default the last of ``tricks``). An Excuse in a trick still being played is
    returned to its owner's side, its exchange not yet known; one in a trick the other side
    won is owed a half point, paid at the first trick its side wins (``paid_at_trick``), or
    still owed (``None``: in a complete deal, settled on paper).
    """
    players = len(side_of)
    last = len(tricks) - 1 if last_trick is None else last_trick
    for index, t in enumerate(tricks):
        if EXCUSE not in t.cards:
            continue
        seat = t.seat_of(EXCUSE, players)
        owner = side_of[seat]
        if len(t.cards) < players or t.winner is None:
            return ExcuseSettlement(ExcuseOutcome.RETURNED, seat, index, owner)
        winner = side_of[t.winner]
        if index == last:
            if t.winner == seat:
                return ExcuseSettlement(ExcuseOutcome.TOOK_LAST_TRICK, seat, index, owner)
            if rules.excuse_last_trick is ExcuseLastTrick.TRICK_WINNER:
                outcome = ExcuseOutcome.CHANGED_SIDE if winner is not owner else ExcuseOutcome.KEPT_IN_LAST_TRICK
                return ExcuseSettlement(outcome, seat, index, winner)
            return ExcuseSettlement(ExcuseOutcome.CHANGED_SIDE, seat, index, owner.other)
        exchange = None
        if winner is not owner:
            paid = next(
                (
                    max(i, index)
                    for i, u in enumerate(tricks)
                    if u.winner is not None and len(u.cards) == players and side_of[u.winner] is owner
                ),
                None,
            )
            exchange = ExcuseExchange(owner, winner, paid)
        return ExcuseSettlement(ExcuseOutcome.RETURNED, seat, index, owner, exchange)
    return None


def excuse_of_deal(
    deal: DealContext,
    tricks: Sequence[Trick],
    side_of: Sequence[Side],
    contract: Contract,
    discard: CardMask,
    dog: CardMask,
) -> ExcuseSettlement:
    played = settle_excuse(tricks, side_of, deal.record.rules)
    if played is not None:
        return played
    if discard & EXCUSE_BIT:
        return ExcuseSettlement(ExcuseOutcome.IN_DISCARD, kept_by=Side.ATTACK)
    if dog & EXCUSE_BIT:
        keeper = Side.DEFENCE if contract is Contract.GARDE_CONTRE else Side.ATTACK
        return ExcuseSettlement(ExcuseOutcome.IN_DOG, kept_by=keeper)
    return ExcuseSettlement(ExcuseOutcome.NOT_PLAYED)


def excuse_so_far(tricks: Sequence[Trick], side_of: Sequence[Side], rules: Rules, last_trick: int) -> ExcuseSettlement:
    played = settle_excuse(tricks, side_of, rules, last_trick)
    return played if played is not None else ExcuseSettlement(ExcuseOutcome.NOT_PLAYED)


copied_by_constructor(ExcuseExchange, ExcuseSettlement)
