"""Five players: the called card and the partner (rules.md §5)."""

from __future__ import annotations

from collections.abc import Sequence

from ..messages import CardName, msg
from .cards import JACK, KING, RANK_OF, CardMask, suit_card
from .cards import PLAIN_SUITS as SUITS
from .record import DealContext, DealRecord
from .verdicts import ViolationCode


def partner_of(deal: DealContext, hands: Sequence[CardMask], taker: int) -> int | None:
    """Five players: the holder of the called card, unless it is the taker or in the dog (§5).

    ``hands`` are the dealt hands, or without them the cards each seat played.
    """
    r = deal.record
    if r.players != 5 or r.called_card is None:
        return None
    holder = next((s for s, hand in enumerate(hands) if hand >> r.called_card & 1), None)
    return None if holder == taker else holder


def called_card_played(record: DealRecord) -> bool:
    """Whether the record's plays show the called card (there is none below five players)."""
    return record.called_card is None or record.called_card in record.plays


def lowest_callable_rank(hand: CardMask) -> int:
    """The lowest rank the taker holding ``hand`` may call (§5.1): a king; holding all four, a
    queen; and so on down to a jack."""
    rank = KING
    while rank > JACK and all(hand >> suit_card(s, rank) & 1 for s in SUITS):
        rank -= 1
    return rank


def check_call(deal: DealContext, dealt: list[CardMask] | None, taker: int) -> None:
    """A king is called; holding all four kings, a queen; and so on down to a jack (§5)."""
    r = deal.record
    if r.players != 5 or r.called_card is None or dealt is None:
        return
    if RANK_OF[r.called_card] < lowest_callable_rank(dealt[taker]):
        deal.report(
            ViolationCode.BAD_CALL,
            msg("violation.bad_call", card=CardName(r.called_card)),
            seat=taker,
            card=r.called_card,
        )
