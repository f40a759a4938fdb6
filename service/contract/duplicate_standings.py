"""A duplicate tournament at the control table (rules.md §17.3–17.9):
``POST /v1/tournaments/duplicate/standings``.

The whole tournament so far is the request (nothing is kept): its ``form``; for the individual
and the triplettes each session's étuis, the plays written on the *fiches ambulantes* (a figure,
or a deal's summary scored as the imposed Garde at four), the referee's adjustments and, when
the caller has them, the movement's sittings; for the quadrettes the deals of each opposition;
for a team match its quarters. The answer gives each session's topage and percentages, the
classements général and alterné, the feuilles de route and the faults of the fiches (each at its
JSON pointer); or the points de match. A request the core cannot read as a tournament is refused
(422), each fault at its pointer: the core never refuses one that passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.messages import msg
from service.rules.duplicate_matches import quadrette_standings, team_match
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS
from service.rules.duplicate_standings import DuplicateRequest, Session, duplicate_standings
from service.rules.duplicate_topage import Form

from .common import IF_LOADED, Errors, StrictSchema
from .declaration import Answered, Operation
from .duplicate_answer import DuplicateStandingsResponse, quadrettes_json, standings_json, team_match_json
from .duplicate_request import (
    FORM_FIELDS,
    FORMS_OF_SESSIONS,
    MAX_SESSIONS,
    QUADRETTES,
    TEAM_MATCH,
    DuplicateSessionSchema,
    QuadrettesSchema,
    TeamMatchSchema,
)
from .fields import BoundedList, EnumField, Length, StrictNested

DUPLICATE_MAX_BYTES = 1024 * 1024
"""Largest request body: some 8 000 plays written as figures with their players' ids."""


class DuplicateStandingsRequest(StrictSchema):
    form = EnumField(
        "DuplicateForm",
        required=True,
        metadata={
            "description": "The tournament's form (§17): `individual` and `triplettes` give `sessions`, "
            "`quadrettes` its `quadrettes`, `team_match` its `team_match`."
        },
    )
    sessions = BoundedList(
        StrictNested(DuplicateSessionSchema),
        load_default=None,
        validate=Length(min=1, max=MAX_SESSIONS),
        metadata={"description": "Individual and triplettes: each session, in order (§17.7)."},
    )
    quadrettes = StrictNested(
        QuadrettesSchema, load_default=None, metadata={"description": "Quadrettes: the oppositions (§17.8)."}
    )
    team_match = StrictNested(
        TeamMatchSchema, load_default=None, metadata={"description": "A team match: its teams and quarters (§17.8)."}
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            form = data["form"]
            wanted = FORM_FIELDS[form]
            for name in ("sessions", QUADRETTES, TEAM_MATCH):
                with IF_LOADED:
                    given = data[name] is not None
                    if name == wanted and not given:
                        errors.add((name,), "required", msg("error.required.form", form=form))
                    elif name != wanted and given:
                        errors.add((name,), "not_for_form", msg("error.not_for_form", form=form))
            with IF_LOADED:
                if form in FORMS_OF_SESSIONS and data["sessions"] is not None:
                    for s, session in enumerate(data["sessions"]):
                        _check_players(errors, Form(form), s, session)
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> DuplicateQuery:
        form = data["form"]
        if form in FORMS_OF_SESSIONS:
            return DuplicateQuery(form, DuplicateRequest(Form(form), tuple(data["sessions"])), None, None)
        return DuplicateQuery(form, None, data["quadrettes"], data["team_match"])


def _check_players(errors: Errors, form: Form, s: int, session: Session) -> None:
    """Each play's players as its form seats them (§17.5, §17.9): four players in the individual;
    in triplettes one triplette at North and South, another at East and West."""
    for p, play in enumerate(session.plays):
        north, west, south, east = play.players
        at = ("sessions", s, "plays", p, "players")
        if form is Form.INDIVIDUAL:
            seen: set[str] = set()
            for orientation, player in zip(DUPLICATE_ORIENTATIONS, play.players, strict=True):
                if player in seen:
                    said = msg("error.player_twice_at_play", player=player)
                    errors.add((*at, orientation), "duplicate_player", said)
                seen.add(player)
        elif north != south:
            errors.add((*at, "south"), "triplette_split", msg("error.triplette_split.north_south"))
        elif west != east:
            errors.add((*at, "east"), "triplette_split", msg("error.triplette_split.east_west"))
        elif north == west:
            errors.add((*at, "west"), "duplicate_player", msg("error.player_twice_at_play", player=west))


@dataclass(frozen=True, slots=True)
class DuplicateQuery:
    """A loaded request: its form and what that form reads."""

    form: str
    request: DuplicateRequest | None
    quadrettes: Any
    team_match: Any


def answer_duplicate(query: DuplicateQuery, language: str) -> Answered:
    """The control table's answer (§17.4–17.9), its texts in ``language``."""
    if query.request is not None:
        return Answered(standings_json(query.request, duplicate_standings(query.request), language))
    if query.quadrettes is not None:
        deals, penalties, where = query.quadrettes
        return Answered(quadrettes_json(quadrette_standings(deals, penalties), where))
    deals, bonus, teams, where = query.team_match
    return Answered(team_match_json(team_match(deals, bonus), teams, where))


DUPLICATE_STANDINGS = Operation(
    "duplicateStandings",
    "/v1/tournaments/duplicate/standings",
    "duplicate-standings",
    DuplicateStandingsRequest(),
    DuplicateStandingsResponse(),
    answer_duplicate,
)
