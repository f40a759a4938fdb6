"""rules.md §17.1 The movement and §17.2 The étuis, on the core (service/rules/duplicate_*.py).

Players change tables but never orientation; deals and players never meet twice (rulebook
p. 13). The movements made are held to a model written apart, here: it seats the players and
étuis position by position from nothing but the sittings, and counts the meetings by brute force.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import DECK_SIZE, EXCUSE, PETIT
from service.rules.duplicate_etuis import deal_etui, deal_etuis, etui_seed, label, labels, leader
from service.rules.duplicate_movement import (
    Movement,
    MovementRequest,
    default_players,
    line_offsets,
    linear_speeds,
    make_movement,
    movement_faults,
    repeat_counts,
)
from service.rules.duplicate_movement_check import check_movement
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from service.rules.verdicts import DuplicateMovementFault as F

# ---- the independent model ---------------------------------------------------------------------


Met = dict[frozenset[str], list[int]]
Played = dict[tuple[str, int], list[int]]


def brute_meetings(sittings: tuple[Sitting, ...]) -> tuple[Met, Played]:
    """Every pair of players with the positions where they share a table; every player and étui
    with the positions where he plays it."""
    pairs: Met = {}
    plays: Played = {}
    for s in sittings:
        for a, b in combinations(s.players, 2):
            pairs.setdefault(frozenset((a, b)), []).append(s.position)
        for player in s.players:
            for etui in s.etuis:
                plays.setdefault((player, etui), []).append(s.position)
    return pairs, plays


def repeated(m: Movement) -> tuple[set[tuple[frozenset[str], tuple[int, ...]]], set[tuple[str, int, tuple[int, ...]]]]:
    pairs, plays = brute_meetings(m.sittings)
    players = {(k, tuple(sorted(v))) for k, v in pairs.items() if len(v) > 1}
    etuis = {(p, e, tuple(sorted(v))) for (p, e), v in plays.items() if len(v) > 1}
    return players, etuis


def assert_well_formed(m: Movement) -> None:
    """Each position seats every player once, each at his own orientation, and every étui set at
    one table; the labels cover every étui."""
    every = [p for line in m.players for p in line]
    for position in range(1, m.positions + 1):
        at = [s for s in m.sittings if s.position == position]
        assert sorted(s.table for s in at) == list(range(1, m.tables + 1))
        assert sorted(p for s in at for p in s.players) == sorted(every)
        for s in at:
            for seat, player in enumerate(s.players):
                assert player in m.players[seat]  # his line: his orientation, always
            assert len(s.etuis) == m.etuis_per_position
        etuis = [e for s in at for e in s.etuis]
        assert sorted(etuis) == list(range(1, m.tables * m.etuis_per_position + 1))
    assert [e.number for e in m.etuis] == list(range(1, m.tables * m.etuis_per_position + 1))


# ---- §17.1 the movement ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "positions", "perfect"),
    [
        (5, 5, True),
        (7, 7, True),
        (11, 11, True),
        (13, 13, True),
        (25, 25, True),
        (29, 29, True),
        (35, 35, True),
        (37, 37, True),
        (30, 30, False),  # even: π_L − π_M over all T positions cannot be a permutation
        (4, 4, False),
        (6, 6, False),
        (3, 3, False),
        (9, 9, False),
        (10, 5, True),  # half the positions: speeds odd, differences twice a unit
        (6, 2, True),
        (8, 3, True),
    ],
)
def test_17_1_perfect_movements(tables: int, positions: int, perfect: bool) -> None:
    m = make_movement(MovementRequest(tables, positions))
    assert m.perfect is perfect
    assert m.etui_repeats == ()  # nobody plays an étui twice, perfect or not
    players, etuis = repeated(m)
    assert (not players and not etuis) is perfect


def test_17_1_coprime_with_6_is_perfect_with_the_four_speeds() -> None:
    for t in range(5, 41):
        if gcd(t, 6) == 1:
            assert linear_speeds(t, t) == (1, 2, 3, 4)
            # the proof: each speed and each difference of two speeds is a unit modulo T
            assert all(gcd(d, t) == 1 for d in (1, 2, 3, 4))
            m = make_movement(MovementRequest(t))
            assert m.perfect and m.offsets[:4] == tuple(tuple(s * p % t for p in range(t)) for s in range(4))


def test_17_1_p18_example_the_etuis_go_to_the_next_lower_table() -> None:
    m = make_movement(MovementRequest(5))
    tables = [s.table for s in m.sittings if 1 in s.etuis]
    assert tables == [1, 5, 4, 3, 2]
    north = [s.table for s in m.sittings if "N1" in s.players]
    assert north == [1, 1, 1, 1, 1]  # north's speed is 0
    west = [s.table for s in m.sittings if "W1" in s.players]
    assert west == [1, 2, 3, 4, 5]


def test_17_1_default_ids_and_given_ids() -> None:
    assert default_players(3) == (("N1", "N2", "N3"), ("W1", "W2", "W3"), ("S1", "S2", "S3"), ("E1", "E2", "E3"))
    ids = tuple(tuple(f"{o}-{i}" for i in range(7)) for o in DUPLICATE_ORIENTATIONS)
    m = make_movement(MovementRequest(7, players=ids))
    assert m.sittings[0].players == ("north-0", "west-0", "south-0", "east-0")
    assert m.perfect


@pytest.mark.parametrize(
    ("request_", "wrong"),
    [
        (MovementRequest(2), "tables"),
        (MovementRequest(41), "tables"),
        (MovementRequest(5, positions=6), "positions"),
        (MovementRequest(5, etuis=0), "etuis"),
        (MovementRequest(5, etuis=31), "etuis"),
        (MovementRequest(3, players=(("a", "b", "c"),) * 4), "each id once"),
        (MovementRequest(3, players=(("a", "b"),) * 4), "four lines"),
    ],
)
def test_17_1_requests_refused(request_: MovementRequest, wrong: str) -> None:
    assert any(wrong in w for w in movement_faults(request_))
    with pytest.raises(ValueError, match=wrong):
        make_movement(request_)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 30).flatmap(lambda t: st.tuples(st.just(t), st.integers(1, t), st.integers(1, 4))))
def test_17_1_every_movement_is_well_formed_and_lists_its_repeats(case: tuple[int, int, int]) -> None:
    t, p, e = case
    m = make_movement(MovementRequest(t, p, e))
    assert_well_formed(m)
    check = check_movement(m.sittings, m.players, m.etuis)
    assert check.faults == ()
    players, etuis = repeated(m)
    assert etuis == set()  # no étui twice: always possible with positions at most the tables
    assert {(frozenset(r.players), r.positions) for r in m.repeats} == players
    assert check.repeats == m.repeats
    assert m.perfect is (not players)
    if gcd(t, 6) == 1:
        assert m.perfect


# T: (the most positions with a perfect movement, the pairs meeting twice over T positions), as
# rules.md §17.1 gives them; no pair meets three times from 4 tables up.
MEASURED = {
    3: (1, 6), 4: (1, 28), 6: (5, 36), 8: (4, 56), 9: (6, 36), 10: (7, 60), 12: (8, 72), 14: (9, 112),
    15: (11, 105), 16: (11, 144), 18: (12, 162), 20: (14, 200), 21: (14, 210), 22: (15, 264),
    24: (18, 288), 26: (17, 338), 27: (18, 324), 28: (20, 364), 30: (23, 420),
}  # fmt: skip


@pytest.mark.parametrize("tables", sorted(MEASURED))
def test_17_1_what_is_guaranteed_per_table_count(tables: int) -> None:
    most, pairs = MEASURED[tables]
    assert make_movement(MovementRequest(tables, most)).perfect
    if most < tables:
        assert not make_movement(MovementRequest(tables, most + 1)).perfect
    full = make_movement(MovementRequest(tables))
    assert len(full.repeats) == pairs and full.etui_repeats == ()
    assert all(len(r.positions) == 2 for r in full.repeats) or tables == 3


def test_17_1_below_five_tables_two_positions_repeat() -> None:
    # Between two positions each line moves by a step δ_L ≠ 0 (no étui twice) and the four steps
    # differ (no meeting twice): four distinct nonzero elements of Z_T need T ≥ 5.
    for t in (3, 4):
        assert make_movement(MovementRequest(t, 1)).perfect
        assert not make_movement(MovementRequest(t, 2)).perfect


def test_17_1_meetings_repeated_count_before_pairs() -> None:
    # 8 tables, 8 positions: the four lines moving together make 48 pairs meeting more than once,
    # fewer than the 56 of the movement taken, but those meet at every position.
    together = tuple(tuple(range(8)) for _ in range(4))
    assert repeat_counts(together, 8) == (48 * 7, 48)
    assert repeat_counts(line_offsets(8, 8), 8) == (56, 56)
    m = make_movement(MovementRequest(8))
    assert max(len(r.positions) for r in m.repeats) == 2


def test_17_1_same_request_same_movement() -> None:
    assert make_movement(MovementRequest(30, 30, 2)) == make_movement(MovementRequest(30, 30, 2))


def test_17_1_thirty_tables_is_quick() -> None:
    import time

    start = time.process_time()
    m = make_movement(MovementRequest(30, 30))
    assert time.process_time() - start < 1.0  # well under 100 ms on a quiet machine
    assert m.etui_repeats == ()


# ---- §17.1 the check form ----------------------------------------------------------------------

PLAYERS = default_players(3)


def hand_made() -> list[Sitting]:
    """A movement of 3 tables over 2 positions written by hand: no fault, but at 3 tables the
    three players who leave a table together can only go to the same one."""
    return [
        Sitting(1, 1, ("N1", "W1", "S1", "E1"), (1,)),
        Sitting(1, 2, ("N2", "W2", "S2", "E2"), (2,)),
        Sitting(1, 3, ("N3", "W3", "S3", "E3"), (3,)),
        Sitting(2, 1, ("N1", "W3", "S3", "E3"), (2,)),
        Sitting(2, 2, ("N2", "W1", "S1", "E1"), (3,)),
        Sitting(2, 3, ("N3", "W2", "S2", "E2"), (1,)),
    ]


def codes(sittings: list[Sitting], labels_: tuple[Etui, ...] | None = None, known: bool = True) -> list[F]:
    return [f.code for f in check_movement(sittings, PLAYERS if known else None, labels_).faults]


def test_17_1_check_form_faultless_with_repeats_apart() -> None:
    check = check_movement(hand_made(), PLAYERS, labels(3))
    assert check.faults == () and check.etui_repeats == ()
    expected = [(pair, (1, 2)) for t in "123" for pair in combinations((f"E{t}", f"S{t}", f"W{t}"), 2)]
    assert sorted((r.players, r.positions) for r in check.repeats) == sorted(expected)


def replaced(index: int, sitting: Sitting) -> list[Sitting]:
    s = hand_made()
    s[index] = sitting
    return s


def renumbered() -> list[Sitting]:
    return [Sitting(3 if s.position == 2 else 1, s.table, s.players, s.etuis) for s in hand_made()]


@pytest.mark.parametrize(
    ("sittings", "expected"),
    [
        (renumbered(), [F.POSITION_NUMBERS]),
        (replaced(5, Sitting(2, 2, ("N3", "W2", "S2", "E2"), (1,))), [F.TABLE_TWICE]),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3"), (2,))), [F.MISSING_PLAYER, F.ABSENT_PLAYER]),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3", ""), (2,))), [F.MISSING_PLAYER, F.ABSENT_PLAYER]),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3", "X9"), (2,))), [F.UNKNOWN_PLAYER, F.ABSENT_PLAYER]),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3", "E1"), (2,))), [F.ABSENT_PLAYER, F.PLAYER_TWICE]),
        (replaced(4, Sitting(2, 2, ("N2", "S1", "W1", "E1"), (3,))), [F.ORIENTATION_CHANGED] * 2),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3", "E3"), ())), [F.NO_ETUI]),
        (replaced(3, Sitting(2, 1, ("N1", "W3", "S3", "E3"), (2, 2))), [F.ETUI_TWICE]),
        (replaced(4, Sitting(2, 2, ("N2", "W1", "S1", "E1"), (2,))), [F.ETUI_TWICE, F.ETUI_REPLAYED]),
    ],
)
def test_17_1_check_form_faults(sittings: list[Sitting], expected: list[F]) -> None:
    assert codes(sittings) == expected


def test_17_1_check_form_a_player_plays_an_etui_twice() -> None:
    s = hand_made()
    s[4] = Sitting(2, 2, ("N2", "W1", "S1", "E1"), (1,))  # W1, S1 and E1 played étui 1 at position 1
    s[5] = Sitting(2, 3, ("N3", "W2", "S2", "E2"), (3,))  # N3 played étui 3
    check = check_movement(s, PLAYERS)
    assert {f.code for f in check.faults} == {F.ETUI_REPLAYED}
    assert {(f.players, f.etuis, f.position) for f in check.faults} == {
        (("E1",), (1,), 2),
        (("N3",), (3,), 2),
        (("S1",), (1,), 2),
        (("W1",), (1,), 2),
    }
    assert {(r.player, r.etui, r.positions) for r in check.etui_repeats} == {
        ("E1", 1, (1, 2)),
        ("N3", 3, (1, 2)),
        ("S1", 1, (1, 2)),
        ("W1", 1, (1, 2)),
    }


def test_17_1_check_form_orientation_from_the_first_sitting() -> None:
    s = replaced(4, Sitting(2, 2, ("N2", "S1", "W1", "E1"), (3,)))
    assert codes(s, known=False) == [F.ORIENTATION_CHANGED] * 2


def test_17_2_check_form_labels() -> None:
    assert codes(hand_made(), labels(2)) == [F.UNKNOWN_ETUI, F.UNKNOWN_ETUI]
    bad = (*labels(2), Etui(3, "up", "north"))
    assert codes(hand_made(), bad) == [F.BAD_LABEL]
    twice = (*labels(3), Etui(3, "north", "north"))
    assert codes(hand_made(), twice) == [F.BAD_LABEL]


# ---- §17.2 the étuis ---------------------------------------------------------------------------


def test_17_2_labels_spread_takers_and_dealers() -> None:
    assert label(1) == Etui(1, "north", "north")
    assert [label(n).taker for n in range(1, 6)] == ["north", "west", "south", "east", "north"]
    for start in range(1, 40, 4):
        four = [label(n) for n in range(start, start + 4)]
        assert sorted(e.taker for e in four) == sorted(DUPLICATE_ORIENTATIONS)
        assert sorted(e.dealer for e in four) == sorted(DUPLICATE_ORIENTATIONS)
    sixteen = Counter((label(n).taker, label(n).dealer) for n in range(17, 33))
    assert len(sixteen) == 16


def test_17_2_the_lead_is_the_dealers_right() -> None:
    # counter-clockwise (§2): after north comes west, then south, then east
    assert [leader(Etui(1, "north", d)) for d in DUPLICATE_ORIENTATIONS] == ["west", "south", "east", "north"]


def test_17_2_seed_of_an_etui() -> None:
    assert etui_seed("club", 7) == "club#7"
    assert etui_seed("club", 7, 2) == "club#7/2"


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=12), st.integers(1, 900))
def test_17_2_dealt_etuis_partition_the_deck_reproducibly(seed: str, number: int) -> None:
    dealt = deal_etui(seed, label(number))
    assert dealt == deal_etui(seed, label(number))
    cards = [c for hand in dealt.hands for c in hand] + list(dealt.dog)
    assert sorted(cards) == list(range(DECK_SIZE))
    assert [len(h) for h in dealt.hands] == [18] * 4 and len(dealt.dog) == 6
    for hand in dealt.hands:  # no petit sec: the Petit alone among the trumps, without the Excuse (§3.1)
        trumps = [c for c in hand if PETIT <= c < EXCUSE]
        assert trumps != [PETIT] or EXCUSE in hand
    assert dealt.seed.startswith(f"{seed}#{number}")


def test_17_2_a_tournament_deals_each_etui_from_its_own_seed() -> None:
    m = make_movement(MovementRequest(5, etuis=2))
    dealt = deal_etuis("tournoi du jeudi", m.etuis)
    assert len(dealt) == 10 and len({d.hands for d in dealt}) == 10
    assert dealt[0].hand_of("west") == dealt[0].hands[1]
