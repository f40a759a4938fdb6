"""What counting shows no seating can beat (rules.md §16.5): the search stops when it gets there.

A search that stops only at its cap spends the most exactly where it can do no better; these
bounds let it stop as soon as its plan is shown the best: the repeated meetings the positions
force, the meetings piled past a second that spreading cannot avoid, and the unevenness of the
odd tables (of 3 or 5) that a plan without repeats cannot escape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .frozen import copied_by_constructor


@dataclass(frozen=True, slots=True)
class Least:
    """The least cost of any plan (as the search weighs repeats), and the least number of
    repeated meetings in it."""

    cost: int
    repeats: int


def least_cost(
    n: int, positions: int, sizes: Sequence[int], meetings: Sequence[int], cost_of: Callable[[int], int]
) -> Least:
    """The least cost of repeats of any plan of ``positions`` positions at tables of ``sizes``
    after ``meetings`` (n × n), by counting, the larger of two bounds: the repeats played and
    those the positions force in all (more meetings than pairs yet to meet); and, player by
    player, the fewest meetings he has (at the smallest table) spread as evenly as can be over
    the others, each pair counted from both its players and so halved. ``cost_of`` is convex,
    so the even spread is the cheapest."""
    played = 0
    unmet = 0
    for i in range(n):
        for j in range(i + 1, n):
            m = meetings[i * n + j]
            played += cost_of(m)
            unmet += m == 0
    new = positions * sum(s * (s - 1) // 2 for s in sizes)
    forced = max(0, new - unmet)
    fewest = positions * (min(sizes) - 1) if sizes else 0
    each = 0
    repeats = 0
    for x in range(n):
        before = [meetings[x * n + y] for y in range(n) if y != x]
        after = spread(before, fewest)
        each += sum(cost_of(m) for m in after)
        repeats += sum(max(0, m - 1) for m in after) - sum(max(0, m - 1) for m in before)
    repeat_once = cost_of(2) - cost_of(1)
    return Least(max(played + repeat_once * forced, (each + 1) // 2), max(forced, (repeats + 1) // 2))


def spread(counts: Sequence[int], more: int) -> list[int]:
    """``counts`` with ``more`` added one at a time, each time to a lowest: one player's meetings
    spread as evenly as they can be."""
    out = sorted(counts)
    k = len(out)
    while more > 0 and k:
        low = out[0]
        width = 1
        while width < k and out[width] == low:
            width += 1
        step = out[width] - low if width < k else more
        raised = min(step, more // width)
        if raised == 0:
            for t in range(more):
                out[t] += 1
            break
        for t in range(width):
            out[t] += raised
        more -= raised * width
    return out


def uneven_at_start(positions: int, sizes: Sequence[int]) -> int:
    """The least unevenness of the odd tables in a plan without repeats from a tournament's start.
    The second position must seat at its odd tables players who sat at tables of 4 in the first;
    an odd table takes at most one player of each such table, and a table of 4 gives at most one
    player to each odd table, or two of them meet again: the others are left out (17 players at
    tables of 3: 2 of 8; at a table of 5: 2 of 5)."""
    odd = [s for s in sizes if s != 4]
    fours = len(sizes) - len(odd)
    if positions < 2 or not odd or fours == 0:
        return 0
    due = min(sum(odd), 4 * fours)
    seated = min(due, len(odd) * min(max(odd), fours), fours * min(4, len(odd)))
    return due - seated


def uneven_next(table_of: Sequence[int], odd_before: Sequence[int], odd_tables: int, odd_seats: int) -> int:
    """The least unevenness of the odd tables at the position after one played, in a plan without
    repeats: the players due an odd table there (who would otherwise fall behind the others by
    two) who sat at one table of it take no more than one seat an odd table. ``table_of``: each
    player's table in the position played (-1: not in it); ``odd_tables`` and ``odd_seats``: the
    odd tables a position has and their seats."""
    n = len(odd_before)
    if odd_seats == 0 or n == 0:
        return 0
    least = (sum(odd_before) + odd_seats) // n
    due = [x for x in range(n) if odd_before[x] < least]
    together: dict[int, int] = {}
    for x in due:
        key = table_of[x] if table_of[x] >= 0 else -1 - x
        together[key] = together.get(key, 0) + 1
    seated = min(odd_seats, sum(min(count, odd_tables) for count in together.values()))
    behind = sum(max(0, least - odd_before[x] - 1) for x in due)
    return max(0, len(due) - seated) + behind


copied_by_constructor(Least)
