"""What the command keeps of each thing it checks, and how it says it: one type for both checks.

An :class:`Outcome` is one record of a replay (a deal, with what another engine claimed of it)
or one case of the conformance kit run against an implementation. Both are told the same way:
a status, the faults of the deal (root faults first, see :mod:`.faults`), the values that are not
what they should be (:class:`Difference`: a claim beside the right value, an answer beside the
expected one), a note when there is nothing to compare, and what a page draws of the deal. The
JUnit writer, the HTML page and the terminal all read it.

A replayed record's item (see :mod:`service.contract.records`) carries the whole evaluation:
tricks, points, score. The reports need far less, and the less a worker process sends back the
less the parent has to unpickle: an outcome is a few fields for a deal that passes, and the
faults only for one that does not.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Collection
from enum import StrEnum
from typing import Any, NamedTuple

from service.contract.jsonio import BodyError, parse_body
from service.contract.records import Tally
from service.rules.table import TABLES

from .faults import Fault, details, faults_of, summary
from .inputs import Record
from .words import labelled, say, service_text, value_text

POINTERS_NAMED = 5
"""False claims named in a failure's one-line message (its details list them all)."""
EVERY_CODE = "all"
"""Among the codes that fail a record (``--fail-on-unchecked``): every code of ``unchecked``."""


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    """A faulty deal or claims that disagree; an answer not what the case expects, or none."""
    ERROR = "error"
    """A line of a replay that is not a deal record."""
    SKIPPED = "skipped"


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""What a pointer that does not resolve finds."""


class _Answered:
    def __repr__(self) -> str:
        return "ANSWERED"


ANSWERED: Any = _Answered()
"""What a conformance case that expects a refusal found: an answer (a verdict), with no status
to show (a harness has none)."""


class Words(str):
    """An expectation said in words rather than as a JSON value (``a refusal locating /hand``):
    a report shows it as it is, never quoted as JSON."""


class Difference(NamedTuple):
    """One value that is not what it should be."""

    pointer: str
    expected: Any
    """The right value: the correct one of a claim, the one a case expects."""
    got: Any
    """What was said: the claim, or the answer's value (:data:`MISSING` when it has none)."""
    unordered: bool = False
    """Compared as a multiset (a case's ``unordered`` pointer)."""
    why: str = ""
    """The service's words for a claim that disagrees; why an answer's value cannot be compared."""


class FieldProblem(NamedTuple):
    pointer: str
    code: str
    message: str
    hint: str = ""
    """How to fix it, when the service has a suggestion (a card code, a field name)."""


class Outcome(NamedTuple):
    """One record replayed, or one case run: its status, with what is needed to report it."""

    file_no: int
    pos: int
    """Where it is in its file: a record's line (or place in a JSON array), a case's number."""
    id: str | None
    """The record's id (if it has one), or the case's."""
    status: Status
    faults: tuple[Fault, ...] = ()
    """The deal's violations, in deal order: the replayed deal's, or those the answer under test lists."""
    differences: tuple[Difference, ...] = ()
    """The claims that disagree (replay); the answer's values that are not the case's (conformance)."""
    claimed: bool = False
    """A replayed record sent claims."""
    note: str = ""
    """Why there is nothing to compare: a record's problem, an answer that did not come, a skip's reason."""
    errors: tuple[FieldProblem, ...] = ()
    """A record that is not a deal record: each fault of it, located."""
    drawing: dict[str, Any] | None = None
    """A failing deal, when an HTML report is asked for: what the page draws of it (:func:`drawing`)."""
    description: str = ""
    """A case's description."""
    skip: tuple[str, str] | None = None
    """A skipped case: the tag that skipped it, and why."""
    unasked: bool = False
    """A case failed without being posed: the implementation had stopped answering (``note`` says why)."""
    seconds: float = 0.0
    """How long its evaluation, or the implementation's answer, took."""
    unfinished: tuple[int, int] | None = None
    """A replayed deal whose record stops before its end: the trick it stops at (from 0), of how many."""
    ruling: str = ""
    """A complete faulty deal: its ruling, in the service's words."""
    in_progress_allowed: bool = False
    """A deal in progress replayed with ``--allow-in-progress``: no failure, listed apart."""
    unchecked: tuple[tuple[str, str], ...] = ()
    """A replayed deal's ``unchecked``: each part its record leaves out that the evaluation read
    or could not check, its code and the service's words (rules.md §12)."""
    unchecked_fails: tuple[str, ...] = ()
    """The codes of ``unchecked`` that ``--fail-on-unchecked`` names: the record fails for them."""

    @property
    def unfinished_fails(self) -> bool:
        """A deal in progress that fails for it (one allowed is listed apart, never as a failure)."""
        return self.unfinished is not None and not self.in_progress_allowed

    @property
    def passed(self) -> bool:
        return self.status == Status.PASSED


