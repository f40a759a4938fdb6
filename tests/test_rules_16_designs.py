"""rules.md §16.5 Seating, "Designs": each design the seating starts from is what it claims, and
the counting bounds that stop the search never exceed a real plan's cost.

A design is a mathematical fact kept by construction (service/rules/seating_designs.py): these
tests are what makes it one here. Each position is a partition of its players into tables of 4;
no two players meet twice; where the design claims every pair meets, every pair meets exactly
once; where it claims groups that never meet, exactly those pairs never meet.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.seating import SeatingRequest, seat_tournament
from service.rules.seating_bounds import least_cost, spread, uneven_at_start
from service.rules.seating_costs import repeat_cost
from service.rules.seating_designs import FIXED, KNOWN, Design, affine, design_start, developed, meeting_positions
from service.rules.seating_tables import composition

EVERY_PAIR_ONCE = {16: 5, 28: 9, 40: 13, 64: 21}
"""The designs in which every two players meet exactly once: (v − 1)/3 positions."""


def _partition(design: Design, players: int, sizes: Counter[int]) -> None:
    for p, position in enumerate(design):
        seated = sorted(x for table in position for x in table)
        assert seated == list(range(players)), f"position {p + 1} seats each player once"
        assert Counter(len(table) for table in position) == sizes, f"position {p + 1}'s tables"


@pytest.mark.parametrize("players", sorted(KNOWN))
def test_16_5_each_design_seats_everyone_once_a_position_and_no_pair_twice(players: int) -> None:
    known = KNOWN[players]
    _partition(known.design, players, Counter({4: players // 4}))
    met = meeting_positions(known.design, players)
    assert all(len(where) == 1 for where in met.values()), "no pair meets twice"
    assert len(known.design) >= 5


@pytest.mark.parametrize(("players", "positions"), sorted(EVERY_PAIR_ONCE.items()))
def test_16_5_a_resolvable_design_meets_every_pair_exactly_once(players: int, positions: int) -> None:
    if players not in KNOWN:
        pytest.skip(f"no design of {players} players is built")
    design = KNOWN[players].design
    assert len(design) == positions == (players - 1) // 3
    assert len(meeting_positions(design, players)) == players * (players - 1) // 2


def test_16_5_the_24_player_design_leaves_apart_exactly_its_groups_of_3() -> None:
    # A resolvable 4-GDD of type 3^8: the groups {(x,0), (x,1), (x,2)} of Z_7 × 3 and the three
    # fixed players never meet; every other pair meets once, over 7 positions (the bound).
    design = KNOWN[24].design
    assert len(design) == 7
    met = meeting_positions(design, 24)
    apart = {(a, b) for a, b in combinations(range(24), 2)} - set(met)
    groups = [(x, 7 + x, 14 + x) for x in range(7)] + [(21, 22, 23)]
    assert apart == {pair for group in groups for pair in combinations(group, 2)}


def test_16_5_the_32_player_design_leaves_each_player_one_other_unmet() -> None:
    design = KNOWN[32].design
    assert len(design) == 10
    met = meeting_positions(design, 32)
    apart = {(a, b) for a, b in combinations(range(32), 2)} - set(met)
    assert len(apart) == 16
    assert sorted(x for pair in apart for x in pair) == list(range(32)), "a perfect matching"


def test_16_5_the_affine_plane_is_the_lines_of_gf4_squared() -> None:
    plane = affine(2)
    assert len(plane) == 5
    # Two lines of one direction never share a point; two of different directions share one.
    lines = [set(t) for position in plane for t in position]
    for a, b in combinations(range(len(lines)), 2):
        shared = len(lines[a] & lines[b])
        assert shared == (0 if a // 4 == b // 4 else 1)


def test_16_5_a_development_is_its_base_position_turned() -> None:
    # Player (x, level) is level·m + x; a fixed player (i, FIXED) is 3m + i, never moved.
    base = (((0, 0), (1, 1), (2, 2), (0, FIXED)), ((1, 0), (2, 0), (0, 1), (2, 1)), ((0, 2), (1, 2)))
    turned = developed(3, base)
    assert len(turned) == 3
    assert turned[0][0] == (0, 4, 8, 9)
    assert turned[1][0] == (1, 5, 6, 9)  # every player on a level one on, mod 3; the fixed one stays
    assert turned[2][1] == (0, 1, 4, 5)


@pytest.mark.parametrize(
    ("players", "positions"),
    [(15, 5), (14, 4), (13, 4), (23, 7), (22, 7), (21, 7), (27, 9), (26, 8), (25, 8), (63, 21), (62, 20), (61, 20)],
)
def test_16_5_a_design_less_players_gives_tables_of_3_and_no_repeat(players: int, positions: int) -> None:
    tables = composition(players)
    assert tables is not None
    start = design_start(players, tables.threes)
    assert start is not None
    assert len(start.positions) == positions
    _partition(start.positions, players, +Counter({4: tables.fours, 3: tables.threes}))
    met = meeting_positions(start.positions, players)
    assert all(len(where) == 1 for where in met.values())


@given(st.lists(st.integers(0, 4), min_size=1, max_size=30), st.integers(0, 60))
def test_16_5_spread_adds_each_meeting_to_a_lowest(counts: list[int], more: int) -> None:
    out = spread(counts, more)
    assert sum(out) == sum(counts) + more
    low = sorted(counts)
    # Each count only grows, and ends within one of the others it was raised with.
    assert all(a >= b for a, b in zip(out, low, strict=True))
    raised = [o for o, c in zip(out, low, strict=True) if o > c]
    if raised:
        assert max(raised) - min(out) <= 1


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 24), st.integers(1, 6), st.randoms(use_true_random=False))
def test_16_5_no_plan_costs_less_than_the_bound(n: int, positions: int, rnd: random.Random) -> None:
    tables = composition(n)
    assert tables is not None
    sizes = tables.sizes()
    met = [0] * (n * n)
    for _ in range(positions):
        order = list(range(n))
        rnd.shuffle(order)
        at = 0
        for size in sizes:
            table = order[at : at + size]
            at += size
            for a, b in combinations(table, 2):
                met[a * n + b] += 1
                met[b * n + a] += 1
    cost = sum(repeat_cost(met[a * n + b]) for a, b in combinations(range(n), 2))
    least = least_cost(n, positions, sizes, [0] * (n * n), repeat_cost)
    assert least.cost <= cost
    repeats = sum(max(0, met[a * n + b] - 1) for a, b in combinations(range(n), 2))
    assert least.repeats <= repeats


def test_16_5_the_unevenness_a_start_cannot_escape() -> None:
    assert uneven_at_start(5, (4, 4, 3, 3, 3)) == 2  # 17 players: 2 of the 8 wait
    assert uneven_at_start(5, (4, 4, 4, 5)) == 2  # 17 at a table of 5: 3 of 5 seats taken
    assert uneven_at_start(5, (4, 4, 4, 4, 3)) == 0  # 19 players
    assert uneven_at_start(1, (4, 4, 3, 3, 3)) == 0


def _reach(players: int) -> int:
    tables = composition(players)
    start = None if tables is None else design_start(players, tables.threes)
    return 0 if start is None else len(start.positions)


DESIGN_COUNTS = [
    (n, p) for v in sorted(KNOWN) for n in range(max(13, v - 3), v + 1) for p in (5, 6, 7) if _reach(n) >= p
]
"""Every count a design, less up to three players, seats clean over the FFT Code's positions."""


@pytest.mark.parametrize(("players", "positions"), DESIGN_COUNTS, ids=str)
def test_16_5_where_a_design_reaches_no_pair_meets_twice(players: int, positions: int) -> None:
    for seed in ("a", "b"):
        t = SeatingRequest(tuple(f"P{i}" for i in range(1, players + 1)), positions, seat=positions, seed=seed)
        seating = seat_tournament(t)
        assert seating.repeats == ()
        assert len(seating.seated) == positions
