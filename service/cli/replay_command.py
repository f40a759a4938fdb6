"""``tarot-rules replay``: check recorded games, and what another engine said of them, against the rules.

For CI pipelines that replay thousands of recorded games to test their own Tarot engine:
each record is a deal (the ``POST /v1/deals/evaluate`` request, with an optional ``id`` and
``claims``) evaluated as the service evaluates it, in this process on every core, or by a
running service (``--url``). It prints a summary and the failures, can write a JUnit report,
and exits 0 when every deal is valid and every claim agrees, 1 when not, 2 when the replay
could not run. What a record leaves out (its evaluation's ``unchecked``) is counted and said in
every report, and fails the record only for the codes ``--fail-on-unchecked`` names.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Generator, Iterator
from typing import IO, Any

from tqdm import tqdm  # type: ignore[import-untyped]

from service.contract.records import BATCH_MAX_LINES, Tally
from service.rules.verdicts import Unchecked

from .client import add_overload_wait, url_argument
from .errors import PROG, warn
from .html import DRAWN_BY_DEFAULT, HtmlReport
from .inputs import Source, count_lines, open_sources, read_records
from .junit import JUnitReport, TestCase
from .local import evaluate_locally
from .outcome import (
    EVERY_CODE,
    Outcome,
    Status,
    error_details,
    error_line,
    error_message,
    failure_details,
    failure_message,
    faulty_details,
    faulty_line,
    in_progress_note,
    mismatch_line,
    printable,
    ruling_line,
    stops_line,
    unchecked_fails_line,
    unchecked_lines,
    unfinished_line,
)
from .remote import Remote
from .words import labelled, language, number, say

REPORT_NAME = "tarot-rules replay"
"""The JUnit report's name: the command's, in every language."""
LISTED = 20
"""Failures printed; the JUnit report has them all."""
CONSEQUENCES_LISTED = 3
"""Consequences of a root fault printed; the others are counted (the JUnit report has them all)."""
REMOTE_JOBS = 2
BATCH_SIZE = 500

ROW = "{label:<{width}}{value:>10}"
LABEL_WIDTH = 20
"""The summary's labels are padded to this width at least (wider when a label is longer)."""


def _labels() -> dict[str, str]:
    """The summary's label of each count, in the order printed."""
    return {
        "deals": say("replay.summary.records"),
        "valid": say("replay.summary.valid"),
        "in_progress": say("replay.summary.in_progress"),
        "faulty": say("replay.summary.faulty"),
        "malformed": say("replay.summary.malformed"),
        "claims_checked": say("replay.summary.claims_checked"),
        "claims_disagree": say("replay.summary.claims_disagree"),
    }


def _positive(limit: int | None = None) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(say("replay.not_positive", value=text))
        if limit is not None and value > limit:
            raise argparse.ArgumentTypeError(say("replay.too_large", limit=limit, value=text))
        return value

    return parse


def _unchecked_codes(text: str) -> frozenset[str]:
    """``--fail-on-unchecked``: codes of ``unchecked``, comma-separated, or ``all``."""
    codes = frozenset(code.strip() for code in text.split(","))
    known = [code.value for code in Unchecked]
    if not codes <= {*known, EVERY_CODE}:
        raise argparse.ArgumentTypeError(say("replay.not_unchecked", value=text, codes=", ".join(known)))
    return codes


