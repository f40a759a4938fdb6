"""Batches: deals per second over HTTP, batch against one deal per request, and the command line.

    python bench/batch.py [--seconds N] [--rounds R] [--json PATH] [--http-only] [--image TAG]

1. HTTP, with wrk against the service as deployed (gunicorn.conf.py, 2 workers): the same
   complete 4-player deal (load/bodies/evaluate_4p.json) posted one per request, and posted
   100 to a request as a batch, NDJSON and JSON, full and ``detail=summary`` (the service
   keeps nothing between deals: each copy is evaluated in full). Single requests are measured
   as a client opening a connection per request and as one keeping its connections; batches
   on kept connections. For each, deals/s and the server's CPU time per deal (its master and
   workers, from /proc: steadier than rates on a shared machine). A warm-up round, then
   rounds alternating the order; ratios are medians of per-round ratios. With ``--image``, the
   server is that image, run as the Deployment runs it (load/deployed.py).
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
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load.deployed import Container, engine  # noqa: E402
from load.run import Server, free_port, wrk  # noqa: E402
from service.randomdeals import random_deal  # noqa: E402

REPORTS = ROOT / "reports" / "bench"
BATCH_SIZE = 100
TARGET_CLI = 1.7
BATCH_SCRIPT = """\
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("{path}", "{body}", "{media_type}")
done = common.done
"""


BATCH_KINDS = {
    # kind: (path, media type, body maker)
    "batch": ("/v1/deals/evaluate-batch", "application/x-ndjson", "ndjson"),
    "batch_summary": ("/v1/deals/evaluate-batch?detail=summary", "application/x-ndjson", "ndjson"),
    "json_batch": ("/v1/deals/evaluate-batch", "application/json", "json"),
    "json_batch_summary": ("/v1/deals/evaluate-batch?detail=summary", "application/json", "json"),
}
KINDS = ["close", "keep", *BATCH_KINDS]
TARGET_CPU_FULL = 1 / 4
TARGET_CPU_SUMMARY = 1 / 5
TICK = os.sysconf("SC_CLK_TCK")


def server_cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes, all their threads (from /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat
    return total / TICK


def _scripts(work: Path) -> dict[str, Path]:
    """A wrk script per batch kind, posting 100 copies of the single-deal body."""
    deal = json.loads((ROOT / "load" / "bodies" / "evaluate_4p.json").read_text(encoding="utf-8"))
    line = json.dumps(deal, separators=(",", ":"))
    bodies = {
        "ndjson": "".join(line + "\n" for _ in range(BATCH_SIZE)),
        "json": '{"deals":[' + ",".join([line] * BATCH_SIZE) + "]}",
    }
    scripts = {}
    for kind, (path, media_type, form) in BATCH_KINDS.items():
        body = work / f"batch_{form}.body"
        body.write_text(bodies[form], encoding="utf-8")
        script = ROOT / "load" / f"bench_{kind}.lua"  # wrk takes scripts by path; removed after the run
        script.write_text(BATCH_SCRIPT.format(path=path, body=body, media_type=media_type), encoding="utf-8")
        scripts[kind] = script
    return scripts


def core_served(port: int) -> str:
    """The rules core a running instance says it serves (its ``tarot_rules_build_info`` metric)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        found = re.search(r'^tarot_rules_build_info\{core="(\w+)"', answer.read().decode(), re.MULTILINE)
    return found.group(1) if found else "unknown"


