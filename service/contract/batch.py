"""Batch evaluation for CI replays (rules.md §2–§9): the ``evaluateDealBatch`` operation.

Its request (``{"deals": [...]}`` as JSON, or one record per line as NDJSON) and its answer
(an item per record, then the summary); the records themselves are evaluated one by one by
:mod:`service.contract.records`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from marshmallow import fields

from service.messages import Bytes, msg
from service.texts import DEFAULT_LANGUAGE

from .common import AnswerSchema, StrictSchema
from .components import FULL
from .declaration import Answered, Operation, read_examples
from .evaluate import DealDigestSchema, EvaluateRequest, EvaluateResponse
from .fields import BoundedList, Length, StrictBoolean, StrictInteger, StrictNested, StrictString
from .jsonio import dumps
from .openapi import ProblemSchema
from .problems import Coded, Hint
from .records import BATCH_MAX_LINES, JSON_BATCH_MAX_DEALS, LINE_MAX_BYTES, Observer, Tally, record_item

NDJSON = "application/x-ndjson"
SHAPE = '{"deals": [...]}'
"""The JSON form's body, as the hint to a body of another shape says it."""

MORE_AS_NDJSON = Hint(msg("error.length.ndjson", media_type=NDJSON, lines=BATCH_MAX_LINES), (NDJSON,))
"""The hint to a JSON batch of more records than it takes: the NDJSON form, which streams."""
LARGER_AS_NDJSON = Hint(
    msg("error.body_too_large.ndjson", media_type=NDJSON, line=Bytes(LINE_MAX_BYTES), lines=BATCH_MAX_LINES),
    (NDJSON,),
)
"""The hint to a JSON batch over its body limit: the same."""
LINES_AS_NDJSON = Hint(msg("error.malformed_json.extra.ndjson", media_type=NDJSON), (NDJSON,))
"""The hint to a JSON body that is records one per line: the NDJSON form's content type."""


