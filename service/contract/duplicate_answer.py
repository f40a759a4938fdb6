"""The answer of a duplicate tournament's control table (rules.md §17.4–17.9): its schemas and
the JSON made of the core's standings.

Percentages are exact fractions in the core (§17.4). On the wire each is given twice: rounded
half up to one decimal, as the referee writes it (``global``), and as the double nearest the
exact value (``global_exact``), which orders and ties the entrants as the exact values do (the
fractions of a topage have small denominators: two different ones are never within a double's
precision of each other). Points de match are the grid's, to three decimals (§17.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from marshmallow import fields

from service.messages import Message, msg
from service.rules.duplicate_control import PlayFault
from service.rules.duplicate_matches import QuadretteStandings, TeamMatch
from service.rules.duplicate_rankings import FeuilleDeRoute, RouteLine
from service.rules.duplicate_standings import DuplicateRequest, DuplicateStandings, SessionResult
from service.rules.duplicate_topage import AdjustedMark, Adjustment, EtuiAnnulled, Percentages, shown
from service.rules.verdicts import DuplicateFault
from service.texts import render

from .common import AnswerSchema
from .fields import EnumField, StrictBoolean, StrictInteger, StrictString


def rounded(value: Fraction | None) -> float | None:
    """A percentage as shown (§17.4): half up to one decimal."""
    return None if value is None else float(shown(value))


def exact(value: Fraction | None) -> float | None:
    """The double nearest the exact value."""
    return None if value is None else float(value)


def pm(value: Decimal) -> float:
    return float(value)


def _number(description: str, nullable: bool = False) -> fields.Float:
    return fields.Float(required=True, allow_none=nullable, metadata={"description": description})


def _pct(what: str, key: str | None = None) -> tuple[fields.Float, fields.Float]:
    """A percentage's two fields: rounded as shown, and exact (``key``: the first's name on the wire)."""
    return (
        fields.Float(
            required=True,
            allow_none=True,
            data_key=key,
            metadata={"description": f"{what}, half up to one decimal (§17.4); null without one."},
        ),
        _number(f"{what}, the double nearest its exact value: what ranks (§17.4); null without one.", True),
    )


class PercentagesSchema(AnswerSchema):
    """An entrant's percentages in one session (§17.5)."""

    entrant = StrictString(required=True)
    line = StrictString(
        required=True,
        metadata={"description": "The orientation of his first play; in triplettes `north_south` or `east_west`."},
    )
    attack, attack_exact = _pct("Pourcentage attaque: the mean of his grades as taker")
    defence, defence_exact = _pct("Pourcentage défense: the mean of his grades as a defender")
    attacks = StrictInteger(required=True, metadata={"description": "The grades counted in attack."})
    defences = StrictInteger(required=True, metadata={"description": "The grades counted in defence."})
    penalties = _number("The referee's penalties in the session, in percentage points (§17.9).")
    global_, global_exact = _pct("Pourcentage global, less the penalties", "global")
    one_sided = StrictBoolean(
        required=True, metadata={"description": "His global rests on the attack or the defence alone (§17.5)."}
    )


class TopageLineSchema(AnswerSchema):
    play = StrictInteger(required=True, metadata={"description": "The play's index in its session's `plays`."})
    pointer = StrictString(required=True, metadata={"description": "The play in the request, a JSON pointer."})
    position = StrictInteger(required=True)
    table = StrictInteger(required=True)
    score = StrictInteger(required=True, metadata={"description": "The taker's figure, as written or as scored."})
    taker, taker_exact = _pct("The taker's grade (null: played once, or annulled)")
    defenders, defenders_exact = _pct("Each defender's grade, 100 − the taker's")


class EtuiTopageSchema(AnswerSchema):
    etui = StrictInteger(required=True)
    taker = EnumField("DuplicateOrientation", required=True, metadata={"description": "Its taker's orientation."})
    played = StrictInteger(required=True, metadata={"description": "How many times it was played: the scale's steps."})
    annulled = StrictBoolean(required=True)
    lines = fields.List(
        fields.Nested(TopageLineSchema), required=True, metadata={"description": "By position, then table (p. 18)."}
    )


