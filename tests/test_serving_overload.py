"""Overload: the compute turn taken first come first served, the bound on queued work, the
deadline, the refusal (503, Retry-After, ``overloaded``), and the probe port that answers
whatever the load (docs/operations.md, "Overload").

Timings here only tell apart what is held back by design (a second) from what is not: the
figures under load are the benchmark's (``bench/overload.py``).
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gevent
import pytest
from gevent import socket as gsocket
from prometheus_client.parser import text_string_to_metric_families

from service.serving.admission import ROUND_SECONDS, Admission, Turn
from service.serving.limits import AdmissionLimits
from tests.browser import PageServer, needs_browser, page_result
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
    headers: dict[str, str] = {}
    for name, _, value in (line.partition(":") for line in lines[1:]):
        # A header sent on several lines (Vary) is read as one list, as HTTP says it is.
        key = name.lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
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


def _computing(seconds: float) -> None:
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


def test_short_requests_are_handed_the_turn_on_without_a_poll_between_each() -> None:
    # The fast hand-over (a callback of the loop's) keeps the order the slow one (a timer, after
    # a poll) keeps; it only spares the poll while the round's computing is short.
    turn, order, polls = Turn(), [], []
    loop = gevent.get_hub().loop

    def work(n: int) -> None:
        turn.take()
        order.append(n)
        polls.append(loop.iteration)
        turn.give()

    gevent.joinall([gevent.spawn(work, n) for n in range(20)])
    assert order == list(range(20))
    assert len(set(polls)) <= 2, f"{len(set(polls))} rounds of the loop for 20 short requests"


def test_past_the_round_s_computing_the_sockets_are_read_before_the_next_requests() -> None:
    # A probe's bytes, in while requests compute: read within ROUND_SECONDS of computing and a
    # request or two, not after the whole queue.
    turn, order = Turn(), []
    ours, theirs = gsocket.socketpair()

    def work(n: int) -> None:
        turn.take()
        order.append(f"request {n}")
        _computing(ROUND_SECONDS / 2)
        turn.give()

    def probe() -> None:
        ours.recv(1)
        order.append("probe read")

    try:
        reader = gevent.spawn(probe)
        gevent.sleep(0)  # the probe's greenlet waits on its socket
        theirs.send(b"x")
        gevent.joinall([gevent.spawn(work, n) for n in range(20)] + [reader])
    finally:
        ours.close()
        theirs.close()
    assert [step for step in order if step != "probe read"] == [f"request {n}" for n in range(20)]
    assert order.index("probe read") <= 4, order


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
#
# The load is made exactly: a request holds the compute turn until released (tests/turn_holder.py),
# one more queues behind it, and with a bound under any one request's work every request after
# that is refused. Nothing depends on how fast the clients or the server run.

HOLDER = ("gunicorn", "-c", "gunicorn.conf.py", "tests.turn_holder:app")
APP_ORIGIN = "https://app.example.org"
TINY_QUEUE = "0.000001"
"""A bound on queued work under any one request's: one request queued fills the worker."""


def holding_server(health: bool = False, **env: str) -> Gunicorn:
    """One worker of the service with the holding path; the bound tiny unless said."""
    settings = {"WEB_CONCURRENCY": "1", "ADMISSION_QUEUE_SECONDS": TINY_QUEUE, "CORS_ORIGINS": APP_ORIGIN}
    return Gunicorn({**settings, **env}, command=HOLDER, health=health)


@contextmanager
def turn_held(port: int, where: Path) -> Iterator[None]:
    """The worker's compute turn held by a request for as long as the block lasts."""
    where.mkdir(parents=True, exist_ok=True)
    held, release = where / "held", where / "release"
    held.unlink(missing_ok=True)
    release.unlink(missing_ok=True)
    body = json.dumps({"held": str(held), "release": str(release)}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            f"POST /test/hold HTTP/1.1\r\nHost: t\r\nContent-Length: {len(body)}\r\n"
            "Expect: 100-continue\r\n\r\n".encode()
        )
        assert s.recv(64).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        s.sendall(body)
        deadline = time.monotonic() + 10
        while not held.exists():
            assert time.monotonic() < deadline, "the turn was never taken"
            time.sleep(0.01)
        try:
            yield
        finally:
            release.touch()
            assert read_answer(s)[0] == 200


