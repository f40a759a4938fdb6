"""Rulings on faulty deals: the Code of Arbitration (rules.md §14; code d'arbitrage).

A complete deal with violations still gets a final score: the ruling. It rests on the deal's
root faults (§12: consequences follow their root and decide nothing) and reads each one as a
row of the decision table of §14: who is at fault, and whether the deal is then void (nobody
scores), counted (scored as the cards fell, a poignée's bonus dropped where the table says so)
or dealt again. The principle of the incorrigible faults (§14.2) runs through it: the side at
fault must not profit, so the deal is void when that side won as played, and counted when it
lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..messages import Message, msg
from .cards import EXCUSE_BIT, KINGS, OUDLERS, SUIT_OF, TRUMPS, CardMask, count
from .frozen import copied_by_constructor
from .play import Trick
from .poignees import first_card_at, is_second, showable_cards, tier_of
from .record import DealContext, PoigneeShown
from .scoring import PoigneeSize, Score, Side, Summary, score
from .variants import DealErrors
from .verdicts import Decision, RulingReason, Violation, ViolationCode


class AtFault(StrEnum):
    """The side a ruling holds at fault."""

    ATTACK = "attack"
    DEFENCE = "defence"
    BOTH = "both"


SECTION: Final = {
    RulingReason.BOTH_SIDES_AT_FAULT: "§14.1",
    RulingReason.COMPLETED_RENOUNCE: "§14.2",
    RulingReason.WRONG_CARD_COUNT: "§14.2",
    RulingReason.AUCTION_FAULT: "§14.2",
    RulingReason.COVERED_LEAD: "§14.3",
    RulingReason.EXPOSED_CARD: "§14.3",
    RulingReason.EXPOSED_IMPORTANT_CARD: "§14.3",
    RulingReason.DISCARD_FAULT: "§14.4",
    RulingReason.DEALING_FAULT: "§14.5",
    RulingReason.DEALING_ERROR_DISREGARDED: "§14.5",
    RulingReason.POIGNEE_RECTIFIABLE: "§14.6",
    RulingReason.POIGNEE_UNRECTIFIABLE: "§14.6",
    RulingReason.POIGNEE_TOO_MANY: "§14.6",
    RulingReason.POIGNEE_BEFORE_COVERED: "§14.6",
    RulingReason.POIGNEE_LATE: "§14.6",
    RulingReason.POIGNEE_EXCUSE: "§14.6",
    RulingReason.POIGNEE_SECOND: "§14.6",
}
"""The section of rules.md each row is stated in."""

_PLAY_FAULTS: Final = frozenset(
    {
        ViolationCode.RENOUNCE,
        ViolationCode.MUST_TRUMP,
        ViolationCode.MUST_OVERTRUMP,
        ViolationCode.CALLED_SUIT_LEAD,
        ViolationCode.CARD_NOT_IN_HAND,
    }
)
_AUCTION_FAULTS: Final = frozenset({ViolationCode.BID_ORDER, ViolationCode.BID_NOT_HIGHER, ViolationCode.BAD_CALL})
_DISCARD_FAULTS: Final = frozenset(
    {
        ViolationCode.DISCARD_SIZE,
        ViolationCode.DISCARD_NOT_HELD,
        ViolationCode.DISCARD_KING_OR_BOUT,
        ViolationCode.DISCARD_TRUMP,
    }
)
_DEALING_FAULTS: Final = frozenset({ViolationCode.HAND_SIZE, ViolationCode.PETIT_SEC})
_POIGNEE_FAULTS: Final = frozenset(
    {
        ViolationCode.POIGNEE_SIZE,
        ViolationCode.POIGNEE_CARD,
        ViolationCode.POIGNEE_EXCUSE,
        ViolationCode.POIGNEE_DUPLICATE,
        ViolationCode.POIGNEE_LATE,
    }
)
IMPORTANT_CARDS: Final = OUDLERS | KINGS
"""An exposed card is important when it is an oudler or a king (our reading of "carte importante")."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """The Code of Arbitration's answer to a complete deal with violations (§14)."""

    decision: Decision
    reason: RulingReason
    side_at_fault: AtFault | None
    """``None`` when the irregularity is no fault (a covered lead) or the deal is dealt again."""
    faults: tuple[int, ...]
    """Indexes, in the evaluation's violations, of the root faults the ruling rests on."""
    as_played: Score
    """The deal scored as the cards fell, every poignée at the tier its cards reach."""
    scores: tuple[int, ...]
    """Every seat's mark after the ruling: all 0 when void or dealt again."""
    message: Message


