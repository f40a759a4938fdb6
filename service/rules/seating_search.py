"""The seating's search (rules.md §16.5): a plan of positions improved by a tabu search.

A plan starts from a greedy draw, position after position (the players due a table of 3 or 5 to
those tables, each player to the table where he meets the fewest he has met), or from a start
given (a design, a plan renamed); then a tabu search swaps two players of one position, the best
swap of a player in conflict at each step, until the plan's cost (rules 3 to 6 as one number,
each rule weighing more than everything below it) meets what counting shows no plan can beat, or
until its *work*, the swaps it has weighed, reaches a cap. Work, never time, bounds it, so the
same request gives the same answer on any machine; at the cap the answer is the best plan found.
"""

from __future__ import annotations

from typing import Final

from .seating_bounds import least_cost, uneven_at_start
from .seating_costs import MAX_MEETINGS, W_FAIR, W_FAIR_FIRST, W_FIXED, W_REPEAT, Pairs, fair_shares, repeat_cost
from .seating_draw import Draw

_ROOM: Final = 5
"""Room for the largest table, in the flat list of a position's tables."""
_STALL: Final = 200
"""Steps without a better plan before the search goes back to the best and shakes it."""
_DRY: Final = 2
"""Shakes of the best plan without a better one before the search draws a new plan."""
_SHAKE: Final = 2
_SHAKE_SPREAD: Final = 4
"""The random swaps that shake the best plan: 2 to 5."""
_TENURE: Final = 2
_TENURE_SPREAD: Final = 5
"""The steps two players swapped stay where they are (tabu): 2 to 6."""
_FAIR_SHARE: Final = 9
"""Tenths of the work given to the search that keeps the odd tables evenly spread."""


def fairness_share(cap: int) -> int:
    """The work given to the first phase, which keeps the odd tables evenly spread."""
    return cap * _FAIR_SHARE // 10


