"""RFC 9457 problem details: every error the service answers is one of these.

A problem is ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``
and ``errors``: one entry per fault, each with a JSON pointer into the request body
(RFC 6901), a machine code and a human message, and, where one helps, how to put it right (a
:class:`Hint`: a ``hint`` for people, the ``suggestions`` a program can send instead; a 413
also gives the ``limit`` passed). Clients branch on ``status`` and the ``errors[].code`` values; the messages
are for people, in the language the request asked for (the HTTP layer negotiates it; the
command line takes it from its options): title, detail and messages are kept as catalog
messages until the document is written.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from service.messages import Bytes, Message, msg
from service.texts import DEFAULT_LANGUAGE, render

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_BASE = "/problems/"
"""Problem type URIs are relative references under this path (RFC 9457 §3.1.1)."""

log = logging.getLogger(__name__)


PROBLEM_STATUSES = (400, 403, 404, 405, 408, 413, 414, 415, 416, 417, 422, 431, 500, 503)
"""The statuses the service answers with a problem: each has its title in the catalogs
(``problem.title.<status>``); another one (werkzeug may raise any) gets a title made of its
number."""


@dataclass(frozen=True, slots=True)
class Hint:
    """How to put a fault right: words for people, and what a program can act on."""

    message: Message
    suggestions: tuple[str, ...] = ()
    """Values to send instead, nearest first: card codes, field names, a media type, a shape."""


class Coded(str):
    """A validation message that carries its machine code, its catalog message and its hint.

    Marshmallow keeps the message objects it is given, so all three survive the trip through
    schema validation into :func:`errors_from_messages`. As text (for marshmallow and logs) it
    is the English sentence; the answer says it in the request's language.
    """

    code: str
    message: Message
    hint: Hint | None

    def __new__(cls, code: str, message: Message, hint: Hint | None = None) -> Coded:
        obj = super().__new__(cls, render(message, DEFAULT_LANGUAGE))
        obj.code = code
        obj.message = message
        obj.hint = hint
        return obj

    def __getnewargs__(self) -> tuple[str, Message, Hint | None]:  # type: ignore[override]
        # Copies (marshmallow deep-copies its error messages) keep the code and the hint.
        return self.code, self.message, self.hint

    def format(self, *args: Any, **kwargs: Any) -> Coded:
        # marshmallow formats its messages before raising them; ours carry their arguments.
        return self


def pointer(path: Iterable[str | int]) -> str:
    """A JSON pointer (RFC 6901) to ``path`` inside the request body."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One fault in a request, located by a JSON pointer; its hint, when one helps."""

    pointer: str
    code: str
    message: Message
    hint: Hint | None = None
    limit: int | None = None
    """The limit the request passed, when the fault is passing one (a 413: the body's bytes)."""

    def as_dict(self, language: str) -> dict[str, Any]:
        out: dict[str, Any] = {"pointer": self.pointer, "code": self.code, "message": render(self.message, language)}
        hint = self.hint
        if hint is not None:
            # Optional fields after the three every client reads: older clients let them be.
            out["hint"] = render(hint.message, language)
            if hint.suggestions:
                out["suggestions"] = list(hint.suggestions)
        if self.limit is not None:
            out["limit"] = self.limit
        return out


@dataclass(frozen=True, slots=True)
class ParameterError(FieldError):
    """A fault in a query parameter: the pointer is empty (no body field), the name says where."""

    parameter: str = ""

    def as_dict(self, language: str) -> dict[str, Any]:
        return {**FieldError.as_dict(self, language), "parameter": self.parameter}


def whole(code: str, message: Message, hint: Hint | None = None, limit: int | None = None) -> FieldError:
    """A fault of the request as a whole (the pointer ``""``)."""
    return FieldError("", code, message, hint, limit)


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
    if isinstance(messages, Coded):
        return [FieldError(pointer(path), messages.code, messages.message, messages.hint)]
    if isinstance(messages, str):
        # Every field and validator of the wire codes its messages; were one to slip through,
        # its English words are not sent as if they were translated.
        log.warning("uncoded validation message: %s", messages)
        return [FieldError(pointer(path), "invalid", msg("error.invalid"))]
    if isinstance(messages, Iterable):
        return [e for m in messages for e in errors_from_messages(m, path)]
    return [FieldError(pointer(path), "invalid", msg("error.invalid"))]


class ProblemError(Exception):
    """Raised anywhere in a request to answer with a problem document."""

    def __init__(
        self,
        status: int,
        kind: str,
        detail: Message,
        errors: Iterable[FieldError] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail.key)
        self.status = status
        self.kind = kind
        self.detail = detail
        self.errors = list(errors)
        self.headers = dict(headers or {})


def too_large(limit: int | None, hint: Hint | None = None) -> ProblemError:
    """The 413 of a body over ``limit`` bytes (the limit the application or the operation set)."""
    said = msg("error.body_too_large") if limit is None else msg("error.body_too_large.limit", limit=Bytes(limit))
    return ProblemError(413, "body-too-large", said, [whole("body_too_large", said, hint, limit)])


def problem_title(status: int, language: str) -> str:
    """The title of a problem of ``status``, in ``language``."""
    if status in PROBLEM_STATUSES:
        return render(Message(f"problem.title.{status}"), language)
    if language == DEFAULT_LANGUAGE:
        return HTTPStatus(status).phrase
    return render(msg("problem.title.other", status=status), language)


def problem_document(
    status: int,
    kind: str | None,
    detail: Message,
    errors: Iterable[FieldError] = (),
    instance: str | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """A problem document as JSON data: the body of an error answer, or of a batch's faulty line."""
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + kind if kind else "about:blank",
        "title": problem_title(status, language),
        "status": status,
        "detail": render(detail, language),
    }
    if instance is not None:
        body["instance"] = instance
    body["errors"] = [e.as_dict(language) for e in errors]
    return body
