"""The service's worker beside gunicorn's stock gevent worker, in one run.

    python bench/serving.py [--seconds N] [--rounds R] [--json PATH]

Three servers, each with gunicorn.conf.py and 2 workers: the service on its own worker
(``service.serving.worker.ServiceWorker``), the same service on gunicorn's stock
``GeventWorker`` (``-k gevent``: the same settings, hooks and logger otherwise), and the
bare-Flask baseline on the stock sync worker (``bench/baseline.py``, as in
``bench/endtoend.py``). Four parts:

1. **Cost per request.** wrk ``-t2 -c8`` on legal cards and on evaluate (a complete 4-player
   deal), as a client that opens a connection per request and as one that keeps its
   connections. The figure is the servers' CPU time per request (user + system, summed
   over the master and its workers, from ``/proc``), which moves little when other tenants
   take the machine; requests/s is reported beside it. One short warm-up run per server
   and case, then ``rounds`` rounds, the servers' order rotating every round. Medians, and
   the spread (lowest–highest) over the rounds.
2. **400 slow clients** (the scenario of ``tests/test_serving_connections.py``): 200
   connections trickle their headers and 200 their body while 80 ordinary requests go
   through 4 threads; then every slow client finishes its request. Statuses, the slowest
   ordinary request, and how many slow clients got their answer.
3. **A batch and an ordinary request on one worker**: a 4 000-deal NDJSON batch streams
   while legal-cards requests are sent one after the other; the slowest of them.
4. **The cases the service's worker exists for**, with 1 s deadlines: headers that stall,
   a body that stalls, a request gunicorn cannot parse, an unknown transfer coding, a
   413 whose body is left unread, a kept-alive connection while the instance drains, and a
   12 000-deal batch from a client that sends all of it before reading any answer.

Traffic goes to 127.0.0.1 only; every run is bounded in requests and time (under 3 min
with the defaults).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load.run import Server, free_port, wrk  # noqa: E402
from load.slow import SlowClients  # noqa: E402

REPORTS = ROOT / "reports" / "bench"
BODIES = ROOT / "load" / "bodies"
OPERATIONS = {"legal_cards": "/v1/tricks/legal-cards", "evaluate": "/v1/deals/evaluate"}
CLIENTS = {False: "a connection per request", True: "kept-alive connections"}
# (name, gunicorn options, application)
SERVERS = (
    ("service worker", (), "service.wsgi:app"),
    ("stock gevent", ("-k", "gevent"), "service.wsgi:app"),
    ("bare Flask, sync", ("-k", "sync"), "bench.baseline:app"),
)
WORKERS = ("service worker", "stock gevent")
TICK = os.sysconf("SC_CLK_TCK")
LEGAL = json.loads((BODIES / "legal_cards.json").read_text())
DEAL = json.loads((BODIES / "evaluate_4p.json").read_text())
ANSWER_LINE = b'{"index":'
"""How each line of a batch's answer begins."""


def cpu_seconds(server: Server) -> float:
    """User + system time of the server's master and its live workers."""
    total = 0
    for pid in {server.proc.pid, *server.workers()}:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / TICK


def start(name: str, options: tuple[str, ...], app: str, env: dict[str, str] | None = None) -> Server:
    log = REPORTS / f"serving-{name.split(maxsplit=1)[0].lower()}.log"
    return Server(free_port(), app, log, options=options, env={"WEB_CONCURRENCY": "2", **(env or {})})


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


# 1. Cost per request.


