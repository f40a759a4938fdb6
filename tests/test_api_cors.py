"""Calls from web pages (CORS): off by default, an allow-list of origins from ``CORS_ORIGINS``.

Through the Flask test client for every operation and every kind of answer, through gunicorn as
deployed, and in a real browser: a page of an allowed origin reads the answers (problems
included), a page of another origin is refused by the browser.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from service.api.layers.cors import OriginsError, parse_origins
from service.app import create_app
from service.contract.operations import OPERATIONS
from tests.browser import PageServer, needs_browser, page_result
from tests.serving import Gunicorn, call

APP_ORIGIN = "https://app.example.org"
OTHER_ORIGIN = "https://elsewhere.example.net"
PATHS = sorted({operation.path for operation in OPERATIONS.values()})
# What the contract has pages send, and what the version policy has them read: written here,
# not taken from the code under test.
REQUEST_HEADERS = {"content-type", "accept-language", "x-request-id"}
EXPOSED = {"x-request-id", "retry-after", "deprecation", "sunset", "link"}
ASK_METHOD, ASK_HEADERS = "Access-Control-Request-Method", "Access-Control-Request-Headers"
PREFLIGHT = {ASK_METHOD: "POST", ASK_HEADERS: "content-type"}


def cors_headers(answer: TestResponse | Any) -> dict[str, str]:
    return {name.lower(): value for name, value in answer.headers.items() if name.lower().startswith("access-control")}


def varies_on(answer: TestResponse) -> set[str]:
    return {part.strip().lower() for value in answer.headers.getlist("Vary") for part in value.split(",")}


def app_with(origins: str) -> Flask:
    return create_app({"TESTING": True, "CORS_ORIGINS": origins})


@pytest.fixture(scope="module")
def allowing() -> Flask:
    return app_with(f"{APP_ORIGIN}, https://score.example.org:8443")


# -- The setting ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "origins"),
    [
        ("", ()),
        ("   ", ()),
        (None, ()),
        ("https://app.example.org", ("https://app.example.org",)),
        ("https://App.Example.ORG", ("https://app.example.org",)),
        ("http://localhost:5173, https://a.example.org", ("http://localhost:5173", "https://a.example.org")),
        ("https://a.example.org https://b.example.org,https://a.example.org", ("https://a.example.org", "https://b.example.org")),
        ("http://127.0.0.1:8080", ("http://127.0.0.1:8080",)),
        ("*", ("*",)),
        (["https://a.example.org"], ("https://a.example.org",)),
    ],
)  # fmt: skip
def test_origins_are_read_from_a_list(setting: Any, origins: tuple[str, ...]) -> None:
    assert parse_origins(setting) == origins


@pytest.mark.parametrize(
    "setting",
    [
        "https://app.example.org/",  # a trailing slash: no browser sends one
        "https://app.example.org/scores",
        "app.example.org",
        "ftp://app.example.org",
        "https://app.example.org:0",
        "https://app.example.org:65536",
        "https://app..example.org",
        "https://*.example.org",
        "https://app.example.org;https://b.example.org",
        "null",
        "*, https://app.example.org",
    ],
)
def test_a_setting_no_browser_could_match_is_refused(setting: str) -> None:
    with pytest.raises(OriginsError, match="CORS_ORIGINS"):
        parse_origins(setting)
    with pytest.raises(OriginsError):
        app_with(setting)


# -- Off by default ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", [*PATHS, "/v1/nowhere", "/livez", "/openapi.json"])
def test_without_the_setting_no_cors_header_is_sent(app: Flask, path: str) -> None:
    client = app.test_client()
    for answer in (
        client.options(path, headers={"Origin": APP_ORIGIN, **PREFLIGHT}),
        client.post(path, json={}, headers={"Origin": APP_ORIGIN}),
        client.get(path, headers={"Origin": APP_ORIGIN}),
    ):
        assert cors_headers(answer) == {}
        assert "origin" not in varies_on(answer)


# -- Preflight --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
def test_a_preflight_from_an_allowed_origin_is_allowed(allowing: Flask, path: str) -> None:
    asked = ", ".join(sorted(REQUEST_HEADERS))
    answer = allowing.test_client().options(
        path,
        headers={
            "Origin": APP_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": asked,
        },
    )
    assert answer.status_code == 200
    headers = cors_headers(answer)
    assert headers["access-control-allow-origin"] == APP_ORIGIN
    assert "POST" in headers["access-control-allow-methods"].split(", ")
    assert {h.lower() for h in headers["access-control-allow-headers"].split(", ")} == REQUEST_HEADERS
    assert headers["access-control-max-age"] == "7200"
    assert "access-control-allow-credentials" not in headers
    assert {"origin", "accept-language"} <= varies_on(answer)


@pytest.mark.parametrize("path", PATHS)
def test_a_preflight_from_another_origin_is_not(allowing: Flask, path: str) -> None:
    answer = allowing.test_client().options(path, headers={"Origin": OTHER_ORIGIN, **PREFLIGHT})
    assert cors_headers(answer) == {}
    assert "origin" in varies_on(answer)


@pytest.mark.parametrize(
    "origin",
    [
        "https://app.example.org.elsewhere.example.net",  # the allowed one as a prefix
        "https://app.example.org:443",  # the same site, another serialisation: not the same origin
        "http://app.example.org",
        "https://score.example.org",  # allowed on port 8443 only
        "null",
    ],
)
def test_only_an_exact_origin_matches(allowing: Flask, origin: str) -> None:
    assert cors_headers(allowing.test_client().options(PATHS[0], headers={"Origin": origin, **PREFLIGHT})) == {}


def test_origins_match_whatever_their_case_and_the_answer_names_the_page_s_own(allowing: Flask) -> None:
    answer = allowing.test_client().options(PATHS[0], headers={"Origin": "https://APP.example.org", **PREFLIGHT})
    assert cors_headers(answer)["access-control-allow-origin"] == "https://APP.example.org"
    second = allowing.test_client().options(PATHS[0], headers={"Origin": "https://score.example.org:8443", **PREFLIGHT})
    assert cors_headers(second)["access-control-allow-origin"] == "https://score.example.org:8443"


def test_a_request_header_outside_the_contract_is_not_allowed(allowing: Flask) -> None:
    answer = allowing.test_client().options(
        PATHS[0],
        headers={"Origin": APP_ORIGIN, ASK_METHOD: "POST", ASK_HEADERS: "content-type, authorization"},
    )  # fmt: skip
    assert cors_headers(answer)["access-control-allow-headers"].lower() == "content-type"


def test_a_method_no_operation_serves_is_not_allowed(allowing: Flask) -> None:
    answer = allowing.test_client().options(PATHS[0], headers={"Origin": APP_ORIGIN, ASK_METHOD: "DELETE"})
    assert "access-control-allow-methods" not in cors_headers(answer)


# -- Answers and problems ---------------------------------------------------------------------


def answers(client: Any) -> Iterator[tuple[str, TestResponse]]:
    winner = {"players": 4, "cards": ["KS", "1T", "2S", "3S"]}
    yield "a verdict", client.post("/v1/tricks/winner", json=winner)
    yield "a 422 problem", client.post("/v1/tricks/winner", json={"players": 9})
    yield "a 400 problem", client.post("/v1/tricks/winner", data=b"{", content_type="application/json")
    yield "a 415 problem", client.post("/v1/tricks/winner", data=b"{}", content_type="text/plain")
    yield "a 413 problem", client.post("/v1/tricks/winner", data=b" " * (65 * 1024), content_type="application/json")
    yield "a 405 problem", client.get("/v1/tricks/winner")
    yield "a 404 problem", client.post("/v1/tricks/nowhere", json=winner)
    yield "a streamed batch", client.post("/v1/deals/evaluate-batch", data=b"{}\n", content_type="application/x-ndjson")


KINDS = ("a verdict", "a 422 problem", "a 400 problem", "a 415 problem", "a 413 problem", "a 405 problem",
         "a 404 problem", "a streamed batch")  # fmt: skip


def test_the_kinds_are_those_answered(allowing: Flask) -> None:
    assert tuple(kind for kind, _ in answers(allowing.test_client())) == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_every_answer_from_an_allowed_origin_carries_the_headers(allowing: Flask, kind: str) -> None:
    client = allowing.test_client()
    sent = {"Origin": APP_ORIGIN, "X-Request-ID": "page-1", "Accept-Language": "fr"}
    client.environ_base.update({"HTTP_" + name.upper().replace("-", "_"): value for name, value in sent.items()})
    answer = dict(answers(client))[kind]
    headers = cors_headers(answer)
    assert headers["access-control-allow-origin"] == APP_ORIGIN
    assert set(headers["access-control-expose-headers"].lower().split(", ")) == EXPOSED
    assert {"origin", "accept-language"} <= varies_on(answer)
    assert answer.headers["X-Request-ID"] == "page-1"
    if answer.status_code >= 400:
        assert answer.content_type == "application/problem+json"
        assert answer.headers["Content-Language"] == "fr"


def test_answers_to_another_origin_carry_none_but_vary(allowing: Flask) -> None:
    client = allowing.test_client()
    client.environ_base["HTTP_ORIGIN"] = OTHER_ORIGIN
    for kind, answer in answers(client):
        assert cors_headers(answer) == {}, kind
        assert "origin" in varies_on(answer), kind


def test_callers_that_send_no_origin_get_no_cors_header(allowing: Flask) -> None:
    for kind, answer in answers(allowing.test_client()):
        assert cors_headers(answer) == {}, kind
        assert "origin" in varies_on(answer), kind


def test_the_probes_and_the_contract_are_not_opened_to_pages(allowing: Flask) -> None:
    client = allowing.test_client()
    for path in ("/livez", "/readyz", "/openapi.json", "/metrics"):
        answer = client.get(path, headers={"Origin": APP_ORIGIN})
        assert cors_headers(answer) == {}, path


def test_any_origin_is_a_wildcard_that_needs_no_vary() -> None:
    client = app_with("*").test_client()
    answer = client.post("/v1/tricks/winner", json={"players": 9}, headers={"Origin": OTHER_ORIGIN})
    assert cors_headers(answer)["access-control-allow-origin"] == "*"
    assert "origin" not in varies_on(answer)
    assert "access-control-allow-credentials" not in cors_headers(answer)


# -- As deployed ------------------------------------------------------------------------------


def test_gunicorn_answers_a_preflight_and_a_call_from_the_allowed_origin() -> None:
    with Gunicorn({"CORS_ORIGINS": APP_ORIGIN, "WEB_CONCURRENCY": "1"}) as server:
        allowed = call(server.base, "OPTIONS", "/v1/deals/evaluate", headers={"Origin": APP_ORIGIN, **PREFLIGHT})
        refused = call(server.base, "OPTIONS", "/v1/deals/evaluate", headers={"Origin": OTHER_ORIGIN, **PREFLIGHT})
        problem = call(server.base, "POST", "/v1/deals/evaluate", {"players": 2}, headers={"Origin": APP_ORIGIN})
    assert allowed.status == 200 and allowed.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert "Access-Control-Allow-Origin" not in refused.headers
    assert problem.status == 422 and problem.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_gunicorn_refuses_to_start_on_a_setting_no_browser_could_match() -> None:
    server = Gunicorn({"CORS_ORIGINS": APP_ORIGIN + "/", "WEB_CONCURRENCY": "1"})
    with pytest.raises(RuntimeError, match="gunicorn exited at start") as refused:
        server.__enter__()
    assert "CORS_ORIGINS: 'https://app.example.org/' is not an origin" in str(refused.value)


# -- In a browser -----------------------------------------------------------------------------

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">waiting</pre><script>
const base = %(base)s;
async function ask(body) {
  try {
    const r = await fetch(base + "/v1/tricks/winner", {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "Accept-Language": "fr", "X-Request-ID": "page-1"}});
    const json = await r.json();
    return {status: r.status, type: r.headers.get("Content-Type"), language: r.headers.get("Content-Language"),
            id: r.headers.get("X-Request-ID"), winner: json.winner, code: json.errors ? json.errors[0].code : null};
  } catch (e) { return {refused: String(e)}; }
}
(async () => {
  const verdict = await ask({players: 4, cards: ["KS", "1T", "2S", "3S"]});
  const problem = await ask({players: 9, cards: ["KS"]});
  document.getElementById("out").textContent = "RESULT" + JSON.stringify({verdict, problem}) + "END";
})();
</script></body></html>"""


