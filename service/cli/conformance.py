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

from .errors import PROG, CommandError, reason, warn
from .faults import Fault, details, faults_of
from .faults import summary as faults_summary
from .html import CONFORMANCE_COLUMNS, HtmlReport
from .junit import xml_text
from .kit import MISSING, Case, CaseFile, Difference, compare, default_kit, load_kit
from .outcomes import drawing
from .urls import ServiceUrl, url_argument
from .words import labelled, language, number, say

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
OPERATIONS = (
    "/v1/tricks/legal-cards",
    "/v1/tricks/winner",
    "/v1/deals/score",
    "/v1/deals/evaluate",
    "/v1/games/score",
)
"""The order operations are listed in; any other comes after them."""

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"

CUT = "…"
JUNIT_NAME = "tarot-rules conformance"
"""The JUnit report's name, and its failures' types: the same in every language."""
JUNIT_MISMATCH = "mismatch"
JUNIT_NO_ANSWER = "no-answer"


class NoAnswerError(Exception):
    """The implementation gave no answer to this case (an error, a non-200); ``str()`` says why."""


class GoneError(Exception):
    """The implementation cannot answer any more cases; ``str()`` says why."""


class Implementation(Protocol):
    def ask(self, operation: str, request: Any) -> Any:
        """The 200 answer to ``request``; :class:`NoAnswerError` or :class:`GoneError` when there is none."""

    def close(self) -> None: ...


# -- The implementations ---------------------------------------------------------------------------------


