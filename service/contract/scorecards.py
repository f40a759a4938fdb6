"""A table's scorecard at the control table (rules.md §16.2): as North wrote it (its seats, its
deals as a game's sheet takes them or as the marks written, its bilans), as the core reads it,
and as the standings answer it, deal by deal.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from service.messages import msg
from service.rules.scoring import Contract, contract_named
from service.rules.seating_tables import MAX_POSITIONS, ORIENTATIONS
from service.rules.tournament import CardDeal, Scorecard
from service.rules.variants import FFT

from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema, seat_error
from .components import contracts_accepted
from .fields import BoundedList, EnumField, Length, Range, StrictBoolean, StrictInteger, StrictNested, StrictString
from .games import GameDealSchema, dealt_again, load_entry, sheet_row
from .scoring import check_contract
from .tournament_tables import MAX_TABLE_NUMBER, player_id, seat_order
from .verdicts import RulingSchema

CARD_MAX_DEALS = 20
"""Most deals on one card: a position's played deals and the deals dealt again among them."""
MAX_MARK = 100_000
"""Largest mark a card may carry, either way: a deal's marks are some thousands at most (§9)."""


def _seat(orientation: str) -> StrictString:
    return player_id(
        f"The player at {orientation}, by his tournament number; null for a seat whose name and number are "
        "missing (a scored error, rules.md §16.3).",
        allow_none=True,
    )


class ScorecardSeatsSchema(StrictSchema):
    """A table's players by orientation: 3, 4 or 5 of them (rules.md §16.2). The seat numbers of
    a summary or a record count the card's seats in playing order: north 0, west 1, south 2,
    east 3, fifth 4, leaving out the orientations the table does not have."""

    north = _seat("north")
    west = _seat("west")
    south = _seat("south")
    east = _seat("east")
    fifth = _seat("fifth (a table of five only, after east)")


def _mark(orientation: str, **kwargs: Any) -> StrictInteger:
    return StrictInteger(
        validate=Range(min=-MAX_MARK, max=MAX_MARK), metadata={"description": f"{orientation}'s mark."}, **kwargs
    )


class ScorecardMarksRowSchema(StrictSchema):
    """A deal's marks as written, by orientation: one for each seat of the card."""

    north = _mark("North")
    west = _mark("West")
    south = _mark("South")
    east = _mark("East")
    fifth = _mark("The fifth player")


def _bilan(orientation: str) -> StrictInteger:
    return StrictInteger(
        validate=Range(min=-MAX_MARK, max=MAX_MARK),
        allow_none=True,
        metadata={
            "description": f"{orientation}'s bilan for the position as written on the card: the sum of his marks, "
            "which the control table checks (rules.md §16.2)."
        },
    )


class ScorecardTotalsSchema(StrictSchema):
    """The bilans written at the foot of the card, by orientation (any left out, or null, is not written)."""

    north = _bilan("North")
    west = _bilan("West")
    south = _bilan("South")
    east = _bilan("East")
    fifth = _bilan("The fifth player")


def _orientation(description: str) -> EnumField:
    return EnumField("Orientation", load_default=None, metadata={"description": description})


class ScorecardMarksSchema(StrictSchema):
    row = StrictNested(ScorecardMarksRowSchema, required=True)
    taker = _orientation("The taker, when written.")
    partner = _orientation("Five players: the called partner, when written (the taker's own seat: he played alone).")
    contract = EnumField(
        "Contract", contracts_accepted, load_default=None, metadata={"description": "The contract, when written."}
    )


class ScorecardDealSchema(GameDealSchema):
    marks = StrictNested(
        ScorecardMarksSchema,
        metadata={
            "description": "The marks written on the card for this deal (with its taker and contract when written): "
            "alone, or beside the deal's `summary`, `record` or `not_played`, which they must agree with. The "
            "standings count the written marks."
        },
    )


