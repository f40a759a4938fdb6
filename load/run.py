"""Load and fault runs: gunicorn with the production config on loopback, driven by wrk.

    python load/run.py [--seconds N] [--connections C]

1. Each operation alone for N seconds: requests/s, latency p50/p99, non-2xx, socket errors.
2. Slow clients held open during a legal-cards run: 200 whose headers trickle in (ended
   by the header deadline), 200 whose body trickles in (held, then finished), 500 idle
   kept-alive connections (closed after the keep-alive time).
3. SIGKILL of one worker mid-load: the master must replace it, and the failed requests be at
   most the ones in flight in that worker.
4. SIGHUP (configuration reload, new workers) mid-load: no failed request.

Prints a table, writes reports/load/results.json, and exits non-zero if a fault run breaks
its promise. Traffic goes to 127.0.0.1 only, and every run is bounded in time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports" / "load"
OPERATIONS = {
    "legal_cards": "/v1/tricks/legal-cards",
    "winner": "/v1/tricks/winner",
    "score": "/v1/deals/score",
    "evaluate": "/v1/deals/evaluate (4 players, complete)",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """gunicorn with gunicorn.conf.py serving ``app`` on 127.0.0.1:``port``; output to ``log``."""

    def __init__(
        self,
        port: int,
        app: str = "service.wsgi:app",
        log: Path = REPORTS / "server.log",
        options: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        root: Path = ROOT,
    ) -> None:
        """``root``: the checkout to serve (another version of the service, for a comparison)."""
        self.port = port
        environ = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "DRAIN_SECONDS": "0", **(env or {})}
        if root != ROOT:
            environ["PYTHONPATH"] = str(root)
        gunicorn = Path(sys.executable).parent / "gunicorn"
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            [str(gunicorn), "-c", "gunicorn.conf.py", *options, app],
            cwd=root,
            env=environ,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def workers(self) -> set[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True, check=False)
        return {int(p) for p in out.stdout.split()}

    def wait_for_workers(self, count: int, timeout: float = 15) -> set[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = self.workers()
            if len(pids) == count:
                return pids
            time.sleep(0.1)
        return self.workers()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)
        self.log.close()


def wrk(port: int, script: str, seconds: int, connections: int, keepalive: bool = False) -> dict[str, Any]:
    """wrk against 127.0.0.1:``port``; ``keepalive``: reuse connections instead of one per request."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", f"load/{script}.lua",
         f"http://127.0.0.1:{port}"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=seconds + 30,
        env={**os.environ, "WRK_KEEPALIVE": "1" if keepalive else "0"},
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["failed"] = sum(result[k] for k in ("non_2xx", "connect_errors", "read_errors", "write_errors", "timeouts"))
    return result


