"""Load and fault runs: gunicorn with the production config on loopback, driven by wrk.

    python load/run.py [--seconds N] [--connections C]

1. Each operation alone for N seconds: requests/s, latency p50/p99, non-2xx, socket errors.
2. SIGKILL of one worker mid-load: the master must replace it, and the failed requests be at
   most the ones in flight in that worker (a sync worker serves one request at a time).
3. SIGHUP (configuration reload, new workers) mid-load: no failed request.

Prints a table, writes reports/load/results.json, and exits non-zero if a fault run breaks
its promise. Traffic goes to 127.0.0.1 only, and every run is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
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

    def __init__(self, port: int, app: str = "service.wsgi:app", log: Path = REPORTS / "server.log") -> None:
        self.port = port
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "DRAIN_SECONDS": "0"}
        gunicorn = Path(sys.executable).parent / "gunicorn"
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            [str(gunicorn), "-c", "gunicorn.conf.py", app],
            cwd=ROOT,
            env=env,
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


def wrk(port: int, script: str, seconds: int, connections: int) -> dict[str, Any]:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", f"load/{script}.lua",
         f"http://127.0.0.1:{port}"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=seconds + 30,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["failed"] = sum(result[k] for k in ("non_2xx", "connect_errors", "read_errors", "write_errors", "timeouts"))
    return result


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
        # At most the request the killed worker had in hand (one; a second only if it had
        # accepted a connection an instant before dying).
        kill["ok"] = kill["replaced"] and kill["failed"] <= 2
        results["sigkill_worker"] = kill

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
    print(f"\n{results['cpus']} CPUs, {workers} gunicorn sync workers, wrk -t2 -c{args.connections}, "
          f"{args.seconds} s per run, Connection: close\n")  # fmt: skip
    print("| run | requests/s | p50 ms | p99 ms | non-2xx | socket errors |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = [(OPERATIONS[k], v) for k, v in results["operations"].items()]
    rows += [("evaluate + SIGKILL of a worker", results["sigkill_worker"])]
    rows += [("evaluate + SIGHUP reload", results["sighup_reload"])]
    for name, r in rows:
        sockets = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
        print(f"| {name} | {r['rps']:.0f} | {r['p50_us'] / 1000:.2f} | {r['p99_us'] / 1000:.2f} | "
              f"{r['non_2xx']} | {sockets} |")  # fmt: skip
    k, h = results["sigkill_worker"], results["sighup_reload"]
    print(f"\nSIGKILL: worker replaced: {k['replaced']}; failed requests {k['failed']} (allowed: in flight, ≤ 2)")
    print(f"SIGHUP: workers renewed: {h['workers_renewed']}; failed requests {h['failed']} (allowed: 0)")
    print(f"results: {REPORTS / 'results.json'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
