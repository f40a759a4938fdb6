"""``tarot-rules conformance``: run the conformance kit against another implementation of the rules.

Each case of the kit (see :mod:`.kit`) poses its request to the implementation under test,
either a service speaking this one's HTTP API (``--url``) or a program speaking the kit's line
protocol on its standard input and output (``--harness``), and compares the answer with the
case's expectations. It prints a summary and the failures, can write a JUnit report and a
Markdown summary, and exits 0 when no case failed, 1 when some did, 2 when the kit could not
be read or the implementation not reached.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple, Protocol

import orjson

from .errors import CommandError
from .kit import MISSING, Case, CaseFile, Difference, compare, default_kit, load_kit
from .urls import ServiceUrl, url_argument

LISTED = 30
"""Failures printed; the JUnit report has them all."""
REPORT_LISTED = 500
"""Failures in the Markdown report: a CI page shows a few hundred rows comfortably."""
VALUE_CHARS = 300
"""A value printed on the terminal or in the Markdown report is cut after this many characters."""
TIMEOUT = 30.0
"""Seconds to wait for a service to connect or answer, or for a harness to answer one request."""
HARNESS_EXIT_SECONDS = 10.0
"""Seconds a harness has to exit once its input is closed, before it is killed."""
USER_AGENT = "tarot-rules-conformance"
OPERATIONS = ("/v1/tricks/legal-cards", "/v1/tricks/winner", "/v1/deals/score", "/v1/deals/evaluate")
"""The order operations are listed in; any other comes after them."""

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"

# User-facing text, in one place for the translation to come.
HELP = "run the conformance kit against another implementation of the rules"
DESCRIPTION = (
    "Pose every case of the conformance kit to an implementation of the rules, a service speaking "
    "this service's HTTP API (--url) or a program speaking the kit's line protocol (--harness), and "
    "compare its answers with the cases' expectations. Exit status: 0 no case failed (skipped cases "
    "allowed), 1 some did, 2 the kit could not be read or the implementation not reached."
)
KIT_HELP = "the kit's directory (default: conformance/v1 of the repository the command is installed from)"
URL_HELP = "the base URL of a service to test: each request is POSTed to URL + the case's operation"
HARNESS_HELP = (
    "a shell command line that starts the implementation to test; it reads one request per line on "
    "its standard input and writes one answer per line (see conformance/README.md)"
)
TAG_HELP = "run only the cases with this tag (repeatable: the cases with every tag given)"
SKIP_TAG_HELP = "skip the cases with this tag, reported as skipped, with REASON if given (repeatable)"
JUNIT_HELP = "write a JUnit XML report to PATH: a test suite per case file, a test case per case"
REPORT_HELP = "write a Markdown summary to PATH (by operation, by tag, the failures) for a CI page"
QUIET_HELP = "print only the summary"
EMPTY_TAG = "an empty tag: {value}"
SKIPPED_BY = "skipped with --skip-tag {tag}"
UNKNOWN_TAG = "no case of the kit has the tag {tag!r}"
UNUSED_SKIP_TAG = "tarot-rules: warning: no case of the kit has the tag {tag!r} (--skip-tag)"
NOTHING_SELECTED = "tarot-rules: warning: no case has every tag given with --tag"
NO_DIRECTORY = "{path}: cannot write the report there: no such directory"
NOT_WRITABLE = "{path}: cannot write the report: {reason}"
IS_A_DIRECTORY = "it is a directory"
UNREACHABLE = "cannot reach the service at {url}: {reason}"
URL_GONE = "the service at {url} stopped answering: {reason}"
REFUSED = "HTTP {status} {reason}: {detail}"
REFUSED_FIELD = "; {pointer}: {message}"
ANSWER_NOT_JSON = "the answer (HTTP 200) is not JSON: {reason}"
HARNESS_NOT_STARTED = "the harness could not start: {reason}"
HARNESS_EXITED_AT_ONCE = "the harness ({command}) ended before its first answer: {how}"
HARNESS_EXITED = "the harness ended before answering request {seq}: {how}"
EXIT_STATUS = "exit status {status}"
KILLED_BY = "killed by signal {signal}"
STILL_RUNNING = "it closed its standard output"
HARNESS_SILENT = "the harness did not answer request {seq} within {seconds:.0f} s"
HARNESS_NOT_JSON = "the harness answered request {seq} with a line that is not JSON: {line}"
HARNESS_NOT_OBJECT = (
    "the harness answered request {seq} with {line}: a JSON object with seq and answer or error is expected"
)
HARNESS_WRONG_SEQ = "the harness answered with seq {got} where {seq} was expected"
HARNESS_ERROR = "the implementation could not answer: {error}"
NOT_RUN = "not run: {reason}"
IMPLEMENTATION_GONE = "tarot-rules: {reason}; the remaining cases fail"
ROW = "{label:<10}{value:>8}"
LABELS = {"cases": "cases", PASSED: "passed", FAILED: "failed", SKIPPED: "skipped"}
OPERATION_HEADER = "operation"
COUNT_HEADERS = ("cases", "passed", "failed", "skipped")
SKIPS = "Skipped:"
SKIP_LINE = "  {tag} ({count}): {reason}"
FAILURES = "Failures:"
FAILURE_TITLE = "{id} ({file}): {description}"
MORE = "… and {count} more (see --junit or --report)"
UNASKED = "… and {count} cases not run: {reason}"
WHOLE_ANSWER = "(the whole answer)"
DIFFERENCE = "{pointer}: expected {expected}, got {got}"
DIFFERENCE_UNORDERED = "{pointer}: expected in any order {expected}, got {got}"
DIFFERENCE_WHY = "{pointer}: expected {expected}, got {got}: {why}"
GOT_NOTHING = "nothing (the pointer does not resolve in the answer)"
CUT = "…"
JUNIT_NAME = "tarot-rules conformance"
JUNIT_MISMATCH = "mismatch"
JUNIT_NO_ANSWER = "no-answer"
JUNIT_DIFFERENCES = "{count} differences, the first: {first}"
REPORT_TITLE = "# Conformance kit: {verdict}"
REPORT_PASSED = "passed"
REPORT_FAILED = "failed"
REPORT_TOTALS = "{cases} cases: {passed} passed, {failed} failed, {skipped} skipped."
REPORT_TARGET_URL = "Implementation: the service at {url}."
REPORT_TARGET_HARNESS = "Implementation: the harness {command}."
REPORT_BY_OPERATION = "## By operation"
REPORT_BY_TAG = "## By tag"
REPORT_SKIPPED = "## Skipped"
REPORT_FAILURES = "## Failures"
REPORT_TOTAL = "**total**"
REPORT_OPERATION = "Operation"
REPORT_TAG = "Tag"
REPORT_COUNT_HEADERS = ("Cases", "Passed", "Failed", "Skipped")
REPORT_SKIP_HEADERS = ("Tag", "Cases", "Reason")
REPORT_FAILURE_HEADERS = ("Case", "File", "First difference")
REPORT_MORE = "… and {count} more failures (see the JUnit report)."
REPORT_UNASKED = "… and {count} cases not run: {reason}."
REPORT_NONE = "None."

# XML 1.0 has no way to write these, not even escaped; an implementation's error text may hold them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class NoAnswerError(Exception):
    """The implementation gave no answer to this case (an error, a non-200); ``str()`` says why."""


class GoneError(Exception):
    """The implementation cannot answer any more cases; ``str()`` says why."""


class Implementation(Protocol):
    def ask(self, operation: str, request: Any) -> Any:
        """The 200 answer to ``request``; :class:`NoAnswerError` or :class:`GoneError` when there is none."""

    def close(self) -> None: ...


# -- The implementations ---------------------------------------------------------------------------------


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


class Service:
    """A service speaking this one's API, over one keep-alive connection."""

    def __init__(self, where: ServiceUrl) -> None:
        self.where = where
        self.conn = where.connection(TIMEOUT)
        try:
            self.conn.connect()
        except OSError as exc:
            self.conn.close()
            raise CommandError(UNREACHABLE.format(url=where.url, reason=_reason(exc))) from None

    def ask(self, operation: str, request: Any) -> Any:
        body = orjson.dumps(request)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, application/problem+json",
            "User-Agent": USER_AGENT,
        }
        try:
            answer, data = self._post(self.where.prefix + operation, body, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            if isinstance(exc, TimeoutError):
                raise GoneError(URL_GONE.format(url=self.where.url, reason=_reason(exc))) from None
            # The service may have closed the connection kept alive since the last request: one more try.
            try:
                answer, data = self._post(self.where.prefix + operation, body, headers)
            except (OSError, http.client.HTTPException) as again:
                self.conn.close()
                raise GoneError(URL_GONE.format(url=self.where.url, reason=_reason(again))) from None
        if answer.status != 200:
            raise NoAnswerError(self._refusal(answer, data))
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise NoAnswerError(ANSWER_NOT_JSON.format(reason=exc)) from None

    def _post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[http.client.HTTPResponse, bytes]:
        self.conn.request("POST", path, body, headers)
        answer = self.conn.getresponse()
        return answer, answer.read()

    @staticmethod
    def _refusal(answer: http.client.HTTPResponse, data: bytes) -> str:
        try:
            problem = orjson.loads(data)
        except orjson.JSONDecodeError:
            problem = None
        if not isinstance(problem, dict):
            problem = {}
        message = REFUSED.format(status=answer.status, reason=answer.reason, detail=problem.get("detail") or "")
        for error in problem.get("errors") or ():
            if isinstance(error, dict) and error.get("message") != problem.get("detail"):
                message += REFUSED_FIELD.format(pointer=error.get("pointer", ""), message=error.get("message", ""))
        return message

    def close(self) -> None:
        self.conn.close()


class Harness:
    """A program started once through the shell, speaking the line protocol on its stdin and stdout.

    Its answers are read by a thread into a queue, so that a harness that hangs costs a timeout
    rather than the whole run. It runs in a session of its own: when it has to be killed, the
    shell and whatever it started go together.
    """

    def __init__(self, command: str) -> None:
        self.command = command
        self.seq = 0
        try:
            self.proc = subprocess.Popen(
                command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
            )
        except OSError as exc:
            raise CommandError(HARNESS_NOT_STARTED.format(reason=_reason(exc))) from None
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, name="harness-reader", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # the end of its output

    def ask(self, operation: str, request: Any) -> Any:
        assert self.proc.stdin is not None
        self.seq += 1
        seq = self.seq
        try:
            self.proc.stdin.write(orjson.dumps({"seq": seq, "operation": operation, "request": request}) + b"\n")
            self.proc.stdin.flush()
        except OSError:
            self._ended()  # its input is closed: it has exited, or is about to
        try:
            raw = self.lines.get(timeout=TIMEOUT)
        except queue.Empty:
            raise GoneError(HARNESS_SILENT.format(seq=seq, seconds=TIMEOUT)) from None
        if raw == b"":
            self._ended()
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise GoneError(HARNESS_NOT_JSON.format(seq=seq, line=_shown(raw))) from None
        if not isinstance(message, dict) or ("answer" not in message and "error" not in message):
            raise GoneError(HARNESS_NOT_OBJECT.format(seq=seq, line=_shown(raw)))
        got = message.get("seq")
        if isinstance(got, bool) or got != seq:
            raise GoneError(HARNESS_WRONG_SEQ.format(got=_value(got), seq=seq))
        if "error" in message:
            error = message["error"]
            raise NoAnswerError(HARNESS_ERROR.format(error=error if isinstance(error, str) else _value(error)))
        return message["answer"]

    def _ended(self) -> None:
        """Raise why the harness stopped answering: :class:`CommandError` before any answer, else :class:`GoneError`."""
        try:
            status: int | None = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            how = STILL_RUNNING
        elif status < 0:
            how = KILLED_BY.format(signal=-status)
        else:
            how = EXIT_STATUS.format(status=status)
        if self.seq == 1:
            raise CommandError(HARNESS_EXITED_AT_ONCE.format(command=self.command, how=how))
        raise GoneError(HARNESS_EXITED.format(seq=self.seq, how=how))

    def close(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # its end of input: a harness that follows the protocol exits
        try:
            self.proc.wait(timeout=HARNESS_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            if hasattr(os, "killpg"):
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=HARNESS_EXIT_SECONDS)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


# -- Running the cases ------------------------------------------------------------------------------------


class Outcome(NamedTuple):
    case: Case
    status: str
    """PASSED, FAILED or SKIPPED."""
    differences: tuple[Difference, ...] = ()
    error: str = ""
    """A failure with no answer to compare: why there is none."""
    skip_reason: str = ""
    unasked: bool = False
    """Failed without being posed: the implementation had stopped answering (``error`` says why)."""


def run_cases(cases: Iterable[Case], skips: Sequence[tuple[str, str]], implementation: Implementation) -> list[Outcome]:
    """Each case's outcome, in order; once the implementation is gone, the remaining cases fail unasked."""
    outcomes = []
    gone = ""
    for case in cases:
        reason = next((why for tag, why in skips if tag in case.tags), None)
        if reason is not None:
            outcomes.append(Outcome(case, SKIPPED, skip_reason=reason))
            continue
        if gone:
            outcomes.append(Outcome(case, FAILED, error=gone, unasked=True))
            continue
        try:
            answer = implementation.ask(case.operation, case.request)
        except NoAnswerError as exc:
            outcomes.append(Outcome(case, FAILED, error=str(exc)))
            continue
        except GoneError as exc:
            gone = str(exc)
            print(IMPLEMENTATION_GONE.format(reason=gone), file=sys.stderr)
            outcomes.append(Outcome(case, FAILED, error=gone))
            continue
        differences = compare(case, answer)
        outcomes.append(Outcome(case, FAILED if differences else PASSED, tuple(differences)))
    return outcomes


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def cases(self) -> int:
        return self.passed + self.failed + self.skipped

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.status, getattr(self, outcome.status) + 1)


@dataclass
class Summary:
    total: Counts = field(default_factory=Counts)
    operations: dict[str, Counts] = field(default_factory=dict)
    tags: dict[str, Counts] = field(default_factory=dict)
    skips: dict[tuple[str, str], int] = field(default_factory=dict)
    """Cases skipped, by the --skip-tag (tag, reason) that skipped them."""
    failures: list[Outcome] = field(default_factory=list)
    """The cases that failed once posed."""
    unasked: list[Outcome] = field(default_factory=list)
    """The cases that failed unposed, the implementation gone: listed as one."""

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], skips: Sequence[tuple[str, str]]) -> Summary:
        summary = cls()
        for outcome in outcomes:
            case = outcome.case
            summary.total.add(outcome)
            summary.operations.setdefault(case.operation, Counts()).add(outcome)
            for tag in case.tags:
                summary.tags.setdefault(tag, Counts()).add(outcome)
            if outcome.status == SKIPPED:
                skip = next((tag, why) for tag, why in skips if tag in case.tags)
                summary.skips[skip] = summary.skips.get(skip, 0) + 1
            elif outcome.status == FAILED:
                (summary.unasked if outcome.unasked else summary.failures).append(outcome)
        known = {operation: i for i, operation in enumerate(OPERATIONS)}
        order = sorted(summary.operations, key=lambda op: (known.get(op, len(known)), op))
        summary.operations = {op: summary.operations[op] for op in order}
        summary.tags = dict(sorted(summary.tags.items()))
        return summary


