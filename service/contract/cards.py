"""Cards on the wire: their codes in answers, the cards a taker may call, and their named
schemas (``Card``, ``CalledCard``) with names generated code can use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.rules.cards import CARD_CODES, RANK_OF, SUIT_OF, Card, CardMask, Suit, iter_cards


def code(card: Card | None) -> str | None:
    """A card's wire code (``None`` passes through), for answers built ready to send."""
    return None if card is None else CARD_CODES[card]


def codes(cards: Iterable[Card]) -> list[str]:
    """The wire codes of ``cards``, in their order."""
    return [CARD_CODES[card] for card in cards]


def codes_of(mask: CardMask | None) -> list[str] | None:
    """The wire codes of a card set, in canonical deck order (``None`` passes through)."""
    return None if mask is None else [CARD_CODES[card] for card in iter_cards(mask)]


CALLABLE: frozenset[Card] = frozenset(c for c in range(56) if RANK_OF[c] > 10)
"""Kings, queens, knights and jacks of the four suits."""

_RANK_NAMES = ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
               "JACK", "KNIGHT", "QUEEN", "KING")  # fmt: skip


def card_name(card: Card) -> str:
    """A name for generated code (``x-enum-varnames``): KING_OF_SPADES, TRUMP_21, EXCUSE.

    The codes themselves (``10H``, ``1T``) start with digits, which no language takes as an
    identifier: generators would otherwise name them ``VALUE_56``.
    """
    suit = SUIT_OF[card]
    if suit is None:
        return "EXCUSE"
    if suit is Suit.TRUMPS:
        return f"TRUMP_{RANK_OF[card]}"
    return f"{_RANK_NAMES[RANK_OF[card] - 1]}_OF_{suit.name}"


CARD_COMPONENTS: dict[str, dict[str, Any]] = {
    "Card": {
        "type": "string",
        "enum": list(CARD_CODES),
        "x-enum-varnames": [card_name(c) for c in range(len(CARD_CODES))],
        "description": "A card code (rules.md §1): rank then suit for suit cards (ranks 1–10, J, N, Q, K; "
        "suits S, H, D, C), number then T for trumps, EX for the Excuse.",
    },
    "CalledCard": {
        "type": "string",
        "enum": [CARD_CODES[c] for c in sorted(CALLABLE)],
        "x-enum-varnames": [card_name(c) for c in sorted(CALLABLE)],
        "description": "A king, queen, knight or jack: the cards a taker may call at five players.",
    },
}
