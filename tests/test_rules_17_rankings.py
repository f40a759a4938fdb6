"""The rankings of a duplicate tournament: général, alterné, sessions and feuilles de route
(rules.md §17.4–17.7; rulebook pp. 17–19, 21), held to a model written apart."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.duplicate_rankings import alterne, general
from service.rules.duplicate_sittings import Etui
from service.rules.duplicate_standings import DuplicateRequest, DuplicateStandings, Session, duplicate_standings
from service.rules.duplicate_topage import Form, Play, Role

ORIENTATIONS = ("north", "west", "south", "east")


def test_17_6_general_ties_share() -> None:
    rows = [("a", "north", (Fraction(50),)), ("b", "west", (Fraction(60),)), ("c", "south", (Fraction(50),)),
            ("d", "east", (None,)), ("e", "north", (Fraction(40),))]  # fmt: skip
    ranking = general(rows, [Fraction(1)])
    assert [(r.entrant, r.rank) for r in ranking] == [("b", 1), ("a", 2), ("c", 2), ("e", 4), ("d", None)]


def test_17_6_alterne_interleaves_lines() -> None:
    entries = [
        ("N1", "north", Fraction(70)), ("N2", "north", Fraction(40)), ("N3", "north", Fraction(30)),
        ("W1", "west", Fraction(60)), ("W2", "west", Fraction(55)),
        ("S1", "south", Fraction(65)), ("S2", "south", Fraction(50)),
        ("E1", "east", Fraction(45)), ("E2", "east", Fraction(45)),
    ]  # fmt: skip
    rows = alterne(entries, ORIENTATIONS)
    got = [(r.place, r.tier, r.entrant, r.line_rank) for r in rows]
    assert got == [
        (1, 1, "N1", 1), (2, 1, "S1", 1), (3, 1, "W1", 1), (4, 1, "E1", 1),
        (5, 2, "W2", 2), (6, 2, "S2", 2), (7, 2, "E2", 1), (8, 2, "N2", 2),  # E2 ties E1: next tier
        (9, 3, "N3", 3),  # the only third: a tier of one
    ]  # fmt: skip


def test_17_6_alterne_ties_within_a_tier_share_a_place() -> None:
    entries = [("A", "north_south", Fraction(50)), ("B", "east_west", Fraction(50)), ("C", "north_south", Fraction(10))]
    rows = alterne(entries, ("north_south", "east_west"))
    assert [(r.place, r.entrant) for r in rows] == [(1, "A"), (1, "B"), (3, "C")]


# A random individual tournament: T tables whose players never move (each keeps his orientation),
# étuis played at a random set of the tables, at successive positions.
@st.composite
def tournaments(draw: st.DrawFn, sessions: int = 1) -> tuple[Session, ...]:
    tables = draw(st.integers(2, 5))
    out = []
    for _ in range(sessions):
        count = draw(st.integers(1, 6))
        etuis = tuple(Etui(n, draw(st.sampled_from(ORIENTATIONS)), "east") for n in range(1, count + 1))
        plays = []
        for etui in etuis:
            at = draw(st.lists(st.integers(1, tables), min_size=1, max_size=tables, unique=True))
            for position, table in enumerate(at, 1):
                score = 2 * draw(st.integers(-5, 5)) + 50  # few values: ties are frequent
                plays.append(Play(position, table, etui.number, tuple(f"{o[0]}{table}" for o in ORIENTATIONS), score))
        out.append(Session(etuis, tuple(plays), Fraction(draw(st.integers(1, 3)))))
    return tuple(out)


def model_grades(scores: list[int]) -> list[Fraction]:
    """Apart from the code: places 0..n−1 from the best, grade 100·(n−1−place)/(n−1), the tied
    sharing the mean of their places' grades."""
    n = len(scores)
    order = sorted(range(n), key=lambda i: -scores[i])
    place_grade = [Fraction(100 * (n - 1 - p), n - 1) for p in range(n)]
    out = [Fraction(0)] * n
    for i in range(n):
        places = [p for p, j in enumerate(order) if scores[j] == scores[i]]
        out[i] = sum((place_grade[p] for p in places), Fraction(0)) / len(places)
    return out


def model_globals(session: Session) -> dict[str, Fraction | None]:
    takers = {e.number: e.taker for e in session.etuis}
    attack: dict[str, list[Fraction]] = {}
    defence: dict[str, list[Fraction]] = {}
    for etui in session.etuis:
        plays = [p for p in session.plays if p.etui == etui.number]
        for p in plays:
            for player in p.players:
                attack.setdefault(player, [])
                defence.setdefault(player, [])
        if len(plays) < 2:
            continue
        for play, grade in zip(plays, model_grades([p.figure() for p in plays]), strict=True):
            for player, orientation in zip(play.players, ORIENTATIONS, strict=True):
                if orientation == takers[etui.number]:
                    attack[player].append(grade)
                else:
                    defence[player].append(100 - grade)
    out: dict[str, Fraction | None] = {}
    for player, a in attack.items():
        d = defence[player]
        if a and d:
            out[player] = sum(a, Fraction(0)) / len(a) / 4 + sum(d, Fraction(0)) / len(d) * 3 / 4
        elif a or d:
            out[player] = sum(a + d, Fraction(0)) / len(a + d)
        else:
            out[player] = None
    return out


