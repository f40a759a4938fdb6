"""The worker's HTTP response: the head sent with the first body bytes, a streamed answer
sent as far as the client takes it without waiting."""

from __future__ import annotations

import tempfile
import time
from functools import lru_cache
from typing import IO, Any

from gunicorn import util
from gunicorn.http import wsgi

from .limits import SpillBudget

_SPILL_READ = 1024 * 1024
_SEND_SLICE = 64 * 1024


class Response(wsgi.Response):  # type: ignore[misc]
    """gunicorn's response, sending the head with the first body bytes, or holding it all.

    Holding (``hold=True``): nothing is written; the caller takes the bytes with
    :meth:`take` and sends them without waiting. Otherwise each write goes out at once, the
    status line and headers with the first one: an answer of this service is one small JSON
    document, and one write instead of two saves a system call per request.

    A streamed answer (chunked: a batch) is sent as far as the client takes it without
    waiting; the rest is kept, in memory up to ``buffer_bytes``, then in a temporary file up
    to what the worker's :class:`SpillBudget` allows, and sent as the client takes it. Many
    HTTP clients send a whole request body before they read any of the answer: were every
    write to wait for them, a batch would stop as soon as the socket buffers filled, and so
    would the client, each waiting for the other until a deadline. Past the budget (or when
    the disk refuses) a write does wait.
    """

    headers_sent: bool

    def __init__(
        self,
        req: Any,
        sock: Any,
        cfg: Any,
        hold: bool = False,
        buffer_bytes: int = 0,
        spill_budget: SpillBudget | None = None,
    ) -> None:
        super().__init__(req, sock, cfg)
        self._out: list[bytes] | None = [] if hold else None
        self._head = b""
        # A streamed answer's bytes not yet sent, oldest first: those in memory, then those
        # in the spill file (from ``_spilled_from`` to its end).
        self._pending = bytearray()
        self._buffer_bytes = buffer_bytes
        self._budget = spill_budget
        self._spill: IO[bytes] | None = None
        self._spilled_from = 0
        self._spill_held = 0
        """Bytes in the spill file not yet sent: taken from the budget, given back as they go."""

    def default_headers(self) -> list[str]:
        """gunicorn's first lines of an answer, the ``Date`` line made once a second, not once an
        answer (formatting it cost a fiftieth of a request at the worker's peak)."""
        if self.upgrade:
            connection = "upgrade"
        elif self.should_close():
            connection = "close"
        else:
            connection = "keep-alive"
        major, minor = self.req.version
        lines = [
            f"HTTP/{major}.{minor} {self.status}\r\n",
            f"Server: {self.version}\r\n",
            _date_line(int(time.time())),
            f"Connection: {connection}\r\n",
        ]
        if self.chunked:
            lines.append("Transfer-Encoding: chunked\r\n")
        return lines

    def send_headers(self) -> None:
        if self.headers_sent:
            return
        lines = self.default_headers()
        lines.extend([f"{name}: {value}\r\n" for name, value in self.headers])
        self._head = ("".join(lines) + "\r\n").encode("latin-1")
        self.headers_sent = True

    def _emit_body(self, data: bytes) -> None:
        if self.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        self._put(data)

    def close(self) -> None:
        self.send_headers()
        self._put(b"0\r\n\r\n" if self.chunked else b"")
        try:
            self._send_all()
        finally:
            self.discard()

    def _put(self, data: bytes) -> None:
        if self._head:
            data, self._head = self._head + data, b""
        if not data:
            return
        if self._out is not None:
            self._out.append(data)
        elif not self.chunked:
            self.sock.sendall(data)
        else:
            self._stream(data)

    def _stream(self, data: bytes) -> None:
        if not self._spill_held and len(self._pending) + len(data) <= self._buffer_bytes:
            self._pending += data
        elif not self._spill_to_disk(data):
            # Past the budget: wait for the client to take what is kept.
            self._send_all()
            self._pending += data
        self._send_ready()

    def _send_all(self) -> None:
        """Send everything kept, waiting for the client to take it (each wait bounded by the body deadline)."""
        while self._refill():
            self._send_waiting()

    def _spill_to_disk(self, data: bytes) -> bool:
        budget = self._budget
        if budget is None or not budget.take(len(data)):
            return False
        try:
            if self._spill is None:
                # Closed by close() or discard(), whichever ends the answer.
                self._spill = tempfile.TemporaryFile(prefix="tarot-answer-")  # noqa: SIM115
            end = self._spill.tell()
            try:
                self._spill.write(data)
            except OSError:
                self._spill.truncate(end)  # a write cut short (a full disk) leaves nothing behind
                self._spill.seek(end)
                raise
        except OSError:
            budget.give(len(data))
            return False
        self._spill_held += len(data)
        return True

    def discard(self) -> None:
        """Drop what is still kept of the answer (the client left, or all is sent)."""
        self._pending.clear()
        if self._budget is not None and self._spill_held:
            self._budget.give(self._spill_held)
            self._spill_held = 0
        if self._spill is not None:
            self._spill.close()
            self._spill = None

    def _refill(self) -> bool:
        """Move the oldest spilled bytes to memory when it is empty; whether any are left to send."""
        spill = self._spill
        if not self._pending and spill is not None:
            end = spill.tell()
            if end > self._spilled_from:
                spill.seek(self._spilled_from)
                self._pending += spill.read(min(end - self._spilled_from, _SPILL_READ))
                self._spilled_from += len(self._pending)
                self._spill_held -= len(self._pending)
                if self._budget is not None:
                    self._budget.give(len(self._pending))
                if self._spilled_from == end:
                    spill.seek(0)
                    spill.truncate()
                    self._spilled_from = 0
                else:
                    spill.seek(end)
        return bool(self._pending)

    def _send_waiting(self) -> None:
        """Send what is in memory, waiting for the client as long as it keeps taking bytes.

        In slices: the socket's timeout bounds each wait, so a client reading slowly but
        steadily is served, and one that stops reading for the body deadline is not.
        """
        view = memoryview(self._pending)
        try:
            for start in range(0, len(view), _SEND_SLICE):
                self.sock.sendall(view[start : start + _SEND_SLICE])
        finally:
            view.release()
        self._pending.clear()

    def _send_ready(self) -> None:
        """Send what the client takes now, without waiting."""
        while self._refill():
            try:
                sent = self.sock.send(self._pending, 0, timeout=0.0)
            except BlockingIOError:
                return
            del self._pending[:sent]
            if self._pending:
                return  # the socket took part: it is full

    def take(self) -> bytes:
        """What a holding response has kept back."""
        out, self._out = b"".join(self._out or ()), []
        return out


@lru_cache(maxsize=2)
def _date_line(second: int) -> str:
    return f"Date: {util.http_date(second)}\r\n"
