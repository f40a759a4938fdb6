"""Where a request that reaches no operation was probably meant to go.

A path the service does not serve (a letter off, a trailing slash, no ``/v1``, another case)
is answered with the nearest route, method and path, and where every operation is listed
(``/docs``, and the contract itself); a method a path does not take, with the one it does.
The routes are the operations declared once (:data:`~.operations.OPERATIONS`) and the
service's own pages (:data:`META_ROUTES`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
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


DOCS = "/docs"
"""The operations' page (Swagger UI)."""
CONTRACT = "/openapi.json"
CONTRACT_YAML = "/openapi.yaml"

META_ROUTES = tuple(Route("GET", path) for path in ("/livez", "/readyz", "/metrics", CONTRACT, CONTRACT_YAML, DOCS))
"""The service's own pages: its probes, its metrics, its contract and the page that shows it."""

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
    scores = [
        (max(difflib.SequenceMatcher(None, tail, _plain(route.path)).ratio() for tail in tails), route)
        for route in routes()
    ]
    best = max(score for score, _ in scores)
    if best < NEAR_ENOUGH:
        return ()
    return tuple(route for score, route in scores if score == best)


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
