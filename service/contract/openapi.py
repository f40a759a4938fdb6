"""What the contract documents besides each operation's own schemas: the operation object
itself, the problem document (every error answer), the error responses of an operation
reading a JSON body, and the parameters and headers the operations share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from marshmallow import fields

from .common import AnswerSchema
from .fields import EnumField
from .problems import PROBLEM_MIMETYPE

if TYPE_CHECKING:
    from .declaration import Operation

JSON = "application/json"


class FieldErrorSchema(AnswerSchema):
    pointer = fields.String(
        required=True,
        metadata={"description": "JSON pointer (RFC 6901) into the request body; empty for the whole body."},
    )
    code = EnumField("FieldErrorCode", required=True)
    message = fields.String(
        required=True, metadata={"description": "The fault for people, in the language asked for (`Accept-Language`)."}
    )
    hint = fields.String(
        metadata={
            "description": "How to put the fault right, for people, in the language asked for, when the service "
            "can tell: the card codes, field names, enum values or paths probably meant (other names of a value "
            "included: « nord » is north, `petite` is prise), the NDJSON form of the batch, the shape expected."
        }
    )
    suggestions = fields.List(
        fields.String(),
        metadata={
            "description": "With a `hint`, what a program can send instead, likeliest first: card codes "
            "(`unknown_card`), field names (`unknown_field`), an enum's values (`enum`, `type`; none for an enum "
            "of numbers, whose hint says the number), paths or methods (`not_found`, `method_not_allowed`), a "
            "media type (the batch's NDJSON form), the shape of the body (a batch that is not an object)."
        },
    )
    limit = fields.Integer(metadata={"description": "`body_too_large`: the most bytes the operation takes in a body."})
    parameter = fields.String(
        metadata={"description": "A fault in a query parameter: its name (the pointer is then empty)."}
    )


class ProblemSchema(AnswerSchema):
    """RFC 9457 problem details, with the located faults in `errors`."""

    type = fields.String(required=True, metadata={"description": "Problem type: a relative URI under /problems/."})
    title = fields.String(required=True, metadata={"description": "The status, in the language asked for."})
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "What went wrong, in the language asked for."})
    instance = fields.String(metadata={"description": "The request path."})
    errors = fields.List(fields.Nested(FieldErrorSchema), required=True)


BODY_ERRORS = {
    400: "The body is not JSON: malformed, empty, not UTF-8, nested too deeply, with duplicate keys, "
    "NaN or Infinity, or numbers out of range; or a query parameter has a value the operation does not take "
    "(`invalid_parameter`, the parameter named in `errors[].parameter`).",
    408: "The body stopped arriving: no bytes of it for longer than the server waits "
    "(`BODY_TIMEOUT_SECONDS`). The connection is closed after this answer.",
    405: "The path does not take this method; the `Allow` header lists those it does.",
    413: "The body is larger than the operation accepts; the error states the limit (`errors[].limit`, in bytes) "
    "and, for the batch's JSON form, points to its NDJSON form.",
    415: "The content type is not application/json.",
    422: "Well-formed JSON that is not a valid request. Besides what this schema states, the service "
    "refuses what a schema cannot express: a card listed twice across fields, a card both in the "
    "hand and in the trick, more cards than the table size allows, a seat beyond the number of "
    "players (`seat_out_of_range`, wherever a seat is read, claims included), a field that does not apply at "
    "this number of players. Each fault has a pointer; some have a `hint`.",
}

OVERLOADED = (
    "The instance is overloaded (code `overloaded`): it did not serve the request, nothing of it was done. "
    "Send it again once the `Retry-After` seconds have passed; a load balancer may send it to an instance "
    "with room sooner. Every operation may answer it, whatever its body."
)


ACCEPT_LANGUAGE = "AcceptLanguage"
"""The request header every operation reads, the language of its texts for people (the name of
its component, which apispec turns into a reference)."""
LANGUAGE_HEADERS = {"Content-Language": "ContentLanguage"}
"""The answer header of every operation: the language its texts are in."""

DETAIL = "Detail"
"""The query parameter of the deal evaluations: the whole answer, or the digest a pipeline acts on."""

DUPLICATE_SHEET = "DuplicateSheetParameter"
"""The query parameter of a duplicate tournament's spreadsheet file: which ranking it gives."""

