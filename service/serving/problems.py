"""The answers the server writes itself: requests gunicorn cannot parse, headers that stall.

They come before the application runs, so they are built here, in the same problem document
shape as the application's (``application/problem+json``), not by Flask.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from functools import lru_cache
from http import HTTPStatus
from typing import Any

from gunicorn.config import Config
from gunicorn.http import errors
from gunicorn.http.message import DEFAULT_MAX_HEADERFIELD_SIZE, MAX_HEADERS

from ..connection import ANSWER_LAYERS, NEGOTIATE
from ..messages import Bytes, Message, msg
from ..texts import DEFAULT_LANGUAGE, render

PROBLEM_BASE = "/problems/"

# Statuses other than 400 for the faults that have their own.
_STATUS: tuple[tuple[type[Exception], HTTPStatus, str], ...] = (
    (errors.LimitRequestLine, HTTPStatus.REQUEST_URI_TOO_LONG, "uri_too_long"),
    (errors.ExpectationFailed, HTTPStatus.EXPECTATION_FAILED, "expectation_failed"),
    (errors.ForbiddenProxyRequest, HTTPStatus.FORBIDDEN, "forbidden"),
    (errors.UnsupportedTransferCoding, HTTPStatus.BAD_REQUEST, "unsupported_transfer_coding"),
    (errors.InvalidChunkSize, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
    (errors.ChunkMissingTerminator, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
    (errors.InvalidChunkExtension, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
)


def problem_answer(
    status: HTTPStatus, kind: str, code: str, detail: Message, message: Message | None = None, limit: int | None = None
) -> bytes:
    """A raw HTTP answer with a problem document, for faults found before the application runs:
    its one error says ``message`` (the detail when None) and, for a limit passed, the ``limit``.

    Such a request's headers are not known (it could not be parsed, or they never came), so
    neither is the language it asks for: the answer is in English, and says so.
    """
    text = render(detail, DEFAULT_LANGUAGE)
    error: dict[str, Any] = {"pointer": "", "code": code, "message": render(message or detail, DEFAULT_LANGUAGE)}
    if limit is not None:
        error["limit"] = limit
    body = json.dumps(
        {
            "type": PROBLEM_BASE + kind,
            "title": render(Message(f"problem.title.{int(status)}"), DEFAULT_LANGUAGE),
            "status": int(status),
            "detail": text,
            "errors": [error],
        },
        ensure_ascii=False,
    ).encode()
    head = (
        f"HTTP/1.1 {int(status)} {status.phrase}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Language: {DEFAULT_LANGUAGE}\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Request-ID: {uuid.uuid4().hex}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def parse_problem(exc: Exception, cfg: Any = None) -> bytes:
    """The answer to a request gunicorn could not parse, under the limits of ``cfg`` (gunicorn's
    settings; its defaults when None)."""
    cfg = cfg or _DEFAULTS
    if isinstance(exc, errors.LimitRequestHeaders):
        return _headers_too_large(str(exc), cfg)
    if isinstance(exc, errors.LimitRequestLine) and cfg.limit_request_line > 0:
        said = msg("error.uri_too_long.limit", limit=Bytes(cfg.limit_request_line))
        return problem_answer(
            HTTPStatus.REQUEST_URI_TOO_LONG, "uri-too-long", "uri_too_long", said, limit=cfg.limit_request_line
        )
    status, code = HTTPStatus.BAD_REQUEST, "malformed_http"
    for kind, kind_status, kind_code in _STATUS:
        if isinstance(exc, kind):
            status, code = kind_status, kind_code
            break
    # Each code has its sentence in the catalogs (error.<code>); gunicorn's reason is added as it is.
    detail = Message(f"error.{code}", (("reason", str(exc)[:200]),))
    return problem_answer(status, "malformed-http", code, detail)


_DEFAULTS = Config()


def _headers_too_large(reason: str, cfg: Any) -> bytes:
    """The 431: the limit passed (header fields, one field's bytes, or the whole section's), and
    the service's limits. gunicorn says which limit in its reason, in words of its own."""
    fields = cfg.limit_request_fields if 0 < cfg.limit_request_fields <= MAX_HEADERS else MAX_HEADERS
    size = cfg.limit_request_field_size if cfg.limit_request_field_size > 0 else DEFAULT_MAX_HEADERFIELD_SIZE
    detail = msg("error.headers_too_large.detail", fields=fields, size=Bytes(size))
    if "size" in reason and "trailer" not in reason:
        message, limit = msg("error.headers_too_large.field", limit=Bytes(size)), size
    elif "buffer" in reason or "trailer" in reason:
        total = fields * (size + 2) + 4  # gunicorn's bound on a header (or trailer) section
        message, limit = msg("error.headers_too_large.total", limit=Bytes(total)), total
    else:
        message, limit = msg("error.headers_too_large.count", fields), fields
    status = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
    return problem_answer(status, "headers-too-large", "headers_too_large", detail, message, limit)


