"""Connections as real clients make them: slow, idle, kept alive, pipelined, too many.

Each test starts gunicorn with gunicorn.conf.py (two workers unless said otherwise) on a
free loopback port, as `make run` and the image do, and talks to it over raw sockets or
``http.client``. Every test is bounded in time and in connections.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

import pytest

from load.slow import SlowClients
from tests.conftest import deal_request, golden
from tests.serving import Gunicorn, call

LEGAL = {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]}
DEAL = deal_request(next(d for d in golden("deals.jsonl") if d["players"] == 4))


def request_bytes(path: str, body: object, extra: str = "") -> bytes:
    payload = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n{extra}\r\n"
    )
    return head.encode() + payload


_readers: weakref.WeakKeyDictionary[socket.socket, BinaryIO] = weakref.WeakKeyDictionary()


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The next HTTP answer (with a Content-Length) on ``sock``; what follows it stays buffered."""
    reader = _readers.get(sock)
    if reader is None:
        reader = _readers[sock] = sock.makefile("rb")
    status_line = reader.readline()
    if not status_line:
        raise ConnectionError("closed before an answer")
    headers = {}
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.lower()] = value.strip()
    body = reader.read(int(headers["content-length"]))
    return int(status_line.split()[1]), headers, body


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` (EOF or reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def timed_call(base: str, path: str, body: object) -> tuple[int, float]:
    started = time.monotonic()
    status = call(base, "POST", path, body, timeout=10).status
    return status, time.monotonic() - started


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    limits = {"HEADER_TIMEOUT_SECONDS": "1", "BODY_TIMEOUT_SECONDS": "1", "KEEPALIVE_SECONDS": "1"}
    with Gunicorn(limits) as g:
        yield g


# Slow clients cost the others nothing.


NO_ADMISSION_BOUND = {"ADMISSION_QUEUE_SECONDS": "0", "ADMISSION_DEADLINE_SECONDS": "0"}
"""Every request waits its turn however long: for tests of connections, not of load."""


def test_hundreds_of_slow_clients_do_not_delay_anyone() -> None:
    """200 connections trickle their headers and 200 their body; ordinary requests still fly.

    Then every slow client finishes its request and gets its answer: they were held open,
    not dropped.
    """
    # Admission is not what this is about: 400 requests ending at once on a loaded machine may
    # be more work than the bound lets a worker queue (tests/test_serving_overload.py).
    patient = {"HEADER_TIMEOUT_SECONDS": "60", "BODY_TIMEOUT_SECONDS": "60"} | NO_ADMISSION_BOUND
    with Gunicorn(patient) as g:
        with SlowClients(g.port, LEGAL) as slow:
            slow.trickle()
            jobs = [("/v1/tricks/legal-cards", LEGAL)] * 60 + [("/v1/deals/evaluate", DEAL)] * 20
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda job: timed_call(g.base, *job), jobs))
            assert {status for status, _ in answers} == {200}
            slowest = max(seconds for _, seconds in answers)
            assert slowest < 0.25, f"slowest ordinary request took {slowest * 1000:.0f} ms"
            assert call(g.base, "GET", "/livez").status == 200
            assert [read_answer(s)[0] for s in slow.finish()] == [200] * 400
        # The instance is still whole once they have gone.
        time.sleep(0.2)
        assert all(call(g.base, "POST", "/v1/tricks/legal-cards", LEGAL).status == 200 for _ in range(10))
        assert not [r for r in g.log_records() if r.get("level") in ("ERROR", "CRITICAL")]


# Deadlines.


def test_headers_that_stall_get_a_408_problem(server: Gunicorn) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\n")
        started = time.monotonic()
        status, headers, body = read_answer(s)
        waited = time.monotonic() - started
        assert (status, headers["content-type"], headers["connection"]) == (408, "application/problem+json", "close")
        problem = json.loads(body)
        assert problem["status"] == 408 and problem["errors"][0]["code"] == "header_timeout"
        assert 0.8 < waited < 3
        assert closed_by_server(s, 2)


def test_a_body_that_stalls_gets_a_408_problem(server: Gunicorn) -> None:
    payload = request_bytes("/v1/tricks/legal-cards", LEGAL)
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(payload[:-10])
        status, headers, body = read_answer(s)
        assert (status, headers["content-type"], headers["connection"]) == (408, "application/problem+json", "close")
        problem = json.loads(body)
        assert problem["type"] == "/problems/request-timeout"
        [error] = problem["errors"]
        assert (error["pointer"], error["code"]) == ("", "body_timeout")
        assert closed_by_server(s, 2)


def test_a_slow_but_moving_body_is_served(server: Gunicorn) -> None:
    """Each piece arrives within the body deadline: the request is answered, however long in all."""
    payload = request_bytes("/v1/deals/evaluate", DEAL)
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        pieces = [payload[i : i + len(payload) // 6 + 1] for i in range(0, len(payload), len(payload) // 6 + 1)]
        for piece in pieces:
            s.sendall(piece)
            time.sleep(0.4)  # 0.4 s between pieces, more than 2 s in all: under 1 s each time
        status, _, body = read_answer(s)
        assert status == 200 and json.loads(body)["valid"] is True


def test_a_silent_connection_is_closed_without_an_answer(server: Gunicorn) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        # The kernel holds a silent connection before the worker sees it (TCP_DEFER_ACCEPT),
        # then the worker gives it the header deadline: a few seconds in all.
        assert closed_by_server(s, 8)


def test_a_slow_chunked_body_past_the_limit_is_refused_with_413(server: Gunicorn) -> None:
    head = (
        b"POST /v1/deals/evaluate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(head + b"1\r\n[\r\n")
        piece = b"4000\r\n" + b" " * 0x4000 + b"\r\n"  # 16 KiB of whitespace a time
        try:
            for _ in range(6):
                time.sleep(0.2)
                s.sendall(piece)
        except OSError:
            pass  # refused before the end: fine
        status, headers, body = read_answer(s)
        assert (status, headers["content-type"]) == (413, "application/problem+json")
        assert json.loads(body)["errors"][0]["code"] == "body_too_large"
        assert headers["connection"] == "close"


# Keep-alive.


def test_many_requests_on_one_kept_alive_connection(server: Gunicorn) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    jobs: list[tuple[str, str, Any, int]] = [
        ("POST", "/v1/tricks/legal-cards", LEGAL, 200),
        ("POST", "/v1/tricks/winner", {"players": 3, "cards": ["KS", "1T"]}, 200),
        ("POST", "/v1/deals/evaluate", DEAL, 200),
        ("POST", "/v1/tricks/winner", {"players": 3, "cards": []}, 422),  # a problem keeps it open
        ("GET", "/no/such/path", None, 404),
        ("GET", "/livez", None, 200),
    ]
    ports = set()
    try:
        for n in range(300):
            method, path, body, expected = jobs[n % len(jobs)]
            data = None if body is None else json.dumps(body).encode()
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            answer = conn.getresponse()
            answer.read()
            assert answer.status == expected, (n, path)
            assert answer.getheader("Connection") == "keep-alive"
            assert conn.sock is not None
            ports.add(conn.sock.getsockname()[1])
    finally:
        conn.close()
    assert len(ports) == 1, "every request went over the same connection"


def test_pipelined_requests_are_answered_in_order(server: Gunicorn) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(
            request_bytes("/v1/tricks/legal-cards", LEGAL)
            + request_bytes("/v1/tricks/winner", {"players": 3, "cards": ["KS", "1T"]})
            + request_bytes("/v1/tricks/winner", {"players": 3, "cards": ["KS"]}, "Connection: close\r\n")
        )
        first, second, third = (read_answer(s) for _ in range(3))
        assert json.loads(first[2])["reason"] == "follow"
        assert json.loads(second[2])["winner"] == 1
        assert json.loads(third[2])["winner"] == 0 and third[1]["connection"] == "close"
        assert closed_by_server(s, 2)


def test_an_idle_kept_alive_connection_is_closed_after_the_keepalive_time(server: Gunicorn) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(request_bytes("/v1/tricks/legal-cards", LEGAL))
        assert read_answer(s)[0] == 200
        started = time.monotonic()
        assert closed_by_server(s, 4)
        assert 0.8 < time.monotonic() - started < 3


def test_a_request_that_cannot_be_read_to_its_end_closes_the_connection(server: Gunicorn) -> None:
    """After a 413 the rest of the body is unread: the answer says so, and the connection ends."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(
            b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\n\r\n{"
        )
        status, headers, _ = read_answer(s)
        assert (status, headers["connection"]) == (413, "close")
        assert closed_by_server(s, 4)


# The bound on connections.


def test_past_the_connection_bound_new_connections_wait_their_turn() -> None:
    """One worker, five connections at most: a sixth waits in the backlog until one closes."""
    with Gunicorn({"WEB_CONCURRENCY": "1", "WORKER_CONNECTIONS": "5", "HEADER_TIMEOUT_SECONDS": "30"}) as g:
        held = [socket.create_connection(("127.0.0.1", g.port), timeout=5) for _ in range(5)]
        try:
            for s in held:
                s.sendall(b"GET /livez HTTP/1.1\r\n")  # headers never finished
            time.sleep(0.3)
            waiting = socket.create_connection(("127.0.0.1", g.port), timeout=5)
            waiting.sendall(b"GET /livez HTTP/1.1\r\nHost: t\r\n\r\n")
            waiting.settimeout(0.5)
            with pytest.raises(TimeoutError):
                waiting.recv(1)
            held.pop().close()
            waiting.settimeout(5)
            assert read_answer(waiting)[0] == 200
            waiting.close()
        finally:
            for s in held:
                s.close()


# Shutting down.


def test_draining_answers_close_their_kept_alive_connections() -> None:
    with Gunicorn({"DRAIN_SECONDS": "3"}) as g:
        with socket.create_connection(("127.0.0.1", g.port), timeout=5) as s:
            s.sendall(request_bytes("/v1/tricks/legal-cards", LEGAL))
            assert read_answer(s)[1]["connection"] == "keep-alive"
            assert g.proc is not None
            g.proc.send_signal(15)
            deadline = time.monotonic() + 2
            while call(g.base, "GET", "/readyz").status != 503 and time.monotonic() < deadline:
                time.sleep(0.05)
            s.sendall(request_bytes("/v1/tricks/legal-cards", LEGAL))
            status, headers, _ = read_answer(s)
            assert (status, headers["connection"]) == (200, "close")
            assert closed_by_server(s, 2)
        assert g.stop() == 0


def test_keepalive_zero_closes_every_connection_after_its_answer() -> None:
    with Gunicorn({"KEEPALIVE_SECONDS": "0"}) as g, socket.create_connection(("127.0.0.1", g.port), timeout=5) as s:
        s.sendall(request_bytes("/v1/tricks/legal-cards", LEGAL))
        status, headers, _ = read_answer(s)
        assert (status, headers["connection"]) == (200, "close")
        assert closed_by_server(s, 2)