@dataclass(frozen=True, slots=True)
class _Row:
    """One root fault read as a row of the table."""

    index: int
    reason: RulingReason
    sides: tuple[Side, ...]
    """The sides at fault: none for no fault, both for a fault no seat can be held to."""
    void_if_won: bool | None
    """True: void if the side at fault won as played (else counted). None: never void."""
    drop: int | None = None
    """A poignée (index in the record) whose bonus the ruling does not count."""
    drop_only_if_won: bool | None = None
    """With ``drop``: drop it only if the taker won (True), only if he lost (False), always (None)."""
    rectified: tuple[int, PoigneeSize] | None = None
    """A poignée (index in the record) completed to the tier it aimed at, and that tier."""


@dataclass(frozen=True, slots=True)
class AsPlayed:
    """A complete deal as it was played, as the ruling reads it."""

    deal: DealContext
    hands: Sequence[CardMask]
    """The hands as play began."""
    discard: CardMask
    tricks: Sequence[Trick]
    taker: int
    side_of: Sequence[Side]
    """Each seat's side."""
    opening_leader: int
    """The seat that led the first trick."""


def rule_deal(played: AsPlayed, summary: Summary) -> Ruling:
    """The ruling on a complete deal with violations; ``summary`` is the deal's summary (its
    poignées are read again here, as shown)."""
    deal, side_of = played.deal, played.side_of
    n = deal.record.players
    tiers = _tiers_shown(deal)
    as_played = score(summary._replace(poignees=tuple((side_of[p.seat], t) for p, t in tiers if t is not None)))
    won = as_played.won
    roots = [(i, v) for i, v in enumerate(deal.violations) if v.caused_by is None]
    rows = [_row(i, v, played) for i, v in roots]
    faults = tuple(i for i, _ in roots)

    def ruling(decision: Decision, reason: RulingReason, at_fault: AtFault | None, marks: tuple[int, ...]) -> Ruling:
        message = _message(decision, reason, at_fault)
        return Ruling(decision, reason, at_fault, faults, as_played, marks, message)

    zeros = (0,) * n
    dealing = next((row for row in rows if row.reason is RulingReason.DEALING_FAULT), None)
    if dealing is not None:
        return ruling(Decision.REDEAL, RulingReason.DEALING_FAULT, None, zeros)
    sides = {side for row in rows for side in row.sides}
    if len(sides) == 2:
        # Whichever won, a side at fault did: it must not profit (§14.1).
        both = next((row.reason for row in rows if len(row.sides) == 2), RulingReason.BOTH_SIDES_AT_FAULT)
        return ruling(Decision.VOID, both, AtFault.BOTH, zeros)
    at_fault = AtFault(next(iter(sides)).value) if sides else None
    for row in rows:
        if row.void_if_won is not None and row.sides:
            side_won = won if row.sides[0] is Side.ATTACK else not won
            if side_won == row.void_if_won:
                return ruling(Decision.VOID, row.reason, at_fault, zeros)
    dropped = {row.drop for row in rows if row.drop is not None and row.drop_only_if_won in (None, won)}
    for row in rows:
        if row.rectified is not None:
            at, tier = row.rectified
            tiers[at] = (tiers[at][0], tier)
    kept = tuple((side_of[p.seat], t) for i, (p, t) in enumerate(tiers) if t is not None and i not in dropped)
    final = score(summary._replace(poignees=kept))
    deciding = next((row for row in rows if row.sides), rows[0])
    return ruling(Decision.COUNTED, deciding.reason, at_fault, final.scores)


def _tiers_shown(deal: DealContext) -> list[tuple[PoigneeShown, PoigneeSize | None]]:
    """Each poignée of the record with the tier its cards reach as shown (the largest tier it
    shows at least; none below the smallest, or for a seat's second poignée)."""
    sizes = deal.table.poignee_sizes
    seen: set[int] = set()
    out: list[tuple[PoigneeShown, PoigneeSize | None]] = []
    for p in deal.record.poignees:
        reached = [size for size, shown in zip(PoigneeSize, sizes, strict=True) if len(p.cards) >= shown]
        second = is_second(p, seen)
        seen.add(p.seat)
        out.append((p, None if second or not reached else reached[-1]))
    return out


def _row(index: int, v: Violation, played: AsPlayed) -> _Row:
    """The row of the table for one root fault."""
    deal, side_of = played.deal, played.side_of
    code = v.code
    side: tuple[Side, ...] = () if v.seat is None else (side_of[v.seat],)
    if code in _DEALING_FAULTS or (code is ViolationCode.DUPLICATE_CARD and v.trick is None):
        if (
            code is not ViolationCode.PETIT_SEC
            and deal.record.rules.deal_errors_after_contract is DealErrors.DISREGARDED
        ):
            # The FFT Code text: the dealer's error, noticed after the contract, is disregarded. A petit sec
            # is no error of the dealer: it still sends the cards back (§14.5).
            return _Row(index, RulingReason.DEALING_ERROR_DISREGARDED, (), None)
        return _Row(index, RulingReason.DEALING_FAULT, (), None)
    if code is ViolationCode.WRONG_LEADER:
        return _lead_out_of_turn(index, v, played.tricks, played.taker, side_of)
    if code in _PLAY_FAULTS:
        return _Row(index, RulingReason.COMPLETED_RENOUNCE, side, True)
    if code in _DISCARD_FAULTS:
        return _Row(index, RulingReason.DISCARD_FAULT, (Side.ATTACK,), True)
    if code in _AUCTION_FAULTS:
        # A bid or a call the record cannot pin on one seat is the taker's: his contract.
        return _Row(index, RulingReason.AUCTION_FAULT, side or (Side.ATTACK,), True)
    if code in _POIGNEE_FAULTS:
        return _poignee(index, v, played)
    # A card played twice, cards beyond the deal's count: with no seat to hold to it, neither
    # side may profit.
    return _Row(index, RulingReason.WRONG_CARD_COUNT, side or (Side.ATTACK, Side.DEFENCE), True)