# -- Reporting --------------------------------------------------------------------------------------------


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _cut(text: str, limit: int = VALUE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - len(CUT)] + CUT


def _shown(raw: bytes) -> str:
    return _cut(repr(raw.rstrip(b"\n").decode("utf-8", "replace")), 120)


def difference_line(difference: Difference, limit: int | None = VALUE_CHARS) -> str:
    def shown(value: Any) -> str:
        text = _value(value)
        return text if limit is None else _cut(text, limit)

    pointer = difference.pointer or WHOLE_ANSWER
    expected = shown(difference.expected)
    if difference.got is MISSING:
        return DIFFERENCE.format(pointer=pointer, expected=expected, got=GOT_NOTHING)
    if difference.why:
        return DIFFERENCE_WHY.format(pointer=pointer, expected=expected, got=shown(difference.got), why=difference.why)
    line = DIFFERENCE_UNORDERED if difference.unordered else DIFFERENCE
    return line.format(pointer=pointer, expected=expected, got=shown(difference.got))


def first_difference(outcome: Outcome, limit: int | None = VALUE_CHARS) -> str:
    if outcome.unasked:
        return NOT_RUN.format(reason=outcome.error)
    return outcome.error or difference_line(outcome.differences[0], limit)


def print_summary(summary: Summary, out: IO[str]) -> None:
    for name, label in LABELS.items():
        print(ROW.format(label=label, value=getattr(summary.total, name)), file=out)
    if not summary.operations:
        return
    width = max(len(OPERATION_HEADER), *(len(op) for op in summary.operations))
    print(file=out)
    print(f"{OPERATION_HEADER:<{width}}" + "".join(f"{h:>9}" for h in COUNT_HEADERS), file=out)
    for operation, counts in summary.operations.items():
        values = (counts.cases, counts.passed, counts.failed, counts.skipped)
        print(f"{operation:<{width}}" + "".join(f"{v:>9}" for v in values), file=out)


