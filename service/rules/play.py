"""Card play: the led suit, the legal cards and the winner of a trick (rules.md §6, §7).

Functions here take the hand as a :data:`~service.rules.cards.CardMask` and the trick as
the cards already played, in play order. They know nothing of seats or sides: the deal
evaluation (:mod:`service.rules.deal`) maps trick indexes to seats and applies the
last-trick chelem exception of §7, which no single trick can decide.

§6 is stated once. Each of its clauses (and §5.3's ban) is a :class:`Clause`, made below once
and for all: the reason it gives, the cards it permits and the rule a card it refuses breaks.
:func:`clause` tries them in the rulebook's order. The legal cards of a hand are the cards
of it the deciding clause permits (:func:`legal_for`); the fault of a card played is read
from the same clause (:func:`card_violation`), so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from ..messages import Arg, CardCodes, CardName, Message, Term, msg
from .cards import (
    BIT,
    DECK_SIZE,
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    FULL_DECK,
    PLAIN_SUITS,
    SUIT_MASKS,
    SUIT_OF,
    TRUMPS,
    TRUMPS_ABOVE,
    Card,
    CardMask,
    Suit,
    mask_of,
)
from .frozen import copied_by_constructor
from .variants import Rules
from .verdicts import LegalReason, ViolationCode

__all__ = [
    "Clause",
    "Legal",
    "LegalReason",
    "Trick",
    "best_card",
    "card_violation",
    "clause",
    "led_suit",
    "legal_cards",
    "legal_for",
    "legal_message",
    "opening_ban",
    "trick_winner",
    "violation_message",
]

_TRUMPS: Final = Suit.TRUMPS
"""Looked up once: an enum member is a slow attribute to read, and the play reads this one for
every card."""


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
        if SUIT_OF[card] is _TRUMPS and (best is None or card > best):
            best = card
    return best


def opening_ban(called_card: Card | None, rules: Rules, *, first_trick: bool) -> Card | None:
    """The card whose suit the opening lead may not be in (§5), or ``None`` where no ban applies:
    after the first trick, with no called card (three and four players), or with the ban off."""
    if not first_trick or called_card is None or not rules.called_suit_lead_ban:
        return None
    return called_card


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause of §6, or §5.3's ban, as it applies to a position."""

    reason: LegalReason
    cards: CardMask
    """The cards of the deck it permits."""
    breaks: tuple[ViolationCode | None, ...]
    """For each card of the deck, the rule that playing it breaks; ``None`` where permitted."""


def _clause(
    reason: LegalReason,
    cards: CardMask,
    refused: ViolationCode | None = None,
    low_trump: ViolationCode | None = None,
) -> Clause:
    """A clause permitting ``cards`` and the Excuse (6.1: at any moment). A card it refuses
    breaks ``refused``; a trump, ``low_trump`` when that is given."""
    cards |= EXCUSE_BIT
    breaks = tuple(
        None if cards >> c & 1 else low_trump if low_trump is not None and SUIT_OF[c] is _TRUMPS else refused
        for c in range(DECK_SIZE)
    )
    return Clause(reason, cards, breaks)


_SUIT_OF_CARD: Final = tuple(0 if (s := SUIT_OF[c]) is None else SUIT_MASKS[s] for c in range(DECK_SIZE))
"""Each card's suit, as the cards of it (none for the Excuse)."""

