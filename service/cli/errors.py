"""How a command gives up (a message for the person, and exit status 2), or warns and goes on."""

from __future__ import annotations

import sys

from .words import say

PROG = "tarot-rules"


class CommandError(Exception):
    """The command could not run (a file unreadable, a service unreachable); ``str()`` says why.

    Raised anywhere below a command, even in a worker process, so it carries only its message
    (it has to survive pickling back to the parent).
    """


def warn(message: str) -> None:
    """A warning on standard error: the run goes on."""
    print(say("cli.warning", prog=PROG, message=message), file=sys.stderr)


def reason(exc: BaseException) -> str:
    """Why an operation failed, from its exception: an OS error's own words (``No such file or
    directory``, as the C library says them), else the exception's message or its name."""
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
