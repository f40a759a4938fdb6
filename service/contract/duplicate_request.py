"""The request of a duplicate tournament's control table (rules.md §17.3–17.9): its schemas, the
checks that refuse what the core cannot read as a tournament (each at its JSON pointer), and
the core's request built from a valid one.

Every refusal the core would raise is found here first (rules.md §17.9, *Refused, not reported*):
an étui listed twice, a play of an étui not listed, a play with both or neither of a figure and a
summary, a player at two orientations of a play, a triplette play whose North and South (or East
and West) differ, an adjustment about what was not played, a mark on an annulled étui, a
quadrette opposed to itself, a penalty for a quadrette that played nothing. A request that
passes never makes the core raise.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from marshmallow import ValidationError, fields

from service.messages import Message, msg
from service.rules.duplicate_matches import PM_PLACES, QuadretteDeal, QuadrettePenalty, TeamDeal
from service.rules.duplicate_movement import MAX_ETUIS, MAX_TABLES
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from service.rules.duplicate_topage import AdjustedMark, EtuiAnnulled, Form, Penalty, Play
from service.rules.scoring import Contract

from .common import IF_LOADED, Errors, StrictSchema
from .fields import BoundedList, CodedErrors, EnumField, Length, Range, StrictInteger, StrictNested, StrictString
from .problems import Coded
from .scoring import ScoreRequest, summary_of
from .tournament_tables import player_id, table_number, writable

MAX_SESSIONS = 10
MAX_POSITIONS = MAX_TABLES
"""As many positions as tables at most (§17.1)."""
MAX_ETUI = MAX_TABLES * MAX_ETUIS
"""The largest étui number: the largest movement's last étui (§17.1)."""
MAX_SESSION_ETUIS = 300
"""The most étuis a session lists."""
MAX_PLAYS = 4000
"""The most plays a session writes (200 étuis played at 20 tables)."""
MAX_SITTINGS = 1600
MAX_ADJUSTMENTS = 200
MAX_FIGURE = 10_000
MAX_DEALS = 2000
REASON_LENGTH = 200
TEAM_LENGTH = 80
FORMS_OF_SESSIONS = (Form.INDIVIDUAL.value, Form.TRIPLETTES.value)
QUADRETTES, TEAM_MATCH = "quadrettes", "team_match"
FORM_FIELDS = {Form.INDIVIDUAL.value: "sessions", Form.TRIPLETTES.value: "sessions"} | {
    QUADRETTES: QUADRETTES,
    TEAM_MATCH: TEAM_MATCH,
}
"""The field each form reads; the others' are refused with it."""
_CONTRACTS = {c.value: c for c in Contract}


class DecimalNumber(CodedErrors, fields.Number[Decimal]):
    """A JSON number read as the decimal it is written as (``1.5``, ``33.3``), with at most
    ``places`` decimals: loaded as a :class:`~decimal.Decimal`, exactly."""

    num_type = Decimal

    def __init__(self, places: int, **kwargs: Any) -> None:
        self.places = places
        super().__init__(**kwargs)

    @property
    def form(self) -> Message:
        """What it takes, said to a value of another type."""
        low, high = _bounds(self)
        return msg("form.decimal", self.places, min=low, max=high)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        # A float's shortest repr is the decimal the JSON wrote (up to 15 digits).
        number = Decimal(value) if isinstance(value, int) else Decimal(repr(value))
        exponent = number.as_tuple().exponent
        if not isinstance(exponent, int) or exponent < -self.places:
            raise ValidationError(Coded("decimal_places", msg("error.decimal_places", self.places)))
        return number

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else float(value)


def _bounds(field: fields.Field[Any]) -> tuple[int, int]:
    ranges = [v for v in field.validators if isinstance(v, Range)]
    return ranges[0].min, ranges[0].max


def _decimal(places: int, low: int, high: int, description: str, **kwargs: Any) -> DecimalNumber:
    bounds = {"minimum": low, "maximum": high}
    return DecimalNumber(
        places, validate=Range(min=low, max=high), metadata={**bounds, "description": description}, **kwargs
    )