def standings(sessions: tuple[Session, ...]) -> DuplicateStandings:
    return duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, sessions))


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_17_4_properties_of_the_topage(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    for topage in result.sessions[0].topage:
        grades = [line.taker_grade for line in topage.lines]
        if topage.played < 2:
            assert grades == [None]
            continue
        assert all(g is not None for g in grades)
        assert sum(g for g in grades if g is not None) / len(grades) == 50  # the takers average 50 %
        assert all(
            line.defender_grade == 100 - line.taker_grade for line in topage.lines if line.taker_grade is not None
        )
        assert grades == model_grades([line.score for line in topage.lines])
    for grade in result.sessions[0].grades:
        line = next(t for t in result.sessions[0].topage for t in t.lines if t.play == grade.play)
        expected = line.taker_grade if grade.seat.role is Role.ATTACK else line.defender_grade
        assert grade.grade == expected


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_17_5_properties_of_the_percentages(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    model = model_globals(sessions[0])
    got = {p.entrant: p.overall for p in result.sessions[0].percentages}
    assert got == model
    assert all(0 <= g <= 100 for g in got.values() if g is not None)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_17_6_properties_of_the_rankings(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    model = model_globals(sessions[0])
    coefficient = sessions[0].coefficient
    ranked = {e: g * coefficient for e, g in model.items() if g is not None}
    for row in result.general:
        if row.entrant in ranked:
            assert row.rank == 1 + sum(other > ranked[row.entrant] for other in ranked.values())
        else:
            assert row.rank is None and row.total is None
    ranks = [row.rank for row in result.general if row.rank is not None]
    assert ranks == sorted(ranks)
    assert result.alterne is not None
    assert sorted(r.entrant for r in result.alterne) == sorted(ranked)  # a permutation of the général
    assert [r.place for r in result.alterne] == sorted(r.place for r in result.alterne)
    for a in result.alterne:
        for b in result.alterne:
            if a.tier == b.tier:
                assert (a.place == b.place) == (a.overall == b.overall)
            if a.line == b.line and a.tier < b.tier:
                assert a.overall >= b.overall
    for line in {r.line for r in result.alterne}:
        members = [r for r in result.alterne if r.line == line]
        assert [r.tier for r in members] == list(range(1, len(members) + 1))
        assert all(r.line_rank == 1 + sum(o.overall > r.overall for o in members) for r in members)
    assert [f.entrant for f in result.feuilles] == [r.entrant for r in result.general]


@settings(max_examples=100, deadline=None)
@given(tournaments(sessions=3))
def test_17_7_sessions_add_with_their_coefficients(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    models = [model_globals(s) for s in sessions]
    assert result.alterne is None
    for row in result.general:
        parts = [(m.get(row.entrant), s.coefficient) for m, s in zip(models, sessions, strict=True)]
        played = [g * c for g, c in parts if g is not None]
        assert row.total == (sum(played, Fraction(0)) if played else None)
    plain = tuple(Session(s.etuis, s.plays) for s in sessions)
    once = standings(plain)
    for row in once.general:
        played = [g for g in row.sessions if g is not None]
        assert row.total == (sum(played, Fraction(0)) if played else None)


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_17_5_feuille_de_route_lists_every_play(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    for feuille in result.feuilles:
        plays = [p for p in sessions[0].plays if feuille.entrant in p.players]
        assert [(line.etui, line.table, line.score) for line in feuille.lines] == [
            (p.etui, p.table, p.score) for p in plays
        ]
        assert all(line.orientation == ORIENTATIONS[plays[0].players.index(feuille.entrant)] for line in feuille.lines)


@settings(max_examples=80, deadline=None)
@given(tournaments())
def test_17_5_triplettes_properties(sessions: tuple[Session, ...]) -> None:
    # The same tournament with a triplette at each table's North-South and one at its East-West.
    triplettes = tuple(
        Session(s.etuis, tuple(Play(p.position, p.table, p.etui, (f"NS{p.table}", f"EW{p.table}") * 2, p.score)
                               for p in s.plays))
        for s in sessions
    )  # fmt: skip
    result = duplicate_standings(DuplicateRequest(Form.TRIPLETTES, triplettes))
    takers = {e.number: e.taker for e in sessions[0].etuis}
    for pct in result.sessions[0].percentages:
        attacks = sum(
            1
            for p in triplettes[0].plays
            if pct.entrant in p.players and (takers[p.etui] in ("north", "south")) == pct.entrant.startswith("NS")
        )
        assert pct.attacks <= attacks
        if pct.attack is not None and pct.defence is not None:
            assert pct.overall == (pct.attack + pct.defence) / 2
        assert pct.overall is None or 0 <= pct.overall <= 100
    assert result.alterne is not None
    assert sorted(r.entrant for r in result.alterne) == sorted(r.entrant for r in result.general if r.rank)
    assert {r.line for r in result.alterne} <= {"north_south", "east_west"}


@settings(max_examples=20, deadline=None)
@given(tournaments(sessions=2))
def test_17_6_results_copy_and_pickle(sessions: tuple[Session, ...]) -> None:
    result = standings(sessions)
    assert pickle.loads(pickle.dumps(result)) == result
    assert copy.deepcopy(result) == result
