"""The scoring operation: the marks of a deal from its summary (rules.md §9)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from marshmallow import fields

from service.messages import Points, Term, msg
from service.rules.cards import OUDLERS, count
from service.rules.scoring import (
    TOTAL_HALF,
    PoigneeSize,
    Score,
    Side,
    Summary,
    chelem_oudlers_bounds,
    chelem_points_bounds_half,
    contract_named,
    points_bounds_half,
    score,
)
from service.rules.table import MAX_PLAYERS
from service.rules.variants import Rules
from service.texts import render

from .common import (
    IF_LOADED,
    AnswerSchema,
    Errors,
    StrictSchema,
    fail,
    players_field,
    rules_field,
    seat_error,
    seat_field,
)
from .components import FFT_CONTRACTS, contracts_accepted
from .declaration import Answered, Decided, Operation
from .fields import (
    BoundedList,
    EnumField,
    HalfPoints,
    Length,
    Range,
    StrictBoolean,
    StrictInteger,
    StrictNested,
    StrictString,
)
from .hints import enum_hint


def contract_field() -> EnumField:
    return EnumField(
        "Contract",
        contracts_accepted,
        required=True,
        metadata={
            "description": "prise ×1, garde ×2, garde_sans ×4, garde_contre ×6. "
            "`pousse` (another name for garde) only with `rules.pousse_alias`."
        },
    )


def check_contract(name: str, rules: Rules, errors: Errors, path: tuple[str | int, ...]) -> None:
    """Record a fault when the rules in force do not know the contract ``name``."""
    try:
        contract_named(name, rules)
    except ValueError:
        # The enum has already refused any other name: this is `pousse` without its variant,
        # another name of garde.
        errors.add(
            path, "pousse_not_enabled", msg("error.pousse_not_enabled"), enum_hint(name, FFT_CONTRACTS, "Contract")
        )


def side_field(description: str) -> EnumField:
    return EnumField("Side", allow_none=True, load_default=None, metadata={"description": description})


class PoigneeShownSchema(StrictSchema):
    side = EnumField("Side", required=True, metadata={"description": "Side that showed it."})
    size = EnumField(
        "PoigneeSize", required=True, metadata={"description": "simple 20, double 30, triple 40 (never multiplied)."}
    )


class ChelemSchema(StrictSchema):
    announced = StrictBoolean(load_default=False, metadata={"description": "The taker announced a chelem."})
    made_by = side_field("The side that took every trick, or null.")


class ScoreRequest(StrictSchema):
    players = players_field()
    contract = contract_field()
    taker = seat_field("Taker's seat.", required=True)
    partner = seat_field(
        "Five players: the partner's seat; null or the taker's seat when playing alone.",
        allow_none=True,
        load_default=None,
    )
    points = HalfPoints(
        required=True,
        validate=lambda half: 0 <= half <= TOTAL_HALF or fail("range", msg("error.range.points")),
        metadata={
            "minimum": 0,
            "maximum": 91,
            "multipleOf": 0.5,
            "description": "The taker's side's card points after the Excuse settlement: 0–91 in steps of 0.5.",
        },
    )
    oudlers = StrictInteger(
        required=True,
        validate=Range(min=0, max=count(OUDLERS)),
        metadata={"description": "Oudlers the taker's side holds."},
    )
    petit_au_bout = side_field(
        "The side that took the Petit au bout (won the last trick with it), or null. Under "
        "`rules.petit_au_bout_to_taker` its bonus counts for the attack whichever side this is."
    )
    poignees = BoundedList(
        StrictNested(PoigneeShownSchema),
        load_default=list,
        validate=Length(max=MAX_PLAYERS),
        metadata={"description": "Every poignée shown, by either side."},
    )
    chelem = StrictNested(
        ChelemSchema,
        load_default=lambda: {"announced": False, "made_by": None},
        metadata={
            "description": "Whether a chelem was announced, and which side took every trick. A chelem made "
            "bounds the card points and oudlers the summary may give (the side with no trick keeps only "
            "its pile and its own Excuse, rules.md §9.6): outside them, a 422 `points_chelem_mismatch` at "
            "`/points` (the range in its message) or `oudlers_chelem_mismatch` at `/oudlers`."
        },
    )
    rules = rules_field()

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            seat_error(errors, ("taker",), data["taker"], data["players"])
        with IF_LOADED:
            if data["partner"] is not None:
                if data["players"] != 5:
                    errors.add(("partner",), "partner_not_allowed", msg("error.partner_not_allowed"))
                else:
                    seat_error(errors, ("partner",), data["partner"], data["players"])
        with IF_LOADED:
            check_contract(data["contract"], data["rules"], errors, ("contract",))
        with IF_LOADED:
            low, high = points_bounds_half(data["oudlers"])
            if not low <= data["points"] <= high:
                errors.add(
                    ("points",),
                    "points_oudlers_mismatch",
                    msg("error.points_oudlers_mismatch", data["oudlers"], low=Points(low), high=Points(high)),
                )
            elif data["chelem"]["made_by"] is not None and not errors.messages:
                check_chelem(data, errors)
        with IF_LOADED:
            players = data["players"]
            shown = [PoigneeSize(p["size"]).trumps(players) for p in data["poignees"]]
            if len(shown) > players or sum(shown) > 22:
                errors.add(
                    ("poignees",),
                    "too_many_trumps_shown",
                    msg("error.too_many_trumps_shown", sum(shown)),
                )
        errors.raise_any()


def check_chelem(data: dict[str, Any], errors: Errors) -> None:
    """A chelem leaves the side that took no trick only the cards outside the tricks it gets,
    and its Excuse played early: the oudlers and points the summary gives must fit (rules.md §12)."""
    contract = contract_named(data["contract"], data["rules"])
    made_by, rules, oudlers = _SIDES[data["chelem"]["made_by"]], data["rules"], data["oudlers"]
    words = {"side": Term("side", made_by.value), "contract": Term("contract", contract.value)}
    bounds = chelem_points_bounds_half(data["players"], contract, made_by, oudlers, rules)
    if bounds is None:
        fewest, most = chelem_oudlers_bounds(data["players"], contract, made_by, rules)
        errors.add(
            ("oudlers",),
            "oudlers_chelem_mismatch",
            msg("error.oudlers_chelem_mismatch", low=fewest, high=most, **words),
        )
    elif not bounds[0] <= data["points"] <= bounds[1]:
        key = "error.points_chelem_exact" if bounds[0] == bounds[1] else "error.points_chelem_mismatch"
        low, high = Points(bounds[0]), Points(bounds[1])
        errors.add(("points",), "points_chelem_mismatch", msg(key, oudlers, low=low, high=high, **words))


# Wire names to the core's enums by dict lookup (calling an enum is ten times slower).
_SIDES = {s.value: s for s in Side}
_SIZES = {p.value: p for p in PoigneeSize}


def summary_of(req: dict[str, Any]) -> Summary:
    return Summary(
        players=req["players"],
        contract=contract_named(req["contract"], req["rules"]),
        taker=req["taker"],
        partner=req["partner"],
        points_half=req["points"],
        oudlers=req["oudlers"],
        petit_au_bout=None if req["petit_au_bout"] is None else _SIDES[req["petit_au_bout"]],
        poignees=tuple((_SIDES[p["side"]], _SIZES[p["size"]]) for p in req["poignees"]),
        chelem_announced=req["chelem"]["announced"],
        chelem_made_by=None if req["chelem"]["made_by"] is None else _SIDES[req["chelem"]["made_by"]],
        petit_au_bout_to_taker=req["rules"].petit_au_bout_to_taker,
    )


class ScoreResponse(AnswerSchema):
    won = StrictBoolean(required=True, metadata={"description": "The taker's side made its contract."})
    threshold = fields.Float(required=True, metadata={"description": "Points needed: 56, 51, 41 or 36."})
    margin = StrictInteger(required=True, metadata={"description": "Points over or under, after the half-point rule."})
    multiplier = StrictInteger(required=True)
    contract_points = StrictInteger(required=True, metadata={"description": "s·(25 + margin)·M."})
    petit_au_bout = StrictInteger(required=True, metadata={"description": "p·10·M."})
    poignees = StrictInteger(required=True, metadata={"description": "s·P, the poignées to the winning side."})
    chelem = StrictInteger(required=True, metadata={"description": "C, from the taker's side."})
    per_defender = StrictInteger(
        required=True, metadata={"description": "D, the sum of the four terms; each defender's mark is −D."}
    )
    scores = fields.List(StrictInteger(), required=True, metadata={"description": "Every seat's mark; they sum to 0."})
    explanation = fields.List(
        StrictString(),
        required=True,
        metadata={"description": "The computation, a line per term, for people, in the language asked for."},
    )


@lru_cache(maxsize=4096)
def _explanation(result: Score, language: str) -> tuple[str, ...]:
    # Scores repeat (a contract, its points and bonuses, at a table): each is said once per language.
    return tuple(render(line, language) for line in result.explanation)


def dump_score(result: Score, language: str) -> dict[str, Any]:
    return {
        "won": result.won,
        "threshold": result.threshold_half / 2,
        "margin": result.margin,
        "multiplier": result.multiplier,
        "contract_points": result.contract_points,
        "petit_au_bout": result.petit_au_bout,
        "poignees": result.poignees,
        "chelem": result.chelem,
        "per_defender": result.per_defender,
        "scores": list(result.scores),
        "explanation": list(_explanation(result, language)),
    }


def scored(req: dict[str, Any]) -> tuple[Summary, Score]:
    """A loaded summary as the core reads it, and its score."""
    summary = summary_of(req)
    return summary, score(summary)


def answer_score(req: dict[str, Any], language: str) -> Answered:
    """The marks of every seat from a loaded summary (rules.md §9), explained in ``language``."""
    summary, result = scored(req)
    return Answered(dump_score(result, language), Decided(scored=(summary.contract, result.won)))


SCORE = Operation("scoreDeal", "/v1/deals/score", "score", ScoreRequest(), ScoreResponse(), answer_score)
