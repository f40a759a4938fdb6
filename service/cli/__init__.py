"""The ``tarot-rules`` command: the rules service's work on the command line.

Each subcommand is a module with ``add_parser(commands)``, which declares its arguments and
sets ``run`` (``run(args) -> exit status``) as a default. A subcommand that cannot run raises
:class:`~.errors.CommandError`: its message is printed, and the exit status is 2.

The command speaks English or French (``--lang``, by default the user's locale): see
:mod:`.words`. The exit statuses and every machine-readable output are the same in both.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from service import __version__
from service.rules import COMPILED
from service.texts import LANGUAGES, system_language

from . import conformance_command, deal_command, replay_command
from .errors import PROG, CommandError
from .words import HelpFormatter, argparse_words, language, say, use

SUBCOMMANDS = (conformance_command, deal_command, replay_command)
"""In the order ``--help`` lists them."""


def requested_language(argv: Sequence[str]) -> str | None:
    """The language ``--lang`` asks for in ``argv`` (the last one given, as argparse reads it).

    The parser's texts are in the language, so it has to be known before the parser is built.
    An abbreviated ``--lang`` is not seen here: the run then speaks it, its usage texts not.
    """
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def parser(default_language: str) -> argparse.ArgumentParser:
    """The command's parser, its texts in the language chosen (:func:`.words.use`)."""
    main_parser = argparse.ArgumentParser(prog=PROG, description=say("cli.description"), formatter_class=HelpFormatter)
    lang_help = say("cli.lang.help", language=default_language)
    main_parser.add_argument("--lang", choices=LANGUAGES, default=default_language, help=lang_help)
    if COMPILED:
        version = say("cli.version.compiled", prog=PROG, version=__version__)
    else:
        version = say("cli.version.pure", prog=PROG, version=__version__)
    main_parser.add_argument("--version", action="version", version=version, help=say("cli.version.help"))
    commands = main_parser.add_subparsers(title=say("cli.commands"), metavar="COMMAND", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(commands)
    # --lang after the subcommand too; when it is not given there, the main parser's value stays.
    for command_parser in commands.choices.values():
        command_parser.formatter_class = HelpFormatter
        command_parser.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=lang_help)
    return main_parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (by default the process's); the exit status. The language
    it speaks is the run's: a caller in the same process (a test, a program that embeds the
    command) finds its own again afterwards."""
    before = language()
    try:
        return _run(argv)
    finally:
        use(before)


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    default = system_language()
    asked = requested_language(argv)
    use(asked if asked in LANGUAGES else default)  # a wrong --lang is then reported by the parser
    try:
        with argparse_words():
            args = parser(default).parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has reported
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    use(args.lang)
    try:
        status: int = args.run(args)
        # What is still buffered is written now, where a reader that stopped is handled below,
        # not as Python exits.
        sys.stdout.flush()
    except CommandError as exc:
        print(say("cli.failed", prog=PROG, message=str(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(say("cli.interrupted", prog=PROG), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader stopped (``| head``): no traceback, and none again when Python flushes
        # standard output at exit, which now goes nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
