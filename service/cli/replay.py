"""``tarot-rules replay``: check recorded games, and what another engine said of them, against the rules.

For CI pipelines that replay thousands of recorded games to test their own Tarot engine:
each record is a deal (the ``POST /v1/deals/evaluate`` request, with an optional ``id`` and
``claims``) evaluated as the service evaluates it, in this process on every core, or by a
running service (``--url``). It prints a summary and the failures, can write a JUnit report,
and exits 0 when every deal is valid and every claim agrees, 1 when not, 2 when the replay
could not run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Generator, Iterator
from typing import IO, Any

from tqdm import tqdm  # type: ignore[import-untyped]

from service.api.pipeline.records import BATCH_MAX_LINES, Tally

from .inputs import Source, count_lines, open_sources, read_records
from .junit import JUnitReport
from .local import evaluate_locally
from .outcomes import (
    CLAIMS_DISAGREE,
    FAULTY,
    FAULTY_DEAL,
    MALFORMED,
    MORE_VIOLATIONS,
    Outcome,
    error_line,
    error_message,
    mismatch_line,
    printable,
    violation_line,
)
from .remote import Remote
from .urls import url_argument

LISTED = 20
"""Failures printed; the JUnit report has them all."""
REMOTE_JOBS = 2
BATCH_SIZE = 500

# User-facing text, in one place for the translation to come.
HELP = "replay recorded deals and check them (and their claims) against the rules"
DESCRIPTION = (
    "Evaluate every deal record of the files as the service does: in this process on every core, "
    "or by a running service (--url). Each record is the POST /v1/deals/evaluate request, with an "
    "optional id and claims. Exit status: 0 every deal valid and every claim right, 1 not, 2 the "
    "replay could not run."
)
FILES_HELP = "NDJSON (one record per line) or a JSON array of records; - for standard input"
URL_HELP = "evaluate with the service at URL (its base URL) instead of in this process"
JOBS_HELP = "worker processes (default: one per core), or with --url concurrent requests (default: 2)"
JUNIT_HELP = "write a JUnit XML report to PATH: a test suite per file, a test case per record"
BATCH_HELP = "with --url: records per request (default: 500)"
QUIET_HELP = "print only the summary"
NOT_POSITIVE = "not a positive whole number: {value}"
TOO_LARGE = "at most {limit}: {value}"
EMPTY_FILE = "tarot-rules: warning: {name} holds no records"
PROGRESS_UNIT = " deals"
ROW = "{label:<20}{value:>10}"
LABELS = {
    "deals": "records",
    "valid": "valid",
    "faulty": "faulty",
    "malformed": "malformed",
    "claims_checked": "claims checked",
    "claims_disagree": "claims disagreeing",
}
RATE = "deals/s"
FAILURES = "Failures:"
MORE = "… and {count} more (see --junit)"
ENTRY = "{where}: {what}"
WITH_ID = "{where} ({id})"

_COUNTS = tuple(LABELS)


def _positive(limit: int | None = None) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(NOT_POSITIVE.format(value=text))
        if limit is not None and value > limit:
            raise argparse.ArgumentTypeError(TOO_LARGE.format(limit=limit, value=text))
        return value

    return parse


def add_parser(commands: Any) -> None:
    """The ``replay`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    parser = commands.add_parser("replay", help=HELP, description=DESCRIPTION)
    parser.add_argument("files", nargs="+", metavar="FILE", help=FILES_HELP)
    parser.add_argument("--url", type=url_argument, help=URL_HELP)
    parser.add_argument("--jobs", type=_positive(), metavar="N", help=JOBS_HELP)
    parser.add_argument("--junit", metavar="PATH", help=JUNIT_HELP)
    parser.add_argument(
        "--batch-size", type=_positive(BATCH_MAX_LINES), default=BATCH_SIZE, metavar="N", help=BATCH_HELP
    )
    parser.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    parser.set_defaults(run=run)


def _add(total: Tally, part: Tally) -> None:
    for name in _COUNTS:
        setattr(total, name, getattr(total, name) + getattr(part, name))


class Report:
    """The replay's outcomes as they come, in input order: counts, the first failures, the JUnit report."""

    def __init__(self, sources: list[Source], junit: JUnitReport | None) -> None:
        self.sources = sources
        self.junit = junit
        self.tally = Tally()
        self.listed: list[Outcome] = []
        self.unlisted = 0
        self.per_file = [0] * len(sources)

    def add(self, tally: Tally, outcomes: list[Outcome]) -> None:
        _add(self.tally, tally)
        for outcome in outcomes:
            self.per_file[outcome.file_no] += 1
            if not outcome.passed:
                if len(self.listed) < LISTED:
                    self.listed.append(outcome)
                else:
                    self.unlisted += 1
            if self.junit is not None:
                self.junit.add(outcome, outcome.id if outcome.id is not None else self.where(outcome))

    def where(self, outcome: Outcome) -> str:
        return self.sources[outcome.file_no].where(outcome.pos)

    @property
    def passed(self) -> bool:
        return self.tally.valid == self.tally.deals and self.tally.claims_disagree == 0

    def print_summary(self, seconds: float, out: IO[str]) -> None:
        for name, label in LABELS.items():
            print(ROW.format(label=label, value=getattr(self.tally, name)), file=out)
        rate = self.tally.deals / seconds if seconds > 0 else 0.0
        print(ROW.format(label=RATE, value=f"{rate:.0f}"), file=out)

    def _entries(self, outcome: Outcome) -> Iterator[str]:
        where = self.where(outcome)
        if outcome.id is not None:
            where = WITH_ID.format(where=where, id=outcome.id)
        where = printable(where)
        if outcome.verdict == MALFORMED:
            yield ENTRY.format(where=where, what=error_message(outcome))
            yield from (f"    {error_line(e)}" for e in outcome.errors)
            return
        if outcome.verdict == FAULTY:
            what = FAULTY_DEAL
            if outcome.violations:
                what += f": {violation_line(outcome.violations[0])}"
            if len(outcome.violations) > 1:
                what += f" {MORE_VIOLATIONS.format(count=len(outcome.violations) - 1)}"
            yield ENTRY.format(where=where, what=what)
        if outcome.agree is False:
            yield ENTRY.format(where=where, what=f"{CLAIMS_DISAGREE}:")
            yield from (f"    {mismatch_line(m)}" for m in outcome.mismatches)

    def print_failures(self, out: IO[str]) -> None:
        if not self.listed:
            return
        print(f"\n{FAILURES}", file=out)
        for outcome in self.listed:
            for line in self._entries(outcome):
                print(line, file=out)
        if self.unlisted:
            print(MORE.format(count=self.unlisted), file=out)


def _progress(sources: list[Source], quiet: bool) -> Any:
    shown = not quiet and sys.stderr.isatty()
    # No monitor thread: the worker processes may be forked after the bar is made.
    tqdm.monitor_interval = 0
    total = count_lines(sources) if shown else None
    return tqdm(total=total, unit=PROGRESS_UNIT, disable=not shown, file=sys.stderr, dynamic_ncols=True, leave=False)


def run(args: argparse.Namespace) -> int:
    sources = open_sources(args.files)
    junit = JUnitReport(args.junit, [s.name for s in sources]) if args.junit else None
    report = Report(sources, junit)
    parts: Generator[tuple[Tally, list[Outcome]], None, None]
    if args.url is not None:
        parts = Remote(args.url, args.jobs or REMOTE_JOBS, args.batch_size).evaluate(read_records(sources))
    else:
        parts = evaluate_locally(sources, args.jobs or os.cpu_count() or 1)
    try:
        with _progress(sources, args.quiet) as bar:
            started = time.perf_counter()
            for tally, outcomes in parts:
                report.add(tally, outcomes)
                bar.update(len(outcomes))
            seconds = time.perf_counter() - started
        if junit is not None:
            junit.write()
    finally:
        parts.close()  # ends the worker processes or threads at once when the replay fails
        if junit is not None:
            junit.close()
    for source, count in zip(sources, report.per_file, strict=True):
        if count == 0:
            print(EMPTY_FILE.format(name=source.name), file=sys.stderr)
    report.print_summary(seconds, sys.stdout)
    if not args.quiet:
        report.print_failures(sys.stdout)
    return 0 if report.passed else 1
