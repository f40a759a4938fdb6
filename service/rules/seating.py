"""The seating of a tournament (rules.md §16.5): who sits at which table, position by position.

A tournament in free deals is played in positions (rounds); between positions the players move
so that, as far as possible, no two of them meet twice. The rules, in strict priority:

1. every present player at exactly one table;
2. tables of 4, with the fewest tables of 3 the count of players allows (tables of 5 only when
   the request allows them, and then in place of tables of 3);
3. no forbidden pair (teammates) at one table;
4. no pair meeting twice; where that cannot be, the first positions clean for as long as the
   count allows, then the fewest repeated meetings, then no pair meeting more often than it must;
5. the odd tables (of 3, or of 5) in turn: nobody at one twice while another has not been at
   one (after each position, the times any two players have sat at one differ by one at most);
6. players fixed to a table at that table.

The rooms of the seating: the tables and their bound (seating_tables), the designs known by
construction (seating_designs), the plan in stages (seating_plan), the search that improves a
plan (seating_search) and the bounds that stop it (seating_bounds), its draw (seating_draw), and
the check of a seating made elsewhere (seating_check). This module takes a request and answers
it: the positions asked for, numbered and seated, and what the tournament then is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .frozen import copied_by_constructor
from .seating_check import Fault, Rules, faults
from .seating_draw import Draw
from .seating_plan import Groups, Planner, leaves
from .seating_tables import Composition, Position, SeatedTable, bound, composition, orientations

WORK_CAP: Final = 600_000
"""The most work a plan from the start does (swaps weighed; a scan of the conflicts counts as a
few): what bounds a request's cost. A request makes at most three plans: the plan from the start,
the plan after the first position played otherwise with half as much work (it starts from the
first, renamed), the plan after all those played with a quarter."""


@dataclass(frozen=True, slots=True)
class SeatingRequest:
    """A seating request: the players present, what was played, and what to seat."""

    players: tuple[str, ...]
    """The ids of the players present, each once."""
    positions: int
    """How many positions the tournament has in all."""
    played: tuple[Position, ...] = ()
    """The positions played, in order."""
    seat: int = 1
    """How many positions to seat now: 0 (only check the positions played), 1, or those left."""
    forbidden: tuple[tuple[str, str], ...] = ()
    """Pairs who never sit at one table (teammates)."""
    fixed: tuple[tuple[str, int], ...] = ()
    """Players who stay at one table, and its number."""
    fives: bool = False
    """Whether tables of 5 may seat the players a count of 4 leaves over."""
    seed: str = ""
    work_cap: int = WORK_CAP
    """The most work each plan does."""
    left: tuple[str, ...] = ()
    """Players who played positions and are no longer present: a seat of the positions played
    may hold them, or a player present; anyone else is no player (a fault)."""

    @property
    def rules(self) -> Rules:
        return Rules(self.forbidden, self.fixed, self.fives)


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two players who meet more than once, and the positions (from 0) where they meet."""

    players: tuple[str, str]
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Seating:
    """The answer: the positions seated, and what the tournament then is."""

    seated: tuple[Position, ...]
    """The positions seated now, the first after the positions played first."""
    tables: Composition | None
    """The tables of a position of the players present; None when none seat them."""
    bound: int
    repeats: tuple[Repeat, ...]
    """Every two players meeting more than once over the positions played and seated."""
    faults: tuple[Fault, ...]
    """The rules the positions played break."""
    shortfalls: tuple[Fault, ...]
    """The rules other than rule 4 (:attr:`repeats` says those) that the positions seated could
    not keep, their positions counted from the first position seated (0)."""
    replanned: bool
    """The positions played are not the first positions of the plan the seed draws: the positions
    left were planned anew around them."""
    work: int
    """The work done: every plan's."""
    capped: bool
    """A search stopped at its cap, not at a cost the bounds show best."""


copied_by_constructor(SeatingRequest, Repeat, Seating)


def check_seating(tournament: SeatingRequest) -> tuple[Fault, ...]:
    """The faults of the positions played, by the rules of the seating. In the check form
    (``seat`` 0) the players are the tournament's: each position must seat each of them once, and
    no one else. When the request seats, they are the players present: a player who came late is
    missing from the positions before, and one who left (listed in ``left``) sits in them, and
    neither is a fault; a seat that holds neither is."""
    t = tournament
    roster = frozenset(t.players) if t.seat <= 0 else None
    return tuple(faults(t.played, roster, t.rules, known=frozenset(t.players) | frozenset(t.left)))