@needs_browser
def test_a_page_of_the_allowed_origin_reads_answers_and_problems_one_of_another_origin_cannot(tmp_path: Path) -> None:
    server = Gunicorn({"WEB_CONCURRENCY": "1"})
    page = PAGE % {"base": json.dumps(server.base)}
    allowed, other = PageServer(page), PageServer(page)
    server.env["CORS_ORIGINS"] = allowed.origin
    try:
        with server:
            read = page_result(allowed.origin + "/", tmp_path / "allowed")
            refused = page_result(other.origin + "/", tmp_path / "other")
    finally:
        allowed.close()
        other.close()
    assert read["verdict"] == {
        "status": 200,
        "type": "application/json",
        "language": "fr",
        "id": "page-1",
        "winner": 1,
        "code": None,
    }
    assert read["problem"]["status"] == 422
    assert read["problem"]["type"] == "application/problem+json"
    assert read["problem"]["language"] == "fr" and read["problem"]["id"] == "page-1"
    assert read["problem"]["code"] is not None
    assert set(refused["verdict"]) == {"refused"} and set(refused["problem"]) == {"refused"}


def test_a_failure_inside_a_view_still_reaches_the_page(allowing: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.contract import tricks

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a defect")

    monkeypatch.setattr(tricks, "legal_cards", boom)
    answer = allowing.test_client().post(
        "/v1/tricks/legal-cards", json={"players": 4, "hand": ["KS"]}, headers={"Origin": APP_ORIGIN}
    )
    assert answer.status_code == 500 and answer.content_type == "application/problem+json"
    assert cors_headers(answer)["access-control-allow-origin"] == APP_ORIGIN
    assert "origin" in varies_on(answer)