def _reason() -> StrictString:
    return StrictString(
        load_default="",
        validate=[Length(max=REASON_LENGTH), writable],
        metadata={"description": "Why, for people (the *code d'arbitrage*'s case)."},
    )


def _etui_number(description: str, **kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=Range(min=1, max=MAX_ETUI), metadata={"description": description}, **kwargs)


def _orientation(description: str) -> EnumField:
    return EnumField("DuplicateOrientation", required=True, metadata={"description": description})


class DuplicateSeatsSchema(StrictSchema):
    """A duplicate table's four players by orientation (§17.1; in triplettes, each triplette's id
    at both its orientations)."""

    north = player_id("The player at north.", required=True)
    west = player_id("The player at west.", required=True)
    south = player_id("The player at south.", required=True)
    east = player_id("The player at east.", required=True)

    def build(self, data: dict[str, Any]) -> tuple[str, ...]:
        return tuple(data[o] for o in DUPLICATE_ORIENTATIONS)


class EtuiLabelSchema(StrictSchema):
    """An étui's labels (§17.2), as the movement operation answers them: the movement's check form
    and the control table take the same."""

    number = _etui_number("The étui's number.", required=True)
    taker = _orientation("The orientation of its taker (p. 14).")
    dealer = _orientation("The orientation of its dealer.")
    leader = EnumField(
        "DuplicateOrientation",
        load_default=None,
        metadata={
            "description": "Who leads the first card, as the movement's answer gives it (the dealer's right): taken "
            "so that its labels pass as they are, not read."
        },
    )

    def build(self, data: dict[str, Any]) -> Etui:
        return Etui(data["number"], data["taker"], data["dealer"])


def _position(**kwargs: Any) -> StrictInteger:
    return StrictInteger(
        validate=Range(min=1, max=MAX_POSITIONS), metadata={"description": "The position's number, from 1."}, **kwargs
    )