def seat_tournament(tournament: SeatingRequest) -> Seating:
    """The positions ``tournament.seat`` asks for (none: only the check of the positions played),
    from the plan of every position left (seating_plan)."""
    t = tournament
    ids = sorted(set(t.players))
    n = len(ids)
    tables = composition(n, t.fives)
    found = check_seating(t)
    played = len(t.played)
    if t.seat <= 0 or tables is None or played >= t.positions:
        return Seating(
            seated=(),
            tables=tables,
            bound=bound(n, t.fives),
            repeats=_repeats(t.played),
            faults=found,
            shortfalls=(),
            replanned=False,
            work=0,
            capped=False,
        )
    index = {pid: i for i, pid in enumerate(ids)}
    pairs = {(index[a], index[b]) for a, b in t.forbidden if a in index and b in index and a != b}
    forbidden = sorted({(min(pair), max(pair)) for pair in pairs})
    fixed_table = dict(t.fixed)
    fixed = [fixed_table.get(pid, 0) for pid in ids]
    # The plan from the start; where the positions played leave it, the plan of the positions
    # left after the first that did (so that a club that seated one position its own way still
    # gets the plan ahead); where they leave that one too, the plan around all of them.
    planner = Planner(ids, tables, t.positions, t.played, forbidden, fixed, t.seed, t.fives)
    plan = planner.plan(0, t.work_cap)
    work = plan.work
    capped = plan.capped
    anchor = 0
    left = leaves(t.played, 0, plan.positions, ids)
    if left >= 0:
        anchor = left + 1
        plan = planner.plan(anchor, t.work_cap // 2)
        work += plan.work
        if leaves(t.played, anchor, plan.positions, ids) >= 0:
            anchor = played
            plan = planner.plan(anchor, t.work_cap // 4)
            work += plan.work
        capped = plan.capped
    chosen = plan.positions[played - anchor : played - anchor + t.seat]
    seated = tuple(_numbered(chosen[i], played + i, ids, fixed, t.seed) for i in range(len(chosen)))
    whole = t.played + seated
    shortfalls = tuple(
        Fault(f.code, f.message, f.position - played, f.table, f.seat, f.players)
        for f in faults(whole, None, t.rules, played, False)
    )
    return Seating(
        seated=seated,
        tables=tables,
        bound=bound(n, t.fives),
        repeats=_repeats(whole),
        faults=found,
        shortfalls=shortfalls,
        replanned=anchor > 0,
        work=work,
        capped=capped,
    )


def _numbered(groups: Groups, position: int, ids: list[str], fixed: list[int], seed: str) -> Position:
    """A planned position's tables, numbered and seated: a table with a fixed player takes his
    table's number; the other tables of 4, then the others, take the free numbers in a random
    order; the players take the seats of a table in a random order."""
    draw = Draw(seed, f"tables {position}")
    count = len(groups)
    number = [0] * count
    taken = [False] * (count + 1)
    for g in range(count):
        wanted = sorted(fixed[x] for x in groups[g] if 0 < fixed[x] <= count and not taken[fixed[x]])
        if wanted:
            number[g] = wanted[0]
            taken[wanted[0]] = True
    rest = [g for g in range(count) if not number[g]]
    draw.shuffle(rest)
    rest.sort(key=lambda g: len(groups[g]) != 4)
    free = [t for t in range(1, count + 1) if not taken[t]]
    for k in range(len(rest)):
        number[rest[k]] = free[k]
    tables: list[SeatedTable] = []
    for g in sorted(range(count), key=lambda g: number[g]):
        seats = list(groups[g])
        draw.shuffle(seats)
        tables.append(SeatedTable(number[g], tuple(ids[x] for x in seats), orientations(len(seats)), position + 1))
    return tuple(tables)


def _repeats(positions: tuple[Position, ...]) -> tuple[Repeat, ...]:
    """Every two players who meet more than once, with the positions where they meet."""
    met: dict[tuple[str, str], list[int]] = {}
    for p in range(len(positions)):
        for table in positions[p]:
            players = sorted(set(table.seats))
            for a in range(len(players)):
                for b in range(a + 1, len(players)):
                    met.setdefault((players[a], players[b]), []).append(p)
    found = [Repeat(pair, tuple(where)) for pair, where in met.items() if len(where) > 1]
    found.sort(key=lambda r: (r.positions, r.players))
    return tuple(found)
