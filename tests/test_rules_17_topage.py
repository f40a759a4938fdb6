"""The fiche ambulante's figure, the topage, the percentages, the control table's faults and the
referee's adjustments of a duplicate session (rules.md §17.3–17.5, §17.9; rulebook pp. 15–19)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from service.rules.duplicate_control import control
from service.rules.duplicate_scores import garde_score, garde_scores, is_garde_score
from service.rules.duplicate_sittings import Etui, Sitting
from service.rules.duplicate_standings import DuplicateRequest, Session, duplicate_standings
from service.rules.duplicate_topage import (
    AdjustedMark,
    EtuiAnnulled,
    Form,
    Penalty,
    Play,
    Role,
    figures_of,
    shown,
    taker_grades,
)
from service.rules.scoring import Contract, PoigneeSize, Side, Summary
from service.rules.verdicts import DuplicateFault


def table_players(table: int) -> tuple[str, ...]:
    return tuple(f"{o}{table}" for o in "NWSE")


# p. 18: DONNE N° 1 PRENEUR NORD, a tournament of 5 tables: (position, table, score) -> (taker %, defenders %).
P18 = [((1, 1, 56), (75, 25)), ((2, 5, 62), (100, 0)), ((3, 4, -56), (0, 100)), ((4, 3, -52), (25, 75)),
       ((5, 2, 50), (50, 50))]  # fmt: skip


def p18_session(**kwargs: object) -> Session:
    plays = tuple(Play(pos, table, 1, table_players(table), score) for (pos, table, score), _ in P18)
    return Session((Etui(1, "north", "east"),), plays, **kwargs)  # type: ignore[arg-type]


def test_17_4_golden_p18() -> None:
    result = duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, (p18_session(),)))
    (topage,) = result.sessions[0].topage
    assert topage.played == 5 and topage.taker == "north"
    got = {(line.position, line.table, line.score): (line.taker_grade, line.defender_grade) for line in topage.lines}
    assert got == {key: (Fraction(t), Fraction(d)) for key, (t, d) in P18}
    assert [line.position for line in topage.lines] == [1, 2, 3, 4, 5]
    assert result.faults == ()


@pytest.mark.parametrize(
    ("scores", "grades"),
    [
        ([56, 62, -56, -52, 50], ["75", "100", "0", "25", "50"]),
        ([62, 62, 50, 40, 30], ["87.5", "87.5", "50", "25", "0"]),  # two tied at the top share 100 and 75
        ([10, 10], ["50", "50"]),
        ([10, 20], ["0", "100"]),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [str(10 * i) for i in range(11)]),  # p. 17, played 11 times
        ([0, 2, 4, 6], ["0", "100/3", "200/3", "100"]),  # 33.3 % and 66.7 % as p. 18 writes them
        ([4, 4, 4], ["50", "50", "50"]),
    ],
)
def test_17_4_taker_grades(scores: list[int], grades: list[str]) -> None:
    assert taker_grades(scores) == tuple(Fraction(g) for g in grades)


def test_17_4_played_once_has_no_topage() -> None:
    with pytest.raises(ValueError):
        taker_grades([50])


def test_17_4_shown_to_one_decimal() -> None:
    assert shown(Fraction(100, 3)) == Decimal("33.3")
    assert shown(Fraction(200, 3)) == Decimal("66.7")
    assert shown(Fraction(1, 20)) == Decimal("0.1")  # half up
    assert shown(Fraction(425, 8)) == Decimal("53.1")


def test_17_3_a_summary_is_scored_as_the_imposed_garde() -> None:
    # p. 9: a garde with a poignée, the petit au bout, 49 points with 2 oudlers: 66 + 20 + 20 = 106.
    deal = Summary(4, Contract.PRISE, 2, None, 98, 2, Side.ATTACK, ((Side.ATTACK, PoigneeSize.SIMPLE),))
    assert garde_score(deal) == 106
    assert garde_score(deal._replace(players=5, partner=3, contract=Contract.GARDE_CONTRE)) == 106
    assert Play(1, 1, 1, table_players(1), summary=deal).figure() == 106


def model_garde_scores() -> set[int]:
    """Written apart from the code: the single defender's figure of a garde at four, by the
    rulebook's formula, over the card points each count of oudlers allows, the petit au bout
    (which needs the Petit on its side), 0 to 2 poignées (22 trumps: no more than two simples)
    and the chelems (the side that took no trick keeps only its discard and an Excuse played early)."""
    out: set[int] = set()
    target = {0: 56, 1: 51, 2: 41, 3: 36}

    def add(oudlers: int, halves: range | list[int], chelems: list[int], petits: list[int]) -> None:
        for half in halves:
            won = half >= 2 * target[oudlers]
            margin = (abs(half - 2 * target[oudlers]) + 1) // 2
            base = (25 + margin) * 2 if won else -(25 + margin) * 2
            for petit in petits:
                for poignee in (0, 20, 30, 40):
                    for chelem in chelems:
                        out.add(base + petit + (poignee if won else -poignee) + chelem)

    for k in range(4):
        low, high = max(0, 9 * k - 1), 182 - max(0, 9 * (3 - k) - 1)
        add(k, range(low, high + 1), [0, -200], [0] + [20] * (k >= 1) + [-20] * (k <= 2))
    add(3, [182], [200, 400], [0, 20])
    add(2, [174], [200, 400], [0, 20])  # the defence played its Excuse early
    add(0, range(6, 39), [-200, -400], [0, -20])  # the discard: 6 cards of 0.5 to 3.5
    add(1, range(14, 47), [-200, -400], [0, -20])  # and the taker's Excuse played early
    return out


def test_17_3_garde_scores_against_brute_force() -> None:
    model = model_garde_scores()
    assert model == garde_scores()
    assert all(x % 2 == 0 for x in garde_scores())
    for figure in (50, -50, 56, 62, -52, 106, 160, -162, 620, -616):
        assert is_garde_score(figure)
    for figure in (22, 24, 28, 51, 57, -224, -230, 222, -500, 1000):
        assert not is_garde_score(figure)


def test_17_5_percentages_individual() -> None:
    # N1 attacks étuis 1 and 2; defends 3 (taker west) and 4 (taker south) against tables 2 and 3.
    etuis = (Etui(1, "north", "east"), Etui(2, "north", "east"), Etui(3, "west", "north"), Etui(4, "south", "west"))
    plays = []
    for number, scores in ((1, (60, 50, 40)), (2, (40, 50, 60)), (3, (60, 50, 50)), (4, (60, 60, 60))):
        plays += [Play(t, t, number, table_players(t), s) for t, s in zip((1, 2, 3), scores, strict=True)]
    result = duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, (Session(etuis, tuple(plays)),)))
    pct = {p.entrant: p for p in result.sessions[0].percentages}
    n1 = pct["N1"]
    assert (n1.attack, n1.defence, n1.attacks, n1.defences) == (Fraction(50), Fraction(25), 2, 2)
    assert n1.overall == Fraction(1, 4) * 50 + Fraction(3, 4) * 25
    assert not n1.one_sided
    e1 = pct["E1"]  # defends all four: 0, 100, 0, 50
    assert e1.attack is None and e1.defence == Fraction(150, 4) and e1.overall == e1.defence and e1.one_sided
    assert [r.entrant for r in result.general][:1] == ["W1"]  # took 100 on étui 3


def test_17_5_triplettes() -> None:
    etuis = (Etui(1, "north", "east"), Etui(2, "east", "north"))
    plays = (
        Play(1, 1, 1, ("A", "B", "A", "B"), 60),
        Play(2, 2, 1, ("C", "D", "C", "D"), 40),
        Play(1, 1, 2, ("A", "B", "A", "B"), 40),
        Play(2, 2, 2, ("C", "D", "C", "D"), -40),
    )
    result = duplicate_standings(DuplicateRequest(Form.TRIPLETTES, (Session(etuis, plays),)))
    pct = {p.entrant: p for p in result.sessions[0].percentages}
    assert (pct["A"].attack, pct["A"].defence, pct["A"].overall) == (100, 0, 50)
    assert (pct["B"].attack, pct["B"].defence, pct["B"].line) == (100, 0, "east_west")
    assert (pct["C"].overall, pct["D"].overall) == (50, 50)
    assert result.alterne is not None
    assert [(r.place, r.line) for r in result.alterne] == [
        (1, "north_south"),
        (1, "east_west"),
        (3, "north_south"),
        (3, "east_west"),
    ]
    with pytest.raises(ValueError):
        duplicate_standings(
            DuplicateRequest(Form.TRIPLETTES, (Session(etuis, (Play(1, 1, 1, ("A", "B", "C", "B"), 60),)),))
        )


def test_17_9_annulled_mark_and_penalty_applied_and_echoed() -> None:
    adjustments = (EtuiAnnulled(2, "fouled"), AdjustedMark("N1", 1, Fraction(60), "slip"), Penalty("W2", Fraction(5)))
    etuis = (Etui(1, "north", "east"), Etui(2, "north", "east"))
    plays = tuple(Play(t, t, e, table_players(t), s) for e in (1, 2) for t, s in ((1, 50), (2, 60)))
    result = duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, (Session(etuis, plays, adjustments=adjustments),)))
    topages = {t.etui: t for t in result.sessions[0].topage}
    assert topages[2].annulled and all(line.taker_grade is None for line in topages[2].lines)
    assert topages[1].lines[0].taker_grade == 0  # the topage itself is untouched
    pct = {p.entrant: p for p in result.sessions[0].percentages}
    assert pct["N1"].attack == 60 and pct["N1"].attacks == 1
    assert pct["N2"].attack == 100
    assert pct["W2"].overall == 0 - 5 and pct["W2"].penalties == 5
    feuilles = {f.entrant: f for f in result.feuilles}
    n1 = feuilles["N1"]
    assert [(line.etui, line.role, line.grade) for line in n1.lines] == [(1, Role.ATTACK, 60), (2, Role.ATTACK, None)]
    assert n1.lines[0].adjusted == adjustments[1] and n1.lines[1].annulled == adjustments[0]
    assert n1.adjustments == adjustments[:2]
    assert feuilles["W2"].penalties == (adjustments[2],)
    assert feuilles["W2"].total == -5


@pytest.mark.parametrize(
    "adjustment",
    [
        EtuiAnnulled(9),
        AdjustedMark("N9", 1, Fraction(50)),
        AdjustedMark("N1", 1, Fraction(101)),
        Penalty("X", Fraction(1)),
    ],
)
def test_17_9_adjustments_refused(adjustment: EtuiAnnulled | AdjustedMark | Penalty) -> None:
    with pytest.raises(ValueError):
        duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, (p18_session(adjustments=(adjustment,)),)))


def test_17_9_faults_located_never_corrected() -> None:
    plays = (
        Play(1, 1, 1, table_players(1), 56),
        Play(1, 2, 1, table_players(2), 57),  # odd; and étui 1 a second time in position 1
        Play(2, 3, 1, ("N1", "W3", "S3", "E3"), 50),  # N1 meets étui 1 again
        Play(2, 1, 2, ("W1", "N1", "S1", "E1"), 50),  # étui 2 played once; W1 and N1 off their orientation
    )
    faults = control(Form.INDIVIDUAL, 0, plays, figures_of(plays))
    assert [(f.code, f.play, f.players) for f in faults] == [
        (DuplicateFault.IMPOSSIBLE_SCORE, 1, table_players(2)),
        (DuplicateFault.ETUI_TWICE_IN_POSITION, 1, table_players(2)),
        (DuplicateFault.ETUI_TWICE_FOR_PLAYER, 2, ("N1",)),
        (DuplicateFault.ETUI_PLAYED_ONCE, 3, ("W1", "N1", "S1", "E1")),
        (DuplicateFault.ORIENTATION_CHANGED, 3, ("W1", "N1")),
    ]
    result = duplicate_standings(
        DuplicateRequest(Form.INDIVIDUAL, (Session((Etui(1, "north", "east"), Etui(2, "south", "east")), plays),))
    )
    assert result.faults == faults
    assert [line.score for line in result.sessions[0].topage[0].lines] == [56, 57, 50]  # counted as written


def test_17_9_faults_against_the_movement() -> None:
    sittings = (
        Sitting(1, 1, table_players(1), (1, 2)),
        Sitting(1, 2, table_players(2), (3, 4)),
        Sitting(2, 1, table_players(1), (3, 4)),
    )
    plays = (
        Play(1, 1, 1, table_players(1), 50),
        Play(1, 1, 3, table_players(1), 50),  # étui 3 is table 2's
        Play(1, 2, 3, ("N2", "W2", "S2", "E9"), 50),  # E9 is not the movement's
        Play(3, 1, 4, table_players(1), 50),  # no position 3
    )
    faults = control(Form.INDIVIDUAL, 2, plays, figures_of(plays), sittings)
    codes = [
        (f.code, f.play, f.position, f.table, f.etui) for f in faults if f.code is not DuplicateFault.ETUI_PLAYED_ONCE
    ]
    assert codes == [
        (DuplicateFault.ETUI_NOT_AS_MOVEMENT, 1, 1, 1, 3),
        (DuplicateFault.ETUI_TWICE_IN_POSITION, 2, 1, 2, 3),
        (DuplicateFault.PLAYERS_NOT_AS_MOVEMENT, 2, 1, 2, 3),
        (DuplicateFault.NOT_IN_MOVEMENT, 3, 3, 1, 4),
        (DuplicateFault.PLAY_MISSING, None, 1, 1, 2),
        (DuplicateFault.PLAY_MISSING, None, 1, 2, 4),
        (DuplicateFault.PLAY_MISSING, None, 2, 1, 3),
        (DuplicateFault.PLAY_MISSING, None, 2, 1, 4),
    ]
    assert all(f.session == 2 for f in faults)
    assert faults[-1].players == table_players(1)


@pytest.mark.parametrize(
    "session",
    [
        Session((Etui(1, "north", "east"),), (Play(1, 1, 2, table_players(1), 50),)),  # étui not listed
        Session((Etui(1, "north", "east"),), (Play(1, 1, 1, table_players(1)),)),  # no score
        Session((Etui(1, "north", "east"), Etui(1, "north", "east")), ()),  # listed twice
        Session((Etui(1, "up", "east"),), ()),
        Session((Etui(1, "north", "east"),), (Play(1, 1, 1, ("A", "A", "B", "C"), 50),)),
        Session((Etui(1, "north", "east"),), (), coefficient=Fraction(0)),
    ],
)
def test_17_9_refused(session: Session) -> None:
    with pytest.raises(ValueError):
        duplicate_standings(DuplicateRequest(Form.INDIVIDUAL, (session,)))
