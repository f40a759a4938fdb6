"""The service as deployed: gunicorn with gunicorn.conf.py, two workers, on a free loopback port.

Operations, request ids in the JSON logs, /metrics summed across workers, the docs page,
and a SIGTERM during traffic.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import deal_request, golden
from tests.serving import ROOT, VENV_BIN, Gunicorn, call


def test_request_id_is_echoed_or_made(client: FlaskClient) -> None:
    assert client.get("/livez", headers={"X-Request-ID": "abc-123"}).headers["X-Request-ID"] == "abc-123"
    made = client.get("/livez").headers["X-Request-ID"]
    assert len(made) == 32
    # A header that could forge log lines is replaced, not echoed.
    assert client.get("/livez", headers={"X-Request-ID": "x" * 500}).headers["X-Request-ID"] != "x" * 500
    problem = client.post("/v1/tricks/winner", data=b"{", content_type="application/json")
    assert problem.status_code == 400 and "X-Request-ID" in problem.headers


@pytest.fixture(scope="module")
def metrics_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("metrics")


@pytest.fixture(scope="module")
def server(metrics_dir: Path) -> Iterator[Gunicorn]:
    # A stale file from an earlier run must be wiped at start, not added to the counts.
    (metrics_dir / "counter_999999.db").write_bytes(b"stale")
    with Gunicorn({"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}) as g:
        yield g


FOUR_PLAYER_DEAL = deal_request(next(d for d in golden("deals.jsonl") if d["players"] == 4))

# (path, body, expected status, how many times)
TRAFFIC: list[tuple[str, dict[str, Any], int, int]] = [
    ("/v1/tricks/legal-cards", {"players": 3, "hand": ["KS", "1S"], "trick": ["QS"]}, 200, 30),
    ("/v1/tricks/legal-cards", {"players": 4, "hand": ["KS", "5T"], "trick": ["QH"]}, 200, 12),
    ("/v1/tricks/winner", {"players": 3, "cards": ["KS", "1T"]}, 200, 20),
    ("/v1/tricks/winner", {"players": 3, "cards": []}, 422, 7),
    ("/v1/deals/score", {"players": 3, "contract": "prise", "taker": 0, "points": 60, "oudlers": 1}, 200, 15),
    ("/v1/deals/evaluate", FOUR_PLAYER_DEAL, 200, 10),
]


def test_gunicorn_serves_every_operation(server: Gunicorn) -> None:
    legal = call(server.base, "POST", "/v1/tricks/legal-cards", TRAFFIC[0][1])
    assert (legal.status, legal.json()["legal"], legal.json()["reason"]) == (200, ["1S", "KS"], "follow")
    assert call(server.base, "POST", "/v1/tricks/winner", TRAFFIC[2][1]).json()["winner"] == 1
    assert call(server.base, "POST", "/v1/deals/score", TRAFFIC[4][1]).json()["scores"] == [68, -34, -34]
    evaluation = call(server.base, "POST", "/v1/deals/evaluate", FOUR_PLAYER_DEAL).json()
    assert evaluation["valid"] and evaluation["status"] == "complete"
    problem = call(server.base, "POST", "/v1/deals/evaluate", {"players": 3})
    assert problem.status == 422 and problem.headers["Content-Type"] == "application/problem+json"


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_metrics_add_up_across_workers(metrics_dir: Path) -> None:
    # A server of its own, so that no other test's requests are in the counts.
    with Gunicorn({"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir / "own")}) as g:
        jobs = [(path, body, status) for path, body, status, times in TRAFFIC for _ in range(times)]
        # The first request is held half-sent (a slow client: it must not hold up the others),
        # and eight clients at once keep both workers accepting, so both have samples to sum.
        path, body, _ = jobs[0]
        payload = json.dumps(body).encode()
        held = socket.create_connection(("127.0.0.1", g.port))
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}"
        held.sendall(head.encode() + b"\r\n\r\n")
        time.sleep(0.3)
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda job: call(g.base, "POST", job[0], job[1]).status, jobs[1:]))
        held.sendall(payload)
        assert held.recv(100).startswith(b"HTTP/1.1 200")
        held.close()
        assert answers == [status for _, _, status in jobs[1:]]
        pids = {p.stem.rsplit("_", 1)[1] for p in (metrics_dir / "own").glob("histogram_*.db")}
        assert len(pids) == 2, "both workers served and wrote samples"
        text = call(g.base, "GET", "/metrics").body.decode()

    got = samples(text)
    expected: Counter[tuple[str, int]] = Counter()
    for path, _, status, times in TRAFFIC:
        expected[path, status] += times
    for (path, status), count in expected.items():
        labels = frozenset({"method": "POST", "url_rule": path, "status": str(status)}.items())
        assert got["flask_http_request_duration_seconds_count", labels] == count, (path, status)
    # Verdict counters, summed over the workers as well.
    assert got["tarot_legal_cards_total", frozenset({("reason", "follow")})] == 30
    assert got["tarot_legal_cards_total", frozenset({("reason", "trump")})] == 12
    scored = sum(value for (name, _), value in got.items() if name == "tarot_deals_scored_total")
    assert scored == 15 + 10  # the summaries, then the complete deals evaluated
    assert got["tarot_deal_evaluations_total", frozenset({("status", "complete"), ("valid", "true")})] == 10


def test_the_instance_says_its_version_and_rules_core(server: Gunicorn) -> None:
    # In the start-up log and as an info metric: one series for the instance, whichever workers.
    from service import __version__
    from service.rules import CORE

    [started] = [r for r in server.log_records() if r.get("core")]
    assert (started["message"], started["version"]) == (f"tarot-rules {__version__}, {CORE} rules core", __version__)
    got = samples(call(server.base, "GET", "/metrics").body.decode())
    info = {labels: value for (name, labels), value in got.items() if name == "tarot_rules_build_info"}
    assert info == {frozenset({("version", __version__), ("core", CORE)}): 1.0}


def test_a_metrics_directory_that_cannot_be_written_stops_the_start(tmp_path: Path) -> None:
    # Every request writes there: an instance that started without it would fail them all.
    (tmp_path / "file").write_text("")
    done = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py", "-b", "127.0.0.1:0", "service.wsgi:app"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "file" / "metrics")},
    )  # fmt: skip
    assert done.returncode == 1
    refusal = f"the metrics directory {tmp_path / 'file' / 'metrics'} (PROMETHEUS_MULTIPROC_DIR) is not writable"
    assert refusal in done.stderr
    assert [json.loads(line)["level"] for line in done.stdout.splitlines() if "refusing to start" in line] == ["ERROR"]
    assert "Booting worker" not in done.stderr + done.stdout


def test_metrics_stale_files_are_wiped_at_start(server: Gunicorn, metrics_dir: Path) -> None:
    assert not (metrics_dir / "counter_999999.db").exists()


def test_metrics_label_unrouted_paths_once(server: Gunicorn) -> None:
    for n in range(5):
        assert call(server.base, "GET", f"/no/such/path/{n}").status == 404
    text = call(server.base, "GET", "/metrics").body.decode()
    assert "/no/such/path" not in text
    assert 'url_rule="unmatched"' in text


def test_logs_are_json_lines_with_request_ids_and_no_bodies(server: Gunicorn) -> None:
    rid = "serving-log-check-1"
    deal = {**FOUR_PLAYER_DEAL, "plays": [*FOUR_PLAYER_DEAL["plays"][:-1], FOUR_PLAYER_DEAL["plays"][0]]}
    answer = call(server.base, "POST", "/v1/deals/evaluate", deal, headers={"X-Request-ID": rid})
    assert answer.status == 200 and answer.headers["X-Request-ID"] == rid
    codes = [v["code"] for v in answer.json()["violations"]]
    assert codes
    time.sleep(0.3)  # the log reader thread
    [access] = [r for r in server.log_records() if r.get("request_id") == rid]
    assert access["logger"] == "gunicorn.access" and access["level"] == "INFO"
    assert access["path"] == "/v1/deals/evaluate" and access["status"] == 200
    verdict = access["verdict"]
    assert verdict["operation"] == "evaluate" and verdict["violations"] == codes and verdict["valid"] is False
    assert verdict["status"] == "complete"  # enums are logged as their values
    # The callers' game data stays out of the logs.
    assert '"21T"' not in json.dumps(access) and "hands" not in json.dumps(access)


def raw_answer(port: int, raw: bytes) -> tuple[str, dict[str, str], bytes]:
    """One request sent as bytes: the status line, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(raw)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, dict(line.split(": ", 1) for line in lines), body


