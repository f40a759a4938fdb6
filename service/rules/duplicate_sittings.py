"""Who sits where in a duplicate tournament, and what each étui says (rules.md §17.1–17.2).

Shared by the movement (which produces sittings) and the control table (which holds each play
written on a *fiche ambulante* to them): one list of orientations, one étui, one sitting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .frozen import copied_by_constructor
from .seating_tables import ORIENTATIONS

DUPLICATE_ORIENTATIONS: Final = ORIENTATIONS[:4]
"""The four orientations of a duplicate table, in playing order (north, west, south, east): a
player keeps his for the whole tournament (rulebook p. 13)."""


@dataclass(frozen=True, slots=True)
class Etui:
    """What an étui's labels say (rulebook p. 14): its number, the orientation of its taker and of
    its dealer (the player on the dealer's right leads)."""

    number: int
    taker: str
    dealer: str


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table at one position: its players by orientation and the étuis it plays, in order."""

    position: int
    """From 1."""
    table: int
    """From 1."""
    players: tuple[str, ...]
    """The four players' ids, in :data:`DUPLICATE_ORIENTATIONS` order."""
    etuis: tuple[int, ...]
    """The numbers of the étuis the table plays at this position."""

    def player_at(self, orientation: str) -> str:
        """The id of the player sitting at ``orientation``."""
        return self.players[DUPLICATE_ORIENTATIONS.index(orientation)]


copied_by_constructor(Etui, Sitting)
