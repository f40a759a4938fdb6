"""The answers the server writes itself: requests gunicorn cannot parse, headers that stall.

They come before the application runs, so they are built here, in the same problem document
shape as the application's (``application/problem+json``), not by Flask.
"""

from __future__ import annotations

import json
import uuid
from http import HTTPStatus

from gunicorn.http import errors

from ..messages import Message, msg
from ..texts import DEFAULT_LANGUAGE, render

PROBLEM_BASE = "/problems/"

# Statuses other than 400 for the faults that have their own.
_STATUS: tuple[tuple[type[Exception], HTTPStatus, str], ...] = (
    (errors.LimitRequestLine, HTTPStatus.REQUEST_URI_TOO_LONG, "uri_too_long"),
    (errors.LimitRequestHeaders, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large"),
    (errors.ExpectationFailed, HTTPStatus.EXPECTATION_FAILED, "expectation_failed"),
    (errors.ForbiddenProxyRequest, HTTPStatus.FORBIDDEN, "forbidden"),
    (errors.UnsupportedTransferCoding, HTTPStatus.BAD_REQUEST, "unsupported_transfer_coding"),
    (errors.InvalidChunkSize, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
    (errors.ChunkMissingTerminator, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
    (errors.InvalidChunkExtension, HTTPStatus.BAD_REQUEST, "bad_chunked_body"),
)


def problem_answer(status: HTTPStatus, kind: str, code: str, detail: Message) -> bytes:
    """A raw HTTP answer with a problem document, for faults found before the application runs.

    Such a request's headers are not known (it could not be parsed, or they never came), so
    neither is the language it asks for: the answer is in English, and says so.
    """
    text = render(detail, DEFAULT_LANGUAGE)
    body = json.dumps(
        {
            "type": PROBLEM_BASE + kind,
            "title": render(Message(f"problem.title.{int(status)}"), DEFAULT_LANGUAGE),
            "status": int(status),
            "detail": text,
            "errors": [{"pointer": "", "code": code, "message": text}],
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


def parse_problem(exc: Exception) -> bytes:
    """The answer to a request gunicorn could not parse."""
    status, code = HTTPStatus.BAD_REQUEST, "malformed_http"
    for kind, kind_status, kind_code in _STATUS:
        if isinstance(exc, kind):
            status, code = kind_status, kind_code
            break
    # Each code has its sentence in the catalogs (error.<code>); gunicorn's reason is added as it is.
    detail = Message(f"error.{code}", (("reason", str(exc)[:200]),))
    return problem_answer(status, "malformed-http", code, detail)


HEADER_TIMEOUT_ANSWER = problem_answer(
    HTTPStatus.REQUEST_TIMEOUT, "request-timeout", "header_timeout", msg("error.header_timeout")
)
