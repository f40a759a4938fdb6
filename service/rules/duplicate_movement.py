"""The movement of a duplicate tournament, individual form (rules.md §17.1).

Players are oriented north, west, south, east; they change table but never orientation, and
deals and players never meet twice (rulebook p. 13). With ``T`` tables, the ``4T`` players are
four *lines* of ``T`` (one per orientation) and the étuis ``T`` *sets* (one per table). At the
position ``p`` (from 0):

- player ``i`` of line ``L`` sits at table ``(i + o_L(p)) mod T``;
- étui set ``j`` is at table ``(j − p) mod T``: the étuis go to the next lower table, as in the
  p. 18 example (deal 1 played at tables 1, 5, 4, 3, 2).

Each position then seats every player once and puts one set at each table, whatever the offsets.
Write ``π_L(p) = o_L(p) + p`` (the line's offset seen from the étuis). Player ``i`` of line ``L``
plays set ``j`` where ``j − i ≡ −π_L(p)``: he plays no étui twice exactly when ``π_L`` takes ``P``
distinct values, and the movement keeps to that always. Players ``i`` of ``L`` and ``k`` of ``M``
meet where ``k − i ≡ π_L(p) − π_M(p)``: they meet twice exactly when the difference takes one
value at two positions, and then the ``T`` pairs of that value all do.

**Perfect movements.** With ``π_L(p) = u_L·p``, speeds ``u = 1, 2, 3, 4`` (the offsets ``o``
move north 0, west 1, south 2, east 3 tables a position), the conditions are that ``u_L`` and
``u_L − u_M`` (1, 2, 3) be units modulo ``T``: exactly when ``T`` is prime to 6. Then no two
players meet twice and nobody plays an étui twice, over all ``T`` positions.

**Otherwise** no linear movement is perfect for long (speeds prime to an even ``T`` are odd, so
their differences even: repeats after ``T/2`` positions), and none at all is for ``P = T`` with
``T`` even (``π_L − π_M`` summed over all positions is 0, a permutation of ``Z_T`` sums to
``T/2``). The movement is the better of the best linear one (speeds searched, repeats counted in
closed form) and the first ``P`` positions of a movement found once by a search and written in
:mod:`.duplicate_movement_tables`; the order is: no étui played twice, then the fewest meetings
repeated (a meeting of two players after their first), then the fewest pairs of players meeting
more than once, then the linear one. *Why* meetings first: counted in pairs, two lines moving
together (``T`` pairs meeting at every position) would beat many pairs meeting twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd
from typing import Final

from .duplicate_etuis import labels
from .duplicate_movement_check import EtuiRepeat, PlayerRepeat, etui_repeats, player_repeats
from .duplicate_movement_tables import OFFSETS
from .duplicate_sittings import Etui, Sitting
from .frozen import copied_by_constructor

MIN_TABLES: Final = 3
MAX_TABLES: Final = 40
MAX_ETUIS: Final = 30
"""The most étuis a table plays at one position."""
LINE_LETTERS: Final = ("N", "W", "S", "E")
"""The letter of each line's default ids (``N1`` … ``NT``), in :data:`DUPLICATE_ORIENTATIONS` order."""
_LINE_PAIRS: Final = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


@dataclass(frozen=True, slots=True)
class MovementRequest:
    """A movement to make: its tables, its positions (0: as many as tables), the étuis a table
    plays at each position, and the players by orientation (empty: the default ids)."""

    tables: int
    positions: int = 0
    etuis: int = 1
    players: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Movement:
    """A movement: who sits where, which étuis each table plays, and what it guarantees."""

    tables: int
    positions: int
    etuis_per_position: int
    players: tuple[tuple[str, ...], ...]
    """By orientation (:data:`DUPLICATE_ORIENTATIONS` order), player ``i`` of each line first."""
    offsets: tuple[tuple[int, ...], ...]
    """The table offset ``o_L(p)`` of each line at each position, then the étuis' (``−p``)."""
    sittings: tuple[Sitting, ...]
    """Position by position, table by table."""
    etuis: tuple[Etui, ...]
    """Every étui's label, by number."""
    repeats: tuple[PlayerRepeat, ...]
    etui_repeats: tuple[EtuiRepeat, ...]
    perfect: bool
    """No two players meet twice and nobody plays an étui twice."""


copied_by_constructor(MovementRequest, Movement)


def movement_faults(request: MovementRequest) -> tuple[str, ...]:
    """What is wrong with a request, in words for the developer; () when it can be made."""
    t, p = request.tables, request.positions or request.tables
    wrong = []
    if not MIN_TABLES <= t <= MAX_TABLES:
        wrong.append(f"tables: {MIN_TABLES} to {MAX_TABLES}")
    if not 1 <= p <= t:
        wrong.append("positions: 1 to the tables (an étui set meets each table once at most)")
    if not 1 <= request.etuis <= MAX_ETUIS:
        wrong.append(f"etuis: 1 to {MAX_ETUIS}")
    if request.players:
        ids = [player for line in request.players for player in line]
        if len(request.players) != 4 or any(len(line) != t for line in request.players):
            wrong.append("players: four lines of one player per table")
        elif len(set(ids)) != len(ids) or not all(ids):
            wrong.append("players: each id once, none empty")
    return tuple(wrong)


