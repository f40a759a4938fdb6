"""The gunicorn internals the service's worker relies on, checked against the gunicorn installed.

The worker (service/serving/) replaces parts of gunicorn's gevent worker and of its HTTP
response that gunicorn does not document as stable (docs/performance.md says which figure
keeps each one). gunicorn is pinned in requirements/*.lock; when the pin moves, this file
fails first, and names what to re-read, before any connection test fails obscurely.
"""

from __future__ import annotations

import inspect
import io
import socket
import time

import gunicorn
import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import body, parser, unreader, wsgi
from gunicorn.workers import base, base_async, ggevent

from service.serving.response import Response
from service.serving.worker import ServiceWorker
from tests.pins import assert_pinned

CHECKED_AGAINST = "27.0.1"
"""The gunicorn release the internals below were read in."""

# (class, method, parameters it takes in that release): methods the worker or its response
# replace (run, handle_request, _emit_body, send_headers, close, default_headers) or extend (init_process,
# handle_error), and those it calls with these parameters.
METHODS = [
    (ggevent.GeventWorker, "init_process", ["self"]),
    (ggevent.GeventWorker, "run", ["self"]),
    (base_async.AsyncWorker, "handle_request", ["self", "listener_name", "req", "sock", "addr"]),
    (base.Worker, "handle_error", ["self", "req", "client", "addr", "exc"]),
    (base.Worker, "notify", ["self"]),
    (base.Worker, "handle_exit", ["self", "sig", "frame"]),
    (wsgi.Response, "_emit_body", ["self", "data"]),
    (wsgi.Response, "send_headers", ["self"]),
    (wsgi.Response, "close", ["self"]),
    (wsgi.Response, "default_headers", ["self"]),
    (wsgi.Response, "force_close", ["self"]),
    (wsgi.Response, "should_close", ["self"]),
    (parser.Parser, "finish_body", ["self", "deadline", "max_bytes"]),
    (parser.RequestParser, "__init__", ["self", "cfg", "source", "source_addr"]),
    (unreader.Unreader, "unread", ["self", "data"]),
]


def test_gunicorn_is_the_release_the_worker_was_checked_against() -> None:
    assert_pinned("gunicorn", CHECKED_AGAINST, gunicorn.__version__, f"the methods {__name__} lists, and the worker")


@pytest.mark.parametrize(("owner", "name", "parameters"), METHODS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_the_gunicorn_methods_the_worker_relies_on_are_there(owner: type, name: str, parameters: list[str]) -> None:
    method = getattr(owner, name, None)
    assert method is not None, f"gunicorn's {owner.__qualname__}.{name} is gone: the serving worker relies on it"
    found = [p for p in inspect.signature(method).parameters if p not in ("args", "kwargs")]
    assert found[: len(parameters)] == parameters, f"{owner.__qualname__}.{name} takes {found} now"


def test_gunicorn_writes_bodies_through_the_method_the_response_replaces() -> None:
    # Response._emit_body frames and keeps what the application writes; were write() to stop
    # calling it, answers would go out unframed or not be held for the acceptor.
    assert "self._emit_body(" in inspect.getsource(wsgi.Response.write)


def test_the_attributes_the_worker_reads_are_there() -> None:
    # The parser's read-ahead buffer tells the worker whether a request is whole on arrival.
    assert isinstance(unreader.Unreader().buf, io.BytesIO)
    # Lowered to 16 KiB at start (docs/performance.md: the batch figures).
    assert unreader.SocketUnreader.max_body_chunk == 1024 * 1024
    assert "self.req_count" in inspect.getsource(parser.Parser)
    # A body of known length, whole in the read-ahead or not: req.body.reader, its length.
    reader = body.LengthReader(unreader.Unreader(), 10)
    assert body.Body(reader).reader is reader and reader.length == 10
    # The socket a request's body is read from, swapped for the turn's (TurnedSocket).
    with socket.socket() as sock:
        assert unreader.SocketUnreader(sock).sock is sock
    assert "self.sock.recv(" in inspect.getsource(unreader.SocketUnreader.chunk)
    create = inspect.signature(wsgi.create).parameters
    assert list(create)[-2:] == ["response_class", "response_args"]


def test_the_worker_replaces_what_the_list_says() -> None:
    replaced = {
        name
        for owner, name, _ in METHODS
        for ours in (ServiceWorker, Response)
        if issubclass(ours, owner) and name in ours.__dict__
    }
    assert replaced == {
        "init_process",
        "run",
        "handle_request",
        "handle_error",
        "_emit_body",
        "send_headers",
        "close",
        "default_headers",
    }


@pytest.mark.parametrize("version", ["1.0", "1.1"])
@pytest.mark.parametrize("connection", ["", "Connection: close\r\n", "Connection: keep-alive\r\n"])
@pytest.mark.parametrize(("chunked", "upgrade"), [(False, False), (True, False), (False, True)])
def test_the_answer_s_first_lines_are_gunicorn_s(version: str, connection: str, chunked: bool, upgrade: bool) -> None:
    # Response.default_headers makes the Date line once a second: every other line as gunicorn's.
    raw = f"GET / HTTP/{version}\r\nHost: t\r\n{connection}\r\n".encode()
    req = next(parser.RequestParser(Config(), iter([raw]), ("127.0.0.1", 1)))
    ours = Response(req, None, Config())
    ours.start_response("200 OK", [])
    ours.chunked, ours.upgrade = chunked, upgrade
    theirs, mine = wsgi.Response.default_headers(ours), ours.default_headers()
    assert [line for line in mine if not line.startswith("Date:")] == [
        line for line in theirs if not line.startswith("Date:")
    ]
    [date] = [line for line in mine if line.startswith("Date:")]
    [their_date] = [line for line in theirs if line.startswith("Date:")]
    # The same second, unless the clock turned one between the two calls.
    assert date in (their_date, f"Date: {util.http_date(int(time.time()))}\r\n")
