"""The gunicorn worker that serves the service: many connections per process, with deadlines.

Phones send requests slowly (a train enters a tunnel halfway through an upload), and nothing
buffers in front of the service: a worker that gave each connection the process until its
request had arrived would let a few slow clients stall everyone. This worker runs on gevent:

- **One acceptor greenlet per listening socket** takes new connections. When a connection's
  request is already whole on arrival (headers and body in the first read, the usual case on
  a LAN or from a backend), the acceptor serves it at once and sends the answer without
  waiting; a request served this way costs about what it costs a sync worker, no greenlet is
  made for it.
- **Anything that has to wait gets a greenlet of its own**: a request still arriving, the
  rest of an answer the client is slow to take, the next request of a kept-alive connection.
  While it waits, the acceptor and every other connection carry on.
- **Deadlines** (:class:`ConnectionLimits`, gunicorn's ``keepalive``): a request's headers
  must arrive within ``header_seconds`` of its first byte, or a 408 problem is sent and the
  connection closed; each read of a body must bring bytes within ``body_seconds``, or the
  application answers 408 (it is reading the body when it stalls); an idle kept-alive
  connection is closed after ``keepalive`` seconds, a new one that sends nothing after
  ``header_seconds``.
- **A bound**: at most ``worker_connections`` open connections per worker. At the bound the
  acceptor stops taking connections until one closes; new ones wait in the kernel's listen
  backlog, where the other workers may take them.

The rules work is CPU-bound and short: one request computes at a time per process, and the
other connections only wait while it does (see docs/operations.md, "Serving", for the
figures). A batch (:data:`~service.connection.STREAMED_PATHS`) is long: it always gets a
greenlet of its own, and it yields to the others between two deals.

Requests gunicorn cannot parse are answered with ``application/problem+json`` and a
4xx status, as every other fault of the service: gunicorn's own answer is an HTML page, and a
501 for an unknown transfer coding, but these are client faults (RFC 9112 §6.1's 501 is a
SHOULD).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import socket
import time
from datetime import datetime
from typing import Any
from urllib.parse import unquote

import gevent
from gevent.lock import BoundedSemaphore
from gunicorn import util
from gunicorn.http import RequestParser, errors, wsgi
from gunicorn.http.body import LengthReader
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.ggevent import GeventWorker

from ..connection import (
    CLOSE_CONNECTION,
    DRAINING,
    HEALTH_PATHS,
    PAUSE,
    STREAMED_PATHS,
    UNQUEUED_PATHS,
)
from .admission import Admission, TurnedSocket, check_loop
from .guard import GONE, ConnectionGuard, HeaderTimeoutError
from .limits import AdmissionLimits, ConnectionLimits, SpillBudget
from .metrics import count_refused
from .problems import OwnAnswers, parse_problem
from .response import Response

# Not the client's fault: left to gunicorn (a 500, logged with its trace).
_SERVER_SIDE = (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName, errors.ConfigurationProblem)

_END_OF_HEADERS = b"\r\n\r\n"

LINGER_SECONDS = 2.0
"""How long a closing connection waits for the client to close first."""
LINGER_BYTES = 64 * 1024
"""How much of what a closing client still sends is read, at most."""
_FIRST_READ = 65536
HEALTH_SLOTS = 32
"""Open connections a worker keeps for its probe port, apart from ``worker_connections``."""
ACCEPT_AT_ONCE = 16
"""Most connections the acceptor takes in one go, one go a round of the loop (a round computes
one request): some ten thousand a second, and the other workers, woken as this one is, get
their share of a crowd."""
OVERLOADED_ACCEPT_DELAY = 0.005
"""How long a worker whose queue is full lets its sibling workers take new connections first."""

# accept() failures that only mean "not now".
_ACCEPT_AGAIN = (errno.EAGAIN, errno.ECONNABORTED, errno.EINTR, errno.EPROTO)
# accept() failures for want of resources: wait a little, other connections are closing.
_ACCEPT_STARVED = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def _body_buffered(req: Any, parser: RequestParser) -> bool:
    """Whether ``req``'s whole body is already read off the socket."""
    reader = req.body.reader
    return isinstance(reader, LengthReader) and reader.length <= len(parser.unreader.buf.getvalue())


STALLED = 0.001
"""The read timeout left to a body that stalled before its turn: its deadline has passed."""
WHOLE_BODY_BYTES = 64 * 1024
"""Bodies up to this size (every operation's limit but a batch's) are read whole before their
request queues for the compute turn, so that it never holds the turn waiting for them."""


