"""Batch evaluation for CI replays (rules.md §2–§9): POST /v1/deals/evaluate-batch, served.

Two forms of one operation. NDJSON (``application/x-ndjson``) streams: each line is read,
evaluated and answered before the next is read, so memory stays flat whatever the length of
the body, and the answer's first lines leave while the last ones are still arriving. JSON
(``application/json``, ``{"deals": [...]}``) is the same work for clients that cannot stream,
bounded more tightly since it is parsed and answered whole.

Sharing the process: a worker computes one deal at a time. Once a batch has computed for
:data:`PAUSE_SECONDS`, it lets the worker's other requests run after its current record (the
server's pause, :data:`~service.connection.PAUSE`: a switch to the other greenlets), so a
request arriving during a batch waits about a millisecond per batch in progress on its
worker, not for the batch. (Pausing after every record cost a switch per deal, some 3 % of a
batched deal's time, for no request answered sooner that a person or a client could see.)
The batch itself keeps the worker's heartbeat going the same way, so gunicorn's worker
timeout never cuts it; the server's body deadline still applies to each read.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import flask
import orjson
from flask import Response
from flask_smorest import Blueprint
from werkzeug.exceptions import ClientDisconnected
from werkzeug.wsgi import get_input_stream

from service.connection import CLOSE_CONNECTION, DRAINING, PAUSE, STREAMED
from service.contract.batch import EVALUATE_BATCH, LARGER_AS_NDJSON, NDJSON, NDJSON_DOC
from service.contract.declaration import load
from service.contract.jsonio import NotPlainError, dumps, plain_items
from service.contract.openapi import DETAIL
from service.contract.problems import ProblemError
from service.contract.records import (
    BATCH_MAX_LINES,
    JSON_BATCH_MAX_BYTES,
    JSON_BATCH_MAX_DEALS,
    LINE_READ_BYTES,
    Observer,
    Tally,
    drop_rest_of_line,
    line_item,
    over_limit,
    stop_item,
    too_long_item,
    without_line_end,
)
from service.messages import msg

from ..layers import telemetry
from ..layers.language import request_language
from ..parsing import JSON, operation, read_body, read_json, stalled
from .evaluate import requested_detail

FLUSH_BYTES = 32 * 1024
"""Answer lines are sent in writes of about this size..."""
READ_BYTES = 64 * 1024
"""Buffer of the reader cutting lines from Werkzeug's stream."""
FLUSH_SECONDS = 0.05
"""...or as soon as this long has passed since the last write, so a slow upload sees its
answers come back as it goes."""

blp = Blueprint(
    "batch",
    __name__,
    description="Evaluating many deal records in one request: replays of recorded games in CI.",
)


PAUSE_SECONDS = 0.001
"""How long a batch computes before it lets the worker's other requests run."""


def _no_pause() -> None:
    pass


def pacer(environ: dict[str, Any]) -> Callable[[], None]:
    """What a batch calls after each record: the server's pause, once :data:`PAUSE_SECONDS`
    have passed since the last one."""
    pause: Callable[[], None] | None = environ.get(PAUSE)
    if pause is None:
        return _no_pause
    clock = time.monotonic
    last = clock()

    def pace() -> None:
        nonlocal last
        now = clock()
        if now - last >= PAUSE_SECONDS:
            pause()
            last = clock()

    return pace


class _CutShortError(Exception):
    """The body ended before its Content-Length (a server may hand over what came, silently)."""


def _read_failure(index: int, exc: BaseException, language: str) -> dict[str, Any]:
    if stalled(exc):
        return stop_item(index, 408, "request-timeout", "body_timeout", msg("error.body_timeout.batch"), language)
    if isinstance(exc, ClientDisconnected | _CutShortError):
        return stop_item(index, 400, "malformed-body", "truncated_body", msg("error.truncated_body.batch"), language)
    reason = msg("error.unreadable_body", reason=type(exc).__name__)
    return stop_item(index, 400, "malformed-body", "unreadable_body", reason, language)


