"""The deadlines and bounds of a connection, set from ``gunicorn.conf.py``.

Plain values: gunicorn's settings file imports this without loading gevent or gunicorn.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a connection may take over each part of a request, in seconds."""

    header_seconds: float = 5.0
    """From a request's first byte to the end of its headers; also how long a new connection
    may stay silent."""
    body_seconds: float = 10.0
    """Longest wait for the next bytes of a body, and for the client to take more of an answer."""
    drain_bytes: int = 64 * 1024
    """Most of an unread request body discarded to keep the connection for the next request."""
    answer_buffer_bytes: int = 4 * 1024 * 1024
    """Most of a streamed answer kept in memory for a client that is not reading it yet (see
    :class:`Response`)..."""
    answer_spill_bytes: int = 256 * 1024 * 1024
    """...and then in temporary files: at most this much for all the answers of a worker."""


@dataclass(frozen=True)
class AdmissionLimits:
    """How much work a worker queues, and how long a request may wait for its turn."""

    queue_seconds: float = 0.75
    """Most work, in seconds of computing, waiting for the turn; past it, new requests are
    refused. 0: no bound (every request waits its turn, as long as it takes)."""
    deadline_seconds: float = 1.0
    """Longest wait for the turn; a request that waited longer is refused when it comes."""
    retry_after_seconds: int = 1
    """What the refusal's ``Retry-After`` asks clients to wait."""


class SpillBudget:
    """The bytes of unsent answers a worker process may keep on disk, shared by its answers.

    Bounded per process, not per answer, so that the disk a pod needs (its ``/tmp``) is
    known: workers × this bound, whatever the number of clients.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self, size: int) -> bool:
        if self.used + size > self.limit:
            return False
        self.used += size
        return True

    def give(self, size: int) -> None:
        self.used -= size