@contextmanager
def queued(port: int, count: int = 1) -> Iterator[list[socket.socket]]:
    """``count`` requests queued for the turn, each on a connection of its own: their answers
    are read once the block ends."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(count)]
    try:
        for s in socks:
            s.sendall(request())
        time.sleep(0.2)  # in the worker's queue, not only in the kernel's
        yield socks
    finally:
        for s in socks:
            s.close()


def full(g: Gunicorn, where: Path) -> contextlib.ExitStack:
    """The worker full: its turn held, one request queued behind it."""
    stack = contextlib.ExitStack()
    stack.enter_context(turn_held(g.port, where))
    stack.enter_context(queued(g.port))
    return stack


@pytest.fixture(scope="module")
def small() -> Iterator[Gunicorn]:
    with holding_server(health=True, ADMISSION_DEADLINE_SECONDS="30") as g:
        yield g


def test_past_the_bound_a_request_is_refused_at_once_with_503_retry_after_and_its_code(
    small: Gunicorn, tmp_path: Path
) -> None:
    with full(small, tmp_path), socket.create_connection(("127.0.0.1", small.port), timeout=10) as s:
        started = time.monotonic()
        s.sendall(request(headers="Accept-Language: fr\r\n"))
        status, headers, body = read_answer(s)
        took = time.monotonic() - started
    assert status == 503, "a new client was not refused while the worker was full"
    assert took < 1, f"the refusal took {took:.2f} s"
    problem = json.loads(body)
    assert headers["retry-after"] == "1"
    assert headers["content-type"] == "application/problem+json"
    assert headers["content-language"] == "fr"
    assert headers["connection"] == "keep-alive"
    assert problem["type"] == "/problems/overloaded" and problem["status"] == 503
    assert problem["instance"] == PATH
    assert [e["code"] for e in problem["errors"]] == ["overloaded"]
    assert "surchargé" in problem["detail"] and "1\u00a0s" in problem["detail"]
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


SENT = {"Origin": APP_ORIGIN, "X-Request-ID": "page-7", "Accept-Language": "fr"}


def test_a_refusal_goes_through_the_answer_layers_as_every_answer_does(small: Gunicorn, tmp_path: Path) -> None:
    # A page reads a refusal as it reads any answer (docs/clients.md): the CORS headers, the
    # client's own request id, the language; Retry-After exposed to its script.
    headers = "".join(f"{name}: {value}\r\n" for name, value in SENT.items())
    with full(small, tmp_path), socket.create_connection(("127.0.0.1", small.port), timeout=10) as s:
        s.sendall(request(headers=headers))
        status, refused, _ = read_answer(s)
    answered = call(small.base, "POST", PATH, LEGAL, headers=SENT)
    assert status == 503 and answered.status == 200
    served = {name.lower(): value for name, value in answered.headers.items()}
    for name in ("access-control-allow-origin", "access-control-expose-headers", "x-request-id", "content-language"):
        assert refused[name] == served[name], name
    assert refused["x-request-id"] == "page-7"
    assert "retry-after" in {h.strip().lower() for h in refused["access-control-expose-headers"].split(",")}
    assert {"origin", "accept-language"} <= {value.strip().lower() for value in refused["vary"].split(",")}


def test_a_preflight_is_answered_while_the_worker_is_full(small: Gunicorn, tmp_path: Path) -> None:
    # Refused, it would hide the operation's own 503 from the page behind a network error.
    preflight = {"Origin": APP_ORIGIN, "Access-Control-Request-Method": "POST"}
    with full(small, tmp_path):
        answer = call(small.base, "OPTIONS", PATH, headers=preflight, timeout=1)
    assert answer.status == 200 and answer.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_a_client_refused_keeps_its_connection_and_is_read_again_only_after_retry_after(
    small: Gunicorn, tmp_path: Path
) -> None:
    # A new connection would cost the worker more than the kept one; a client asking again at
    # once (most do) waits on its own connection instead of being refused in a loop.
    with full(small, tmp_path), socket.create_connection(("127.0.0.1", small.port), timeout=10) as s:
        s.sendall(request())
        status, headers, _ = read_answer(s)
        assert status == 503
        assert headers["connection"] == "keep-alive"
        sent = time.monotonic()
        s.sendall(request())
        assert read_answer(s)[0] == 503  # still full: refused again, a Retry-After later
        assert time.monotonic() - sent >= 0.9, "the next request was read before its Retry-After"


def test_the_probe_port_answers_the_probes_and_the_metrics_while_the_service_port_is_full(
    small: Gunicorn, tmp_path: Path
) -> None:
    assert small.health_port is not None
    for base in (f"http://127.0.0.1:{small.health_port}", small.base):
        with full(small, tmp_path):
            for path in ("/livez", "/readyz", "/metrics", "/livez", "/readyz"):
                assert call(base, "GET", path, timeout=1).status == 200, (base, path)


def test_the_index_is_answered_as_the_probes_are_while_the_service_port_is_full(
    small: Gunicorn, tmp_path: Path
) -> None:
    # A load balancer's default check asks / on the service's port: refused for load, it would take
    # a busy instance out, and its load onto the others would take them out in turn.
    with full(small, tmp_path):
        statuses = [call(small.base, "GET", path, timeout=1).status for path in ["/", "/livez"] * 10]
        refused = call(small.base, "POST", PATH, LEGAL, timeout=1).status
    assert statuses == [200] * 20, statuses
    assert refused == 503, "the worker was not full"


def test_the_probe_port_serves_nothing_else(small: Gunicorn) -> None:
    assert small.health_port is not None
    answer = call(f"http://127.0.0.1:{small.health_port}", "POST", PATH, LEGAL, headers=SENT)
    assert answer.status == 404 and answer.headers["Content-Type"] == "application/problem+json"
    assert "/livez" in answer.json()["detail"]
    assert answer.headers["X-Request-ID"] == "page-7" and answer.headers["Content-Language"] == "fr"
    assert answer.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_a_request_that_waited_past_its_deadline_is_refused_not_served(tmp_path: Path) -> None:
    # No bound on the queue, a deadline of a tenth of a second: a request queued behind a turn
    # held longer than that is refused when its turn comes, unserved.
    with holding_server(ADMISSION_QUEUE_SECONDS="0", ADMISSION_DEADLINE_SECONDS="0.1") as g:
        with contextlib.ExitStack() as waiting:
            with turn_held(g.port, tmp_path):
                socks = waiting.enter_context(queued(g.port, 3))
                time.sleep(0.3)
            statuses = [read_answer(s)[0] for s in socks]
        assert statuses == [503, 503, 503]
        deadline = time.monotonic() + 5
        while not any("deadline" in line for line in g.lines if "Shedding load" in line):
            assert time.monotonic() < deadline, "the refusals were not said in the log"
            time.sleep(0.05)
        assert _served(g) == 0, "a refused request was served"
        assert call(g.base, "POST", PATH, LEGAL).status == 200  # and the next one, on time, is


def _served(g: Gunicorn) -> int:
    return sum(1 for r in g.log_records() if r.get("path") == PATH and r.get("status") == 200)


def test_a_refused_client_that_closes_frees_its_place_at_once(tmp_path: Path) -> None:
    # A balancer without keep-alive to the instances sends each request on a new connection and
    # closes it once answered: its refused connections must not keep their places for the
    # Retry-After, or a few dozen refusals would fill the worker's places and leave every new
    # connection waiting in the kernel's queue.
    statuses: list[int] = []
    waits: list[float] = []
    with holding_server(WORKER_CONNECTIONS="20") as g, full(g, tmp_path):
        for _ in range(60):  # three times the places
            start = time.monotonic()
            with socket.create_connection(("127.0.0.1", g.port), timeout=10) as s:
                s.sendall(request())
                statuses.append(read_answer(s)[0])
            waits.append(time.monotonic() - start)
    assert statuses == [503] * 60
    assert max(waits) < 0.5, f"a new connection waited {max(waits):.2f} s for a place"


# -- In a browser --------------------------------------------------------------------------------

REFUSED_PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">waiting</pre><script>
(async () => {
  let seen;
  try {
    const r = await fetch(%(base)s + "/v1/tricks/legal-cards", {method: "POST", body: JSON.stringify(%(body)s),
      headers: {"Content-Type": "application/json", "Accept-Language": "fr", "X-Request-ID": "page-9"}});
    const json = await r.json();
    seen = {status: r.status, retryAfter: r.headers.get("Retry-After"), id: r.headers.get("X-Request-ID"),
            language: r.headers.get("Content-Language"), code: json.errors[0].code};
  } catch (e) { seen = {failed: String(e)}; }
  document.getElementById("out").textContent = "RESULT" + JSON.stringify(seen) + "END";
})();
</script></body></html>"""


@needs_browser
def test_a_page_of_another_origin_reads_a_refusal_and_its_retry_after(tmp_path: Path) -> None:
    server = holding_server()
    page = PageServer(REFUSED_PAGE % {"base": json.dumps(server.base), "body": json.dumps(LEGAL)})
    server.env["CORS_ORIGINS"] = page.origin
    try:
        with server, full(server, tmp_path / "turn"):
            seen = page_result(page.origin + "/", tmp_path / "profile")
    finally:
        page.close()
    assert seen == {"status": 503, "retryAfter": "1", "id": "page-9", "language": "fr", "code": "overloaded"}
