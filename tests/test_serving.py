"""The service as deployed: gunicorn with gunicorn.conf.py on a free loopback port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

ROOT = Path(__file__).parent.parent


def test_request_id_is_echoed_or_made(client: FlaskClient) -> None:
    assert client.get("/livez", headers={"X-Request-ID": "abc-123"}).headers["X-Request-ID"] == "abc-123"
    made = client.get("/livez").headers["X-Request-ID"]
    assert len(made) == 32
    # A header that could forge log lines is replaced, not echoed.
    assert client.get("/livez", headers={"X-Request-ID": "x" * 500}).headers["X-Request-ID"] != "x" * 500
    problem = client.post("/v1/tricks/winner", data=b"{", content_type="application/json")
    assert problem.status_code == 400 and "X-Request-ID" in problem.headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "2"}
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [str(gunicorn), "-c", "gunicorn.conf.py", "service.wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/livez", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("gunicorn did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def post(base: str, path: str, body: object) -> tuple[int, dict[str, object], str]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read()), r.headers["X-Request-ID"]
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), e.headers["X-Request-ID"]


def test_gunicorn_serves_every_operation(server: str) -> None:
    assert post(server, "/v1/tricks/legal-cards", {"players": 3, "hand": ["KS", "1S"], "trick": ["QS"]})[:2] == (
        200,
        {
            "legal": ["1S", "KS"],
            "reason": "follow",
            "message": "Follow the led suit with any card of it, or play the Excuse.",
        },
    )
    assert post(server, "/v1/tricks/winner", {"players": 3, "cards": ["KS", "1T"]})[1]["winner"] == 1
    score = post(server, "/v1/deals/score", {"players": 3, "contract": "prise", "taker": 0, "points": 60, "oudlers": 1})
    assert score[1]["scores"] == [68, -34, -34]
    status, problem, rid = post(server, "/v1/deals/evaluate", {"players": 3})
    assert status == 422 and problem["errors"] and rid
