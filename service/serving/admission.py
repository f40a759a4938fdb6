"""Admission: which requests a worker takes on under load, and in what order it serves them.

A worker computes one request at a time. Left to gevent's scheduling, the order is whatever
the event loop wakes first: under a spike, the connections it already holds take every turn,
a new connection (a phone, a CI job, the kubelet's probe) waits seconds in the kernel's queue,
and every request waits however long the crowd makes it. Here instead:

- **One compute turn, first come first served** (:class:`Turn`). A request holds the turn
  while it computes and gives it up while it waits for its client (a body still arriving, an
  answer the client is slow to take): the wait costs the others nothing. A long answer (a
  batch) gives it up between two steps and queues again behind the requests that came
  meanwhile, so it gets its share and no more.
- **A bound on the work queued** (:class:`Admission`): a request is admitted only if the work
  already waiting for the turn, as measured (the requests queued times the turn's recent
  cycle), is under ``queue_seconds``. Otherwise it is refused at once: ``503`` with
  ``Retry-After`` and the code ``overloaded``, so that a balancer, an autoscaler and a client
  with backoff can do their part, and nobody waits for an answer that comes too late.
- **A deadline**: an admitted request that has waited ``deadline_seconds`` for the turn (the
  estimate was wrong: a burst of heavy requests) is refused the same way instead of served.

The probes and the metrics never queue for the turn: they are answered as they arrive.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

import gevent
from gevent.hub import Waiter, get_hub

from .limits import AdmissionLimits

LIBEV_LOOPS = frozenset({"gevent.libev.corecext", "gevent.libev.corecffi"})
"""The modules of gevent's libev loops, the only ones the turn is handed over correctly on."""


def check_loop() -> None:
    """Refuse to serve on an event loop the turn was not built for.

    The turn is handed over by a zero-delay timer (:meth:`Turn._hand_on`). On libev a timer
    started in a round fires in a later round, after that round's poll of the sockets, so the
    loop reads its sockets and takes new connections between any two computations
    (tests/test_serving_gevent_pin.py holds it). libuv runs its due timers in a loop of their
    own, where a zero-delay timer started by another may run before any poll: a worker could
    compute its whole queue without reading a socket, probes and new clients waiting behind
    it, which is what the turn exists to prevent. gevent picks its loop from ``GEVENT_LOOP``
    (libev unless told otherwise)."""
    try:
        loop = gevent.config.loop
    except ImportError as exc:
        raise RuntimeError(f"gevent's event loop cannot be loaded ({exc}); unset GEVENT_LOOP to use libev") from None
    if loop.__module__ not in LIBEV_LOOPS:
        raise RuntimeError(
            f"gevent's event loop is {loop.__module__}.{loop.__qualname__}: this server hands its compute turn "
            "over in libev's order (the sockets polled before the timers run), and serves on libev only; "
            "unset GEVENT_LOOP or set it to libev-cext"
        )


ROUND_SECONDS = 0.002
"""Longest the turn is handed on without the loop polling its sockets between two requests."""
MEAN_WEIGHT = 0.05
"""Weight of the latest in the running mean of a turn's cycle (about the last 20)."""
FIRST_MEAN = 0.001
"""The mean assumed before any request was measured."""
SHED_LOG_SECONDS = 1.0
"""At most one log line per worker this often while requests are refused."""
COUNT_EVERY = 0.1
"""Refusals are added to the metric in batches this often: counting each one in the shared
metrics file cost a tenth of a refusal."""


class Turn:
    """The worker's one compute turn, handed over in the order it was asked for.

    It is handed over by the event loop, never in the middle of its reading of the sockets: a
    greenlet woken by its client's bytes only queues, and the requests are computed in order,
    the loop reading its sockets and taking new connections at least every
    :data:`ROUND_SECONDS` of computing. Within that time the turn goes straight on to the next
    request queued (a callback of the loop's, no poll between); past it, the next hand-over
    waits for the loop's next round, after its poll. A request that has its bytes first is
    served first, whichever connection it came on, and a probe or a new client waits
    :data:`ROUND_SECONDS` of computing and a request or two at most. (One request a round, a poll of the sockets
    before each, cost the worker a twentieth of its peak when every connection is busy.)

    While requests wait for it, the time from one hold's start to the next one's goes into a
    running mean (:attr:`mean`): what one waiting request costs the others, its computation and
    the loop's round around it (the sockets read, the connections taken, refusals answered).
    The queue drains in about ``waiting × mean`` seconds, whatever takes the time.
    """

    __slots__ = (
        "_holder",
        "_loop",
        "_next",
        "_previous",
        "_queue",
        "_round",
        "_round_began",
        "_since",
        "_timer",
        "mean",
    )

    def __init__(self) -> None:
        self._holder: Any = None
        self._queue: deque[tuple[Any, Waiter]] = deque()
        self._loop = get_hub().loop
        # A zero-delay timer fires on the loop's next round, after its poll of the sockets; a
        # callback runs in the same round as the one before it (check_loop: libev's order).
        self._timer = self._loop.timer(0.0)
        self._round = -1
        """The loop's count of polls when the turn was first handed on since the last poll."""
        self._round_began = 0.0
        self._next: Waiter | None = None
        self._since = 0.0
        self._previous: float | None = None
        """When the hold before this one started, if it handed the turn straight on to this one."""
        self.mean = FIRST_MEAN
        """The running mean of the time between two holds' starts while requests wait, in seconds."""

    @property
    def waiting(self) -> int:
        """Greenlets queued for the turn (the holder aside)."""
        return len(self._queue)

    def held(self) -> bool:
        """Whether the running greenlet holds the turn."""
        return self._holder is not None and self._holder is gevent.getcurrent()

    def free(self) -> bool:
        """Whether nobody holds the turn and nobody waits for it."""
        return self._holder is None and not self._queue

    def take_now(self) -> bool:
        """Take the turn at once if nobody holds it or waits for it (the acceptor never waits)."""
        if self._holder is not None or self._queue:
            return False
        self._holder = gevent.getcurrent()
        self._started()
        return True

    def take(self) -> None:
        """Wait for the turn, behind every greenlet that asked before."""
        current = gevent.getcurrent()
        waiter = Waiter()
        self._queue.append((current, waiter))
        if self._holder is None:
            self._hand_on()
        try:
            waiter.get()
        except BaseException:
            # Killed while waiting (the worker stops): out of the queue or, handed the turn
            # already, give it on.
            if self._holder is current:
                self.give(worked=False)
            else:
                self._queue = deque(entry for entry in self._queue if entry[0] is not current)
            raise
        self._started()

    def _started(self) -> None:
        now = time.monotonic()
        if self._previous is not None:
            self.mean += MEAN_WEIGHT * (now - self._previous - self.mean)
        self._since = now

    def give(self, worked: bool = True) -> None:
        """Give the turn up: to the first waiting greenlet, if any. A hold that did no work (a
        request refused in its turn) is no measure of what the others cost."""
        self._previous = self._since if worked and self._queue else None
        if self._queue:
            self._hand_on()
        else:
            self._holder = None

    def _hand_on(self) -> None:
        greenlet, waiter = self._queue.popleft()
        self._holder = greenlet
        self._next = waiter
        polls = self._loop.iteration
        now = time.monotonic()
        if polls != self._round:  # the sockets were read since: a new round of hand-overs
            self._round, self._round_began = polls, now
        if now - self._round_began < ROUND_SECONDS:
            self._loop.run_callback(self._wake)
        else:
            self._timer.start(self._wake)

    def _wake(self) -> None:
        waiter, self._next = self._next, None
        if waiter is not None:
            waiter.switch(None)

    def pause(self) -> None:
        """Between two steps of a long answer: give the turn to whoever queued for it meanwhile,
        and queue again behind them (the loop reads its sockets meanwhile)."""
        if self.held():
            self.give()
            self.take()
        else:
            gevent.sleep(0)


