"""The command's one HTTP client: requests to a service speaking this one's API (``--url``).

Both commands that talk to a service go through here: ``replay --url`` posts batches on a new
connection each, sending the body from a second thread while the answer streams back (the
service answers each line as it reads it, and stops reading a client that does not take its
answers); ``conformance --url`` posts one case after another on a kept-alive connection. Both
send the same headers (the command's language as ``Accept-Language``, so that the service's texts
come in it) and read a refusal's problem document the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import http.client
import json
import math
import random
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import NamedTuple
from urllib.parse import urlsplit

from .errors import reason
from .words import labelled, language, say

PROBLEM_MAX_BYTES = 64 * 1024
"""Of a refusal, at most this much is read: a problem document is small."""
SEND_BYTES = 64 * 1024
OVERLOAD_WAIT = 300.0
"""Seconds a command waits, in all and in a row, for a service that refuses for load (a 503 or a
429 with ``Retry-After``) before it counts a failure: a spike slows a CI run down, it does not
fail it (``--overload-wait``)."""
RETRY_AFTER_MAX = 30.0
"""The longest one ``Retry-After`` is waited for."""
OVERLOAD_STATUSES = frozenset({429, 503})


def retry_after(status: int, value: str | None) -> float | None:
    """Seconds to wait before asking again when an answer refuses for load (a 503 or 429 with
    ``Retry-After``, in seconds or as an HTTP date), at most :data:`RETRY_AFTER_MAX`; None for
    any other answer."""
    if status not in OVERLOAD_STATUSES or not value:
        return None
    value = value.strip()
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            seconds = (email.utils.parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError):
            return None
    return min(max(seconds, 0.0), RETRY_AFTER_MAX)


class Patience:
    """How long a command still waits for an overloaded service, spent a ``Retry-After`` at a time."""

    def __init__(self, budget: float = OVERLOAD_WAIT) -> None:
        self.budget = budget
        self.waited = 0.0

    def wait(self, seconds: float, abort: threading.Event | None = None) -> bool:
        """Wait ``seconds`` and a little more (clients refused together do not all come back
        together); False, without waiting, once the budget would be spent."""
        delay = seconds * (1 + random.random() / 4)
        if self.waited + delay > self.budget:
            return False
        self.waited += delay
        if abort is not None:
            abort.wait(delay)
        else:
            time.sleep(delay)
        return True

    def reset(self) -> None:
        """The service answered: the next refusals start a new wait."""
        self.waited = 0.0


class ServiceUrl(NamedTuple):
    """The base URL of a service, as the commands take it."""

    url: str
    """As given, for messages."""
    https: bool
    host: str
    port: int | None
    prefix: str
    """The base URL's path without its final ``/``: an operation's path is appended to it."""

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """A new (unopened) connection to the service."""
        kind = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)


def service_url(text: str) -> ServiceUrl:
    """``text`` as a service's base URL; :class:`ValueError` saying why it is not one."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(say("url.bad", url=text))
    if parts.query or parts.fragment:
        raise ValueError(say("url.extras", url=text))
    try:
        port = parts.port
    except ValueError:
        raise ValueError(say("url.bad", url=text)) from None
    return ServiceUrl(text, parts.scheme == "https", parts.hostname, port, parts.path.rstrip("/"))


def seconds(text: str) -> float:
    """A positive number of seconds, as an argparse type."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(say("conformance.not_seconds", value=text))
    return value


def url_argument(text: str) -> ServiceUrl:
    """:func:`service_url` as an argparse type."""
    try:
        return service_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_overload_wait(parser: argparse.ArgumentParser) -> None:
    """``--overload-wait``, for every command that asks a service: declared once, so that replay
    and conformance wait out a service's refusals for load alike."""
    parser.add_argument(
        "--overload-wait",
        type=seconds,
        default=OVERLOAD_WAIT,
        metavar="SECONDS",
        help=say("help.overload_wait", seconds=round(OVERLOAD_WAIT)),
    )


class UnreachableError(OSError):
    """The service could not be connected to. Both commands say it in the same words,
    :func:`unreachable`'s."""

    def __init__(self, where: ServiceUrl, cause: OSError) -> None:
        super().__init__(unreachable(where, reason(cause)))
        self.where = where
        self.reason = reason(cause)


def unreachable(where: ServiceUrl, why: str, attempts: int = 1) -> str:
    """That the service at ``where`` cannot be reached, and why (after ``attempts`` tries): the
    one sentence both commands say it with."""
    if attempts == 1:
        return say("client.unreachable", url=where.url, reason=why)
    return say("client.unreachable.attempts", attempts, url=where.url, reason=why)


def wrong_base(where: ServiceUrl, paths: Sequence[str]) -> str:
    """That the base URL ``where`` is wrong, its service having answered 404 Not Found to every
    operation posed (``paths``), and the likely fix: the one sentence both commands say it with.
    A base URL that ends as the operations' paths begin (``…/v1``, every path starting with
    ``/v1``) doubles that part: the fix is to drop it, the base URL being the service's root."""
    base = where.prefix.split("/")[1:]
    heads = [path.split("/")[1:] for path in paths]
    extra = next(
        (base[-n:] for n in range(len(base), 0, -1) if all(head[:n] == base[-n:] for head in heads)),
        None,
    )
    if extra is None:
        fix = say("client.wrong_base.other")
    else:
        doubled = "/" + "/".join(extra)
        root = where.url.rstrip("/").removesuffix(doubled)
        fix = say("client.wrong_base.doubled", extra=doubled, root=root)
    return say("client.wrong_base", url=where.url, paths=", ".join(paths), fix=fix)