class Search:
    """A plan of ``positions`` positions of ``n`` players (``0 … n − 1``) at tables of ``sizes``,
    weighed with what was played (``meetings``: n × n, the times each two met; ``odd_before``:
    the times each sat at a table of 3 or 5, an *odd table*), and the tabu search that improves
    it. A position's tables of 3 and of 5 are never both (rule 2), so rule 5 is one rule: the
    odd tables in turn."""

    def __init__(
        self,
        n: int,
        positions: int,
        sizes: tuple[int, ...],
        meetings: list[int],
        odd_before: list[int],
        forbidden: list[tuple[int, int]],
        fixed: list[int],
        draw: Draw,
        uneven: int = 0,
    ) -> None:
        self.n = n
        self.positions = positions
        self.tables = len(sizes)
        self.sizes = list(sizes)
        self.odd = [1 if s != 4 else 0 for s in sizes]
        """Whether each table is an odd table (of 3 or 5)."""
        self.odd_seats = sum(s for s in sizes if s != 4)
        self.has_odd = self.odd_seats > 0
        self.draw = draw
        self.met = list(meetings)
        pairs = Pairs(n, forbidden, fixed)
        self.pair_cost = pairs.cost
        """The cost of each meeting of two players, on top of its repeat cost."""
        self.apart = pairs.apart
        """Two players who must not sit together: a forbidden pair, or fixed to different tables."""
        self.together = pairs.together
        together = pairs.together_count
        self.one_more = [repeat_cost(m + 1) - repeat_cost(m) for m in range(MAX_MEETINGS)]
        self.one_less = [0] + [repeat_cost(m - 1) - repeat_cost(m) for m in range(1, MAX_MEETINGS)]
        # Rule 5: after each position, everyone's count of odd tables within [low, high].
        self.odd_before = list(odd_before)
        self.odd_count = [0] * (positions * n)
        """After each position (``p * n + x``), the times player ``x`` sat at an odd table."""
        self.fair_low, self.fair_high = fair_shares(n, positions, self.odd_seats, sum(odd_before))
        self.unevenness = [0] * positions
        """Each position's unevenness: how far, in all, the players' counts of odd tables are
        from the even share."""
        self.free_unevenness = [0] * positions
        """The unevenness of each position the search takes as free (in its first phase, the
        unevenness forced at one position)."""
        self.table_of = [0] * (positions * n)
        """Each player's table in each position (``p * n + x``), an index in ``sizes``."""
        self.seat_of = [0] * (positions * n)
        """Each player's place at his table in each position."""
        self.seated = [-1] * (positions * self.tables * _ROOM)
        """Each table's players, position by position (``_ROOM`` places a table)."""
        self.cost = 0
        self.fair_weight = W_FAIR
        # Rule 5 gives way to rule 4 where no plan without repeats spreads the odd tables evenly.
        fresh = not any(meetings) and not any(odd_before)
        self.uneven = uneven_at_start(positions, sizes) if fresh else uneven
        """The unevenness no plan without repeats escapes, all of it at position ``uneven_at``."""
        self.uneven_at = 1 if fresh else 0
        least = least_cost(n, positions, sizes, meetings, repeat_cost)
        self.forced = least.repeats
        """The repeated meetings no plan escapes."""
        self.floor = least.cost - W_FIXED * positions * (together // 2)
        """The least cost of repeats (and fixed players together) of any plan."""
        self.lower = self.floor
        """The least cost of any plan, as the search weighs it now."""
        self.work = 0
        self.best_cost = 0
        self.best: list[int] = []

    # -- what no plan can beat --------------------------------------------------------------------

    def phase(self, first: bool) -> None:
        """Weigh the plan for the search's first phase, rule 5 above rule 4 (the unevenness
        forced at one position taken as free), or for its second, every rule in its priority."""
        self.fair_weight = W_FAIR_FIRST if first else W_FAIR
        if self.uneven:
            p = self.uneven_at
            self.free_unevenness[p] = self.uneven if first else 0
        forced_uneven = 0 if first or self.forced else self.uneven
        self.lower = self.floor + W_FAIR * forced_uneven
        self.count()

    def repeats_settled(self) -> bool:
        """Whether the plan's repeats (and forbidden pairs) are the fewest any plan has: what it
        costs above the bound is of the rules below rule 4."""
        return self.cost - self.lower < W_REPEAT

    # -- the state --------------------------------------------------------------------------------

    def place(self, p: int, groups: list[list[int]]) -> None:
        """Seat position ``p`` as ``groups`` (each table's players, in the order of ``sizes``)."""
        n = self.n
        for g in range(self.tables):
            players = groups[g]
            base = (p * self.tables + g) * _ROOM
            for k in range(len(players)):
                x = players[k]
                self.seated[base + k] = x
                self.table_of[p * n + x] = g
                self.seat_of[p * n + x] = k
            for a in range(len(players)):
                for b in range(a + 1, len(players)):
                    self._meet(players[a], players[b], 1)

    def _meet(self, x: int, y: int, step: int) -> None:
        n = self.n
        m = self.met[x * n + y]
        if step > 0:
            self.cost += self.one_more[m] + self.pair_cost[x * n + y]
        else:
            self.cost += self.one_less[m] - self.pair_cost[x * n + y]
        self.met[x * n + y] = m + step
        self.met[y * n + x] = m + step

    def _deviation(self, p: int, s: int) -> int:
        if s > self.fair_high[p]:
            return s - self.fair_high[p]
        if s < self.fair_low[p]:
            return self.fair_low[p] - s
        return 0

    def count(self) -> None:
        """The plan's cost, and the odd tables of each player, counted afresh."""
        n = self.n
        cost = 0
        for i in range(n):
            for j in range(i + 1, n):
                cost += repeat_cost(self.met[i * n + j])
        for p in range(self.positions):
            for g in range(self.tables):
                base = (p * self.tables + g) * _ROOM
                for a in range(self.sizes[g]):
                    for b in range(a + 1, self.sizes[g]):
                        cost += self.pair_cost[self.seated[base + a] * n + self.seated[base + b]]
        if self.has_odd:
            for p in range(self.positions):
                self.unevenness[p] = 0
            for x in range(n):
                s = self.odd_before[x]
                for p in range(self.positions):
                    s += self.odd[self.table_of[p * n + x]]
                    self.odd_count[p * n + x] = s
                    self.unevenness[p] += self._deviation(p, s)
            for p in range(self.positions):
                cost += self.fair_weight * max(0, self.unevenness[p] - self.free_unevenness[p])
        self.cost = cost

    def groups(self, p: int) -> list[list[int]]:
        """Position ``p``'s tables, in the order of ``sizes``."""
        out: list[list[int]] = []
        for g in range(self.tables):
            base = (p * self.tables + g) * _ROOM
            out.append([self.seated[base + k] for k in range(self.sizes[g])])
        return out

    def greedy(self, p: int) -> None:
        """Seat position ``p`` (those before it seated) greedily: the players who sat at the
        fewest odd tables to the odd tables; each player, in a random order, to the table of
        his kind where he adds the least cost."""
        n = self.n
        draw = self.draw
        order = list(range(n))
        draw.shuffle(order)
        due_odd = [False] * n
        if self.has_odd:
            had = list(self.odd_before)
            for r in range(p):
                for x in range(n):
                    had[x] += self.odd[self.table_of[r * n + x]]
            order.sort(key=lambda x: had[x])
            for k in range(self.odd_seats):
                due_odd[order[k]] = True
            draw.shuffle(order)
        groups: list[list[int]] = [[] for _ in range(self.tables)]
        for x in order:
            best = -1
            best_c = 0
            ties = 0
            for g in range(self.tables):
                if len(groups[g]) >= self.sizes[g] or (self.has_odd and due_odd[x] != (self.odd[g] == 1)):
                    continue
                c = 0
                for z in groups[g]:
                    c += self.one_more[self.met[x * n + z]] + self.pair_cost[x * n + z]
                if best < 0 or c < best_c:
                    best = g
                    best_c = c
                    ties = 1
                elif c == best_c:
                    ties += 1
                    if draw.below(ties) == 0:
                        best = g
            groups[best].append(x)
        self.place(p, groups)

    # -- a swap -----------------------------------------------------------------------------------

    def delta(self, p: int, x: int, y: int) -> int:
        """The change of cost if ``x`` and ``y`` change tables in position ``p``."""
        n = self.n
        meet = self.met
        lin = self.pair_cost
        up = self.one_more
        down = self.one_less
        members = self.seated
        a = self.table_of[p * n + x]
        b = self.table_of[p * n + y]
        d = 0
        base = (p * self.tables + a) * _ROOM
        for k in range(self.sizes[a]):
            z = members[base + k]
            if z != x:
                d += down[meet[x * n + z]] - lin[x * n + z] + up[meet[y * n + z]] + lin[y * n + z]
        base = (p * self.tables + b) * _ROOM
        for k in range(self.sizes[b]):
            z = members[base + k]
            if z != y:
                d += down[meet[y * n + z]] - lin[y * n + z] + up[meet[x * n + z]] + lin[x * n + z]
        if self.has_odd and self.odd[a] != self.odd[b]:
            if self.odd[a]:
                d += self.fair_weight * self._uneven_delta(p, x, y)
            else:
                d += self.fair_weight * self._uneven_delta(p, y, x)
        return d

    def _uneven_delta(self, p: int, out: int, into: int) -> int:
        """The change of unevenness (beyond the allowance) if ``out`` leaves an odd table for
        ``into`` in position ``p``."""
        n = self.n
        d = 0
        for r in range(p, self.positions):
            so = self.odd_count[r * n + out]
            si = self.odd_count[r * n + into]
            change = self._deviation(r, so - 1) - self._deviation(r, so)
            change += self._deviation(r, si + 1) - self._deviation(r, si)
            if change:
                free = self.free_unevenness[r]
                spread = self.unevenness[r]
                d += max(0, spread + change - free) - max(0, spread - free)
        return d

    def swap(self, p: int, x: int, y: int) -> None:
        """``x`` and ``y`` change tables in position ``p``."""
        n = self.n
        a = self.table_of[p * n + x]
        b = self.table_of[p * n + y]
        base_a = (p * self.tables + a) * _ROOM
        base_b = (p * self.tables + b) * _ROOM
        for k in range(self.sizes[a]):
            z = self.seated[base_a + k]
            if z != x:
                self._meet(x, z, -1)
                self._meet(y, z, 1)
        for k in range(self.sizes[b]):
            z = self.seated[base_b + k]
            if z != y:
                self._meet(y, z, -1)
                self._meet(x, z, 1)
        if self.has_odd and self.odd[a] != self.odd[b]:
            out = x if self.odd[a] else y
            into = y if self.odd[a] else x
            self.cost += self.fair_weight * self._uneven_delta(p, out, into)
            for r in range(p, self.positions):
                so = self.odd_count[r * n + out]
                si = self.odd_count[r * n + into]
                self.unevenness[r] += self._deviation(r, so - 1) - self._deviation(r, so)
                self.unevenness[r] += self._deviation(r, si + 1) - self._deviation(r, si)
                self.odd_count[r * n + out] = so - 1
                self.odd_count[r * n + into] = si + 1
        ka = self.seat_of[p * n + x]
        kb = self.seat_of[p * n + y]
        self.seated[base_a + ka] = y
        self.seated[base_b + kb] = x
        self.table_of[p * n + x] = b
        self.table_of[p * n + y] = a
        self.seat_of[p * n + x] = kb
        self.seat_of[p * n + y] = ka

    def in_conflict(self, p: int, x: int) -> bool:
        """Whether ``x``'s seat in position ``p`` costs anything: he meets someone again, or
        someone he must not meet; a player fixed to his table sits elsewhere; or his odd table,
        or table of 4, leaves the odd tables unevenly spread from there on."""
        n = self.n
        a = self.table_of[p * n + x]
        if self._meets_wrongly(p, x, a):
            return True
        if self.has_odd:
            for r in range(p, self.positions):
                s = self.odd_count[r * n + x]
                if (s > self.fair_high[r]) if self.odd[a] else (s < self.fair_low[r]):
                    return True
        return False

    def collect(self, conflicts: list[int]) -> None:
        """Every seat in conflict (``p * n + x``, as :meth:`in_conflict` says), by player, each
        player's positions from the last (so that the odd tables are looked at once a player)."""
        n = self.n
        conflicts.clear()
        for x in range(n):
            over = False
            under = False
            for p in range(self.positions - 1, -1, -1):
                a = self.table_of[p * n + x]
                if self.has_odd:
                    s = self.odd_count[p * n + x]
                    over = over or s > self.fair_high[p]
                    under = under or s < self.fair_low[p]
                    if over if self.odd[a] else under:
                        conflicts.append(p * n + x)
                        continue
                if self._meets_wrongly(p, x, a):
                    conflicts.append(p * n + x)

    def _meets_wrongly(self, p: int, x: int, a: int) -> bool:
        n = self.n
        base = (p * self.tables + a) * _ROOM
        for k in range(self.sizes[a]):
            z = self.seated[base + k]
            if z != x and (self.met[x * n + z] > 1 or self.apart[x * n + z]):
                return True
        return any(self.table_of[p * n + z] != a for z in self.together[x])

    # -- the search -------------------------------------------------------------------------------

    def _unseat(self) -> None:
        """Take every planned meeting out of the counts, before the positions are seated anew."""
        for p in range(self.positions):
            for players in self.groups(p):
                for a in range(len(players)):
                    for b in range(a + 1, len(players)):
                        self._meet(players[a], players[b], -1)

    def _redraw(self) -> None:
        """A new greedy draw of every position."""
        self._unseat()
        for p in range(self.positions):
            self.greedy(p)
        self.count()

    def _keep_best(self) -> None:
        self.best_cost = self.cost
        self.best = list(self.table_of)

    def _back_to_best(self) -> None:
        n = self.n
        self._unseat()
        for p in range(self.positions):
            groups: list[list[int]] = [[] for _ in range(self.tables)]
            for x in range(n):
                groups[self.best[p * n + x]].append(x)
            self.place(p, groups)
        self.count()

    def run(self, cap: int) -> None:
        """Tabu search until the plan's cost meets the lower bound or the work reaches ``cap``."""
        n = self.n
        q = self.positions
        draw = self.draw
        self._keep_best()
        tabu = [0] * (q * n)
        step = 0
        stall = 0
        dry = 0
        conflicts: list[int] = []
        while self.best_cost > self.lower and self.work < cap:
            step += 1
            self.collect(conflicts)
            self.work += (q * n) // 4 + 1  # the scan, as the swaps it costs about
            if not conflicts:
                break
            best_d = 0
            best_p = -1
            best_x = -1
            best_y = -1
            ties = 0
            for pick in conflicts:
                p = pick // n
                x = pick % n
                a = self.table_of[pick]
                for y in range(n):
                    if self.table_of[p * n + y] == a:
                        continue
                    self.work += 1
                    d = self.delta(p, x, y)
                    if (tabu[pick] > step or tabu[p * n + y] > step) and self.cost + d >= self.best_cost:
                        continue  # tabu, and no better than the best (aspiration)
                    if best_x < 0 or d < best_d:
                        best_d = d
                        best_p = p
                        best_x = x
                        best_y = y
                        ties = 1
                    elif d == best_d:
                        ties += 1
                        if draw.below(ties) == 0:
                            best_p = p
                            best_x = x
                            best_y = y
            if best_x < 0:
                continue
            self.swap(best_p, best_x, best_y)
            tenure = _TENURE + draw.below(_TENURE_SPREAD)
            tabu[best_p * n + best_x] = step + tenure
            tabu[best_p * n + best_y] = step + tenure
            if self.cost < self.best_cost:
                self._keep_best()
                stall = 0
                dry = 0
            else:
                stall += 1
                if stall > _STALL and dry >= _DRY:
                    # Long stuck: a new greedy draw of every position (the best kept aside).
                    self._redraw()
                    stall = 0
                    dry = 0
                elif stall > _STALL:
                    dry += 1
                    # Back to the best plan, mended by exchanges if they can, else shaken by a
                    # few random swaps.
                    self._back_to_best()
                    self.relabel(cap)
                    if self.cost < self.best_cost:
                        self._keep_best()
                        stall = 0
                        continue
                    self._shake()
                    stall = 0
        if self.cost != self.best_cost:
            self._back_to_best()

    def _shake(self) -> None:
        """A few random swaps within a position, between tables of one size (the odd tables
        left as they are)."""
        n, draw = self.n, self.draw
        for _ in range(_SHAKE + draw.below(_SHAKE_SPREAD)):
            r = draw.below(self.positions)
            u = draw.below(n)
            v = draw.below(n)
            a = self.table_of[r * n + u]
            b = self.table_of[r * n + v]
            if a != b and self.sizes[a] == self.sizes[b]:
                self.swap(r, u, v)

    def relabel(self, cap: int) -> None:
        """Exchange two players' seats in every position where that lowers the cost, for a
        player in conflict: the plan's meetings stay as they are, only who has them changes (what
        fixes a forbidden pair or a fixed player when everything else is right)."""
        n = self.n
        improved = True
        while improved and self.cost > self.lower and self.work < cap:
            improved = False
            for x in range(n):
                if not any(self.in_conflict(p, x) for p in range(self.positions)):
                    continue
                for y in range(n):
                    if y == x:
                        continue
                    before = self.cost
                    self._exchange(x, y)
                    self.work += 2 * self.positions
                    if self.cost < before:
                        improved = True
                        break
                    self._exchange(x, y)
                if self.cost <= self.lower or self.work >= cap:
                    break

    def _exchange(self, x: int, y: int) -> None:
        n = self.n
        for p in range(self.positions):
            if self.table_of[p * n + x] != self.table_of[p * n + y]:
                self.swap(p, x, y)