class Admission:
    """A worker's turn, the bound on the work queued for it, and the count of refusals."""

    def __init__(self, limits: AdmissionLimits, refused: Callable[[str, int], None], log: Any) -> None:
        self.limits = limits
        self.turn = Turn()
        self._refused = refused
        self._log = log
        self._shed: dict[str, int] = {}
        self._shed_since = 0.0
        self._uncounted: dict[str, int] = {}

    def queued_work(self) -> float:
        """Seconds of computing waiting for the turn, as measured."""
        return self.turn.waiting * self.turn.mean

    def admits(self) -> bool:
        """Whether a request arriving now is taken on."""
        bound = self.limits.queue_seconds
        return bound <= 0 or self.turn.free() or self.queued_work() < bound

    def serve(self, arrived: float, run: Callable[[], Any]) -> bool:
        """Run ``run`` in the turn once it comes; ``False``, without running it, when the request
        waited past its deadline (counted as refused: the caller answers 503)."""
        turn = self.turn
        turn.take()
        try:
            deadline = self.limits.deadline_seconds
            if deadline > 0 and time.monotonic() - arrived > deadline:
                self.refuse("deadline")
                turn.give(worked=False)
                return False
            run()
            return True
        finally:
            if turn.held():
                turn.give()

    def refuse(self, reason: str) -> None:
        """Count a refusal (``queue_full`` or ``deadline``), and say so in the log now and then."""
        if not self._uncounted:
            gevent.spawn_later(COUNT_EVERY, self._count)
        self._uncounted[reason] = self._uncounted.get(reason, 0) + 1
        self._shed[reason] = self._shed.get(reason, 0) + 1
        now = time.monotonic()
        if now - self._shed_since >= SHED_LOG_SECONDS:
            counts = ", ".join(f"{n} {why}" for why, n in sorted(self._shed.items()))
            self._log.warning(
                "Shedding load: requests refused with 503 since the last report (%s); %.3f s of work queued "
                "(%d waiting, %.2f ms a turn).",
                counts,
                self.queued_work(),
                self.turn.waiting,
                self.turn.mean * 1000,
            )
            self._shed.clear()
            self._shed_since = now

    def _count(self) -> None:
        counts, self._uncounted = self._uncounted, {}
        for reason, n in counts.items():
            self._refused(reason, n)


class TurnedSocket:
    """A connection's socket as its request sees it in the turn: a read or a write that would
    wait for the client gives the turn up for the wait, and queues for it again after."""

    __slots__ = ("_sock", "_turn")

    def __init__(self, sock: Any, turn: Turn) -> None:
        self._sock = sock
        self._turn = turn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def recv(self, *args: Any) -> bytes:
        sock, turn = self._sock, self._turn
        if not turn.held():
            data: bytes = sock.recv(*args)
            return data
        timeout = sock.gettimeout()
        sock.settimeout(0.0)
        try:
            data = sock.recv(*args)
            return data
        except BlockingIOError:
            pass
        finally:
            sock.settimeout(timeout)
        turn.give()
        try:
            data = sock.recv(*args)
            return data
        finally:
            turn.take()

    def sendall(self, data: bytes | memoryview) -> None:
        sock, turn = self._sock, self._turn
        if not turn.held():
            sock.sendall(data)
            return
        try:
            sent = sock.send(data, 0, 0.0)  # gevent's timeout: none, whatever the socket's
        except BlockingIOError:
            sent = 0
        if sent == len(data):
            return
        turn.give()
        try:
            sock.sendall(memoryview(data)[sent:])
        finally:
            turn.take()
