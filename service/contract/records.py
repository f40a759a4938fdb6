"""Deal records one by one: the work of a batch, shared by the batch operation and the command line.

A record is the ``POST /v1/deals/evaluate`` request object (with its optional ``id`` and
``claims``). Each becomes one *item*: ``{"index", "id", "result"}`` when it is a valid
request, whatever the verdict about the deal, or ``{"index", "id", "problem"}`` when it is
not (not JSON, not an object, a field refused), with the problem document a single request
would have been answered with (a record that is a whole JSON batch, ``{"deals": [...]}``, is
told besides to go as the JSON form). One bad record never affects another. Pointers in an item
point into its own record, so the same record gets the same item in either form of a batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import marshmallow as ma

from service.messages import Bytes, Message, msg
from service.rules.deal import Status
from service.texts import DEFAULT_LANGUAGE

from .components import FULL, SUMMARY
from .declaration import Decided
from .evaluate import EVALUATE, ID_MAX_LENGTH, answer_record
from .jsonio import BodyError, parse_body
from .openapi import JSON
from .problems import FieldError, Hint, errors_from_messages, problem_document, whole

LINE_MAX_BYTES = 64 * 1024
"""Longest line of an NDJSON batch: the largest single request body (``MAX_BODY_BYTES``). The
line's end (LF or CR LF) does not count."""
LINE_READ_BYTES = LINE_MAX_BYTES + 2
"""What to ask a ``readline`` for: a record at the limit with its CR LF, or enough to tell
that a line is over it (:func:`over_limit`)."""
BATCH_MAX_LINES = 100_000
"""Most lines in one NDJSON batch; the lines after it are answered as not evaluated."""
JSON_BATCH_MAX_DEALS = 1_000
"""Most deals in one ``application/json`` batch (send more as NDJSON, which streams)."""
JSON_BATCH_MAX_BYTES = 4 * 1024 * 1024
"""Largest ``application/json`` batch body: it is parsed whole, unlike NDJSON."""

Observer = Callable[[Decided], None]
"""Told what the rules decided of each deal evaluated (the metrics count it)."""

JSON_BATCH_SHAPE = '{"deals": [...]}'
"""The JSON form of a batch, as its hints say it."""
JSON_BATCH_AS_JSON = Hint(msg("error.json_batch_record", shape=JSON_BATCH_SHAPE, media_type=JSON), (JSON,))
"""The hint to a record that is a whole JSON batch (sent as one line of NDJSON): its content type."""


def json_batch(data: Any) -> bool:
    """Whether ``data`` is the body of a JSON batch, ``{"deals": [...]}``, rather than one record."""
    return isinstance(data, dict) and set(data) == {"deals"} and isinstance(data["deals"], list)


def _id_of(data: Any) -> str | None:
    """The record's ``id``, when it has a usable one, to echo even beside a problem."""
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, str) and len(value) <= ID_MAX_LENGTH:
            return value
    return None


def without_line_end(line: bytes) -> bytes:
    return line.rstrip(b"\n").rstrip(b"\r")


def over_limit(line: bytes) -> bool:
    """Whether a line read with :data:`LINE_READ_BYTES` is a record over the limit (when it has
    no end of line, its rest is still to be read and dropped)."""
    return len(without_line_end(line)) > LINE_MAX_BYTES


def drop_rest_of_line(stream: IO[bytes], line: bytes) -> tuple[int, bool]:
    """Read and drop the rest of ``line``, a line over the limit, never holding it: the bytes
    read after ``line``, and whether the line ended (False: the stream ended first)."""
    read = 0
    while line and not line.endswith(b"\n"):
        line = stream.readline(LINE_READ_BYTES)
        read += len(line)
    return read, line.endswith(b"\n")


def stop_item(index: int, status: int, kind: str, code: str, detail: Message, language: str) -> dict[str, Any]:
    """The item of a line the batch answers as a whole, not as a record: its fault is ``detail``."""
    return problem_item(index, None, status, kind, detail, whole(code, detail), language=language)


