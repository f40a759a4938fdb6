"""Poignées (rules.md §9.5): what a seat may show, and the tier it makes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import EXCUSE, EXCUSE_BIT, TRUMPS, CardMask, count, format_card, iter_cards, mask_of
from .record import DealContext
from .scoring import PoigneeSize, Side
from .verdicts import ViolationCode


@dataclass(frozen=True, slots=True)
class PoigneeResult:
    seat: int
    side: Side
    size: PoigneeSize


def check_poignees(deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int]) -> list[PoigneeResult]:
    """Each poignée (§9): a tier's exact count of trumps the seat holds; the Excuse only as a last resort."""
    r, table = deal.record, deal.table
    out: list[PoigneeResult] = []
    seen_seats: set[int] = set()
    for p in r.poignees:
        shown = mask_of(p.cards)
        if p.seat in seen_seats or count(shown) != len(p.cards):
            deal.report(
                ViolationCode.POIGNEE_DUPLICATE,
                f"Seat {p.seat} shows a poignée twice or a card twice.",
                seat=p.seat,
                trick=0,
            )
            continue
        seen_seats.add(p.seat)
        if len(p.cards) not in table.poignee_sizes:
            deal.report(
                ViolationCode.POIGNEE_SIZE,
                f"Seat {p.seat} showed {len(p.cards)} cards; a poignée is {'/'.join(map(str, table.poignee_sizes))}.",
                seat=p.seat,
                trick=0,
            )
            continue
        hand = hands[p.seat]  # as play starts: the taker's after the discard
        showable = hand
        if p.seat == taker:
            # A taker who had to discard trumps may show them again (§9); they are no longer
            # held, so not showing them does not bar the Excuse.
            showable |= mask_of(r.discard or ()) & TRUMPS
        bad = shown & ~((TRUMPS | EXCUSE_BIT) & showable)
        if bad:
            card = next(iter_cards(bad))
            deal.report(
                ViolationCode.POIGNEE_CARD,
                f"{format_card(card)} is not a trump seat {p.seat} holds.",
                seat=p.seat,
                card=card,
                trick=0,
            )
            continue
        if shown & EXCUSE_BIT and hand & TRUMPS & ~shown:
            deal.report(
                ViolationCode.POIGNEE_EXCUSE,
                "The Excuse stands in for a trump only when the player has no other trump to show.",
                seat=p.seat,
                card=EXCUSE,
                trick=0,
            )
            continue
        size = list(PoigneeSize)[table.poignee_sizes.index(len(p.cards))]
        out.append(PoigneeResult(p.seat, Side.ATTACK if p.seat in attack else Side.DEFENCE, size))
    return out
