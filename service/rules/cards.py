"""Cards, suits and the deck (rules.md §1).

A card is a small int in canonical deck order: spades ace→king (0–13), hearts (14–27),
diamonds (28–41), clubs (42–55), trumps 1→21 (56–76), the Excuse (77). A set of cards is
a bit mask over those 78 positions, so membership, union and "any card of this suit" are
single integer operations on the hot paths. Wire codes (``KS``, ``10H``, ``1T``, ``EX``)
are parsed and formatted only at the edges, through :func:`parse_card` and
:func:`format_card`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

Card = int
"""A card: an int in ``0 … 77`` in canonical deck order."""

CardMask = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""


class Suit(IntEnum):
    """The four plain suits and the trumps (atouts). The Excuse has no suit."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    TRUMPS = 4

    @property
    def code(self) -> str:
        return _SUIT_CODES[self]


_SUIT_CODES: Final = ("S", "H", "D", "C", "T")
PLAIN_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_CODES: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")

DECK_SIZE: Final = 78
SUIT_SIZE: Final = 14
JACK: Final = 11
KNIGHT: Final = 12
QUEEN: Final = 13
KING: Final = 14

FIRST_TRUMP: Final[Card] = 56
EXCUSE: Final[Card] = 77
"""L'Excuse: neither a suit card nor a trump."""
PETIT: Final[Card] = FIRST_TRUMP
"""The 1 of trumps, le Petit."""
MONDE: Final[Card] = FIRST_TRUMP + 20
"""The 21 of trumps, le Monde."""


def suit_card(suit: Suit, rank: int) -> Card:
    """The card of ``rank`` (1 = ace … 14 = king) in a plain ``suit``."""
    if suit is Suit.TRUMPS or not 1 <= rank <= KING:
        raise ValueError(f"no plain-suit card of rank {rank} in {suit.name}")
    return int(suit) * SUIT_SIZE + rank - 1


def trump(number: int) -> Card:
    """The trump numbered ``number`` (1 = the Petit … 21)."""
    if not 1 <= number <= 21:
        raise ValueError(f"no trump numbered {number}")
    return FIRST_TRUMP + number - 1


def _suit_of(card: Card) -> Suit | None:
    if card == EXCUSE:
        return None
    if card >= FIRST_TRUMP:
        return Suit.TRUMPS
    return Suit(card // SUIT_SIZE)


SUIT_OF: Final[tuple[Suit | None, ...]] = tuple(_suit_of(c) for c in range(DECK_SIZE))
"""The suit of each card; ``None`` for the Excuse."""

RANK_OF: Final[tuple[int, ...]] = tuple(
    0 if c == EXCUSE else (c - FIRST_TRUMP + 1 if c >= FIRST_TRUMP else c % SUIT_SIZE + 1) for c in range(DECK_SIZE)
)
"""Rank inside the suit (1 = ace … 14 = king) or the trump's number; 0 for the Excuse."""

SUIT_MASKS: Final[tuple[CardMask, ...]] = tuple(sum(1 << c for c in range(DECK_SIZE) if SUIT_OF[c] == s) for s in Suit)
"""Indexed by :class:`Suit`: every card of that suit (index 4: the 21 trumps)."""

TRUMPS: Final[CardMask] = SUIT_MASKS[Suit.TRUMPS]
BIT: Final[tuple[CardMask, ...]] = tuple(1 << card for card in range(DECK_SIZE))
"""Each card as a one-card set: looked up, not computed, in the deal replay's inner loop."""
EXCUSE_BIT: Final[CardMask] = 1 << EXCUSE
FULL_DECK: Final[CardMask] = (1 << DECK_SIZE) - 1
OUDLERS: Final[CardMask] = (1 << PETIT) | (1 << MONDE) | EXCUSE_BIT
"""The three bouts: the 21, the Petit and the Excuse."""
KINGS: Final[CardMask] = sum(1 << suit_card(s, KING) for s in PLAIN_SUITS)

TRUMPS_ABOVE: Final[tuple[CardMask, ...]] = tuple(
    (TRUMPS & ~((2 << c) - 1)) if SUIT_OF[c] is Suit.TRUMPS else 0 for c in range(DECK_SIZE)
)
"""For a trump, the trumps strictly higher than it; 0 for every other card."""


def _half_points(card: Card) -> int:
    if (1 << card) & OUDLERS:
        return 9
    if card >= FIRST_TRUMP:
        return 1
    return {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}.get(RANK_OF[card], 1)


HALF_POINTS: Final[tuple[int, ...]] = tuple(_half_points(c) for c in range(DECK_SIZE))
"""Card points in half points (rules.md §1: the deck totals 182, that is 91 points)."""


def _code(card: Card) -> str:
    if card == EXCUSE:
        return "EX"
    suit = SUIT_OF[card]
    assert suit is not None
    if suit is Suit.TRUMPS:
        return f"{RANK_OF[card]}T"
    return _RANK_CODES[RANK_OF[card] - 1] + suit.code


CARD_CODES: Final[tuple[str, ...]] = tuple(_code(c) for c in range(DECK_SIZE))
"""The canonical wire code of each card, in deck order."""

CARD_BY_CODE: Final[dict[str, Card]] = {code: card for card, code in enumerate(CARD_CODES)}
"""Wire code → card; exact and case-sensitive."""


def parse_card(code: str) -> Card:
    """The card of a canonical wire code; :class:`KeyError` for anything else.

    Codes are exact and case-sensitive: ``KS`` is the king of spades, ``ks`` is not a code.
    """
    return CARD_BY_CODE[code]


def format_card(card: Card) -> str:
    """The canonical wire code of ``card``."""
    return CARD_CODES[card]


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The set of ``cards`` as a bit mask."""
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of ``mask``, in canonical deck order."""
    return list(iter_cards(mask))


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """The cards of ``mask``, lowest first (canonical deck order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: CardMask) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


_POINT_CLASSES: Final[tuple[tuple[int, CardMask], ...]] = tuple(
    (value, sum(1 << c for c in range(DECK_SIZE) if HALF_POINTS[c] == value)) for value in sorted(set(HALF_POINTS))
)
"""The deck split by card value: (half points, mask of the cards worth that)."""


def half_points_of(mask: CardMask) -> int:
    """The card points of a set of cards, in half points: one popcount per card value."""
    return sum(value * (mask & cards).bit_count() for value, cards in _POINT_CLASSES)


def is_trump(card: Card) -> bool:
    """True for the 21 trumps (not the Excuse)."""
    return FIRST_TRUMP <= card < EXCUSE
