"""A club's tournament at the control table (rules.md §16.1–16.4): ``POST /v1/tournaments/standings``.

The whole tournament so far is the request (nothing is stored): the players, the plan, each
table's scorecard for each position as North wrote it, the seating when the organiser gives it,
and the referee's adjustments. A card's deals are given as a game's sheet takes them
(``POST /v1/games/score``: a summary, a record, a deal not played), scored exactly as the sheet
scores them, or as the marks written on the card, or both. The answer adds every card up, lists
the scored errors the control table finds (each located by its JSON pointer), and ranks the
players and the teams. A malformed request is refused (422); a tournament whose cards hold
errors is answered, its errors listed.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from service.messages import msg
from service.rules.ranking import TieBreak
from service.rules.seating_tables import MAX_PLAYERS, MAX_POSITIONS
from service.rules.tournament import (
    RULE_SECTIONS,
    Adjustment,
    Control,
    Entrant,
    Plan,
    Tournament,
    control,
)
from service.texts import render

from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema
from .declaration import Answered, Operation
from .fields import BoundedList, EnumField, Length, Range, StrictBoolean, StrictInteger, StrictNested, StrictString
from .problems import pointer
from .scorecards import MAX_MARK, ScorecardBilansSchema, ScorecardSchema, card_of
from .tournament_tables import MAX_SEATED_TABLES, SeatedTableSchema, player_id

STANDINGS_MAX_BYTES = 1024 * 1024
"""Largest request body: a tournament of 200 players over 7 positions, its deals as summaries
with their written marks, is some 600 KiB of JSON."""
MAX_CARDS = MAX_SEATED_TABLES
"""Most scorecards (and seated tables, and adjustments): 200 players over 20 positions."""
MAX_DEALS = 10
"""Most deals the plan may give a position (the *FFT Code*'s are 3 and 4)."""
NAME_LENGTH = 80


class StandingsPlayerSchema(StrictSchema):
    id = player_id("The player's tournament number, e.g. `N3` (often his starting seat).", required=True)
    name = StrictString(required=True, validate=Length(min=1, max=NAME_LENGTH))
    team = StrictString(
        load_default=None,
        validate=Length(min=1, max=NAME_LENGTH),
        metadata={"description": "His team, in a team tournament: teammates never meet, a team's total is theirs."},
    )


class StandingsPlanSchema(StrictSchema):
    positions = StrictInteger(
        required=True, validate=Range(min=1, max=MAX_POSITIONS), metadata={"description": "Positions in all."}
    )
    deals = StrictInteger(
        required=True,
        validate=Range(min=1, max=MAX_DEALS),
        metadata={"description": "Played deals per position: 4 in 45 minutes, 3 in 35 (*FFT Code*, rules.md §16.1)."},
    )


class StandingsAdjustmentSchema(StrictSchema):
    player = player_id("The player's tournament number.", required=True)
    position = StrictInteger(required=True, validate=Range(min=1, max=MAX_POSITIONS))
    points = StrictInteger(
        required=True,
        validate=Range(min=-MAX_MARK, max=MAX_MARK),
        metadata={"description": "Added to his total: negative for a penalty, positive for a bonus."},
    )
    reason = StrictString(load_default=None, validate=Length(max=200), metadata={"description": "Why, for people."})


class StandingsRequest(StrictSchema):
    players = BoundedList(
        StrictNested(StandingsPlayerSchema),
        required=True,
        validate=Length(min=1, max=MAX_PLAYERS),
        metadata={"description": "Every player of the tournament, each number once."},
    )
    plan = StrictNested(
        StandingsPlanSchema,
        load_default=None,
        metadata={
            "description": "The positions and the played deals of each (*FFT Code*: 5 × 4, 6 × 4 or 7 × 3, or the "
            "organiser's own): each card is checked against it. Without it, no card's count of deals is checked."
        },
    )
    tie_break = EnumField("TieBreak", load_default=TieBreak.NONE.value)
    scorecards = BoundedList(
        StrictNested(ScorecardSchema),
        required=True,
        validate=Length(max=MAX_CARDS),
        metadata={"description": "One card per table per position, as North brought it (rules.md §16.2)."},
    )
    seating = BoundedList(
        StrictNested(SeatedTableSchema),
        load_default=list,
        validate=Length(max=MAX_CARDS),
        metadata={
            "description": "The tables seated in each position (the seating operation's answer, for instance): a "
            "table with no card is a card not returned (rules.md §16.3)."
        },
    )
    adjustments = BoundedList(
        StrictNested(StandingsAdjustmentSchema),
        load_default=list,
        validate=Length(max=MAX_CARDS),
        metadata={"description": "The referee's penalties and bonuses: the only amounts the standings add."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            known: set[str] = set()
            for i, entrant in enumerate(data["players"]):
                if entrant["id"] in known:
                    errors.add(("players", i, "id"), "duplicate_player", msg("error.duplicate_player"))
                known.add(entrant["id"])
            with IF_LOADED:
                for j, seated in enumerate(data["seating"]):
                    for orientation, player in zip(seated.at, seated.seats, strict=True):
                        if player not in known:
                            said = msg("error.not_a_player", player=player)
                            errors.add(("seating", j, "seats", orientation), "not_a_player", said)
            with IF_LOADED:
                for k, adjustment in enumerate(data["adjustments"]):
                    if adjustment["player"] not in known:
                        said = msg("error.not_a_player", player=adjustment["player"])
                        errors.add(("adjustments", k, "player"), "not_a_player", said)
        with IF_LOADED:
            seated_at: set[tuple[int, int]] = set()
            for j, seated in enumerate(data["seating"]):
                key = (seated.position, seated.table)
                if key in seated_at:
                    errors.add(("seating", j, "table"), "table_seated_twice", msg("error.table_seated_twice"))
                seated_at.add(key)
        errors.raise_any()


# ---- the answer ----------------------------------------------------------------------------------


class StandingsPlanAnswerSchema(AnswerSchema):
    positions = StrictInteger(required=True)
    deals = StrictInteger(required=True)
    minutes = StrictInteger(
        required=True,
        allow_none=True,
        metadata={"description": "The time a position is allowed: 35 minutes for 3 deals, 45 for 4; null otherwise."},
    )
    fft_shape = StrictBoolean(
        required=True, metadata={"description": "One of the *FFT Code*'s shapes: 5 × 4, 6 × 4 or 7 × 3."}
    )


class StandingsSittingSchema(AnswerSchema):
    position = StrictInteger(required=True)
    table = StrictInteger(required=True, allow_none=True)
    table_size = StrictInteger(required=True, metadata={"description": "The players at the table: 3, 4 or 5."})
    bilan = StrictInteger(
        required=True, allow_none=True, metadata={"description": "His bilan there; null when the card is missing."}
    )
    scorecard = StrictInteger(
        required=True,
        allow_none=True,
        metadata={"description": "The card's index in `scorecards`; null for a seated table with no card."},
    )


class StandingsAdjustmentAnswerSchema(AnswerSchema):
    position = StrictInteger(required=True)
    points = StrictInteger(required=True)
    reason = StrictString(required=True, allow_none=True)


class StandingSchema(AnswerSchema):
    rank = StrictInteger(required=True, metadata={"description": "1 for the best total; equal totals share a rank."})
    player = StrictString(required=True)
    name = StrictString(required=True)
    team = StrictString(required=True, allow_none=True)
    marks = StrictInteger(required=True, metadata={"description": "The sum of his marks, on every card."})
    adjustments = StrictInteger(required=True, metadata={"description": "The sum of the referee's adjustments."})
    total = StrictInteger(required=True, metadata={"description": "`marks` + `adjustments`: what he is ranked by."})
    positions = fields.List(
        fields.Nested(StandingsSittingSchema),
        required=True,
        metadata={"description": "Where he sat in each position, and his bilan there."},
    )
    other_table_sizes = StrictBoolean(
        required=True,
        metadata={"description": "He sat at a table of 3 or 5: summed as played, never converted (rules.md §16.4)."},
    )
    adjustment_details = fields.List(
        fields.Nested(StandingsAdjustmentAnswerSchema),
        required=True,
        metadata={"description": "The referee's adjustments of his, in the order of `adjustments`."},
    )


class TeamStandingSchema(AnswerSchema):
    rank = StrictInteger(required=True)
    team = StrictString(required=True)
    players = fields.List(StrictString(), required=True)
    total = StrictInteger(required=True, metadata={"description": "The sum of its players' totals."})


class ScoredErrorSchema(AnswerSchema):
    code = EnumField("Anomaly", required=True)
    pointer = StrictString(
        required=True, metadata={"description": "JSON pointer to it in the request, e.g. `/scorecards/3/table`."}
    )
    position = StrictInteger(required=True)
    table = StrictInteger(required=True, allow_none=True)
    players = fields.List(
        StrictString(),
        required=True,
        metadata={
            "description": "The players of the table, who answer for its card together (*FFT Code*), as written "
            "(a seat with no name and number left out)."
        },
    )
    source = EnumField("AnomalySource", required=True)
    rule = StrictString(required=True, metadata={"description": "The section of rules.md that explains it."})
    message = StrictString(required=True, metadata={"description": "What is wrong, in the language asked for."})
    sanction = EnumField("Sanction", required=True)


class StandingsResponse(AnswerSchema):
    plan = fields.Nested(StandingsPlanAnswerSchema, required=True, allow_none=True)
    tie_break = EnumField("TieBreak", required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True, metadata={"description": "Best first."})
    teams = fields.List(
        fields.Nested(TeamStandingSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Best first; null when no player has a team."},
    )
    tables = fields.List(fields.Nested(ScorecardBilansSchema), required=True, metadata={"description": "Card by card."})
    anomalies = fields.List(
        fields.Nested(ScoredErrorSchema),
        required=True,
        metadata={"description": "The scored errors found, in the order of the request; none for a clean tournament."},
    )


def tournament_of(req: dict[str, Any], language: str) -> tuple[Tournament, list[list[dict[str, Any]]]]:
    """A loaded request as the core reads it, and the rows of each card's deals for the answer."""
    cards, rows = [], []
    for sc in req["scorecards"]:
        card, card_rows = card_of(sc, language)
        cards.append(card)
        rows.append(card_rows)
    plan = req["plan"]
    seating = tuple(req["seating"])
    tournament = Tournament(
        tuple(Entrant(p["id"], p["name"], p["team"]) for p in req["players"]),
        tuple(cards),
        None if plan is None else Plan(plan["positions"], plan["deals"]),
        seating,
        tuple(Adjustment(a["player"], a["position"], a["points"]) for a in req["adjustments"]),
        TieBreak(req["tie_break"]),
    )
    return tournament, rows


def answer_standings(req: dict[str, Any], language: str) -> Answered:
    """The control table's answer to a loaded tournament: the standings, the teams', each card
    added up, and the scored errors found, said in ``language``."""
    tournament, rows = tournament_of(req, language)
    result = control(tournament)
    answer = dump(tournament, result, rows, language)
    for row in answer["standings"]:
        row["adjustment_details"] = [
            {"position": a["position"], "points": a["points"], "reason": a["reason"]}
            for a in req["adjustments"]
            if a["player"] == row["player"]
        ]
    return Answered(answer)


def dump(t: Tournament, result: Control, rows: list[list[dict[str, Any]]], language: str) -> dict[str, Any]:
    names = {e.id: e for e in t.entrants}
    plan = t.plan
    tables = []
    for table, card, card_rows in zip(result.tables, t.cards, rows, strict=True):
        seats = [
            {"orientation": orientation, "player": player, "bilan": bilan, "written": written}
            for orientation, player, bilan, written in zip(
                card.seats, card.players, table.bilans, card.totals or (None,) * len(card.seats), strict=True
            )
        ]
        tables.append(
            {
                "scorecard": table.card,
                "position": card.position,
                "table": card.table,
                "returned": card.returned,
                "seats": seats,
                "deals": card_rows,
                "played": table.played,
                "zero_sum": all(sum(deal.counted) == 0 for deal in card.deals),
            }
        )
    return {
        "plan": None
        if plan is None
        else {"positions": plan.positions, "deals": plan.deals, "minutes": plan.minutes, "fft_shape": plan.fft_shape},
        "tie_break": t.tie_break.value,
        "standings": [
            {
                "rank": s.rank,
                "player": s.player,
                "name": names[s.player].name,
                "team": names[s.player].team,
                "marks": s.marks,
                "adjustments": s.adjustments,
                "total": s.total,
                "positions": [
                    {
                        "position": p.position,
                        "table": p.table,
                        "table_size": p.table_size,
                        "bilan": p.bilan,
                        "scorecard": p.card,
                    }
                    for p in s.sittings
                ],
                "other_table_sizes": s.other_table_sizes,
            }
            for s in result.standings
        ],
        "teams": None
        if result.teams is None
        else [{"rank": m.rank, "team": m.team, "players": list(m.players), "total": m.total} for m in result.teams],
        "tables": tables,
        "anomalies": [
            {
                "code": a.code.value,
                "pointer": pointer(a.path),
                "position": a.position,
                "table": a.table,
                "players": list(a.players),
                "source": a.source.value,
                "rule": RULE_SECTIONS.get(a.code, "16.3"),
                "message": render(a.message, language),
                "sanction": a.sanction.value,
            }
            for a in result.anomalies
        ],
    }


STANDINGS = Operation(
    "tournamentStandings",
    "/v1/tournaments/standings",
    "standings",
    StandingsRequest(),
    StandingsResponse(),
    answer_standings,
)