def print_details(summary: Summary, out: IO[str]) -> None:
    if summary.skips:
        print(f"\n{SKIPS}", file=out)
        for (tag, reason), count in summary.skips.items():
            print(SKIP_LINE.format(tag=tag, count=count, reason=reason), file=out)
    if not summary.failures and not summary.unasked:
        return
    print(f"\n{FAILURES}", file=out)
    for outcome in summary.failures[:LISTED]:
        case = outcome.case
        print(FAILURE_TITLE.format(id=case.id, file=case.file, description=case.description), file=out)
        lines = [outcome.error] if outcome.error else [difference_line(d) for d in outcome.differences]
        for line in lines:
            print(f"    {line}", file=out)
    if len(summary.failures) > LISTED:
        print(MORE.format(count=len(summary.failures) - LISTED), file=out)
    if summary.unasked:
        print(UNASKED.format(count=len(summary.unasked), reason=summary.unasked[0].error), file=out)


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def junit_tree(files: Sequence[CaseFile], outcomes: Sequence[Outcome]) -> ET.ElementTree[ET.Element]:
    """One ``<testsuite>`` per case file, one ``<testcase>`` per case run or skipped."""
    by_file: dict[str, list[Outcome]] = {f.path: [] for f in files}
    for outcome in outcomes:
        by_file[outcome.case.file].append(outcome)
    total = Counts()
    root = ET.Element("testsuites", name=JUNIT_NAME)
    for path, ran in by_file.items():
        counts = Counts()
        suite = ET.SubElement(root, "testsuite", name=_xml(path))
        for outcome in ran:
            counts.add(outcome)
            total.add(outcome)
            case = ET.SubElement(suite, "testcase", name=_xml(outcome.case.id), classname=_xml(path))
            if outcome.status == SKIPPED:
                ET.SubElement(case, "skipped", message=_xml(outcome.skip_reason))
            elif outcome.status == FAILED:
                if outcome.error:
                    message = first_difference(outcome)
                    kind, lines = JUNIT_NO_ANSWER, [message]
                else:
                    first = difference_line(outcome.differences[0])
                    count = len(outcome.differences)
                    message = first if count == 1 else JUNIT_DIFFERENCES.format(count=count, first=first)
                    kind, lines = JUNIT_MISMATCH, [difference_line(d, None) for d in outcome.differences]
                failure = ET.SubElement(case, "failure", message=_xml(message), type=kind)
                failure.text = _xml("\n".join([outcome.case.description, *lines]))
        _counted(suite, counts)
    _counted(root, total)
    return ET.ElementTree(root)


