"""Table sizes: hands, dog, tricks and poignée tiers by number of players (rules.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .frozen import copied_by_constructor


@dataclass(frozen=True, slots=True)
class Table:
    """What the number of players fixes: hand and dog (chien) sizes, poignée tiers."""

    players: int
    hand_size: int
    dog_size: int
    poignee_sizes: tuple[int, int, int]
    """Trumps shown for a simple, double and triple poignée."""

    @property
    def tricks(self) -> int:
        """Tricks in a deal: one per card in a hand."""
        return self.hand_size

    def next_seat(self, seat: int) -> int:
        """The seat that speaks and plays after ``seat`` (counter-clockwise)."""
        return (seat + 1) % self.players


TABLES: Final[dict[int, Table]] = {
    3: Table(3, 24, 6, (13, 15, 18)),
    4: Table(4, 18, 6, (10, 13, 15)),
    5: Table(5, 15, 3, (8, 10, 13)),
}
"""The three supported tables, keyed by number of players."""

PLAYER_COUNTS: Final = tuple(TABLES)

MIN_PLAYERS: Final = min(TABLES)
MAX_PLAYERS: Final = max(TABLES)
LARGEST_HAND: Final = max(table.hand_size for table in TABLES.values())
"""The most cards a hand holds at any table (three players)."""

copied_by_constructor(Table)
