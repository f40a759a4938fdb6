"""Structured logs: one JSON object per line on stdout, for gunicorn and the application alike.

The format and the application's side are here; gunicorn's logger is
:class:`service.serving.logs.JsonGunicornLogger`, in the same format.

Log collectors (Kubernetes, container runtimes) read stdout; a JSON object per line lets
them index fields such as ``request_id`` and ``status`` without parsing free text. Request
bodies are never logged: they are the callers' game data, and a verdict's codes say enough.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from pythonjsonlogger.json import JsonFormatter

from . import connection

APP_LOGGER = "service"

VERDICT_KEY = connection.VERDICT_KEY
"""The key is the server's and the application's (:mod:`service.connection`); the application
names it from here."""


def json_formatter() -> logging.Formatter:
    """The one log format: time, level, logger and message, plus any ``extra`` fields."""
    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        datefmt="%Y-%m-%dT%H:%M:%S%z",
    )


class _Stdout(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stdout`` is at the time, so a replaced stream is followed."""

    def __init__(self) -> None:
        super().__init__(sys.stdout)

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


def configure_app_logging(level: str, record_filter: Callable[[logging.LogRecord], bool] | None = None) -> None:
    """Send the application's logs to stdout as JSON; idempotent, as apps are built per test."""
    logger = logging.getLogger(APP_LOGGER)
    logger.setLevel(level.upper())
    logger.propagate = False
    if not any(isinstance(h, _Stdout) for h in logger.handlers):
        handler = _Stdout()
        handler.setFormatter(json_formatter())
        if record_filter is not None:
            handler.addFilter(record_filter)
        logger.addHandler(handler)