class ServiceWorker(GeventWorker):  # type: ignore[misc]
    """gevent worker: an acceptor that serves whole requests at once, greenlets for the rest."""

    limits = ConnectionLimits()
    """Replaced from gunicorn.conf.py (``post_worker_init``)."""
    admission_limits = AdmissionLimits()
    """Replaced from gunicorn.conf.py (``post_worker_init``)."""
    health_port: int | None = None
    """The port of the listener that serves the probes and the metrics only (``post_worker_init``)."""
    alive: bool

    def init_process(self) -> None:
        # Before anything is served: gunicorn stops (exit 3, the reason in its log) when a worker
        # fails to boot.
        check_loop()
        # A body of known length is received up to 16 KiB at a time, not gunicorn's 1 MiB: its
        # readline copies what remains of the last receive on every kibibyte it reads, which
        # for a batch's long body cost as much as a deal's evaluation. An NDJSON line of a deal
        # costs 3.4 µs to read at 64 KiB, 2.5 at 16 KiB, 2.3 at 8 KiB (docs/performance.md).
        # (The larger receive helps threaded workers, whose receives contend for the GIL;
        # greenlets do not.)
        SocketUnreader.max_body_chunk = 16 * 1024
        self._slots = BoundedSemaphore(self.worker_connections)
        # The probe port's connections have slots of their own: a worker whose slots are all
        # taken by a crowd still answers its probes.
        self._health_slots = BoundedSemaphore(HEALTH_SLOTS)
        self._idle: set[gevent.Greenlet] = set()
        self._connections: set[gevent.Greenlet] = set()
        super().init_process()

    # The worker's life: accept until told to stop, then let the connections finish.

    def run(self) -> None:
        self.admission = Admission(self.admission_limits, count_refused, self.log)
        acceptors = []
        for listener in self.sockets:
            if listener.family in (socket.AF_INET, socket.AF_INET6):
                # The kernel hands over a connection once its first bytes are in, so the
                # acceptor rarely meets a connection with nothing to read yet.
                listener.setsockopt(
                    socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, max(1, round(self.limits.header_seconds))
                )
            acceptors.append(gevent.spawn(self._accept, listener))
        while self.alive:
            self.notify()
            gevent.sleep(1.0)
        # Stop accepting (an acceptor waiting in accept() wakes up with an error), close the
        # idle kept-alive connections, and give requests in hand the graceful timeout.
        for listener in self.sockets:
            listener.close()
        gevent.killall(list(self._idle), block=False)
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while (self._connections or any(a for a in acceptors if not a.dead)) and time.monotonic() < deadline:
            self.notify()
            gevent.sleep(0.1)
        if self._connections:
            self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
            gevent.killall(list(self._connections), timeout=1)

    def _accept(self, listener: Any) -> None:
        name = listener.getsockname()
        health = self.health_port is not None and name[1] == self.health_port
        slots = self._health_slots if health else self._slots
        taken = 0
        while self.alive:
            if taken == 0 and not health and not self.admission.admits():
                # Full: a sibling worker with room takes the next clients; those it leaves are
                # taken here and refused at once.
                gevent.sleep(OVERLOADED_ACCEPT_DELAY)
            slots.acquire()
            try:
                # The first connection of a go is waited for; the next ones only taken if in.
                listener.settimeout(None if taken == 0 else 0.0)
                client, addr = listener.accept()
            except OSError as exc:
                slots.release()
                if not self.alive:
                    return
                if taken and exc.errno in _ACCEPT_AGAIN:
                    taken = 0
                    gevent.sleep(0)
                elif exc.errno in _ACCEPT_STARVED:
                    self.log.error("Cannot accept connections (%s); retrying.", exc)
                    gevent.sleep(0.1)
                elif exc.errno not in _ACCEPT_AGAIN:
                    self.log.exception("Accepting a connection failed.")
                    gevent.sleep(0.1)
                continue
            self._arrival(name, client, addr, slots, health)
            # Every connection waiting in the kernel's queue is taken in one go, however busy
            # the worker is (a probe, a phone, a CI job must not wait there behind the crowd);
            # then the connections it holds run.
            taken += 1
            if taken >= ACCEPT_AT_ONCE:
                taken = 0
                gevent.sleep(0)

    # A connection: served here when its request is whole, else by a greenlet of its own.

    def _arrival(self, name: Any, client: Any, addr: Any, slots: Any, health: bool = False) -> None:
        """A new connection, in the acceptor: serve its request now if nothing has to wait, or
        refuse it now if the worker is overloaded; otherwise hand it to a greenlet of its own."""
        parser = RequestParser(self.cfg, client, addr)
        with self._guard(client, None, addr, slots, inline=True) as guard:
            client.settimeout(0.0)
            try:
                first = client.recv(_FIRST_READ)
            except BlockingIOError:
                first = None
            if first == b"":
                return  # opened and closed without a word
            if first is not None:
                parser.unreader.unread(first)
            if first is None or _END_OF_HEADERS not in first:
                guard.hand_over(self._connection, name, parser, None, b"", True)
                return
            guard.req = req = next(parser)
            path = unquote(req.path)
            arrived = time.monotonic()
            if health and path not in HEALTH_PATHS:
                resp, keep = self.handle_request(name, req, client, addr, hold=True, app=self._own.health_port_only)
                rest = resp.take()
            elif _unqueued(req, path):
                # The probes, the metrics, the index and the preflights never queue: answered as they come.
                resp, keep = self.handle_request(name, req, client, addr, hold=True)
                rest = resp.take()
            elif path in STREAMED_PATHS or not _body_buffered(req, parser):
                guard.hand_over(self._connection, name, parser, req, b"", False)
                return
            elif self.admission.turn.take_now():  # an idle worker: served here, nothing to wait for
                try:
                    resp, keep = self.handle_request(name, req, client, addr, hold=True)
                finally:
                    self.admission.turn.give()
                rest = resp.take()
            elif not self.admission.admits():
                self.admission.refuse("queue_full")
                rest, keep = self._refusal(name, req, client, addr)
                with contextlib.suppress(BlockingIOError):
                    rest = rest[client.send(rest) :]
                if keep and parser.finish_body():
                    guard.hand_over(self._connection, name, parser, None, rest, True, None, True)
                elif rest:
                    guard.hand_over(self._connection, name, parser, None, rest, False)
                return
            else:
                guard.hand_over(self._connection, name, parser, req, b"", False, arrived)
                return
            with contextlib.suppress(BlockingIOError):  # what could not go now goes below
                rest = rest[client.send(rest) :] if rest else rest
            # The body was all buffered: draining what the application left of it never waits.
            keep = keep and parser.finish_body()
            if rest or keep:
                guard.hand_over(self._connection, name, parser, None, rest, keep)

    def _connection(
        self,
        slots: Any,
        name: Any,
        client: Any,
        addr: Any,
        parser: RequestParser,
        req: Any,
        unsent: bytes,
        keep: bool,
        arrived: float | None = None,
        refused: bool = False,
    ) -> None:
        """A connection's own greenlet: everything of it that has to wait.

        ``req`` is a request parsed but not yet served (``arrived`` then, when known); ``unsent``,
        the rest of an answer; ``keep``, whether the connection serves another request after that;
        ``refused``, whether that answer refused the request (503) for overload.
        """
        with self._guard(client, req, addr, slots) as guard:
            if unsent:
                client.settimeout(self.limits.body_seconds)
                client.sendall(unsent)
                if not keep:
                    return
            if refused and not self._hold_back(client):
                return
            fresh = req is None and not unsent and keep and parser.req_count == 0
            while True:
                if guard.req is None:
                    wait = self.limits.header_seconds if fresh else self.cfg.keepalive
                    if not self._request_begins(client, parser, wait, idle=not fresh):
                        return
                    guard.req = self._read_headers(client, parser)
                    arrived = None
                fresh = False
                client.settimeout(self.limits.body_seconds)
                keep, refused = self._serve(
                    name, guard.req, client, addr, time.monotonic() if arrived is None else arrived
                )
                guard.req = None
                if not keep:
                    return
                if refused and not self._hold_back(client):
                    return
                if not parser.finish_body(time.monotonic() + self.limits.body_seconds, self.limits.drain_bytes):
                    return
                # A fast client's next request is often in already: let the other connections
                # run first, or one busy connection would keep the worker to itself.
                gevent.sleep(0)

    def _serve(self, name: Any, req: Any, client: Any, addr: Any, arrived: float) -> tuple[bool, bool]:
        """Serve ``req`` in its turn, or refuse it (503) when the worker is overloaded: whether
        the connection serves another request after it, and whether this one was refused."""
        if _unqueued(req, unquote(req.path)):
            return bool(self.handle_request(name, req, client, addr)[1]), False
        admission = self.admission
        if admission.admits():
            if self._body_first(req, client):
                arrived = time.monotonic()  # its wait for the turn starts now it is whole
            served: list[bool] = []
            turned = TurnedSocket(client, admission.turn)
            # The body is read through it too: a body still arriving gives the turn up meanwhile.
            req.unreader.sock = turned
            if admission.serve(arrived, lambda: served.append(self.handle_request(name, req, turned, addr)[1])):
                return served[0], False
        else:
            admission.refuse("queue_full")
        # The connection stays (a new one would cost the worker more), held back (_hold_back).
        answer, keep = self._refusal(name, req, client, addr)
        client.sendall(answer)
        return keep, True

    def _hold_back(self, client: Any) -> bool:
        """After a refusal, read the connection's next request only once its ``Retry-After`` has
        passed: a client that asks again at once (most do not read the header) is slowed down by
        its own connection, at no cost to the worker, instead of being refused in a loop that
        would leave the worker no time to compute. A client that closes meanwhile (a balancer
        that took its answer and left) frees its place at once. False when the connection is to
        end: the client left, or the worker stops."""
        deadline = time.monotonic() + self.admission_limits.retry_after_seconds
        current = gevent.getcurrent()
        self._idle.add(current)
        try:
            client.settimeout(self.admission_limits.retry_after_seconds)
            try:
                early = client.recv(1, socket.MSG_PEEK)
            except TimeoutError:
                early = None  # the time passed in silence
            if early == b"":
                return False
            if early:  # the next request, sent too soon: it waits the rest of the time
                gevent.sleep(max(0.0, deadline - time.monotonic()))
        except OSError:
            return False
        finally:
            self._idle.discard(current)
        return bool(self.alive)

    def _body_first(self, req: Any, client: Any) -> bool:
        """Read the rest of a small body of known length before its request queues: a request
        waits for its turn once it is whole. Whether it had to wait for bytes. A body cut short
        is left to the application, which says so (400); one that stalled has had its deadline,
        and the application's read says so at once (408)."""
        reader = req.body.reader
        if not isinstance(reader, LengthReader) or reader.length > WHOLE_BODY_BYTES:
            return False
        if any(name == "EXPECT" for name, _ in req.headers):
            return False  # the client waits for "100 Continue", which the application sends
        client.settimeout(self.limits.body_seconds)
        waited = False
        while True:
            buf = req.unreader.buf
            buf.seek(0, io.SEEK_END)
            missing = reader.length - buf.tell()
            if missing <= 0:
                return waited
            waited = True
            try:
                data = client.recv(min(missing, _FIRST_READ))
            except TimeoutError:
                client.settimeout(STALLED)
                return waited
            except OSError:
                return waited
            if not data:
                return waited
            buf.write(data)

    def _refusal(self, name: Any, req: Any, client: Any, addr: Any) -> tuple[bytes, bool]:
        """The 503 refusing ``req`` for load, through the application's answer layers, and
        whether the connection stays open after it."""
        resp, keep = self.handle_request(name, req, client, addr, hold=True, app=self._own.overloaded)
        return resp.take(), keep

    @functools.cached_property
    def _own(self) -> OwnAnswers:
        # Made on first use: the application and the limits are set after the worker is made.
        return OwnAnswers(getattr(self.wsgi, "config", {}), self.admission_limits.retry_after_seconds)

    def _request_begins(self, client: Any, parser: RequestParser, wait: float, idle: bool) -> bool:
        """Whether a request begins within ``wait`` seconds (False: closed, or silent too long)."""
        unreader = parser.unreader
        unreader.buf.seek(0, io.SEEK_END)
        if unreader.buf.tell():  # bytes of it are here already (read ahead, or pipelined)
            return True
        client.settimeout(wait)
        current = gevent.getcurrent()
        if idle:
            self._idle.add(current)
        try:
            first = client.recv(_FIRST_READ)
        except TimeoutError:
            return False
        finally:
            self._idle.discard(current)
        if not first:
            return False
        unreader.unread(first)
        return True

    def _read_headers(self, client: Any, parser: RequestParser) -> Any:
        """The next request's line and headers, which must arrive within the header deadline."""
        if _END_OF_HEADERS in parser.unreader.buf.getvalue():
            return next(parser)  # all there: no timer needed
        client.settimeout(self.limits.header_seconds)
        with gevent.Timeout(self.limits.header_seconds, HeaderTimeoutError):
            try:
                return next(parser)
            except TimeoutError:
                raise HeaderTimeoutError from None

    def _guard(self, client: Any, req: Any, addr: Any, slots: Any, inline: bool = False) -> ConnectionGuard:
        return ConnectionGuard(self, client, req, addr, slots, inline)

    def _close(self, slots: Any, _name: Any, client: Any, *_: Any) -> None:
        """Close a connection and free its slot.

        The close lingers (RFC 9112 §9.6): it sends FIN, then reads what the client still sends,
        until the client closes or :data:`LINGER_SECONDS` have passed, for it could not close
        with unread bytes without the kernel resetting the connection, and a reset loses the
        answer just sent if the client has not read it all yet (a 413; a batch that stopped
        because the instance drains, its last lines telling where to resume). Past
        :data:`LINGER_BYTES` it reads no more, and waits out the time: TCP then holds a client
        that is still sending, while it reads the answer, and the close costs no CPU.
        """
        try:
            client.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + LINGER_SECONDS
            drained = 0
            while (remaining := deadline - time.monotonic()) > 0:
                if drained >= LINGER_BYTES:
                    gevent.sleep(remaining)
                    break
                client.settimeout(remaining)
                data = client.recv(4096)
                if not data:
                    break  # the client closed: nothing can be lost any more
                drained += len(data)
        except OSError:  # a timeout, or the client already gone
            pass
        finally:
            util.close(client)
            slots.release()

    # One request.

    def handle_request(
        self, listener_name: Any, req: Any, sock: Any, addr: Any, hold: bool = False, app: Any = None
    ) -> tuple[Response, bool]:
        """Run the application for ``req`` (or ``app``, an answer of the server's own): the
        response, and whether the connection stays open."""
        started = datetime.now()
        environ: dict[str, Any] = {}
        resp = None
        try:
            self.cfg.pre_request(self, req)
            resp, environ = wsgi.create(
                req,
                sock,
                addr,
                listener_name,
                self.cfg,
                Response,
                (hold, self.limits.answer_buffer_bytes, self._spill_budget()),
            )
            environ["wsgi.multithread"] = True
            environ[PAUSE] = self.admission.turn.pause
            if app is None:
                self.nr += 1
                if self.nr >= self.max_requests and self.alive:
                    self.log.info("Autorestarting worker after current request.")
                    self.alive = False
            respiter = (app or self.wsgi)(environ, resp.start_response)
            # Decided after the application ran and before the head goes out.
            if not (self.alive and self.cfg.keepalive) or environ.get(CLOSE_CONNECTION) or self._draining():
                resp.force_close()
            try:
                for item in respiter:
                    resp.write(item)
                resp.close()
            finally:
                self.log.access(resp, req, environ, datetime.now() - started)
                if hasattr(respiter, "close"):
                    respiter.close()
            # A streamed answer may learn only as it goes that the connection must end.
            return resp, not resp.should_close() and not environ.get(CLOSE_CONNECTION)
        except Exception as error:
            if resp is not None and resp.headers_sent:
                # Part of an answer may be out: nothing sensible can follow it on this connection.
                if isinstance(error, TimeoutError) or (isinstance(error, OSError) and error.errno in GONE):
                    self.log.info("The client left, or stopped reading, during a streamed answer.")
                else:
                    self.log.exception("Error handling request")
                resp.discard()
                resp.force_close()
                return resp, False
            raise
        finally:
            try:
                self.cfg.post_request(self, req, environ, resp)
            except Exception:
                self.log.exception("Exception in post_request hook")

    def _spill_budget(self) -> SpillBudget:
        # Made on first use: the limits are set after the worker is made (post_worker_init).
        budget: SpillBudget | None = getattr(self, "_budget", None)
        if budget is None:
            budget = self._budget = SpillBudget(self.limits.answer_spill_bytes)
        return budget

    def _draining(self) -> bool:
        config = getattr(self.wsgi, "config", None)
        return bool(config and config.get(DRAINING))

    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        if not isinstance(exc, errors.ParseException) or isinstance(exc, _SERVER_SIDE):
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        self.send_final(client, parse_problem(exc, self.cfg))

    def send_final(self, client: Any, answer: bytes) -> None:
        """Send a last answer on a connection about to close, if the client still takes it."""
        try:
            client.settimeout(self.limits.body_seconds)
            client.sendall(answer)
        except OSError:
            self.log.debug("The client left before its answer was sent.")


def _unqueued(req: Any, path: str) -> bool:
    """Whether ``req`` is answered as it comes, never queued for the turn nor refused for load:
    the paths of :data:`~service.connection.UNQUEUED_PATHS`, and the CORS preflights
    (no computing; a browser that gets a refusal to its preflight shows its page a network
    error, never the operation's own ``503`` and its ``Retry-After``)."""
    return path in UNQUEUED_PATHS or req.method == "OPTIONS"
