"""What a conformance run tells: the summary and failures on the terminal, and its reports (the
JUnit report, a Markdown summary, the HTML page).

Each failure is told by its first difference (where the answer is not what the case expects),
or why the implementation gave no answer, with the root faults the answer itself lists. A run
that checked no case says so in each report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from .casefiles import CaseFile
from .conformance_matrix import Column
from .conformance_run import BY_THE_IMPLEMENTATION, Counts, Summary, in_one
from .faults import details
from .faults import summary as faults_summary
from .html import CONFORMANCE, Expected, HtmlReport
from .implementations import cut
from .junit import TestCase
from .outcome import ANSWERED, MISSING, Difference, Outcome, Status, Words
from .report_files import report_file
from .words import json_text, labelled, language, number, say

LISTED = 30
"""Failures printed; the JUnit report has them all."""
REPORT_LISTED = 500
"""Failures in the Markdown report: a CI page shows a few hundred rows comfortably."""
VALUE_CHARS = 300
"""A value printed on the terminal or in the Markdown report is cut after this many characters."""
JUNIT_NAME = "tarot-rules conformance"
"""The JUnit report's name, and its failures' types: the same in every language."""
JUNIT_MISMATCH = "mismatch"
JUNIT_NO_ANSWER = "no-answer"


def difference_value(value: Any, limit: int | None = None) -> str:
    """An expected or answered value for people, in every report: as JSON writes it (``null``,
    ``true``, ``"EX"``), or in words where there is no value (nothing at the pointer, an answer
    where a refusal is expected, an expectation said in words); cut after ``limit`` characters."""
    if value is MISSING:
        text = say("kit.no_value")
    elif value is ANSWERED:
        text = say("kit.an_answer")
    elif isinstance(value, Words):
        text = str(value)
    else:
        text = json_text(value)
    return text if limit is None else cut(text, limit)


def difference_line(difference: Difference, limit: int | None = VALUE_CHARS) -> str:
    pointer = difference.pointer or say("conformance.whole_answer")
    expected = difference_value(difference.expected, limit)
    if difference.got is ANSWERED:
        return say("kit.answered", refusal=expected)
    got = difference_value(difference.got, limit)
    if difference.got is MISSING:
        return say("conformance.difference", pointer=pointer, expected=expected, got=got)
    if difference.why:
        return say("conformance.difference_why", pointer=pointer, expected=expected, got=got, why=difference.why)
    if difference.unordered:
        return say("conformance.difference_unordered", pointer=pointer, expected=expected, got=got)
    return say("conformance.difference", pointer=pointer, expected=expected, got=got)


def first_difference(outcome: Outcome, limit: int | None = VALUE_CHARS) -> str:
    if outcome.unasked:
        return say("conformance.not_run", reason=outcome.note)
    return outcome.note or difference_line(outcome.differences[0], limit)


def _counts(counts: Counts) -> tuple[int, int, int, int]:
    return counts.cases, counts.passed, counts.failed, counts.skipped


def count_labels() -> tuple[str, str, str, str]:
    """The terminal's words for the counts, in the order of :func:`_counts`."""
    return (
        say("conformance.summary.cases"),
        say("conformance.summary.passed"),
        say("conformance.summary.failed"),
        say("conformance.summary.skipped"),
    )


def print_summary(summary: Summary, out: IO[str]) -> None:
    # The columns as wide as the language's words need.
    labels = count_labels()
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


def skipper(tag: str) -> str:
    """What skipped cases: the tag given with --skip-tag, or the implementation."""
    return say("conformance.skipped_by_implementation") if tag == BY_THE_IMPLEMENTATION else tag


def print_details(summary: Summary, out: IO[str]) -> None:
    if summary.skips:
        print("\n" + say("conformance.skips"), file=out)
        for (tag, why), count in summary.skips.items():
            print("  " + labelled(f"{skipper(tag)} ({number(count)})", why), file=out)
    if not summary.failures and (not summary.unasked or summary.unreached):
        return
    print("\n" + say("conformance.failures"), file=out)
    for case, outcome in summary.failures[:LISTED]:
        print(labelled(f"{case.id} ({case.file})", case.description), file=out)
        lines = [outcome.note] if outcome.note else [difference_line(d) for d in outcome.differences]
        if outcome.faults:
            lines.append(labelled(say("conformance.answer_faults"), faults_summary(outcome.faults)))
        for line in lines:
            print(f"    {line}", file=out)
    if len(summary.failures) > LISTED:
        print(say("conformance.more", len(summary.failures) - LISTED), file=out)
    if summary.unasked and not summary.unreached:  # an implementation not reached: the run's error says why, once
        print(say("conformance.unasked", len(summary.unasked), reason=summary.unasked[0][1].note), file=out)


def junit_case(outcome: Outcome) -> TestCase:
    """A case's test case: a mismatch or no answer is a failure; a case skipped says why."""
    name = outcome.id or ""
    if outcome.status == Status.SKIPPED:
        return TestCase(outcome.file_no, name, Status.SKIPPED, outcome.note)
    if outcome.status != Status.FAILED:
        return TestCase(outcome.file_no, name, outcome.status, seconds=outcome.seconds)
    if outcome.note:
        message = first_difference(outcome)
        kind, lines = JUNIT_NO_ANSWER, [message]
    else:
        first = difference_line(outcome.differences[0])
        count = len(outcome.differences)
        message = first if count == 1 else say("conformance.junit.differences", count, first=first)
        kind, lines = JUNIT_MISMATCH, [difference_line(d, None) for d in outcome.differences]
    if outcome.faults:
        lines += [say("text.heading", label=say("conformance.answer_faults")), *details(outcome.faults)]
    text = "\n".join([outcome.description, *lines])
    return TestCase(outcome.file_no, name, Status.FAILED, message, kind, text, outcome.seconds)


