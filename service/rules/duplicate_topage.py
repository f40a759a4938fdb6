"""The topage of a duplicate session and each entrant's percentages (rules.md §17.4–17.5, §17.9;
rulebook pp. 17–19, 21).

Every table that played an étui is graded against the others on that étui: the taker's signed
figure orders them, the best takes 100 %, the worst 0 %, evenly spaced by the number of times the
étui was played, ties sharing (p. 17–18); each defender takes the complement. An entrant's attack
and defence percentages are the means of his grades, his global ¼ attack + ¾ defence (individual)
or ½ + ½ (triplettes, p. 21). Grades and means are exact :class:`~fractions.Fraction` values:
they are rounded only to be shown (:func:`shown`), so ranks never depend on a rounding.

The referee's adjustments (p. 19) are applied here: an annulled étui leaves the topage and the
means; an adjusted mark replaces an entrant's grade on an étui; a penalty comes off his global.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from .duplicate_scores import garde_score
from .duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui
from .frozen import copied_by_constructor
from .scoring import Summary

HUNDRED: Final = Fraction(100)


class Form(StrEnum):
    """Who a line of the topage grades (pp. 17, 20–21)."""

    INDIVIDUAL = "individual"
    """Each of the four players; global = ¼ attack + ¾ defence."""
    TRIPLETTES = "triplettes"
    """A team of three is one entrant, at North and South or at East and West; global = ½ + ½."""


class Role(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


NORTH_SOUTH: Final = "north_south"
EAST_WEST: Final = "east_west"
WEIGHTS: Final = {Form.INDIVIDUAL: (Fraction(1, 4), Fraction(3, 4)), Form.TRIPLETTES: (Fraction(1, 2), Fraction(1, 2))}
"""The attack's and the defence's weights in the global (pp. 18, 21): fixed, whatever the counts."""


@dataclass(frozen=True, slots=True)
class Play:
    """One étui played at one table, as its *fiche ambulante* says (§17.3)."""

    position: int
    table: int
    etui: int
    players: tuple[str, ...]
    """The four entrants' ids in :data:`DUPLICATE_ORIENTATIONS` order; in triplettes the North-South
    triplette's id at North and South, the East-West one's at East and West."""
    score: int | None = None
    """The figure written "tel quel": the single defender's X, signed from the taker's side."""
    summary: Summary | None = None
    """In place of ``score``: the deal, scored as the imposed Garde at four (§17.3)."""

    def figure(self) -> int:
        """The taker's figure: as written, or as the summary scores."""
        if self.score is not None:
            return self.score
        if self.summary is None:
            raise ValueError("A play gives its score or its summary.")
        return garde_score(self.summary)


@dataclass(frozen=True, slots=True)
class EtuiAnnulled:
    """The referee annuls an étui (p. 19): every play of it leaves the topage and the means."""

    etui: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AdjustedMark:
    """The referee gives ``entrant`` a grade (0 to 100) on an étui he played, in place of the topage's."""

    entrant: str
    etui: int
    grade: Fraction
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Penalty:
    """Percentage points the referee takes off an entrant's global (p. 19)."""

    entrant: str
    points: Fraction
    reason: str = ""


Adjustment = EtuiAnnulled | AdjustedMark | Penalty


@dataclass(frozen=True, slots=True)
class Seat:
    """Where an entrant sat in a play: his orientation (his line in triplettes) and his role."""

    entrant: str
    orientation: str
    role: Role


@dataclass(frozen=True, slots=True)
class TopageLine:
    """One table's line of an étui's topage (p. 18)."""

    play: int
    """The play's index in its session's plays."""
    position: int
    table: int
    score: int
    taker_grade: Fraction | None
    """None when the étui cannot be graded: played once, or annulled."""
    defender_grade: Fraction | None


@dataclass(frozen=True, slots=True)
class EtuiTopage:
    etui: int
    taker: str
    """The orientation of the étui's taker."""
    played: int
    """How many times it was played: the scale's steps are 100 / (played − 1)."""
    annulled: bool
    lines: tuple[TopageLine, ...]
    """In the order of positions (then tables), as the referee writes them."""


@dataclass(frozen=True, slots=True)
class Grade:
    """One entrant's grade on one play: the topage's, or the referee's."""

    play: int
    etui: int
    seat: Seat
    grade: Fraction | None
    adjusted: AdjustedMark | None
    annulled: EtuiAnnulled | None


@dataclass(frozen=True, slots=True)
class Percentages:
    """An entrant's percentages for one session (§17.5)."""

    entrant: str
    line: str
    """The orientation of his first play (individual), or north_south / east_west (triplettes)."""
    attack: Fraction | None
    """The mean of his grades as taker; None without one."""
    defence: Fraction | None
    attacks: int
    defences: int
    penalties: Fraction
    overall: Fraction | None
    """The global, less the penalties; with one side only, that side's mean (a reading, §17.5);
    None without a grade."""
    one_sided: bool
    """The global rests on the attack or the defence alone."""


def figures_of(plays: Sequence[Play]) -> tuple[int, ...]:
    """Each play's figure, a summary scored once (the topage, the control and the feuilles read it)."""
    return tuple(play.figure() for play in plays)


