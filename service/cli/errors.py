"""The one way a command gives up: a message for the person, and exit status 2."""

from __future__ import annotations


class CommandError(Exception):
    """The command could not run (a file unreadable, a service unreachable); ``str()`` says why.

    Raised anywhere below a command, even in a worker process, so it carries only its message
    (it has to survive pickling back to the parent).
    """
