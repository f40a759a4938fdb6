"""Slow clients: connections that trickle their request a byte at a time, half in the headers and
half in the body, while ordinary requests are measured beside them (the benchmarks and the
connection tests use the same ones, so both see the same attack)."""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

ROUNDS = 5
"""The bytes each slow client trickles, one a round."""
ROUND_SECONDS = 0.2


def _requests(body: bytes) -> tuple[tuple[bytes, bytes, bytes], tuple[bytes, bytes, bytes]]:
    """A request cut in three (sent at once, trickled, sent at the end): slow in its headers, slow in its body."""
    in_headers = (b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nX-Slow: ", b"a" * ROUNDS,
                  b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)  # fmt: skip
    in_body = (b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % (ROUNDS + len(body)), b" " * ROUNDS, body)  # fmt: skip
    return in_headers, in_body


class SlowClients:
    """``count`` connections to ``port`` asking for the legal cards of ``request``: opened and begun
    on entry, trickling from :meth:`trickle` on, finished by :meth:`finish`, closed on exit."""

    def __init__(self, port: int, request: dict[str, Any], count: int = 400) -> None:
        self.port, self.count = port, count
        self._parts = _requests(json.dumps(request).encode())
        self.sockets: list[tuple[socket.socket, tuple[bytes, bytes, bytes]]] = []
        self._stop = threading.Event()
        self._trickler = threading.Thread(target=self._trickle)

    def __enter__(self) -> SlowClients:
        try:
            for n in range(self.count):
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
                parts = self._parts[n % 2]
                sock.sendall(parts[0])
                self.sockets.append((sock, parts))
        except BaseException:
            self.__exit__()
            raise
        return self

    def trickle(self) -> None:
        """Begin trickling, a byte a round on every connection, in a thread of its own."""
        self._trickler.start()

    def _trickle(self) -> None:
        for sent in range(ROUNDS):
            if self._stop.wait(ROUND_SECONDS):
                return
            for sock, parts in self.sockets:
                sock.sendall(parts[1][sent : sent + 1])

    def finish(self) -> list[socket.socket]:
        """Wait for the trickle's end, then send every request's rest: their sockets, to read the answers."""
        self._trickler.join()
        for sock, parts in self.sockets:
            sock.sendall(parts[2])
        return [sock for sock, _ in self.sockets]

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        if self._trickler.is_alive():
            self._trickler.join()
        for sock, _ in self.sockets:
            sock.close()
