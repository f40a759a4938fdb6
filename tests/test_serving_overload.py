"""Overload: the compute turn taken first come first served, the bound on queued work, the
deadline, the refusal (503, Retry-After, ``overloaded``), and the probe port that answers
whatever the load (docs/operations.md, "Overload").

Timings here only tell apart what is held back by design (a second) from what is not: the
figures under load are the benchmark's (``bench/overload.py``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import gevent
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.serving.admission import Admission, Turn
from service.serving.limits import AdmissionLimits
from tests.serving import Gunicorn, call

LEGAL = {"players": 4, "hand": ["KS", "2S", "5T", "9T", "EX"], "trick": ["QS", "8T"]}
PATH = "/v1/tricks/legal-cards"


def request(body: object = LEGAL, path: str = PATH, headers: str = "", close: bool = False) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        f"{headers}{'Connection: close' + chr(13) + chr(10) if close else ''}\r\n"
    )
    return head.encode() + data


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer of known length off ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers["content-length"])
    while len(rest) < length:
        chunk = sock.recv(65536)
        assert chunk
        rest += chunk
    return int(lines[0].split()[1]), headers, rest[:length]


# -- The turn, in one process ------------------------------------------------------------------


def test_the_turn_is_handed_over_in_the_order_it_was_asked_for() -> None:
    turn, order = Turn(), []

    def work(n: int) -> None:
        turn.take()
        order.append(n)
        gevent.sleep(0)  # others ask meanwhile: they queue
        turn.give()

    gevent.joinall([gevent.spawn(work, n) for n in range(20)])
    assert order == list(range(20))
    assert turn.free()


def test_a_greenlet_killed_while_it_waits_for_the_turn_leaves_it_to_the_next() -> None:
    turn, order = Turn(), []
    assert turn.take_now()

    def work(n: int) -> None:
        turn.take()
        order.append(n)
        turn.give()

    waiting = [gevent.spawn(work, n) for n in range(3)]
    gevent.sleep(0)
    waiting[1].kill()
    turn.give()
    gevent.joinall(waiting)
    assert order == [0, 2] and turn.free()


def test_a_long_answer_pausing_lets_the_requests_queued_meanwhile_go_first() -> None:
    turn, order = Turn(), []

    def batch() -> None:
        turn.take()
        for step in range(3):
            order.append(f"batch {step}")
            gevent.sleep(0)  # its clients' bytes come in meanwhile
            turn.pause()
        turn.give()

    def single(n: int) -> None:
        turn.take()
        order.append(f"single {n}")
        turn.give()

    first = gevent.spawn(batch)
    gevent.sleep(0)
    gevent.joinall([first, *(gevent.spawn(single, n) for n in range(2))])
    assert order == ["batch 0", "single 0", "single 1", "batch 1", "batch 2"]


def test_the_bound_admits_while_the_queued_work_is_under_it() -> None:
    refused: list[str] = []
    admission = Admission(AdmissionLimits(queue_seconds=0.01), _noted(refused), _NoLog())
    assert admission.admits()  # free
    admission.turn.mean = 0.004
    assert admission.turn.take_now()
    waiting = [gevent.spawn(admission.turn.take) for _ in range(3)]
    gevent.sleep(0)
    assert admission.queued_work() == pytest.approx(0.012)
    assert not admission.admits()
    gevent.killall(waiting)
    assert AdmissionLimits(queue_seconds=0).queue_seconds == 0
    unbounded = Admission(AdmissionLimits(queue_seconds=0), _noted(refused), _NoLog())
    unbounded.turn.mean = 10.0
    assert unbounded.admits()


def test_a_request_past_its_deadline_is_refused_without_being_served() -> None:
    refused: list[str] = []
    admission = Admission(AdmissionLimits(deadline_seconds=0.05), _noted(refused), _NoLog())
    served: list[int] = []
    assert not admission.serve(time.monotonic() - 0.1, lambda: served.append(1))
    assert admission.serve(time.monotonic(), lambda: served.append(2))
    gevent.sleep(0.2)  # the refusals counted in their batch
    assert served == [2] and refused == ["deadline"] and admission.turn.free()


def _noted(refused: list[str]) -> Any:
    return lambda reason, n: refused.extend([reason] * n)


class _NoLog:
    def warning(self, *args: Any) -> None:
        pass


# -- The worker, under gunicorn ------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> Iterator[Gunicorn]:
    """One worker that queues little (5 ms of work), waits 2 s at most, asks for 1 s."""
    env = {"WEB_CONCURRENCY": "1", "ADMISSION_QUEUE_SECONDS": "0.005", "ADMISSION_DEADLINE_SECONDS": "2"}
    with Gunicorn(env, health=True) as g:
        yield g


def crowd(port: int, count: int, seconds: float, refused_once: threading.Event | None = None) -> list[int]:
    """``count`` kept-alive connections sending legal-cards requests as fast as answered, for
    ``seconds``: every status they got."""
    statuses: list[int] = []
    deadline = time.monotonic() + seconds

    def client() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            while time.monotonic() < deadline:
                s.sendall(request())
                status, headers, _ = read_answer(s)
                statuses.append(status)
                if status == 503 and refused_once is not None:
                    refused_once.set()
                if headers.get("connection") == "close":
                    return

    threads = [threading.Thread(target=client) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_past_the_bound_a_request_is_refused_at_once_with_503_retry_after_and_its_code(small: Gunicorn) -> None:
    refused = threading.Event()
    held = threading.Thread(target=crowd, args=(small.port, 40, 3.0, refused))
    held.start()
    try:
        assert refused.wait(10), "the crowd was never refused: the bound did not act"
        got = None
        for _ in range(200):  # a new client, while the crowd is there
            with socket.create_connection(("127.0.0.1", small.port), timeout=10) as s:
                s.sendall(request(headers="Accept-Language: fr\r\n"))
                status, headers, body = read_answer(s)
            if status == 503:
                got = (headers, json.loads(body))
                break
        assert got is not None, "no new client was refused while the worker was full"
        headers, problem = got
        assert headers["retry-after"] == "1"
        assert headers["content-type"] == "application/problem+json"
        assert headers["content-language"] == "fr"
        assert headers["connection"] == "keep-alive"
        assert problem["type"] == "/problems/overloaded" and problem["status"] == 503
        assert problem["instance"] == PATH
        assert [e["code"] for e in problem["errors"]] == ["overloaded"]
        assert "surchargé" in problem["detail"] and "1\u00a0s" in problem["detail"]
    finally:
        held.join()
    # Counted, by reason (in batches, a tenth of a second apart), and said in the log.
    deadline = time.monotonic() + 5
    while _refusals_counted(small).get("queue_full", 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _refusals_counted(small).get("queue_full", 0) >= 1
    assert any("Shedding load" in line and "queue_full" in line for line in small.lines)


def _refusals_counted(g: Gunicorn) -> dict[str, float]:
    metrics = call(g.base, "GET", "/metrics").body.decode()
    return {
        s.labels["reason"]: s.value
        for f in text_string_to_metric_families(metrics)
        for s in f.samples
        if s.name == "tarot_rules_requests_refused_total"
    }


def test_a_client_refused_keeps_its_connection_and_is_read_again_only_after_retry_after(small: Gunicorn) -> None:
    # A new connection would cost the worker more than the kept one; a client asking again at
    # once (most do) waits on its own connection instead of being refused in a loop.
    refused = threading.Event()
    held = threading.Thread(target=crowd, args=(small.port, 40, 4.0, refused))
    held.start()
    try:
        assert refused.wait(10)
        with socket.create_connection(("127.0.0.1", small.port), timeout=10) as s:
            status, headers = 0, {}
            while status != 503 and held.is_alive():  # asking while the crowd is there
                s.sendall(request())
                status, headers, _ = read_answer(s)
            assert status == 503, "never refused while the crowd was there"
            assert headers["connection"] == "keep-alive"
            sent = time.monotonic()
            s.sendall(request())
            assert read_answer(s)[0] in (200, 503)
            assert time.monotonic() - sent >= 0.9, "the next request was read before its Retry-After"
    finally:
        held.join()


def test_the_probe_port_answers_the_probes_and_the_metrics_while_the_service_port_is_full(small: Gunicorn) -> None:
    assert small.health_port is not None
    base = f"http://127.0.0.1:{small.health_port}"
    refused = threading.Event()
    held = threading.Thread(target=crowd, args=(small.port, 40, 3.0, refused))
    held.start()
    try:
        assert refused.wait(10)
        for path in ("/livez", "/readyz", "/metrics", "/livez", "/readyz"):
            assert call(base, "GET", path, timeout=1).status == 200
    finally:
        held.join()


def test_the_index_is_answered_as_the_probes_are_while_the_service_port_is_full(small: Gunicorn) -> None:
    # A load balancer's default check asks / on the service's port: refused for load, it would take
    # a busy instance out, and its load onto the others would take them out in turn.
    refused = threading.Event()
    held = threading.Thread(target=crowd, args=(small.port, 40, 3.0, refused))
    held.start()
    try:
        assert refused.wait(10)
        statuses = [call(small.base, "GET", path, timeout=1).status for path in ["/", "/livez"] * 10]
        assert statuses == [200] * 20, statuses
    finally:
        held.join()


def test_the_probe_port_serves_nothing_else(small: Gunicorn) -> None:
    assert small.health_port is not None
    answer = call(f"http://127.0.0.1:{small.health_port}", "POST", PATH, LEGAL)
    assert answer.status == 404 and answer.headers["Content-Type"] == "application/problem+json"
    assert "/livez" in answer.json()["detail"]


def test_a_request_that_waited_past_its_deadline_is_refused_not_served() -> None:
    # No bound on the queue, a deadline of a tenth of a millisecond: of requests sent at once,
    # those that queue wait longer than that, and are refused when their turn comes, unserved.
    env = {"WEB_CONCURRENCY": "1", "ADMISSION_QUEUE_SECONDS": "0", "ADMISSION_DEADLINE_SECONDS": "0.0001"}
    with Gunicorn(env) as g:
        statuses = crowd(g.port, 20, 1.0)
        assert 503 in statuses and 200 in statuses
        assert any("deadline" in line for line in g.lines if "Shedding load" in line)
        deadline = time.monotonic() + 5
        while (served := _served(g)) < statuses.count(200) and time.monotonic() < deadline:
            time.sleep(0.05)  # the last access lines still on their way
        assert served == statuses.count(200), "a refused request was served"


def _served(g: Gunicorn) -> int:
    return sum(1 for r in g.log_records() if r.get("path") == PATH and r.get("status") == 200)


def test_a_refused_client_that_closes_frees_its_place_at_once() -> None:
    # A balancer without keep-alive to the instances sends each request on a new connection and
    # closes it once answered: its refused connections must not keep their places for the
    # Retry-After, or a few dozen refusals would fill the worker's places and leave every new
    # connection waiting in the kernel's queue.
    env = {
        "WEB_CONCURRENCY": "1",
        "WORKER_CONNECTIONS": "70",
        "ADMISSION_QUEUE_SECONDS": "0.005",
        "ADMISSION_DEADLINE_SECONDS": "2",
    }
    statuses: list[int] = []
    waits: list[float] = []

    def balancer() -> None:
        until = time.monotonic() + 3
        while time.monotonic() < until:
            start = time.monotonic()
            with socket.create_connection(("127.0.0.1", g.port), timeout=10) as s:
                s.sendall(request())
                statuses.append(read_answer(s)[0])
            waits.append(time.monotonic() - start)

    with Gunicorn(env) as g:
        # Kept-alive clients keep the worker's queue full meanwhile.
        refused = threading.Event()
        held = threading.Thread(target=crowd, args=(g.port, 40, 4.0, refused))
        held.start()
        try:
            assert refused.wait(10)
            threads = [threading.Thread(target=balancer) for _ in range(10)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            held.join()
    assert statuses.count(503) >= 60, "too few refusals to fill the places"
    assert max(waits) < 0.5, f"a new connection waited {max(waits):.2f} s for a place"