_LEAD: Final = _clause(LegalReason.LEAD, FULL_DECK)
"""6.2: no suit led yet, any card."""
_CALLED_SUIT_BAN: Final = tuple(
    _clause(LegalReason.CALLED_SUIT_BAN, FULL_DECK & ~(_SUIT_OF_CARD[c] & ~BIT[c]), ViolationCode.CALLED_SUIT_LEAD)
    for c in range(DECK_SIZE)
)
"""§5.3, for each card called: any card but those of its suit, the called card itself excepted."""
_FOLLOW: Final = tuple(_clause(LegalReason.FOLLOW, SUIT_MASKS[s], ViolationCode.RENOUNCE) for s in PLAIN_SUITS)
"""6.3, for each plain suit led: a card of it."""
_TRUMP: Final = _clause(LegalReason.TRUMP, TRUMPS, ViolationCode.MUST_TRUMP)
"""6.4 on a plain lead, no trump in the trick yet: any trump."""
# 6.4 once a trump is down. A card other than a trump fails to trump on a plain lead, and
# to follow the led suit on a trump lead; a trump refused is one too low.
_FAILS_TO_TRUMP: Final = {s: ViolationCode.RENOUNCE if s is _TRUMPS else ViolationCode.MUST_TRUMP for s in Suit}
_OVERTRUMP_ON: Final = {
    fault: tuple(
        _clause(LegalReason.OVERTRUMP, TRUMPS_ABOVE[top], fault, ViolationCode.MUST_OVERTRUMP)
        for top in range(FIRST_TRUMP, EXCUSE)
    )
    for fault in set(_FAILS_TO_TRUMP.values())
}
_OVERTRUMP: Final = tuple(_OVERTRUMP_ON[_FAILS_TO_TRUMP[s]] for s in Suit)
"""6.4, for each led suit and highest trump in the trick: a trump above it."""
_UNDERTRUMP: Final = tuple(_clause(LegalReason.UNDERTRUMP, TRUMPS, _FAILS_TO_TRUMP[s]) for s in Suit)
"""6.4, for each led suit, no trump of the hand above the trick's highest: any trump."""
_DISCARD: Final = _clause(LegalReason.DISCARD, FULL_DECK)
"""6.5: neither the led suit nor a trump in hand, any card."""


def clause(
    hand: CardMask, suit: Suit | None, top: Card | None, banned_lead: Card | None = None, played: Card = EXCUSE
) -> Clause:
    """The clause of §6 (or §5.3) deciding what ``hand`` may play: the first that applies, in
    the rulebook's order.

    ``suit`` is the led suit and ``top`` the highest trump in the trick (``None`` before
    either); ``banned_lead`` as for :func:`legal_cards`. ``played``, a card of ``hand`` when
    the question is that card (the Excuse shows nothing), shows by itself that the hand holds
    its suit, or a trump above ``top``: the deal replay asks this of every card played, and is
    spared looking through the rest of the hand.
    """
    if suit is None:  # 6.2: any card, but for the ban
        if banned_lead is not None:
            ban = _CALLED_SUIT_BAN[banned_lead]
            # It binds a hand holding a barred card and something else to lead; the Excuse
            # counts as something else (§12).
            if hand & ~ban.cards and hand & ~_SUIT_OF_CARD[banned_lead]:
                return ban
        return _LEAD
    shown = SUIT_OF[played]
    if suit is not _TRUMPS and (shown is suit or hand & SUIT_MASKS[suit]):  # 6.3: the led plain suit held
        return _FOLLOW[suit]
    if shown is not _TRUMPS and not hand & TRUMPS:  # 6.5: nor a trump
        return _DISCARD
    if top is None:  # 6.4: a trump, the first in the trick
        return _TRUMP
    if (shown is _TRUMPS and played > top) or hand & TRUMPS_ABOVE[top]:  # 6.4: above the highest, if it can
        return _OVERTRUMP[suit][top - FIRST_TRUMP]
    return _UNDERTRUMP[suit]


def legal_cards(hand: CardMask, trick: Sequence[Card], *, banned_lead: Card | None = None) -> Legal:
    """The cards of ``hand`` that may be played to ``trick`` (§6).

    ``banned_lead`` is the called card when the five-player opening-lead ban of §5 applies
    (first trick of the deal, ban not switched off); the caller decides that. The ban binds
    whoever sets the suit, so after an Excuse lead it binds the second player. It lifts when
    the player holds nothing but the called suit; the Excuse counts as something else, since
    it may always be played (our reading of "holds nothing else").
    """
    return legal_for(hand, led_suit(trick), highest_trump(trick), banned_lead)


