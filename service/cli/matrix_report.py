"""What a run of several implementations tells: a summary on the terminal, the JUnit report (the
implementation in each test case's class name), and a Markdown report. The HTML page is
:mod:`.matrix_html`'s.

Each says the counts per implementation, the cases where implementations disagree with each
other (what each answered, what the kit expects, the rulebook's sections the case cites), the
cases every implementation fails (the kit is then suspect), and the verdict of the exit policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

from .casefiles import Case, CaseFile, json_equal, refusal_words
from .conformance_matrix import ALL, Disagreement, Matrix, Said, topic
from .conformance_report import (
    JUNIT_NAME,
    VALUE_CHARS,
    code,
    count_labels,
    difference_value,
    first_difference,
    junit_case,
    markdown_table,
    skipper,
)
from .conformance_run import Counts, in_one
from .junit import write_runs
from .outcome import Outcome, Status
from .words import labelled, number, say

LISTED = 10
"""Disagreements and cases every implementation fails printed on the terminal; the reports have them all."""
REPORT_LISTED = 500
"""Rows of each list in the Markdown report."""


def sections(case: Case) -> str:
    """The rulebook's sections a case cites: ``docs/rules.md §7, §6``."""
    return say("matrix.sections", sections=", ".join(f"§{s}" for s in case.rules)) if case.rules else ""


def at(pointer: str, value: Any) -> str:
    """A value at its pointer (``/winner null``); the whole answer's, or a verdict where a refusal
    is expected, alone."""
    shown = difference_value(value, VALUE_CHARS)
    return f"{pointer} {shown}" if pointer else shown


def said_text(said: Said, pointers: Sequence[str], expected: dict[str, Any]) -> str:
    """What one implementation said where the implementations disagree, in one line."""
    if said.status == Status.SKIPPED:
        return say("matrix.said.skipped", reason=said.note)
    if said.note:  # why it gave no answer, which says so (no answer, a refusal, not run)
        return said.note
    if said.status == Status.PASSED:
        return say("matrix.said.as_the_kit")
    # Only where it differs from the kit (as JSON: true is no 1); where it agrees, that is said once.
    parts = [at(p, said.values[p]) for p in pointers if not json_equal(said.values[p], expected[p])]
    return in_one(parts) if parts else say("matrix.said.as_the_kit")


def kit_text(disagreement: Disagreement) -> str:
    """What the kit expects where implementations disagree: a refusal and the faults it locates,
    or the values at the pointers in question (all the case's, when no answer differs from it)."""
    case = disagreement.row.case
    if case.expect_problem is not None:
        return refusal_words(case.expect_problem)
    expected = disagreement.expected or case.expect
    return in_one([at(p, expected[p]) for p in (disagreement.pointers or expected)])


def counts_cell(counts: Counts) -> str:
    # Figures only: the legend (matrix.counts_legend) says what they count.
    return f"{number(counts.passed)} / {number(counts.failed)} / {number(counts.skipped)}"


def policy(matrix: Matrix) -> str:
    if matrix.required == ALL:
        return say("matrix.policy.all")
    return say("matrix.policy.one", name=matrix.required)


def verdict(matrix: Matrix) -> str:
    """The policy's verdict in one line: passed, or which implementations failed it and how."""
    nothing = matrix.unchecked()
    if nothing is not None:
        return say("matrix.verdict.failed", reason=nothing)
    failing = matrix.failing()
    if failing:
        reasons = in_one([say("matrix.verdict.failing", c.summary.total.failed, name=c.name) for c in failing])
        return say("matrix.verdict.failed", reason=reasons)
    return say("matrix.verdict.passed")