def settle(
    record: Record,
    item: dict[str, Any],
    tally: Tally,
    draw: bool = False,
    seconds: float = 0.0,
    allow_in_progress: bool = False,
    fail_on_unchecked: Collection[str] = (),
) -> Outcome:
    """Count ``item`` (the evaluation of ``record``, which took ``seconds``) in ``tally``, and
    keep what is reported of it: with ``draw`` (an HTML report asked for), what the page draws
    of a failing deal. A valid deal whose record stops before its end fails, unless
    ``allow_in_progress`` (logs of games in progress): a recording cut short is a defect. What
    the record leaves out is no failure, unless ``fail_on_unchecked`` names its code (or
    :data:`EVERY_CODE`)."""
    tally.count(item)
    result = item.get("result")
    if result is None:
        problem = item["problem"]
        errors = tuple(
            FieldProblem(e["pointer"], e["code"], e["message"], e.get("hint") or "") for e in problem["errors"]
        )
        return Outcome(
            record.file_no,
            record.pos,
            item["id"],
            Status.ERROR,
            note=problem["detail"],
            errors=_in_its_line(record, errors),
            seconds=seconds,
        )
    claims = result["claims"]
    mismatches = () if claims is None else tuple(_difference(m) for m in claims["mismatches"])
    in_progress = result["status"] == "in_progress" and result["valid"]
    sent = _sent(record) if in_progress or draw else None
    unfinished = _unfinished(sent, result) if in_progress else None
    allowed = unfinished is not None and allow_in_progress
    # Interned: the same few texts over and over, each pickled once per chunk a worker sends back.
    # A code is the core's enum in this process, a string from a service; a service older than
    # ``unchecked`` says nothing of it.
    unchecked = tuple((sys.intern(str(u["code"])), sys.intern(u["message"])) for u in result.get("unchecked") or ())
    every = EVERY_CODE in fail_on_unchecked
    fails = tuple(code for code, _ in unchecked if every or code in fail_on_unchecked)
    if result["valid"] and not mismatches and (unfinished is None or allowed) and not fails:
        return Outcome(
            record.file_no,
            record.pos,
            item["id"],
            Status.PASSED,
            claimed=claims is not None,
            seconds=seconds,
            unfinished=unfinished,
            in_progress_allowed=allowed,
            unchecked=unchecked,
        )
    ruling = result.get("ruling")
    return Outcome(
        record.file_no,
        record.pos,
        item["id"],
        Status.FAILED,
        faults=() if result["valid"] else faults_of(result),
        differences=mismatches,
        claimed=claims is not None,
        drawing=drawing(sent, result) if draw else None,
        seconds=seconds,
        unfinished=unfinished,
        ruling=ruling["message"] if ruling else "",
        in_progress_allowed=allowed,
        unchecked=unchecked,
        unchecked_fails=fails,
    )


def _in_its_line(record: Record, errors: tuple[FieldProblem, ...]) -> tuple[FieldProblem, ...]:
    """A line of NDJSON that is not JSON, its fault said by its column: the service places it in
    the record ("line 1", what a single request of the line would be told), which beside the
    line's own place in its file (``games.ndjson:2``) reads false. Said again from the line
    itself, in this process, the same whether the service or this process answered it."""
    if not isinstance(record.payload, bytes) or not any(e.code == "malformed_json" for e in errors):
        return errors
    try:
        parse_body(record.payload, one_line=True)
    except BodyError as exc:
        said = FieldProblem(exc.pointer, "malformed_json", service_text(exc.message))
        return tuple(said if e.code == "malformed_json" else e for e in errors)
    return errors


def _unfinished(sent: Any, result: dict[str, Any]) -> tuple[int, int]:
    """The trick a deal in progress stops at (its index, from 0: texts say it from 1), and how many
    tricks the deal has (at the table the record names, else the one its tricks show)."""
    sent_players = sent.get("players") if isinstance(sent, dict) else None
    players = sent_players if sent_players in TABLES else _players(result)
    return max(0, len(result.get("tricks") or []) - 1), TABLES[players].tricks if players in TABLES else 0


def _difference(mismatch: dict[str, Any]) -> Difference:
    return Difference(mismatch["pointer"], mismatch["correct"], mismatch["claimed"], why=mismatch["message"])


def _sent(record: Record) -> Any:
    """The record as sent, parsed when it came as bytes (an empty object when it does not parse)."""
    if not isinstance(record.payload, bytes):
        return record.payload
    try:
        return parse_body(record.payload)
    except BodyError:
        return {}


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


# The claims whose values are codes of the game, said as its words (« renonce », « donne annulée »).
_TERMS_AT = {
    "/claims/first_violation/code": "violation",
    "/claims/ruling/decision": "decision",
    "/claims/ruling/side_at_fault": "at_fault",
}


