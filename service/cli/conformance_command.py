"""``tarot-rules conformance``: run the conformance kit against another implementation of the rules.

Each case of the kit (see :mod:`.casefiles`) poses its request to the implementation under test
(:mod:`.implementations`), either a service speaking this one's HTTP API (``--url``) or a program
speaking the kit's line protocol on its standard input and output (``--harness``), and compares
the answer with the case's expectations (:mod:`.conformance_run`). ``--implementation NAME=…``,
repeated, runs several side by side into one matrix (:mod:`.conformance_matrix`), whose exit
status follows ``--require``; a run of one implementation, whatever names it, is a matrix of one
column. It prints a summary and the failures, can write a JUnit report, a Markdown summary and an
HTML page (:mod:`.kit_reports`: a run of one in its own layout, several side by side), and exits
0 when it checked cases and none failed, 1 when some failed or none was checked (none selected, or
every one skipped: a CI job must not pass on nothing; a ``--tag`` or ``--case`` that selects no case
checks nothing too), 2 when the kit could not be read or the implementation not reached (a
service's base URL that answers 404 Not Found to every operation posed is not reached: each report
says so once, with the likely fix).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from service.contract.operations import IN_THE_KIT

from .casefiles import CaseFile, default_kit, load_kit
from .client import Patience, ServiceUrl, add_overload_wait, seconds, url_argument
from .conformance_matrix import ALL, Column, Matrix, Named, check_names, implementation_argument, unreached_cases
from .conformance_run import Selection, run_implementation, select
from .errors import PROG, CommandError
from .implementations import TIMEOUT, Harness, Implementation, Service
from .kit_reports import print_run, write_reports
from .report_files import check_writable
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


def run(args: argparse.Namespace) -> int:
    files = load_kit(args.kit if args.kit is not None else default_kit())
    selection = select(files, args.tag, args.skip_tag, args.operation, args.case)
    reports = (
        (args.junit, say("report.junit")),
        (args.report, say("report.markdown")),
        (args.html, say("report.html")),
    )
    for path, report in reports:
        if path is not None:
            check_writable(path, report)
    if args.implementation:
        try:
            check_names(args.implementation, args.require)
        except argparse.ArgumentTypeError as exc:
            raise CommandError(str(exc)) from None
        named: list[Named] = args.implementation
    elif args.require != ALL:
        raise CommandError(say("matrix.require_without_implementations"))
    else:
        named = [Named(ALONE, args.url, args.harness)]
    # A run of one is a matrix of one column, whatever names the implementation: the same reports.
    columns = []
    for n in named:
        if args.implementation:
            print(say("matrix.running", name=n.name, target=_target(n)), file=sys.stderr)
        columns.append(_column(args, files, selection, n, alone=len(named) == 1))
    matrix = Matrix(columns, args.require, selection.unmatched)
    write_reports(matrix, files, args.junit, args.report, args.html)
    print_run(matrix, sys.stdout, details=not args.quiet)
    return _status(matrix)


ALONE = "implementation"
"""The name of the one implementation ``--url`` or ``--harness`` gives (no report of a run of one shows it)."""


def _target(named: Named) -> str:
    return named.url.url if named.url is not None else named.command or ""


def _implementation(args: argparse.Namespace, url: ServiceUrl | None, command: str | None) -> Implementation:
    if url is not None:
        return Service(url, args.timeout, Patience(args.overload_wait))
    return Harness(command or "", args.timeout)


def _column(args: argparse.Namespace, files: list[CaseFile], selection: Selection, named: Named, alone: bool) -> Column:
    """Every selected case posed to one implementation. Alone, one that cannot be reached stops the
    command (exit 2, said once); beside others, its cases fail unasked and the others still run."""
    target = _target(named)
    harness = named.url is None
    implementation: Implementation | None = None
    try:
        implementation = _implementation(args, named.url, named.command)
        ran, unreached = run_implementation(files, selection.cases, args.skip_tag, implementation)
    except CommandError as exc:  # not reached, or ended before its first answer
        if alone:
            raise
        # Said once, by the matrix's summary (and its reports).
        ran, unreached = unreached_cases(files, selection.cases, args.skip_tag, str(exc)), str(exc)
    finally:
        if implementation is not None:
            implementation.close()
    return Column(named.name, target, ran, unreached=unreached, harness=harness, unmatched=selection.unmatched)


def _status(matrix: Matrix) -> int:
    """2 when an implementation the policy judges was not reached, 1 when nothing was checked or
    the policy fails, else 0. A run of one says why it stopped here; a matrix said it in its summary."""
    alone = matrix.alone()
    if alone is not None and alone.unreached:
        print(say("cli.failed", prog=PROG, message=alone.unreached), file=sys.stderr)
        return 2
    if any(c.unreached for c in matrix.judged()):
        return 2
    nothing = matrix.unchecked()
    if nothing is not None:
        print(say("cli.failed", prog=PROG, message=nothing), file=sys.stderr)
        return 1
    return 0 if matrix.passed() else 1
