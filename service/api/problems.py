"""Every error of the application answered as a problem document (RFC 9457).

The documents themselves are the contract's (:mod:`service.contract.problems`); here they
are sent, in the language the request asked for, and the errors Flask and Werkzeug raise on
their own (404, 405, 413…) are given theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from service.contract import routes
from service.contract.jsonio import dumps
from service.contract.problems import PROBLEM_MIMETYPE, FieldError, ProblemError, problem_document, too_large, whole
from service.messages import Message, msg

from .layers.language import request_language

log = logging.getLogger(__name__)


def problem_response(
    status: int,
    kind: str | None,
    detail: Message,
    errors: Iterable[FieldError] = (),
    headers: Mapping[str, str] | None = None,
) -> Response:
    body = problem_document(status, kind, detail, errors, instance=request.path, language=request_language())
    response = Response(dumps(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# HTTP errors raised by Flask or Werkzeug themselves, with the problem type we give them.
_HTTP_KINDS = {
    400: "bad-request",
    405: "method-not-allowed",
    413: "body-too-large",
    415: "unsupported-media-type",
}


def _handle_problem(error: ProblemError) -> Response:
    return problem_response(error.status, error.kind, error.detail, error.errors, error.headers)


def _handle_http(error: HTTPException) -> Response:
    status = error.code or 500
    if status >= 500:
        return _handle_unexpected(error)
    if status == 413:
        # The limit the application (or the operation, for this request) set.
        return _handle_problem(too_large(request.max_content_length))
    if status == 404:
        return _handle_problem(routes.not_found(request.path))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        return _handle_problem(routes.method_not_allowed(request.method, request.path, error.valid_methods))
    kind = _HTTP_KINDS.get(status)
    code = (kind or "client-error").replace("-", "_")
    detail = {
        415: msg("error.unsupported_media_type.other"),
        400: msg("error.bad_request"),
    }.get(status, msg("error.client_error", status=status))
    # The pointer "" designates the request as a whole.
    return problem_response(status, kind, detail, [whole(code, detail)])


def _handle_unexpected(error: BaseException) -> Response:
    # Never a stack trace to the client; the log keeps it for the operator.
    log.exception("unhandled error", exc_info=error)
    return problem_response(500, "internal-error", msg("error.internal"))


def register(app: Flask) -> None:
    """Answer every error of ``app`` with a problem document."""
    app.register_error_handler(ProblemError, _handle_problem)
    app.register_error_handler(HTTPException, _handle_http)
    app.register_error_handler(Exception, _handle_unexpected)
