"""The check of a tournament's seating (rules.md §16.5): every rule a seating breaks, located.

The seating holds positions seated elsewhere (a club's own draw, a position written by hand) to
the same rules it seats by, and lists every fault at its position, table and seat, for the
contract's pointers; the same check says what the positions it seats itself could not keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..messages import Message, msg
from .frozen import copied_by_constructor
from .seating_tables import Position, composition
from .verdicts import SeatingFault


@dataclass(frozen=True, slots=True)
class Fault:
    """A rule a seating breaks, where: the position (from 0), and the table and the seat (indexes
    in the position's list of tables and in the table's list of players) where that applies."""

    code: SeatingFault
    message: Message
    position: int
    table: int | None
    seat: int | None
    players: tuple[str, ...]


_UNEVEN: Final = {
    3: (SeatingFault.UNEVEN_THREES, "seating.fault.uneven_threes"),
    5: (SeatingFault.UNEVEN_FIVES, "seating.fault.uneven_fives"),
}
"""A player at an odd table out of turn, by the table's size."""

_RANK: Final = {code: rank for rank, code in enumerate(SeatingFault)}


@dataclass(frozen=True, slots=True)
class Rules:
    """What a seating is held to besides its tables: the pairs who never meet, the players fixed
    to a table, and whether tables of 5 are allowed."""

    forbidden: tuple[tuple[str, str], ...] = ()
    fixed: tuple[tuple[str, int], ...] = ()
    fives: bool = False


def faults(
    positions: tuple[Position, ...],
    roster: frozenset[str] | None,
    t: Rules,
    first: int = 0,
    repeats: bool = True,
    known: frozenset[str] | None = None,
) -> list[Fault]:
    """The faults of ``positions`` from the one at index ``first`` (those before count for the
    meetings and the odd tables); ``roster``: the players each position must seat, when it is
    known; ``known``: the players a seat may hold (the roster, when None); ``repeats``: whether
    repeated meetings are faults to list."""
    known = roster if known is None else known
    found: list[Fault] = []
    forbidden: set[tuple[str, str]] = set()
    for one, other in t.forbidden:
        forbidden.add((one, other))
        forbidden.add((other, one))
    fixed = dict(t.fixed)
    allowed = (3, 4, 5) if t.fives else (3, 4)
    met: dict[tuple[str, str], list[int]] = {}
    odd: dict[int, dict[str, int]] = {3: {}, 5: {}}
    for p in range(len(positions)):
        position = positions[p]
        said = p >= first
        seen, sizes_ok = _seat_faults(found, position, p, said, allowed, t.fives, known, fixed)
        if roster is not None and said:
            for pid in sorted(pid for pid in roster if pid not in seen):
                message = msg("seating.fault.missing_player", player=pid, position=p + 1)
                found.append(Fault(SeatingFault.MISSING_PLAYER, message, p, None, None, (pid,)))
        if sizes_ok and said:
            fault = _sizes_fault(position, p, t.fives)
            if fault is not None:
                found.append(fault)
        _pair_faults(found, position, p, said, forbidden, met, repeats)
        found.extend(_uneven(position, p, odd, said))
    found.sort(key=lambda f: (f.position, _RANK[f.code], -1 if f.table is None else f.table, f.seat or 0))
    return found


def _seat_faults(
    found: list[Fault],
    position: Position,
    p: int,
    said: bool,
    allowed: tuple[int, ...],
    fives: bool,
    known: frozenset[str] | None,
    fixed: dict[str, int],
) -> tuple[dict[str, int], bool]:
    """Add to ``found`` the faults of position ``p``'s tables and seats (when ``said``): a table
    twice, a size the rules do not take, a player seated twice, unknown, or away from his fixed
    table. The table each player was first seen at, and whether every size is allowed."""
    number = p + 1
    seen: dict[str, int] = {}
    tables_seen: dict[int, int] = {}
    sizes_ok = True
    for k in range(len(position)):
        table = position[k]
        if table.table in tables_seen and said:
            message = msg("seating.fault.duplicate_table", position=number, table=table.table)
            found.append(Fault(SeatingFault.DUPLICATE_TABLE, message, p, k, None, ()))
        tables_seen.setdefault(table.table, k)
        size = len(table.seats)
        if size not in allowed:
            sizes_ok = False
            if said:
                key = "seating.fault.table_size.fives" if fives else "seating.fault.table_size"
                message = msg(key, size, position=number, table=table.table)
                found.append(Fault(SeatingFault.TABLE_SIZE, message, p, k, None, tuple(table.seats)))
        for s in range(size):
            pid = table.seats[s]
            if pid in seen:
                if said:
                    earlier = position[seen[pid]].table
                    if seen[pid] == k:
                        message = msg("seating.fault.seated_twice.table", player=pid, position=number, table=earlier)
                    else:
                        message = msg(
                            "seating.fault.seated_twice",
                            player=pid,
                            position=number,
                            first_table=earlier,
                            table=table.table,
                        )
                    found.append(Fault(SeatingFault.SEATED_TWICE, message, p, k, s, (pid,)))
            else:
                seen[pid] = k
            if known is not None and pid not in known and said:
                message = msg("seating.fault.unknown_player", player=pid, position=number, table=table.table)
                found.append(Fault(SeatingFault.UNKNOWN_PLAYER, message, p, k, s, (pid,)))
            if pid in fixed and fixed[pid] != table.table and said:
                key = "seating.fault.fixed_elsewhere"
                message = msg(key, player=pid, fixed=fixed[pid], position=number, table=table.table)
                found.append(Fault(SeatingFault.FIXED_ELSEWHERE, message, p, k, s, (pid,)))
    return seen, sizes_ok