def cost_per_request(seconds: int, rounds: int, connections: int) -> list[dict[str, Any]]:
    servers = {name: start(name, options, app) for name, options, app in SERVERS}
    runs: dict[tuple[str, bool, str], list[tuple[float, float, float]]] = {}
    try:
        cases = [(op, keep) for op in OPERATIONS for keep in CLIENTS]
        for op, keep in cases:
            for server in servers.values():
                wrk(server.port, op, 1, connections, keep)  # warm-up
        names = list(servers)
        for round_ in range(rounds):
            order = names[round_ % len(names) :] + names[: round_ % len(names)]
            for op, keep in cases:
                for name in order:
                    server = servers[name]
                    before = cpu_seconds(server)
                    result = wrk(server.port, op, seconds, connections, keep)
                    used = cpu_seconds(server) - before
                    if result["failed"]:
                        raise SystemExit(f"{name}: {result['failed']} failed requests on {op}")
                    cpu_us = used * 1e6 / result["requests"]
                    runs.setdefault((op, keep, name), []).append((cpu_us, result["rps"], result["p99_us"] / 1000))
    finally:
        for server in servers.values():
            server.stop()
    rows = []
    for op, keep in cases:
        for name in names:
            measured = runs[op, keep, name]
            baseline = runs[op, keep, "bare Flask, sync"]
            rows.append(
                {
                    "operation": op,
                    "keepalive": keep,
                    "server": name,
                    "rounds": [{"cpu_us": c, "rps": r, "p99_ms": p} for c, r, p in measured],
                    "cpu_us": spread([cpu for cpu, _, _ in measured]),
                    "rps": spread([rps for _, rps, _ in measured]),
                    "p99_ms": spread([p99 for _, _, p99 in measured]),
                    # Per round, the baseline's CPU per request over this server's: above 1, cheaper.
                    "vs_flask_cpu": spread([b[0] / m[0] for m, b in zip(measured, baseline, strict=True)]),
                    "vs_flask_rps": spread([m[1] / b[1] for m, b in zip(measured, baseline, strict=True)]),
                }
            )
        ours, stock = runs[op, keep, WORKERS[0]], runs[op, keep, WORKERS[1]]
        # The decision's figure: per round, the stock worker's CPU per request over ours.
        rows.append(
            {
                "operation": op,
                "keepalive": keep,
                "server": "stock ÷ service worker",
                "cpu_ratio": spread([s[0] / o[0] for o, s in zip(ours, stock, strict=True)]),
                "p99_ratio": spread([s[2] / o[2] for o, s in zip(ours, stock, strict=True)]),
            }
        )
    return rows


# 2. 400 slow clients.


def post(base: str, path: str, body: object, timeout: float = 10) -> int:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def timed_post(base: str, path: str, body: object) -> tuple[int | str, float]:
    started = time.monotonic()
    try:
        status: int | str = post(base, path, body)
    except OSError as exc:
        status = type(exc).__name__
    return status, time.monotonic() - started


def status_of(sock: socket.socket, timeout: float) -> str:
    """The status of the next answer on ``sock``, or what happened instead, within ``timeout``."""
    sock.settimeout(timeout)
    try:
        data = sock.recv(65536)
    except TimeoutError:
        return "no answer"
    except ConnectionResetError:
        return "reset"
    if not data:
        return "closed, no answer"
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    kind = next((line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.startswith("content-type:")), "")
    return f"{data.split(b' ', 2)[1].decode()} {kind}".strip()


