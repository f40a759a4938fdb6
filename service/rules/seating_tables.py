"""The tables of a tournament's position (rules.md §16.2, §16.5): their seats, their sizes, and how
many positions a count of players can play without two of them meeting twice.

Shared by the seating (§16.5) and the control table (§16.2–16.4): one list of orientations, one
seated table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .frozen import copied_by_constructor

ORIENTATIONS: Final = ("north", "west", "south", "east", "fifth")
"""The seats of a table in playing order, as a scorecard names them (§2: counter-clockwise, the
seat after North is West; a fifth player plays after East, §16.2)."""

_SEATED: Final = {3: ("north", "south", "east"), 4: ORIENTATIONS[:4], 5: ORIENTATIONS}
"""The seats a table of each size takes (a reading: a table of 3 leaves West empty)."""


def orientations(size: int) -> tuple[str, ...]:
    """The seats of a table of ``size`` players, in playing order (past 5, a table no rule allows,
    only the first five have a name)."""
    return _SEATED.get(size, ORIENTATIONS[:size])


MIN_PLAYERS: Final = 3
"""The fewest players a tournament can seat: one table of 3."""
MAX_PLAYERS: Final = 200
"""The most players one request seats (the largest club tournaments)."""
MAX_POSITIONS: Final = 15
"""The most positions a tournament has (the FFT Code's shapes have 5 to 7)."""


@dataclass(frozen=True, slots=True)
class Composition:
    """The tables of one position: how many of 4, of 3 and of 5."""

    fours: int
    threes: int
    fives: int

    def sizes(self) -> tuple[int, ...]:
        """Each table's size: the tables of 4 first, then those of 3, then those of 5."""
        return (4,) * self.fours + (3,) * self.threes + (5,) * self.fives


def composition(players: int, fives: bool = False) -> Composition | None:
    """The tables ``players`` sit at (rule 2): tables of 4 and the fewest tables of 3; with
    ``fives``, tables of 5 in place of tables of 3 where they can be, then the fewest of them.
    None when no such tables seat them all (1, 2 or 5 players without tables of 5). A position
    never has tables of 3 and of 5 both: one of each would be two tables of 4."""
    best: Composition | None = None
    for threes in range(4):  # 3 × threes ≡ players (mod 4) has a solution below 4
        for five in range(4 if fives else 1):
            rest = players - 3 * threes - 5 * five
            if rest >= 0 and rest % 4 == 0 and players > 0:
                found = Composition(rest // 4, threes, five)
                if best is None or (found.threes, found.fives) < (best.threes, best.fives):
                    best = found
    return best


def bound(players: int, fives: bool = False) -> int:
    """The most positions ``players`` can play without a repeated meeting, by counting: a player
    meets 3 others at a table of 4, 2 at a table of 3, 4 at a table of 5, and there are only
    ``players − 1`` others. With tables of 4 only, ⌊(n − 1)/3⌋. With t tables of 3 a position
    (spread evenly, rule 5), the player who sat at the fewest meets 3p − ⌊3tp/n⌋ others in p
    positions; with f tables of 5, the one who sat at the most meets 3p + ⌈5fp/n⌉. An upper
    bound only: 20 players reach 5 positions, not the 6 it allows."""
    tables = composition(players, fives)
    if tables is None:
        return 0
    best = 0
    for p in range(1, players + 1):
        fewest_threes = (3 * tables.threes * p) // players
        most_fives = -((-5 * tables.fives * p) // players)
        if 3 * p - fewest_threes + most_fives > players - 1:
            break
        best = p
    return best


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """One table of one position, as the seating gives it and the control table takes it: its
    number (from 1) and its players, seat by seat."""

    table: int
    seats: tuple[str, ...]
    at: tuple[str, ...] = ()
    """The orientation of each seat (:data:`ORIENTATIONS`) as the table was written; () for those
    :func:`orientations` gives its size."""
    position: int = 0
    """Its position, from 1; 0 where its place in a list of positions says it."""

    def orientation(self, seat: int) -> str | None:
        """The orientation of the player at index ``seat`` of :attr:`seats` (None past the fifth)."""
        named = self.at or orientations(len(self.seats))
        return named[seat] if seat < len(named) else None


Position = tuple[SeatedTable, ...]


copied_by_constructor(Composition, SeatedTable)
