"""The cards as the kit writes them (rules.md §1): wire codes, their suits, ranks and points.

The reference model and the deal builders work on these strings, apart from service/rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Json = Any
Deal = dict[str, Any]

RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = [r + s for s in SUITS for r in RANKS] + [f"{k}T" for k in range(1, 22)] + ["EX"]
ORDER = {c: i for i, c in enumerate(DECK)}
OUDLERS = ("1T", "21T", "EX")
KINGS = tuple("K" + s for s in SUITS)
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
THRESHOLD = (56, 51, 41, 36)
POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}
TIERS = ("simple", "double", "triple")


@dataclass(frozen=True)
class Table:
    hand: int
    dog: int
    poignees: tuple[int, int, int]


TABLE = {3: Table(24, 6, (13, 15, 18)), 4: Table(18, 6, (10, 13, 15)), 5: Table(15, 3, (8, 10, 13))}


def suit(card: str) -> str | None:
    """S, H, D, C, T (trumps), or None for the Excuse, which belongs to no suit."""
    if card == "EX":
        return None
    return "T" if card.endswith("T") else card[-1]


def rank(card: str) -> int:
    return int(card[:-1]) if card.endswith("T") else RANKS.index(card[:-1]) + 1


def half_points(card: str) -> int:
    """§1.3 in half points: oudlers and kings 9, queens 7, knights 5, jacks 3, the rest 1."""
    if card in OUDLERS or card in KINGS:
        return 9
    return {"Q": 7, "N": 5, "J": 3}.get(card[:-1], 1)


def ordered(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def points_of(halves: int) -> float | int:
    return halves // 2 if halves % 2 == 0 else halves / 2


def other(side: str) -> str:
    return "defence" if side == "attack" else "attack"


PLAYER_WORD = {3: "three", 4: "four", 5: "five"}


def cards(text: str) -> list[str]:
    """The cards of a space-separated list of codes."""
    return text.split()
