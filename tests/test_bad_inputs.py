"""The bad-input corpus (tests/badinputs.py), in process and against a running gunicorn.

Every answer: the expected status, ``application/problem+json`` with a located error for
every 4xx, never a 5xx.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from service.contract.errorcodes import FieldErrorCode
from tests.badinputs import BATCH, RAW_HTTP, BadBatch, BadRequest, bad_batches, batch_requests, corpus
from tests.serving import Gunicorn

CORPUS = corpus() + batch_requests()
BATCHES = bad_batches()
CODES = {code.value for code in FieldErrorCode}


def check(case: BadRequest, status: int, content_type: str | None, body: bytes) -> None:
    assert status == case.status, body[:300]
    if status < 400:
        return
    assert content_type == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == status and problem["type"].startswith("/problems/")
    pointers = [e["pointer"] for e in problem["errors"]]
    assert pointers, "every problem locates its fault"
    assert {e["code"] for e in problem["errors"]} <= CODES, problem["errors"]
    assert all(p == "" or p.startswith("/") for p in pointers)
    if case.pointer is not None:
        assert case.pointer in pointers, pointers


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.id)
def test_in_process(client: FlaskClient, case: BadRequest) -> None:
    answer = case.send(client)
    check(case, answer.status_code, answer.mimetype, answer.data)


def send(port: int, raw: bytes) -> tuple[int, str | None, bytes]:
    """One request as raw bytes; the status, content type and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(raw)
            s.shutdown(socket.SHUT_WR)  # no more bytes: a short body is short, not late
        except OSError:
            pass  # the server may answer and close before taking everything
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    ctype = headers.get("Content-Type")
    return int(lines[0].split()[1]), None if ctype is None else ctype.split(";")[0], body


def check_batch(case: BadBatch, status: int, content_type: str | None, body: bytes) -> None:
    """A 200 NDJSON answer: one item per line as the case says, every problem located, the summary."""
    assert (status, content_type) == (200, "application/x-ndjson"), body[:300]
    *items, last = [json.loads(line) for line in body.splitlines()]
    got = []
    for index, item in enumerate(items):
        assert item["index"] == index
        if "result" in item:
            got.append("result")
            continue
        problem = item["problem"]
        assert problem["status"] >= 400 and problem["type"].startswith("/problems/")
        assert problem["errors"] and {e["code"] for e in problem["errors"]} <= CODES
        assert all(e["pointer"] == "" or e["pointer"].startswith("/") for e in problem["errors"])
        got.append(problem["errors"][0]["code"])
    assert tuple(got) == case.items
    summary = last["summary"]
    assert summary["unevaluated_from"] == case.unevaluated_from
    assert summary["complete"] is (case.unevaluated_from is None)
    assert summary["deals"] == len(items) - (0 if case.unevaluated_from is None else 1)


@pytest.mark.parametrize("case", BATCHES, ids=lambda c: c.name)
def test_batch_in_process(client: FlaskClient, case: BadBatch) -> None:
    headers = {"Content-Type": "application/x-ndjson"}
    if case.chunked:
        overrides: dict[str, object] = {"wsgi.input_terminated": True}
        answer = client.post(BATCH, input_stream=io.BytesIO(case.body), headers=headers, environ_overrides=overrides)
    else:
        length = case.declared_length or len(case.body)
        overrides = {"CONTENT_LENGTH": str(length)}
        answer = client.post(BATCH, data=case.body, headers=headers, environ_overrides=overrides)
    check_batch(case, answer.status_code, answer.mimetype, answer.data)


def batch_wire(case: BadBatch) -> bytes:
    request = BadRequest(case.name, BATCH, case.body, 200, content_type="application/x-ndjson", chunked=case.chunked)
    raw = wire(request)
    if case.declared_length is not None:
        raw = raw.replace(b"Content-Length: %d" % len(case.body), b"Content-Length: %d" % case.declared_length)
    return raw


def wire(case: BadRequest) -> bytes:
    head = [f"{case.method} {case.path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    if case.content_type is not None:
        head.append(f"Content-Type: {case.content_type}")
    if case.chunked:
        head.append("Transfer-Encoding: chunked")
        size = 4096
        parts = [case.body[i : i + size] for i in range(0, len(case.body), size)]
        body = b"".join(b"%x\r\n" % len(p) + p + b"\r\n" for p in parts) + b"0\r\n\r\n"
    else:
        head.append(f"Content-Length: {len(case.body)}")
        body = case.body
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as g:
        yield g


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.id)
def test_over_http(server: Gunicorn, case: BadRequest) -> None:
    check(case, *send(server.port, wire(case)))


def dechunk(body: bytes) -> bytes:
    """A chunked answer's content (the streamed answers of a batch are chunked)."""
    out, rest = [], body
    while True:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(rest[:size])
        rest = rest[size + 2 :]


@pytest.mark.parametrize("case", BATCHES, ids=lambda c: c.name)
def test_batch_over_http(server: Gunicorn, case: BadBatch) -> None:
    status, content_type, body = send(server.port, batch_wire(case))
    check_batch(case, status, content_type, dechunk(body))


@pytest.mark.parametrize(("name", "raw", "status"), RAW_HTTP, ids=[name for name, _, _ in RAW_HTTP])
def test_malformed_http(server: Gunicorn, name: str, raw: bytes, status: int) -> None:
    got, ctype, body = send(server.port, raw)
    assert (got, ctype) == (status, "application/problem+json"), body[:300]
    problem = json.loads(body)
    assert problem["status"] == status and problem["errors"][0]["pointer"] == ""
    assert problem["errors"][0]["code"] in CODES


def test_the_server_survived_the_corpus(server: Gunicorn) -> None:
    # Run last in this module: every worker is still up, and no request raised.
    assert send(server.port, b"GET /livez HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")[0] == 200
    assert not [r for r in server.log_records() if r.get("level") in ("ERROR", "CRITICAL")]
