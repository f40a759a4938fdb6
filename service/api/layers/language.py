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
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from flask import Request, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.texts import DEFAULT_LANGUAGE, LANGUAGES

from . import OPERATIONS_PREFIX

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

LANGUAGE = "tarot.language"
"""WSGI environ key: the request's negotiated language, worked out once."""

_PROBLEM = "application/problem+json"


_HEADER_CHARS: Final = 256
"""How much of an Accept-Language header is read: a browser's is a few dozen characters, and a
header of thousands would cost milliseconds to parse, each time it varies."""


@lru_cache(maxsize=256)
def negotiate(accept_language: str | None) -> str:
    """The language to answer in, from an ``Accept-Language`` header (RFC 9110, section
    12.5.4): the supported language of the client's most preferred range, a range naming a
    language by its primary subtag (``fr-CA`` asks for French, as ``fr`` does; RFC 4647
    lookup); ``*`` or nothing supported gives English, unless English was refused (``q=0``)."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    ranges = sorted(parse_accept_header(accept_language[:_HEADER_CHARS], LanguageAccept), key=lambda r: -r[1])
    refused = {tag.lower() for tag, quality in ranges if quality == 0}
    for tag, quality in ranges:
        if quality == 0:
            continue
        if tag == "*":
            return next((language for language in LANGUAGES if language not in refused), DEFAULT_LANGUAGE)
        primary = tag.split("-")[0].lower()
        if primary in LANGUAGES and primary not in refused:
            return primary
    return DEFAULT_LANGUAGE


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
        # Every path but the operations' (the contract, its page, the metrics, the probes)
        # answers in English, but for its problems.
        operation = environ.get("PATH_INFO", "").startswith(OPERATIONS_PREFIX)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if not operation and not _is_problem(headers):
                headers.append(("Content-Language", DEFAULT_LANGUAGE))
            else:
                headers.append(("Content-Language", language_of(environ)))
                headers.append(("Vary", "Accept-Language"))
            return start_response(status, headers, exc_info)

        return self._next(environ, start)
