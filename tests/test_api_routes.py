"""Paths and methods the service does not serve: a 404 names the nearest route (method and path)
and where every operation is listed (/docs, the contract); a 405 names the method to use.
Every route is mutated as clients get paths wrong (a letter off, a trailing slash, no /v1,
another case, the end or the beginning of its path alone), in French and in English, and named
as other services name theirs (/health, /swagger). ``GET /`` is the service's index, which a
load balancer's default check asks."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import __version__
from service.app import create_app
from service.connection import DRAINING
from service.contract.routes import ALSO_CALLED, CONTRACT, DOCS, INDEX, META_ROUTES, Route, nearest_routes, routes

NBSP = "\u00a0"
ROUTES = routes()
PAGES = tuple(route for route in ROUTES if route.path != INDEX)
"""The routes whose path a client can get wrong (the index's is a slash)."""
WRONG_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")


def refusal(client: FlaskClient, method: str, path: str, language: str, status: int) -> dict[str, Any]:
    """The one error of the problem ``method path`` is answered with."""
    r = client.open(path, method=method, json={}, headers={"Accept-Language": language})
    assert r.status_code == status, (method, path, r.status_code)
    assert r.mimetype == "application/problem+json" and r.headers["Content-Language"] == language
    errors: list[dict[str, Any]] = r.get_json()["errors"]
    [error] = errors
    return error


def assert_names_route(error: dict[str, Any], route: Route, language: str) -> None:
    assert error["code"] == "not_found" and error["suggestions"][0] == route.path, error
    hint = error["hint"]
    assert f"{route.method} {route.path}" in hint and DOCS in hint and CONTRACT in hint, hint
    assert hint.startswith("Did you mean" if language == "en" else "Vouliez-vous dire"), hint


def mutations(route: Route) -> list[str]:
    """The ways a client gets this route's path wrong that a table can list."""
    path = route.path
    out = [path.upper(), path.title(), path[:-1], path + "s", f"/api{path}"]
    if path != DOCS:  # /docs/ is the page itself (/docs redirects there)
        out.append(path + "/")
    if path.startswith("/v1/"):
        out += [path.removeprefix("/v1"), "/v2" + path.removeprefix("/v1"), path.replace("/v1/", "/V1/")]
    return out


CASES = [(route, path) for route in PAGES for path in mutations(route)]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("route", "path"), CASES, ids=[f"{r.method} {p}" for r, p in CASES])
def test_a_path_gone_wrong_is_told_its_route(client: FlaskClient, language: str, route: Route, path: str) -> None:
    assert_names_route(refusal(client, route.method, path, language, 404), route, language)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(PAGES),
    at=st.integers(min_value=1, max_value=40),
    letter=st.sampled_from("abcdefghijklmnopqrstuvwxyz-"),
    drop=st.booleans(),
    language=st.sampled_from(["en", "fr"]),
)
def test_a_letter_dropped_or_added_anywhere_is_told_its_route(
    client: FlaskClient, route: Route, at: int, letter: str, drop: bool, language: str
) -> None:
    path = route.path
    at = 1 + at % (len(path) - 1)  # never the leading slash
    wrong = path[:at] + path[at + 1 :] if drop else path[:at] + letter + path[at:]
    if wrong == path or wrong.rstrip("/") in {r.path for r in ROUTES} or wrong.startswith(DOCS + "/"):
        return  # not wrong (a letter doubled and dropped), or another route
    assert_names_route(refusal(client, route.method, wrong, language, 404), route, language)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_wrong_method_is_told_the_method_to_use(client: FlaskClient, language: str, route: Route) -> None:
    path = DOCS + "/" if route.path == DOCS else route.path  # the page itself
    for method in WRONG_METHODS:
        if method == route.method:
            continue
        r = client.open(path, method=method, json={}, headers={"Accept-Language": language})
        assert r.status_code == 405 and route.method in r.headers["Allow"]
        [error] = r.get_json()["errors"]
        said = f"use {route.method}." if language == "en" else f"utilisez {route.method}."
        assert error["code"] == "method_not_allowed" and error["message"].endswith(said), error
        assert error["suggestions"] == [route.method] and f"{route.method} {path}" in error["hint"]


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "its operations are listed at /docs"), ("fr", "ses opérations sont décrites à /docs")],
)
@pytest.mark.parametrize("path", ["/v1", "/v1/", "/api/v1"])
def test_the_root_of_the_operations_points_to_the_docs_and_the_contract(
    client: FlaskClient, language: str, said: str, path: str
) -> None:
    error = refusal(client, "GET", path, language, 404)
    assert said in error["hint"] and CONTRACT in error["hint"] and error["suggestions"] == [DOCS, CONTRACT]


