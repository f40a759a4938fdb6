"""What a replay keeps of each record's item: its verdict, and the details of a failure.

An item (see :mod:`service.api.pipeline.records`) carries the whole evaluation: tricks,
points, score. The summary, the list of failures and the JUnit report need far less, and
the less a worker process sends back the less the parent has to unpickle: an
:class:`Outcome` is a few fields for a deal that passes, and the faults only for one that
does not. The same text describes a failure on the terminal and in the report.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from service.api.pipeline.records import Tally

from .inputs import Record

POINTERS_NAMED = 5
"""False claims named in a failure's one-line message (its details list them all)."""

VALID = "valid"
FAULTY = "faulty"
MALFORMED = "malformed"

# User-facing text, in one place for the translation to come.
FAULTY_DEAL = "faulty deal"
CLAIMS_DISAGREE = "claims disagree"
MALFORMED_RECORD = "malformed record"
TRICK = "trick {trick}"
SEAT = "seat {seat}"
CARD = "card {card}"
MORE_VIOLATIONS = "(and {count} more violations)"
MISMATCH = "{pointer}: claimed {claimed}, correct {correct}"
FIELD_ERROR = "{pointer} ({code}): {message}"
RECORD_ERROR = "{code}: {message}"
MORE_POINTERS = "and {count} more"


class Violation(NamedTuple):
    code: str
    trick: int | None
    seat: int | None
    card: str | None
    message: str


class Mismatch(NamedTuple):
    pointer: str
    claimed: Any
    correct: Any
    message: str


class FieldProblem(NamedTuple):
    pointer: str
    code: str
    message: str


class Outcome(NamedTuple):
    """One record's verdict, with what is needed to report it."""

    file_no: int
    pos: int
    id: str | None
    verdict: str
    """VALID, FAULTY or MALFORMED."""
    agree: bool | None
    """Whether its claims agree; None when it had none."""
    violations: tuple[Violation, ...] = ()
    mismatches: tuple[Mismatch, ...] = ()
    detail: str = ""
    """A malformed record: the problem's detail."""
    errors: tuple[FieldProblem, ...] = ()

    @property
    def passed(self) -> bool:
        return self.verdict == VALID and self.agree is not False


def settle(record: Record, item: dict[str, Any], tally: Tally) -> Outcome:
    """Count ``item`` (the evaluation of ``record``) in ``tally``, and keep what is reported of it."""
    tally.count(item)
    result = item.get("result")
    if result is None:
        problem = item["problem"]
        return Outcome(
            record.file_no,
            record.pos,
            item["id"],
            MALFORMED,
            None,
            detail=problem["detail"],
            errors=tuple(FieldProblem(e["pointer"], e["code"], e["message"]) for e in problem["errors"]),
        )
    claims = result["claims"]
    agree = None if claims is None else bool(claims["agree"])
    verdict = VALID if result["valid"] else FAULTY
    if verdict == VALID and agree is not False:
        return Outcome(record.file_no, record.pos, item["id"], verdict, agree)
    return Outcome(
        record.file_no,
        record.pos,
        item["id"],
        verdict,
        agree,
        violations=tuple(
            Violation(v["code"], v["trick"], v["seat"], v["card"], v["message"]) for v in result["violations"]
        ),
        mismatches=()
        if claims is None
        else tuple(Mismatch(m["pointer"], m["claimed"], m["correct"], m["message"]) for m in claims["mismatches"]),
    )


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with its control characters and lone surrogates escaped: a record's id may hold
    them, and a terminal should not get them (nor can UTF-8 encode a lone surrogate)."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _plain(value: Any) -> Any:
    # Points are halves carried as floats: 41.0 reads better as 41.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def shown(value: Any) -> str:
    """A claimed or correct value as JSON (``null``, ``[0, 1]``)."""
    return json.dumps(_plain(value))


def violation_head(v: Violation) -> str:
    """``revoke (trick 3, seat 1)``."""
    where = [TRICK.format(trick=v.trick)] if v.trick is not None else []
    where += [SEAT.format(seat=v.seat)] if v.seat is not None else []
    return f"{v.code} ({', '.join(where)})" if where else v.code


def violation_line(v: Violation) -> str:
    card = f", {CARD.format(card=v.card)}" if v.card is not None else ""
    return f"{violation_head(v)}{card}: {v.message}"


def mismatch_line(m: Mismatch) -> str:
    return MISMATCH.format(pointer=m.pointer, claimed=shown(m.claimed), correct=shown(m.correct))


def error_line(e: FieldProblem) -> str:
    if not e.pointer:  # the record as a whole (not JSON, not an object)
        return RECORD_ERROR.format(code=e.code, message=e.message)
    return FIELD_ERROR.format(pointer=e.pointer, code=e.code, message=e.message)


def failure_message(o: Outcome) -> str:
    """One line: why a deal failed (``faulty deal: revoke (trick 3, seat 1); claims disagree: /claims/points``)."""
    parts = []
    if o.verdict == FAULTY and o.violations:
        parts.append(f"{FAULTY_DEAL}: {violation_head(o.violations[0])}")
    elif o.verdict == FAULTY:
        parts.append(FAULTY_DEAL)
    if o.agree is False:
        pointers = [m.pointer for m in o.mismatches[:POINTERS_NAMED]]
        if len(o.mismatches) > POINTERS_NAMED:
            pointers.append(MORE_POINTERS.format(count=len(o.mismatches) - POINTERS_NAMED))
        parts.append(f"{CLAIMS_DISAGREE}: {', '.join(pointers)}")
    return "; ".join(parts)


def failure_details(o: Outcome) -> str:
    """Every violation and every mismatch, one a line."""
    lines = []
    if o.verdict == FAULTY:
        lines += [f"{FAULTY_DEAL}:"] + [f"  {violation_line(v)}" for v in o.violations]
    if o.agree is False:
        lines += [f"{CLAIMS_DISAGREE}:"] + [f"  {mismatch_line(m)} — {m.message}" for m in o.mismatches]
    return "\n".join(lines)


def error_message(o: Outcome) -> str:
    return f"{MALFORMED_RECORD}: {o.detail}"


def error_details(o: Outcome) -> str:
    return "\n".join(error_line(e) for e in o.errors)
