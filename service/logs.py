"""Structured logs: one JSON object per line on stdout, for gunicorn and the application alike.

Log collectors (Kubernetes, container runtimes) read stdout; a JSON object per line lets
them index fields such as ``request_id`` and ``status`` without parsing free text. Request
bodies are never logged: they are the callers' game data, and a verdict's codes say enough.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from gunicorn.glogging import Logger as GunicornLogger
from pythonjsonlogger.json import JsonFormatter

APP_LOGGER = "service"

VERDICT_KEY = "tarot.verdict"
"""WSGI environ key under which a view leaves its rule verdict for the request's access line."""


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


class JsonGunicornLogger(GunicornLogger):  # type: ignore[misc]
    """gunicorn's logger with JSON lines on stdout for both its error and access logs."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stderr:
                    handler.setStream(sys.stdout)
                handler.setFormatter(json_formatter())

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: timedelta) -> None:
        if not self.access_log_enabled:
            return
        status = resp.status
        code = int(status.split(None, 1)[0]) if isinstance(status, str) else status
        headers = {k.lower(): v for k, v in resp.headers}
        self.access_log.info(
            "request",
            extra={
                "method": environ.get("REQUEST_METHOD"),
                "path": environ.get("PATH_INFO"),
                "status": code,
                "bytes": getattr(resp, "sent", None),
                "duration_us": request_time // timedelta(microseconds=1),
                "remote": environ.get("REMOTE_ADDR"),
                "request_id": headers.get("x-request-id"),
                "user_agent": environ.get("HTTP_USER_AGENT"),
                # Left by the view (service.api.layers.telemetry): the rule verdict, as codes.
                "verdict": environ.get(VERDICT_KEY),
            },
        )
