"""Card play: the led suit, the legal cards and the winner of a trick (rules.md §6, §7).

Functions here take the hand as a :data:`~service.rules.cards.CardMask` and the trick as
the cards already played, in play order. They know nothing of seats or sides: the deal
evaluation (:mod:`service.rules.deal`) maps trick indexes to seats and applies the
last-trick chelem exception of §7, which no single trick can decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import EXCUSE, EXCUSE_BIT, SUIT_MASKS, SUIT_OF, TRUMPS, TRUMPS_ABOVE, Card, CardMask, Suit, mask_of
from .frozen import copied_by_constructor
from .variants import Rules
from .verdicts import CardName, LegalReason, Message, Term, ViolationCode, msg

__all__ = [
    "Legal",
    "LegalReason",
    "Trick",
    "best_card",
    "card_violation",
    "led_suit",
    "legal_cards",
    "legal_for",
    "legal_message",
    "opening_ban",
    "trick_winner",
]


class Trick(NamedTuple):
    """A trick as played (une levée). A named tuple: the replay makes one per trick, and a
    tuple is made several times faster than a frozen dataclass."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    """``None`` until a card other than the Excuse is played."""

    def seat_of(self, card: Card, players: int) -> int:
        """The seat that played ``card`` to this trick."""
        return (self.leader + self.cards.index(card)) % players


@dataclass(frozen=True, slots=True)
class Legal:
    """The legal cards of a hand and the rule that decided them."""

    cards: CardMask
    reason: LegalReason


def led_suit(trick: Sequence[Card]) -> Suit | None:
    """The suit of the first card that is not the Excuse; ``None`` before there is one."""
    for card in trick:
        if card != EXCUSE:
            return SUIT_OF[card]
    return None


def highest_trump(trick: Sequence[Card]) -> Card | None:
    """The highest trump in the trick (cards are ints in rank order), or ``None``."""
    best: Card | None = None
    for card in trick:
        if SUIT_OF[card] is Suit.TRUMPS and (best is None or card > best):
            best = card
    return best


def opening_ban(called_card: Card | None, rules: Rules, *, first_trick: bool) -> Card | None:
    """The card whose suit the opening lead may not be in (§5), or ``None`` where no ban applies:
    after the first trick, with no called card (three and four players), or with the ban off."""
    if not first_trick or called_card is None or not rules.called_suit_lead_ban:
        return None
    return called_card


def legal_cards(hand: CardMask, trick: Sequence[Card], *, banned_lead: Card | None = None) -> Legal:
    """The cards of ``hand`` that may be played to ``trick`` (§6).

    ``banned_lead`` is the called card when the five-player opening-lead ban of §5 applies
    (first trick of the deal, ban not switched off); the caller decides that. The ban binds
    whoever sets the suit, so after an Excuse lead it binds the second player. It lifts when
    the player holds nothing but the called suit; the Excuse counts as something else, since
    it may always be played (our reading of "holds nothing else").
    """
    return legal_for(hand, led_suit(trick), highest_trump(trick), banned_lead)


def legal_message(reason: LegalReason, trick: Sequence[Card], banned_lead: Card | None = None) -> Message:
    """The rule that decided the legal cards, for people, with what the player must follow,
    beat or avoid: the led suit, the highest trump in the trick, the called card."""
    suit, top = led_suit(trick), highest_trump(trick)
    if reason is LegalReason.CALLED_SUIT_BAN and banned_lead is not None:
        return msg("legal.called_suit_ban", called=CardName(banned_lead))
    if reason is LegalReason.OVERTRUMP and top is not None:
        return msg("legal.overtrump", top=CardName(top))
    if reason is LegalReason.UNDERTRUMP and top is not None:
        return msg("legal.undertrump", top=CardName(top))
    if suit is None:
        return msg("legal.lead")
    led = Term("suit", suit.name.lower())
    if reason is LegalReason.FOLLOW:
        return msg("legal.follow", suit=led)
    if reason is LegalReason.TRUMP:
        return msg("legal.trump", suit=led)
    return msg("legal.discard.trump_lead") if suit is Suit.TRUMPS else msg("legal.discard", suit=led)


def legal_for(hand: CardMask, suit: Suit | None, top: Card | None, banned_lead: Card | None = None) -> Legal:
    """:func:`legal_cards` from the trick's led suit and highest trump, for a caller (the deal
    replay) that keeps them up to date as the cards fall instead of rescanning the trick."""
    excuse = hand & EXCUSE_BIT
    if suit is None:
        if banned_lead is not None:
            called_suit = SUIT_OF[banned_lead]
            assert called_suit is not None
            # A hand of nothing but the called suit is free of the ban (the Excuse counts as
            # something else, §12).
            others = hand & ~SUIT_MASKS[called_suit]
            allowed = others | hand & (1 << banned_lead)
            if others and allowed != hand:
                return Legal(allowed, LegalReason.CALLED_SUIT_BAN)
        return Legal(hand, LegalReason.LEAD)
    if suit is not Suit.TRUMPS:
        following = hand & SUIT_MASKS[suit]
        if following:
            return Legal(following | excuse, LegalReason.FOLLOW)
    trumps = hand & TRUMPS
    if not trumps:
        return Legal(hand, LegalReason.DISCARD)
    if top is None:
        return Legal(trumps | excuse, LegalReason.TRUMP)
    higher = trumps & TRUMPS_ABOVE[top]
    if higher:
        return Legal(higher | excuse, LegalReason.OVERTRUMP)
    return Legal(trumps | excuse, LegalReason.UNDERTRUMP)


def card_violation(
    hand: CardMask, card: Card, suit: Suit | None, top: Card | None, banned_lead: Card | None = None
) -> ViolationCode | None:
    """§6 for one card of ``hand``: ``None`` when it may be played, else the rule it breaks.

    The deal replay asks this of every card played, so it walks the rules without making the
    legal set; :func:`legal_for` states the same rules as a set, and a property test holds the
    two together card by card, the answer and the code.
    """
    if card == EXCUSE:
        return None  # 6.1: always
    card_suit = SUIT_OF[card]
    if suit is None:  # 6.2: any card, but for the five-player opening ban (§5.3)
        if banned_lead is None or card == banned_lead or card_suit is not SUIT_OF[banned_lead]:
            return None
        called_suit = SUIT_OF[banned_lead]
        assert called_suit is not None
        # The ban lifts when the hand holds nothing else (the Excuse counts as something else).
        return ViolationCode.CALLED_SUIT_LEAD if hand & ~SUIT_MASKS[called_suit] else None
    if suit is not Suit.TRUMPS:  # 6.3: follow a plain suit held
        if card_suit is suit:
            return None
        if hand & SUIT_MASKS[suit]:
            return ViolationCode.RENOUNCE
    trumps = hand & TRUMPS
    if not trumps:
        return None  # 6.5: neither the led suit nor a trump: any card
    if card_suit is not Suit.TRUMPS:  # 6.4: a trump is due
        return ViolationCode.RENOUNCE if suit is Suit.TRUMPS else ViolationCode.MUST_TRUMP
    # 6.4: above the highest trump in the trick when the hand can; else any trump.
    if top is not None and card < top and trumps & TRUMPS_ABOVE[top]:
        return ViolationCode.MUST_OVERTRUMP
    return None


def best_card(cards: CardMask, suit: Suit | None) -> Card | None:
    """The card winning a trick holding ``cards`` led in ``suit`` (§7), ``None`` if none does.

    Cards are numbered in rank order within each suit, trumps 1…21 included, so the best card
    of a set is its highest bit: the highest trump, else the highest card of the led suit.
    """
    trumps = cards & TRUMPS
    if trumps:
        return trumps.bit_length() - 1
    if suit is None:
        return None
    return (cards & SUIT_MASKS[suit]).bit_length() - 1


def trick_winner(trick: Sequence[Card]) -> int | None:
    """The index in ``trick`` of the card winning it so far (§7), ``None`` if there is none.

    The highest trump wins; with no trump, the highest card of the led suit. The Excuse
    never wins here, so a trick holding only the Excuse has no winner yet. The last-trick
    chelem exception is the deal's business (:func:`service.rules.deal.evaluate_deal`).
    """
    mask = mask_of(trick)
    best = best_card(mask, None if mask & TRUMPS else led_suit(trick))  # a trump wins whatever was led
    return None if best is None else trick.index(best)


copied_by_constructor(Legal)