def shown(value: Any, pointer: str = "") -> str:
    """A claimed or correct value for people, in the language (``6.5``, « 6,5 », ``none``, « renonce »)."""
    if pointer == "/claims/first_violation/trick" and isinstance(value, int) and not isinstance(value, bool):
        value += 1  # a trick as people count them, as the service's message beside it does
    return value_text(_plain(value), _TERMS_AT.get(pointer))


def stops_line(o: Outcome) -> str:
    """``the record stops at trick 17 of 18``."""
    trick, tricks = o.unfinished or (0, 0)
    return say("outcome.stops_at", trick=trick, tricks=tricks)


def unfinished_line(o: Outcome) -> str:
    """``deal in progress: the record stops at trick 17 of 18``."""
    return labelled(say("outcome.in_progress"), stops_line(o))


def in_progress_note(o: Outcome) -> str:
    """An allowed deal in progress, in one line: ``deal in progress, allowed (--allow-in-progress):
    the record stops at trick 17 of 18``."""
    return labelled(say("outcome.in_progress_allowed"), stops_line(o))


def unchecked_lines(o: Outcome, codes: Collection[str] | None = None) -> list[str]:
    """What the record leaves out, one a line (those of ``codes`` only, when given):
    ``not checked (dealt_hands): <the service's words>``."""
    return [
        say("outcome.unchecked", code=code, message=message)
        for code, message in o.unchecked
        if codes is None or code in codes
    ]


def unchecked_fails_line(o: Outcome) -> str:
    """``not checked, failing by --fail-on-unchecked: chelem_announcement``."""
    return labelled(say("outcome.unchecked_fails"), ", ".join(o.unchecked_fails))


def ruling_line(o: Outcome) -> str:
    """``ruling: <the service's words>``."""
    return labelled(say("outcome.ruling"), o.ruling)


def faulty_line(o: Outcome) -> str:
    """``faulty deal: renounce at trick 4 by seat 2 — and 6 consequences``: the root faults, each
    with its count of consequences."""
    if not o.faults:
        return say("outcome.faulty_deal")
    return labelled(say("outcome.faulty_deal"), summary(o.faults))


def faulty_details(o: Outcome, indent: str, listed: int | None = None) -> list[str]:
    """The root faults in the service's words, then their consequences (at most ``listed`` of each root)."""
    return list(details(o.faults, indent, listed))


def mismatch_line(d: Difference) -> str:
    """A claim that disagrees: ``/claims/points: claimed 7, correct 6.5``."""
    return say(
        "outcome.mismatch", pointer=d.pointer, claimed=shown(d.got, d.pointer), correct=shown(d.expected, d.pointer)
    )


def error_line(e: FieldProblem) -> str:
    message = f"{e.message} {e.hint}" if e.hint else e.message
    # The record as a whole (not JSON, not an object) has the empty pointer: said in words.
    pointer = e.pointer or say("outcome.whole_record")
    return say("outcome.field_error", pointer=pointer, code=e.code, message=message)


def failure_message(o: Outcome) -> str:
    """One line: why a replayed deal failed
    (``faulty deal: renounce at trick 4 by seat 2 — and 6 consequences; claims disagree: /claims/points``)."""
    parts = []
    if o.faults:
        parts.append(faulty_line(o))
    elif o.unfinished_fails:
        parts.append(unfinished_line(o))
    if o.differences:
        pointers = [d.pointer for d in o.differences[:POINTERS_NAMED]]
        if len(o.differences) > POINTERS_NAMED:
            pointers.append(say("outcome.more_pointers", len(o.differences) - POINTERS_NAMED))
        parts.append(labelled(say("outcome.claims_disagree"), ", ".join(pointers)))
    if o.unchecked_fails:
        parts.append(unchecked_fails_line(o))
    return functools.reduce(lambda first, second: say("text.parts", first=first, second=second), parts)


def failure_details(o: Outcome) -> str:
    """Every violation, root faults first, and every claim that disagrees, one a line."""
    lines = []
    if o.faults:
        lines += [say("text.heading", label=say("outcome.faulty_deal"))]
        lines += faulty_details(o, "  ")
        if o.ruling:
            lines.append(ruling_line(o))
    elif o.unfinished_fails:
        lines.append(unfinished_line(o))
    if o.differences:
        lines += [say("text.heading", label=say("outcome.claims_disagree"))]
        lines += [f"  {mismatch_line(d)} — {d.why}" for d in o.differences]
    if o.unchecked_fails:
        lines += [say("text.heading", label=say("outcome.unchecked_fails"))]
        lines += [f"  {line}" for line in unchecked_lines(o, o.unchecked_fails)]
    return "\n".join(lines)


def error_message(o: Outcome) -> str:
    return labelled(say("outcome.malformed_record"), o.note)


def error_details(o: Outcome) -> str:
    return "\n".join(error_line(e) for e in o.errors)
