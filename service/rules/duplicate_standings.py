"""A duplicate tournament at the control table, whole (rules.md §17.3–17.9): the request, its
sessions' topage and percentages, the rankings, each entrant's feuille de route and the faults.

One function takes the whole tournament so far and answers it; nothing is kept between requests.
A request the core cannot read as a tournament (a play of an étui not listed, a play with no
score, an adjustment about someone who did not play) is refused with :class:`ValueError`; what a
*fiche ambulante* gets wrong is a :class:`~service.rules.duplicate_control.PlayFault`, reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .duplicate_control import PlayFault, control
from .duplicate_rankings import AlterneRow, FeuilleDeRoute, GeneralRow, RouteLine, alterne, general
from .duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from .duplicate_topage import (
    EAST_WEST,
    HUNDRED,
    NORTH_SOUTH,
    AdjustedMark,
    Adjustment,
    EtuiAnnulled,
    EtuiTopage,
    Form,
    Grade,
    Penalty,
    Percentages,
    Play,
    entrant_grades,
    etui_topages,
    figures_of,
    percentages,
)
from .frozen import copied_by_constructor


@dataclass(frozen=True, slots=True)
class Session:
    """One session: its étuis, the plays written on their fiches, the referee's adjustments, and,
    when the caller has it, the movement's sittings to hold the plays to."""

    etuis: tuple[Etui, ...]
    plays: tuple[Play, ...]
    coefficient: Fraction = Fraction(1)
    """The session's weight in the total (p. 19; its value is the organiser's)."""
    adjustments: tuple[Adjustment, ...] = ()
    sittings: tuple[Sitting, ...] | None = None


@dataclass(frozen=True, slots=True)
class DuplicateRequest:
    form: Form
    sessions: tuple[Session, ...]


@dataclass(frozen=True, slots=True)
class SessionResult:
    coefficient: Fraction
    topage: tuple[EtuiTopage, ...]
    percentages: tuple[Percentages, ...]
    """In order of each entrant's first play."""
    grades: tuple[Grade, ...]
    faults: tuple[PlayFault, ...]
    figures: tuple[int, ...]
    """Each play's figure, as written or as its summary scores (§17.3), in the order of the plays."""


@dataclass(frozen=True, slots=True)
class DuplicateStandings:
    form: Form
    sessions: tuple[SessionResult, ...]
    general: tuple[GeneralRow, ...]
    alterne: tuple[AlterneRow, ...] | None
    """One session only: the reference of a one-session tournament (p. 18); over several the
    général is (a reading: the lines may differ from one session to the next)."""
    feuilles: tuple[FeuilleDeRoute, ...]
    """In the order of the général."""
    faults: tuple[PlayFault, ...]


def duplicate_standings(request: DuplicateRequest) -> DuplicateStandings:
    """The control table's answer to a whole duplicate tournament (§17.3–17.9)."""
    if not request.sessions:
        raise ValueError("A tournament has at least one session.")
    results = tuple(_session(request.form, index, session) for index, session in enumerate(request.sessions))
    entrants: dict[str, str] = {}
    for result in results:
        for pct in result.percentages:
            entrants.setdefault(pct.entrant, pct.line)
    per_session = [{p.entrant: p for p in result.percentages} for result in results]
    rows = [
        (entrant, line, tuple(_overall(session.get(entrant)) for session in per_session))
        for entrant, line in entrants.items()
    ]
    coefficients = [s.coefficient for s in request.sessions]
    ranking = general(rows, coefficients)
    if len(results) == 1:
        lines = DUPLICATE_ORIENTATIONS if request.form is Form.INDIVIDUAL else (NORTH_SOUTH, EAST_WEST)
        ranked = [(r.entrant, r.line, r.total) for r in ranking if r.total is not None]
        alterne_rows: tuple[AlterneRow, ...] | None = alterne(ranked, lines)
    else:
        alterne_rows = None
    grades_of = [_by_entrant(result.grades) for result in results]
    feuilles = tuple(
        _feuille(row.entrant, row.total, request.sessions, per_session, grades_of, results) for row in ranking
    )
    faults = tuple(fault for result in results for fault in result.faults)
    return DuplicateStandings(request.form, results, ranking, alterne_rows, feuilles, faults)


def _overall(pct: Percentages | None) -> Fraction | None:
    return None if pct is None else pct.overall