def print_matrix(matrix: Matrix, out: IO[str], details: bool = True) -> None:
    """The summary: counts per implementation, then by operation; the disagreements and the cases
    every implementation fails (the first few, with ``details``); the policy's verdict."""
    labels = count_labels()
    header = say("matrix.implementation")
    width = max(len(header), *(len(name) for name in matrix.names)) + 2
    column = max(9, *(len(label) + 2 for label in labels))
    print(f"{header:<{width}}" + "".join(f"{h:>{column}}" for h in labels), file=out)
    for c in matrix.columns:
        t = c.summary.total
        cells = "".join(f"{number(v):>{column}}" for v in (t.cases, t.passed, t.failed, t.skipped))
        print(f"{c.name:<{width}}{cells}", file=out)
    operations = matrix.by("operation")
    if operations:
        print(file=out)
        header = say("conformance.summary.operation")
        rows = {op: [counts_cell(c) for c in counts] for op, counts in operations.items()}
        width = max(len(header), *(len(op) for op in rows)) + 2
        columns = [max(len(name), *(len(r[i]) for r in rows.values())) + 2 for i, name in enumerate(matrix.names)]
        print(f"{header:<{width}}" + "".join(f"{n:>{w}}" for n, w in zip(matrix.names, columns, strict=True)), file=out)
        for op, texts in rows.items():
            print(f"{op:<{width}}" + "".join(f"{c:>{w}}" for c, w in zip(texts, columns, strict=True)), file=out)
        print(say("matrix.counts_legend"), file=out)
    disagreements = matrix.disagreements()
    said = say("matrix.disagreements", len(disagreements)) if disagreements else say("matrix.no_disagreements")
    print("\n" + said, file=out)
    if details:
        for d in disagreements[:LISTED]:
            print(labelled(f"  {d.row.case.id}", sections(d.row.case)), file=out)
            print("    " + labelled(say("matrix.the_kit"), kit_text(d)), file=out)
            for name, s in zip(matrix.names, d.said, strict=True):
                print("    " + labelled(name, said_text(s, d.pointers, d.expected)), file=out)
        if len(disagreements) > LISTED:
            print("  " + say("matrix.more", len(disagreements) - LISTED), file=out)
    failed = matrix.all_failed()
    print(say("matrix.all_failed", len(failed)) if failed else say("matrix.none_all_failed"), file=out)
    if details:
        for row in failed[:LISTED]:
            print(labelled(f"  {row.case.id}", sections(row.case)), file=out)
            for name, o in zip(matrix.names, row.outcomes, strict=True):
                print("    " + labelled(name, outcome_line(o)), file=out)
        if len(failed) > LISTED:
            print("  " + say("matrix.more", len(failed) - LISTED), file=out)
    unreached = [c for c in matrix.columns if c.unreached]
    for c in unreached:
        print(say("matrix.unreached", name=c.name, reason=c.unreached), file=out)
    print("\n" + labelled(policy(matrix), verdict(matrix)), file=out)


def outcome_line(o: Outcome) -> str:
    if o.status == Status.PASSED:
        return say("matrix.said.as_the_kit")
    if o.unasked:  # why is said once, where it stopped (or in the summary, not reached)
        return say("matrix.said.not_run")
    if o.status == Status.SKIPPED:
        return say("matrix.said.skipped", reason=o.note)
    return first_difference(o)


def write_junit(path: str, files: Sequence[CaseFile], matrix: Matrix) -> None:
    """A suite per implementation and case file (``NAME: cases/…json``), a test case per case;
    each class name holds the implementation (``tarot_rules.conformance.NAME.legal_cards.excuse``).
    A run of one names no implementation: a suite per case file, as every JUnit consumer expects.
    A run that checked nothing has a failed test case more, saying why."""
    alone = matrix.alone() is not None
    runs = [(None if alone else c.name, (junit_case(outcome) for _, outcome in c.ran)) for c in matrix.columns]
    write_runs(path, JUNIT_NAME, "conformance", [f.path for f in files], runs, matrix.unchecked())