def slow_clients(name: str, options: tuple[str, ...], app: str) -> dict[str, Any]:
    server = start(name, options, app, {"HEADER_TIMEOUT_SECONDS": "60", "BODY_TIMEOUT_SECONDS": "60"})
    base = f"http://127.0.0.1:{server.port}"
    try:
        with SlowClients(server.port, LEGAL) as slow:
            slow.trickle()
            jobs = [("/v1/tricks/legal-cards", LEGAL)] * 60 + [("/v1/deals/evaluate", DEAL)] * 20
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda job: timed_post(base, *job), jobs))
            finished = [status_of(sock, 10) for sock in slow.finish()]
    finally:
        server.stop()
    times = sorted(seconds for _, seconds in answers)
    return {
        "server": name,
        "ordinary_statuses": sorted({str(status) for status, _ in answers}),
        "ordinary_p50_ms": times[len(times) // 2] * 1000,
        "ordinary_slowest_ms": times[-1] * 1000,
        "slow_answered_200": sum(status.startswith("200") for status in finished),
    }


# 3. A batch and ordinary requests on one worker.


def batch_beside_requests(name: str, options: tuple[str, ...], app: str, deals: int = 4000) -> dict[str, Any]:
    line = json.dumps(DEAL).encode()
    body = b"".join(b'{"id": "d%d", ' % i + line[1:] + b"\n" for i in range(deals))
    server = start(name, options, app, {"WEB_CONCURRENCY": "1"})
    base = f"http://127.0.0.1:{server.port}"
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    try:
        head = (
            f"POST /v1/deals/evaluate-batch HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-ndjson\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        sender = threading.Thread(target=sock.sendall, args=(head + body,), daemon=True)
        received = bytearray()

        def receive() -> None:
            while chunk := sock.recv(1 << 16):
                received.extend(chunk)

        reader = threading.Thread(target=receive)
        started = time.monotonic()
        sender.start()
        reader.start()
        time.sleep(0.05)
        latencies: list[float] = []
        while reader.is_alive() and len(latencies) < 200:
            status, seconds = timed_post(base, "/v1/tricks/legal-cards", LEGAL)
            latencies.append(seconds)
            if status != 200:
                raise SystemExit(f"{name}: legal cards answered {status} during a batch")
        reader.join(60)
        batch_seconds = time.monotonic() - started
    finally:
        sock.close()
        server.stop()
    answered = received.count(ANSWER_LINE)
    return {
        "server": name,
        "batch_deals_answered": answered,
        "batch_seconds": batch_seconds,
        "requests_during_batch": len(latencies),
        "slowest_request_ms": max(latencies) * 1000 if latencies else None,
    }


def batch_sent_whole(name: str, options: tuple[str, ...], app: str, deals: int = 12_000) -> str:
    """A client that sends its whole batch before it reads (urllib): its answers, or how it ended."""
    line = json.dumps(DEAL).encode()
    body = b"".join(b'{"id": "d%d", ' % i + line[1:] + b"\n" for i in range(deals))
    server = start(name, options, app, {"WEB_CONCURRENCY": "1", "GUNICORN_GRACEFUL_TIMEOUT": "2"})
    req = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/v1/deals/evaluate-batch",
        data=body,
        headers={"Content-Type": "application/x-ndjson"},
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            outcome = f"{answer.read().count(ANSWER_LINE)} answers"
    except OSError as exc:
        outcome = f"{type(getattr(exc, 'reason', exc)).__name__}"
    finally:
        server.stop()
    return f"{outcome} after {time.monotonic() - started:.1f} s"


# 4. The cases the service's worker exists for.


def exchange(port: int, data: bytes, wait: float) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        started = time.monotonic()
        outcome = status_of(sock, wait)
        return f"{outcome} after {time.monotonic() - started:.1f} s" if outcome != "no answer" else outcome


def request_bytes(body: object, extra: str = "") -> bytes:
    payload = json.dumps(body).encode()
    return (
        b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n%s\r\n" % (len(payload), extra.encode())
    ) + payload


def draining(port: int, server: Server) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request_bytes(LEGAL))
        first = sock.recv(65536)
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        sock.sendall(request_bytes(LEGAL))
        second = sock.recv(65536)
    close = b"Connection: close" in second
    return f"{'closes' if close else 'keeps'} the connection" if first and second else "no answer"


CASES: dict[str, Callable[[int], str]] = {
    "headers that stall (1 s deadline)": lambda port: exchange(
        port, b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\n", 4
    ),
    "a body that stalls (1 s deadline)": lambda port: exchange(port, request_bytes(LEGAL)[:-10], 4),
    "a request line gunicorn cannot parse": lambda port: exchange(port, b"GET /\x01 HTTP/1.1\r\nHost: t\r\n\r\n", 4),
    "an unknown transfer coding": lambda port: exchange(
        port, b"POST /v1/tricks/winner HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: foo\r\n\r\n", 4
    ),
}


def keep_or_close(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            b"POST /v1/tricks/legal-cards HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\n\r\n{"
        )
        head = sock.recv(65536).split(b"\r\n\r\n")[0].decode("latin-1").lower()
    return next((line.split(":")[1].strip() for line in head.split("\r\n") if line.startswith("connection:")), "?")


CASES["413, its 10 MB body left unread: Connection"] = keep_or_close


def worker_cases(name: str, options: tuple[str, ...], app: str) -> dict[str, str]:
    # A short graceful timeout: the stock worker may still hold a stalled connection at the end.
    limits = {"HEADER_TIMEOUT_SECONDS": "1", "BODY_TIMEOUT_SECONDS": "1", "KEEPALIVE_SECONDS": "1",
              "GUNICORN_GRACEFUL_TIMEOUT": "2"}  # fmt: skip
    server = start(name, options, app, limits)
    try:
        outcomes = {case: check(server.port) for case, check in CASES.items()}
    finally:
        server.stop()
    drained = start(name, options, app, {**limits, "DRAIN_SECONDS": "3", "KEEPALIVE_SECONDS": "5"})
    try:
        outcomes["an answer while draining (kept-alive client)"] = draining(drained.port, drained)
    finally:
        drained.stop()
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    REPORTS.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    workers = [(name, options, app) for name, options, app in SERVERS if name in WORKERS]
    cases = {name: worker_cases(name, options, app) for name, options, app in workers}
    slow = [slow_clients(*server) for server in workers]
    batch = [batch_beside_requests(*server) for server in workers]
    for server in workers:
        cases[server[0]]["a 12 000-deal batch sent whole before reading (10 s allowed)"] = batch_sent_whole(*server)
    cost = cost_per_request(args.seconds, args.rounds, args.connections)

    print(
        f"\nServing — {os.cpu_count()} CPUs, 2 gunicorn workers each; wrk -t2 -c{args.connections}; "
        f"1 warm-up run, then {args.rounds} rounds × {args.seconds} s; median (lowest–highest over the rounds)"
    )
    for keep, client in CLIENTS.items():
        print(f"\nClient: {client}\n")
        print(
            "| operation | server | CPU µs / request | bare Flask CPU ÷ this | requests/s | req/s ÷ bare Flask "
            "| p99 ms |"
        )
        print("|---|---|---:|---:|---:|---:|---:|")
        for r in cost:
            if r["keepalive"] is keep and "cpu_ratio" not in r:
                print(
                    f"| {r['operation']} | {r['server']} | {fmt(r['cpu_us'], 0)} | {fmt(r['vs_flask_cpu'], 2)} | "
                    f"{fmt(r['rps'], 0)} | {fmt(r['vs_flask_rps'], 2)} | {fmt(r['p99_ms'], 1)} |"
                )
    print("\nThe stock gevent worker's CPU per request ÷ the service worker's, and its p99 ÷ ours, per round\n")
    print("| operation | client | CPU ratio | p99 ratio |")
    print("|---|---|---:|---:|")
    for r in cost:
        if "cpu_ratio" in r:
            print(
                f"| {r['operation']} | {CLIENTS[r['keepalive']]} | {fmt(r['cpu_ratio'], 2)} | "
                f"{fmt(r['p99_ratio'], 1)} |"
            )
    print("\n400 slow clients (200 trickling headers, 200 a body) while 80 ordinary requests go through 4 threads\n")
    print("| server | ordinary statuses | p50 ms | slowest ms | slow clients answered 200 |")
    print("|---|---|---:|---:|---:|")
    for s in slow:
        statuses = ", ".join(s["ordinary_statuses"])
        print(
            f"| {s['server']} | {statuses} | {s['ordinary_p50_ms']:.1f} | {s['ordinary_slowest_ms']:.0f} | "
            f"{s['slow_answered_200']}/400 |"
        )
    print("\nA 4 000-deal NDJSON batch on a one-worker server, legal-cards requests sent one after the other\n")
    print("| server | deals answered | batch s | requests during it | slowest ms |")
    print("|---|---:|---:|---:|---:|")
    for b in batch:
        slowest = "—" if b["slowest_request_ms"] is None else f"{b['slowest_request_ms']:.0f}"
        print(
            f"| {b['server']} | {b['batch_deals_answered']} | {b['batch_seconds']:.1f} | "
            f"{b['requests_during_batch']} | {slowest} |"
        )
    print("\nThe cases (header, body and keep-alive deadlines 1 s)\n")
    print(f"| case | {' | '.join(WORKERS)} |")
    print("|---|---|---|")
    for case in cases[WORKERS[0]]:
        print(f"| {case} | {' | '.join(cases[w][case] for w in WORKERS)} |")
    print(f"\n({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        report = {"cost": cost, "slow_clients": slow, "batch": batch, "cases": cases}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def fmt(figure: dict[str, float], digits: int) -> str:
    return f"{figure['median']:.{digits}f} ({figure['low']:.{digits}f}–{figure['high']:.{digits}f})"


if __name__ == "__main__":
    sys.exit(main())
