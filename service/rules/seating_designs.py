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
  never meet), 28 over 9 (``m = 9``, every pair meets once) and 40 over 13 (``m = 13``, every
  pair once, the lines of PG(3, 3) in 13 spreads);
- **32 players over 10 positions**, for which we know no construction: kept as it was printed
  (the social golfer problem's famous instance), each player missing exactly one other.

The base positions were found once by an exact-cover search over their differences, and each
design is held by the tests to be what it claims (tests/test_rules_16_designs.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final

from .frozen import copied_by_constructor

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
_BASE_40: Final = (
    ((0, FIXED), (0, 0), (0, 1), (8, 2)),
    ((1, 0), (5, 0), (4, 2), (5, 2)),
    ((2, 0), (3, 0), (9, 2), (12, 2)),
    ((4, 0), (11, 0), (5, 1), (10, 1)),
    ((6, 0), (9, 0), (7, 2), (11, 2)),
    ((7, 0), (12, 0), (2, 1), (4, 1)),
    ((8, 0), (10, 0), (6, 1), (12, 1)),
    ((1, 1), (11, 1), (0, 2), (2, 2)),
    ((3, 1), (7, 1), (3, 2), (10, 2)),
    ((8, 1), (9, 1), (1, 2), (6, 2)),
)

# 32 players over 10 positions: no construction is known to us, so the design is kept as written
# (CSPLib problem 10's instance, first found by Aguado, 2004): each player misses exactly one
# other. Its players are numbered in the order of the letters it was printed with.
_PLAYED_32: Final = tuple(
    tuple(tuple(int(x) for x in table.split(".")) for table in position.split())
    for position in (
        "0.1.2.3 4.5.6.7 8.9.10.11 12.13.14.15 16.17.18.19 20.21.22.23 24.25.26.27 28.29.30.31",
        "0.4.8.28 1.7.18.22 3.5.10.31 15.19.21.26 12.16.20.24 2.6.17.23 11.13.25.30 9.14.27.29",
        "0.21.27.30 1.23.26.28 3.6.13.24 5.11.14.16 7.10.12.17 2.9.15.20 4.18.25.31 8.19.22.29",
        "0.11.18.24 1.10.19.25 3.9.17.26 5.15.22.30 6.14.21.31 2.8.16.27 4.12.23.29 7.13.20.28",
        "0.10.13.22 1.4.15.27 3.7.8.30 14.19.23.24 11.17.20.31 2.21.25.28 5.9.12.18 6.16.26.29",
        "0.9.23.31 1.5.24.29 3.14.18.28 8.13.17.21 6.10.20.27 2.12.19.30 4.11.22.26 7.15.16.25",
        "0.5.19.20 1.6.9.30 3.4.16.21 13.18.23.27 10.15.24.28 2.7.11.29 14.17.22.25 8.12.26.31",
        "0.15.17.29 1.13.16.31 3.12.22.27 18.20.26.30 7.9.21.24 2.4.10.14 5.8.23.25 6.11.19.28",
        "0.6.12.25 1.8.14.20 3.11.15.23 9.16.22.28 10.18.21.29 2.5.13.26 4.17.24.30 7.19.27.31",
        "0.7.14.26 1.11.12.21 3.20.25.29 5.17.27.28 6.8.15.18 2.22.24.31 4.9.13.19 10.16.23.30",
    )
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
        Known("social golfer 8-4-10 (Aguado)", 32, _PLAYED_32),
        Known("resolvable 2-(40,4,1) design, developed mod 13", 40, developed(13, _BASE_40)),
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


copied_by_constructor(Known, Start)