def markdown(matrix: Matrix) -> str:
    """The Markdown report: the verdict, the implementations, the counts by topic, the
    disagreements, the cases every implementation fails, the skips."""
    result = say("conformance.report.passed") if matrix.passed() else say("conformance.report.failed")
    lines = ["# " + say("matrix.report.title", verdict=result), "", labelled(policy(matrix), verdict(matrix)), ""]
    lines += ["## " + say("matrix.report.implementations"), ""]
    headers: tuple[str, ...] = (
        say("matrix.report.implementation"),
        say("matrix.report.where"),
        say("conformance.report.header.cases"),
        say("conformance.report.header.passed"),
        say("conformance.report.header.failed"),
        say("conformance.report.header.skipped"),
    )
    rows = []
    for c in matrix.columns:
        t = c.summary.total
        name = f"**{c.name}**" if matrix.required == c.name else c.name
        rows.append([name, code(c.described), *map(number, (t.cases, t.passed, t.failed, t.skipped))])
    lines += markdown_table(headers, rows, 4)
    for c in matrix.columns:
        if c.unreached:
            lines += ["", say("matrix.unreached", name=c.name, reason=c.unreached)]
    lines += ["", "## " + say("matrix.report.by_topic"), "", say("matrix.counts_legend"), ""]
    by_topic = matrix.by("topic")
    operation_of = {topic(row.case): row.case.operation for row in matrix.rows}
    topic_rows: list[list[str]] = []
    for op, counts in matrix.by("operation").items():
        topic_rows.append([f"**{code(op)}**", *(f"**{counts_cell(c)}**" for c in counts)])
        topic_rows += [[code(t), *map(counts_cell, tc)] for t, tc in by_topic.items() if operation_of[t] == op]
    lines += markdown_table((say("matrix.report.topic"), *matrix.names), topic_rows, len(matrix.names))
    disagreements = matrix.disagreements()
    lines += ["", "## " + say("matrix.report.disagreements", len(disagreements)), ""]
    if disagreements:
        lines += [say("matrix.report.disagreements_intro"), ""]
        headers = (
            say("conformance.report.header.case"),
            say("matrix.report.rules"),
            say("matrix.report.the_kit"),
            *matrix.names,
        )
        rows = [
            [
                code(d.row.case.id),
                sections(d.row.case),
                kit_text(d),
                *(said_text(s, d.pointers, d.expected) for s in d.said),
            ]
            for d in disagreements[:REPORT_LISTED]
        ]
        lines += markdown_table(headers, rows, 0)
        if len(disagreements) > REPORT_LISTED:
            lines += ["", say("matrix.more", len(disagreements) - REPORT_LISTED)]
    else:  # what the section's emptiness means, rather than a "None." said under each empty heading
        lines.append(say("matrix.no_disagreements"))
    failed = matrix.all_failed()
    lines += ["", "## " + say("matrix.report.all_failed", len(failed)), ""]
    if failed:
        lines += [say("matrix.report.all_failed_intro"), ""]
        headers = (say("conformance.report.header.case"), say("matrix.report.rules"), *matrix.names)
        rows = [
            [code(r.case.id), sections(r.case), *(outcome_line(o) for o in r.outcomes)] for r in failed[:REPORT_LISTED]
        ]
        lines += markdown_table(headers, rows, 0)
        if len(failed) > REPORT_LISTED:
            lines += ["", say("matrix.more", len(failed) - REPORT_LISTED)]
    else:
        lines.append(say("matrix.none_all_failed"))
    skips = [(c, tag, why, n) for c in matrix.columns for (tag, why), n in c.summary.skips.items()]
    if skips:
        lines += ["", "## " + say("conformance.report.skipped"), ""]
        headers = (
            say("matrix.report.implementation"),
            say("conformance.report.header.tag"),
            say("conformance.report.header.cases"),
            say("conformance.report.header.reason"),
        )
        rows = [[c.name, skipper(tag), number(n), why] for c, tag, why, n in skips]
        lines += markdown_table(headers, rows, 0)
    return "\n".join(lines) + "\n"
