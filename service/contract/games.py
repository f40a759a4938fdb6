"""A game's score sheet (rules.md §15): ``POST /v1/games/score``.

One request holds the whole sheet: the draw for the first deal, then each deal as its summary
(the ``scoreDeal`` request), its record (the ``evaluateDeal`` request, a faulty deal scored by
its ruling) or a deal not played. Each entry is one object with one of three fields, rather
than a union of types: every client generator reads it the same way, and a pointer names the
part of the entry at fault (``/deals/3/summary/points``).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from service.messages import Message, Signed, msg
from service.rules.deal import Status, evaluate_deal
from service.rules.sheet import bilans, dealers_due, draw_for_deal, marks_of, totals
from service.rules.table import MAX_PLAYERS

from .claims import Mismatches
from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema, card_list, players_field, seat_error, seat_field
from .declaration import Answered, Operation
from .evaluate import EVALUATE, EvaluateRequest, record_of
from .fields import BoundedList, EnumField, Length, StrictBoolean, StrictInteger, StrictNested, StrictString
from .scoring import SCORE, ScoreRequest, scored
from .verdicts import RulingSchema, dump_ruling

GAME_MAX_DEALS = 100
"""Most deals on one sheet: a club evening is a few dozen."""


class EntryBody(StrictNested):
    """A summary or a record in a sheet entry: documented as its schema, loaded as it was sent.
    The sheet loads it itself (:meth:`GameScoreRequest.check`), once it knows the table."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("type")
        return value


class NotPlayedEntrySchema(StrictSchema):
    reason = EnumField("NotPlayed", required=True, metadata={"description": "`redeal` or `void`."})


class SheetSummary(ScoreRequest):
    """The ``scoreDeal`` request as a sheet entry holds it: ``players`` may be left out, the
    sheet's own applies. Its own schema, so that generated clients do not require it."""

    players = EnumField(
        "Players",
        metadata={"description": "Number of players at the table; the sheet's `players` when left out."},
    )


class GameDealSchema(StrictSchema):
    dealer = seat_field(
        "The seat that dealt a summary or a deal not played (a record's own `dealer` is the one used). Checked "
        "against the rotation when the draw is given (rules.md §15.2).",
        load_default=None,
    )
    summary = EntryBody(
        SheetSummary,
        metadata={"description": "The deal's summary: the `scoreDeal` request (its `players` may be left out)."},
    )
    record = EntryBody(
        EvaluateRequest,
        metadata={
            "description": "The deal's record: the `evaluateDeal` request, complete; a faulty one scores by its "
            "ruling (rules.md §14)."
        },
    )
    not_played = StrictNested(
        NotPlayedEntrySchema, metadata={"description": "A deal dealt again or void: a row of zeros."}
    )


class SheetClaimsSchema(StrictSchema):
    net = BoundedList(
        StrictInteger(), validate=Length(max=MAX_PLAYERS), metadata={"description": "Each seat's bilan, as written."}
    )
    rows = BoundedList(
        BoundedList(StrictInteger(), validate=Length(max=MAX_PLAYERS)),
        validate=Length(max=GAME_MAX_DEALS),
        metadata={"description": "Each deal's marks, as written, seat 0 first."},
    )


