"""The ``tarot-rules`` command: the rules service's work on the command line.

Each subcommand is a module with ``add_parser(commands)``, which declares its arguments and
sets ``run`` (``run(args) -> exit status``) as a default. A subcommand that cannot run raises
:class:`~.errors.CommandError`: its message is printed, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import sys

from . import conformance, deal, replay
from .errors import CommandError

PROG = "tarot-rules"
SUBCOMMANDS = (conformance, deal, replay)
"""In the order ``--help`` lists them."""

# User-facing text, in one place for the translation to come.
DESCRIPTION = "French Tarot rules (FFT) on the command line."
COMMANDS_TITLE = "commands"
FAILED = "{prog}: {message}"
INTERRUPTED = "{prog}: interrupted"


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    commands = main_parser.add_subparsers(title=COMMANDS_TITLE, metavar="COMMAND", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(commands)
    return main_parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (by default the process's); the exit status."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has reported
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        status: int = args.run(args)
    except CommandError as exc:
        print(FAILED.format(prog=PROG, message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(INTERRUPTED.format(prog=PROG), file=sys.stderr)
        return 130
    return status