def add_parser(commands: Any) -> None:
    """The ``replay`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    parser = commands.add_parser("replay", help=say("replay.help"), description=say("replay.description"))
    parser.add_argument("files", nargs="+", metavar="FILE", help=say("replay.help.files"))
    parser.add_argument("--url", type=url_argument, help=say("replay.help.url"))
    parser.add_argument("--jobs", type=_positive(), metavar="N", help=say("replay.help.jobs", remote=REMOTE_JOBS))
    parser.add_argument("--junit", metavar="PATH", help=say("replay.help.junit"))
    parser.add_argument("--html", metavar="PATH", help=say("replay.help.html"))
    parser.add_argument(
        "--html-limit",
        type=_positive(),
        default=DRAWN_BY_DEFAULT,
        metavar="N",
        help=say("replay.help.html_limit", default=DRAWN_BY_DEFAULT),
    )
    parser.add_argument(
        "--batch-size",
        type=_positive(BATCH_MAX_LINES),
        default=BATCH_SIZE,
        metavar="N",
        help=say("replay.help.batch_size", default=BATCH_SIZE),
    )
    parser.add_argument("--allow-in-progress", action="store_true", help=say("replay.help.allow_in_progress"))
    parser.add_argument(
        "--fail-on-unchecked",
        type=_unchecked_codes,
        default=frozenset(),
        metavar="CODE[,CODE...]",
        help=say("replay.help.fail_on_unchecked", codes=", ".join(code.value for code in Unchecked)),
    )
    add_overload_wait(parser)
    parser.add_argument("--quiet", action="store_true", help=say("replay.help.quiet"))
    parser.set_defaults(run=run)


class Report:
    """The replay's outcomes as they come, in input order: counts, the first failures, the JUnit report."""

    def __init__(
        self,
        sources: list[Source],
        junit: JUnitReport | None,
        html: HtmlReport | None = None,
        allow_in_progress: bool = False,
    ) -> None:
        self.sources = sources
        self.allow_in_progress = allow_in_progress
        self.junit = junit
        self.html = html
        self.tally = Tally()
        self.listed: list[Outcome] = []
        self.unlisted = 0
        self.allowed: list[Outcome] = []
        """The deals in progress that ``--allow-in-progress`` let pass (the first :data:`LISTED`)."""
        self.allowed_unlisted = 0
        self.per_file = [0] * len(sources)
        self.unchecked: Counter[str] = Counter()
        """Records by each code of their ``unchecked``: what the records leave out (rules.md §12)."""
        self.unchecked_failed = 0
        """Records failed for a code of their ``unchecked`` (``--fail-on-unchecked``)."""

    def add(self, tally: Tally, outcomes: list[Outcome]) -> None:
        self.tally.merge(tally)
        for outcome in outcomes:
            self.per_file[outcome.file_no] += 1
            self.unchecked.update({code for code, _ in outcome.unchecked})
            self.unchecked_failed += bool(outcome.unchecked_fails)
            if not outcome.passed:
                if len(self.listed) < LISTED:
                    self.listed.append(outcome)
                else:
                    self.unlisted += 1
            if outcome.in_progress_allowed:
                if len(self.allowed) < LISTED:
                    self.allowed.append(outcome)
                else:
                    self.allowed_unlisted += 1
            name = outcome.id if outcome.id is not None else self.where(outcome)
            if self.junit is not None:
                self.junit.add(junit_case(outcome, name, self.where(outcome)))
            if self.html is not None:
                line = "" if outcome.passed else _one_line(outcome)
                self.html.add(outcome, printable(name), printable(self.where(outcome)), line)

    def where(self, outcome: Outcome) -> str:
        return self.sources[outcome.file_no].where(outcome.pos)

    @property
    def checked(self) -> bool:
        """Whether the replay evaluated anything: a log without records checks nothing."""
        return self.tally.deals > 0

    @property
    def passed(self) -> bool:
        tally = self.tally
        finished = self.allow_in_progress or tally.in_progress == 0
        passed = tally.valid == tally.deals and tally.claims_disagree == 0 and not self.unchecked_failed
        return self.checked and passed and finished

    def print_summary(self, seconds: float, out: IO[str]) -> None:
        rate = self.tally.deals / seconds if seconds > 0 else 0.0
        # The service's counts as they are: a deal in progress is valid, and counted in progress too.
        counts = vars(self.tally)
        rows = [(label, counts[name]) for name, label in _labels().items()]
        rows.append((say("replay.summary.rate"), round(rate)))
        width = max(LABEL_WIDTH, *(len(label) + 2 for label, _ in rows))
        for label, value in rows:
            print(ROW.format(label=label, value=number(value), width=width), file=out)
        if self.unchecked:
            print("\n" + labelled(say("replay.summary.unchecked"), self._unchecked_counts()), file=out)

    def _unchecked_counts(self) -> str:
        """``dealt_hands 12 records, dog 3, chelem_announcement 1``: the most frequent first."""
        counts = sorted(self.unchecked.items(), key=lambda item: (-item[1], item[0]))
        said = [say("replay.unchecked.first", counts[0][1], code=counts[0][0])]
        said += [say("replay.unchecked.more", n, code=code) for code, n in counts[1:]]
        return ", ".join(said)

    def _entries(self, outcome: Outcome) -> Iterator[str]:
        where = printable(self._located(outcome))
        if outcome.status == Status.ERROR:
            yield labelled(where, error_message(outcome))
            yield from (f"    {error_line(e)}" for e in outcome.errors)
            return
        if outcome.faults:
            yield labelled(where, faulty_line(outcome))
            yield from faulty_details(outcome, "    ", CONSEQUENCES_LISTED)
            if outcome.ruling:
                yield f"    {ruling_line(outcome)}"
        elif outcome.unfinished_fails:
            yield labelled(where, unfinished_line(outcome))
        if outcome.differences:
            yield labelled(where, say("text.heading", label=say("outcome.claims_disagree")))
            yield from (f"    {mismatch_line(d)}" for d in outcome.differences)
        if outcome.unchecked_fails:
            yield labelled(where, unchecked_fails_line(outcome))
            yield from (f"    {line}" for line in unchecked_lines(outcome, outcome.unchecked_fails))

    def print_failures(self, out: IO[str]) -> None:
        if self.listed:
            print("\n" + say("replay.failures"), file=out)
            for outcome in self.listed:
                for line in self._entries(outcome):
                    print(line, file=out)
            if self.unlisted:
                print(say("replay.more", self.unlisted), file=out)
        # Allowed, a deal in progress is no failure: listed under its own heading.
        if self.allowed:
            print("\n" + say("replay.in_progress_allowed"), file=out)
            for outcome in self.allowed:
                print(labelled(printable(self._located(outcome)), stops_line(outcome)), file=out)
            if self.allowed_unlisted:
                print(say("replay.more", self.allowed_unlisted), file=out)

    def _located(self, outcome: Outcome) -> str:
        where = self.where(outcome)
        return f"{where} ({outcome.id})" if outcome.id is not None else where