def _counted(element: ET.Element, counts: Counts) -> None:
    element.set("tests", str(counts.cases))
    element.set("failures", str(counts.failed))
    element.set("errors", "0")
    element.set("skipped", str(counts.skipped))


def _cell(text: str) -> str:
    # A table cell is one line, and | ends it unless escaped (even within a code span, in GFM).
    return text.replace("\n", " ").replace("|", "\\|")


def _code(text: str) -> str:
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: int) -> Iterator[str]:
    """A Markdown table whose last ``numeric`` columns are right-aligned."""
    yield "| " + " | ".join(headers) + " |"
    yield "|" + "|".join("---:" if i >= len(headers) - numeric else "---" for i in range(len(headers))) + "|"
    for row in rows:
        yield "| " + " | ".join(_cell(c) for c in row) + " |"


def _count_row(label: str, counts: Counts) -> list[str]:
    return [label, str(counts.cases), str(counts.passed), str(counts.failed), str(counts.skipped)]


def markdown(summary: Summary, implementation: str) -> str:
    total = summary.total
    verdict = REPORT_FAILED if total.failed else REPORT_PASSED
    lines = [
        REPORT_TITLE.format(verdict=verdict),
        "",
        REPORT_TOTALS.format(cases=total.cases, passed=total.passed, failed=total.failed, skipped=total.skipped),
        implementation,
        "",
        REPORT_BY_OPERATION,
        "",
    ]
    rows = [_count_row(_code(op), counts) for op, counts in summary.operations.items()]
    lines += _table((REPORT_OPERATION, *REPORT_COUNT_HEADERS), [*rows, _count_row(REPORT_TOTAL, total)], 4)
    lines += ["", REPORT_BY_TAG, ""]
    if summary.tags:
        rows = [_count_row(_code(tag), counts) for tag, counts in summary.tags.items()]
        lines += _table((REPORT_TAG, *REPORT_COUNT_HEADERS), rows, 4)
    else:
        lines.append(REPORT_NONE)
    if summary.skips:
        lines += ["", REPORT_SKIPPED, ""]
        rows = [[_code(tag), str(count), reason] for (tag, reason), count in summary.skips.items()]
        lines += _table(REPORT_SKIP_HEADERS, rows, 0)
    lines += ["", REPORT_FAILURES, ""]
    if summary.failures or summary.unasked:
        rows = [
            [_code(o.case.id), _code(o.case.file), _code(first_difference(o))] for o in summary.failures[:REPORT_LISTED]
        ]
        lines += _table(REPORT_FAILURE_HEADERS, rows, 0)
        if len(summary.failures) > REPORT_LISTED:
            lines += ["", REPORT_MORE.format(count=len(summary.failures) - REPORT_LISTED)]
        if summary.unasked:
            lines += ["", REPORT_UNASKED.format(count=len(summary.unasked), reason=summary.unasked[0].error)]
    else:
        lines.append(REPORT_NONE)
    return "\n".join(lines) + "\n"