def _lines(
    stream: IO[bytes],
    expected: int | None,
    observe: Observer,
    tally: Tally,
    draining: Callable[[], bool],
    environ: dict[str, Any],
    language: str,
    detail: str,
) -> Iterator[dict[str, Any]]:
    """Every item of an NDJSON body of ``expected`` bytes (None: chunked), read one line at a
    time; at a stop, the item that says why."""
    pause = pacer(environ)
    received = 0
    index = 0
    stop: dict[str, Any] | None = None

    def short() -> bool:
        return expected is not None and received < expected

    while True:
        if draining():
            stop = stop_item(index, 503, "service-unavailable", "draining", msg("error.draining"), language)
            break
        try:
            line = stream.readline(LINE_READ_BYTES)
            received += len(line)
            if short() and not (line.endswith(b"\n") or len(line) == LINE_READ_BYTES):
                raise _CutShortError  # the end came early, within a line or between two
            if not line:
                break
            if index == BATCH_MAX_LINES:
                said = msg("error.too_many_lines", limit=BATCH_MAX_LINES)
                stop = stop_item(index, 413, "body-too-large", "too_many_lines", said, language)
                break
            if over_limit(line):
                dropped, ended = drop_rest_of_line(stream, line)
                received += dropped
                if not ended and short():
                    raise _CutShortError
                item = too_long_item(index, language=language)
            else:
                item = line_item(index, without_line_end(line), observe, language=language, detail=detail)
        except Exception as exc:
            stop = _read_failure(index, exc, language)
            break
        tally.count(item)
        yield item
        index += 1
        pause()  # the worker's other requests run here (see the module's docstring)
    if stop is not None:
        # Where the rest of the body would begin is unknown, or it is not wanted: the
        # connection ends with this answer (the worker reads the flag once it has streamed).
        tally.unevaluated_from = index
        environ[CLOSE_CONNECTION] = True
        yield stop


def _ndjson(req: flask.Request) -> Response:
    """The streamed answer to an NDJSON body."""
    environ = req.environ
    # Not the application's body limit: a batch is bounded per line and in lines instead.
    raw = get_input_stream(environ, max_content_length=None)
    # Werkzeug's stream for a body of known length reads a line a byte at a time: buffered, a
    # line costs a few calls. A server's own stream (gunicorn's) has a readline that returns
    # each line as soon as it is in, which a slow upload needs (see service.serving.worker for its cost).
    stream: IO[bytes] = io.BufferedReader(raw, READ_BYTES) if isinstance(raw, io.RawIOBase) else raw
    # A chunked upload may come from a client that waits for each answer before it sends the
    # next line: each answer goes out at once. A body of known length is all on its way.
    interactive = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    counts = telemetry.BatchTelemetry()
    config = flask.current_app.config
    tally = Tally()
    language = request_language(req)
    detail = requested_detail(req)

    def draining() -> bool:
        return bool(config.get(DRAINING))

    def answer() -> Iterator[bytes]:
        out: list[bytes] = []
        size, flushed = 0, time.monotonic()
        for item in _lines(stream, req.content_length, counts.observe, tally, draining, environ, language, detail):
            line = dumps(item) + b"\n"
            out.append(line)
            size += len(line)
            if interactive or size >= FLUSH_BYTES or time.monotonic() - flushed >= FLUSH_SECONDS:
                yield b"".join(out)
                out, size, flushed = [], 0, time.monotonic()
        summary = tally.summary()
        counts.done(environ, summary)
        out.append(dumps({"summary": summary}) + b"\n")
        yield b"".join(out)

    environ[STREAMED] = True
    return Response(answer(), mimetype=NDJSON)


def _no_body(req: flask.Request) -> Response:
    """A request without a content type: an empty batch when it has no body either."""
    if read_body(req).strip():
        read_json(req, (JSON, NDJSON))  # refuses it: 415, naming the media types taken
    return Response(dumps(_evaluate([], req, requested_detail(req))), mimetype=JSON)


