"""``tarot-rules conformance``: run the conformance kit against another implementation of the rules.

Each case of the kit (see :mod:`.casefiles`) poses its request to the implementation under test
(:mod:`.implementations`), either a service speaking this one's HTTP API (``--url``) or a program
speaking the kit's line protocol on its standard input and output (``--harness``), and compares
the answer with the case's expectations (:mod:`.conformance_run`). ``--implementation NAME=…``,
repeated, runs several side by side into one matrix (:mod:`.conformance_matrix`, its reports
:mod:`.matrix_report` and :mod:`.matrix_html`), whose exit status follows ``--require``; named
alone, one implementation is run and reported as by ``--url`` or ``--harness``. It prints a summary and the
failures, can write a JUnit report, a Markdown summary and an HTML page
(:mod:`.conformance_report`), and exits 0 when it checked cases and none failed, 1 when some
failed or none was checked (none selected, or every one skipped: a CI job must not pass on
nothing; a ``--tag`` or ``--case`` that selects no case checks nothing too), 2 when the kit could
not be read or the implementation not reached (a service's base URL that answers 404 Not Found
to every operation posed is not reached: each report says so once, with the likely fix).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from service.contract.operations import IN_THE_KIT

from .casefiles import CaseFile, default_kit, load_kit
from .client import Patience, ServiceUrl, add_overload_wait, seconds, url_argument
from .conformance_matrix import ALL, Column, Matrix, check_names, implementation_argument, unreached_cases
from .conformance_report import code, markdown, print_details, print_summary, write_html, write_junit, write_markdown
from .conformance_run import Selection, Summary, run_implementation, select
from .errors import PROG, CommandError
from .implementations import TIMEOUT, Harness, Implementation, Service
from .matrix_html import write_matrix_html
from .matrix_report import markdown as matrix_markdown
from .matrix_report import print_matrix
from .matrix_report import write_junit as write_matrix_junit
from .words import say


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
    implementation.add_argument(
        "--implementation",
        type=implementation_argument,
        action="append",
        metavar="NAME=URL|COMMAND",
        help=say("conformance.help.implementation"),
    )
    parser.add_argument("--require", default=ALL, metavar="all|NAME", help=say("conformance.help.require"))
    parser.add_argument(
        "--operation",
        action="append",
        default=[],
        choices=list(IN_THE_KIT),
        metavar="NAME",
        help=say("conformance.help.operation", names=", ".join(IN_THE_KIT)),
    )
    parser.add_argument("--case", action="append", default=[], metavar="ID-GLOB", help=say("conformance.help.case"))
    parser.add_argument("--tag", action="append", default=[], metavar="T", help=say("conformance.help.tag"))
    parser.add_argument(
        "--skip-tag",
        type=skip_tag,
        action="append",
        default=[],
        metavar="T[=REASON]",
        help=say("conformance.help.skip_tag"),
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        default=TIMEOUT,
        metavar="SECONDS",
        help=say("conformance.help.timeout", seconds=round(TIMEOUT)),
    )
    add_overload_wait(parser)
    parser.add_argument("--junit", metavar="PATH", help=say("conformance.help.junit"))
    parser.add_argument("--report", metavar="PATH.md", help=say("conformance.help.report"))
    parser.add_argument("--html", metavar="PATH", help=say("conformance.help.html"))
    parser.add_argument("--quiet", action="store_true", help=say("conformance.help.quiet"))
    parser.set_defaults(run=run)


def _check_writable(path: str) -> None:
    """Refuse, before the run, a report path that cannot be written."""
    if os.path.isdir(path):
        raise CommandError(say("conformance.not_writable", path=path, reason=say("conformance.is_a_directory")))
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise CommandError(say("conformance.no_directory", path=path))


def run(args: argparse.Namespace) -> int:
    files = load_kit(args.kit if args.kit is not None else default_kit())
    selection = select(files, args.tag, args.skip_tag, args.operation, args.case)
    for path in (args.junit, args.report, args.html):
        if path is not None:
            _check_writable(path)
    if args.implementation:
        try:
            check_names(args.implementation, args.require)
        except argparse.ArgumentTypeError as exc:
            raise CommandError(str(exc)) from None
        if len(args.implementation) > 1:
            return run_matrix(args, files, selection)
        # One implementation named is one run, whatever names it: its reports are those of --url
        # or --harness, so that naming it changes none of them.
        (named,) = args.implementation
        print(say("matrix.running", name=named.name, target=_target(named.url, named.command)), file=sys.stderr)
        return run_one(args, files, selection, named.url, named.command)
    if args.require != ALL:
        raise CommandError(say("matrix.require_without_implementations"))
    return run_one(args, files, selection, args.url, args.harness)


def _target(url: ServiceUrl | None, command: str | None) -> str:
    return url.url if url is not None else command or ""


def _implementation(args: argparse.Namespace, url: ServiceUrl | None, command: str | None) -> Implementation:
    if url is not None:
        return Service(url, args.timeout, Patience(args.overload_wait))
    return Harness(command or "", args.timeout)


def run_one(
    args: argparse.Namespace, files: list[CaseFile], selection: Selection, url: ServiceUrl | None, command: str | None
) -> int:
    """Every selected case posed to the one implementation, at ``url`` or run by ``command``; its reports.
    Exits 2 when it could not be reached, 1 when a case failed or none was checked, else 0."""
    if url is not None:
        described = say("conformance.report.target_url", url=code(url.url))
    else:
        described = say("conformance.report.target_harness", command=code(command or ""))
    implementation = _implementation(args, url, command)
    try:
        ran, unreached = run_implementation(files, selection.cases, args.skip_tag, implementation)
    finally:
        implementation.close()
    summary = Summary.of(ran, selection.unmatched, unreached)
    nothing = summary.unchecked()
    if args.junit is not None:
        write_junit(args.junit, files, ran, nothing)
    if args.html is not None:
        write_html(args.html, files, ran, summary)
    if args.report is not None:
        write_markdown(args.report, markdown(summary, described))
    print_summary(summary, sys.stdout)
    if not args.quiet:
        print_details(summary, sys.stdout)
    if unreached:  # as an implementation that could not be reached, said once
        print(say("cli.failed", prog=PROG, message=unreached), file=sys.stderr)
        return 2
    if nothing is not None:
        print(say("cli.failed", prog=PROG, message=nothing), file=sys.stderr)
        return 1
    return 1 if summary.total.failed else 0


def run_matrix(args: argparse.Namespace, files: list[CaseFile], selection: Selection) -> int:
    """Every selected case posed to each implementation named, one after the other; one report.
    Exits 2 when an implementation the policy judges could not be reached, else 0 or 1 by the policy."""
    columns = []
    for named in args.implementation:
        target = _target(named.url, named.command)
        print(say("matrix.running", name=named.name, target=target), file=sys.stderr)
        implementation: Implementation | None = None
        try:
            implementation = _implementation(args, named.url, named.command)
            ran, unreached = run_implementation(files, selection.cases, args.skip_tag, implementation)
            columns.append(Column(named.name, target, ran, unreached=unreached))
        except CommandError as exc:  # not reached, or ended before its first answer: its cases fail
            # Said once, by the matrix's summary (and its reports).
            ran = unreached_cases(files, selection.cases, args.skip_tag, str(exc))
            columns.append(Column(named.name, target, ran, unreached=str(exc)))
        finally:
            if implementation is not None:
                implementation.close()
    matrix = Matrix(columns, args.require, selection.unmatched)
    if args.junit is not None:
        write_matrix_junit(args.junit, files, matrix)
    if args.html is not None:
        write_matrix_html(args.html, matrix)
    if args.report is not None:
        write_markdown(args.report, matrix_markdown(matrix))
    print_matrix(matrix, sys.stdout, details=not args.quiet)
    if any(c.unreached for c in matrix.judged()):
        return 2
    nothing = matrix.unchecked()
    if nothing is not None:
        print(say("cli.failed", prog=PROG, message=nothing), file=sys.stderr)
        return 1
    return 0 if matrix.passed() else 1