def _check_writable(path: str) -> None:
    """Refuse, before the run, a report path that cannot be written."""
    if os.path.isdir(path):
        raise CommandError(NOT_WRITABLE.format(path=path, reason=IS_A_DIRECTORY))
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise CommandError(NO_DIRECTORY.format(path=path))


def _write(path: str, write: Any) -> None:
    try:
        with open(path, "wb") as out:
            write(out)
    except OSError as exc:
        raise CommandError(NOT_WRITABLE.format(path=path, reason=_reason(exc))) from None


# -- The command ------------------------------------------------------------------------------------------


def skip_tag(text: str) -> tuple[str, str]:
    tag, _, reason = text.partition("=")
    if not tag:
        raise argparse.ArgumentTypeError(EMPTY_TAG.format(value=text))
    return tag, reason or SKIPPED_BY.format(tag=tag)


def add_parser(commands: Any) -> None:
    """The ``conformance`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    parser = commands.add_parser("conformance", help=HELP, description=DESCRIPTION)
    parser.add_argument("--kit", type=Path, metavar="DIR", help=KIT_HELP)
    implementation = parser.add_mutually_exclusive_group(required=True)
    implementation.add_argument("--url", type=url_argument, help=URL_HELP)
    implementation.add_argument("--harness", metavar="COMMAND", help=HARNESS_HELP)
    parser.add_argument("--tag", action="append", default=[], metavar="T", help=TAG_HELP)
    parser.add_argument(
        "--skip-tag", type=skip_tag, action="append", default=[], metavar="T[=REASON]", help=SKIP_TAG_HELP
    )
    parser.add_argument("--junit", metavar="PATH", help=JUNIT_HELP)
    parser.add_argument("--report", metavar="PATH.md", help=REPORT_HELP)
    parser.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    parser.set_defaults(run=run)


def select(files: Sequence[CaseFile], tags: Sequence[str], skips: Sequence[tuple[str, str]]) -> list[Case]:
    """The cases with every tag of ``tags``, in kit order; a tag no case has is an error (a typo, surely)."""
    known = {tag for f in files for case in f.cases for tag in case.tags}
    for tag in tags:
        if tag not in known:
            raise CommandError(UNKNOWN_TAG.format(tag=tag))
    for tag, _ in skips:
        if tag not in known:
            print(UNUSED_SKIP_TAG.format(tag=tag), file=sys.stderr)
    selected = [case for f in files for case in f.cases if all(tag in case.tags for tag in tags)]
    if not selected:
        print(NOTHING_SELECTED, file=sys.stderr)
    return selected


def run(args: argparse.Namespace) -> int:
    files = load_kit(args.kit if args.kit is not None else default_kit())
    cases = select(files, args.tag, args.skip_tag)
    for path in (args.junit, args.report):
        if path is not None:
            _check_writable(path)
    implementation: Implementation
    if args.url is not None:
        implementation = Service(args.url)
        described = REPORT_TARGET_URL.format(url=_code(args.url.url))
    else:
        implementation = Harness(args.harness)
        described = REPORT_TARGET_HARNESS.format(command=_code(args.harness))
    try:
        outcomes = run_cases(cases, args.skip_tag, implementation)
    finally:
        implementation.close()
    summary = Summary.of(outcomes, args.skip_tag)
    if args.junit is not None:
        tree = junit_tree(files, outcomes)
        ET.indent(tree)
        _write(args.junit, lambda out: tree.write(out, encoding="utf-8", xml_declaration=True))
    if args.report is not None:
        text = markdown(summary, described)
        _write(args.report, lambda out: out.write(text.encode()))
    print_summary(summary, sys.stdout)
    if not args.quiet:
        print_details(summary, sys.stdout)
    return 1 if summary.total.failed else 0