def _json(req: flask.Request) -> Response:
    """The JSON form: its records read one at a time while the body is plainly a batch, as an
    NDJSON body's lines are; otherwise the body read whole, through the request schema, which
    answers it exactly. (Either way, a fault of the body is found before a bad ``detail``.)"""
    req.max_content_length = JSON_BATCH_MAX_BYTES
    body = read_body(req, LARGER_AS_NDJSON)
    try:
        detail = requested_detail(req)
    except ProblemError:
        load(EVALUATE_BATCH.plan, read_json(req, (JSON, NDJSON)))  # a fault of the body is told first
        raise
    try:
        answer = _evaluate(plain_items(body, "deals", JSON_BATCH_MAX_DEALS), req, detail)
    except NotPlainError:
        answer = _evaluate(load(EVALUATE_BATCH.plan, read_json(req, (JSON, NDJSON)))["deals"], req, detail)
    return Response(dumps(answer), mimetype=JSON)


@operation(
    blp,
    EVALUATE_BATCH,
    streams={JSON: _json, NDJSON: _ndjson, "": _no_body},
    max_body=JSON_BATCH_MAX_BYTES,
    doc=NDJSON_DOC,
    parameters=(DETAIL,),
)
def post_evaluate_batch(req: dict[str, Any]) -> dict[str, Any]:
    """Evaluate many deal records: CI replays.

    Each record is the `evaluateDeal` request, with an optional `id` (echoed) and `claims`
    (what the client's engine computed, checked). Each gets one item in input order: its
    `result` (the `evaluateDeal` answer) or, when the record is not valid, a `problem` whose
    pointers point into the record. One bad record never fails the others; the `summary`
    counts them.

    **NDJSON** (`Content-Type: application/x-ndjson`): one record per line, at most
    100 000 lines of at most 64 KiB each. The answer is NDJSON too, streamed: one item per
    line as each is evaluated, then a last line `{"summary": {...}}`. An empty line gets a
    problem item (`empty_line`), a line over the limit `line_too_long`. If the body is cut
    short, stalls, passes the line limit, or the instance begins to shut down, the stream
    ends with a problem item at the first record not evaluated and a summary with
    `complete: false` and `unevaluated_from`: send those records again. A client that
    sends the whole body before reading the answer is served too: what it does not take
    yet is kept for it (4 MiB in memory, the rest in a temporary file).

    **JSON** (`Content-Type: application/json`): `{"deals": [...]}`, at most 1 000 records
    and 4 MiB; the answer is `{"results": [...], "summary": {...}}` with the same items.
    A request with neither a body nor a content type is an empty batch.
    """
    # Served by _json: this view documents the operation (the decorator reads its schemas).
    return _evaluate(req["deals"], flask.request, requested_detail(flask.request))


def _evaluate(records: Iterable[Any], req: flask.Request, detail: str) -> dict[str, Any]:
    """The JSON form's answer: an item per record, and the summary.

    Each item is written as JSON as soon as it is made, and each record let go once answered,
    so the batch holds bytes rather than a growing heap of objects: a hundred answers kept as
    objects cost the worker more in garbage collection than their evaluation's record loads
    (measured in docs/performance.md). The bytes go into the answer as they are. The counts
    reach the metrics at the end only: until then the batch may still be refused whole.
    """
    counts = telemetry.BatchTelemetry(every=None)
    answer = EVALUATE_BATCH.answer(
        {"deals": records},
        request_language(req),
        detail=detail,
        observe=counts.observe,
        keep=_as_bytes,
        pause=pacer(req.environ),  # the worker's other requests run here (see the module's docstring)
    ).answer
    counts.done(req.environ, answer["summary"])
    return answer


def _as_bytes(item: dict[str, Any]) -> orjson.Fragment:
    return orjson.Fragment(dumps(item))
