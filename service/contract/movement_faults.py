"""Where a fault of a movement's check form is in the request, and its words (rules.md §17.1).

The core names a fault by its position, its table number, its players and its étuis; the
request may hold a table number twice, so each fault is placed at the JSON pointer of the sitting,
seat, étui or label it is about, the ``k``-th fault of one kind at one place at the ``k``-th of
that place's candidates, in the core's order (the request's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.messages import Message
from service.rules.duplicate_movement_check import MovementFault
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from service.rules.verdicts import DuplicateMovementFault
from service.texts import render

FAULT_MESSAGES: dict[DuplicateMovementFault, str] = {
    DuplicateMovementFault.POSITION_NUMBERS: "movement.fault.position_numbers",
    DuplicateMovementFault.TABLE_TWICE: "movement.fault.table_twice",
    DuplicateMovementFault.MISSING_PLAYER: "movement.fault.missing_player",
    DuplicateMovementFault.UNKNOWN_PLAYER: "movement.fault.unknown_player",
    DuplicateMovementFault.ABSENT_PLAYER: "movement.fault.absent_player",
    DuplicateMovementFault.PLAYER_TWICE: "movement.fault.player_twice",
    DuplicateMovementFault.ORIENTATION_CHANGED: "movement.fault.orientation_changed",
    DuplicateMovementFault.NO_ETUI: "movement.fault.no_etui",
    DuplicateMovementFault.ETUI_TWICE: "movement.fault.etui_twice",
    DuplicateMovementFault.ETUI_REPLAYED: "movement.fault.etui_replayed",
    DuplicateMovementFault.UNKNOWN_ETUI: "movement.fault.unknown_etui",
    DuplicateMovementFault.BAD_LABEL: "movement.fault.bad_label",
}
"""The catalog key of each fault's words for people (each written whole: the texts' test finds them)."""


class FaultLocator:
    """Each fault's place in the request: the core names a position, a table number, players and
    étuis; a request may hold one table number twice, so the ``k``-th fault of one kind at one
    place is the ``k``-th of that place's candidates, in the core's order (the request's)."""

    def __init__(
        self, sittings: Sequence[Sitting], players: Sequence[Sequence[str]], labels: Sequence[Etui] | None
    ) -> None:
        self.sittings = sittings
        self.players = players
        self.labels = labels or ()
        self.used: dict[tuple[Any, ...], int] = {}
        self.own: dict[str, str] = {}
        for orientation, line in zip(DUPLICATE_ORIENTATIONS, self.players, strict=False):
            for pid in line:
                self.own.setdefault(pid, orientation)
        if not self.players:
            for s in sorted(self.sittings, key=lambda s: (s.position, s.table)):
                for orientation, pid in zip(DUPLICATE_ORIENTATIONS, s.players, strict=False):
                    if pid:
                        self.own.setdefault(pid, orientation)

    def dump(self, fault: MovementFault, language: str) -> dict[str, Any]:
        pointer, table = self._place(fault)
        player = fault.players[0] if fault.players else ""
        etui = fault.etuis[0] if fault.etuis else 0
        said = Message(
            FAULT_MESSAGES[fault.code],
            (("position", fault.position), ("table", table or 0), ("player", player), ("etui", etui)),
        )
        return {
            "code": fault.code,
            "pointer": pointer,
            "position": fault.position or None,
            "table": table,
            "players": list(fault.players),
            "etuis": list(fault.etuis),
            "message": render(said, language),
        }

    def _next(self, fault: MovementFault, candidates: list[str]) -> str:
        key = (fault.code, fault.position, fault.table, fault.players, fault.etuis)
        k = self.used.get(key, 0)
        self.used[key] = k + 1
        return candidates[min(k, len(candidates) - 1)] if candidates else ""

    def _at(self, position: int, table: int | None = None) -> list[int]:
        return [
            i for i, s in enumerate(self.sittings) if s.position == position and (table is None or s.table == table)
        ]

    def _seats_of(self, player: str, indexes: list[int]) -> list[str]:
        return [
            f"/sittings/{i}/players/{o}"
            for i in indexes
            for o, pid in zip(DUPLICATE_ORIENTATIONS, self.sittings[i].players, strict=False)
            if pid == player
        ]

    def _etuis_of(self, etui: int, indexes: list[int]) -> list[str]:
        return [f"/sittings/{i}/etuis/{k}" for i in indexes for k, e in enumerate(self.sittings[i].etuis) if e == etui]

    def _place(self, fault: MovementFault) -> tuple[str, int | None]:
        code, position, table = fault.code, fault.position, fault.table
        player = fault.players[0] if fault.players else ""
        etui = fault.etuis[0] if fault.etuis else 0
        if code is DuplicateMovementFault.POSITION_NUMBERS:
            return f"/sittings/{self._at(position)[0]}/position", None
        if code is DuplicateMovementFault.TABLE_TWICE:
            return self._next(fault, [f"/sittings/{i}/table" for i in self._at(position, table)[1:]]), table
        if code is DuplicateMovementFault.MISSING_PLAYER:
            empty = [i for i in self._at(position, table) if not all(self.sittings[i].players)]
            return self._next(fault, [f"/sittings/{i}/players" for i in empty]), table
        if code is DuplicateMovementFault.UNKNOWN_PLAYER:
            return self._next(fault, self._seats_of(player, self._at(position, table))), table
        if code is DuplicateMovementFault.ABSENT_PLAYER:
            return self._absent(player), None
        if code is DuplicateMovementFault.PLAYER_TWICE:
            return self._next(fault, self._seats_of(player, self._at(position))[1:]), table
        if code is DuplicateMovementFault.ORIENTATION_CHANGED:
            seats = self._seats_of(player, self._at(position, table))
            wrong = [p for p in seats if p.rsplit("/", 1)[1] != self.own.get(player)]
            return self._next(fault, wrong), table
        if code is DuplicateMovementFault.NO_ETUI:
            empty = [i for i in self._at(position, table) if not self.sittings[i].etuis]
            return self._next(fault, [f"/sittings/{i}/etuis" for i in empty]), table
        if code is DuplicateMovementFault.ETUI_TWICE:
            return self._next(fault, self._etuis_of(etui, self._at(position))[1:]), table
        if code is DuplicateMovementFault.UNKNOWN_ETUI:
            return self._next(fault, self._etuis_of(etui, self._at(position, table))), table
        if code is DuplicateMovementFault.ETUI_REPLAYED:
            return self._replayed(position, player, etui)
        return self._next(fault, self._bad_labels(etui)), None

    def _absent(self, player: str) -> str:
        for orientation, line in zip(DUPLICATE_ORIENTATIONS, self.players, strict=False):
            if player in line:
                return f"/players/{orientation}/{line.index(player)}"
        return "/players"

    def _replayed(self, position: int, player: str, etui: int) -> tuple[str, int | None]:
        for i in self._at(position):
            s = self.sittings[i]
            if player in s.players and etui in s.etuis:
                return f"/sittings/{i}/etuis/{s.etuis.index(etui)}", s.table
        return "/sittings", None

    def _bad_labels(self, etui: int) -> list[str]:
        """The labels of ``etui`` the core finds wrong, in its order: one not naming orientations,
        or one whose number was labelled before."""
        seen: set[int] = set()
        bad = []
        for i, label in enumerate(self.labels):
            named = label.taker in DUPLICATE_ORIENTATIONS and label.dealer in DUPLICATE_ORIENTATIONS
            if label.number == etui and (label.number in seen or not named):
                bad.append(f"/etuis/{i}")
            seen.add(label.number)
        return bad