def _session(form: Form, index: int, session: Session) -> SessionResult:
    _check(form, session)
    annulled = [a for a in session.adjustments if isinstance(a, EtuiAnnulled)]
    penalties = [a for a in session.adjustments if isinstance(a, Penalty)]
    figures = figures_of(session.plays)
    topage = etui_topages(session.etuis, session.plays, figures, annulled)
    grades = entrant_grades(form, session.etuis, session.plays, topage, session.adjustments)
    faults = control(form, index, session.plays, figures, session.sittings)
    return SessionResult(session.coefficient, topage, percentages(form, grades, penalties), grades, faults, figures)


def _check(form: Form, session: Session) -> None:
    """What the core cannot read as a session (refused, not reported)."""
    numbers = [etui.number for etui in session.etuis]
    if len(set(numbers)) != len(numbers):
        raise ValueError("An étui is listed twice.")
    if session.coefficient <= 0:
        raise ValueError("A session's coefficient is positive.")
    takers = {etui.number: etui.taker for etui in session.etuis}
    for etui in session.etuis:
        if etui.taker not in DUPLICATE_ORIENTATIONS or etui.dealer not in DUPLICATE_ORIENTATIONS:
            raise ValueError(f"Étui {etui.number}: its taker and dealer are orientations.")
    played: dict[int, set[str]] = {}
    for play in session.plays:
        if play.etui not in takers:
            raise ValueError(f"A play of étui {play.etui}, which the session does not list.")
        if (play.score is None) == (play.summary is None):
            raise ValueError(f"Étui {play.etui}, table {play.table}: a play gives its score or its summary.")
        played.setdefault(play.etui, set()).update(play.players)
    everyone = set().union(*played.values()) if played else set()
    for adjustment in session.adjustments:
        _check_adjustment(adjustment, played, everyone, session.adjustments)


def _check_adjustment(
    adjustment: Adjustment, played: dict[int, set[str]], everyone: set[str], adjustments: Sequence[Adjustment]
) -> None:
    if isinstance(adjustment, EtuiAnnulled):
        if adjustment.etui not in played:
            raise ValueError(f"Étui {adjustment.etui} is annulled but was not played.")
    elif isinstance(adjustment, AdjustedMark):
        if adjustment.entrant not in played.get(adjustment.etui, set()):
            raise ValueError(f"A mark for {adjustment.entrant!r} on étui {adjustment.etui}, which he did not play.")
        if not 0 <= adjustment.grade <= HUNDRED:
            raise ValueError("An adjusted mark is a grade from 0 to 100.")
        if any(isinstance(a, EtuiAnnulled) and a.etui == adjustment.etui for a in adjustments):
            raise ValueError(f"Étui {adjustment.etui} is annulled: no mark can be given on it.")
    elif adjustment.entrant not in everyone:
        raise ValueError(f"A penalty for {adjustment.entrant!r}, who played nothing.")


def _by_entrant(grades: Sequence[Grade]) -> dict[str, list[Grade]]:
    """A session's grades by entrant, in their order."""
    out: dict[str, list[Grade]] = {}
    for grade in grades:
        out.setdefault(grade.seat.entrant, []).append(grade)
    return out


def _feuille(
    entrant: str,
    overall: Fraction | None,
    sessions: Sequence[Session],
    per_session: Sequence[dict[str, Percentages]],
    grades_of: Sequence[dict[str, list[Grade]]],
    results: Sequence[SessionResult],
) -> FeuilleDeRoute:
    """His feuille de route récapitulative (p. 19): every play, its grade, the adjustments."""
    lines: list[RouteLine] = []
    touched: list[Adjustment] = []
    for index, (session, graded, result) in enumerate(zip(sessions, grades_of, results, strict=True)):
        own = graded.get(entrant, [])
        lines.extend(_route_line(index, session.plays[g.play], result.figures[g.play], g) for g in own)
        etuis = {g.etui for g in own}
        touched.extend(a for a in session.adjustments if _touches(a, entrant, etuis))
    return FeuilleDeRoute(
        entrant,
        tuple(lines),
        tuple(session.get(entrant) for session in per_session),
        tuple(a for a in touched if isinstance(a, Penalty)),
        tuple(touched),
        overall,
    )


def _route_line(session: int, play: Play, figure: int, grade: Grade) -> RouteLine:
    return RouteLine(
        session,
        grade.play,
        play.etui,
        play.position,
        play.table,
        grade.seat.orientation,
        grade.seat.role,
        figure,
        grade.grade,
        grade.adjusted,
        grade.annulled,
    )


def _touches(adjustment: Adjustment, entrant: str, etuis: set[int]) -> bool:
    if isinstance(adjustment, EtuiAnnulled):
        return adjustment.etui in etuis
    return adjustment.entrant == entrant


copied_by_constructor(Session, DuplicateRequest, SessionResult, DuplicateStandings)
