"""The language of an answer: negotiated from ``Accept-Language``, said in ``Content-Language``.

Every human text of an answer (legal-card reasons, violation messages, score explanations,
problem titles, details and field messages) is in the negotiated language, French or
English; machine codes never change with it. Answers that vary carry ``Vary:
Accept-Language`` so that caches keep one copy per language.

A WSGI layer rather than a Flask hook: it sees every answer, errors included, and adds its
headers to the list the server gets, which costs a fraction of setting them on a response.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Request, request

from service.texts import DEFAULT_LANGUAGE, negotiate

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

LANGUAGE = "tarot.language"
"""WSGI environ key: the request's negotiated language, worked out once."""

# The operations, whose answers hold texts for people. Every other path (the contract, its
# page, the metrics, the probes) answers in English, but for its problems.
_OPERATIONS = "/v1/"
_PROBLEM = "application/problem+json"


def language_of(environ: dict[str, Any]) -> str:
    """The language to answer the request of ``environ`` in."""
    language: str | None = environ.get(LANGUAGE)
    if language is None:
        language = environ[LANGUAGE] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return language


def request_language(req: Request | None = None) -> str:
    """The language to answer ``req`` (the current request by default) in."""
    return language_of((req or request).environ)


def _is_problem(headers: list[tuple[str, str]]) -> bool:
    return any(name.lower() == "content-type" and value.startswith(_PROBLEM) for name, value in headers)


class Languages:
    """WSGI layer: says each answer's language, and that it varies with ``Accept-Language``."""

    def __init__(self, app: WSGIApplication) -> None:
        self._next = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        operation = environ.get("PATH_INFO", "").startswith(_OPERATIONS)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if not operation and not _is_problem(headers):
                headers.append(("Content-Language", DEFAULT_LANGUAGE))
            else:
                headers.append(("Content-Language", language_of(environ)))
                headers.append(("Vary", "Accept-Language"))
            return start_response(status, headers, exc_info)

        return self._next(environ, start)