def _lead_out_of_turn(index: int, v: Violation, tricks: Sequence[Trick], taker: int, side_of: Sequence[Side]) -> _Row:
    """A lead out of turn: covered when the next card is a card of the same suit from the other
    side (no fault); else an exposed card, incorrigible when important and not the taker's."""
    assert v.trick is not None and v.seat is not None
    trick = tricks[v.trick]
    led, side = trick.cards[0], side_of[v.seat]
    if len(trick.cards) > 1:
        answer_seat = (trick.leader + 1) % len(side_of)
        answer = trick.cards[1]
        if side_of[answer_seat] is not side and SUIT_OF[answer] is not None and SUIT_OF[answer] is SUIT_OF[led]:
            return _Row(index, RulingReason.COVERED_LEAD, (), None)
    if v.seat != taker and IMPORTANT_CARDS >> led & 1:
        return _Row(index, RulingReason.EXPOSED_IMPORTANT_CARD, (side,), True)
    return _Row(index, RulingReason.EXPOSED_CARD, (side,), None)


def _poignee(index: int, v: Violation, played: AsPlayed) -> _Row:
    """A poignée's presentation fault, by the FFT Code text's table (§14.6)."""
    deal, side_of, taker = played.deal, played.side_of, played.taker
    assert v.seat is not None
    seat, side = v.seat, (side_of[v.seat],)
    shown_index, shown = _poignee_of(deal, seat)
    by_taker = seat == taker
    if v.code is ViolationCode.POIGNEE_DUPLICATE:
        return _Row(index, RulingReason.POIGNEE_SECOND, (), None)
    if v.code is ViolationCode.POIGNEE_EXCUSE:
        return _Row(index, RulingReason.POIGNEE_EXCUSE, side, True)
    if v.code is ViolationCode.POIGNEE_LATE:
        first = first_card_at(seat, played.opening_leader, deal.record.players)
        if shown.shown_at == first + 1:  # after its first card, which the next card had not covered
            return _Row(index, RulingReason.POIGNEE_BEFORE_COVERED, (), None)
        if by_taker:  # not counted if he won, counted if he lost
            return _Row(index, RulingReason.POIGNEE_LATE, side, None, shown_index, True)
        return _Row(index, RulingReason.POIGNEE_LATE, side, True)
    sizes = deal.table.poignee_sizes
    hand = showable_cards(played.hands[seat], played.discard, by_taker)
    held = count(hand & TRUMPS) + (1 if hand & EXCUSE_BIT else 0)
    n = len(shown.cards)
    aim = min((size for size in sizes if size >= n), default=None)
    if aim is not None and held >= aim:
        tier = tier_of(deal.table, aim)
        return _Row(index, RulingReason.POIGNEE_RECTIFIABLE, (), None, rectified=(shown_index, tier))
    if v.code is ViolationCode.POIGNEE_SIZE and n > sizes[0]:
        # More cards than a tier, and too few trumps held for the next: too many trumps.
        return _Row(index, RulingReason.POIGNEE_TOO_MANY, side, None if by_taker else True)
    # Short of every tier it aims at, or with cards the seat lacks: not counted.
    return _Row(index, RulingReason.POIGNEE_UNRECTIFIABLE, side, None if by_taker else True, shown_index)


def _poignee_of(deal: DealContext, seat: int) -> tuple[int, PoigneeShown]:
    """The poignée of the record a poignée fault is about: the seat's first (its second is a
    ``poignee_duplicate`` of its own)."""
    for i, p in enumerate(deal.record.poignees):
        if p.seat == seat:
            return i, p
    raise AssertionError(f"a poignée fault of seat {seat}, which showed none")


def _message(decision: Decision, reason: RulingReason, at_fault: AtFault | None) -> Message:
    side = "none" if at_fault is None else at_fault.value
    return msg(f"ruling.{decision.value}", reason=msg(f"ruling.reason.{reason.value}"), side=msg(f"ruling.side.{side}"))


copied_by_constructor(AsPlayed, Ruling, _Row)