def _pair_faults(
    found: list[Fault],
    position: Position,
    p: int,
    said: bool,
    forbidden: set[tuple[str, str]],
    met: dict[tuple[str, str], list[int]],
    repeats: bool,
) -> None:
    """Add to ``found`` the faults of position ``p``'s pairs (when ``said``): a pair kept apart,
    a pair met before (when ``repeats``); and count each pair's meeting in ``met``."""
    number = p + 1
    for k in range(len(position)):
        table = position[k]
        players = sorted(set(table.seats))
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                pair = (players[a], players[b])
                if pair in forbidden and said:
                    message = msg(
                        "seating.fault.forbidden_pair",
                        first=pair[0],
                        second=pair[1],
                        position=number,
                        table=table.table,
                    )
                    found.append(Fault(SeatingFault.FORBIDDEN_PAIR, message, p, k, None, pair))
                before = met.setdefault(pair, [])
                if before and repeats and said:
                    message = msg(
                        "seating.fault.repeat_meeting",
                        len(before),
                        first=pair[0],
                        second=pair[1],
                        position=number,
                        table=table.table,
                        before=", ".join(str(r + 1) for r in before),
                    )
                    found.append(Fault(SeatingFault.REPEAT_MEETING, message, p, k, None, pair))
                before.append(p)


def _sizes_fault(position: Position, p: int, fives: bool) -> Fault | None:
    """A position of tables of 3, 4 (and 5) whose tables of 3 (or of 5) are more than its count of
    players needs (rule 2)."""
    seats = sum(len(table.seats) for table in position)
    threes = sum(1 for table in position if len(table.seats) == 3)
    five = sum(1 for table in position if len(table.seats) == 5)
    least = composition(seats, fives)
    if least is None:
        message = msg("seating.fault.table_sizes.none", position=p + 1, players=seats)
    elif threes > least.threes or five > least.fives:
        if fives:
            message = msg(
                "seating.fault.table_sizes.fives",
                position=p + 1,
                players=seats,
                threes=threes,
                fives=five,
                least_threes=least.threes,
                least_fives=least.fives,
            )
        else:
            message = msg("seating.fault.table_sizes", threes, position=p + 1, players=seats, least=least.threes)
    else:
        return None
    return Fault(SeatingFault.TABLE_SIZES, message, p, None, None, ())


def _uneven(position: Position, p: int, odd: dict[int, dict[str, int]], said: bool) -> list[Fault]:
    """Count the tables of 3 and of 5 of position ``p``, each size apart; a player who now has sat
    at 2 more of one size than another seated in it (rule 5: those tables in turn) is a fault, at
    his seat."""
    found: list[Fault] = []
    seated = sorted({pid for table in position for pid in table.seats})
    for size, had in odd.items():
        for table in position:
            if len(table.seats) == size:
                for pid in set(table.seats):
                    had[pid] = had.get(pid, 0) + 1
        if not seated or not said or not had:
            continue
        fewest = min(had.get(pid, 0) for pid in seated)
        other = next(pid for pid in seated if had.get(pid, 0) == fewest)
        code, key = _UNEVEN[size]
        for k in range(len(position)):
            table = position[k]
            if len(table.seats) != size:
                continue
            for s in range(size):
                pid = table.seats[s]
                count = had[pid]
                if count >= fewest + 2 and table.seats.index(pid) == s:
                    message = msg(key, count, player=pid, position=p + 1, table=table.table, other=other, fewer=fewest)
                    found.append(Fault(code, message, p, k, s, (pid, other)))
    return found


copied_by_constructor(Fault, Rules)