class SessionAnswerSchema(AnswerSchema):
    coefficient = _number("The session's coefficient (§17.7).")
    topage = fields.List(fields.Nested(EtuiTopageSchema), required=True, metadata={"description": "Étui by étui."})
    percentages = fields.List(
        fields.Nested(PercentagesSchema), required=True, metadata={"description": "In the order of first play."}
    )


class GeneralRowSchema(AnswerSchema):
    rank = StrictInteger(
        required=True, allow_none=True, metadata={"description": "Equal totals share it; null without a grade (last)."}
    )
    entrant = StrictString(required=True)
    line = StrictString(required=True)
    total, total_exact = _pct("The total: Σ coefficient × session global (§17.7)")
    sessions = fields.List(
        fields.Float(allow_none=True), required=True, metadata={"description": "Each session's global, rounded."}
    )
    sessions_exact = fields.List(
        fields.Float(allow_none=True), required=True, metadata={"description": "Each session's global, exact."}
    )


class AlterneRowSchema(AnswerSchema):
    place = StrictInteger(required=True)
    tier = StrictInteger(required=True, metadata={"description": "1 for the line winners, 2 for the seconds…"})
    line = StrictString(required=True)
    line_rank = StrictInteger(required=True)
    entrant = StrictString(required=True)
    global_, global_exact = _pct("His global", "global")


class RouteLineSchema(AnswerSchema):
    session = StrictInteger(required=True, metadata={"description": "The session's index in the request."})
    play = StrictInteger(required=True)
    pointer = StrictString(required=True)
    etui = StrictInteger(required=True)
    position = StrictInteger(required=True)
    table = StrictInteger(required=True)
    orientation = StrictString(required=True, metadata={"description": "His orientation (his line in triplettes)."})
    role = EnumField("Side", required=True, metadata={"description": "`attack` as taker, else `defence`."})
    score = StrictInteger(required=True)
    grade, grade_exact = _pct("His grade on the play")
    adjusted = StrictBoolean(required=True, metadata={"description": "The referee's mark replaced the topage's."})
    annulled = StrictBoolean(required=True, metadata={"description": "The étui was annulled: no grade."})


class RouteAdjustmentSchema(AnswerSchema):
    kind = EnumField("DuplicateAdjustment", required=True)
    pointer = StrictString(required=True, metadata={"description": "The adjustment in the request."})
    session = StrictInteger(required=True)
    reason = StrictString(required=True)


class FeuilleSchema(AnswerSchema):
    """An entrant's feuille de route récapitulative (p. 19)."""

    entrant = StrictString(required=True)
    lines = fields.List(fields.Nested(RouteLineSchema), required=True, metadata={"description": "Every play."})
    sessions = fields.List(
        fields.Nested(PercentagesSchema, allow_none=True),
        required=True,
        metadata={"description": "His percentages in each session; null where he did not play."},
    )
    penalties = _number("His penalties over the sessions, in percentage points.")
    adjustments = fields.List(
        fields.Nested(RouteAdjustmentSchema),
        required=True,
        metadata={"description": "Every adjustment that touched him (§17.9)."},
    )
    total, total_exact = _pct("His total")


class DuplicatePlayFaultSchema(AnswerSchema):
    code = EnumField("DuplicateFault", required=True)
    pointer = StrictString(
        required=True,
        metadata={"description": "The play in the request (`/sessions/0/plays/7`); a play missing: its sitting."},
    )
    session = StrictInteger(required=True, metadata={"description": "The session's index in the request."})
    play = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The play's index; null for a play missing."}
    )
    position = StrictInteger(required=True)
    table = StrictInteger(required=True)
    etui = StrictInteger(required=True)
    players = fields.List(StrictString(), required=True, metadata={"description": "The players it is about."})
    message = StrictString(required=True, metadata={"description": "The fault for people, in the language asked for."})


class QuadretteDealAnswerSchema(AnswerSchema):
    pointer = StrictString(required=True)
    etui = StrictInteger(required=True)
    first = StrictString(required=True)
    second = StrictString(required=True)
    ecart = StrictInteger(required=True, metadata={"description": "The first's figure − the second's."})
    first_pm = _number("The first quadrette's points de match, to three decimals (§17.8).")
    second_pm = _number("The second's: the opposite.")


