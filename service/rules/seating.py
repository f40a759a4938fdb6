"""The seating of a tournament (rules.md §16.5): who sits at which table, position by position.

A tournament in free deals is played in positions (rounds); between positions the players move
so that, as far as possible, no two of them meet twice. The rules, in strict priority:

1. every present player at exactly one table;
2. tables of 4, with the fewest tables of 3 the count of players allows (tables of 5 only when
   the request allows them, and then in place of tables of 3);
3. no forbidden pair (teammates) at one table;
4. no pair meeting twice; where that cannot be, the fewest repeated meetings (a meeting of two
   players who had met already), then the fewest meetings of two who had met twice…;
5. nobody at a table of 3 twice while another has not been at one (after each position, the
   times any two players have sat at a table of 3 differ by one at most);
6. players fixed to a table at that table.

**Plan ahead.** A position cannot be seated well on its own: three positions of 16 players
chosen badly leave no fourth and fifth without repeats. So every request plans *every* position
the tournament has left, and answers the ones asked for. The plan is a function of the players,
the constraints, the number of positions and the seed alone, so the next request draws it again:
when the positions played are the plan's own first positions, it goes on with the same plan;
otherwise it plans the positions left anew around what was played.

**The search.** A plan starts from a greedy draw, position after position (the players due a
table of 3 to the tables of 3, each player to the table where he meets the fewest he has met),
then a tabu search swaps two players of one position, the best swap of a player in conflict at
each step, until the plan's cost (the rules above as one number, each rule weighing more than
everything below it) meets what counting shows no plan can beat, or until its *work*, the swaps
it has weighed, reaches a cap. It first keeps the tables of 3 evenly spread and, when repeats
remain, lets them go where that removes repeats (rule 4 before rule 5). Work, never time, bounds
it, so the same request gives the same answer on any machine; at the cap the answer is the best
plan found, with its repeats.

**The draw.** Every choice made at random comes from xoshiro128**, a generator of 32-bit words
written out here, seeded by SHA-256 of the request's seed: the pure and the compiled core, on
any machine, draw alike.

**The check.** :func:`check_seating` holds positions seated elsewhere to the same rules and
lists every fault, located (position, table, seat) for the contract's pointers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from ..messages import Message, msg
from .frozen import copied_by_constructor
from .verdicts import SeatingFault

ORIENTATIONS: Final = ("north", "west", "south", "east", "fifth")
"""The seats of a table in playing order, as a scorecard names them (rules.md §16.2): the seat
after North is West; a fifth player plays after East."""

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

WORK_CAP: Final = 800_000
"""The most work a plan from the start does (swaps weighed; a scan of the conflicts counts as a
few): what bounds a request's cost. A request makes at most three plans: the plan from the start,
the plan after the first position played otherwise with half as much work (it starts from the
first, renamed), the plan after all those played with a quarter."""

_MASK32: Final = 0xFFFFFFFF


# ---- the tables of a position -------------------------------------------------------------------


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
    None when no such tables seat them all (1, 2 or 5 players without tables of 5)."""
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


# ---- the request and the answer, as the core takes and gives them --------------------------------


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """One table of one position: its number (from 1) and its players, seat by seat."""

    table: int
    seats: tuple[str, ...]
    at: tuple[str, ...] = ()
    """The orientation of each seat (:data:`ORIENTATIONS`) as the table was written; () for those
    :func:`orientations` gives its size."""

    def orientation(self, seat: int) -> str | None:
        """The orientation of the player at index ``seat`` of :attr:`seats` (None past the fifth)."""
        named = self.at or orientations(len(self.seats))
        return named[seat] if seat < len(named) else None


Position = tuple[SeatedTable, ...]


@dataclass(frozen=True, slots=True)
class Tournament:
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


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two players who meet more than once, and the positions (from 0) where they meet."""

    players: tuple[str, str]
    positions: tuple[int, ...]


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
    """The work done: both plans' when there were two."""
    capped: bool
    """A plan stopped at its cap, not at a cost the bounds show best."""


copied_by_constructor(Composition, SeatedTable, Tournament, Repeat, Fault, Seating)


# ---- the draw -----------------------------------------------------------------------------------