class SlowClients:
    """``count`` connections that behave as slow or idle clients while other traffic runs.

    ``kind``: ``headers`` (a request whose headers trickle in, a byte a second), ``body``
    (headers whole, the body trickling in, a byte a second, finished when the run ends), or
    ``idle`` (one request answered, then the connection kept and left idle). A thread watches
    every connection and notes when the server answers it or closes it.
    """

    def __init__(self, port: int, count: int, kind: str) -> None:
        body = json.dumps({"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]}).encode()
        self.kind, self.pad = kind, 60
        head = b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        if kind == "headers":
            first = b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nX-Slow: "
        elif kind == "body":
            first = head + b"Content-Length: %d\r\n\r\n" % (self.pad + len(body))
        else:
            first = head + b"Content-Length: %d\r\n\r\n" % len(body) + body
        self.rest, self.sent = body, 0
        self.started = time.monotonic()
        self.socks = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(first)
            self.socks.append(sock)
        if kind == "idle":  # each has its answer: from now on the connection is idle
            for sock in self.socks:
                sock.recv(65536)
            self.started = time.monotonic()
        self.events: dict[socket.socket, tuple[float, str]] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch)
        self.thread.start()

    def _watch(self) -> None:
        selector = selectors.DefaultSelector()
        for sock in self.socks:
            selector.register(sock, selectors.EVENT_READ)
        next_byte = time.monotonic() + 1
        while not self.done.is_set():
            for key, _ in selector.select(timeout=0.1):
                conn = key.fileobj
                assert isinstance(conn, socket.socket)
                try:
                    data = conn.recv(65536)
                except OSError:
                    data = b""
                status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
                self.events[conn] = (time.monotonic() - self.started, status)
                selector.unregister(conn)
            if self.kind != "idle" and time.monotonic() >= next_byte and self.sent < self.pad:
                byte = b"a" if self.kind == "headers" else b" "
                for sock in self.socks:
                    if sock not in self.events:
                        with contextlib.suppress(OSError):
                            sock.send(byte)
                self.sent += 1
                next_byte += 1
        selector.close()

    def stop(self) -> dict[str, Any]:
        """Stop trickling; the slow bodies are finished and their answers read. The figures."""
        self.done.set()
        self.thread.join()
        held = [s for s in self.socks if s not in self.events]
        answered: Counter[str] = Counter(status for _, status in self.events.values())
        if self.kind == "body":
            for sock in held:
                sock.sendall(b" " * (self.pad - self.sent) + self.rest)
            for sock in held:
                sock.settimeout(15)
                data = sock.recv(65536)
                answered["finished " + (data.split(b" ", 2)[1].decode() if data else "closed")] += 1
        for sock in self.socks:
            sock.close()
        times = sorted(t for t, _ in self.events.values())
        return {
            "kind": self.kind,
            "connections": len(self.socks),
            "held_to_the_end": len(held),
            "outcomes": dict(answered),
            "ended_after_s": [round(times[0], 1), round(times[-1], 1)] if times else None,
        }


def during(seconds: float, action: Any) -> threading.Thread:
    t = threading.Timer(seconds, action)
    t.start()
    return t


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    REPORTS.mkdir(parents=True, exist_ok=True)
    server = Server(free_port())
    workers = len(server.workers())
    results: dict[str, Any] = {"cpus": os.cpu_count(), "workers": workers, "seconds": args.seconds,
                               "connections": args.connections, "operations": {}}  # fmt: skip
    ok = True
    try:
        for script in OPERATIONS:
            results["operations"][script] = wrk(server.port, script, args.seconds, args.connections)

        # SIGKILL one worker halfway through.
        before = server.workers()
        victim = min(before)
        timer = during(args.seconds / 2, lambda: os.kill(victim, signal.SIGKILL))
        kill = wrk(server.port, "evaluate", args.seconds, args.connections)
        timer.join()
        after = server.wait_for_workers(workers)
        kill["replaced"] = victim not in after and len(after) == workers
        # At most the requests the killed worker had in hand: one per connection it held,
        # and wrk has ``connections`` of them.
        kill["ok"] = kill["replaced"] and kill["failed"] <= args.connections
        results["sigkill_worker"] = kill

        # Slow and idle clients held open while ordinary traffic runs.
        results["slow_clients"] = {}
        for kind, count in (("headers", 200), ("body", 200), ("idle", 500)):
            slow = SlowClients(server.port, count, kind)
            run = wrk(server.port, "legal_cards", args.seconds, args.connections)
            run["slow"] = slow.stop()
            results["slow_clients"][kind] = run
            time.sleep(0.5)

        # SIGHUP: new workers take over, the old finish what they hold.
        before = server.workers()
        timer = during(args.seconds / 2, lambda: os.kill(server.proc.pid, signal.SIGHUP))
        hup = wrk(server.port, "evaluate", args.seconds, args.connections)
        timer.join()
        after = server.wait_for_workers(workers)
        hup["workers_renewed"] = not (before & after) and len(after) == workers
        hup["ok"] = hup["workers_renewed"] and hup["failed"] == 0
        results["sighup_reload"] = hup
        ok = kill["ok"] and hup["ok"]
    finally:
        server.stop()

    (REPORTS / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\n{results['cpus']} CPUs, {workers} gunicorn workers (gunicorn.conf.py), wrk -t2 -c{args.connections}, "
          f"{args.seconds} s per run, Connection: close\n")  # fmt: skip
    print("| run | requests/s | p50 ms | p99 ms | non-2xx | socket errors |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [(OPERATIONS[k], v) for k, v in results["operations"].items()]
    rows += [(f"legal cards + {r['slow']['connections']} slow clients ({kind})", r)
             for kind, r in results["slow_clients"].items()]  # fmt: skip
    rows += [("evaluate + SIGKILL of a worker", results["sigkill_worker"])]
    rows += [("evaluate + SIGHUP reload", results["sighup_reload"])]
    for name, r in rows:
        sockets = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
        print(f"| {name} | {r['rps']:.0f} | {r['p50_us'] / 1000:.2f} | {r['p99_us'] / 1000:.2f} | "
              f"{r['non_2xx']} | {sockets} |")  # fmt: skip
    print("\n| slow clients | connections | held to the end | outcomes | ended after (s) |")
    print("|---|---:|---:|---|---|")
    for kind, r in results["slow_clients"].items():
        slow = r["slow"]
        outcomes = ", ".join(f"{k}: {v}" for k, v in sorted(slow["outcomes"].items())) or "—"
        ended = "—" if slow["ended_after_s"] is None else "–".join(map(str, slow["ended_after_s"]))
        print(f"| {kind} | {slow['connections']} | {slow['held_to_the_end']} | {outcomes} | {ended} |")
    k, h = results["sigkill_worker"], results["sighup_reload"]
    print(f"\nSIGKILL: worker replaced: {k['replaced']}; failed requests {k['failed']} "
          f"(allowed: those in flight, ≤ {args.connections})")  # fmt: skip
    print(f"SIGHUP: workers renewed: {h['workers_renewed']}; failed requests {h['failed']} (allowed: 0)")
    print(f"results: {REPORTS / 'results.json'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