def taker_grades(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Each table's grade for the taker among the ``scores`` of one étui (p. 17–18): the share of
    the other tables it beat, a tie counting half, so that tied tables share their places' grades."""
    steps = len(scores) - 1
    if steps < 1:
        raise ValueError("An étui played once has no topage.")
    return tuple(
        HUNDRED
        * Fraction(2 * sum(other < mine for other in scores) + sum(other == mine for other in scores) - 1)
        / (2 * steps)
        for mine in scores
    )


def shown(value: Fraction, places: int = 1) -> Decimal:
    """A percentage as the referee writes it: half-up to one decimal (p. 18: 33,3 %; 66,7 %)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def seats(form: Form, play: Play, taker: str) -> tuple[Seat, ...]:
    """The entrants of a play with their role (the étui fixes the taker's orientation, p. 14)."""
    if len(play.players) != len(DUPLICATE_ORIENTATIONS):
        raise ValueError(f"Étui {play.etui}, table {play.table}: a play has four players.")
    if form is Form.INDIVIDUAL:
        if len(set(play.players)) != len(play.players):
            raise ValueError(f"Étui {play.etui}, table {play.table}: a player sits at two orientations.")
        return tuple(
            Seat(player, orientation, Role.ATTACK if orientation == taker else Role.DEFENCE)
            for player, orientation in zip(play.players, DUPLICATE_ORIENTATIONS, strict=True)
        )
    north, west, south, east = play.players
    if north != south or west != east or north == west:
        raise ValueError(f"Étui {play.etui}, table {play.table}: one triplette at North-South, another at East-West.")
    ns_attacks = taker in ("north", "south")
    return (
        Seat(north, NORTH_SOUTH, Role.ATTACK if ns_attacks else Role.DEFENCE),
        Seat(west, EAST_WEST, Role.DEFENCE if ns_attacks else Role.ATTACK),
    )


def etui_topages(
    etuis: Sequence[Etui], plays: Sequence[Play], figures: Sequence[int], annulled: Sequence[EtuiAnnulled]
) -> tuple[EtuiTopage, ...]:
    """The topage of every étui played (p. 18), in the order of ``etuis``; ``figures`` are the
    plays' (:func:`figures_of`)."""
    gone = {a.etui for a in annulled}
    of_etui: dict[int, list[int]] = {}
    for p, play in enumerate(plays):
        of_etui.setdefault(play.etui, []).append(p)
    out = []
    for etui in etuis:
        played = sorted(of_etui.get(etui.number, []), key=lambda p: _place(plays[p]))
        written = [figures[p] for p in played]
        graded = etui.number not in gone and len(played) > 1
        grades: Sequence[Fraction | None] = taker_grades(written) if graded else [None] * len(played)
        lines = tuple(
            TopageLine(p, plays[p].position, plays[p].table, figure, grade, None if grade is None else HUNDRED - grade)
            for p, figure, grade in zip(played, written, grades, strict=True)
        )
        if lines:
            out.append(EtuiTopage(etui.number, etui.taker, len(lines), etui.number in gone, lines))
    return tuple(out)


def _place(play: Play) -> tuple[int, int]:
    return play.position, play.table


def entrant_grades(
    form: Form,
    etuis: Sequence[Etui],
    plays: Sequence[Play],
    topages: Sequence[EtuiTopage],
    adjustments: Sequence[Adjustment],
) -> tuple[Grade, ...]:
    """Every entrant's grade on every play, in the order of ``plays`` (§17.4, §17.9)."""
    takers = {etui.number: etui.taker for etui in etuis}
    lines = {line.play: line for topage in topages for line in topage.lines}
    annulled = {a.etui: a for a in adjustments if isinstance(a, EtuiAnnulled)}
    marks = {(a.entrant, a.etui): a for a in adjustments if isinstance(a, AdjustedMark)}
    out = []
    for index, play in enumerate(plays):
        line = lines[index]
        gone = annulled.get(play.etui)
        for seat in seats(form, play, takers[play.etui]):
            mark = None if gone else marks.get((seat.entrant, play.etui))
            grade = line.taker_grade if seat.role is Role.ATTACK else line.defender_grade
            out.append(Grade(index, play.etui, seat, mark.grade if mark else grade, mark, gone))
    return tuple(out)


def percentages(form: Form, grades: Sequence[Grade], penalties: Sequence[Penalty]) -> tuple[Percentages, ...]:
    """Each entrant's attack, defence and global percentages (p. 18), in order of first play."""
    by_entrant: dict[str, list[Grade]] = {}
    for grade in grades:
        by_entrant.setdefault(grade.seat.entrant, []).append(grade)
    off: dict[str, Fraction] = {}
    for penalty in penalties:
        off[penalty.entrant] = off.get(penalty.entrant, Fraction(0)) + penalty.points
    return tuple(_percentages(form, entrant, own, off.get(entrant, Fraction(0))) for entrant, own in by_entrant.items())


def _percentages(form: Form, entrant: str, own: Sequence[Grade], penalty: Fraction) -> Percentages:
    attack = [g.grade for g in own if g.seat.role is Role.ATTACK and g.grade is not None]
    defence = [g.grade for g in own if g.seat.role is Role.DEFENCE and g.grade is not None]
    attack_mean = _mean(attack)
    defence_mean = _mean(defence)
    weights = WEIGHTS[form]
    if attack_mean is not None and defence_mean is not None:
        overall: Fraction | None = weights[0] * attack_mean + weights[1] * defence_mean
    else:
        overall = attack_mean if defence_mean is None else defence_mean
    if overall is not None:
        overall -= penalty
    one_sided = (attack_mean is None) != (defence_mean is None)
    line = own[0].seat.orientation
    return Percentages(entrant, line, attack_mean, defence_mean, len(attack), len(defence), penalty, overall, one_sided)


def _mean(grades: Sequence[Fraction]) -> Fraction | None:
    return sum(grades, Fraction(0)) / len(grades) if grades else None


copied_by_constructor(Play, EtuiAnnulled, AdjustedMark, Penalty, Seat, TopageLine, EtuiTopage, Grade, Percentages)