class GameScoreRequest(StrictSchema):
    players = players_field()
    names = BoundedList(
        StrictString(validate=Length(min=1, max=80)),
        load_default=None,
        validate=Length(max=MAX_PLAYERS),
        metadata={
            "description": "The players' names, seat 0 first. A sheet is one table of the same players throughout: "
            "when players leave or join, a new sheet starts, its totals from zero (rules.md §15.5)."
        },
    )
    table = StrictString(
        load_default=None, validate=Length(max=80), metadata={"description": "The table's number or name."}
    )
    draw = card_list(
        "The card each seat drew for the deal, seat 0 first: the lowest deals (rules.md §15.1).",
        load_default=None,
        validate=Length(max=MAX_PLAYERS),
    )
    deals = BoundedList(
        StrictNested(GameDealSchema),
        required=True,
        validate=Length(max=GAME_MAX_DEALS),
        metadata={"description": "The deals in the order played: each one of `summary`, `record`, `not_played`."},
    )
    claims = StrictNested(
        SheetClaimsSchema,
        load_default=None,
        metadata={"description": "The sheet as the players wrote it, to be checked."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            if data["names"] is not None and len(data["names"]) != data["players"]:
                errors.add(("names",), "names_count", msg("error.names_count", data["players"]))
        with IF_LOADED:
            draw = data["draw"]
            if draw is not None:
                if len(draw) != data["players"]:
                    errors.add(("draw",), "draw_count", msg("error.draw_count", data["players"]))
                errors.duplicates("draw", draw)
        with IF_LOADED:
            self._check_deals(data["deals"], data["players"], errors)
        with IF_LOADED:
            claims, n = data["claims"], data["players"]
            if claims is not None:
                if "net" in claims and len(claims["net"]) != n:
                    errors.add(("claims", "net"), "length", msg("error.length.equal", n))
                for r, row in enumerate(claims.get("rows", ())):
                    if len(row) != n:
                        errors.add(("claims", "rows", r), "length", msg("error.length.equal", n))
        errors.raise_any()

    @staticmethod
    def _check_deals(deals: list[dict[str, Any]], n: int, errors: Errors) -> None:
        for i, entry in enumerate(deals):
            given = [name for name in ("summary", "record", "not_played") if entry.get(name) is not None]
            if len(given) != 1:
                errors.add(("deals", i), "one_entry", msg("error.one_entry"))
                continue
            seat_error(errors, ("deals", i, "dealer"), entry["dealer"], n)
            load_entry(entry, n, errors, ("deals", i), msg("error.table_size", players=n))


def load_entry(
    entry: dict[str, Any], n: int, errors: Errors, path: tuple[str | int, ...], other_table: Message
) -> None:
    """Load a deal entry's summary or record for a table of ``n`` players, in place; its faults
    located under ``path``, ``other_table`` said of a body for another number of players. A
    record is evaluated once, here (``entry["evaluation"]``): one that neither scores, rules nor
    redeals (unfinished, or faulty before its end) has no row to give."""
    for name, op_plan in (("summary", SCORE.plan), ("record", EVALUATE.plan)):
        body = entry.get(name)
        if body is None:
            continue
        # A copy: the caller's request stays as it was sent (in-process callers reuse it).
        body = {"players": n, **body}
        if body["players"] != n:
            errors.add(path, "table_size", other_table)
            continue
        try:
            entry[name] = op_plan.load(body)
        except ma.ValidationError as exc:
            errors.nest((*path, name), exc.messages)
            continue
        if name == "record":
            ev = entry["evaluation"] = evaluate_deal(record_of(entry[name]))
            if marks_of(ev, n) is None:
                errors.add((*path, "record"), "unscored_record", msg("error.unscored_record"))


class DrawResultSchema(AnswerSchema):
    first_dealer = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The seat that drew the lowest card; null: redraw."}
    )
    redraw = fields.List(
        StrictInteger(), required=True, metadata={"description": "Seats that drew the Excuse: they draw again."}
    )


class GameRowSchema(AnswerSchema):
    index = StrictInteger(required=True)
    kind = EnumField("GameEntryKind", required=True)
    dealer = StrictInteger(required=True, allow_none=True)
    dealer_in_turn = StrictBoolean(
        required=True,
        allow_none=True,
        metadata={"description": "Whether the dealer follows the rotation from the draw; null when unknown."},
    )
    taker = StrictInteger(required=True, allow_none=True)
    contract = EnumField("Contract", required=True, allow_none=True)
    not_played = EnumField("NotPlayed", required=True, allow_none=True)
    ruling = fields.Nested(RulingSchema, required=True, allow_none=True)
    scores = fields.List(StrictInteger(), required=True, metadata={"description": "Every seat's mark, seat 0 first."})
    totals = fields.List(StrictInteger(), required=True, metadata={"description": "The running totals after it."})


class BilanSchema(AnswerSchema):
    seat = StrictInteger(required=True)
    name = StrictString(required=True, allow_none=True)
    plus = StrictInteger(required=True, metadata={"description": "The sum of its gains."})
    minus = StrictInteger(required=True, metadata={"description": "The sum of its losses, as a positive number."})
    net = StrictInteger(required=True, metadata={"description": "Plus less minus: the bilan."})
    rank = StrictInteger(required=True, metadata={"description": "1 for the highest net; equal nets share a rank."})


class SheetMismatchSchema(AnswerSchema):
    pointer = StrictString(
        required=True, metadata={"description": "JSON pointer to the claim in the request, e.g. `/claims/net/2`."}
    )
    claimed = fields.Raw(required=True, metadata={"description": "The number claimed, as sent."})
    correct = fields.Raw(
        required=True, metadata={"description": "The number by the rules; null for a row the sheet does not have."}
    )
    message = StrictString(
        required=True, metadata={"description": "The difference for people, in the language asked for."}
    )


class SheetClaimsResultSchema(AnswerSchema):
    agree = StrictBoolean(required=True)
    mismatches = fields.List(fields.Nested(SheetMismatchSchema), required=True)


class GameScoreResponse(AnswerSchema):
    table = StrictString(required=True, allow_none=True)
    draw = fields.Nested(DrawResultSchema, required=True, allow_none=True)
    deals = fields.List(fields.Nested(GameRowSchema), required=True)
    bilans = fields.List(fields.Nested(BilanSchema), required=True, metadata={"description": "Seat 0 first."})
    zero_sum = StrictBoolean(required=True, metadata={"description": "Every row, and so the bilans, sums to zero."})
    claims = fields.Nested(SheetClaimsResultSchema, required=True, allow_none=True)


_ROW_KEYS = (
    "index",
    "kind",
    "dealer",
    "dealer_in_turn",
    "taker",
    "contract",
    "not_played",
    "ruling",
    "scores",
    "totals",
)
"""A row's fields, in the order the answer gives them (the last two are filled in at the end)."""


def sheet_row(index: int, entry: dict[str, Any], n: int, language: str) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(_ROW_KEYS)
    row |= {"index": index, "dealer": entry["dealer"]}
    if entry.get("summary") is not None:
        summary, result = scored(entry["summary"])
        return row | {
            "kind": "summary",
            "taker": summary.taker,
            "contract": summary.contract,
            "scores": list(result.scores),
        }
    if entry.get("record") is not None:
        req = entry["record"]
        ev = entry["evaluation"]
        row |= {"kind": "record", "dealer": req["dealer"], "taker": ev.taker, "contract": ev.contract}
        marks = marks_of(ev, n)
        assert marks is not None, "refused when loaded"
        row["scores"] = list(marks)
        if ev.status is Status.REDEAL:
            row["not_played"] = "redeal"
        if ev.ruling is not None:
            row["ruling"] = dump_ruling(ev.ruling, language)
        return row
    return row | {"kind": "not_played", "not_played": entry["not_played"]["reason"], "scores": [0] * n}


def dealt_again(entry: dict[str, Any]) -> bool:
    """A row the same dealer deals again (§15.2): said not played for a redeal, or a record the
    core deals again (every seat passed, or a ruling for a fault of the deal)."""
    if entry.get("record") is not None:
        again: bool = entry["evaluation"].dealt_again
        return again
    return entry.get("not_played") is not None and entry["not_played"]["reason"] == "redeal"


def answer_game(req: dict[str, Any], language: str) -> Answered:
    """The sheet of a loaded game: each row, the totals, the bilans, the claims checked."""
    n = req["players"]
    rows = [sheet_row(i, entry, n, language) for i, entry in enumerate(req["deals"])]
    draw = None if req["draw"] is None else draw_for_deal(req["draw"])
    redealt = [dealt_again(entry) for entry in req["deals"]]
    due = dealers_due(draw.first_dealer, redealt, n) if draw is not None and draw.first_dealer is not None else None
    for i, row in enumerate(rows):
        row["dealer_in_turn"] = None if due is None or row["dealer"] is None else row["dealer"] == due[i]
    marks = [row["scores"] for row in rows]
    for row, running in zip(rows, totals(marks, n), strict=True):
        row["totals"] = running
    names = req["names"] or [None] * n
    seats = [
        {"seat": b.seat, "name": names[b.seat], "plus": b.plus, "minus": b.minus, "net": b.net, "rank": b.rank}
        for b in bilans(marks, n)
    ]
    answer = {
        "table": req["table"],
        "draw": None if draw is None else {"first_dealer": draw.first_dealer, "redraw": list(draw.redraw)},
        "deals": rows,
        "bilans": seats,
        "zero_sum": all(sum(m) == 0 for m in marks),
        "claims": None,
    }
    if req["claims"] is not None:
        answer["claims"] = _check(req["claims"], marks, [s["net"] for s in seats], language)
    return Answered(answer)


def _check(claims: dict[str, Any], marks: list[list[int]], net: list[int], language: str) -> dict[str, Any]:
    """The sheet as written (``claims``) against its rows and bilans: each number that differs,
    located and said in ``language``."""
    found = Mismatches(language)
    differ = found.differ

    def mark(value: int) -> Signed | int:
        # Signed as a sheet writes marks (+42, -126), but a nought is no gain: 0, not +0.
        return Signed(value) if value else 0

    for seat, (claimed, bilan) in enumerate(zip(claims.get("net", ()), net, strict=False)):
        if claimed != bilan:
            said = msg("sheet.claim.net", seat=seat, correct=mark(bilan), claimed=mark(claimed))
            differ(f"/claims/net/{seat}", claimed, bilan, said)
    for r, row in enumerate(claims.get("rows", ())):
        right_row = marks[r] if r < len(marks) else None
        for seat, claimed in enumerate(row):
            pointer = f"/claims/rows/{r}/{seat}"
            if right_row is None:
                differ(pointer, claimed, None, msg("sheet.claim.row.none", len(marks), deal=r + 1))
            elif claimed != right_row[seat]:
                right = right_row[seat]
                said = msg("sheet.claim.row", deal=r + 1, seat=seat, correct=mark(right), claimed=mark(claimed))
                differ(pointer, claimed, right, said)
    return {"agree": not found.mismatches, "mismatches": found.mismatches}


SCORE_GAME = Operation(
    "scoreGame", "/v1/games/score", "score-game", GameScoreRequest(), GameScoreResponse(), answer_game
)
