"""JSON operations: the strict body reader, and the one decorator every JSON view wears.

flask-smorest's ``arguments`` and ``response`` decorators would wrap each view with work of
their own on every request (webargs' location machinery, context lookups, a second load and a
dump through the schemas). :func:`operation` instead documents the view with the contract's
operation object (:func:`service.contract.openapi.operation_doc`, through ``Blueprint.doc``)
and serves it with the steps it needs: parse the body, load it through the request schema
(by its load plan, see :mod:`service.contract.plans`), call the view, send its answer.

Views build their answers ready to send (card codes formatted at the edge, see
:func:`service.contract.cards.codes`; the core's StrEnums left as they are, since orjson writes
each as its value), so answers are not walked through the response schema
again on every request: for a whole deal that walk cost more than a third of the request.
The response schemas define the contract (openapi.yaml); tests load every kind of answer
back through them and require the exact same JSON (tests/test_api_answers.py), and
Schemathesis checks every fuzzed answer against the spec.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import flask
from flask import Response, request
from flask_smorest import Blueprint
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from service.connection import CLOSE_CONNECTION
from service.contract.batch import EVALUATE_BATCH, LINES_AS_NDJSON, NDJSON
from service.contract.declaration import Operation, load
from service.contract.hints import either, enum_hint
from service.contract.jsonio import BodyError, dumps, parse_body
from service.contract.openapi import operation_doc
from service.contract.problems import FieldError, Hint, ParameterError, ProblemError, too_large, whole
from service.messages import msg

from .layers import telemetry
from .layers.language import request_language

JSON = "application/json"


def answer(op: Operation, req: dict[str, Any], **options: Any) -> dict[str, Any]:
    """``op``'s answer to a loaded request, its texts in the language the request asks for
    (``options``: the operation's own, its query parameters); what the rules decided is counted."""
    answered = op.answer(req, request_language(), **options)
    telemetry.count(answered.decided)
    return answered.answer


def stalled(exc: BaseException | None) -> bool:
    """Whether reading failed because the client stopped sending (the server's body deadline)."""
    while exc is not None:
        if isinstance(exc, TimeoutError):
            return True
        exc = exc.__context__
    return False


def read_body(req: flask.Request, larger: Hint | None = None) -> bytes:
    """The whole body, refused when it cannot be read, stalls, is cut short or is too large
    (a 413 that states the request's limit, with the hint ``larger`` when it has one).

    Whenever the body is not read to its end, the connection is marked to close after the
    answer: where the next request would begin on it is unknown.
    """
    try:
        data = req.get_data(cache=True)
    except Exception as exc:
        req.environ[CLOSE_CONNECTION] = True
        if stalled(exc):
            raise ProblemError(
                408,
                "request-timeout",
                msg("error.body_timeout.detail"),
                [whole("body_timeout", msg("error.body_timeout"))],
            ) from None
        if isinstance(exc, RequestEntityTooLarge):  # from the Content-Length
            raise too_large(req.max_content_length, larger) from None
        if isinstance(exc, HTTPException) and not isinstance(exc, ClientDisconnected):
            raise
        # Whatever else the server's stream raises (a broken chunked framing, a client gone): unreadable.
        raise ProblemError(
            400,
            "malformed-body",
            msg("error.unreadable_body.detail"),
            [whole("unreadable_body", msg("error.unreadable_body", reason=type(exc).__name__))],
        ) from None
    announced = req.content_length
    if announced is not None:
        if len(data) != announced:
            req.environ[CLOSE_CONNECTION] = True
            raise ProblemError(
                400,
                "malformed-body",
                msg("error.truncated_body.detail"),
                [whole("truncated_body", msg("error.truncated_body", len(data), announced=announced))],
            )
        return data
    # Werkzeug stops a chunked body (no Content-Length) at the limit without a word; one
    # byte more in the stream means the body was larger.
    limit = req.max_content_length
    if limit is not None and len(data) >= limit and req.environ["wsgi.input"].read(1):
        req.environ[CLOSE_CONNECTION] = True
        raise too_large(limit, larger)
    return data


def read_json(req: flask.Request, accepted: tuple[str, ...] = (JSON,)) -> Any:
    """The body as JSON: 415 for another media type, 400 when empty or malformed."""
    if not req.is_json:
        kinds = either(accepted)
        raise ProblemError(
            415,
            "unsupported-media-type",
            msg(
                "error.unsupported_media_type.detail" if req.mimetype else "error.unsupported_media_type.none",
                kinds=kinds,
                got=req.mimetype[:80],
            ),
            [whole("unsupported_media_type", msg("error.unsupported_media_type", kinds=kinds))],
            headers={"Accept-Post": ", ".join(accepted)},
        )
    data = read_body(req)
    if not data.strip():
        raise ProblemError(
            400,
            "malformed-json",
            msg("error.empty_body.detail"),
            [whole("empty_body", msg("error.empty_body"))],
        )
    try:
        return parse_body(data)
    except BodyError as exc:
        raise ProblemError(
            400,
            "malformed-json",
            msg("error.malformed_json.detail"),
            [FieldError(exc.pointer, "malformed_json", exc.message, _lines_hint(accepted) if exc.lines else None)],
        ) from None


def _lines_hint(accepted: tuple[str, ...]) -> Hint:
    """The hint to a body of JSON values one per line: NDJSON, where the operation takes it;
    elsewhere, one object, and where NDJSON goes."""
    if NDJSON in accepted:
        return LINES_AS_NDJSON
    return Hint(msg("error.malformed_json.extra.lines", path=EVALUATE_BATCH.path, media_type=NDJSON))


def query_choice(req: flask.Request, name: str, choices: tuple[str, ...], enum: str) -> str:
    """The value of the query parameter ``name``, one of ``choices`` (the values of the contract's
    ``enum``; the first when absent): 400 naming the parameter and the values it takes otherwise,
    with the one it was probably meant to be."""
    value = req.args.get(name)
    if value is None:
        return choices[0]
    once = len(req.args.getlist(name)) == 1
    if value in choices and once:
        return value
    said = msg("error.invalid_parameter", name=name, values=", ".join(choices))
    hint = enum_hint(value, choices, enum) if once else None  # (given twice: no value is the fault)
    error = ParameterError("", "invalid_parameter", said, hint, parameter=name)
    raise ProblemError(400, "invalid-parameter", msg("error.invalid_parameter.detail"), [error])


def operation(
    blp: Blueprint,
    op: Operation,
    *,
    streams: Mapping[str, Callable[[flask.Request], Response]] | None = None,
    max_body: int | None = None,
    doc: Mapping[str, Any] | None = None,
    parameters: tuple[str, ...] = (),
) -> Callable[[Callable[[Any], Any]], Callable[[], Response]]:
    """The contract's operation ``op``, served by a view of ``blp``: documented with its schemas,
    its request examples (and their answers), its problem responses and its ``operationId``.

    ``streams`` serves other media types of the body with handlers of their own (which read
    the request themselves), ``max_body`` replaces the application's body limit for the JSON
    form, ``doc`` adds to the operation's documentation (those other media types), and
    ``parameters`` names the components of the query parameters it reads. A view may answer
    with a Response of its own (another media type); otherwise its answer is sent as JSON.
    """
    accepted = tuple(dict.fromkeys((JSON, *(kind for kind in streams or {} if kind))))

    def decorate(view: Callable[[Any], Any]) -> Callable[[], Response]:
        plan = op.plan

        @functools.wraps(view)
        def serve() -> Response:
            # The request itself, not its context-local proxy (typed as the request, hence the
            # ignore): read_json looks at it often.
            req = request._get_current_object()  # type: ignore[attr-defined]
            if streams is not None:
                handler = streams.get(req.mimetype)
                if handler is not None:
                    return handler(req)
            if max_body is not None:
                req.max_content_length = max_body
            answer = view(load(plan, read_json(req, accepted)))
            if isinstance(answer, Response):
                return answer
            return Response(dumps(answer), mimetype="application/json")

        documented = (
            blp.doc(**doc)(blp.doc(**operation_doc(op, parameters))(serve))
            if doc
            else blp.doc(**operation_doc(op, parameters))(serve)
        )
        return blp.route(op.path, methods=["POST"])(documented)  # type: ignore[no-any-return]

    return decorate
