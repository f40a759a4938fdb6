"""What a replay keeps of each record's item: its verdict, and the details of a failure.

An item (see :mod:`service.contract.records`) carries the whole evaluation: tricks,
points, score. The summary, the list of failures and the JUnit report need far less, and
the less a worker process sends back the less the parent has to unpickle: an
:class:`Outcome` is a few fields for a deal that passes, and the faults only for one that
does not. The same text describes a failure on the terminal and in the report.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from service.contract.jsonio import BodyError, parse_body
from service.contract.records import Tally

from .faults import Fault, details, faults_of, summary
from .inputs import Record
from .words import labelled, say

POINTERS_NAMED = 5
"""False claims named in a failure's one-line message (its details list them all)."""

VALID = "valid"
FAULTY = "faulty"
MALFORMED = "malformed"


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
    violations: tuple[Fault, ...] = ()
    """Every violation, in deal order (a root fault's consequences among them)."""
    mismatches: tuple[Mismatch, ...] = ()
    detail: str = ""
    """A malformed record: the problem's detail."""
    errors: tuple[FieldProblem, ...] = ()
    drawing: dict[str, Any] | None = None
    """A failing deal, when an HTML report is asked for: what it draws of it (:func:`drawing_of`)."""

    @property
    def passed(self) -> bool:
        return self.verdict == VALID and self.agree is not False


def settle(record: Record, item: dict[str, Any], tally: Tally, draw: bool = False) -> Outcome:
    """Count ``item`` (the evaluation of ``record``) in ``tally``, and keep what is reported of
    it: with ``draw`` (an HTML report asked for), what the page draws of a failing deal."""
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
        violations=faults_of(result),
        drawing=drawing_of(record, result) if draw else None,
        mismatches=()
        if claims is None
        else tuple(Mismatch(m["pointer"], m["claimed"], m["correct"], m["message"]) for m in claims["mismatches"]),
    )


def drawing_of(record: Record, result: dict[str, Any]) -> dict[str, Any] | None:
    """What a report draws of a failing deal: its tricks, contract, taker and partner from the
    answer, its dog and discard from the record, its ruling or score."""
    sent = record.payload
    if isinstance(sent, bytes):
        try:
            sent = parse_body(sent)
        except BodyError:
            sent = {}
    return drawing(sent, result)


def drawing(sent: Any, result: Any) -> dict[str, Any] | None:
    """What a report draws of a deal from its request ``sent`` and the evaluation ``result``;
    None when ``result`` has no tricks to draw (another operation's answer, or an answer
    under test that is not what it should be: it is not trusted)."""
    if not _drawable(result):
        return None
    if not isinstance(sent, dict):
        sent = {}
    score = result.get("score")
    ruling = result.get("ruling")
    return {
        "players": sent["players"] if sent.get("players") in (3, 4, 5) else _players(result),
        "contract": result.get("contract"),
        "taker": result.get("taker"),
        "partner": result.get("partner"),
        "tricks": result.get("tricks") or [],
        "dog": sent.get("dog") if isinstance(sent.get("dog"), list) else None,
        "discard": sent.get("discard") if isinstance(sent.get("discard"), list) else None,
        "ruling": ruling if isinstance(ruling, dict) else None,
        "scores": score.get("scores") if isinstance(score, dict) else None,
    }


def _drawable(answer: Any) -> bool:
    tricks = answer.get("tricks") if isinstance(answer, dict) else None
    return isinstance(tricks, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("leader"), int)
        and not isinstance(t.get("leader"), bool)
        and isinstance(t.get("winner"), int | None)
        and isinstance(t.get("cards"), list)
        and all(isinstance(c, str) for c in t["cards"])
        for t in tricks
    )


def _players(result: dict[str, Any]) -> int:
    tricks = result.get("tricks") or []
    return max((len(t["cards"]) for t in tricks), default=4)


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


def faulty_line(o: Outcome) -> str:
    """``faulty deal: renounce at trick 4 by seat 2 — and 6 consequences``: the root faults, each
    with its count of consequences."""
    if not o.violations:
        return say("outcome.faulty_deal")
    return labelled(say("outcome.faulty_deal"), summary(o.violations))


def faulty_details(o: Outcome, indent: str, listed: int | None = None) -> list[str]:
    """The root faults in the service's words, then their consequences (at most ``listed`` of each root)."""
    return list(details(o.violations, indent, listed))


def mismatch_line(m: Mismatch) -> str:
    return say("outcome.mismatch", pointer=m.pointer, claimed=shown(m.claimed), correct=shown(m.correct))


def error_line(e: FieldProblem) -> str:
    if not e.pointer:  # the record as a whole (not JSON, not an object)
        return labelled(e.code, e.message)
    return say("outcome.field_error", pointer=e.pointer, code=e.code, message=e.message)


def failure_message(o: Outcome) -> str:
    """One line: why a deal failed
    (``faulty deal: renounce at trick 4 by seat 2 — and 6 consequences; claims disagree: /claims/points``)."""
    parts = []
    if o.verdict == FAULTY:
        parts.append(faulty_line(o))
    if o.agree is False:
        pointers = [m.pointer for m in o.mismatches[:POINTERS_NAMED]]
        if len(o.mismatches) > POINTERS_NAMED:
            pointers.append(say("outcome.more_pointers", len(o.mismatches) - POINTERS_NAMED))
        parts.append(labelled(say("outcome.claims_disagree"), ", ".join(pointers)))
    return say("text.parts", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]


def failure_details(o: Outcome) -> str:
    """Every violation, root faults first, and every mismatch, one a line."""
    lines = []
    if o.verdict == FAULTY:
        lines += [say("text.heading", label=say("outcome.faulty_deal"))]
        lines += faulty_details(o, "  ")
    if o.agree is False:
        lines += [say("text.heading", label=say("outcome.claims_disagree"))]
        lines += [f"  {mismatch_line(m)} — {m.message}" for m in o.mismatches]
    return "\n".join(lines)


def error_message(o: Outcome) -> str:
    return labelled(say("outcome.malformed_record"), o.detail)


def error_details(o: Outcome) -> str:
    return "\n".join(error_line(e) for e in o.errors)