class Draw:
    """32-bit words from a seed: xoshiro128** (Blackman and Vigna), its state the first 16 bytes
    of SHA-256 of the seed's UTF-8 bytes, a zero byte and a label (so that each use draws apart)."""

    def __init__(self, seed: str, label: str) -> None:
        digest = hashlib.sha256(seed.encode("utf-8") + b"\x00" + label.encode("utf-8")).digest()
        self.s0 = int.from_bytes(digest[0:4], "big")
        self.s1 = int.from_bytes(digest[4:8], "big")
        self.s2 = int.from_bytes(digest[8:12], "big")
        self.s3 = int.from_bytes(digest[12:16], "big") or 1  # never the all-zero state

    def word(self) -> int:
        s1 = self.s1
        x = (s1 * 5) & _MASK32
        result = ((((x << 7) | (x >> 25)) & _MASK32) * 9) & _MASK32
        t = (s1 << 9) & _MASK32
        self.s2 ^= self.s0
        self.s3 ^= s1
        self.s1 = s1 ^ self.s2
        self.s0 ^= self.s3
        self.s2 ^= t
        s3 = self.s3
        self.s3 = ((s3 << 11) | (s3 >> 21)) & _MASK32
        return result

    def below(self, n: int) -> int:
        """A whole number in ``0 … n − 1`` (the multiply-shift method: the bias, below n/2³², is
        nothing for the sizes here)."""
        return (self.word() * n) >> 32

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---- the plan: a tabu search over every position left ------------------------------------------

# Rules 3 to 6 as one cost, each rule's weight above all that the rules below it can add up to
# (a request's counts stay well below 10⁵ each: 200 players, 15 positions).
_W_FIXED: Final = 1
_W_FAIR: Final = 10**5
_W_FAIR_FIRST: Final = 10**18
"""Rule 5's weight while the search first looks among evenly spread tables of 3: above repeats."""
_W_THIRD: Final = 10**10
"""Each meeting of two players who had met twice already."""
_W_REPEAT: Final = 10**15
"""Each meeting of two players who had met already."""
_W_FORBIDDEN: Final = 10**20
_MAX_MEETINGS: Final = 2 * MAX_POSITIONS + 2
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
"""Tenths of the work given to the search that keeps the tables of 3 evenly spread."""


def _repeat_cost(meetings: int) -> int:
    return _W_REPEAT * max(0, meetings - 1) + _W_THIRD * max(0, meetings - 2)


