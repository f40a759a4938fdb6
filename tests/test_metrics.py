"""Request metrics in one process (the app's own registry): what each request is counted as.

The multiprocess sums across gunicorn workers are checked in tests/test_serving.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app

LEGAL = "/v1/tricks/legal-cards"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: FlaskClient) -> Samples:
    text = client.get("/metrics").get_data(as_text=True)
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def requests(samples: Samples, method: str, rule: str, status: int) -> float:
    labels = frozenset({"method": method, "url_rule": rule, "status": str(status)}.items())
    return samples.get(("flask_http_request_duration_seconds_count", labels), 0.0)


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """A new app per test, counting in a registry of its own from zero."""
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    with create_app({"TESTING": True}).test_client() as c:
        yield c


def test_requests_are_counted_by_operation_and_status(client: FlaskClient) -> None:
    for _ in range(3):
        assert client.post(LEGAL, json={"players": 4, "hand": ["KS"]}).status_code == 200
    assert client.post(LEGAL, json={"players": 6, "hand": ["KS"]}).status_code == 422
    assert client.post(LEGAL, data=b"{", content_type="application/json").status_code == 400
    got = scrape(client)
    assert requests(got, "POST", LEGAL, 200) == 3
    assert requests(got, "POST", LEGAL, 422) == 1
    assert requests(got, "POST", LEGAL, 400) == 1
    totals = {"200": 3.0, "422": 1.0, "400": 1.0}
    for status, count in totals.items():
        assert got["flask_http_request_total", frozenset({("method", "POST"), ("status", status)})] == count
    # Every observation falls in some bucket: +Inf holds them all.
    inf = frozenset({"method": "POST", "url_rule": LEGAL, "status": "200", "le": "+Inf"}.items())
    assert got["flask_http_request_duration_seconds_bucket", inf] == 3


def test_requests_that_reach_no_route_share_one_label(client: FlaskClient) -> None:
    for n in range(4):
        assert client.get(f"/no/such/path/{n}").status_code == 404
    assert client.get(LEGAL).status_code == 405  # the path exists, not for this method
    got = scrape(client)
    assert requests(got, "GET", "unmatched", 404) == 4
    assert requests(got, "GET", "unmatched", 405) == 1
    assert not any("/no/such" in value for (_, labels) in got for _, value in labels)


def test_routes_with_variables_are_labelled_by_their_rule(client: FlaskClient) -> None:
    assert client.get("/docs/index.css").status_code == 200
    assert client.get("/docs/no-such-asset.js").status_code == 404
    got = scrape(client)
    assert requests(got, "GET", "/docs/<path:path>", 200) == 1
    assert requests(got, "GET", "/docs/<path:path>", 404) == 1


def test_unusual_methods_share_one_label(client: FlaskClient) -> None:
    assert client.open(LEGAL, method="BREW").status_code == 405
    got = scrape(client)
    assert requests(got, "other", "unmatched", 405) == 1


def test_failures_count_as_exceptions(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from service.contract import tricks

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("failure inside the rules")

    monkeypatch.setattr(tricks, "legal_cards", boom)
    assert client.post(LEGAL, json={"players": 4, "hand": ["KS"]}).status_code == 500
    got = scrape(client)
    assert requests(got, "POST", LEGAL, 500) == 1
    assert got["flask_http_request_exceptions_total", frozenset({("method", "POST"), ("status", "500")})] == 1


def test_every_answer_carries_one_request_id(client: FlaskClient) -> None:
    answers = [
        client.post(LEGAL, json={"players": 4, "hand": ["KS"]}),  # 200
        client.post(LEGAL, json={"players": 6, "hand": ["KS"]}),  # 422
        client.get("/no/such/path"),  # 404
        client.get(LEGAL, headers={"X-Request-ID": "r-405"}),  # 405, the client's id kept
        client.get("/metrics"),  # served by the exporter
    ]
    ids = [a.headers.get_all("X-Request-ID") for a in answers]
    assert all(len(one) == 1 for one in ids), ids
    assert ids[3] == ["r-405"]
    assert all(len(one[0]) == 32 for i, one in enumerate(ids) if i != 3)
    assert len({one[0] for one in ids}) == len(ids), "each request has its own id"
