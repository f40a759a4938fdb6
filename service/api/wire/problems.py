"""RFC 9457 problem details: every error the service answers is one of these.

A problem is ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``
and ``errors``: one entry per fault, each with a JSON pointer into the request body
(RFC 6901), a machine code and a human message. Clients branch on ``status`` and the
``errors[].code`` values; the messages are for people.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..pipeline.jsonio import dumps

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_BASE = "/problems/"
"""Problem type URIs are relative references under this path (RFC 9457 §3.1.1)."""

log = logging.getLogger(__name__)


class Coded(str):
    """A validation message that carries its machine code.

    Marshmallow keeps the message objects it is given, so the code survives the trip
    through schema validation into :func:`errors_from_messages`.
    """

    code: str

    def __new__(cls, code: str, message: str) -> Coded:
        obj = super().__new__(cls, message)
        obj.code = code
        return obj

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        # Copies (marshmallow deep-copies its error messages) keep the code.
        return self.code, str(self)

    def format(self, *args: Any, **kwargs: Any) -> Coded:
        # marshmallow formats its messages before raising them: the code must survive that.
        return Coded(self.code, str.format(self, *args, **kwargs))


def code_of(message: str) -> str:
    """The machine code a validation message carries (see :mod:`service.api.wire.fields`)."""
    code = getattr(message, "code", None)
    return code if isinstance(code, str) else "invalid"


def pointer(path: Iterable[str | int]) -> str:
    """A JSON pointer (RFC 6901) to ``path`` inside the request body."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One fault in a request, located by a JSON pointer."""

    pointer: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "code": self.code, "message": self.message}


def errors_from_messages(messages: Any, path: tuple[str | int, ...] = ()) -> list[FieldError]:
    """Flatten marshmallow's nested error messages into located, coded errors."""
    if isinstance(messages, Mapping):
        # Marshmallow reports list items under int keys and schema-level errors under
        # "_schema"; the latter locate at the object itself.
        out: list[FieldError] = []
        for key, value in messages.items():
            sub = path if key == "_schema" else (*path, key)
            out.extend(errors_from_messages(value, sub))
        return out
    if isinstance(messages, str):
        return [FieldError(pointer(path), code_of(messages), str(messages))]
    if isinstance(messages, Iterable):
        return [e for m in messages for e in errors_from_messages(m, path)]
    return [FieldError(pointer(path), "invalid", str(messages))]


class ProblemError(Exception):
    """Raised anywhere in a request to answer with a problem document."""

    def __init__(
        self,
        status: int,
        kind: str,
        detail: str,
        errors: Iterable[FieldError] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.kind = kind
        self.detail = detail
        self.errors = list(errors)
        self.headers = dict(headers or {})


def problem_document(
    status: int, kind: str | None, detail: str, errors: Iterable[FieldError] = (), instance: str | None = None
) -> dict[str, Any]:
    """A problem document as JSON data: the body of an error answer, or of a batch's faulty line."""
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + kind if kind else "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance is not None:
        body["instance"] = instance
    body["errors"] = [e.as_dict() for e in errors]
    return body


def problem_response(
    status: int,
    kind: str | None,
    detail: str,
    errors: Iterable[FieldError] = (),
    headers: Mapping[str, str] | None = None,
) -> Response:
    body = problem_document(status, kind, detail, errors, instance=request.path)
    response = Response(dumps(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# HTTP errors raised by Flask or Werkzeug themselves, with the problem type we give them.
_HTTP_KINDS = {
    400: "bad-request",
    404: "not-found",
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
    headers: dict[str, str] = {}
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        headers["Allow"] = ", ".join(sorted(error.valid_methods))
    detail = {
        404: "No operation at this path.",
        405: f"{request.method} is not allowed here.",
        413: "The request body is larger than this service accepts.",
    }.get(status, error.description or HTTPStatus(status).phrase)
    kind = _HTTP_KINDS.get(status)
    # The pointer "" designates the request as a whole.
    errors = [FieldError("", (kind or "client-error").replace("-", "_"), detail)]
    return problem_response(status, kind, detail, errors, headers)


def _handle_unexpected(error: BaseException) -> Response:
    # Never a stack trace to the client; the log keeps it for the operator.
    log.exception("unhandled error", exc_info=error)
    return problem_response(500, "internal-error", "The service failed to answer this request.")


def register(app: Flask) -> None:
    """Answer every error of ``app`` with a problem document."""
    app.register_error_handler(ProblemError, _handle_problem)
    app.register_error_handler(HTTPException, _handle_http)
    app.register_error_handler(Exception, _handle_unexpected)
