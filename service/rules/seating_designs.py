"""Seatings without a repeated meeting known by construction (rules.md §16.5, "Designs").

A seating of ``v`` players at tables of 4 in which no two players meet twice is a *resolvable
design*: each position a partition of the players into tables (a parallel class), each pair of
players at one table at most once. Counting bounds its positions by ``(v − 1) / 3``, and where a
design reaches or nears that bound a search rarely finds it in the time a request has. These are
mathematical facts, so the seating builds them here instead of searching for them:

- **the affine plane AG(2, 4)**: 16 players, 5 positions (every pair meets once);
- **the affine space AG(3, 4)**: 64 players, 21 positions (every pair meets once);
- **cyclic developments**: the players are ``Z_m × {0, 1, 2}`` and up to three fixed players
  (``∞``); one *base position* is written out, and position ``t`` adds ``t`` (mod ``m``) to
  every player but the fixed ones. A base position whose differences cover each pair's
  difference once gives a design of ``m`` positions: 24 players over 7 (``m = 7``, three fixed
  players; the players of each *group* ``{(x, 0), (x, 1), (x, 2)}``, and the three fixed players,
  never meet), 28 over 9 (``m = 9``, every pair meets once), 40 over 13 (``m = 13``, every pair
  once) and 32 over 10 (``m = 10``, two fixed players; each player misses one other, ``x`` and
  ``x + 5`` on a level, and the two fixed players).

The base positions were found once by a search over their differences, and each design is held
by the tests to be what it claims (tests/test_rules_16_designs.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final

Table = tuple[int, ...]
Design = tuple[tuple[Table, ...], ...]
"""Positions, each a partition of the players ``0 … v − 1`` into tables."""

FIXED: Final = 3
"""The level of a fixed player (``∞``) in a base position: never moved by the development."""


# ---- the affine geometries over GF(4) -----------------------------------------------------------

# GF(4) = {0, 1, w, w²} written 0, 1, 2, 3 (the polynomials over GF(2) modulo x² + x + 1):
# addition is the exclusive or; multiplication by this table.
_TIMES: Final = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def affine(dimension: int) -> Design:
    """The lines of AG(``dimension``, 4) in parallel classes: the points are the vectors of
    GF(4)^dimension (player ``Σ aᵢ 4ⁱ``); a position is a direction (a vector whose first non-zero
    coordinate is 1), its tables the lines parallel to it, ``{p + t·d : t ∈ GF(4)}``."""
    points = range(4**dimension)

    def coordinates(p: int) -> tuple[int, ...]:
        return tuple((p >> (2 * i)) & 3 for i in range(dimension))

    def number(c: tuple[int, ...]) -> int:
        return sum(a << (2 * i) for i, a in enumerate(c))

    directions = [d for d in map(coordinates, points) if any(d) and next(a for a in d if a) == 1]
    design: list[tuple[Table, ...]] = []
    for d in directions:
        tables: list[Table] = []
        seen: set[int] = set()
        for p in points:
            if p in seen:
                continue
            c = coordinates(p)
            line = tuple(sorted(number(tuple(c[i] ^ _TIMES[t][d[i]] for i in range(dimension))) for t in range(4)))
            seen.update(line)
            tables.append(line)
        design.append(tuple(tables))
    return tuple(design)


# ---- cyclic developments ------------------------------------------------------------------------

BasePlayer = tuple[int, int]
"""``(x, level)``: ``x`` in ``Z_m`` on level 0, 1 or 2; or ``(i, FIXED)``, the fixed player ``i``."""


def developed(modulus: int, base: tuple[tuple[BasePlayer, ...], ...]) -> Design:
    """The ``modulus`` positions of a base position developed mod ``modulus``: player ``(x, l)``
    is ``l·m + x``, the fixed player ``i`` is ``3m + i``."""

    def player(x: int, level: int, shift: int) -> int:
        if level == FIXED:
            return 3 * modulus + x
        return level * modulus + (x + shift) % modulus

    return tuple(
        tuple(tuple(sorted(player(x, level, t) for x, level in table)) for table in base) for t in range(modulus)
    )


_BASE_24: Final = (
    ((0, FIXED), (4, 0), (1, 1), (3, 2)),
    ((1, FIXED), (1, 0), (2, 1), (6, 2)),
    ((2, FIXED), (5, 0), (0, 1), (1, 2)),
    ((0, 0), (2, 0), (6, 0), (5, 1)),
    ((3, 0), (0, 2), (4, 2), (5, 2)),
    ((3, 1), (4, 1), (6, 1), (2, 2)),
)
_BASE_28: Final = (
    ((0, FIXED), (7, 0), (2, 1), (2, 2)),
    ((0, 0), (5, 0), (6, 1), (1, 2)),
    ((1, 0), (2, 0), (4, 0), (4, 2)),
    ((3, 0), (1, 1), (3, 1), (0, 2)),
    ((6, 0), (0, 1), (5, 1), (8, 1)),
    ((8, 0), (4, 1), (6, 2), (7, 2)),
    ((7, 1), (3, 2), (5, 2), (8, 2)),
)


# ---- the designs a seating can start from -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Known:
    """A design and its name: its players, and its positions (no two players meet twice)."""

    name: str
    players: int
    design: Design


def _known() -> dict[int, Known]:
    found = [
        Known("AG(2,4)", 16, affine(2)),
        Known("resolvable 4-GDD of type 3^8, developed mod 7", 24, developed(7, _BASE_24)),
        Known("resolvable 2-(28,4,1) design, developed mod 9", 28, developed(9, _BASE_28)),
        Known("AG(3,4)", 64, affine(3)),
    ]
    return {k.players: k for k in found}


KNOWN: Final = _known()
"""The designs by their number of players."""


def meeting_positions(design: Design, players: int) -> dict[tuple[int, int], list[int]]:
    """Where each two players of ``design`` meet: the positions, by pair ``(a, b)``, ``a < b``."""
    met: dict[tuple[int, int], list[int]] = {}
    for p, position in enumerate(design):
        for table in position:
            for a, b in combinations(sorted(table), 2):
                met.setdefault((a, b), []).append(p)
    return met


@dataclass(frozen=True, slots=True)
class Start:
    """A seating of ``players`` players from a design: its positions without a repeat (tables of
    4, and one table of 3 for each player the design has more), players ``0 … players − 1``."""

    positions: tuple[tuple[Table, ...], ...]
    name: str


def design_start(players: int, threes: int) -> Start | None:
    """The longest seating without a repeat that a known design gives ``players`` players at
    tables of 4 and ``threes`` tables of 3 (0 to 3): the design of ``players + threes`` less
    ``threes`` players who meet in as few of its positions as can be, those positions left out
    (a table of 3 is a table of 4 less one of them; two of them at one table would leave a table
    of 2). None when no design has ``players + threes`` players."""
    known = KNOWN.get(players + threes)
    if known is None:
        return None
    design = known.design
    removed, clashes = _fewest_clashes(design, known.players, threes)
    keep = [p for p in range(len(design)) if p not in clashes]
    # The players left are renumbered 0 … players − 1, in order.
    name: dict[int, int] = {}
    for x in range(known.players):
        if x not in removed:
            name[x] = len(name)
    positions = tuple(tuple(tuple(name[x] for x in table if x in name) for table in design[p]) for p in keep)
    return Start(positions, known.name)


def _fewest_clashes(design: Design, v: int, count: int) -> tuple[frozenset[int], frozenset[int]]:
    """``count`` players of ``design`` and the positions where two of them meet, the fewest such
    positions: players who never meet where the design has them (a group of a GDD, a pair a
    design leaves apart), else players of one table of the first position, who meet only there.
    The first such players in order, so that the same request gets the same seating."""
    if count == 0:
        return frozenset(), frozenset()
    met = meeting_positions(design, v)
    apart = [[b for b in range(v) if b != a and (min(a, b), max(a, b)) not in met] for a in range(v)]
    for a in range(v):
        for others in combinations(apart[a], count - 1):
            if all(y in apart[x] for x, y in combinations(others, 2)):
                return frozenset((a, *others)), frozenset()
    return frozenset(design[0][0][:count]), frozenset((0,))
