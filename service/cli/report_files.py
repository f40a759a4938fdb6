"""Where the command's reports go: a path checked before the run, so that a run of minutes does not
end on a path it cannot write, and a file written whole, its failure said with the report's name."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from .errors import CommandError, reason
from .words import say


def check_writable(path: str, report: str) -> None:
    """Refuse a path the ``report`` (its name in words) cannot be written to."""
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(say("report.not_writable", path=path, report=report, reason=say("report.is_a_directory")))
    if not os.path.isdir(directory):
        raise CommandError(say("report.no_directory", path=path, report=report))
    if not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CommandError(say("report.not_writable", path=path, report=report, reason=say("report.permission")))


@contextmanager
def report_file(path: str, report: str) -> Iterator[IO[str]]:
    """The file at ``path``, open to write the ``report`` in UTF-8; a failure is the command's error."""
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            yield out
    except OSError as exc:
        raise CommandError(say("report.not_writable", path=path, report=report, reason=reason(exc))) from None