def test_the_index_answers_a_load_balancers_check_and_names_every_page(app: Flask) -> None:
    client = app.test_client()
    r = client.get(INDEX, headers={"Accept-Language": "fr"})
    assert r.status_code == 200 and r.headers["Content-Language"] == "en"
    index = r.get_json()
    assert index.pop("service") == app.config["API_TITLE"] and index.pop("version") == __version__
    assert set(index.values()) == {route.path for route in META_ROUTES if route.path != INDEX}
    for path in index.values():
        assert client.get(path).status_code in (200, 308), path  # (/docs redirects to its page)
    # Whatever the instance's state: a check that follows draining asks /readyz.
    draining = create_app({"TESTING": True})
    draining.config[DRAINING] = True
    assert draining.test_client().get(INDEX).status_code == 200
    assert draining.test_client().get("/readyz").status_code == 503


NAMED = [(route, name) for route in PAGES for name in ALSO_CALLED.get(route.path, ())]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("route", "name"), NAMED, ids=[f"{r.path}:{n}" for r, n in NAMED])
def test_a_page_named_as_other_services_name_theirs_is_told_its_route(
    client: FlaskClient, language: str, route: Route, name: str
) -> None:
    for path in (name, name.upper(), f"/api{name}", f"/v1{name}", name + "/"):
        error = refusal(client, "GET", path, language, 404)
        assert route.path in error["suggestions"] and f"GET {route.path}" in error["hint"], (path, error)


@pytest.mark.parametrize(
    ("path", "meant"),
    [
        ("/health", ["/livez", "/readyz"]),
        ("/healthz", ["/livez", "/readyz"]),
        ("/swagger", [DOCS]),
        ("/v1/score", ["/v1/deals/score", "/v1/games/score"]),
        ("/v1/deals", ["/v1/deals/deal", "/v1/deals/score", "/v1/deals/evaluate", "/v1/deals/evaluate-batch"]),
        ("/v1/deal", ["/v1/deals/deal"]),
        ("/v1/trick", ["/v1/tricks/legal-cards", "/v1/tricks/winner"]),
        ("/api/v1/seating", ["/v1/tournaments/seating"]),
        ("/api/seating", ["/v1/tournaments/seating"]),
        ("/v1/scores", ["/v1/deals/score", "/v1/games/score"]),
        (
            "/v1/tournament",
            [
                "/v1/tournaments/standings",
                "/v1/tournaments/seating",
                "/v1/tournaments/duplicate/movement",
                "/v1/tournaments/duplicate/standings",
            ],
        ),
        ("/v1/tricks", ["/v1/tricks/legal-cards", "/v1/tricks/winner"]),
        ("/v1games/score", ["/v1/games/score"]),
    ],
)
def test_the_paths_users_tried_are_told_theirs(client: FlaskClient, path: str, meant: list[str]) -> None:
    assert refusal(client, "GET", path, "en", 404)["suggestions"] == meant


OPERATIONS = [route for route in ROUTES if route.method == "POST"]
PARTS = [
    (route, f"/v1/{'/'.join(part)}")
    for route in OPERATIONS
    for segments in [route.path.removeprefix("/v1/").split("/")]
    for k in range(1, len(segments))
    for part in (segments[:k], segments[-k:])
]


@pytest.mark.parametrize(("route", "path"), PARTS, ids=[f"{r.path}:{p}" for r, p in PARTS])
def test_the_end_or_the_beginning_of_an_operations_path_is_told_the_operation(
    client: FlaskClient, route: Route, path: str
) -> None:
    for sent in (path, path.upper(), path + "/", f"/api{path}"):
        error = refusal(client, route.method, sent, "en", 404)
        assert route.path in error["suggestions"] and str(route) in error["hint"], (sent, error)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_path_near_no_route_is_told_where_they_are_listed(client: FlaskClient, language: str) -> None:
    error = refusal(client, "POST", "/hello/world/of/tarot", language, 404)
    assert error["suggestions"] == [DOCS, CONTRACT] and DOCS in error["hint"] and CONTRACT in error["hint"]
    assert not error["hint"].startswith(("Did you mean", "Vouliez-vous dire"))


def test_the_routes_are_those_the_service_serves(app: Flask, client: FlaskClient) -> None:
    # Each meta route answers its GET (/docs by its redirect to the page), and every route of the
    # application without parameters is one of them or an operation: none is named that is not
    # served, none served is left out.
    for route in META_ROUTES:
        assert client.get(route.path).status_code in (200, 308), route
    served = {
        (method, rule.rule.rstrip("/") or "/")
        for rule in app.url_map.iter_rules()
        if not rule.arguments
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == {(route.method, route.path) for route in ROUTES}


def test_nearest_routes_are_deterministic_and_only_routes() -> None:
    for path in ("/v1/deals/scor", "/v1/games/scores", "/livz", "/openapi.yml", "/x", "/"):
        found = nearest_routes(path)
        assert found == nearest_routes(path) and set(found) <= set(ROUTES)
    assert nearest_routes("/openapi.yml") == (Route("GET", "/openapi.yaml"),)
    assert nearest_routes("/") == () and nearest_routes("/x") == ()