def default_players(tables: int) -> tuple[tuple[str, ...], ...]:
    """The default ids: the line's letter and the player's number in it, ``N1`` … ``E{T}``."""
    return tuple(tuple(f"{letter}{i + 1}" for i in range(tables)) for letter in LINE_LETTERS)


def make_movement(request: MovementRequest) -> Movement:
    """The movement ``request`` asks for (:class:`ValueError` if :func:`movement_faults` finds a
    fault): the same request always gets the same movement."""
    wrong = movement_faults(request)
    if wrong:
        raise ValueError("; ".join(wrong))
    t, p, e = request.tables, request.positions or request.tables, request.etuis
    players = request.players or default_players(t)
    pi = line_offsets(t, p)
    lines = tuple(tuple((row[q] - q) % t for q in range(p)) for row in pi)
    offsets = (*lines, tuple(-q % t for q in range(p)))
    sittings = tuple(_sitting(players, offsets, q, table, e) for q in range(p) for table in range(t))
    # A table plays a whole set: a player replays an étui only if he meets a set again, which the
    # offsets never let happen; the étui by étui count is made only then (it is 30 times the work).
    replays = etui_repeats(sittings) if _meets_a_set_again(sittings) else ()
    repeats = player_repeats(sittings)
    perfect = not repeats and not replays
    return Movement(t, p, e, players, offsets, sittings, labels(t * e), repeats, replays, perfect)


def _meets_a_set_again(sittings: Sequence[Sitting]) -> bool:
    """Whether a player sits at two tables playing the same set of étuis (named by its first)."""
    seen: set[tuple[str, int]] = set()
    for sitting in sittings:
        for player in sitting.players:
            key = (player, sitting.etuis[0])
            if key in seen:
                return True
            seen.add(key)
    return False


def _sitting(players: Sequence[Sequence[str]], offsets: Sequence[Sequence[int]], q: int, table: int, e: int) -> Sitting:
    t = len(players[0])
    seated = tuple(players[line][(table - offsets[line][q]) % t] for line in range(4))
    etui_set = (table - offsets[4][q]) % t
    return Sitting(q + 1, table + 1, seated, tuple(range(etui_set * e + 1, etui_set * e + e + 1)))


def line_offsets(tables: int, positions: int) -> tuple[tuple[int, ...], ...]:
    """The four lines' ``π_L`` (see the module): injective, so nobody plays an étui twice, and
    with the fewest repeats of the two movements weighed."""
    speeds = linear_speeds(tables, positions)
    linear = tuple(tuple(u * q % tables for q in range(positions)) for u in speeds)
    written = OFFSETS.get(tables)
    if written is None:
        return linear
    found = tuple(row[:positions] for row in written)
    return found if repeat_counts(found, tables) < repeat_counts(linear, tables) else linear


def repeat_counts(pi: Sequence[Sequence[int]], tables: int) -> tuple[int, int]:
    """The meetings repeated (each meeting of two players after their first) and the pairs of
    players meeting more than once, counted per two lines: a value the difference takes ``c``
    times is ``T`` pairs meeting ``c`` times."""
    pairs = meetings = 0
    for a, b in _LINE_PAIRS:
        count: dict[int, int] = {}
        for x, y in zip(pi[a], pi[b], strict=True):
            v = (x - y) % tables
            count[v] = count.get(v, 0) + 1
        pairs += sum(1 for c in count.values() if c > 1)
        meetings += sum(c - 1 for c in count.values())
    return meetings * tables, pairs * tables


def linear_speeds(tables: int, positions: int) -> tuple[int, int, int, int]:
    """The speeds ``1 ≤ u_W ≤ u_S ≤ u_E`` (north's is 1) of the best linear movement: each speed
    runs ``positions`` tables without coming back (no étui twice), then the fewest meetings
    repeated, then the fewest pairs meeting more than once, the first found (1, 2, 3, 4 when it
    is perfect). A difference ``d`` of two speeds comes back after ``q = T / gcd(d, T)``
    positions: ``P − min(P, q)`` meetings repeated, ``min(q, P − q)`` values taken twice or more
    (when positive), each for ``T`` pairs of players."""
    t, p = tables, positions
    period = [t // gcd(d, t) for d in range(t)]
    twice = [max(0, min(q, p - q)) * t for q in period]
    again = [(p - min(p, q)) * t for q in period]
    allowed = [u for u in range(1, t) if period[u] >= p]
    best: tuple[tuple[int, int], tuple[int, int, int, int]] | None = None
    for i, w in enumerate(allowed):
        for j in range(i, len(allowed)):
            s = allowed[j]
            for e in allowed[j:]:
                diffs = ((w - 1) % t, (s - 1) % t, (e - 1) % t, (s - w) % t, (e - w) % t, (e - s) % t)
                cost = (sum(again[d] for d in diffs), sum(twice[d] for d in diffs))
                if best is None or cost < best[0]:
                    best = (cost, (1, w, s, e))
                    if cost == (0, 0):
                        return best[1]
    assert best is not None  # 1 is always allowed: allowed is never empty
    return best[1]