def http_runs(
    seconds: int, rounds: int, connections: int, work: Path, pure: bool = False, image: str | None = None
) -> dict[str, Any]:
    """Deals/s and the server's CPU time per deal (master and workers summed) for one deal per
    request and for each form of batch; a warm-up round first, then ``rounds``, the order
    alternating; medians of per-round ratios, with their spread. The server is gunicorn from
    this tree, or the ``image`` run as the Deployment runs it (its processes' CPU read from
    the host's /proc)."""
    scripts = _scripts(work)
    rate: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cpu_us: dict[str, list[float]] = {kind: [] for kind in KINDS}
    if image is None:
        env = {"TAROT_RULES_PURE": "1"} if pure else {}
        server = Server(free_port(), "service.wsgi:app", REPORTS / "batch-service.log", env=env)
        port, stop = server.port, server.stop
        pids = [server.proc.pid, *sorted(server.wait_for_workers(2))]
    else:
        container = Container(engine()[0], image, free_port())
        port, stop = container.port, container.remove
        container.ready()
        pids = container.pids()
    try:
        core = core_served(port)
        for round_ in range(rounds + 1):
            for kind in KINDS if round_ % 2 == 0 else KINDS[::-1]:
                before = server_cpu_seconds(pids)
                if kind in BATCH_KINDS:
                    result = wrk(port, scripts[kind].stem, seconds, connections, keepalive=True)
                    deals = result["requests"] * BATCH_SIZE
                else:
                    result = wrk(port, "evaluate", seconds, connections, keepalive=kind == "keep")
                    deals = result["requests"]
                used = server_cpu_seconds(pids) - before
                assert result["failed"] == 0, result
                if round_ == 0:
                    continue  # the warm-up
                rate[kind].append(deals / (result["duration_us"] / 1e6))
                cpu_us[kind].append(used / deals * 1e6)
    finally:
        stop()
        for script in scripts.values():
            script.unlink()

    def ratios(kind: str, to: str, of: dict[str, list[float]]) -> list[float]:
        return [a / b for a, b in zip(of[kind], of[to], strict=True)]

    out: dict[str, Any] = {"rounds": rounds, "seconds": seconds, "connections": connections, "core": core}
    if image is not None:
        out["image"] = image
    for kind in KINDS:
        out[kind] = {
            "deals_per_s": statistics.median(rate[kind]),
            "cpu_us_per_deal": statistics.median(cpu_us[kind]),
            "cpu_us_per_deal_range": [min(cpu_us[kind]), max(cpu_us[kind])],
        }
    for kind in BATCH_KINDS:
        # CPU per batched deal ÷ CPU per single-deal request (kept-alive: the cheaper single).
        cpu = ratios(kind, "keep", cpu_us)
        out[kind]["cpu_ratio_to_keep"] = statistics.median(cpu)
        out[kind]["cpu_ratio_to_keep_range"] = [min(cpu), max(cpu)]
        out[kind]["cpu_ratio_to_close"] = statistics.median(ratios(kind, "close", cpu_us))
        out[kind]["rate_ratio_to_keep"] = statistics.median(ratios(kind, "keep", rate))
        out[kind]["rate_ratio_to_close"] = statistics.median(ratios(kind, "close", rate))
    return out


STAGES_PROGRAM = """
import json, sys, time
import service.rules
from service.contract.evaluate import EVALUATE, digest_evaluation, dump_evaluation, record_of
from service.contract.jsonio import dumps, parse_body
from service.contract.records import line_item
from service.rules.deal import evaluate_deal

line = open(sys.argv[1], "rb").read().strip()
data = parse_body(line)
plan = EVALUATE.plan
req = plan.load(data)
record = record_of(req)
evaluation = evaluate_deal(record)
full = dump_evaluation(evaluation)
digest = digest_evaluation(evaluation)
stages = {
    "parse": lambda: parse_body(line),
    "load": lambda: plan.load(data),
    "record": lambda: record_of(req),
    "core": lambda: evaluate_deal(record),
    "answer, full": lambda: dump_evaluation(evaluation),
    "answer, summary": lambda: digest_evaluation(evaluation),
    "encode, full": lambda: dumps(full),
    "encode, summary": lambda: dumps(digest),
    "a batch line, full": lambda: dumps(line_item(0, line)),
    "a batch line, summary": lambda: dumps(line_item(0, line, detail="summary")),
}
out = {"compiled": service.rules.COMPILED}
for name, work in stages.items():
    best = float("inf")
    for _ in range(7):
        started = time.perf_counter()
        for _ in range(2000):
            work()
        best = min(best, (time.perf_counter() - started) / 2000 * 1e6)
    out[name] = best
print(json.dumps(out))
"""


