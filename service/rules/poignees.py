"""Poignées (rules.md §9.5): what a seat may show, and the tier it makes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..messages import CardName, msg
from .cards import EXCUSE, EXCUSE_BIT, TRUMPS, CardMask, count, iter_cards, mask_of
from .frozen import copied_by_constructor
from .record import DealContext, PoigneeShown
from .scoring import PoigneeSize, Side
from .table import Table
from .verdicts import ViolationCode


@dataclass(frozen=True, slots=True)
class PoigneeResult:
    seat: int
    side: Side
    size: PoigneeSize


def showable_cards(hand: CardMask, discard: CardMask, taker: bool) -> CardMask:
    """What a seat may show in a poignée besides its hand as play starts: a taker who had to
    discard trumps may show them again (§9.5)."""
    return hand | discard & TRUMPS if taker else hand


def is_second(p: PoigneeShown, seen_seats: set[int]) -> bool:
    """Whether ``p`` is a poignée the deal does not count (§9.5): its seat's second (the seats
    that showed one before are ``seen_seats``), or one showing a card twice."""
    return p.seat in seen_seats or count(mask_of(p.cards)) != len(p.cards)


def tier_of(table: Table, cards: int) -> PoigneeSize:
    """The tier of a poignée of exactly ``cards`` trumps at ``table`` (§9.5)."""
    return list(PoigneeSize)[table.poignee_sizes.index(cards)]


def first_card_at(seat: int, opening_leader: int, players: int) -> int:
    """How many cards of the deal are played before ``seat``'s first: every seat plays once to
    the opening trick, led by ``opening_leader`` (§2)."""
    return (seat - opening_leader) % players


def check_poignees(
    deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int], opening_leader: int
) -> list[PoigneeResult]:
    """Each poignée (§9.5): a tier's exact count of trumps the seat holds, the Excuse only as a
    last resort, shown before its owner's first card (the opening trick is led by ``opening_leader``)."""
    r, table = deal.record, deal.table
    out: list[PoigneeResult] = []
    seen_seats: set[int] = set()
    for p in r.poignees:
        shown = mask_of(p.cards)
        if is_second(p, seen_seats):
            deal.report(
                ViolationCode.POIGNEE_DUPLICATE,
                msg("violation.poignee_duplicate", seat=p.seat),
                seat=p.seat,
                trick=0,
            )
            continue
        seen_seats.add(p.seat)
        # Shown late: ruled by when it was shown (§14.6), whatever else is wrong with it.
        if _late(deal, p, opening_leader):
            continue
        if len(p.cards) not in table.poignee_sizes:
            deal.report(
                ViolationCode.POIGNEE_SIZE,
                msg(
                    "violation.poignee_size",
                    len(p.cards),
                    seat=p.seat,
                    sizes="/".join(map(str, table.poignee_sizes)),
                ),
                seat=p.seat,
                trick=0,
            )
            continue
        if not deal.known[p.seat]:
            # A hand not known whole (a deal in progress without hands, or the taker's without
            # his discard): what it shows cannot be held against it.
            out.append(_result(p.seat, len(p.cards), attack, deal))
            continue
        hand = hands[p.seat]  # as play starts: the taker's after the discard
        # Discarded trumps are no longer held, so not showing them does not bar the Excuse.
        showable = showable_cards(hand, mask_of(r.discard or ()), p.seat == taker)
        bad = shown & ~((TRUMPS | EXCUSE_BIT) & showable)
        if bad:
            card = next(iter_cards(bad))
            deal.report(
                ViolationCode.POIGNEE_CARD,
                msg("violation.poignee_card", card=CardName(card), seat=p.seat),
                seat=p.seat,
                card=card,
                trick=0,
            )
            continue
        if shown & EXCUSE_BIT and hand & TRUMPS & ~shown:
            deal.report(
                ViolationCode.POIGNEE_EXCUSE,
                msg("violation.poignee_excuse", seat=p.seat),
                seat=p.seat,
                card=EXCUSE,
                trick=0,
            )
            continue
        out.append(_result(p.seat, len(p.cards), attack, deal))
    return out


def _late(deal: DealContext, p: PoigneeShown, opening_leader: int) -> bool:
    """Whether ``p`` was shown after its owner's first card (reported): every seat plays once
    to the opening trick, so its first card is there."""
    if p.shown_at is None or p.shown_at <= first_card_at(p.seat, opening_leader, deal.record.players):
        return False
    deal.report(ViolationCode.POIGNEE_LATE, msg("violation.poignee_late", seat=p.seat), seat=p.seat, trick=0)
    return True


def _result(seat: int, shown: int, attack: Sequence[int], deal: DealContext) -> PoigneeResult:
    return PoigneeResult(seat, Side.ATTACK if seat in attack else Side.DEFENCE, tier_of(deal.table, shown))


copied_by_constructor(PoigneeResult)