class RecordList(BoundedList):
    """The records of a JSON batch: documented as deal records, loaded as they are.

    Each record is checked on its own (a bad one gets a problem item, the others are
    evaluated), so the list itself only has to be a list within the limit.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        self.check_length(value)
        return value


class BatchRequest(StrictSchema):
    # A list sent alone, or any other body that is not an object: the shape it should have.
    error_messages = {  # noqa: RUF012 (marshmallow's own class attribute)
        "type": Coded("type", msg("error.type.object"), Hint(msg("error.type.object.batch", shape=SHAPE), (SHAPE,))),
    }

    deals = RecordList(
        StrictNested(EvaluateRequest),
        required=True,
        validate=Length(max=JSON_BATCH_MAX_DEALS, hint=MORE_AS_NDJSON),
        metadata={
            "description": f"Deal records (the `evaluateDeal` request, with an optional `id` and `claims`), at most "
            f"{JSON_BATCH_MAX_DEALS}; a record that is not valid is answered by a problem item, the others are "
            "evaluated. More records: send them as NDJSON."
        },
    )


class BatchItemSchema(AnswerSchema):
    index = StrictInteger(required=True, metadata={"description": "The record's position in the batch, from 0."})
    id = StrictString(required=True, allow_none=True, metadata={"description": "The record's `id`, when it had one."})
    result = fields.Nested(
        EvaluateResponse, metadata={"description": "A valid record: the `evaluateDeal` answer (claims checked)."}
    )
    digest = fields.Nested(
        DealDigestSchema,
        metadata={"description": "A valid record under `detail=summary`: its digest, in place of `result`."},
    )
    problem = fields.Nested(
        ProblemSchema,
        metadata={
            "description": "A record that is not valid JSON, or not a valid deal record; pointers in its "
            "`errors` point into the record itself (its line)."
        },
    )


class BatchSummarySchema(AnswerSchema):
    deals = StrictInteger(
        required=True,
        metadata={"description": "Records answered: valid + faulty + malformed (a deal in progress is in `valid`)."},
    )
    valid = StrictInteger(
        required=True,
        metadata={
            "description": "Deals that break no rule, complete or not: the deals in progress are counted here, "
            "and again in `in_progress`."
        },
    )
    in_progress = StrictInteger(
        required=True,
        metadata={
            "description": "Of the valid deals, those whose record stops before the deal's end (status "
            "`in_progress`): a game in progress, or a recording cut short. Each is counted in `valid` too: "
            "`valid - in_progress` deals are valid and complete."
        },
    )
    faulty = StrictInteger(required=True, metadata={"description": "Deals with at least one violation."})
    malformed = StrictInteger(required=True, metadata={"description": "Records answered with a problem."})
    claims_checked = StrictInteger(required=True, metadata={"description": "Deals sent with claims."})
    claims_disagree = StrictInteger(required=True, metadata={"description": "Deals with at least one false claim."})
    complete = StrictBoolean(required=True, metadata={"description": "Every record of the body was answered."})
    unevaluated_from = StrictInteger(
        required=True,
        allow_none=True,
        metadata={
            "description": "When not complete: the index of the first record not evaluated (the body was cut, "
            "stalled or over the line limit, or the instance is shutting down). Send the records from there again."
        },
    )


class BatchResponse(AnswerSchema):
    results = fields.List(fields.Nested(BatchItemSchema), required=True, metadata={"description": "In input order."})
    summary = fields.Nested(BatchSummarySchema, required=True)


class BatchLineSchema(AnswerSchema):
    """One line of the NDJSON answer: an item (``index``, ``id``, ``result`` or ``problem``), or
    the last line, ``summary``."""

    index = StrictInteger()
    id = StrictString(allow_none=True)
    result = fields.Nested(EvaluateResponse)
    digest = fields.Nested(DealDigestSchema)
    problem = fields.Nested(ProblemSchema)
    summary = fields.Nested(BatchSummarySchema)


# OpenAPI 3.1 has no schema for a sequence of JSON texts: the NDJSON forms are declared as
# bytes, which every generator takes, and the schema of each line is given beside them.
NDJSON_DOC = {
    "requestBody": {
        # An empty NDJSON body is an empty batch (answered, with its summary), so the body is
        # optional as the contract goes; generated clients also handle a body of two media
        # types better when it is.
        "required": False,
        "content": {
            NDJSON: {
                "schema": {
                    "type": "string",
                    "format": "binary",
                    "description": "One deal record per line: the `EvaluateRequest` schema (`x-item-schema`).",
                },
                "x-item-schema": {"$ref": "#/components/schemas/EvaluateRequest"},
                "example": "".join(
                    dumps(deal).decode() + "\n"
                    for deal in read_examples("evaluateDealBatch")["replay"].request["deals"]
                ),
            }
        },
    },
    "responses": {
        200: {
            "content": {
                NDJSON: {
                    "schema": {
                        "type": "string",
                        "format": "binary",
                        "description": "One item per record, then the summary: each line a `BatchLine` "
                        "(`x-item-schema`).",
                    },
                    "x-item-schema": {"$ref": "#/components/schemas/BatchLine"},
                }
            }
        }
    },
}


def released(records: Iterable[Any]) -> Iterator[Any]:
    """The records one by one, a list's let go of as they are taken."""
    if not isinstance(records, list):
        yield from records
        return
    for index in range(len(records)):
        record, records[index] = records[index], None
        yield record


def _kept(item: dict[str, Any]) -> Any:
    return item


def _nothing() -> None:
    pass


def evaluate_records(
    records: Iterable[Any],
    language: str = DEFAULT_LANGUAGE,
    detail: str = FULL,
    *,
    observe: Observer | None = None,
    keep: Callable[[dict[str, Any]], Any] = _kept,
    pause: Callable[[], None] = _nothing,
) -> dict[str, Any]:
    """The answer of a JSON batch: an item per record, in order, and the summary.

    Each record is let go of once answered and each item passed through ``keep`` as soon as
    it is made (the HTTP view keeps its bytes, not the objects); ``pause`` is called between
    two records, ``observe`` with what the rules decided of each deal.
    """
    tally = Tally()
    results = []
    for index, data in enumerate(released(records)):
        item = record_item(index, data, observe, language=language, detail=detail)
        del data
        tally.count(item)
        results.append(keep(item))
        pause()
    return {"results": results, "summary": tally.summary()}


def answer_batch(req: dict[str, Any], language: str, **options: Any) -> Answered:
    """The answer to a loaded JSON batch (``options``: those of :func:`evaluate_records`). The
    caller's list of records is left as it is (the HTTP view lets go of its own as it goes)."""
    return Answered(evaluate_records(iter(req["deals"]), language, **options))


EVALUATE_BATCH = Operation(
    "evaluateDealBatch", "/v1/deals/evaluate-batch", None, BatchRequest(), BatchResponse(), answer_batch
)
