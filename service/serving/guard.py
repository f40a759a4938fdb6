"""A connection's guard: its slot and socket released once, however its service ends.

Apart from the worker (:mod:`.worker`), which makes one per connection it serves.
"""

from __future__ import annotations

import errno
import socket
from typing import Any

import gevent
from gunicorn import util
from gunicorn.http import RequestParser, errors

from .problems import HEADER_TIMEOUT_ANSWER

GONE = (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, errno.EBADF)
"""Socket errors that only mean the client went away."""


class HeaderTimeoutError(Exception):
    """A request's headers did not arrive in time."""


class ConnectionGuard:
    """A connection's slot and socket, released once, whatever ends its service.

    Every way a connection can end goes through here: the client leaving, a deadline, a
    request gunicorn cannot parse (a problem answer), an unexpected error (logged). A guard
    can hand the connection over to a new greenlet instead, which then owns the slot.
    """

    def __init__(self, worker: Any, client: Any, req: Any, addr: Any, slots: Any, inline: bool) -> None:
        self.worker, self.client, self.req, self.addr = worker, client, req, addr
        self.slots = slots
        """The bound this connection's slot was taken from (the service's, or the probe port's)."""
        self.inline = inline
        self.handed_over = False

    def __enter__(self) -> ConnectionGuard:
        return self

    def hand_over(
        self, serve: Any, name: Any, parser: RequestParser, req: Any, unsent: bytes, keep: bool, *more: Any
    ) -> None:
        worker = self.worker
        greenlet = gevent.spawn(serve, self.slots, name, self.client, self.addr, parser, req, unsent, keep, *more)
        worker._connections.add(greenlet)
        greenlet.link(worker._connections.discard)
        self.handed_over = True

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        worker, client = self.worker, self.client
        try:
            if exc is None or isinstance(exc, (StopIteration, errors.NoMoreData)):
                pass  # done, or the client closed, or HTTP says this was the last request
            elif isinstance(exc, HeaderTimeoutError):
                worker.send_final(client, HEADER_TIMEOUT_ANSWER)
            elif isinstance(exc, TimeoutError):
                worker.log.debug("Closing a connection that stalled.")
            elif isinstance(exc, OSError):
                if exc.errno not in GONE:
                    worker.log.exception("Socket error serving a connection.")
            elif isinstance(exc, Exception):
                worker.handle_error(self.req, client, self.addr, exc)
            else:
                return False  # GreenletExit and the like: let them through
            return True
        finally:
            if not self.handed_over:
                if not self.inline:
                    worker._close(self.slots, None, client)
                elif has_unread(client):
                    # Lingering would hold up the acceptor: a greenlet of its own does it.
                    self.hand_over(worker._close, None, None, None, b"", False)
                else:
                    util.close(client)  # nothing unread: the close cannot reset the connection
                    self.slots.release()


def has_unread(client: Any) -> bool:
    """Whether bytes the service did not read wait on the connection (closing now would reset it)."""
    try:
        return bool(client.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:
        return False
