"""The language of an answer: negotiated from ``Accept-Language``, said in ``Content-Language``.

Every human text of an answer (legal-card reasons, violation messages, score explanations,
problem titles, details and field messages) is in the negotiated language, French or
English; machine codes never change with it. Answers that vary carry ``Vary:
Accept-Language`` so that caches keep one copy per language.
"""

from __future__ import annotations

from flask import Flask, Request, Response, request

from service.texts import DEFAULT_LANGUAGE, negotiate

LANGUAGE = "tarot.language"
"""WSGI environ key: the request's negotiated language, worked out once."""

# Paths whose answers hold no translated text: the contract, its page, the metrics, the probes.
_FIXED_PREFIXES = ("/openapi", "/docs", "/metrics", "/livez", "/readyz")


def request_language(req: Request | None = None) -> str:
    """The language to answer ``req`` (the current request by default) in."""
    environ = (req or request).environ
    language: str | None = environ.get(LANGUAGE)
    if language is None:
        language = environ[LANGUAGE] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return language


def _say_language(response: Response) -> Response:
    if request.path.startswith(_FIXED_PREFIXES) and response.mimetype != "application/problem+json":
        response.headers["Content-Language"] = DEFAULT_LANGUAGE
        return response
    response.headers["Content-Language"] = request_language()
    response.vary.add("Accept-Language")
    return response


def register(app: Flask) -> None:
    app.after_request(_say_language)