class QuadretteRowSchema(AnswerSchema):
    rank = StrictInteger(required=True)
    quadrette = StrictString(required=True)
    won = _number("Points de match won.")
    lost = _number("Points de match lost, as a positive amount.")
    penalties = _number("The referee's penalties.")
    total = _number("won − lost − penalties: what ranks (p. 23).")


class QuadrettesAnswerSchema(AnswerSchema):
    deals = fields.List(fields.Nested(QuadretteDealAnswerSchema), required=True)
    standings = fields.List(fields.Nested(QuadretteRowSchema), required=True, metadata={"description": "Best first."})


class TeamDealAnswerSchema(AnswerSchema):
    pointer = StrictString(required=True)
    quarter = StrictInteger(required=True)
    etui = StrictInteger(required=True)
    ecart = StrictInteger(required=True)
    first_pm = _number("The first team's points de match: √écart when its attacker scored more, else 0.")
    second_pm = _number("The second team's.")


class QuarterAnswerSchema(AnswerSchema):
    quarter = StrictInteger(required=True)
    first = _number("The first team's points de match in the quarter.")
    second = _number("The second team's.")


class TeamMatchAnswerSchema(AnswerSchema):
    teams = fields.List(StrictString(), required=True)
    deals = fields.List(fields.Nested(TeamDealAnswerSchema), required=True)
    quarters = fields.List(fields.Nested(QuarterAnswerSchema), required=True)
    bonus = fields.List(fields.Float(), required=True, metadata={"description": "Each team's bonus (p. 26)."})
    totals = fields.List(fields.Float(), required=True, metadata={"description": "Bonus + the quarters."})
    winner = StrictString(required=True, allow_none=True, metadata={"description": "Null: a draw (§17.8)."})