class DuplicatePlaySchema(StrictSchema):
    """One étui played at one table, as its *fiche ambulante* says (§17.3)."""

    position = _position(required=True)
    table = table_number(required=True)
    etui = _etui_number("The étui's number: one of the session's `etuis`.", required=True)
    players = StrictNested(
        DuplicateSeatsSchema,
        required=True,
        metadata={"description": "The four players by orientation; in triplettes each triplette at both of its own."},
    )
    score = StrictInteger(
        load_default=None,
        validate=Range(min=-MAX_FIGURE, max=MAX_FIGURE),
        metadata={
            "description": "The taker's figure as North wrote it: the single defender's X, signed from the taker's "
            "side (§17.3). Exactly one of `score` and `summary`."
        },
    )
    summary = StrictNested(
        ScoreRequest,
        load_default=None,
        metadata={
            "description": "Instead of `score`: the deal's summary, as `POST /v1/deals/score` takes it, scored as the "
            "imposed Garde at four whatever contract, table size and partner it names (§17.3)."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            if (data["score"] is None) == (data["summary"] is None):
                errors.add((), "figure_or_summary", msg("error.figure_or_summary"))
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> Play:
        summary = None if data["summary"] is None else summary_of(data["summary"])
        return Play(data["position"], data["table"], data["etui"], data["players"], data["score"], summary)


class DuplicateSittingSchema(StrictSchema):
    """A table at a position as the movement seats it (§17.1): what the plays are held to."""

    position = _position(required=True)
    table = table_number(required=True)
    players = StrictNested(DuplicateSeatsSchema, required=True, metadata={"description": "Its players by orientation."})
    etuis = BoundedList(
        _etui_number("An étui's number."),
        required=True,
        validate=Length(max=30),
        metadata={"description": "The étuis the table plays at this position, in order."},
    )

    def build(self, data: dict[str, Any]) -> Sitting:
        return Sitting(data["position"], data["table"], data["players"], tuple(data["etuis"]))


class AnnulledSchema(StrictSchema):
    etui = _etui_number("The étui annulled: it must have been played.", required=True)
    reason = _reason()

    def build(self, data: dict[str, Any]) -> EtuiAnnulled:
        return EtuiAnnulled(data["etui"], data["reason"])


class AdjustedMarkSchema(StrictSchema):
    entrant = player_id("The player (the triplette) given the mark: one who played the étui.", required=True)
    etui = _etui_number("The étui: one he played, not annulled.", required=True)
    grade = _decimal(
        1, 0, 100, "The grade given in place of the topage's, from 0 to 100, at most one decimal.", required=True
    )
    reason = _reason()

    def build(self, data: dict[str, Any]) -> AdjustedMark:
        return AdjustedMark(data["entrant"], data["etui"], Fraction(data["grade"]), data["reason"])


class SessionPenaltySchema(StrictSchema):
    entrant = player_id("The player (the triplette) penalised: one who played in the session.", required=True)
    points = _decimal(
        1,
        -100,
        100,
        "Percentage points taken off his session global, at most one decimal (negative: given).",
        required=True,
    )
    reason = _reason()

    def build(self, data: dict[str, Any]) -> Penalty:
        return Penalty(data["entrant"], Fraction(data["points"]), data["reason"])


def _adjustments(schema: type[StrictSchema], what: str) -> BoundedList:
    return BoundedList(
        StrictNested(schema), load_default=list, validate=Length(max=MAX_ADJUSTMENTS), metadata={"description": what}
    )


class AdjustmentsSchema(StrictSchema):
    """The referee's adjustments of a session (§17.9), each applied where p. 19 places it."""

    annulled = _adjustments(AnnulledSchema, "Étuis annulled (*donne annulée*): their plays leave every mean.")
    marks = _adjustments(AdjustedMarkSchema, "Adjusted marks (*marque ajustée*): a grade in place of the topage's.")
    penalties = _adjustments(SessionPenaltySchema, "Penalties (*pénalités*): points off a session global.")


def _no_adjustments() -> dict[str, list[Any]]:
    return {"annulled": [], "marks": [], "penalties": []}


class DuplicateSessionSchema(StrictSchema):
    """One session (§17.7): its étuis, the plays written, the adjustments, the movement's sittings."""

    etuis = BoundedList(
        StrictNested(EtuiLabelSchema),
        required=True,
        validate=Length(min=1, max=MAX_SESSION_ETUIS),
        metadata={"description": "The session's étuis, each number once, with their labels (§17.2)."},
    )
    plays = BoundedList(
        StrictNested(DuplicatePlaySchema),
        required=True,
        validate=Length(max=MAX_PLAYS),
        metadata={"description": "Every play written on the fiches ambulantes, in any order (§17.3)."},
    )
    coefficient = _decimal(
        3,
        0,
        100,
        "The session's weight in the total (p. 19), positive, at most three decimals.",
        load_default=Decimal(1),
    )
    adjustments = StrictNested(AdjustmentsSchema, load_default=_no_adjustments, metadata={"description": "§17.9."})
    sittings = BoundedList(
        StrictNested(DuplicateSittingSchema),
        load_default=None,
        validate=Length(max=MAX_SITTINGS),
        metadata={
            "description": "The movement's sittings (the movement operation's answer), each position and table once: "
            "every play is then held to them (§17.9). Absent: not checked."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            if data["coefficient"] <= 0:
                errors.add(("coefficient",), "range", msg("error.range.positive"))
        with IF_LOADED:
            numbers: set[int] = set()
            for i, etui in enumerate(data["etuis"]):
                if etui.number in numbers:
                    errors.add(
                        ("etuis", i, "number"), "etui_listed_twice", msg("error.etui_listed_twice", etui=etui.number)
                    )
                numbers.add(etui.number)
            with IF_LOADED:
                for p, play in enumerate(data["plays"]):
                    if play.etui not in numbers:
                        said = msg("error.etui_not_listed", etui=play.etui)
                        errors.add(("plays", p, "etui"), "etui_not_listed", said)
        with IF_LOADED:
            _check_adjustments(errors, data["plays"], data["adjustments"])
        with IF_LOADED:
            seated: set[tuple[int, int]] = set()
            for k, sitting in enumerate(data["sittings"] or []):
                if (sitting.position, sitting.table) in seated:
                    errors.add(("sittings", k, "table"), "table_seated_twice", msg("error.table_seated_twice"))
                seated.add((sitting.position, sitting.table))
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> Any:
        from service.rules.duplicate_standings import Session

        adjustments = data["adjustments"]
        sittings = data["sittings"]
        return Session(
            tuple(data["etuis"]),
            tuple(data["plays"]),
            Fraction(data["coefficient"]),
            (*adjustments["annulled"], *adjustments["marks"], *adjustments["penalties"]),
            None if sittings is None else tuple(sittings),
        )


def _check_adjustments(errors: Errors, plays: list[Play], adjustments: dict[str, Any]) -> None:
    """Each adjustment about an étui or an entrant that played (§17.9); no mark on an annulled étui."""
    played: dict[int, set[str]] = {}
    for play in plays:
        played.setdefault(play.etui, set()).update(play.players)
    everyone = set().union(*played.values()) if played else set()
    gone = {a.etui for a in adjustments["annulled"]}
    for k, annulled in enumerate(adjustments["annulled"]):
        if annulled.etui not in played:
            said = msg("error.adjustment_not_played.etui", etui=annulled.etui)
            errors.add(("adjustments", "annulled", k, "etui"), "adjustment_not_played", said)
    for k, mark in enumerate(adjustments["marks"]):
        if mark.entrant not in played.get(mark.etui, set()):
            said = msg("error.adjustment_not_played.mark", entrant=mark.entrant, etui=mark.etui)
            errors.add(("adjustments", "marks", k, "entrant"), "adjustment_not_played", said)
        elif mark.etui in gone:
            said = msg("error.mark_on_annulled", etui=mark.etui)
            errors.add(("adjustments", "marks", k, "etui"), "mark_on_annulled", said)
    for k, penalty in enumerate(adjustments["penalties"]):
        if penalty.entrant not in everyone:
            said = msg("error.adjustment_not_played.penalty", entrant=penalty.entrant)
            errors.add(("adjustments", "penalties", k, "entrant"), "adjustment_not_played", said)


# ---- quadrettes and a team match (§17.8) -----------------------------------------------------------


def _team_name(description: str, **kwargs: Any) -> StrictString:
    return StrictString(
        validate=[Length(min=1, max=TEAM_LENGTH), writable], metadata={"description": description}, **kwargs
    )


def _figure(description: str) -> StrictInteger:
    return StrictInteger(
        required=True, validate=Range(min=-MAX_FIGURE, max=MAX_FIGURE), metadata={"description": description}
    )


class QuadretteDealSchema(StrictSchema):
    etui = _etui_number("The étui both quadrettes played.", required=True)
    first = _figure("The first quadrette's attacker's figure, against the second's defence (§17.3).")
    second = _figure("The second quadrette's attacker's figure, against the first's defence.")


class OppositionSchema(StrictSchema):
    """Two quadrettes facing each other (p. 22): the deals each played against the other."""

    first = _team_name("The first quadrette.", required=True)
    second = _team_name("The second quadrette.", required=True)
    deals = BoundedList(
        StrictNested(QuadretteDealSchema),
        required=True,
        validate=Length(min=1, max=MAX_DEALS),
        metadata={"description": "Each deal of the opposition."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            if data["first"] == data["second"]:
                errors.add(("second",), "same_team", msg("error.same_team", team=data["second"]))
        errors.raise_any()


class QuadrettePenaltySchema(StrictSchema):
    quadrette = _team_name("The quadrette penalised: one that played.", required=True)
    points = _decimal(PM_PLACES, 0, 1000, "Points de match off its result, at most three decimals.", required=True)
    reason = _reason()


class QuadrettesSchema(StrictSchema):
    """A quadrettes tournament (pp. 22–24)."""

    oppositions = BoundedList(
        StrictNested(OppositionSchema),
        required=True,
        validate=Length(min=1, max=MAX_DEALS),
        metadata={"description": "Every opposition of two quadrettes, with its deals."},
    )
    penalties = BoundedList(
        StrictNested(QuadrettePenaltySchema),
        load_default=list,
        validate=Length(max=MAX_ADJUSTMENTS),
        metadata={"description": "The referee's penalties, in points de match (§17.9)."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            names = {name for o in data["oppositions"] for name in (o["first"], o["second"])}
            with IF_LOADED:
                for k, penalty in enumerate(data["penalties"]):
                    if penalty["quadrette"] not in names:
                        said = msg("error.unknown_team", team=penalty["quadrette"])
                        errors.add(("penalties", k, "quadrette"), "unknown_team", said)
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> tuple[Any, ...]:
        """The core's deals and penalties, and where each deal is: (opposition, deal)."""
        deals = tuple(
            QuadretteDeal(d["etui"], o["first"], o["second"], d["first"], d["second"])
            for o in data["oppositions"]
            for d in o["deals"]
        )
        where = tuple((k, i) for k, o in enumerate(data["oppositions"]) for i in range(len(o["deals"])))
        pm = Decimal(1).scaleb(-PM_PLACES)
        penalties = tuple(
            QuadrettePenalty(p["quadrette"], p["points"].quantize(pm), p["reason"]) for p in data["penalties"]
        )
        return deals, penalties, where


class TeamPlaySchema(StrictSchema):
    contract = EnumField(
        "TeamContract", required=True, metadata={"description": "The attacker's contract: never a prise (p. 26)."}
    )
    score = _figure("The attacker's figure against the other team's defence (§17.3).")


class TeamDealSchema(StrictSchema):
    etui = _etui_number("The étui both teams played.", required=True)
    first = StrictNested(TeamPlaySchema, required=True, metadata={"description": "The first team's attacker."})
    second = StrictNested(TeamPlaySchema, required=True, metadata={"description": "The second team's attacker."})


class QuarterSchema(StrictSchema):
    deals = BoundedList(
        StrictNested(TeamDealSchema),
        required=True,
        validate=Length(min=1, max=100),
        metadata={"description": "The quarter's deals."},
    )


class MatchTeamSchema(StrictSchema):
    name = _team_name("The team's name.", required=True)
    bonus = _decimal(
        PM_PLACES,
        0,
        1000,
        "Points de match given before the match (p. 26: by its players' national ranking), at most three decimals.",
        load_default=Decimal(0),
    )


class TeamMatchSchema(StrictSchema):
    """A match between two teams (pp. 25–26)."""

    teams = BoundedList(
        StrictNested(MatchTeamSchema),
        required=True,
        validate=Length(equal=2),
        metadata={"description": "The two teams: `first` and `second` of each deal, in this order."},
    )
    quarters = BoundedList(
        StrictNested(QuarterSchema),
        required=True,
        validate=Length(min=1, max=4),
        metadata={"description": "The quarters played, in order (four in a whole match)."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            teams = data["teams"]
            if len(teams) == 2 and teams[0]["name"] == teams[1]["name"]:
                errors.add(("teams", 1, "name"), "same_team", msg("error.same_team", team=teams[1]["name"]))
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> tuple[Any, ...]:
        """The core's deals, the bonuses, the teams' names, and where each deal is: (quarter, deal)."""
        deals = tuple(
            TeamDeal(
                q,
                d["etui"],
                _CONTRACTS[d["first"]["contract"]],
                d["first"]["score"],
                _CONTRACTS[d["second"]["contract"]],
                d["second"]["score"],
            )
            for q, quarter in enumerate(data["quarters"], start=1)
            for d in quarter["deals"]
        )
        where = tuple((k, i) for k, q in enumerate(data["quarters"]) for i in range(len(q["deals"])))
        pm = Decimal(1).scaleb(-PM_PLACES)
        first, second = data["teams"]
        bonus = (first["bonus"].quantize(pm), second["bonus"].quantize(pm))
        return deals, bonus, (first["name"], second["name"]), where