def too_long_item(index: int, *, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The item of a line over the limit."""
    detail = msg("error.line_too_long", limit=Bytes(LINE_MAX_BYTES))
    return stop_item(index, 413, "body-too-large", "line_too_long", detail, language)


def problem_item(
    index: int,
    record_id: str | None,
    status: int,
    kind: str,
    detail: Message,
    *errors: FieldError,
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    return {
        "index": index,
        "id": record_id,
        "problem": problem_document(status, kind, detail, errors, language=language),
    }


def record_item(
    index: int, data: Any, observe: Observer | None = None, *, language: str = DEFAULT_LANGUAGE, detail: str = FULL
) -> dict[str, Any]:
    """The item for one parsed record, its texts in ``language``: its ``result``, or with
    ``detail`` summary its ``digest``."""
    try:
        req = EVALUATE.plan.load(data)
    except ma.ValidationError as exc:
        errors = errors_from_messages(exc.messages)
        if json_batch(data):
            # A whole batch sent as one record: its "deals" is no misspelt "dealer", it is the batch's,
            # and said first, as the record's other faults (no players, no dealer) follow from it.
            batch = [
                FieldError(e.pointer, e.code, e.message, JSON_BATCH_AS_JSON) for e in errors if e.pointer == "/deals"
            ]
            errors = batch + [e for e in errors if e.pointer != "/deals"]
        return problem_item(
            index,
            _id_of(data),
            422,
            "invalid-request",
            msg("error.invalid_record"),
            *errors,
            language=language,
        )
    answer, decided = answer_record(req, language, detail)
    if observe is not None:
        observe(decided)
    return {"index": index, "id": req["id"], "digest" if detail == SUMMARY else "result": answer}


def line_item(
    index: int, line: bytes, observe: Observer | None = None, *, language: str = DEFAULT_LANGUAGE, detail: str = FULL
) -> dict[str, Any]:
    """The item for one line of NDJSON (its end of line already stripped)."""
    if not line.strip():
        return problem_item(
            index,
            None,
            400,
            "malformed-json",
            msg("error.empty_line.detail"),
            whole("empty_line", msg("error.empty_line")),
            language=language,
        )
    try:
        data = parse_body(line)
    except BodyError as exc:
        return problem_item(
            index,
            None,
            400,
            "malformed-json",
            msg("error.malformed_json.line"),
            FieldError(exc.pointer, "malformed_json", exc.message),
            language=language,
        )
    return record_item(index, data, observe, language=language, detail=detail)


@dataclass
class Tally:
    """The counts of a batch, kept as its items go out."""

    deals: int = 0
    valid: int = 0
    """Deals that break no rule, complete or not."""
    in_progress: int = 0
    """Of the valid deals, those whose record stops before the deal's end (counted in ``valid`` too)."""
    faulty: int = 0
    malformed: int = 0
    claims_checked: int = 0
    claims_disagree: int = 0
    unevaluated_from: int | None = None
    """Set when a batch stops before the end of its body: the first record not evaluated."""

    def count(self, item: dict[str, Any]) -> None:
        self.deals += 1
        result = item.get("result") or item.get("digest")
        if result is None:
            self.malformed += 1
            return
        if result["valid"]:
            self.valid += 1
            if result["status"] == Status.IN_PROGRESS:
                self.in_progress += 1
        else:
            self.faulty += 1
        claims = result["claims"]
        if claims is not None:
            self.claims_checked += 1
            if not claims["agree"]:
                self.claims_disagree += 1

    def merge(self, part: Tally) -> None:
        """Add the counts of ``part`` (the tally of some of the same records) to these."""
        self.deals += part.deals
        self.valid += part.valid
        self.in_progress += part.in_progress
        self.faulty += part.faulty
        self.malformed += part.malformed
        self.claims_checked += part.claims_checked
        self.claims_disagree += part.claims_disagree

    def summary(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "valid": self.valid,
            "in_progress": self.in_progress,
            "faulty": self.faulty,
            "malformed": self.malformed,
            "claims_checked": self.claims_checked,
            "claims_disagree": self.claims_disagree,
            "complete": self.unevaluated_from is None,
            "unevaluated_from": self.unevaluated_from,
        }
