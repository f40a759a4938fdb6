"""Words for people, kept as a catalog key and its specifics until a language is known.

The rules core, the contract, the HTTP layer, the server and the command line all say what to
tell as a :class:`Message` (a key of the catalogs of :mod:`service.texts`, and the card, the
seat, the points it speaks of); :func:`service.texts.render` makes it a sentence once the
reader's language is known. Nothing here knows a language, a file or the rules: every layer
can use it, the core included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class CardName:
    """A card said in words (« le 15 d'atout », "the king of hearts")."""

    card: int
    """A card of the core (``service.rules.cards.Card``: 0…77 in deck order)."""


@dataclass(frozen=True, slots=True)
class CardCodes:
    """Cards listed by their wire codes, in deck order (a list of legal cards)."""

    cards: int
    """A set of cards of the core (``service.rules.cards.CardMask``)."""


@dataclass(frozen=True, slots=True)
class Points:
    """Card points, given in half points: written as players write them (40.5, « 40,5 »)."""

    half: int


@dataclass(frozen=True, slots=True)
class Signed:
    """A score term with its sign always written (+66, −420)."""

    value: int


@dataclass(frozen=True, slots=True)
class SignedList:
    """Signed numbers in a row: every seat's mark."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the game from the catalog's ``term.<kind>.<value>`` (a contract, a side, a suit)."""

    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class Bytes:
    """A size, given in bytes: written as people read sizes (64 KiB, « 64 Kio »)."""

    count: int


Arg: TypeAlias = "int | str | CardName | CardCodes | Points | Signed | SignedList | Term | Bytes | Message"


@dataclass(frozen=True, slots=True)
class Message:
    """Words for people, kept as a catalog key and its arguments until a language is known.

    ``count``, when set, chooses the plural form (and is also the ``{count}`` argument).
    """

    key: str
    args: tuple[tuple[str, Arg], ...] = ()
    count: int | Points | None = None


def msg(_key: str, _count: int | Points | None = None, /, **args: Arg) -> Message:
    """A :class:`Message`; its key is a literal, so that the catalog tests find every key.

    (The key and count are positional-only, so that any name, ``key`` included, can be an argument.)"""
    return Message(_key, tuple(args.items()), _count)