class Service:
    """A service speaking this one's API, over one keep-alive connection."""

    def __init__(self, where: ServiceUrl) -> None:
        self.where = where
        self.conn = where.connection(TIMEOUT)
        try:
            self.conn.connect()
        except OSError as exc:
            self.conn.close()
            raise CommandError(say("conformance.unreachable", url=where.url, reason=reason(exc))) from None

    def ask(self, operation: str, request: Any) -> Any:
        body = orjson.dumps(request)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, application/problem+json",
            "User-Agent": USER_AGENT,
            "Accept-Language": language(),  # the problems' details in the command's language
        }
        try:
            answer, data = self._post(self.where.prefix + operation, body, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            if isinstance(exc, TimeoutError):
                raise GoneError(say("conformance.url_gone", url=self.where.url, reason=reason(exc))) from None
            # The service may have closed the connection kept alive since the last request: one more try.
            try:
                answer, data = self._post(self.where.prefix + operation, body, headers)
            except (OSError, http.client.HTTPException) as again:
                self.conn.close()
                raise GoneError(say("conformance.url_gone", url=self.where.url, reason=reason(again))) from None
        if answer.status != 200:
            raise NoAnswerError(self._refusal(answer, data))
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise NoAnswerError(say("conformance.answer_not_json", reason=str(exc))) from None

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
        message = say(
            "conformance.refused",
            status=str(answer.status),
            reason=answer.reason,
            detail=str(problem.get("detail") or ""),
        )
        for error in problem.get("errors") or ():
            if isinstance(error, dict) and error.get("message") != problem.get("detail"):
                field = labelled(str(error.get("pointer", "")), str(error.get("message", "")))
                message = say("text.parts", first=message, second=field)
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
            raise CommandError(say("conformance.harness.not_started", reason=reason(exc))) from None
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
            raise GoneError(say("conformance.harness.silent", seq=str(seq), seconds=round(TIMEOUT))) from None
        if raw == b"":
            self._ended()
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise GoneError(say("conformance.harness.not_json", seq=str(seq), line=_shown(raw))) from None
        if not isinstance(message, dict) or ("answer" not in message and "error" not in message):
            raise GoneError(say("conformance.harness.not_object", seq=str(seq), line=_shown(raw)))
        got = message.get("seq")
        if isinstance(got, bool) or got != seq:
            raise GoneError(say("conformance.harness.wrong_seq", got=_value(got), seq=str(seq)))
        if "error" in message:
            error = message["error"]
            error = error if isinstance(error, str) else _value(error)
            raise NoAnswerError(say("conformance.harness.error", error=error))
        return message["answer"]

    def _ended(self) -> None:
        """Raise why the harness stopped answering: :class:`CommandError` before any answer, else :class:`GoneError`."""
        try:
            status: int | None = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            how = say("conformance.harness.output_closed")
        elif status < 0:
            how = say("conformance.harness.killed", signal=str(-status))
        else:
            how = say("conformance.harness.exit_status", status=str(status))
        if self.seq == 1:
            raise CommandError(say("conformance.harness.ended_at_once", command=self.command, how=how))
        raise GoneError(say("conformance.harness.ended", seq=str(self.seq), how=how))

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
    skip: tuple[str, str] | None = None
    """A skipped case: the --skip-tag (tag, reason) that skipped it."""
    unasked: bool = False
    """Failed without being posed: the implementation had stopped answering (``error`` says why)."""
    faults: tuple[Fault, ...] = ()
    """A failed case's answer: the violations it lists (an evaluation's), in its order."""
    drawing: dict[str, Any] | None = None
    """A failed evaluation: what the HTML report draws of the deal."""


def run_cases(cases: Iterable[Case], skips: Sequence[tuple[str, str]], implementation: Implementation) -> list[Outcome]:
    """Each case's outcome, in order; once the implementation is gone, the remaining cases fail unasked."""
    outcomes = []
    gone = ""
    for case in cases:
        skip = next(((tag, why) for tag, why in skips if tag in case.tags), None)
        if skip is not None:
            outcomes.append(Outcome(case, SKIPPED, skip=skip))
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
            print(say("cli.failed", prog=PROG, message=say("conformance.gone", reason=gone)), file=sys.stderr)
            outcomes.append(Outcome(case, FAILED, error=gone))
            continue
        differences = compare(case, answer)
        if differences:
            drawn = drawing(case.request, answer)
            outcomes.append(Outcome(case, FAILED, tuple(differences), faults=faults_of(answer), drawing=drawn))
        else:
            outcomes.append(Outcome(case, PASSED))
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
    def of(cls, outcomes: Iterable[Outcome]) -> Summary:
        summary = cls()
        for outcome in outcomes:
            case = outcome.case
            summary.total.add(outcome)
            summary.operations.setdefault(case.operation, Counts()).add(outcome)
            for tag in case.tags:
                summary.tags.setdefault(tag, Counts()).add(outcome)
            if outcome.skip is not None:
                summary.skips[outcome.skip] = summary.skips.get(outcome.skip, 0) + 1
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

    pointer = difference.pointer or say("conformance.whole_answer")
    expected = shown(difference.expected)
    if difference.got is MISSING:
        return say("conformance.difference", pointer=pointer, expected=expected, got=say("kit.no_value"))
    got = shown(difference.got)
    if difference.why:
        return say("conformance.difference_why", pointer=pointer, expected=expected, got=got, why=difference.why)
    if difference.unordered:
        return say("conformance.difference_unordered", pointer=pointer, expected=expected, got=got)
    return say("conformance.difference", pointer=pointer, expected=expected, got=got)


def first_difference(outcome: Outcome, limit: int | None = VALUE_CHARS) -> str:
    if outcome.unasked:
        return say("conformance.not_run", reason=outcome.error)
    return outcome.error or difference_line(outcome.differences[0], limit)


def _counts(counts: Counts) -> tuple[int, int, int, int]:
    return counts.cases, counts.passed, counts.failed, counts.skipped


def print_summary(summary: Summary, out: IO[str]) -> None:
    # Counts in the order of _counts; the columns as wide as the language's words need.
    labels = (
        say("conformance.summary.cases"),
        say("conformance.summary.passed"),
        say("conformance.summary.failed"),
        say("conformance.summary.skipped"),
    )
    label_width = max(10, *(len(label) + 1 for label in labels))
    for label, value in zip(labels, _counts(summary.total), strict=True):
        print(f"{label:<{label_width}}{number(value):>8}", file=out)
    if not summary.operations:
        return
    header = say("conformance.summary.operation")
    width = max(len(header), *(len(op) for op in summary.operations))
    column = max(9, *(len(label) + 2 for label in labels))
    print(file=out)
    print(f"{header:<{width}}" + "".join(f"{h:>{column}}" for h in labels), file=out)
    for operation, counts in summary.operations.items():
        print(f"{operation:<{width}}" + "".join(f"{number(v):>{column}}" for v in _counts(counts)), file=out)


def print_details(summary: Summary, out: IO[str]) -> None:
    if summary.skips:
        print("\n" + say("conformance.skips"), file=out)
        for (tag, why), count in summary.skips.items():
            print("  " + labelled(f"{tag} ({number(count)})", why), file=out)
    if not summary.failures and not summary.unasked:
        return
    print("\n" + say("conformance.failures"), file=out)
    for outcome in summary.failures[:LISTED]:
        case = outcome.case
        print(labelled(f"{case.id} ({case.file})", case.description), file=out)
        lines = [outcome.error] if outcome.error else [difference_line(d) for d in outcome.differences]
        if outcome.faults:
            lines.append(labelled(say("conformance.answer_faults"), faults_summary(outcome.faults)))
        for line in lines:
            print(f"    {line}", file=out)
    if len(summary.failures) > LISTED:
        print(say("conformance.more", len(summary.failures) - LISTED), file=out)
    if summary.unasked:
        print(say("conformance.unasked", len(summary.unasked), reason=summary.unasked[0].error), file=out)


def junit_tree(files: Sequence[CaseFile], outcomes: Sequence[Outcome]) -> ET.ElementTree[ET.Element]:
    """One ``<testsuite>`` per case file, one ``<testcase>`` per case run or skipped."""
    by_file: dict[str, list[Outcome]] = {f.path: [] for f in files}
    for outcome in outcomes:
        by_file[outcome.case.file].append(outcome)
    total = Counts()
    root = ET.Element("testsuites", name=JUNIT_NAME)
    for path, ran in by_file.items():
        counts = Counts()
        suite = ET.SubElement(root, "testsuite", name=xml_text(path))
        for outcome in ran:
            counts.add(outcome)
            total.add(outcome)
            case = ET.SubElement(suite, "testcase", name=xml_text(outcome.case.id), classname=xml_text(path))
            if outcome.skip is not None:
                ET.SubElement(case, "skipped", message=xml_text(outcome.skip[1]))
            elif outcome.status == FAILED:
                if outcome.error:
                    message = first_difference(outcome)
                    kind, lines = JUNIT_NO_ANSWER, [message]
                else:
                    first = difference_line(outcome.differences[0])
                    count = len(outcome.differences)
                    message = first if count == 1 else say("conformance.junit.differences", count, first=first)
                    kind, lines = JUNIT_MISMATCH, [difference_line(d, None) for d in outcome.differences]
                if outcome.faults:
                    lines += [say("text.heading", label=say("conformance.answer_faults")), *details(outcome.faults)]
                failure = ET.SubElement(case, "failure", message=xml_text(message), type=kind)
                failure.text = xml_text("\n".join([outcome.case.description, *lines]))
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
    return [label, *map(number, _counts(counts))]


def markdown(summary: Summary, implementation: str) -> str:
    total = summary.total
    verdict = say("conformance.report.failed") if total.failed else say("conformance.report.passed")
    totals = say(
        "conformance.report.totals",
        cases=say("conformance.report.cases", total.cases),
        passed=say("conformance.report.passed_count", total.passed),
        failed=say("conformance.report.failed_count", total.failed),
        skipped=say("conformance.report.skipped_count", total.skipped),
    )
    count_headers = (
        say("conformance.report.header.cases"),
        say("conformance.report.header.passed"),
        say("conformance.report.header.failed"),
        say("conformance.report.header.skipped"),
    )
    none = say("conformance.report.none")
    lines = ["# " + say("conformance.report.title", verdict=verdict), "", totals, implementation, ""]
    lines += ["## " + say("conformance.report.by_operation"), ""]
    rows = [_count_row(_code(op), counts) for op, counts in summary.operations.items()]
    rows.append(_count_row(f"**{say('conformance.report.total')}**", total))
    lines += _table((say("conformance.report.header.operation"), *count_headers), rows, 4)
    lines += ["", "## " + say("conformance.report.by_tag"), ""]
    if summary.tags:
        rows = [_count_row(_code(tag), counts) for tag, counts in summary.tags.items()]
        lines += _table((say("conformance.report.header.tag"), *count_headers), rows, 4)
    else:
        lines.append(none)
    if summary.skips:
        lines += ["", "## " + say("conformance.report.skipped"), ""]
        headers = (
            say("conformance.report.header.tag"),
            say("conformance.report.header.cases"),
            say("conformance.report.header.reason"),
        )
        rows = [[_code(tag), number(count), why] for (tag, why), count in summary.skips.items()]
        lines += _table(headers, rows, 0)
    lines += ["", "## " + say("conformance.report.failures"), ""]
    if summary.failures or summary.unasked:
        failure_headers = (
            say("conformance.report.header.case"),
            say("conformance.report.header.file"),
            say("conformance.report.header.first_difference"),
            say("conformance.report.header.answer_faults"),
        )
        # The last column: the root faults the answer found, each with its count of consequences.
        rows = [
            [_code(o.case.id), _code(o.case.file), _code(first_difference(o)), _cut(faults_summary(o.faults))]
            for o in summary.failures[:REPORT_LISTED]
        ]
        lines += _table(failure_headers, rows, 0)
        if len(summary.failures) > REPORT_LISTED:
            lines += ["", say("conformance.report.more", len(summary.failures) - REPORT_LISTED)]
        if summary.unasked:
            unasked = say("conformance.report.unasked", len(summary.unasked), reason=summary.unasked[0].error)
            lines += ["", unasked]
    else:
        lines.append(none)
    return "\n".join(lines) + "\n"


def _html(path: str, files: Sequence[CaseFile], outcomes: Sequence[Outcome]) -> None:
    """The run as a page to look at: counts by case file, each failed case drawn."""
    numbers = {f.path: i for i, f in enumerate(files)}
    report = HtmlReport(
        path,
        [f.path for f in files],
        language(),
        columns=CONFORMANCE_COLUMNS,
        title="tarot-rules conformance",
        values=(say("html.got"), say("html.expected")),
    )
    for o in outcomes:
        report.count(numbers[o.case.file], "cases", o.status, passed=o.status == PASSED)
        if o.status != FAILED:
            continue
        rows = [
            {
                "pointer": d.pointer or say("conformance.whole_answer"),
                "claimed": difference_value(d.got),
                "correct": difference_value(d.expected),
                "message": d.why,
            }
            for d in o.differences
        ]
        report.add_failure(o.case.id, o.case.description, o.faults, rows, o.drawing, o.error)
    report.write()


def difference_value(value: Any) -> str:
    return say("kit.no_value") if value is MISSING else _value(value)


def _check_writable(path: str) -> None:
    """Refuse, before the run, a report path that cannot be written."""
    if os.path.isdir(path):
        raise CommandError(say("conformance.not_writable", path=path, reason=say("conformance.is_a_directory")))
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise CommandError(say("conformance.no_directory", path=path))


def _write(path: str, write: Any) -> None:
    try:
        with open(path, "wb") as out:
            write(out)
    except OSError as exc:
        raise CommandError(say("conformance.not_writable", path=path, reason=reason(exc))) from None


# -- The command ------------------------------------------------------------------------------------------


def skip_tag(text: str) -> tuple[str, str]:
    tag, _, why = text.partition("=")
    if not tag:
        raise argparse.ArgumentTypeError(say("conformance.empty_tag", value=text))
    return tag, why or say("conformance.skipped_by", tag=tag)


def add_parser(commands: Any) -> None:
    """The ``conformance`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    parser = commands.add_parser(
        "conformance", help=say("conformance.help"), description=say("conformance.description")
    )
    parser.add_argument("--kit", type=Path, metavar="DIR", help=say("conformance.help.kit"))
    implementation = parser.add_mutually_exclusive_group(required=True)
    implementation.add_argument("--url", type=url_argument, help=say("conformance.help.url"))
    implementation.add_argument("--harness", metavar="COMMAND", help=say("conformance.help.harness"))
    parser.add_argument("--tag", action="append", default=[], metavar="T", help=say("conformance.help.tag"))
    parser.add_argument(
        "--skip-tag",
        type=skip_tag,
        action="append",
        default=[],
        metavar="T[=REASON]",
        help=say("conformance.help.skip_tag"),
    )
    parser.add_argument("--junit", metavar="PATH", help=say("conformance.help.junit"))
    parser.add_argument("--report", metavar="PATH.md", help=say("conformance.help.report"))
    parser.add_argument("--html", metavar="PATH", help=say("conformance.help.html"))
    parser.add_argument("--quiet", action="store_true", help=say("conformance.help.quiet"))
    parser.set_defaults(run=run)


def select(files: Sequence[CaseFile], tags: Sequence[str], skips: Sequence[tuple[str, str]]) -> list[Case]:
    """The cases with every tag of ``tags``, in kit order; a tag no case has is an error (a typo, surely)."""
    known = {tag for f in files for case in f.cases for tag in case.tags}
    for tag in tags:
        if tag not in known:
            raise CommandError(say("conformance.unknown_tag", tag=tag))
    for tag, _ in skips:
        if tag not in known:
            warn(say("conformance.unused_skip_tag", tag=tag))
    selected = [case for f in files for case in f.cases if all(tag in case.tags for tag in tags)]
    if not selected:
        warn(say("conformance.nothing_selected"))
    return selected


def run(args: argparse.Namespace) -> int:
    files = load_kit(args.kit if args.kit is not None else default_kit())
    cases = select(files, args.tag, args.skip_tag)
    for path in (args.junit, args.report, args.html):
        if path is not None:
            _check_writable(path)
    implementation: Implementation
    if args.url is not None:
        implementation = Service(args.url)
        described = say("conformance.report.target_url", url=_code(args.url.url))
    else:
        implementation = Harness(args.harness)
        described = say("conformance.report.target_harness", command=_code(args.harness))
    try:
        outcomes = run_cases(cases, args.skip_tag, implementation)
    finally:
        implementation.close()
    summary = Summary.of(outcomes)
    if args.junit is not None:
        tree = junit_tree(files, outcomes)
        ET.indent(tree)
        _write(args.junit, lambda out: tree.write(out, encoding="utf-8", xml_declaration=True))
    if args.html is not None:
        _html(args.html, files, outcomes)
    if args.report is not None:
        text = markdown(summary, described)
        _write(args.report, lambda out: out.write(text.encode()))
    print_summary(summary, sys.stdout)
    if not args.quiet:
        print_details(summary, sys.stdout)
    return 1 if summary.total.failed else 0
