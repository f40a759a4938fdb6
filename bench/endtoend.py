"""HTTP end to end: the service against a bare-Flask baseline, side by side, with wrk.

    python bench/endtoend.py [--seconds N] [--rounds R]

The service runs as deployed: gunicorn with gunicorn.conf.py (its gevent worker). The
baseline is a bare Flask JSON view on gunicorn's stock sync worker, with the same
gunicorn.conf.py otherwise (same number of workers, same JSON access log). wrk sends each
operation's body (load/bodies/) twice over: as a client that opens a connection per request
(``Connection: close``), and as one that keeps its connections (a backend's pool). The sync
baseline closes every connection either way.

Runs alternate service / baseline, back to back, for ``rounds`` rounds, the one going first
swapping every round; each round gives a ratio of service / baseline requests/s measured a
few seconds apart, so the machine's drifts (other tenants) hit both sides alike. The figures
are medians over the rounds: on a shared machine single rounds scatter by ±10 %.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load.run import Server, free_port, wrk  # noqa: E402

REPORTS = ROOT / "reports" / "bench"
# (wrk script, path, target ratio of the baseline's requests/s)
OPERATIONS = [
    ("legal_cards", "/v1/tricks/legal-cards", 0.85),
    ("winner", "/v1/tricks/winner", 0.85),
    ("score", "/v1/deals/score", 0.85),
    ("evaluate", "/v1/deals/evaluate (complete 4-player deal)", 0.6),
]
CLIENTS = {False: "a connection per request", True: "kept-alive connections"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    runs: dict[tuple[str, bool], dict[str, list[dict[str, Any]]]] = {
        (op, keep): {"service": [], "baseline": []} for op, _, _ in OPERATIONS for keep in CLIENTS
    }
    service = Server(free_port(), "service.wsgi:app", REPORTS / "service.log")
    try:
        baseline = Server(free_port(), "bench.baseline:app", REPORTS / "baseline.log", options=("-k", "sync"))
    except BaseException:
        service.stop()
        raise
    try:
        for round_ in range(args.rounds):
            order = [("service", service), ("baseline", baseline)]
            for op, _, _ in OPERATIONS:
                for keep in CLIENTS:
                    for name, server in order if round_ % 2 == 0 else order[::-1]:
                        runs[op, keep][name].append(wrk(server.port, op, args.seconds, args.connections, keep))
    finally:
        service.stop()
        baseline.stop()

    rows = []
    for keep in CLIENTS:
        for op, path, target in OPERATIONS:
            row: dict[str, Any] = {"operation": path, "keepalive": keep, "target": target}
            for name in ("service", "baseline"):
                results = runs[op, keep][name]
                row[f"{name}_rps"] = statistics.median(r["rps"] for r in results)
                row[f"{name}_p99_ms"] = statistics.median(r["p99_us"] for r in results) / 1000
                row[f"{name}_failed"] = sum(r["failed"] for r in results)
            pairs = zip(runs[op, keep]["service"], runs[op, keep]["baseline"], strict=True)
            row["ratio"] = statistics.median(s["rps"] / b["rps"] for s, b in pairs)
            row["met"] = row["ratio"] >= target and row["service_failed"] == 0
            rows.append(row)

    print(
        f"\nHTTP end to end — {os.cpu_count()} CPUs; service: gunicorn.conf.py (gevent worker); baseline: bare "
        f"Flask on sync workers; wrk -t2 -c{args.connections}; {args.rounds} rounds × {args.seconds} s; medians "
        "(ratio: of per-round ratios)"
    )
    for keep, client in CLIENTS.items():
        print(f"\nClient: {client}\n")
        print("| operation | service req/s | service p99 ms | baseline req/s | baseline p99 ms | ratio | target |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            if r["keepalive"] is keep:
                print(
                    f"| {r['operation']} | {r['service_rps']:.0f} | {r['service_p99_ms']:.2f} | "
                    f"{r['baseline_rps']:.0f} | {r['baseline_p99_ms']:.2f} | {r['ratio']:.2f} | "
                    f"≥ {r['target']} {'✓' if r['met'] else '✗'} |"
                )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    # A benchmark reports; it does not fail the build on a noisy machine.
    if not all(r["met"] for r in rows):
        print("\nsome targets not met on this run (see docs/performance.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