def stage_profile(work: Path) -> dict[str, dict[str, float]]:
    """Where a batched deal's time goes, in process, stage by stage (best of 7 rounds of 2 000),
    on the compiled core (where built) and on the pure one."""
    body = work / "deal.json"
    body.write_text((ROOT / "load" / "bodies" / "evaluate_4p.json").read_text(encoding="utf-8"), encoding="utf-8")
    out = {}
    for core, env in (("compiled", {}), ("pure", {"TAROT_RULES_PURE": "1"})):
        done = subprocess.run(
            [sys.executable, "-c", STAGES_PROGRAM, str(body)],
            cwd=ROOT,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        result = json.loads(done.stdout)
        if core == "compiled" and not result.pop("compiled"):
            continue  # nothing compiled here
        result.pop("compiled", None)
        out[core] = result
    return out


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
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--http-only", action="store_true", help="only the HTTP part")
    parser.add_argument("--pure", action="store_true", help="serve with the pure-Python rules core")
    parser.add_argument("--image", help="the HTTP part against this image, run as the Deployment runs it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        stages = stage_profile(work)
        http = http_runs(args.seconds, args.rounds, args.connections, work, args.pure, args.image)
        cli = None if args.http_only else cli_runs(work, 3)
        memory = None if args.http_only else memory_runs(work)
    print(
        f"\nBatches — {os.cpu_count()} CPUs; wrk -t2 -c{args.connections}; a warm-up round, then "
        f"{args.rounds} rounds × {args.seconds} s per kind; medians; rules core: {http['core']}"
        f"{'; the image ' + args.image + ' as the Deployment runs it' if args.image else ''}\n"
    )
    print("| HTTP, 4-player deal | deals/s | server CPU µs/deal (range) | ÷ kept-alive single, CPU (range) | target |")
    print("|---|---:|---:|---:|---:|")
    names = {
        "close": "one per request, a connection each",
        "keep": "one per request, kept-alive",
        "batch": f"NDJSON batches of {BATCH_SIZE}",
        "batch_summary": f"NDJSON batches of {BATCH_SIZE}, detail=summary",
        "json_batch": f"JSON batches of {BATCH_SIZE}",
        "json_batch_summary": f"JSON batches of {BATCH_SIZE}, detail=summary",
    }
    for kind in KINDS:
        row = http[kind]
        low, high = row["cpu_us_per_deal_range"]
        cells = [names[kind], f"{row['deals_per_s']:.0f}", f"{row['cpu_us_per_deal']:.0f} ({low:.0f}–{high:.0f})"]
        if kind in BATCH_KINDS:
            target = TARGET_CPU_SUMMARY if kind.endswith("summary") else TARGET_CPU_FULL
            a, b = row["cpu_ratio_to_keep_range"]
            cells += [f"1/{1 / row['cpu_ratio_to_keep']:.2f} (1/{1 / a:.2f}–1/{1 / b:.2f})", f"≤ 1/{1 / target:.0f}"]
        else:
            cells += ["", ""]
        print("| " + " | ".join(cells) + " |")
    cores = list(stages)
    print(f"\nA 4-player deal in process, by stage (µs; best of 7 × 2 000): {' / '.join(cores)} core\n")
    print("| stage | " + " | ".join(cores) + " |")
    print("|---|" + "---:|" * len(cores))
    for name in stages[cores[0]]:
        print(f"| {name} | " + " | ".join(f"{stages[c][name]:.1f}" for c in cores) + " |")
    if args.json and (cli is None or memory is None):
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"http": http, "stages": stages}, indent=2) + "\n", encoding="utf-8")
    if cli is None or memory is None:
        return 0
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
        report = {"http": http, "stages": stages, "cli": cli, "memory": memory}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
