"""Batches: deals per second over HTTP, batch against one deal per request, and the command line.

    python bench/batch.py [--seconds N] [--rounds R] [--json PATH]

1. HTTP, with wrk against the service as deployed (gunicorn.conf.py, 2 workers): the same
   complete 4-player deal (load/bodies/evaluate_4p.json) posted one per request, and posted
   100 to a request as an NDJSON batch (the service keeps nothing between deals: each copy is
   evaluated in full). Single requests are measured as a client opening a connection per
   request and as one keeping its connections; batches on kept connections. Rounds alternate
   the order; the ratios are medians of per-round ratios.
2. ``tarot-rules replay`` in process on 10 000 random legal deals, ``--jobs 1`` against
   ``--jobs 2`` (the rate the command reports, alternating, best of the rounds for each), and
   beside it the machine's ceiling: two one-job replays of half the file each, run at once
   (the same work, nothing shared), and two processes of pure CPU work.
3. Memory while a 50 000-deal NDJSON stream goes through one worker (its resident set before
   and at its peak), and the peak of the command line replaying the same 50 000 in process.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load.run import Server, free_port, wrk  # noqa: E402
from tests.dealgen import random_deal  # noqa: E402

REPORTS = ROOT / "reports" / "bench"
BATCH_SIZE = 100
TARGET_HTTP = 5.0
TARGET_CLI = 1.7
BATCH_SCRIPT = """\
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("/v1/deals/evaluate-batch", "{body}", "application/x-ndjson")
done = common.done
"""


def http_runs(seconds: int, rounds: int, connections: int, work: Path) -> dict[str, Any]:
    deal = json.loads((ROOT / "load" / "bodies" / "evaluate_4p.json").read_text(encoding="utf-8"))
    body = work / "batch_100.ndjson"
    body.write_bytes(b"".join(json.dumps(deal, separators=(",", ":")).encode() + b"\n" for _ in range(BATCH_SIZE)))
    script = ROOT / "load" / "bench_batch.lua"  # wrk takes scripts by path; removed after the run
    script.write_text(BATCH_SCRIPT.format(body=body), encoding="utf-8")
    runs: dict[str, list[float]] = {"close": [], "keep": [], "batch": []}
    server = Server(free_port(), "service.wsgi:app", REPORTS / "batch-service.log")
    try:
        for round_ in range(rounds):
            order = ["close", "keep", "batch"]
            for kind in order if round_ % 2 == 0 else order[::-1]:
                if kind == "batch":
                    result = wrk(server.port, "bench_batch", seconds, connections, keepalive=True)
                    assert result["failed"] == 0, result
                    runs[kind].append(result["rps"] * BATCH_SIZE)
                else:
                    result = wrk(server.port, "evaluate", seconds, connections, keepalive=kind == "keep")
                    assert result["failed"] == 0, result
                    runs[kind].append(result["rps"])
    finally:
        server.stop()
        script.unlink()
    return {
        "single_close_deals_per_s": statistics.median(runs["close"]),
        "single_keep_deals_per_s": statistics.median(runs["keep"]),
        "batch_deals_per_s": statistics.median(runs["batch"]),
        "ratio_to_close": statistics.median(b / s for b, s in zip(runs["batch"], runs["close"], strict=True)),
        "ratio_to_keep": statistics.median(b / s for b, s in zip(runs["batch"], runs["keep"], strict=True)),
        "rounds": rounds,
    }


def write_deals(path: Path, count: int) -> None:
    pool = [random_deal(seed, 3 + seed % 3) for seed in range(500)]
    with path.open("wb") as f:
        for i in range(count):
            f.write(json.dumps({"id": f"deal-{i}", **pool[i % len(pool)]}).encode() + b"\n")


def _replay_command(path: Path, jobs: int) -> list[str]:
    # The process's own peak from /proc (ru_maxrss would carry over the peak of the process
    # that started it, across exec); its workers' from getrusage (forked from it, no exec).
    code = (
        "import re, resource, sys; from service.cli import main; status = main(sys.argv[1:]); "
        "own = int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)); "
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
        "print(max(own, kids), file=sys.stderr); sys.exit(status)"
    )
    return [sys.executable, "-c", code, "--lang", "en", "replay", "--quiet", "--jobs", str(jobs), str(path)]


def _rate(stdout: str) -> float:
    # The summary writes counts as English does (12,345): the command runs with --lang en.
    [rate] = [float(line.split()[-1].replace(",", "")) for line in stdout.splitlines() if line.startswith("deals/s")]
    return rate


def halves_at_once(path: Path) -> float:
    """Deals/s of two one-job replays of half the file each, run at once: the same work on two
    cores with nothing shared, what this machine allows two processes of it."""
    lines = path.read_bytes().splitlines(keepends=True)
    halves = [path.with_suffix(".a.ndjson"), path.with_suffix(".b.ndjson")]
    halves[0].write_bytes(b"".join(lines[: len(lines) // 2]))
    halves[1].write_bytes(b"".join(lines[len(lines) // 2 :]))
    procs = [
        subprocess.Popen(_replay_command(half, 1), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for half in halves
    ]
    return sum(_rate(proc.communicate()[0]) for proc in procs)


def replay(path: Path, jobs: int) -> tuple[float, int]:
    """Deals per second (as the command reports them: from its first record to its last,
    start-up aside) and peak resident KiB of ``tarot-rules replay`` (its process and workers)."""
    done = subprocess.run(_replay_command(path, jobs), cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"replay failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return _rate(done.stdout), int(done.stderr.strip().splitlines()[-1])


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_ceiling(rounds: int) -> float:
    """What two processes of pure CPU work reach against one on this machine, in this run."""
    import multiprocessing

    n = 5_000_000
    best_one = best_two = float("inf")
    with multiprocessing.Pool(2) as pool:
        pool.map(_burn, [1, 1])  # started
        for _ in range(rounds):
            started = time.perf_counter()
            _burn(n)
            _burn(n)
            best_one = min(best_one, time.perf_counter() - started)
            started = time.perf_counter()
            pool.map(_burn, [n, n])
            best_two = min(best_two, time.perf_counter() - started)
    return best_one / best_two


def cli_runs(work: Path, rounds: int) -> dict[str, Any]:
    path = work / "deals_10000.ndjson"
    write_deals(path, 10_000)
    rates: dict[int, list[float]] = {1: [], 2: []}
    halves = []
    for round_ in range(rounds):
        for jobs in (1, 2) if round_ % 2 == 0 else (2, 1):
            rates[jobs].append(replay(path, jobs)[0])
        halves.append(halves_at_once(path))
    one, two = max(rates[1]), max(rates[2])
    return {
        "deals": 10_000,
        "jobs_1_deals_per_s": one,
        "jobs_2_deals_per_s": two,
        "ratio": two / one,
        "halves_at_once_deals_per_s": max(halves),
        "halves_ratio": max(halves) / one,
        "pure_cpu_two_processes": parallel_ceiling(rounds),
        "rounds": rounds,
    }


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def memory_runs(work: Path) -> dict[str, Any]:
    path = work / "deals_50000.ndjson"
    write_deals(path, 50_000)
    body = path.read_bytes()
    server = Server(free_port(), "service.wsgi:app", REPORTS / "batch-memory.log", env={"WEB_CONCURRENCY": "1"})
    try:
        [worker] = _children(server.proc.pid)
        before = _rss_kib(worker)
        peak = before
        stop = threading.Event()

        def watch() -> None:
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, _rss_kib(worker))
                time.sleep(0.02)

        watcher = threading.Thread(target=watch)
        watcher.start()
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=120)
        head = (
            "POST /v1/deals/evaluate-batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        sender = threading.Thread(target=sock.sendall, args=(head + body,))
        started = time.perf_counter()
        sender.start()
        received = 0
        while chunk := sock.recv(1 << 16):
            received += len(chunk)
        seconds = time.perf_counter() - started
        sender.join()
        sock.close()
        stop.set()
        watcher.join()
    finally:
        server.stop()
    _, cli_peak = replay(path, 2)
    return {
        "deals": 50_000,
        "body_mib": len(body) / 2**20,
        "answer_mib": received / 2**20,
        "seconds": seconds,
        "worker_rss_before_mib": before / 1024,
        "worker_rss_peak_mib": peak / 1024,
        "cli_peak_rss_mib": cli_peak / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        http = http_runs(args.seconds, args.rounds, args.connections, work)
        cli = cli_runs(work, 3)
        memory = memory_runs(work)
    print(f"\nBatches — {os.cpu_count()} CPUs; wrk -t2 -c{args.connections}; {args.rounds} rounds × {args.seconds} s\n")
    print("| HTTP | deals/s | batch ÷ this | target |")
    print("|---|---:|---:|---:|")
    print(f"| one deal per request, a connection each | {http['single_close_deals_per_s']:.0f} | "
          f"{http['ratio_to_close']:.2f} | ≥ {TARGET_HTTP} |")  # fmt: skip
    print(f"| one deal per request, kept-alive connections | {http['single_keep_deals_per_s']:.0f} | "
          f"{http['ratio_to_keep']:.2f} | ≥ {TARGET_HTTP} |")  # fmt: skip
    print(f"| NDJSON batches of {BATCH_SIZE} | {http['batch_deals_per_s']:.0f} | — | |")
    print(f"\ntarot-rules replay, 10 000 deals in process: 1 job {cli['jobs_1_deals_per_s']:.0f} deals/s, "
          f"2 jobs {cli['jobs_2_deals_per_s']:.0f} deals/s: {cli['ratio']:.2f}× (target ≥ {TARGET_CLI}); the "
          f"machine's ceiling: two one-job replays of half the file at once {cli['halves_ratio']:.2f}×, "
          f"two processes of pure CPU work {cli['pure_cpu_two_processes']:.2f}×")  # fmt: skip
    print(f"\n50 000-deal stream ({memory['body_mib']:.0f} MiB in, {memory['answer_mib']:.0f} MiB out, "
          f"{memory['seconds']:.1f} s): worker {memory['worker_rss_before_mib']:.0f} MiB before, "
          f"{memory['worker_rss_peak_mib']:.0f} MiB at peak; tarot-rules replay of the same, "
          f"peak {memory['cli_peak_rss_mib']:.0f} MiB")  # fmt: skip
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        report = {"http": http, "cli": cli, "memory": memory}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