class Refusal(NamedTuple):
    """A problem answer (4xx, 5xx), as much as could be read of it."""

    status: int
    reason: str
    title: str
    detail: str
    errors: tuple[tuple[str, str, str], ...]
    """Each located fault: its pointer, code and message."""

    def located(self) -> list[str]:
        """Each located fault in one line (``pointer: message``), those that only repeat the detail aside."""
        return [labelled(pointer or code, message) for pointer, code, message in self.errors if message != self.detail]


def refusal_of(status: int, reason: str, body: bytes) -> Refusal:
    """What a refusal says, whatever its body holds (a problem document, or anything else)."""
    try:
        problem = json.loads(body)
    except ValueError:
        problem = None
    if not isinstance(problem, dict):
        problem = {}
    errors = tuple(
        (str(e.get("pointer", "")), str(e.get("code", "")), str(e.get("message", "")))
        for e in problem.get("errors") or ()
        if isinstance(e, dict)
    )
    return Refusal(status, reason, str(problem.get("title") or reason), str(problem.get("detail") or ""), errors)


def _send(sock: socket.socket, body: bytes) -> None:
    view = memoryview(body)
    try:
        for start in range(0, len(body), SEND_BYTES):
            sock.sendall(view[start : start + SEND_BYTES])
    except OSError:
        pass  # the answer, being read meanwhile, says what happened


class Client:
    """Requests to one service, with the command's headers."""

    def __init__(self, where: ServiceUrl, user_agent: str, timeout: float, patience: Patience | None = None) -> None:
        self.where = where
        self.user_agent = user_agent
        self.timeout = timeout
        self.patience = patience or Patience()
        self.language = language()  # the service's texts (violations, problems) in the command's language
        self._kept: http.client.HTTPConnection | None = None

    def headers(self, content_type: str, accept: str) -> dict[str, str]:
        return {
            "Content-Type": content_type,
            "Accept": accept,
            "User-Agent": self.user_agent,
            "Accept-Language": self.language,
        }

    def connect(self) -> None:
        """Open the kept-alive connection now (:class:`UnreachableError` when the service cannot be reached)."""
        self._kept = self.where.connection(self.timeout)
        try:
            self._kept.connect()
        except OSError as exc:
            self.close()
            raise UnreachableError(self.where, exc) from None

    def post(self, path: str, body: bytes, content_type: str, accept: str) -> tuple[http.client.HTTPResponse, bytes]:
        """``body`` to ``path`` on the kept-alive connection: the answer and its body. A refusal
        for load is sent again after its ``Retry-After``, as long as the patience lasts."""
        while True:
            answer, data = self._post_once(path, body, content_type, accept)
            delay = retry_after(answer.status, answer.getheader("Retry-After"))
            if delay is None or not self.patience.wait(delay):
                if delay is None:
                    self.patience.reset()
                return answer, data

    def _post_once(
        self, path: str, body: bytes, content_type: str, accept: str
    ) -> tuple[http.client.HTTPResponse, bytes]:
        """The service may have closed the connection since the last request (its keep-alive
        time): the request is sent once more on a new one. A timeout is not tried again."""
        headers = self.headers(content_type, accept)
        try:
            return self._post(self.where.prefix + path, body, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            if isinstance(exc, TimeoutError):
                raise
        try:
            return self._post(self.where.prefix + path, body, headers)
        except (OSError, http.client.HTTPException):
            self.close()
            raise

    def _post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[http.client.HTTPResponse, bytes]:
        if self._kept is None:
            self._kept = self.where.connection(self.timeout)
        self._kept.request("POST", path, body, headers)
        answer = self._kept.getresponse()
        return answer, answer.read()

    @contextlib.contextmanager
    def stream(self, path: str, body: bytes, content_type: str, accept: str) -> Iterator[http.client.HTTPResponse]:
        """``body`` to ``path`` on a connection of its own (behind a load balancer, each such request
        may go to another instance), sent from a second thread while the answer is read;
        :class:`UnreachableError` when the service cannot be connected to."""
        conn = self.where.connection(self.timeout)
        sock: socket.socket | None = None
        sender: threading.Thread | None = None
        try:
            try:
                conn.connect()
            except OSError as exc:
                raise UnreachableError(self.where, exc) from None
            conn.putrequest("POST", self.where.prefix + path, skip_accept_encoding=True)
            for name, value in {**self.headers(content_type, accept), "Content-Length": str(len(body))}.items():
                conn.putheader(name, value)
            if self.where.https:
                # An SSL connection is not to be used by two threads at once: the body goes
                # first, which the callers' bodies keep within what the service holds.
                conn.endheaders(body)
            else:
                conn.endheaders()
                sock = conn.sock
                sender = threading.Thread(target=_send, args=(sock, body), daemon=True)
                sender.start()
            yield conn.getresponse()
        finally:
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the sender, if the service stopped reading
            conn.close()
            if sender is not None:
                sender.join()

    def close(self) -> None:
        if self._kept is not None:
            self._kept.close()
            self._kept = None


def read_refusal(answer: http.client.HTTPResponse) -> Refusal:
    """A non-200 answer's problem, read (at most :data:`PROBLEM_MAX_BYTES` of it)."""
    try:
        body = answer.read(PROBLEM_MAX_BYTES)
    except (OSError, http.client.HTTPException):
        body = b""
    return refusal_of(answer.status, answer.reason, body)