def _cell(text: str) -> str:
    # A table cell is one line, and | ends it unless escaped (even within a code span, in GFM).
    return text.replace("\n", " ").replace("|", "\\|")


def code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: int) -> Iterator[str]:
    """A Markdown table whose last ``numeric`` columns are right-aligned."""
    yield "| " + " | ".join(headers) + " |"
    yield "|" + "|".join("---:" if i >= len(headers) - numeric else "---" for i in range(len(headers))) + "|"
    for row in rows:
        yield "| " + " | ".join(_cell(c) for c in row) + " |"


def _count_row(label: str, counts: Counts) -> list[str]:
    return [label, *map(number, _counts(counts))]


def target(column: Column) -> str:
    """Where the one implementation of a run is, in words: a service's URL or a harness's command."""
    if column.harness:
        return say("conformance.report.target_harness", command=code(column.described))
    return say("conformance.report.target_url", url=code(column.described))


def markdown(column: Column) -> str:
    """The Markdown report of a run of one: the verdict, the counts by operation and by tag, the
    skips, the failures."""
    summary = column.summary
    implementation = target(column)
    total = summary.total
    nothing = summary.nothing_checked()
    failed = total.failed or summary.unchecked() is not None
    verdict = say("conformance.report.failed") if failed else say("conformance.report.passed")
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
    if summary.unreached:
        lines += [f"**{say('conformance.report.unreached', reason=summary.unreached)}**", ""]
    elif nothing is not None:
        lines += [f"**{say('conformance.report.nothing_checked', reason=nothing)}**", ""]
    elif summary.unmatched:
        reasons = in_one(summary.unmatched)
        lines += [f"**{say('conformance.report.filter_checked_nothing', reason=reasons)}**", ""]
    lines += ["## " + say("conformance.report.by_operation"), ""]
    rows = [_count_row(code(op), counts) for op, counts in summary.operations.items()]
    rows.append(_count_row(f"**{say('conformance.report.total')}**", total))
    lines += markdown_table((say("conformance.report.header.operation"), *count_headers), rows, 4)
    lines += ["", "## " + say("conformance.report.by_tag"), ""]
    if summary.tags:
        rows = [_count_row(code(tag), counts) for tag, counts in summary.tags.items()]
        lines += markdown_table((say("conformance.report.header.tag"), *count_headers), rows, 4)
    else:
        lines.append(none)
    if summary.skips:
        lines += ["", "## " + say("conformance.report.skipped"), ""]
        headers = (
            say("conformance.report.header.tag"),
            say("conformance.report.header.cases"),
            say("conformance.report.header.reason"),
        )
        rows = [
            [f"*{skipper(tag)}*" if tag == BY_THE_IMPLEMENTATION else code(tag), number(count), why]
            for (tag, why), count in summary.skips.items()
        ]
        lines += markdown_table(headers, rows, 0)
    lines += ["", "## " + say("conformance.report.failures"), ""]
    if summary.failures or summary.unasked:
        lines += _failure_rows(summary)
    else:
        lines.append(none)
    return "\n".join(lines) + "\n"


def _failure_rows(summary: Summary) -> list[str]:
    failure_headers = (
        say("conformance.report.header.case"),
        say("conformance.report.header.file"),
        say("conformance.report.header.first_difference"),
        say("conformance.report.header.answer_faults"),
    )
    # The last column: the root faults the answer found, each with its count of consequences.
    rows = [
        [code(c.id), code(c.file), code(first_difference(o)), cut(faults_summary(o.faults), VALUE_CHARS)]
        for c, o in summary.failures[:REPORT_LISTED]
    ]
    if not rows:
        return [unasked_paragraph(summary)]
    lines = list(markdown_table(failure_headers, rows, 0))
    if len(summary.failures) > REPORT_LISTED:
        lines += ["", say("conformance.report.more", len(summary.failures) - REPORT_LISTED)]
    if summary.unasked:
        lines += ["", unasked_paragraph(summary)]
    return lines


def unasked_paragraph(summary: Summary) -> str:
    """The cases that failed unasked, in one paragraph: with why, unless the report says it above
    (an implementation not reached)."""
    count = len(summary.unasked)
    if summary.unreached:
        return say("conformance.report.unasked_above", count)
    return say("conformance.report.unasked", count, reason=summary.unasked[0][1].note)


def write_html(path: str, files: Sequence[CaseFile], column: Column) -> None:
    """The run as a page to look at: each failed case drawn (an evaluation trick by trick, the
    first fault the case expects marked beside those the answer found), those that failed
    unasked said in one paragraph, the counts by case file."""
    summary, ran = column.summary, column.ran
    report = HtmlReport(path, [f.path for f in files], language(), kind=CONFORMANCE)
    if summary.unreached:
        report.note = say("conformance.report.unreached", reason=summary.unreached)
    elif summary.unasked:
        report.note = unasked_paragraph(summary)
    for case, o in ran:
        report.count(o.file_no, "cases", o.status, passed=o.passed)
        if o.status != Status.FAILED or o.unasked:
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
        expect = case.expect
        expected = (
            Expected(expect["/violations/0/code"], expect.get("/violations/0/trick"), expect.get("/violations/0/seat"))
            if "/violations/0/code" in expect
            else None
        )
        report.add_failure(
            case.id, case.description, o.faults, where=case.file, rows=rows, drawing=o.drawing, error=o.note,
            expected=expected,
        )  # fmt: skip
    report.write()


def write_markdown(path: str, text: str) -> None:
    with report_file(path, say("report.markdown")) as out:
        out.write(text)