def legal_for(hand: CardMask, suit: Suit | None, top: Card | None, banned_lead: Card | None = None) -> Legal:
    """:func:`legal_cards` from the trick's led suit and highest trump, for a caller (the deal
    replay) that keeps them up to date as the cards fall instead of rescanning the trick."""
    rule = clause(hand, suit, top, banned_lead)
    return Legal(hand & rule.cards, rule.reason)


def card_violation(
    hand: CardMask, card: Card, suit: Suit | None, top: Card | None, banned_lead: Card | None = None
) -> ViolationCode | None:
    """§6 for one card of ``hand``: ``None`` when it may be played, else the rule it breaks."""
    return clause(hand, suit, top, banned_lead, card).breaks[card]


def legal_message(reason: LegalReason, trick: Sequence[Card], banned_lead: Card | None, hand: CardMask) -> Message:
    """The rule that decided the legal cards of ``hand``, for people, with what the player must
    follow, beat or avoid: the led suit, the highest trump in the trick, the called card.

    Every sentence is true of ``hand``: the Excuse is offered only to a hand holding it, and the
    called card is named as a card to lead only to the hand holding it."""
    suit, top = led_suit(trick), highest_trump(trick)
    excuse = bool(hand & EXCUSE_BIT)
    if reason is LegalReason.CALLED_SUIT_BAN and banned_lead is not None:
        if hand & BIT[banned_lead]:
            return msg("legal.called_suit_ban", called=CardName(banned_lead))
        called_suit = SUIT_OF[banned_lead]
        assert called_suit is not None  # a king, queen, knight or jack is called (§5)
        return msg("legal.called_suit_ban.not_held", called=CardName(banned_lead), suit=_suit_term(called_suit))
    if reason is LegalReason.OVERTRUMP and top is not None:
        return msg("legal.overtrump.excuse" if excuse else "legal.overtrump", top=CardName(top))
    if reason is LegalReason.UNDERTRUMP and top is not None:
        return msg("legal.undertrump.excuse" if excuse else "legal.undertrump", top=CardName(top))
    if suit is None:
        return msg("legal.lead")
    led = _suit_term(suit)
    if reason is LegalReason.FOLLOW:
        return msg("legal.follow.excuse" if excuse else "legal.follow", suit=led)
    if reason is LegalReason.TRUMP:
        return msg("legal.trump.excuse" if excuse else "legal.trump", suit=led)
    return msg("legal.discard.trump_lead") if suit is Suit.TRUMPS else msg("legal.discard", suit=led)


def _suit_term(suit: Suit) -> Term:
    return Term("suit", suit.name.lower())


def violation_message(
    code: ViolationCode,
    seat: int,
    card: Card,
    legal: CardMask,
    suit: Suit | None,
    top: Card | None,
    banned_lead: Card | None,
) -> Message:
    """A card played against §6, ``code`` the rule it breaks, for people: with the led suit,
    the trump to beat or the called card, which a player needs to see the fault."""
    said: dict[str, Arg] = {"seat": seat, "card": CardName(card), "legal": CardCodes(legal)}
    if code is ViolationCode.CALLED_SUIT_LEAD and banned_lead is not None:
        return msg("violation.called_suit_lead", called=CardName(banned_lead), **said)
    if code is ViolationCode.MUST_OVERTRUMP and top is not None:
        return msg("violation.must_overtrump", top=CardName(top), **said)
    if suit is Suit.TRUMPS:
        return msg("violation.renounce.trump_lead", **said)
    assert suit is not None  # a plain suit was led: renounce or must_trump
    key = "violation.must_trump" if code is ViolationCode.MUST_TRUMP else "violation.renounce"
    return msg(key, suit=_suit_term(suit), **said)


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


copied_by_constructor(Clause, Legal)
