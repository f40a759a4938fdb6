"""The plan of a tournament's positions (rules.md §16.5): every position left, planned ahead.

A position cannot be seated well on its own: three positions of 16 players chosen badly leave no
fourth and fifth without repeats. So a request plans every position the tournament has left,
and answers the ones asked for. The plan is a function of the players, the constraints, the
number of positions and the seed alone, so the next request draws it again: when the positions
played are the plan's own first positions, it goes on with the same plan; otherwise it plans the
positions left anew around what was played.

**In stages.** The positions are planned a *stage* at a time, each stage as long as a seating
without a repeat is known to go for the players (the design's positions, the best known maximum,
else the counting bound), each stage planned after those before it. So the first positions are
clean for as long as the count allows, and the repeats that more positions force come after,
spread by the search's cost (rule 4).

**From designs.** Where a design is known for the players (seating_designs), each stage starts
from it, its players drawn from the seed: a stage that is a design's positions needs no search
but for what the design cannot know (teammates, fixed players, the odd tables in turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .frozen import copied_by_constructor
from .seating_bounds import uneven_next
from .seating_designs import Start, design_start
from .seating_draw import Draw
from .seating_search import Search, fairness_share
from .seating_tables import Composition, Position, bound

Groups = list[list[int]]
"""A planned position: each table's players, by index, in the order of the tables' sizes."""

BEST_KNOWN: Final = {17: 5, 18: 5, 19: 5, 20: 5}
"""The most positions without a repeat known for a count of players, where it is below the
counting bound of 6: 20 players at tables of 4 reach 5, never 6 (OEIS A107431); 17 to 19 players
reach 5 by the search (tests/test_rules_16_seating.py holds it), and no seating of 6 is known."""


@dataclass(frozen=True, slots=True)
class Plan:
    """Planned positions (each table's players, by index), the work it took, and whether a search
    stopped at its cap rather than at a cost the bounds show best."""

    positions: tuple[Groups, ...]
    work: int
    capped: bool


def search_plan(make: Callable[[], Search], starts: list[list[Groups]], cap: int) -> Plan:
    """The plan of the positions of the searches ``make`` makes, the better of two: from the
    cheapest of ``starts`` (a design's positions, a plan renamed), and from a greedy draw. A start
    at the bound is the plan, with no search. Otherwise the greedy draw is searched as
    seating_search says, with a quarter of the work when there is a start (where a plan without
    repeats is within its reach, it finds one fast), and the start with a quarter (or half, when
    its repeats are not yet the fewest), without the first phase (the odd tables evenly spread
    before repeats), which would undo what it holds."""
    start: Search | None = None
    for given in starts:
        other = make()
        for p in range(other.positions):
            other.place(p, given[p])
        other.phase(False)
        if start is None or other.cost < start.cost:
            start = other
    if start is not None and start.cost <= start.lower:
        return _planned(start, capped=False)
    share = cap if start is None else cap // 4
    drawn = _drawn(make, share)
    if start is None or drawn.cost <= drawn.lower:
        return _planned(drawn, drawn.cost > drawn.lower, drawn.work)
    _search(start, cap // 4 if start.repeats_settled() else cap // 2)
    best = start if start.cost < drawn.cost else drawn
    return _planned(best, best.cost > best.lower, drawn.work + start.work)


def _drawn(make: Callable[[], Search], share: int) -> Search:
    """A greedy draw, searched. With odd tables, first with them evenly spread before repeats:
    where that leaves more repeats than the bound, a second draw searched with every rule in its
    priority from the start (the rest of the work), and the better of the two: the
    first way finds the odd tables in turn where they can be (25 players with a table of 5), the
    second the plans without repeats it misses (21 players with one)."""
    first = make()
    if not first.has_odd:
        return _searched(first, share, fair_first=False)
    # Measured: with tables of 3 the first way needs most of the work to keep them in turn
    # (18 players with couples); a table of 5 makes more players wait a turn, and the second way
    # needs most of it to find no repeat (21 and 26 players).
    fair = share * 3 // 4 if 3 in first.sizes else share // 4
    first = _searched(first, fair, fair_first=True)
    if first.cost <= first.lower or first.repeats_settled():
        return first
    second = _searched(make(), share - fair, fair_first=False)
    second.work += first.work
    return second if second.cost < first.cost else first


def _searched(search: Search, share: int, fair_first: bool) -> Search:
    for p in range(search.positions):
        search.greedy(p)
    if fair_first:
        search.phase(True)
        search.run(fairness_share(share))
        search.relabel(fairness_share(share))
    search.phase(False)
    _search(search, share)
    return search


def _search(search: Search, cap: int) -> None:
    if search.cost > search.lower:
        search.run(cap)
        search.relabel(cap + cap // 10)


def _planned(search: Search, capped: bool, work: int | None = None) -> Plan:
    positions = tuple(search.groups(p) for p in range(search.positions))
    return Plan(positions, search.work if work is None else work, capped)


class Planner:
    """What every plan of one request shares: the players (by index), their tables, the rules
    between them, the positions played, and the stages."""

    def __init__(
        self,
        ids: list[str],
        tables: Composition,
        total: int,
        played: tuple[Position, ...],
        forbidden: list[tuple[int, int]],
        fixed: list[int],
        seed: str,
        fives: bool,
    ) -> None:
        self.ids = ids
        self.index = {pid: i for i, pid in enumerate(ids)}
        self.sizes = tables.sizes()
        self.total = total
        self.played = played
        self.forbidden = forbidden
        self.fixed = fixed
        self.seed = seed
        n = len(ids)
        self.design: Start | None = None if tables.fives else design_start(n, tables.threes)
        if self.design is not None:
            clean = len(self.design.positions)
        elif len(self.sizes) < max(self.sizes):
            clean = 1  # a table of the second position takes two players of one table of the first
        else:
            clean = BEST_KNOWN.get(n, bound(n, fives))
        self.clean = max(1, clean)
        """How far a seating without a repeat is known to go: the first stage."""
        self.fresh: tuple[Groups, ...] | None = None
        """The plan from the start, once made."""

    def plan(self, anchor: int, cap: int) -> Plan:
        """The plan of the positions after the first ``anchor`` played, stage by stage: a function
        of them, the players, the rules, the number of positions and the seed alone. ``cap``
        bounds its work, shared among the stages by their positions."""
        n = len(self.ids)
        left = self.total - anchor
        meetings, odd_before = history(self.played[:anchor], self.index, n)
        uneven = self._uneven_after(self._table_of_played(anchor - 1), odd_before) if anchor else 0
        draw = Draw(self.seed, "plan" if anchor == 0 else f"replan {anchor}")
        laid = self._laid_over(self.played[anchor - 1], left, draw) if anchor else None
        planned: list[Groups] = []
        work = 0
        capped = False
        first = anchor
        while first < self.total:
            last_of_stage = self._stage_end(first)
            length = last_of_stage - first
            starts: list[list[Groups]] = []
            if laid is not None:
                starts.append(laid[first - anchor : last_of_stage - anchor])
            if self.design is not None and first % self.clean == 0:
                starts.append(self._design_stage(length, draw))
            before = (list(meetings), list(odd_before), uneven)

            def make(length: int = length, before: tuple[list[int], list[int], int] = before) -> Search:
                met, odd, forced = before
                return Search(n, length, self.sizes, met, odd, self.forbidden, self.fixed, draw, forced)

            stage = search_plan(make, starts, max(1, cap * length // left))
            planned.extend(stage.positions)
            work += stage.work
            capped = capped or stage.capped
            for groups in stage.positions:
                _count(groups, meetings, odd_before, n)
            uneven = self._uneven_after(_table_of(stage.positions[-1], n), odd_before)
            first = last_of_stage
        if anchor == 0:
            self.fresh = tuple(planned)
        return Plan(tuple(planned), work, capped)

    def _stage_end(self, first: int) -> int:
        """The end of the stage that starts at position ``first``: with a design, the design's
        positions again and again (each stage a copy of it, its players drawn anew: no pair meets
        more than once a stage); otherwise the clean positions, then all the rest together."""
        if self.design is not None:
            return min(self.total, (first // self.clean + 1) * self.clean)
        return min(self.total, self.clean) if first < self.clean else self.total

    def _uneven_after(self, table_of: list[int], odd_before: list[int]) -> int:
        """The unevenness of the odd tables no plan without repeats escapes at the position after
        one where each player sat at ``table_of``."""
        odd = [s for s in self.sizes if s != 4]
        return uneven_next(table_of, odd_before, len(odd), sum(odd))

    def _table_of_played(self, p: int) -> list[int]:
        table_of = [-1] * len(self.ids)
        for k, table in enumerate(self.played[p]):
            for pid in table.seats:
                if pid in self.index:
                    table_of[self.index[pid]] = k
        return table_of

    def _design_stage(self, length: int, draw: Draw) -> list[Groups]:
        """The design's first ``length`` positions, its players drawn from the seed, each table's
        players in the order of the tables' sizes."""
        assert self.design is not None
        name = list(range(len(self.ids)))
        draw.shuffle(name)
        out: list[Groups] = []
        for position in self.design.positions[:length]:
            tables = sorted(([name[x] for x in table] for table in position), key=lambda t: _SIZE_ORDER[len(t)])
            out.append(tables)
        return out

    def _laid_over(self, last: Position, left: int, draw: Draw) -> list[Groups] | None:
        """The plan from the start, its players renamed so that its first position is the last
        position played, table for table: its other positions then follow that one as well as
        they followed their own (any two positions of the same tables are the same but for the
        names). None when the last position played is not one of these tables for the players
        present, or there is no plan from the start."""
        fresh = self.fresh
        if fresh is None or left > len(fresh) - 1:
            return None
        tables: dict[int, list[list[int]]] = {}
        seen: set[int] = set()
        for table in last:
            present = [self.index[pid] for pid in table.seats if pid in self.index]
            if len(set(present)) != len(present) or seen & set(present):
                return None
            seen |= set(present)
            tables.setdefault(len(present), []).append(present)
        if len(seen) != len(self.ids):
            return None
        name = [-1] * len(self.ids)
        for group in fresh[0]:
            same = tables.get(len(group), [])
            if not same:
                return None
            players = list(same.pop(draw.below(len(same))))
            draw.shuffle(players)
            for k in range(len(group)):
                name[group[k]] = players[k]
        return [[[name[x] for x in group] for group in fresh[p]] for p in range(1, left + 1)]


_SIZE_ORDER: Final = {4: 0, 3: 1, 5: 2}
"""The order of the tables in a planned position (Composition.sizes: 4, then 3, then 5)."""


def leaves(played: tuple[Position, ...], anchor: int, plan: tuple[Groups, ...], ids: list[str]) -> int:
    """The first position played from ``anchor`` on that is not the plan's (made after the
    first ``anchor`` played), table for table whatever their numbers and seats; -1 if none."""
    for p in range(anchor, len(played)):
        given = sorted(tuple(sorted(table.seats)) for table in played[p])
        planned = sorted(tuple(sorted(ids[x] for x in group)) for group in plan[p - anchor])
        if given != planned:
            return p
    return -1


def history(played: tuple[Position, ...], index: dict[str, int], n: int) -> tuple[list[int], list[int]]:
    """How many times each two players present met in the positions played, and how many times
    each sat at an odd table (of 3 or 5)."""
    meetings = [0] * (n * n)
    odd = [0] * n
    for position in played:
        for table in position:
            present = sorted({index[pid] for pid in table.seats if pid in index})
            for a in range(len(present)):
                if len(table.seats) != 4:
                    odd[present[a]] += 1
                for b in range(a + 1, len(present)):
                    meetings[present[a] * n + present[b]] += 1
                    meetings[present[b] * n + present[a]] += 1
    return meetings, odd


def _count(groups: Groups, meetings: list[int], odd: list[int], n: int) -> None:
    """Add a planned position to the counts of :func:`history`."""
    for table in groups:
        for a in range(len(table)):
            if len(table) != 4:
                odd[table[a]] += 1
            for b in range(a + 1, len(table)):
                meetings[table[a] * n + table[b]] += 1
                meetings[table[b] * n + table[a]] += 1


def _table_of(groups: Groups, n: int) -> list[int]:
    out = [-1] * n
    for k, table in enumerate(groups):
        for x in table:
            out[x] = k
    return out


copied_by_constructor(Plan)
