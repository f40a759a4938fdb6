"""The gevent the service's worker was built on, checked against the gevent installed.

The worker's admission (service/serving/admission.py) hands its compute turn over with a
zero-delay timer of gevent's loop and relies on libev's order within a loop round: the
sockets are polled before the timers due run. That order is libev's, not a documented promise
of gevent's; libuv, gevent's other loop, runs timers first. gevent is pinned in
requirements/*.lock; when the pin moves, this file fails first and names what to re-read.
"""

from __future__ import annotations

import inspect

import gevent
import gevent.hub
import gevent.lock
import pytest
from gevent import socket as gsocket

from service.serving.admission import LIBEV_LOOPS, check_loop
from tests.pins import assert_pinned
from tests.serving import Gunicorn

CHECKED_AGAINST = "26.9.0"
"""The gevent release the worker's use of it was read in."""

# (owner, name, parameters it takes in that release): what the worker and its admission call.
CALLED = [
    (gevent, "spawn", []),
    (gevent, "spawn_later", ["seconds"]),
    (gevent, "sleep", ["seconds", "ref"]),
    (gevent, "killall", ["greenlets", "exception", "block", "timeout"]),
    (gevent, "getcurrent", []),
    (gevent.Greenlet, "link", ["self", "callback"]),
    (gevent.hub.Waiter, "get", ["self"]),
    (gevent.hub.Waiter, "switch", ["self", "value"]),
    (gevent.hub, "get_hub", []),
    (gevent.lock.BoundedSemaphore, "acquire", ["self", "blocking", "timeout"]),
    (gevent.lock.BoundedSemaphore, "release", ["self"]),
]


def test_gevent_is_the_release_the_worker_was_checked_against() -> None:
    reread = f"what {__name__} lists (and the loop's order of a round)"
    assert_pinned("gevent", CHECKED_AGAINST, gevent.__version__, reread)


@pytest.mark.parametrize(("owner", "name", "parameters"), CALLED, ids=lambda v: getattr(v, "__name__", str(v)))
def test_the_gevent_functions_the_worker_calls_are_there(owner: object, name: str, parameters: list[str]) -> None:
    function = getattr(owner, name, None)
    assert function is not None, f"gevent's {name} is gone: the serving worker calls it"
    try:
        found = [p for p in inspect.signature(function).parameters if p not in ("args", "kwargs")]
    except ValueError:  # compiled without a signature (greenlet's getcurrent): only one called bare
        assert callable(function) and parameters == [], f"{name} has no signature to check {parameters} against"
        return
    assert found[: len(parameters)] == parameters, f"{name} takes {found} now"


def test_the_loop_is_libev_and_has_the_timer_the_turn_is_handed_over_by() -> None:
    loop = gevent.hub.get_hub().loop
    assert type(loop).__module__ in LIBEV_LOOPS
    timer = loop.timer(0.0)
    assert callable(timer.start) and callable(timer.stop)
    # The straight hand-over within a round, and the count of polls that says a round has passed.
    assert callable(loop.run_callback) and isinstance(loop.iteration, int)
    before = loop.iteration
    gevent.sleep(0.001)
    assert loop.iteration > before
    check_loop()  # passes on the loop gevent picks by default


def test_a_hand_over_started_by_a_hand_over_runs_after_the_loop_polled_the_sockets() -> None:
    # The order the turn depends on: a zero-delay timer started in a round fires in a later
    # round, after that round's poll; so bytes already in when the turn is handed over are read
    # before it is handed over again (a probe, a new client wait one request at most).
    order: list[str] = []
    loop = gevent.hub.get_hub().loop
    first, second = loop.timer(0.0), loop.timer(0.0)
    ours, theirs = gsocket.socketpair()

    def hand_over() -> None:
        order.append("first hand-over")
        second.start(lambda: order.append("second hand-over"))

    try:
        reader = gevent.spawn(lambda: order.append("socket read" if ours.recv(1) else "closed"))
        gevent.sleep(0)  # the reader waits on its socket
        theirs.send(b"x")
        first.start(hand_over)
        reader.join(timeout=1)
        gevent.sleep(0.01)
    finally:
        ours.close()
        theirs.close()
    assert order == ["first hand-over", "socket read", "second hand-over"]


def test_a_server_on_another_loop_refuses_to_start() -> None:
    # A loop of gevent's that is not libev: the worker fails to boot, and gunicorn says why.
    server = Gunicorn({"WEB_CONCURRENCY": "1", "GEVENT_LOOP": "tests.foreign_loop.loop"})
    with pytest.raises(RuntimeError, match="gunicorn exited at start") as refused:
        server.__enter__()
    assert "serves on libev only" in str(refused.value)
