"""gunicorn's logger as JSON lines on stdout, in the application's format (:mod:`service.logs`)."""

from __future__ import annotations

import logging
import sys
from datetime import timedelta
from typing import Any

from gunicorn.glogging import Logger as GunicornLogger

from ..connection import VERDICT_KEY
from ..logs import json_formatter


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