class ScorecardSchema(StrictSchema):
    position = StrictInteger(required=True, validate=Range(min=1, max=MAX_POSITIONS))
    table = StrictInteger(
        load_default=None,
        validate=Range(min=1, max=MAX_TABLE_NUMBER),
        metadata={"description": "The table's number; left out or null when the card has none (a scored error)."},
    )
    seats = StrictNested(ScorecardSeatsSchema, required=True)
    deals = BoundedList(
        StrictNested(ScorecardDealSchema),
        load_default=list,
        validate=Length(max=CARD_MAX_DEALS),
        metadata={
            "description": "The deals in the order played: each a `summary`, a `record` or `not_played` (as a game's "
            "sheet takes them; a summary's `players` may be left out), with or without its written `marks`, or "
            "the `marks` alone."
        },
    )
    totals = StrictNested(
        ScorecardTotalsSchema,
        load_default=None,
        metadata={"description": "The bilans written on the card: each is checked against the sum of the marks."},
    )
    returned = StrictBoolean(
        load_default=True,
        metadata={
            "description": "`false`: the card did not reach the control table (a scored error); it has no deals."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            order = seat_order(data["seats"], errors)
            if order is not None:
                with IF_LOADED:
                    for i, entry in enumerate(data["deals"]):
                        _check_deal(entry, order, errors, ("deals", i))
                with IF_LOADED:
                    for orientation, value in (data["totals"] or {}).items():
                        if value is not None and orientation not in order:
                            errors.add(("totals", orientation), "seat_not_at_table", msg("error.seat_not_at_table"))
        with IF_LOADED:
            if not data["returned"] and data["deals"]:
                errors.add(("deals",), "deals_not_returned", msg("error.deals_not_returned"))
        errors.raise_any()


def _check_deal(entry: dict[str, Any], order: tuple[str, ...], errors: Errors, path: tuple[str | int, ...]) -> None:
    n = len(order)
    given = [name for name in ("summary", "record", "not_played") if entry.get(name) is not None]
    marks = entry.get("marks")
    if len(given) > 1 or (not given and marks is None):
        errors.add(path, "one_entry", msg("error.card_entry"))
        return
    seat_error(errors, (*path, "dealer"), entry["dealer"], n)
    load_entry(entry, n, errors, path, msg("error.card_table_size", players=n))
    if marks is None:
        return
    row = marks["row"]
    extra = [o for o in row if o not in order]
    for orientation in extra:
        errors.add((*path, "marks", "row", orientation), "seat_not_at_table", msg("error.seat_not_at_table"))
    if not extra and len(row) != n:
        errors.add((*path, "marks", "row"), "seat_not_at_table", msg("error.marks_row_seats"))
    for name in ("taker", "partner"):
        if marks[name] is not None and marks[name] not in order:
            errors.add((*path, "marks", name), "seat_not_at_table", msg("error.seat_not_at_table"))
    if marks["partner"] is not None and n != 5:
        errors.add((*path, "marks", "partner"), "partner_not_allowed", msg("error.partner_not_allowed"))
    if marks["contract"] is not None:
        check_contract(marks["contract"], FFT, errors, (*path, "marks", "contract"))


class ScorecardSeatBilanSchema(AnswerSchema):
    orientation = EnumField("Orientation", required=True)
    player = StrictString(required=True, allow_none=True)
    bilan = StrictInteger(required=True, metadata={"description": "The sum of the marks counted."})
    written = StrictInteger(required=True, allow_none=True, metadata={"description": "The bilan written, if any."})


class ScorecardDealRowSchema(AnswerSchema):
    index = StrictInteger(required=True)
    kind = EnumField("CardDealKind", required=True)
    dealer = StrictInteger(required=True, allow_none=True)
    taker = EnumField("Orientation", required=True, allow_none=True)
    contract = EnumField("Contract", required=True, allow_none=True)
    not_played = EnumField("NotPlayed", required=True, allow_none=True)
    ruling = fields.Nested(RulingSchema, required=True, allow_none=True)
    played = StrictBoolean(required=True, metadata={"description": "A played deal: not dealt again (rules.md §16.1)."})
    scored = fields.List(
        StrictInteger(),
        required=True,
        allow_none=True,
        metadata={"description": "The marks the deal gives by the rules, seat by seat; null when only written."},
    )
    marks = fields.List(
        StrictInteger(),
        required=True,
        metadata={"description": "The marks counted, seat by seat: as written when written, else `scored`."},
    )


class ScorecardBilansSchema(AnswerSchema):
    scorecard = StrictInteger(required=True, metadata={"description": "The card's index in `scorecards`."})
    position = StrictInteger(required=True)
    table = StrictInteger(required=True, allow_none=True)
    returned = StrictBoolean(required=True)
    seats = fields.List(
        fields.Nested(ScorecardSeatBilanSchema), required=True, metadata={"description": "In playing order."}
    )
    deals = fields.List(fields.Nested(ScorecardDealRowSchema), required=True)
    played = StrictInteger(required=True, metadata={"description": "Its played deals."})
    zero_sum = StrictBoolean(required=True, metadata={"description": "Every deal's counted marks sum to zero."})


def card_of(sc: dict[str, Any], language: str) -> tuple[Scorecard, list[dict[str, Any]]]:
    """A loaded scorecard as the core reads it, and each deal's row of the answer."""
    order = tuple(o for o in ORIENTATIONS if o in sc["seats"])
    n = len(order)
    seat_of = {o: s for s, o in enumerate(order)}
    deals, rows = [], []
    for d, entry in enumerate(sc["deals"]):
        marks = entry.get("marks")
        written = None if marks is None else tuple(marks["row"][o] for o in order)
        row: dict[str, Any] = {"index": d, "kind": "marks", "dealer": entry["dealer"], "taker": None}
        row |= {"contract": None, "not_played": None, "ruling": None}
        scored = scored_taker = scored_partner = scored_contract = None
        played = True
        if any(entry.get(k) is not None for k in ("summary", "record", "not_played")):
            # The sheet's own row: scored as POST /v1/games/score scores it.
            sheet = sheet_row(d, entry, n, language)
            row |= {k: sheet[k] for k in ("kind", "dealer", "taker", "contract", "not_played", "ruling")}
            scored, scored_taker, scored_contract = tuple(sheet["scores"]), sheet["taker"], sheet["contract"]
            if entry.get("summary") is not None:
                scored_partner = entry["summary"]["partner"]
            elif entry.get("record") is not None:
                scored_partner = entry["evaluation"].partner
            played = not dealt_again(entry)
        taker = partner = contract = None
        if marks is not None:
            taker = None if marks["taker"] is None else seat_of[marks["taker"]]
            partner = None if marks["partner"] is None else seat_of[marks["partner"]]
            contract = None if marks["contract"] is None else contract_named(marks["contract"], FFT)
        deal = CardDeal(
            scored, written, played, taker, partner, contract, scored_taker, scored_partner, _contract(scored_contract)
        )
        deals.append(deal)
        # The taker and contract as written, else as the deal gives them.
        shown_taker = taker if taker is not None else row["taker"]
        row["taker"] = None if shown_taker is None else order[shown_taker]
        row["contract"] = contract if contract is not None else row["contract"]
        row |= {"played": played, "scored": None if scored is None else list(scored), "marks": list(deal.counted)}
        rows.append(row)
    totals = sc["totals"]
    card = Scorecard(
        sc["position"],
        sc["table"],
        order,
        tuple(sc["seats"][o] for o in order),
        tuple(deals),
        () if totals is None else tuple(totals.get(o) for o in order),
        sc["returned"],
    )
    return card, rows


def _contract(value: Contract | str | None) -> Contract | None:
    return None if value is None else contract_named(value)
