"""Request ids: taken from ``X-Request-ID`` when the client sends a sane one, else made here,
and echoed on the answer so a client's logs and ours can be joined.

A WSGI layer rather than a Flask hook: it sees every answer, errors included, and costs no
context-local lookup on the way.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import has_request_context, request

HEADER = "X-Request-ID"
_SANE = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
_KEY = "tarot.request_id"  # kept in the WSGI environ, where the access log finds it too

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


def _id_for(environ: dict[str, Any]) -> str:
    rid: str | None = environ.get(_KEY)
    if rid is None:
        sent = environ.get("HTTP_X_REQUEST_ID", "")
        rid = sent if _SANE.fullmatch(sent) else secrets.token_hex(16)
        environ[_KEY] = rid
    return rid


def current() -> str:
    """The id of the request being served."""
    return _id_for(request.environ)


def add_to_record(record: logging.LogRecord) -> bool:
    """Logging filter: stamp every record made while serving a request with its id."""
    record.request_id = current() if has_request_context() else None
    return True


class RequestIds:
    """WSGI layer: gives each request its id and puts it on the answer's headers."""

    def __init__(self, app: WSGIApplication) -> None:
        self._next = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        rid = _id_for(environ)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append((HEADER, rid))
            return start_response(status, headers, exc_info)

        return self._next(environ, start)