HEADERS_TOO_LARGE = [
    # what is sent, the limit passed (gunicorn's defaults: 100 fields of 8190 bytes), the message
    ("a_field_over_its_size", b"X-A: " + b"a" * 9000 + b"\r\n", 8190, "A header field is over 8,190 bytes."),
    ("too_many_fields", b"X-N: a\r\n" * 150, 100, "More than 100 header fields."),
]


@pytest.mark.parametrize(("name", "headers", "limit", "said"), HEADERS_TOO_LARGE, ids=[h[0] for h in HEADERS_TOO_LARGE])
def test_431_is_the_services_problem(server: Gunicorn, name: str, headers: bytes, limit: int, said: str) -> None:
    # Refused by the server before the application runs, in the shape of every other problem:
    # its own type and code, the limit passed, the service's limits said in its own words.
    status, head, body = raw_answer(server.port, b"GET /livez HTTP/1.1\r\nHost: t\r\n" + headers + b"\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert head["Content-Type"] == "application/problem+json" and head["Content-Language"] == "en"
    problem = json.loads(body)
    assert problem == {
        "type": "/problems/headers-too-large",
        "title": "Request Header Fields Too Large",
        "status": 431,
        "detail": "The request's headers are over the service's limits: at most 100 header fields, each of at most "
        "8,190 bytes.",
        "errors": [{"pointer": "", "code": "headers_too_large", "message": said, "limit": limit}],
    }


def test_414_states_the_limit_of_the_request_line(server: Gunicorn) -> None:
    status, _, body = raw_answer(server.port, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n")
    problem = json.loads(body)
    assert status.startswith("HTTP/1.1 414") and problem["type"] == "/problems/uri-too-long"
    [error] = problem["errors"]
    assert error["limit"] == 4094 and error["message"] == problem["detail"] and "4,094 bytes" in error["message"]


def test_docs_page_is_served_from_the_package(server: Gunicorn) -> None:
    assert call(server.base, "GET", "/docs").status == 200  # urllib follows the redirect to /docs/
    page = call(server.base, "GET", "/docs/").body.decode()
    assert "swagger-ui-bundle.js" in page and '"url": "/openapi.json"' in page
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(a.startswith("/docs/") for a in assets), "no asset from a CDN"
    bundle = call(server.base, "GET", "/docs/swagger-ui-bundle.js")
    assert bundle.status == 200 and len(bundle.body) > 100_000


def test_sigterm_drains_without_failing_a_request() -> None:
    results: list[int | str] = []
    stop = threading.Event()

    with Gunicorn({"DRAIN_SECONDS": "1.5"}) as g:

        def client() -> None:
            while not stop.is_set():
                try:
                    results.append(call(g.base, "POST", "/v1/deals/evaluate", FOUR_PLAYER_DEAL).status)
                except OSError as exc:
                    results.append(repr(exc))

        threads = [threading.Thread(target=client) for _ in range(6)]
        for t in threads:
            t.start()
        while len(results) < 60:
            time.sleep(0.01)
        os.kill(g.pid, signal.SIGTERM)
        at_signal = len(results)
        readiness = []
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline and 503 not in readiness:
            readiness.append(call(g.base, "GET", "/readyz").status)
        stop.set()
        for t in threads:
            t.join()
        assert 503 in readiness, "readiness reports draining after SIGTERM"
        assert len(results) > at_signal, "requests kept being served while draining"
        assert g.stop() == 0
    assert results and set(results) == {200}, Counter(results)


def worker_pids(master: int) -> set[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return {int(pid) for pid in children}


def test_sighup_reloads_the_workers_without_failing_a_request() -> None:
    results: list[int | str] = []
    stop = threading.Event()
    with Gunicorn({"DRAIN_SECONDS": "0.5"}) as g:

        def client() -> None:
            while not stop.is_set():
                try:
                    results.append(call(g.base, "POST", "/v1/tricks/legal-cards", TRAFFIC[0][1]).status)
                except OSError as exc:
                    results.append(repr(exc))

        before = worker_pids(g.pid)
        threads = [threading.Thread(target=client) for _ in range(4)]
        for t in threads:
            t.start()
        while len(results) < 50:
            time.sleep(0.01)
        os.kill(g.pid, signal.SIGHUP)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (worker_pids(g.pid) & before or len(worker_pids(g.pid)) != 2):
            time.sleep(0.1)
        at_reload = len(results)
        while len(results) < at_reload + 50:
            time.sleep(0.01)
        stop.set()
        for t in threads:
            t.join()
        after = worker_pids(g.pid)
    assert len(after) == 2 and not after & before, "two new workers replaced the old ones"
    assert set(results) == {200}, Counter(results)


def test_tls_settings_are_refused_at_start_up_not_ignored(tmp_path: Path) -> None:
    # The worker speaks plain HTTP/1.1 on its sockets: a certificate would be silently unused.
    import subprocess

    from tests.serving import ROOT, VENV_BIN

    done = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py", "--certfile", os.devnull, "--keyfile", os.devnull,
         "-b", "127.0.0.1:0", "service.wsgi:app"],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
        env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 1
    assert "settings this server cannot honour: TLS (certfile/keyfile)" in done.stderr
    assert "Booting worker" not in done.stderr + done.stdout


@pytest.mark.parametrize(
    ("settings", "refused"),
    [
        ({"is_ssl": True, "http_protocols": ["h1"]}, ["TLS"]),
        ({"is_ssl": False, "http_protocols": ["h2", "h1"]}, ["HTTP/2"]),
        ({"is_ssl": True, "http_protocols": ["h2"]}, ["TLS", "HTTP/2"]),
        ({"is_ssl": False, "http_protocols": ["h1"]}, []),
    ],
)
def test_settings_the_server_cannot_honour_are_named(settings: dict[str, Any], refused: list[str]) -> None:
    from types import SimpleNamespace

    from service.serving.hooks import refuse_unsupported

    if not refused:
        refuse_unsupported(SimpleNamespace(**settings))
        return
    with pytest.raises(RuntimeError) as error:
        refuse_unsupported(SimpleNamespace(**settings))
    assert [name for name in ("TLS", "HTTP/2") if name in str(error.value)] == refused


def test_make_run_listens_on_this_machine_only_unless_told() -> None:
    # README: make run serves 127.0.0.1; HOST=0.0.0.0 serves the network. The image keeps
    # gunicorn.conf.py's default, every interface of its container.
    import subprocess

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "HOST"}
    for extra, host in (([], "127.0.0.1"), (["HOST=0.0.0.0"], "0.0.0.0")):
        done = subprocess.run(
            ["make", "-s", "-n", "run", *extra], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        [command] = [line for line in done.stdout.splitlines() if "gunicorn -c gunicorn.conf.py" in line]
        assert command.startswith(f"HOST={host} "), command