HEADER_TIMEOUT_ANSWER = problem_answer(
    HTTPStatus.REQUEST_TIMEOUT, "request-timeout", "header_timeout", msg("error.header_timeout")
)


def _document(status: HTTPStatus, kind: str, code: str, said: Message, path: str, language: str) -> bytes:
    text = render(said, language)
    document = {
        "type": PROBLEM_BASE + kind,
        "title": render(Message(f"problem.title.{int(status)}"), language),
        "status": int(status),
        "detail": text,
        "instance": path,
        "errors": [{"pointer": "", "code": code, "message": text}],
    }
    return json.dumps(document, ensure_ascii=False).encode()


class ProblemApp:
    """A WSGI application that answers every request with one problem, in the language the
    request asks for: an answer the server decides on without the application (a refusal for
    load, the probe port's 404), wrapped by the worker in the application's answer layers
    (request id, language, CORS) so that a client reads it as it reads the others."""

    def __init__(
        self,
        negotiate: Callable[[str | None], str],
        status: HTTPStatus,
        kind: str,
        code: str,
        said: Message,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self._negotiate = negotiate
        self._status = f"{int(status)} {status.phrase}"
        self._headers = headers

        # Made once per path and language: a refusal must cost the least, the worker is overloaded.
        @lru_cache(maxsize=64)
        def body(path: str, language: str) -> bytes:
            return _document(status, kind, code, said, path, language)

        self._body = body

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        body = self._body(environ.get("PATH_INFO", ""), self._negotiate(environ.get("HTTP_ACCEPT_LANGUAGE")))
        start_response(
            self._status,
            [("Content-Type", "application/problem+json"), ("Content-Length", str(len(body))), *self._headers],
        )
        return [body]


class OwnAnswers:
    """The answers the server makes without the application, wrapped in the application's answer
    layers (:data:`~service.connection.ANSWER_LAYERS`: its request id, language and CORS), in
    the language it negotiates."""

    def __init__(self, config: Any, retry_after: int) -> None:
        negotiate = config.get(NEGOTIATE) or (lambda _header: DEFAULT_LANGUAGE)
        layers = config.get(ANSWER_LAYERS) or (lambda app: app)
        # The refusal of a request the worker will not serve for load: 503, its own code.
        overloaded = ProblemApp(
            negotiate,
            HTTPStatus.SERVICE_UNAVAILABLE,
            "overloaded",
            "overloaded",
            msg("error.overloaded", seconds=retry_after),
            (("Retry-After", str(retry_after)),),
        )
        # A request for an operation on the probe port, which serves the probes and the metrics only.
        elsewhere = ProblemApp(negotiate, HTTPStatus.NOT_FOUND, "not-found", "not_found", msg("error.health_port_only"))
        self.overloaded = layers(overloaded)
        self.health_port_only = layers(elsewhere)
