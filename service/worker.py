"""gunicorn's sync worker, answering malformed HTTP with problem documents.

gunicorn itself refuses a request it cannot parse (a broken request line, bad headers, a
bad chunked framing, an unknown transfer coding) before the application sees it, with an
HTML page; an unknown transfer coding even gets 501. Clients of this service get the same
``application/problem+json`` answer as for any other fault, with a 4xx status: these are
client faults, and our contract promises no 5xx for them (RFC 9112 §6.1's 501 is a SHOULD).
"""

from __future__ import annotations

import json
import uuid
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.http import errors
from gunicorn.workers.sync import SyncWorker

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

# Not the client's fault: left to gunicorn (a 500, logged with its trace).
_SERVER_SIDE = (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName, errors.ConfigurationProblem)


def problem_answer(exc: Exception) -> bytes:
    """The raw HTTP answer to a request gunicorn could not parse."""
    status, code = HTTPStatus.BAD_REQUEST, "malformed_http"
    for kind, kind_status, kind_code in _STATUS:
        if isinstance(exc, kind):
            status, code = kind_status, kind_code
            break
    detail = f"The HTTP request could not be parsed: {exc}"
    body = json.dumps(
        {
            "type": PROBLEM_BASE + "malformed-http",
            "title": status.phrase,
            "status": int(status),
            "detail": detail,
            "errors": [{"pointer": "", "code": code, "message": detail}],
        }
    ).encode()
    head = (
        f"HTTP/1.1 {int(status)} {status.phrase}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"X-Request-ID: {uuid.uuid4().hex}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ProblemSyncWorker(SyncWorker):  # type: ignore[misc]
    """The sync worker, with problem documents for requests that are not valid HTTP."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        if not isinstance(exc, errors.ParseException) or isinstance(exc, _SERVER_SIDE):
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            util.write_nonblock(client, problem_answer(exc))
        except OSError:
            self.log.debug("Failed to send the problem answer.")
