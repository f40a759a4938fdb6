"""The cards as dealt (rules.md §2, §3.1): hand sizes, cards dealt twice, a petit sec."""

from __future__ import annotations

from ..messages import CardName, msg
from .cards import EXCUSE_BIT, PETIT, TRUMPS, CardMask, mask_of
from .record import DealContext
from .variants import Rules
from .verdicts import ViolationCode


def check_dealt_hands(deal: DealContext) -> list[CardMask] | None:
    """The dealt hands as masks, after checking sizes and that no card is dealt twice."""
    r, table = deal.record, deal.table
    if r.hands is None:
        return None
    seen = 0
    masks = []
    for seat, hand in enumerate(r.hands):
        if len(hand) != table.hand_size:
            deal.report(
                ViolationCode.HAND_SIZE,
                msg("violation.hand_size.hand", len(hand), seat=seat, expected=table.hand_size),
                seat=seat,
            )
        mask = mask_of(hand)
        if mask & seen or mask.bit_count() != len(hand):  # some card dealt twice: say which
            for card in hand:
                if seen >> card & 1:
                    deal.report(
                        ViolationCode.DUPLICATE_CARD,
                        msg("violation.duplicate_card.dealt", card=CardName(card)),
                        seat=seat,
                        card=card,
                    )
                seen |= 1 << card
        seen |= mask
        masks.append(mask)
    if r.dog is not None:
        if len(r.dog) != table.dog_size:
            deal.report(ViolationCode.HAND_SIZE, msg("violation.hand_size.dog", len(r.dog), expected=table.dog_size))
        for card in r.dog:
            if seen >> card & 1:
                deal.report(
                    ViolationCode.DUPLICATE_CARD, msg("violation.duplicate_card.dealt", card=CardName(card)), card=card
                )
            seen |= 1 << card
    return masks


def is_petit_sec(hand: CardMask, rules: Rules) -> bool:
    if hand & TRUMPS != 1 << PETIT:
        return False
    return rules.petit_sec_ignores_excuse or not hand & EXCUSE_BIT


def petit_sec_seat(deal: DealContext, dealt: list[CardMask] | None) -> int | None:
    for seat, hand in enumerate(dealt or ()):
        if is_petit_sec(hand, deal.record.rules):
            return seat
    return None
