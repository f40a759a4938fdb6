"""Request ids: taken from ``X-Request-ID`` when the client sends a sane one, else made here,
and echoed on the answer so a client's logs and ours can be joined."""

from __future__ import annotations

import logging
import re
import secrets

from flask import Flask, Response, has_request_context, request

HEADER = "X-Request-ID"
_SANE = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
_KEY = "tarot.request_id"  # kept in the WSGI environ: no context-local lookup to reach it


def current() -> str:
    """The id of the request being served."""
    environ = request.environ
    rid: str | None = environ.get(_KEY)
    if rid is None:
        sent = environ.get("HTTP_X_REQUEST_ID", "")
        rid = sent if _SANE.fullmatch(sent) else secrets.token_hex(16)
        environ[_KEY] = rid
    return rid


def add_to_record(record: logging.LogRecord) -> bool:
    """Logging filter: stamp every record made while serving a request with its id."""
    record.request_id = current() if has_request_context() else None
    return True


def _echo(response: Response) -> Response:
    response.headers[HEADER] = current()
    return response


def register(app: Flask) -> None:
    app.after_request(_echo)
