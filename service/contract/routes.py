"""Where a request that reaches no operation was probably meant to go.

A path the service does not serve is answered with the nearest routes, method and path, and
where every operation is listed (``/docs``, and the contract itself): the name other services
give a page of this one's (``/health``, ``/swagger``: :data:`ALSO_CALLED`), a path a letter off,
with a trailing slash, no ``/v1`` or another case, the end of a route's path (``/v1/score``)
or its beginning (``/v1/deals``). A method a path does not take is answered with the one it
does. The routes are the operations declared once (:data:`~.operations.OPERATIONS`) and the
service's own pages (:data:`META_ROUTES`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import NamedTuple

from service.messages import msg

from .hints import either
from .operations import OPERATIONS
from .problems import FieldError, Hint, ProblemError, whole


class Route(NamedTuple):
    method: str
    path: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


INDEX = "/"
"""The service's index: its name, version, and where its other pages are."""
LIVENESS = "/livez"
READINESS = "/readyz"
METRICS = "/metrics"
DOCS = "/docs"
"""The operations' page (Swagger UI)."""
CONTRACT = "/openapi.json"
CONTRACT_YAML = "/openapi.yaml"

META_ROUTES = tuple(Route("GET", path) for path in (INDEX, LIVENESS, READINESS, METRICS, CONTRACT, CONTRACT_YAML, DOCS))
"""The service's own pages: its index, its probes, its metrics, its contract and the page that shows it."""

ALSO_CALLED = {
    LIVENESS: ("/health", "/healthz", "/healthcheck", "/health-check", "/status", "/ping", "/alive", "/liveness"),
    READINESS: ("/health", "/healthz", "/healthcheck", "/health-check", "/status", "/readiness"),
    METRICS: ("/prometheus", "/stats"),
    DOCS: ("/swagger", "/swagger-ui", "/swagger-ui.html", "/swagger-ui/index.html", "/redoc", "/api-docs", "/doc"),
    CONTRACT: ("/swagger.json", "/openapi", "/spec", "/api-docs.json", "/openapi3.json"),
    CONTRACT_YAML: ("/swagger.yaml", "/swagger.yml", "/openapi.yml", "/spec.yaml"),
}
"""What other services call this one's own pages (a health check is both probes: liveness says
the process serves, readiness that it takes traffic)."""

NEAR_ENOUGH = 0.75
"""How alike (difflib's ratio) a path and a route's must be for the route to be named."""

_VERSION = re.compile(r"^.*?/v\d+(?=/|$)")
_SLASHES = re.compile(r"/+")


@cache
def routes() -> tuple[Route, ...]:
    """Every route the service serves: the operations (POST), then its own pages (GET)."""
    return (*(Route("POST", op.path) for op in OPERATIONS.values()), *META_ROUTES)


def _plain(path: str) -> str:
    """A path as it is compared: lower case, no repeated or trailing slash, no version prefix
    (``/API/v1/Tricks/winner/`` is ``/tricks/winner``)."""
    path = _SLASHES.sub("/", path.lower()).rstrip("/")
    return _VERSION.sub("", path) or "/"


def nearest_routes(path: str) -> tuple[Route, ...]:
    """The routes ``path`` was probably meant to be, likeliest first (none when nothing is near)."""
    plain = _plain(path[:200])
    if plain == "/":
        return ()
    # The path, and the path without its first segments (a prefix of the client's: /api/docs).
    tails = [plain[i:] for i in range(len(plain)) if plain[i] == "/"]
    for tail in tails:
        named = tuple(route for route in routes() if tail in _also_called().get(route.path, ()))
        if named:
            return named
    # The end of an operation's path, or its beginning (/v1/deal is the dealing, /v1/deals every
    # operation on a deal), before what looks alike (/v1/tricks is not /metrics)...
    found = _ending(plain, str.__eq__) or _beginning(plain, str.__eq__)
    if found:
        return found
    scores = [
        (max(difflib.SequenceMatcher(None, tail, _plain(route.path)).ratio() for tail in tails), route)
        for route in routes()
    ]
    best = max(score for score, _ in scores)
    if best >= NEAR_ENOUGH:
        return tuple(route for score, route in scores if score == best)
    # ...then after a prefix of the client's, or with a segment in the singular or the plural.
    for alike in (str.__eq__, _alike):
        for tail in tails:
            found = _ending(tail, alike) or _beginning(tail, alike)
            if found:
                return found
    return ()


@cache
def _also_called() -> dict[str, frozenset[str]]:
    return {path: frozenset(map(_plain, names)) for path, names in ALSO_CALLED.items()}


def _segments(path: str) -> list[str]:
    return [segment for segment in _plain(path).split("/") if segment]


def _ending(tail: str, alike: Callable[[str, str], bool]) -> tuple[Route, ...]:
    """The operations whose path ends with the segments of ``tail`` (``/score``: the deal's
    and the game's; ``/deal``: ``/v1/deals/deal``)."""
    said = _segments(tail)
    return tuple(route for route in _operations() if _matches(_segments(route.path)[-len(said) :], said, alike))


def _beginning(tail: str, alike: Callable[[str, str], bool]) -> tuple[Route, ...]:
    """The operations whose path begins with the segments of ``tail`` (``/deals``: all four)."""
    said = _segments(tail)
    return tuple(route for route in _operations() if _matches(_segments(route.path)[: len(said)], said, alike))


def _operations() -> tuple[Route, ...]:
    return tuple(route for route in routes() if route.method == "POST")


def _matches(segments: list[str], said: list[str], alike: Callable[[str, str], bool]) -> bool:
    return len(segments) == len(said) and all(map(alike, segments, said))


def _alike(segment: str, said: str) -> bool:
    """The same segment, in the singular or the plural."""
    return segment in (said, said + "s") or segment + "s" == said


def not_found(path: str) -> ProblemError:
    """The 404 of a path the service does not serve: the nearest route, and where all are listed."""
    detail = msg("error.not_found")
    near = nearest_routes(path)
    if near:
        said = msg("error.not_found.near", routes=either(tuple(map(str, near))), docs=DOCS, contract=CONTRACT)
        hint = Hint(said, tuple(route.path for route in near))
    elif _plain(path) == "/":
        hint = Hint(msg("error.not_found.root", docs=DOCS, contract=CONTRACT, yaml=CONTRACT_YAML), (DOCS, CONTRACT))
    else:
        hint = Hint(msg("error.not_found.docs", docs=DOCS, contract=CONTRACT), (DOCS, CONTRACT))
    return ProblemError(404, "not-found", detail, [whole("not_found", detail, hint)])


def method_not_allowed(method: str, path: str, allowed: Iterable[str]) -> ProblemError:
    """The 405 of a method ``path`` does not take: the methods it does, in words and to act on."""
    methods = tuple(m for m in sorted(allowed) if m not in ("HEAD", "OPTIONS")) or tuple(sorted(allowed))
    detail = msg("error.method_not_allowed", method=method[:16], allowed=either(methods))
    hint = Hint(msg("error.method_not_allowed.hint", routes=either(tuple(f"{m} {path}" for m in methods))), methods)
    error = FieldError("", "method_not_allowed", detail, hint)
    return ProblemError(405, "method-not-allowed", detail, [error], {"Allow": ", ".join(sorted(allowed))})
