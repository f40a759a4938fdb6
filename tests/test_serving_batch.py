"""Batches served by gunicorn as deployed: streaming, sharing a worker, outliving the worker
timeout, draining, and the access log. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.connection import STREAMED_PATHS
from service.randomdeals import random_deal
from tests.conftest import deal_request, golden
from tests.serving import Gunicorn

BATCH = "/v1/deals/evaluate-batch"


def deals(n: int) -> bytes:
    """``n`` records, cycling through golden and random deals (never one body repeated back to back)."""
    pool = [deal_request(d) for d in golden("deals.jsonl")] + [random_deal(s, 3 + s % 3) for s in range(60)]
    return b"".join(json.dumps({"id": f"d{i}", **pool[i % len(pool)]}).encode() + b"\n" for i in range(n))


def open_stream(port: int, body: bytes, receive_buffer: int = 0) -> tuple[socket.socket, http.client.HTTPResponse]:
    """A batch posted by a client that reads the answer while it sends the body (into a receive
    buffer of ``receive_buffer`` bytes, if given: the kernel's otherwise)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(60)
    sock.connect(("127.0.0.1", port))
    head = (
        f"POST {BATCH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()

    def send() -> None:
        with contextlib.suppress(OSError):  # the server stopped reading (it drains) and closed
            sock.sendall(head + body)

    threading.Thread(target=send, daemon=True).start()
    answer = http.client.HTTPResponse(sock, method="POST")
    answer.begin()
    assert answer.status == 200 and answer.getheader("Content-Type") == "application/x-ndjson"
    return sock, answer


def lines(answer: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    while line := answer.readline():
        yield json.loads(line)


def post_whole(base: str, body: bytes) -> list[dict[str, Any]]:
    """A batch posted by a client that sends the whole body before reading (urllib)."""
    req = urllib.request.Request(base + BATCH, data=body, headers={"Content-Type": "application/x-ndjson"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return [json.loads(line) for line in r.read().splitlines()]


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    # One worker, so that the batch and the other requests share it; a 2 s worker timeout,
    # shorter than the batches below.
    with Gunicorn({"WEB_CONCURRENCY": "1", "GUNICORN_TIMEOUT": "2"}) as g:
        yield g


@pytest.mark.parametrize("count", [1500, 25_000])
def test_a_client_that_sends_everything_first_gets_every_answer(server: Gunicorn, count: int) -> None:
    # 1 500 deals: some 3 MiB of answers wait in memory while the client is still sending;
    # 25 000: some 45 MiB, more than memory and the socket buffers hold, go through the
    # worker's spill file (the 27 MiB body cannot all sit in the kernel's buffers either).
    *items, last = post_whole(server.base, deals(count))
    assert [item["index"] for item in items] == list(range(count))
    assert last["summary"]["deals"] == count and last["summary"]["complete"] is True


def test_a_long_batch_streams_shares_its_worker_and_outlives_the_worker_timeout(server: Gunicorn) -> None:
    sock, answer = open_stream(server.port, deals(12_000))
    with sock:
        stream = lines(answer)
        first = next(stream)  # answers arrive while the body is still being sent
        assert first["index"] == 0 and "result" in first
        # Requests to the same worker are answered while the batch goes on.
        single = json.dumps(deal_request(golden("deals.jsonl")[0])).encode()
        for _ in range(5):
            req = urllib.request.Request(
                server.base + "/v1/deals/evaluate", data=single, headers={"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(req, timeout=10) as r:
                assert r.status == 200
        answered_meanwhile = time.monotonic()
        rest = list(stream)
        done = time.monotonic()
    *items, last = [first, *rest]
    assert len(items) == 12_000 and last["summary"]["complete"] is True
    assert done - answered_meanwhile > 0.2, "the batch was still going when the other requests were answered"
    # It ran past the worker timeout (2 s) without the worker being killed.
    assert not [line for line in server.lines if "WORKER TIMEOUT" in line or "SIGKILL" in line]


def test_the_access_log_has_one_line_per_batch_with_its_counts(server: Gunicorn) -> None:
    body = deals(30) + b"not json\n"
    post_whole(server.base, body)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        lines_ = [r for r in server.log_records() if r.get("path") == BATCH and r["verdict"]["deals"] == 31]
        if lines_:
            break
        time.sleep(0.05)
    [line] = lines_
    assert line["status"] == 200
    assert line["verdict"] == {
        "operation": "evaluate_batch",
        "deals": 31,
        "valid": 30,
        "in_progress": 0,
        "faulty": 0,
        "malformed": 1,
        "claims_checked": 0,
        "claims_disagree": 0,
        "complete": True,
        "unevaluated_from": None,
    }


def test_a_batch_stops_at_a_line_boundary_when_the_instance_drains() -> None:
    with Gunicorn({"WEB_CONCURRENCY": "1", "DRAIN_SECONDS": "3"}) as g:
        sock, answer = open_stream(g.port, deals(20_000))
        with sock:
            stream = lines(answer)
            next(stream)
            os.kill(g.pid, signal.SIGTERM)  # as Kubernetes stops a pod
            *items, last = list(stream)
    stop = items[-1]
    assert stop["problem"]["errors"][0]["code"] == "draining"
    summary = last["summary"]
    assert summary["complete"] is False
    assert 0 < summary["unevaluated_from"] == stop["index"] == summary["deals"] < 20_000


@pytest.mark.parametrize("reader_pause", [0.0, 0.5])
def test_a_client_still_sending_reads_the_whole_answer_of_a_draining_batch(reader_pause: float) -> None:
    # The client pushes 30 MB of body while the instance stops reading it: the service's close
    # must not reset the connection before the client has read the stop and the summary, even
    # when the client is slow to read them (a reset discards what it has not read yet).
    with Gunicorn({"WEB_CONCURRENCY": "1", "DRAIN_SECONDS": "1"}) as g:
        # A small receive buffer: most of the answer waits in the service's send buffer.
        sock, answer = open_stream(g.port, deals(20_000), receive_buffer=4096)
        with sock:
            first = answer.readline()
            os.kill(g.pid, signal.SIGTERM)
            time.sleep(reader_pause)
            rest = answer.read()
    *items, last = [json.loads(line) for line in [first, *rest.splitlines()]]
    assert last["summary"]["complete"] is False
    assert [item["index"] for item in items] == list(range(last["summary"]["unevaluated_from"] + 1))


def test_the_disk_kept_for_answers_is_bounded_per_worker() -> None:
    # 1 MiB of disk for unsent answers: a client that sends 25 000 deals before reading
    # outgrows it, the worker waits for it, and the body deadline ends the exchange. The
    # worker lives on, its budget given back, and serves the next batch.
    env = {"WEB_CONCURRENCY": "1", "ANSWER_SPILL_MIB": "1", "BODY_TIMEOUT_SECONDS": "2"}
    with Gunicorn(env) as g:
        with pytest.raises(OSError):
            post_whole(g.base, deals(25_000))
        for _ in range(2):
            *items, last = post_whole(g.base, deals(1500))
            assert len(items) == 1500 and last["summary"]["complete"] is True
        assert len([line for line in g.lines if "Booting worker" in line]) == 1, "the worker was not replaced"


def test_a_client_reading_slowly_but_steadily_gets_the_whole_answer() -> None:
    # Some 3 MiB of answers, read at 600 KiB/s: longer than the 2 s body deadline in all,
    # never 2 s without taking bytes.
    body = deals(1500)
    with Gunicorn({"WEB_CONCURRENCY": "1", "BODY_TIMEOUT_SECONDS": "2"}) as g:
        sock = socket.create_connection(("127.0.0.1", g.port), timeout=30)
        with sock:
            sock.sendall(
                f"POST {BATCH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            time.sleep(1)  # the answers pile up meanwhile
            received = []
            while data := sock.recv(60 * 1024):
                received.append(data)
                time.sleep(0.1)
        raw = b"".join(received)
        assert raw.endswith(b"0\r\n\r\n"), "the answer went to its end"
        assert b'"summary"' in raw
        assert not [line for line in g.lines if '"ERROR"' in line]


def test_a_client_leaving_mid_answer_is_no_error() -> None:
    with Gunicorn({"WEB_CONCURRENCY": "1"}) as g:
        sock, answer = open_stream(g.port, deals(3000))
        with sock:
            next(lines(answer))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        assert call_ok(g.base)
        assert not [line for line in g.lines if '"ERROR"' in line]


def call_ok(base: str) -> bool:
    with urllib.request.urlopen(base + "/readyz", timeout=10) as r:
        return r.status == 200


def test_every_batch_route_is_served_as_a_stream(app: Flask) -> None:
    # The worker serves these paths in greenlets of their own: a batch route missing from the
    # list would run in the acceptor and hold up every other connection for its whole length.
    batch_rules = {rule.rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("batch.")}
    assert batch_rules and batch_rules <= STREAMED_PATHS
    # The server knows no contract, so it keeps its own list: the contract's streamed operation, exactly.
    from service.contract.batch import EVALUATE_BATCH

    assert {EVALUATE_BATCH.path} == STREAMED_PATHS
