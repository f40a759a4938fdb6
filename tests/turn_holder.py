"""The service with one more path, for the overload tests: ``POST /test/hold`` holds the worker's
compute turn until the test releases it, so that a test makes the load it needs, exactly,
instead of outrunning the server with client threads (which a busy machine may not do).

The request's body names two files: the one the app creates once it holds the turn (the test
waits for it), and the one whose creation releases it. The request is sent with ``Expect:
100-continue`` and its body only after the server's ``100 Continue``: a request not whole on
arrival is served in a greenlet of its own, never in the acceptor, which would stop taking
connections while it holds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import gevent

from service.app import create_app

HOLD = "/test/hold"


class _Holding:
    """The service's WSGI application, its config (which the worker reads) included, plus the path."""

    def __init__(self) -> None:
        self._service = create_app()
        self.config = self._service.config

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != HOLD:
            answer: Iterable[bytes] = self._service(environ, start_response)
            return answer
        files = json.loads(environ["wsgi.input"].read())
        with open(files["held"], "w"):
            pass
        while not os.path.exists(files["release"]):
            gevent.sleep(0.005)  # other greenlets run meanwhile; the turn stays with this request
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "4")])
        return [b"done"]


app = _Holding()