def _one_line(outcome: Outcome) -> str:
    return error_message(outcome) if outcome.status == Status.ERROR else failure_message(outcome)


def junit_case(outcome: Outcome, name: str, where: str) -> TestCase:
    """A record's test case: a faulty deal or claims that disagree are a failure (one, listing
    both when it is both), a record that is not a deal record an error; each says first where
    the record is (``games.ndjson:17``). What the record leaves out is its output, one a line."""
    # An allowed deal in progress, and what was not checked, are said beside the case, as its
    # output (a CI viewer shows it with the case): they are no failure.
    notes = [in_progress_note(outcome)] if outcome.in_progress_allowed else []
    output = "\n".join(notes + unchecked_lines(outcome))
    case = TestCase(outcome.file_no, name, outcome.status, seconds=outcome.seconds, line=outcome.pos, output=output)
    if outcome.status == Status.ERROR:
        details = "\n".join([where, error_details(outcome)])
        return case._replace(message=error_message(outcome), kind="malformed", text=details)
    if outcome.passed:
        return case
    kinds = ["faulty"] if outcome.faults else ["in-progress"] if outcome.unfinished_fails else []
    kinds += ["claims"] if outcome.differences else []
    kinds += ["unchecked"] if outcome.unchecked_fails else []
    details = "\n".join([where, failure_details(outcome)])
    return case._replace(message=failure_message(outcome), kind=" ".join(kinds), text=details)


def _progress(sources: list[Source], quiet: bool) -> Any:
    shown = not quiet and sys.stderr.isatty()
    # No monitor thread: the worker processes may be forked after the bar is made.
    tqdm.monitor_interval = 0
    total = count_lines(sources) if shown else None
    unit = " " + say("replay.progress.unit")
    return tqdm(total=total, unit=unit, disable=not shown, file=sys.stderr, dynamic_ncols=True, leave=False)


def run(args: argparse.Namespace) -> int:
    sources = open_sources(args.files)
    junit = JUnitReport(args.junit, REPORT_NAME, "replay", [s.name for s in sources]) if args.junit else None
    html = HtmlReport(args.html, [s.name for s in sources], language(), args.html_limit) if args.html else None
    allow, fail_on = args.allow_in_progress, args.fail_on_unchecked
    report = Report(sources, junit, html, allow)
    parts: Generator[tuple[Tally, list[Outcome]], None, None]
    if args.url is not None:
        remote = Remote(
            args.url, args.jobs or REMOTE_JOBS, args.batch_size, html is not None, allow, args.overload_wait, fail_on
        )
        parts = remote.evaluate(read_records(sources))
    else:
        parts = evaluate_locally(sources, args.jobs or os.cpu_count() or 1, html is not None, allow, fail_on)
    try:
        with _progress(sources, args.quiet) as bar:
            started = time.perf_counter()
            for tally, outcomes in parts:
                report.add(tally, outcomes)
                bar.update(len(outcomes))
            seconds = time.perf_counter() - started
        if junit is not None:
            if not report.checked:
                junit.nothing_checked(say("replay.nothing_checked"))
            junit.write()
        if html is not None:
            html.write()
    finally:
        parts.close()  # ends the worker processes or threads at once when the replay fails
        if junit is not None:
            junit.close()
    for source, count in zip(sources, report.per_file, strict=True):
        if count == 0:
            warn(say("replay.empty_file", name=source.name))
    report.print_summary(seconds, sys.stdout)
    if not args.quiet:
        report.print_failures(sys.stdout)
    if not report.checked:
        # An engine that crashed and wrote no log must not pass the build.
        print(say("cli.failed", prog=PROG, message=say("replay.nothing_checked")), file=sys.stderr)
    return 0 if report.passed else 1
