"""Calls from web pages: cross-origin resource sharing (CORS) for the ``/v1`` operations.

Off unless the operator names the origins allowed (``CORS_ORIGINS``): a browser then lets a
page of one of those origins read the answers, problems included, and send the request
headers the contract uses. flask-cors does the matching and makes the headers; this module
decides the policy and adds them to every answer as a WSGI layer (:class:`CrossOrigin`):
exact origins only, no credentials (the service has none to share), preflight answers cached
by the browser for two hours (mobile networks pay a round trip for each), and ``Vary: Origin``
on every ``/v1`` answer once CORS is on, so that no cache hands an answer made for one origin,
or for none, to a page of another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from flask_cors.core import DEFAULT_OPTIONS, get_cors_headers, serialize_options
from werkzeug.datastructures import EnvironHeaders

from . import OPERATIONS_PREFIX

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ALLOWED_HEADERS: Final = ("Content-Type", "Accept-Language", "X-Request-ID")
"""The request headers the contract reads, which a page may send."""

EXPOSED_HEADERS: Final = ("X-Request-ID", "Retry-After", "Deprecation", "Sunset", "Link")
"""Answer headers a page may read beyond the safelisted ones (``Content-Language`` is one):
the request id, how long to wait after a refusal for load, and the headers that announce a
deprecated operation (the README's version policy)."""

METHODS: Final = ("GET", "POST")
PREFLIGHT_MAX_AGE_SECONDS: Final = 7200
"""How long a browser may reuse a preflight's answer; the most Chromium honours."""

ANY_ORIGIN: Final = "*"

_ORIGIN = re.compile(
    r"(?P<scheme>https?)://"
    r"(?P<host>[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)"
    r"(?::(?P<port>[0-9]{1,5}))?",
    re.IGNORECASE,
)


class OriginsError(ValueError):
    """``CORS_ORIGINS`` names something a browser never sends as an origin."""


def parse_origins(setting: str | Iterable[str] | None) -> tuple[str, ...]:
    """The origins ``setting`` allows: a comma- or space-separated list of exact origins
    (``scheme://host[:port]``, as a browser sends them in ``Origin``), or ``*`` for any page.
    Empty or absent: none, and CORS is off. Anything else is refused with the reason, so that
    a typo (a trailing slash, a path) fails at start-up rather than in every browser."""
    if setting is None:
        return ()
    items = setting.replace(",", " ").split() if isinstance(setting, str) else [str(item) for item in setting]
    origins: list[str] = []
    for item in items:
        if item == ANY_ORIGIN:
            origins.append(item)
            continue
        match = _ORIGIN.fullmatch(item)
        if match is None or (match["port"] is not None and not 0 < int(match["port"]) < 65536):
            raise OriginsError(
                f"CORS_ORIGINS: {item!r} is not an origin. Write each as a browser sends it in the "
                "Origin header, scheme://host[:port] with no path and no trailing slash "
                "(https://app.example.org), separated by commas or spaces; or * for any origin."
            )
        origins.append(item.lower())
    if ANY_ORIGIN in origins and len(origins) > 1:
        raise OriginsError("CORS_ORIGINS: * allows every origin; list origins or give * alone.")
    return tuple(dict.fromkeys(origins))


class CrossOrigin:
    """WSGI layer: the CORS headers of every ``/v1`` answer, whoever makes it.

    A layer rather than flask-cors's Flask hook, so that the answers the server makes without
    Flask (a ``503`` refusal for load) carry the same headers as the application's: a page
    that cannot read a refusal sees a network error and never its ``Retry-After``. flask-cors
    still computes them, from the options it would have been given.
    """

    def __init__(self, app: WSGIApplication, origins: tuple[str, ...]) -> None:
        self._next = app
        everyone = origins == (ANY_ORIGIN,)
        self._options = serialize_options(
            {
                **DEFAULT_OPTIONS,
                # Literal strings: flask-cors compares them whole, ignoring case, as origins are.
                "origins": ANY_ORIGIN if everyone else list(origins),
                "send_wildcard": everyone,
                "methods": list(METHODS),
                "allow_headers": list(ALLOWED_HEADERS),
                "expose_headers": list(EXPOSED_HEADERS),
                "max_age": PREFLIGHT_MAX_AGE_SECONDS,
                "supports_credentials": False,
                # Said below for every /v1 answer, matched or not.
                "vary_header": False,
                # Only to requests that carry an Origin: other callers get no CORS header.
                "always_send": False,
            }
        )
        # A wildcard answer is the same for every origin: nothing for a cache to tell apart.
        self._vary: list[tuple[str, str]] = [] if everyone else [("Vary", "Origin")]

    def headers(self, environ: WSGIEnvironment) -> list[tuple[str, str]]:
        """The CORS headers of the answer to the request of ``environ``."""
        if not environ.get("PATH_INFO", "").startswith(OPERATIONS_PREFIX):
            return []
        if "HTTP_ORIGIN" not in environ:
            return self._vary
        found = get_cors_headers(self._options, EnvironHeaders(environ), environ.get("REQUEST_METHOD", ""))
        return [(name, str(value)) for name, value in found.items(multi=True)] + self._vary

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        extra = self.headers(environ)
        if not extra:
            return self._next(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.extend(extra)
            return start_response(status, headers, exc_info)

        return self._next(environ, start)