SHARED_COMPONENTS: dict[str, dict[str, Any]] = {
    "parameters": {
        DUPLICATE_SHEET: {
            "in": "query",
            "name": "sheet",
            "required": False,
            "description": "With `Accept: text/csv` only: the file's ranking, `general` (the default), `alterne` or "
            "`feuilles` (the feuilles de route). The JSON answer holds them all and ignores it.",
            "schema": {"$ref": "#/components/schemas/DuplicateSheet"},
        },
        DETAIL: {
            "in": "query",
            "name": "detail",
            "required": False,
            "description": "`full` (the default): the whole evaluation. `summary`: per deal only what a pipeline "
            "acts on, the `DealDigest` (id, status, validity, the root faults with their consequences counted, "
            "the scores, the claims checked): cheaper to compute and to send.",
            "schema": {"$ref": "#/components/schemas/Detail"},
        },
        "AcceptLanguage": {
            "in": "header",
            "name": "Accept-Language",
            "required": False,
            "description": "The language of the texts for people in the answer (messages, explanations, "
            "problem titles and details): `fr` (or `fr-FR`, `fr-CA`…) for French; English otherwise. Codes "
            "never change with it.",
            "schema": {"type": "string"},
            "examples": {"french": {"value": "fr-FR,fr;q=0.9"}, "english": {"value": "en"}},
        },
    },
    "headers": {
        "RetryAfter": {
            "description": "Seconds to wait before sending the request again (the instance's `RETRY_AFTER_SECONDS`). "
            "Exposed to the pages of the origins CORS allows.",
            "required": True,
            "schema": {"type": "integer", "minimum": 0},
        },
        "ContentLanguage": {
            "description": "The language of the answer's texts for people: `fr` or `en`. Answers whose texts "
            "follow `Accept-Language` also carry `Vary: Accept-Language`.",
            "required": True,
            "schema": {"$ref": "#/components/schemas/Language"},
        },
    },
}
"""Parameters and headers the operations share, registered once as components of the contract."""


def operation_doc(op: Operation, parameters: tuple[str, ...] = ()) -> dict[str, Any]:
    """The OpenAPI operation object of ``op`` (schemas as marshmallow schemas, components by
    name, which the spec's builder turns into references): its request and answer with their
    examples (each request example's answer is the 200's example of the same name), the
    problem answers of an operation that reads a JSON body, the ``Accept-Language`` parameter
    and the query ``parameters`` named."""
    examples = op.examples  # read from its file at each access: once here
    requests = {name: {"summary": e.summary, "value": e.request} for name, e in examples.items()}
    answered = {name: {"summary": e.summary, "value": e.answer} for name, e in examples.items()}
    responses: dict[int, Any] = {
        200: {
            "description": "OK",
            "headers": LANGUAGE_HEADERS,
            "content": {JSON: {"schema": op.response_schema, "examples": answered}},
        }
    }
    for status, description in sorted(BODY_ERRORS.items()):
        responses[status] = {
            "description": description,
            "headers": LANGUAGE_HEADERS,
            "content": {PROBLEM_MIMETYPE: {"schema": ProblemSchema}},
        }
    responses[503] = {
        "description": OVERLOADED,
        "headers": {**LANGUAGE_HEADERS, "Retry-After": "RetryAfter"},
        "content": {PROBLEM_MIMETYPE: {"schema": ProblemSchema}},
    }
    return {
        "operationId": op.operation_id,
        "parameters": [ACCEPT_LANGUAGE, *parameters],
        "requestBody": {"required": True, "content": {JSON: {"schema": op.request_schema, "examples": requests}}},
        "responses": responses,
    }
