"""``tarot-rules conformance``: run the conformance kit against another implementation of the rules.

Each case of the kit (see :mod:`.casefiles`) poses its request to the implementation under test
(:mod:`.implementations`), either a service speaking this one's HTTP API (``--url``) or a program
speaking the kit's line protocol on its standard input and output (``--harness``), and compares
the answer with the case's expectations (:mod:`.conformance_run`). It prints a summary and the
failures, can write a JUnit report, a Markdown summary and an HTML page
(:mod:`.conformance_report`), and exits 0 when it checked cases and none failed, 1 when some
failed or none was checked (none selected, or every one skipped: a CI job must not pass on
nothing; a ``--tag`` or ``--case`` that selects no case checks nothing too), 2 when the kit could
not be read or the implementation not reached.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from service.contract.operations import IN_THE_KIT

from .casefiles import default_kit, load_kit
from .client import OVERLOAD_WAIT, Patience, seconds, url_argument
from .conformance_report import code, markdown, print_details, print_summary, write_html, write_junit, write_markdown
from .conformance_run import Summary, run_cases, select
from .errors import PROG, CommandError
from .implementations import TIMEOUT, Harness, Implementation, Service
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
    parser.add_argument(
        "--overload-wait",
        type=seconds,
        default=OVERLOAD_WAIT,
        metavar="SECONDS",
        help=say("help.overload_wait", seconds=round(OVERLOAD_WAIT)),
    )
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
    implementation: Implementation
    if args.url is not None:
        implementation = Service(args.url, args.timeout, Patience(args.overload_wait))
        described = say("conformance.report.target_url", url=code(args.url.url))
    else:
        implementation = Harness(args.harness, args.timeout)
        described = say("conformance.report.target_harness", command=code(args.harness))
    try:
        ran = run_cases(files, selection.cases, args.skip_tag, implementation)
    finally:
        implementation.close()
    summary = Summary.of(ran, selection.unmatched)
    nothing = summary.unchecked()
    if args.junit is not None:
        write_junit(args.junit, files, ran, nothing)
    if args.html is not None:
        write_html(args.html, files, ran)
    if args.report is not None:
        write_markdown(args.report, markdown(summary, described))
    print_summary(summary, sys.stdout)
    if not args.quiet:
        print_details(summary, sys.stdout)
    if nothing is not None:
        print(say("cli.failed", prog=PROG, message=nothing), file=sys.stderr)
        return 1
    return 1 if summary.total.failed else 0