class Search:
    """A plan of ``positions`` positions of ``n`` players (``0 … n − 1``) at tables of ``sizes``,
    weighed with what was played (``meetings``: n × n, the times each two met; ``threes``: the
    times each sat at a table of 3), and the tabu search that improves it."""

    def __init__(
        self,
        n: int,
        positions: int,
        sizes: tuple[int, ...],
        meetings: list[int],
        threes: list[int],
        forbidden: list[tuple[int, int]],
        fixed: list[int],
        draw: Draw,
        uneven: int = 0,
    ) -> None:
        self.n = n
        self.q = positions
        self.g = len(sizes)
        self.size = list(sizes)
        self.is3 = [1 if s == 3 else 0 for s in sizes]
        self.seats3 = 3 * sum(self.is3)
        self.fair = self.seats3 > 0
        self.draw = draw
        self.meet = list(meetings)
        self.lin = [0] * (n * n)
        """The cost of each meeting of two players, on top of its repeat cost."""
        self.bad = [0] * (n * n)
        """Two players who must not sit together: a forbidden pair, or fixed to different tables."""
        for a, b in forbidden:
            self.lin[a * n + b] += _W_FORBIDDEN
            self.lin[b * n + a] += _W_FORBIDDEN
            self.bad[a * n + b] = self.bad[b * n + a] = 1
        # A fixed player's table is a number given after the search, so rule 6 is between two
        # players: fixed to different tables, they sit apart; to one table, together.
        self.together: list[list[int]] = [[] for _ in range(n)]
        together = 0
        for i in range(n):
            for j in range(n):
                if i != j and fixed[i] and fixed[j]:
                    if fixed[i] == fixed[j]:
                        self.lin[i * n + j] -= _W_FIXED
                        self.together[i].append(j)
                        together += 1
                    else:
                        self.lin[i * n + j] += _W_FIXED
                        self.bad[i * n + j] = 1
        self.up = [_repeat_cost(m + 1) - _repeat_cost(m) for m in range(_MAX_MEETINGS)]
        self.down = [0] + [_repeat_cost(m - 1) - _repeat_cost(m) for m in range(1, _MAX_MEETINGS)]
        # Rule 5: after each position, everyone's count of tables of 3 within [lo, hi].
        self.history3 = list(threes)
        self.stints = [0] * (positions * n)
        self.lo = [0] * positions
        self.hi = [0] * positions
        total = sum(threes)
        for p in range(positions):
            total += self.seats3
            self.lo[p] = total // n
            self.hi[p] = -(-total // n)
        self.spread = [0] * positions
        """Each position's unevenness: how far, in all, the players' counts of tables of 3 are
        from the even share."""
        self.allowance = [0] * positions
        """The unevenness of each position the search takes as free (in its first phase, the
        unevenness forced at one position)."""
        self.group = [0] * (positions * n)
        self.slot = [0] * (positions * n)
        self.members = [-1] * (positions * self.g * _ROOM)
        self.cost = 0
        self.w_fair = _W_FAIR
        # Rule 5 gives way to rule 4 where no plan without repeats spreads the tables of 3 evenly.
        fresh = not any(meetings) and not any(threes)
        self.uneven = self._uneven_forced() if fresh else uneven
        """The unevenness no plan without repeats escapes, all of it at position ``uneven_at``."""
        self.uneven_at = 1 if fresh else 0
        self.floor = self._lower_bound(meetings) - _W_FIXED * positions * (together // 2)
        """The least cost of repeats (and fixed players together) of any plan."""
        self.lower = self.floor
        """The least cost of any plan, as the search weighs it now."""
        self.work = 0
        self.best_cost = 0
        self.best: list[int] = []

    # -- what no plan can beat --------------------------------------------------------------------

    def _lower_bound(self, meetings: list[int]) -> int:
        """The least cost of any plan, by counting: the repeats already played, and those the
        positions left force (more meetings than pairs yet to meet, in all or for one player)."""
        n = self.n
        cost = 0
        unmet = 0
        unmet_of = [0] * n
        for i in range(n):
            for j in range(i + 1, n):
                m = meetings[i * n + j]
                cost += _repeat_cost(m)
                if m == 0:
                    unmet += 1
                    unmet_of[i] += 1
                    unmet_of[j] += 1
        new = self.q * sum(s * (s - 1) // 2 for s in self.size)
        forced = max(0, new - unmet)
        least = self.q * (min(self.size) - 1)
        self.forced = max(forced, (sum(max(0, least - u) for u in unmet_of) + 1) // 2)
        return cost + _W_REPEAT * self.forced

    def _uneven_forced(self) -> int:
        """The least unevenness of the tables of 3 in a plan without repeats from a tournament's
        start. When the second position must seat at its tables of 3 everyone who sat at a table
        of 4 in the first, fewer than 4 tables of 3 cannot take the 4 players of one such table
        without two of them meeting again: some are left out (17 players: 2 of 8)."""
        n = self.n
        threes = sum(self.is3)
        fours = self.size.count(4)
        if self.q < 2 or threes == 0 or fours == 0 or threes >= 4 or 2 * self.seats3 < n:
            return 0
        return 4 * fours - min(fours * threes, self.seats3)

    def phase(self, first: bool) -> None:
        """Weigh the plan for the search's first phase, rule 5 above rule 4 (the unevenness
        forced at one position taken as free), or for its second, every rule in its priority."""
        self.w_fair = _W_FAIR_FIRST if first else _W_FAIR
        if self.uneven:
            p = self.uneven_at
            self.allowance[p] = self.uneven if first else 0
        forced_uneven = 0 if first or self.forced else self.uneven
        self.lower = self.floor + _W_FAIR * forced_uneven
        self.count()

    # -- the state --------------------------------------------------------------------------------

    def place(self, p: int, groups: list[list[int]]) -> None:
        """Seat position ``p`` as ``groups`` (each table's players, in the order of ``sizes``)."""
        n = self.n
        for g in range(self.g):
            players = groups[g]
            base = (p * self.g + g) * _ROOM
            for k in range(len(players)):
                x = players[k]
                self.members[base + k] = x
                self.group[p * n + x] = g
                self.slot[p * n + x] = k
            for a in range(len(players)):
                for b in range(a + 1, len(players)):
                    self._meet(players[a], players[b], 1)

    def _meet(self, x: int, y: int, step: int) -> None:
        n = self.n
        m = self.meet[x * n + y]
        if step > 0:
            self.cost += self.up[m] + self.lin[x * n + y]
        else:
            self.cost += self.down[m] - self.lin[x * n + y]
        self.meet[x * n + y] = m + step
        self.meet[y * n + x] = m + step

    def _deviation(self, p: int, s: int) -> int:
        if s > self.hi[p]:
            return s - self.hi[p]
        if s < self.lo[p]:
            return self.lo[p] - s
        return 0

    def count(self) -> None:
        """The plan's cost, and the tables of 3 of each player, counted afresh."""
        n = self.n
        cost = 0
        for i in range(n):
            for j in range(i + 1, n):
                cost += _repeat_cost(self.meet[i * n + j])
        for p in range(self.q):
            for g in range(self.g):
                base = (p * self.g + g) * _ROOM
                for a in range(self.size[g]):
                    for b in range(a + 1, self.size[g]):
                        cost += self.lin[self.members[base + a] * n + self.members[base + b]]
        if self.fair:
            for p in range(self.q):
                self.spread[p] = 0
            for x in range(n):
                s = self.history3[x]
                for p in range(self.q):
                    s += self.is3[self.group[p * n + x]]
                    self.stints[p * n + x] = s
                    self.spread[p] += self._deviation(p, s)
            for p in range(self.q):
                cost += self.w_fair * max(0, self.spread[p] - self.allowance[p])
        self.cost = cost

    def groups(self, p: int) -> list[list[int]]:
        """Position ``p``'s tables, in the order of ``sizes``."""
        out: list[list[int]] = []
        for g in range(self.g):
            base = (p * self.g + g) * _ROOM
            out.append([self.members[base + k] for k in range(self.size[g])])
        return out

    def greedy(self, p: int) -> None:
        """Seat position ``p`` (those before it seated) greedily: the players who sat at the
        fewest tables of 3 to the tables of 3; each player, in a random order, to the table of
        his kind where he adds the least cost."""
        n = self.n
        draw = self.draw
        order = list(range(n))
        draw.shuffle(order)
        due3 = [False] * n
        if self.fair:
            had = list(self.history3)
            for r in range(p):
                for x in range(n):
                    had[x] += self.is3[self.group[r * n + x]]
            order.sort(key=lambda x: had[x])
            for k in range(self.seats3):
                due3[order[k]] = True
            draw.shuffle(order)
        groups: list[list[int]] = [[] for _ in range(self.g)]
        for x in order:
            best = -1
            best_c = 0
            ties = 0
            for g in range(self.g):
                if len(groups[g]) >= self.size[g] or (self.fair and due3[x] != (self.is3[g] == 1)):
                    continue
                c = 0
                for z in groups[g]:
                    c += self.up[self.meet[x * n + z]] + self.lin[x * n + z]
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
        meet = self.meet
        lin = self.lin
        up = self.up
        down = self.down
        members = self.members
        a = self.group[p * n + x]
        b = self.group[p * n + y]
        d = 0
        base = (p * self.g + a) * _ROOM
        for k in range(self.size[a]):
            z = members[base + k]
            if z != x:
                d += down[meet[x * n + z]] - lin[x * n + z] + up[meet[y * n + z]] + lin[y * n + z]
        base = (p * self.g + b) * _ROOM
        for k in range(self.size[b]):
            z = members[base + k]
            if z != y:
                d += down[meet[y * n + z]] - lin[y * n + z] + up[meet[x * n + z]] + lin[x * n + z]
        if self.fair and self.is3[a] != self.is3[b]:
            if self.is3[a]:
                d += self.w_fair * self._uneven_delta(p, x, y)
            else:
                d += self.w_fair * self._uneven_delta(p, y, x)
        return d

    def _uneven_delta(self, p: int, out: int, into: int) -> int:
        """The change of unevenness (beyond the allowance) if ``out`` leaves a table of 3 for
        ``into`` in position ``p``."""
        n = self.n
        d = 0
        for r in range(p, self.q):
            so = self.stints[r * n + out]
            si = self.stints[r * n + into]
            change = self._deviation(r, so - 1) - self._deviation(r, so)
            change += self._deviation(r, si + 1) - self._deviation(r, si)
            if change:
                free = self.allowance[r]
                spread = self.spread[r]
                d += max(0, spread + change - free) - max(0, spread - free)
        return d

    def swap(self, p: int, x: int, y: int) -> None:
        """``x`` and ``y`` change tables in position ``p``."""
        n = self.n
        a = self.group[p * n + x]
        b = self.group[p * n + y]
        base_a = (p * self.g + a) * _ROOM
        base_b = (p * self.g + b) * _ROOM
        for k in range(self.size[a]):
            z = self.members[base_a + k]
            if z != x:
                self._meet(x, z, -1)
                self._meet(y, z, 1)
        for k in range(self.size[b]):
            z = self.members[base_b + k]
            if z != y:
                self._meet(y, z, -1)
                self._meet(x, z, 1)
        if self.fair and self.is3[a] != self.is3[b]:
            out = x if self.is3[a] else y
            into = y if self.is3[a] else x
            self.cost += self.w_fair * self._uneven_delta(p, out, into)
            for r in range(p, self.q):
                so = self.stints[r * n + out]
                si = self.stints[r * n + into]
                self.spread[r] += self._deviation(r, so - 1) - self._deviation(r, so)
                self.spread[r] += self._deviation(r, si + 1) - self._deviation(r, si)
                self.stints[r * n + out] = so - 1
                self.stints[r * n + into] = si + 1
        ka = self.slot[p * n + x]
        kb = self.slot[p * n + y]
        self.members[base_a + ka] = y
        self.members[base_b + kb] = x
        self.group[p * n + x] = b
        self.group[p * n + y] = a
        self.slot[p * n + x] = kb
        self.slot[p * n + y] = ka

    def in_conflict(self, p: int, x: int) -> bool:
        """Whether ``x``'s seat in position ``p`` costs anything: he meets someone again, or
        someone he must not meet; a player fixed to his table sits elsewhere; or his table of 3,
        or of 4, leaves the tables of 3 unevenly spread from there on."""
        n = self.n
        a = self.group[p * n + x]
        if self._meets_wrongly(p, x, a):
            return True
        if self.fair:
            for r in range(p, self.q):
                s = self.stints[r * n + x]
                if (s > self.hi[r]) if self.is3[a] else (s < self.lo[r]):
                    return True
        return False

    def collect(self, conflicts: list[int]) -> None:
        """Every seat in conflict (``p * n + x``, as :meth:`in_conflict` says), by player, each
        player's positions from the last (so that the tables of 3 are looked at once a player)."""
        n = self.n
        conflicts.clear()
        for x in range(n):
            over = False
            under = False
            for p in range(self.q - 1, -1, -1):
                a = self.group[p * n + x]
                if self.fair:
                    s = self.stints[p * n + x]
                    over = over or s > self.hi[p]
                    under = under or s < self.lo[p]
                    if over if self.is3[a] else under:
                        conflicts.append(p * n + x)
                        continue
                if self._meets_wrongly(p, x, a):
                    conflicts.append(p * n + x)

    def _meets_wrongly(self, p: int, x: int, a: int) -> bool:
        n = self.n
        base = (p * self.g + a) * _ROOM
        for k in range(self.size[a]):
            z = self.members[base + k]
            if z != x and (self.meet[x * n + z] > 1 or self.bad[x * n + z]):
                return True
        return any(self.group[p * n + z] != a for z in self.together[x])

    # -- the search -------------------------------------------------------------------------------

    def _unseat(self) -> None:
        """Take every planned meeting out of the counts, before the positions are seated anew."""
        for p in range(self.q):
            for players in self.groups(p):
                for a in range(len(players)):
                    for b in range(a + 1, len(players)):
                        self._meet(players[a], players[b], -1)

    def _redraw(self) -> None:
        """A new greedy draw of every position."""
        self._unseat()
        for p in range(self.q):
            self.greedy(p)
        self.count()

    def _keep_best(self) -> None:
        self.best_cost = self.cost
        self.best = list(self.group)

    def _back_to_best(self) -> None:
        n = self.n
        self._unseat()
        for p in range(self.q):
            groups: list[list[int]] = [[] for _ in range(self.g)]
            for x in range(n):
                groups[self.best[p * n + x]].append(x)
            self.place(p, groups)
        self.count()

    def run(self, cap: int) -> None:
        """Tabu search until the plan's cost meets the lower bound or the work reaches ``cap``."""
        n = self.n
        q = self.q
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
                a = self.group[pick]
                for y in range(n):
                    if self.group[p * n + y] == a:
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
                    for _ in range(_SHAKE + draw.below(_SHAKE_SPREAD)):
                        r = draw.below(q)
                        u = draw.below(n)
                        v = draw.below(n)
                        a = self.group[r * n + u]
                        b = self.group[r * n + v]
                        if a != b and self.size[a] == self.size[b]:  # the tables of 3 left as they are
                            self.swap(r, u, v)
                    stall = 0
        if self.cost != self.best_cost:
            self._back_to_best()

    def relabel(self, cap: int) -> None:
        """Exchange two players' seats in every position where that lowers the cost, for a
        player in conflict: the plan's meetings stay as they are, only who has them changes (what
        fixes a forbidden pair or a fixed player when everything else is right)."""
        n = self.n
        improved = True
        while improved and self.cost > self.lower and self.work < cap:
            improved = False
            for x in range(n):
                if not any(self.in_conflict(p, x) for p in range(self.q)):
                    continue
                for y in range(n):
                    if y == x:
                        continue
                    before = self.cost
                    self._exchange(x, y)
                    self.work += 2 * self.q
                    if self.cost < before:
                        improved = True
                        break
                    self._exchange(x, y)
                if self.cost <= self.lower or self.work >= cap:
                    break

    def _exchange(self, x: int, y: int) -> None:
        n = self.n
        for p in range(self.q):
            if self.group[p * n + x] != self.group[p * n + y]:
                self.swap(p, x, y)


class _Plan:
    """A plan of the positions left: each position's tables of player indexes."""

    def __init__(self, positions: list[list[list[int]]], work: int, capped: bool) -> None:
        self.positions = positions
        self.work = work
        self.capped = capped


def _plan(
    n: int,
    positions: int,
    sizes: tuple[int, ...],
    meetings: list[int],
    threes: list[int],
    forbidden: list[tuple[int, int]],
    fixed: list[int],
    draw: Draw,
    cap: int,
    uneven: int = 0,
    start: list[list[list[int]]] | None = None,
) -> _Plan:
    """The plan of ``positions`` positions: from a greedy draw, or from ``start`` where that
    costs less, searched as the module says."""
    search = Search(n, positions, sizes, meetings, threes, forbidden, fixed, draw, uneven)
    for p in range(positions):
        search.greedy(p)
    if start is not None:
        other = Search(n, positions, sizes, meetings, threes, forbidden, fixed, draw, uneven)
        for p in range(positions):
            other.place(p, start[p])
        other.phase(False)
        search.phase(False)
        if other.cost < search.cost:
            search = other
    # Evenly spread tables of 3 first; where repeats remain, let them go (rule 4 before rule 5).
    # After each search, exchanging two players everywhere mends what single swaps cannot.
    if search.fair:
        search.phase(True)
        search.run(cap * _FAIR_SHARE // 10)
        search.relabel(cap * _FAIR_SHARE // 10)
    search.phase(False)
    if search.cost > search.lower:
        search.run(cap)
        search.relabel(cap + cap // 10)
    return _Plan([search.groups(p) for p in range(positions)], search.work, search.cost > search.lower)


# ---- seating a request ----------------------------------------------------------------------------


def seat_tournament(tournament: Tournament) -> Seating:
    """The positions ``tournament.seat`` asks for (none: only the check of the positions played),
    from the plan of every position left (see the module)."""
    t = tournament
    ids = sorted(set(t.players))
    n = len(ids)
    tables = composition(n, t.fives)
    faults = check_seating(t)
    played = len(t.played)
    if t.seat <= 0 or tables is None or played >= t.positions:
        limit = bound(n, t.fives)
        return Seating((), tables, limit, _repeats(t.played), faults, (), False, 0, False)
    index = {pid: i for i, pid in enumerate(ids)}
    pairs = {(index[a], index[b]) for a, b in t.forbidden if a in index and b in index and a != b}
    forbidden = sorted({(min(pair), max(pair)) for pair in pairs})
    fixed_table = dict(t.fixed)
    fixed = [fixed_table.get(pid, 0) for pid in ids]
    # The plan from the start; where the positions played leave it, the plan of the positions
    # left after the first that did (so that a club that seated one position its own way still
    # gets the plan ahead); where they leave that one too, the plan around all of them.
    context = _Context(t, ids, index, tables, forbidden, fixed)
    plan = context.plan(0, t.work_cap)
    work = plan.work
    anchor = 0
    left = _leaves(t.played, 0, plan.positions, ids)
    if left >= 0:
        anchor = left + 1
        plan = context.plan(anchor, t.work_cap // 2)
        work += plan.work
        if _leaves(t.played, anchor, plan.positions, ids) >= 0:
            anchor = played
            plan = context.plan(anchor, t.work_cap // 4)
            work += plan.work
    chosen = plan.positions[played - anchor : played - anchor + t.seat]
    replanned = anchor > 0
    seated = tuple(_numbered(chosen[i], played + i, ids, fixed, t.seed) for i in range(len(chosen)))
    whole = t.played + seated
    shortfalls = tuple(
        Fault(f.code, f.message, f.position - played, f.table, f.seat, f.players)
        for f in _faults(whole, None, t, played, False)
    )
    return Seating(seated, tables, bound(n, t.fives), _repeats(whole), faults, shortfalls, replanned, work, plan.capped)


class _Context:
    """What every plan of one request shares: the players (by index), their tables, the rules
    between them, and the positions played."""

    def __init__(
        self,
        t: Tournament,
        ids: list[str],
        index: dict[str, int],
        tables: Composition,
        forbidden: list[tuple[int, int]],
        fixed: list[int],
    ) -> None:
        self.t = t
        self.ids = ids
        self.index = index
        self.tables = tables
        self.forbidden = forbidden
        self.fixed = fixed
        self.fresh: list[list[list[int]]] | None = None
        """The plan from the start, once made."""

    def plan(self, anchor: int, cap: int) -> _Plan:
        """The plan of the positions after the first ``anchor`` played: a function of them, the
        players, the rules, the number of positions and the seed alone."""
        t = self.t
        n = len(self.ids)
        left = t.positions - anchor
        sizes = self.tables.sizes()
        if anchor == 0:
            draw = Draw(t.seed, "plan")
            plan = _plan(n, left, sizes, [0] * (n * n), [0] * n, self.forbidden, self.fixed, draw, cap)
            self.fresh = plan.positions
            return plan
        meetings, threes = _history(t.played[:anchor], self.index, n)
        uneven = _uneven_next(t.played[anchor - 1], self.index, threes, self.tables.threes)
        draw = Draw(t.seed, f"replan {anchor}")
        start = self._laid_over(t.played[anchor - 1], left, draw)
        return _plan(n, left, sizes, meetings, threes, self.forbidden, self.fixed, draw, cap, uneven, start)

    def _laid_over(self, last: Position, left: int, draw: Draw) -> list[list[list[int]]] | None:
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


def _leaves(played: tuple[Position, ...], anchor: int, plan: list[list[list[int]]], ids: list[str]) -> int:
    """The first position played from ``anchor`` on that is not the plan's (made after the
    first ``anchor`` played), table for table whatever their numbers and seats; -1 if none."""
    for p in range(anchor, len(played)):
        given = sorted(tuple(sorted(table.seats)) for table in played[p])
        planned = sorted(tuple(sorted(ids[x] for x in group)) for group in plan[p - anchor])
        if given != planned:
            return p
    return -1


def _history(played: tuple[Position, ...], index: dict[str, int], n: int) -> tuple[list[int], list[int]]:
    """How many times each two players present met in the positions played, and how many times
    each sat at a table of 3."""
    meetings = [0] * (n * n)
    threes = [0] * n
    for position in played:
        for table in position:
            present = sorted({index[pid] for pid in table.seats if pid in index})
            for a in range(len(present)):
                if len(table.seats) == 3:
                    threes[present[a]] += 1
                for b in range(a + 1, len(present)):
                    meetings[present[a] * n + present[b]] += 1
                    meetings[present[b] * n + present[a]] += 1
    return meetings, threes


def _uneven_next(last: Position, index: dict[str, int], threes: list[int], tables3: int) -> int:
    """The least unevenness of the tables of 3 at the first position after ``last`` in a plan
    without repeats: the players due a table of 3 there (who would otherwise fall behind the
    others by two) who met at a table of ``last`` can take no more than one seat a table of 3."""
    n = len(threes)
    if tables3 == 0:
        return 0
    least = (sum(threes) + 3 * tables3) // n
    due = [x for x in range(n) if threes[x] < least]
    table_of = [-1] * n
    for k in range(len(last)):
        for pid in last[k].seats:
            if pid in index:
                table_of[index[pid]] = k
    together: dict[int, int] = {}
    for x in due:
        key = table_of[x] if table_of[x] >= 0 else len(last) + x
        together[key] = together.get(key, 0) + 1
    seated = min(3 * tables3, sum(min(count, tables3) for count in together.values()))
    behind = sum(max(0, least - threes[x] - 1) for x in due)
    return max(0, len(due) - seated) + behind


def _numbered(groups: list[list[int]], position: int, ids: list[str], fixed: list[int], seed: str) -> Position:
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
        tables.append(SeatedTable(number[g], tuple(ids[x] for x in seats), orientations(len(seats))))
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


# ---- the check ------------------------------------------------------------------------------------

_RANK: Final = {code: rank for rank, code in enumerate(SeatingFault)}


def check_seating(tournament: Tournament) -> tuple[Fault, ...]:
    """The faults of the positions played, by the rules of the seating. In the check form
    (``seat`` 0) the players are the tournament's: each position must seat each of them once, and
    no one else. When the request seats, they are the players present: a player who came late is
    missing from the positions before, and one who left sits in them, and neither is a fault."""
    t = tournament
    roster = frozenset(t.players) if t.seat <= 0 else None
    return tuple(_faults(t.played, roster, t, 0, True))


def _faults(
    positions: tuple[Position, ...], roster: frozenset[str] | None, t: Tournament, first: int, repeats: bool
) -> list[Fault]:
    """The faults of ``positions`` from the one at index ``first`` (those before count for the
    meetings and the tables of 3); ``roster``: the players each position must seat, when it is
    known; ``repeats``: whether repeated meetings are faults to list."""
    found: list[Fault] = []
    forbidden: set[tuple[str, str]] = set()
    for one, other in t.forbidden:
        forbidden.add((one, other))
        forbidden.add((other, one))
    fixed = dict(t.fixed)
    allowed = (3, 4, 5) if t.fives else (3, 4)
    met: dict[tuple[str, str], list[int]] = {}
    threes: dict[str, int] = {}
    for p in range(len(positions)):
        position = positions[p]
        said = p >= first
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
                    key = "seating.fault.table_size.fives" if t.fives else "seating.fault.table_size"
                    message = msg(key, size, position=number, table=table.table)
                    found.append(Fault(SeatingFault.TABLE_SIZE, message, p, k, None, tuple(table.seats)))
            for s in range(size):
                pid = table.seats[s]
                if pid in seen:
                    if said:
                        earlier = position[seen[pid]].table
                        if seen[pid] == k:
                            key = "seating.fault.seated_twice.table"
                            message = msg(key, player=pid, position=number, table=earlier)
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
                if roster is not None and pid not in roster and said:
                    message = msg("seating.fault.unknown_player", player=pid, position=number, table=table.table)
                    found.append(Fault(SeatingFault.UNKNOWN_PLAYER, message, p, k, s, (pid,)))
                if pid in fixed and fixed[pid] != table.table and said:
                    key = "seating.fault.fixed_elsewhere"
                    message = msg(key, player=pid, fixed=fixed[pid], position=number, table=table.table)
                    found.append(Fault(SeatingFault.FIXED_ELSEWHERE, message, p, k, s, (pid,)))
        if roster is not None and said:
            for pid in sorted(pid for pid in roster if pid not in seen):
                message = msg("seating.fault.missing_player", player=pid, position=number)
                found.append(Fault(SeatingFault.MISSING_PLAYER, message, p, None, None, (pid,)))
        if sizes_ok and said:
            fault = _sizes_fault(position, p, t.fives)
            if fault is not None:
                found.append(fault)
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
        found.extend(_uneven(position, p, threes, said))
    found.sort(key=lambda f: (f.position, _RANK[f.code], -1 if f.table is None else f.table, f.seat or 0))
    return found


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


def _uneven(position: Position, p: int, threes: dict[str, int], said: bool) -> list[Fault]:
    """Count the tables of 3 of position ``p``; a player who now has sat at 2 more than another
    seated in it (rule 5) is a fault, at his seat."""
    found: list[Fault] = []
    for table in position:
        if len(table.seats) == 3:
            for pid in set(table.seats):
                threes[pid] = threes.get(pid, 0) + 1
    seated = sorted({pid for table in position for pid in table.seats})
    if not seated or not said:
        return found
    fewest = min(threes.get(pid, 0) for pid in seated)
    other = next(pid for pid in seated if threes.get(pid, 0) == fewest)
    for k in range(len(position)):
        table = position[k]
        if len(table.seats) != 3:
            continue
        for s in range(3):
            pid = table.seats[s]
            had = threes[pid]
            if had >= fewest + 2 and table.seats.index(pid) == s:
                message = msg(
                    "seating.fault.uneven_threes",
                    had,
                    player=pid,
                    position=p + 1,
                    table=table.table,
                    other=other,
                    fewer=fewest,
                )
                found.append(Fault(SeatingFault.UNEVEN_THREES, message, p, k, s, (pid, other)))
    return found