class DuplicateStandingsResponse(AnswerSchema):
    form = EnumField("DuplicateForm", required=True)
    sessions = fields.List(
        fields.Nested(SessionAnswerSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Individual and triplettes: each session's topage and percentages."},
    )
    general = fields.List(
        fields.Nested(GeneralRowSchema),
        required=True,
        allow_none=True,
        metadata={"description": "The classement général (§17.6), best first."},
    )
    alterne = fields.List(
        fields.Nested(AlterneRowSchema),
        required=True,
        allow_none=True,
        metadata={"description": "The classement alterné of a one-session tournament (§17.6); null otherwise."},
    )
    feuilles = fields.List(
        fields.Nested(FeuilleSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Each entrant's feuille de route, in the order of the général (p. 19)."},
    )
    faults = fields.List(
        fields.Nested(DuplicatePlayFaultSchema),
        required=True,
        metadata={"description": "What the fiches ambulantes get wrong (§17.9), play by play; none when clean."},
    )
    quadrettes = fields.Nested(QuadrettesAnswerSchema, required=True, allow_none=True)
    team_match = fields.Nested(TeamMatchAnswerSchema, required=True, allow_none=True)


# ---- the JSON of the core's results --------------------------------------------------------------

FAULT_TEXTS: dict[DuplicateFault, str] = {
    DuplicateFault.IMPOSSIBLE_SCORE: "duplicate.fault.impossible_score",
    DuplicateFault.ETUI_TWICE_FOR_PLAYER: "duplicate.fault.etui_twice_for_player",
    DuplicateFault.ETUI_TWICE_IN_POSITION: "duplicate.fault.etui_twice_in_position",
    DuplicateFault.ETUI_PLAYED_ONCE: "duplicate.fault.etui_played_once",
    DuplicateFault.ORIENTATION_CHANGED: "duplicate.fault.orientation_changed",
    DuplicateFault.NOT_IN_MOVEMENT: "duplicate.fault.not_in_movement",
    DuplicateFault.PLAYERS_NOT_AS_MOVEMENT: "duplicate.fault.players_not_as_movement",
    DuplicateFault.ETUI_NOT_AS_MOVEMENT: "duplicate.fault.etui_not_as_movement",
    DuplicateFault.PLAY_MISSING: "duplicate.fault.play_missing",
}
"""Each fault's text for people (keys written out, so that the catalogs' tests find them)."""


def percentages_json(p: Percentages) -> dict[str, Any]:
    return {
        "entrant": p.entrant,
        "line": p.line,
        "attack": rounded(p.attack),
        "attack_exact": exact(p.attack),
        "defence": rounded(p.defence),
        "defence_exact": exact(p.defence),
        "attacks": p.attacks,
        "defences": p.defences,
        "penalties": float(p.penalties),
        "global": rounded(p.overall),
        "global_exact": exact(p.overall),
        "one_sided": p.one_sided,
    }


def _session_json(index: int, result: SessionResult) -> dict[str, Any]:
    return {
        "coefficient": float(result.coefficient),
        "topage": [
            {
                "etui": t.etui,
                "taker": t.taker,
                "played": t.played,
                "annulled": t.annulled,
                "lines": [
                    {
                        "play": line.play,
                        "pointer": f"/sessions/{index}/plays/{line.play}",
                        "position": line.position,
                        "table": line.table,
                        "score": line.score,
                        "taker": rounded(line.taker_grade),
                        "taker_exact": exact(line.taker_grade),
                        "defenders": rounded(line.defender_grade),
                        "defenders_exact": exact(line.defender_grade),
                    }
                    for line in t.lines
                ],
            }
            for t in result.topage
        ],
        "percentages": [percentages_json(p) for p in result.percentages],
    }


def _route_line(line: RouteLine) -> dict[str, Any]:
    return {
        "session": line.session,
        "play": line.play,
        "pointer": f"/sessions/{line.session}/plays/{line.play}",
        "etui": line.etui,
        "position": line.position,
        "table": line.table,
        "orientation": line.orientation,
        "role": line.role.value,
        "score": line.score,
        "grade": rounded(line.grade),
        "grade_exact": exact(line.grade),
        "adjusted": line.adjusted is not None,
        "annulled": line.annulled is not None,
    }


def adjustment_pointers(request: DuplicateRequest) -> dict[int, tuple[int, str, int]]:
    """Where each adjustment object is in the request, by identity: (session, kind, index)."""
    out: dict[int, tuple[int, str, int]] = {}
    for s, session in enumerate(request.sessions):
        counts: dict[str, int] = {}
        for adjustment in session.adjustments:
            kind = _kind(adjustment)
            out[id(adjustment)] = (s, kind, counts.get(kind, 0))
            counts[kind] = counts.get(kind, 0) + 1
    return out


def _kind(adjustment: Adjustment) -> str:
    if isinstance(adjustment, EtuiAnnulled):
        return "annulled"
    return "marks" if isinstance(adjustment, AdjustedMark) else "penalties"


_KIND_NAMES = {"annulled": "annulled", "marks": "mark", "penalties": "penalty"}


def _feuille_json(feuille: FeuilleDeRoute, where: dict[int, tuple[int, str, int]]) -> dict[str, Any]:
    adjustments = []
    for adjustment in feuille.adjustments:
        session, kind, k = where[id(adjustment)]
        adjustments.append(
            {
                "kind": _KIND_NAMES[kind],
                "pointer": f"/sessions/{session}/adjustments/{kind}/{k}",
                "session": session,
                "reason": adjustment.reason,
            }
        )
    penalties = sum((p.points for p in feuille.penalties), Fraction(0))
    return {
        "entrant": feuille.entrant,
        "lines": [_route_line(line) for line in feuille.lines],
        "sessions": [None if p is None else percentages_json(p) for p in feuille.sessions],
        "penalties": float(penalties),
        "adjustments": adjustments,
        "total": rounded(feuille.total),
        "total_exact": exact(feuille.total),
    }


def where_said(session: int, fault: PlayFault) -> Message:
    return msg("duplicate.where", session=session + 1, position=fault.position, table=fault.table, etui=fault.etui)


def fault_json(
    fault: PlayFault, request: DuplicateRequest, result: DuplicateStandings, language: str
) -> dict[str, Any]:
    session = request.sessions[fault.session]
    if fault.play is None:
        sittings = session.sittings or ()
        k = next(i for i, s in enumerate(sittings) if (s.position, s.table) == (fault.position, fault.table))
        pointer = f"/sessions/{fault.session}/sittings/{k}"
        score = 0
    else:
        pointer = f"/sessions/{fault.session}/plays/{fault.play}"
        score = result.sessions[fault.session].figures[fault.play]
    where = where_said(fault.session, fault)
    said = Message(FAULT_TEXTS[fault.code], (("where", where), ("players", ", ".join(fault.players)), ("score", score)))
    return {
        "code": fault.code.value,
        "pointer": pointer,
        "session": fault.session,
        "play": fault.play,
        "position": fault.position,
        "table": fault.table,
        "etui": fault.etui,
        "players": list(fault.players),
        "message": render(said, language),
    }


def standings_json(request: DuplicateRequest, result: DuplicateStandings, language: str) -> dict[str, Any]:
    """The answer of an individual or triplettes tournament."""
    where = adjustment_pointers(request)
    return {
        "form": result.form.value,
        "sessions": [_session_json(i, r) for i, r in enumerate(result.sessions)],
        "general": [
            {
                "rank": row.rank,
                "entrant": row.entrant,
                "line": row.line,
                "total": rounded(row.total),
                "total_exact": exact(row.total),
                "sessions": [rounded(g) for g in row.sessions],
                "sessions_exact": [exact(g) for g in row.sessions],
            }
            for row in result.general
        ],
        "alterne": None
        if result.alterne is None
        else [
            {
                "place": row.place,
                "tier": row.tier,
                "line": row.line,
                "line_rank": row.line_rank,
                "entrant": row.entrant,
                "global": rounded(row.overall),
                "global_exact": exact(row.overall),
            }
            for row in result.alterne
        ],
        "feuilles": [_feuille_json(f, where) for f in result.feuilles],
        "faults": [fault_json(f, request, result, language) for f in result.faults],
        "quadrettes": None,
        "team_match": None,
    }


def quadrettes_json(result: QuadretteStandings, where: Sequence[tuple[int, int]]) -> dict[str, Any]:
    return {
        "form": "quadrettes",
        "sessions": None,
        "general": None,
        "alterne": None,
        "feuilles": None,
        "faults": [],
        "quadrettes": {
            "deals": [
                {
                    "pointer": f"/quadrettes/oppositions/{o}/deals/{d}",
                    "etui": r.deal.etui,
                    "first": r.deal.first,
                    "second": r.deal.second,
                    "ecart": r.ecart,
                    "first_pm": pm(r.first_pm),
                    "second_pm": pm(-r.first_pm),
                }
                for r, (o, d) in zip(result.deals, where, strict=True)
            ],
            "standings": [
                {
                    "rank": row.rank,
                    "quadrette": row.quadrette,
                    "won": pm(row.won),
                    "lost": pm(row.lost),
                    "penalties": pm(row.penalties),
                    "total": pm(row.total),
                }
                for row in result.rows
            ],
        },
        "team_match": None,
    }


def team_match_json(result: TeamMatch, teams: tuple[str, str], where: Sequence[tuple[int, int]]) -> dict[str, Any]:
    return {
        "form": "team_match",
        "sessions": None,
        "general": None,
        "alterne": None,
        "feuilles": None,
        "faults": [],
        "quadrettes": None,
        "team_match": {
            "teams": list(teams),
            "deals": [
                {
                    "pointer": f"/team_match/quarters/{q}/deals/{d}",
                    "quarter": r.deal.quarter,
                    "etui": r.deal.etui,
                    "ecart": r.ecart,
                    "first_pm": pm(r.first_pm),
                    "second_pm": pm(r.second_pm),
                }
                for r, (q, d) in zip(result.deals, where, strict=True)
            ],
            "quarters": [
                {"quarter": n, "first": pm(first), "second": pm(second)}
                for n, (first, second) in enumerate(result.quarters, start=1)
            ],
            "bonus": [pm(b) for b in result.bonus],
            "totals": [pm(t) for t in result.totals],
            "winner": None if result.winner is None else teams[result.winner],
        },
    }
