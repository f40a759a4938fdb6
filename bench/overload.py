"""Overload: what a spike does to the service, before and after admission control, in one run.

    python bench/overload.py [--seconds N] [--baseline REF] [--json PATH]

Two servers on 127.0.0.1, each with ``gunicorn.conf.py`` and 2 workers on the compiled core, as
``make run`` serves: the service as it is here, and the service at ``REF`` (by default the last
release before admission control), checked out in a git worktree and compiled as the image
compiles it. One after the other, each meets the same traffic on ``POST /v1/tricks/legal-cards``
(h2load, HTTP/1.1, the request a phone sends most):

1. **Peak**: a closed loop of 50 busy keep-alive connections: the capacity ``C``.
2. **Busy connections**: closed loops of 400 and of 1,500 keep-alive connections, each sending
   its next request as soon as it has its answer, and never waiting for a ``Retry-After``.
3. **A spike**: an open loop at 2 × ``C`` on 400 kept-alive connections and at 10 × ``C`` on
   1,500, each connection asking at its own fixed rate whatever the answers (one request at a
   time on a connection, as HTTP/1.1 has it); and new clients at 2 × ``C``: new connections at a
   fixed rate, each a session of requests, for the run's time.

During each run a prober asks as the kubelet does: a new connection per probe, 2 s timeout,
``/readyz`` and ``/livez`` in turn every 0.2 s, on the probe port (``HEALTH_PORT``; the service's
own port for a release that has none); and a *polite* client, one kept-alive connection asking
every 50 ms and waiting the ``Retry-After`` a refusal asks for, as the generated clients, the
Node adapter and ``tarot-rules`` do.

Per run: answered requests per second (all, and 2xx), the 2xx answers' p50 and p99, the
refusals (503) and their p99 and slowest, the requests waiting 10 s or more or never answered,
the probes' slowest and failures, and what the polite client met (its 2xx p99, its refusals
and the slowest of them). h2load's clients never read ``Retry-After``: a request one of them
sends on a connection just refused waits on that connection until the ``Retry-After`` has
passed (the service holds it back), and h2load's times include that wait; the polite client's
times are those of requests the service reads when they are sent. The figures are written to ``--json`` and printed as a
table, one row per server and run. Then the two peaks again, both servers up at once and asked
in turn, round after round (``--peak-rounds``), with the workers' CPU time per answer: the runs
above ask each server minutes apart, and a slow phase of the machine would fall on one only.
Traffic goes to 127.0.0.1 only; every run is bounded in time (about 7 min in all with the
defaults).
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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load.background import Background  # noqa: E402
from load.run import Server, free_port  # noqa: E402

BASELINE = "e32561b"
"""The release before admission control (1.2.0 and its fixes)."""
PATH = "/v1/tricks/legal-cards"
BODY = ROOT / "load" / "bodies" / "legal_cards.json"
PROBES = ("/readyz", "/livez")
PROBE_EVERY = 0.2
PROBE_TIMEOUT = 2.0
SESSION = 20
"""Requests a new client of the open loop sends on its connection (the loopback's ports, held in
TIME_WAIT for a minute after each close, bound how many connections a second a run may open)."""
POLITE_EVERY = 0.05
"""How often the client that reads ``Retry-After`` asks, when not asked to wait."""
SLOW = 10.0
"""A request waiting this long is one nobody waits for."""


def h2load(port: int, *options: str, seconds: float) -> dict[str, Any]:
    """h2load against ``PATH`` with ``options``; per-request timings from its log."""
    with tempfile.NamedTemporaryFile("r", suffix=".tsv") as log:
        done = subprocess.run(
            ["h2load", "--h1", "-t1", *options, "-d", str(BODY), "-H", "Content-Type: application/json",
             "--log-file", log.name, f"http://127.0.0.1:{port}{PATH}"],
            capture_output=True, text=True, timeout=seconds + 60, check=False,
        )  # fmt: skip
        rows = [line.split("\t") for line in log.read().splitlines() if line]
    started = _number(done.stdout, "started")
    answers = [(int(status), int(micros) / 1e6) for _, status, micros in rows]
    return {"answers": answers, "started": started, "output": done.stdout[-2000:]}


def _number(text: str, word: str) -> int:
    for line in text.splitlines():
        if line.startswith("requests:"):
            for part in line.split(":", 1)[1].split(","):
                value, _, name = part.strip().partition(" ")
                if name == word:
                    return int(value)
    return 0


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Prober(Background):
    """The kubelet's probes, on new connections, timed; and a sample of the refusals' heads."""

    def __init__(self, port: int, service_port: int) -> None:
        self.port, self.service_port = port, service_port
        self.times: list[float] = []
        self.failures: list[str] = []
        self.heads: list[str] = []
        self.polite: list[tuple[int, float]] = []
        super().__init__([self._probe, self._sample])

    def _probe(self) -> None:
        i = 0
        while not self.stop.wait(PROBE_EVERY):
            path = PROBES[i % 2]
            i += 1
            start = time.monotonic()
            try:
                head = _ask(self.port, f"GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n".encode())
                if not head.startswith(("HTTP/1.1 200", "HTTP/1.0 200")):
                    self.failures.append(head.split("\r\n", 1)[0])
            except OSError as exc:
                self.failures.append(type(exc).__name__)
            self.times.append(time.monotonic() - start)

    def _sample(self) -> None:
        """A client that reads ``Retry-After``: one kept-alive connection asking every
        :data:`POLITE_EVERY` seconds, waiting the time a refusal asks before it asks again.
        What it meets is what the service does to a request it reads when it is sent."""
        body = BODY.read_bytes()
        request = (
            f"POST {PATH} HTTP/1.1\r\nHost: sample\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        conn: socket.socket | None = None
        pause = POLITE_EVERY
        while not self.stop.wait(pause):
            pause = POLITE_EVERY
            try:
                if conn is None:
                    conn = socket.create_connection(("127.0.0.1", self.service_port), timeout=30)
                start = time.monotonic()
                conn.sendall(request)
                head, close = _answer(conn)
            except OSError:
                if conn is not None:
                    conn.close()
                conn = None
                continue
            status = int(head.split(" ", 2)[1])
            self.polite.append((status, time.monotonic() - start))
            if status == 503:
                self.heads.append(head)
                for line in head.lower().split("\r\n"):
                    if line.startswith("retry-after:"):
                        pause = float(line.split(":", 1)[1])
            if close:
                conn.close()
                conn = None
        if conn is not None:
            conn.close()


def _answer(conn: socket.socket) -> tuple[str, bool]:
    """An answer's head read off ``conn`` (its body skipped), and whether the connection closes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            raise ConnectionResetError
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    text = head.decode("latin-1")
    fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in text.split("\r\n")[1:])}
    length = int(fields.get("content-length", "0"))
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            raise ConnectionResetError
        rest += chunk
    return text, fields.get("connection", "").lower() == "close"


def _ask(port: int, request: bytes, timeout: float = PROBE_TIMEOUT) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.settimeout(timeout)
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\r\n\r\n", 1)[0].decode("latin-1")


def summary(run: dict[str, Any], prober: Prober, seconds: float) -> dict[str, Any]:
    answers = run["answers"]
    ok = [t for status, t in answers if 200 <= status < 300]
    refused = [t for status, t in answers if status == 503]
    others = sum(1 for status, _ in answers if not (200 <= status < 300 or status == 503))
    # A closed loop's run ends with its connections' last requests in flight: not lost. An open
    # loop runs every request it starts to its end (or its timeout).
    unanswered = max(0, run["started"] - len(answers) - run.get("in_flight_at_end", 0))
    retry_after = all("\r\nretry-after:" in head.lower() for head in prober.heads)
    polite_ok = [t for status, t in prober.polite if 200 <= status < 300]
    polite_refused = [t for status, t in prober.polite if status == 503]
    return {
        "answered_per_s": round(len(answers) / seconds),
        "ok_per_s": round(len(ok) / seconds),
        "ok_p50_ms": _ms(percentile(ok, 0.5)),
        "ok_p99_ms": _ms(percentile(ok, 0.99)),
        "refused_per_s": round(len(refused) / seconds),
        "refused_p99_ms": _ms(percentile(refused, 0.99)),
        "refused_max_ms": _ms(max(refused, default=None)),
        "polite_asked": len(prober.polite),
        "polite_ok_p99_ms": _ms(percentile(polite_ok, 0.99)),
        "polite_ok_max_ms": _ms(max(polite_ok, default=None)),
        "polite_refused": len(polite_refused),
        "polite_refused_max_ms": _ms(max(polite_refused, default=None)),
        "refusals_sampled": len(prober.heads),
        "refusals_with_retry_after": retry_after if prober.heads else None,
        "other_statuses": others,
        "over_10s_or_unanswered": sum(1 for _, t in answers if t >= SLOW) + unanswered,
        "probe_max_ms": _ms(max(prober.times, default=None)),
        "probe_p99_ms": _ms(percentile(prober.times, 0.99)),
        "probes": len(prober.times),
        "probe_failures": len(prober.failures),
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def scenarios(capacity: float, seconds: int) -> Iterator[tuple[str, tuple[str, ...]]]:
    yield "400 busy connections", ("-c", "400", "-D", str(seconds))
    yield "1,500 busy connections", ("-c", "1500", "-D", str(seconds))
    # Open loop on kept-alive connections: each asks at its own rate, whatever the answers (as
    # far as HTTP/1.1 lets it: one request at a time on a connection).
    for factor, clients in ((2, 400), (10, 1500)):
        rate = max(1, round(factor * capacity / clients))
        yield f"{factor} x capacity, {clients:,} connections at {rate}/s", (
            "-c", str(clients), "--rps", str(rate), "-D", str(seconds),
        )  # fmt: skip
    # New clients at a fixed rate, each a session of requests on its own connection.
    rate = max(1, round(2 * capacity / SESSION))
    clients = rate * seconds
    yield f"2 x capacity in new clients ({rate:,}/s, {SESSION} requests each)", (
        "-r", str(rate), "--rate-period", "1s", "-c", str(clients), "-n", str(clients * SESSION),
        "-T", "30s", "-N", "30s",
    )  # fmt: skip


@contextmanager
def baseline_tree(ref: str) -> Iterator[Path]:
    """The service at ``ref`` in a worktree of this repository, its rules core compiled."""
    with tempfile.TemporaryDirectory(prefix="tarot-baseline-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), ref], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            # Its message catalogs compiled, and its rules core, as a make run would.
            for po in (tree / "service" / "texts" / "locales").glob("*/LC_MESSAGES/*.po"):
                language = po.parent.parent.name
                babel = [sys.executable, "-m", "babel.messages.frontend", "compile"]
                target = ["-i", str(po), "-o", str(po.with_suffix(".mo")), "-l", language]
                subprocess.run([*babel, *target], check=True, capture_output=True)
            build = ROOT / ".venv-build" / "bin" / "python"
            if build.exists():
                compile_ = [str(build), "setup.py", "--quiet", "build_ext", "--inplace"]
                env = {**os.environ, "TAROT_RULES_COMPILE": "1"}
                subprocess.run(compile_, cwd=tree, env=env, check=False, capture_output=True)
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def measure(name: str, root: Path, health: bool, seconds: int) -> list[dict[str, Any]]:
    port = free_port()
    health_port = free_port() if health else None
    env = {"WEB_CONCURRENCY": "2"}
    if health_port is not None:
        env["HEALTH_PORT"] = str(health_port)
    server = Server(port, env=env, root=root, log=ROOT / "reports" / "bench" / f"overload-{name}.log")
    rows = []
    try:
        h2load(port, "-c", "50", "-D", "3", seconds=3)  # warm-up
        with Prober(health_port or port, port) as prober:
            peak = h2load(port, "-c", "50", "-D", str(seconds), seconds=seconds)
        peak["in_flight_at_end"] = 50
        capacity = sum(1 for status, _ in peak["answers"] if status == 200) / seconds
        rows.append({"server": name, "run": "peak, 50 connections", **summary(peak, prober, seconds)})
        for label, options in scenarios(capacity, seconds):
            time.sleep(2)  # the last run's connections closed
            with Prober(health_port or port, port) as prober:
                run = h2load(port, *options, seconds=seconds)
            if "-D" in options:
                run["in_flight_at_end"] = int(options[options.index("-c") + 1])
            run["seconds"] = seconds
            rows.append({"server": name, "run": label, **summary(run, prober, seconds)})
    finally:
        server.stop()
    return rows


def worker_cpu_seconds(pids: set[int]) -> float:
    """The CPU time (user and system) the processes ``pids`` have used so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def peak_side_by_side(trees: dict[str, Path], rounds: int, seconds: int) -> dict[str, Any]:
    """The peak (50 busy connections) of each tree, both serving at once and asked in turn,
    round after round after a warm-up, so that a slow phase of the machine falls on both: per
    server the 2xx a second and the workers' CPU time per 2xx answer (median, least, most), and
    the ratio of the first server's rate to the second's, round by round."""
    servers = {}
    try:
        for name, root in trees.items():
            port = free_port()
            log = ROOT / "reports" / "bench" / f"overload-peak-{name.replace(' ', '-')}.log"
            server = Server(port, env={"WEB_CONCURRENCY": "2"}, root=root, log=log)
            servers[name] = (server, port, server.wait_for_workers(2))
            h2load(port, "-c", "50", "-D", "3", seconds=3)  # warm-up
        rates: dict[str, list[float]] = {name: [] for name in trees}
        cpu: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(rounds):
            for name, (_, port, pids) in servers.items():
                before = worker_cpu_seconds(pids)
                run = h2load(port, "-c", "50", "-D", str(seconds), seconds=seconds)
                used = worker_cpu_seconds(pids) - before
                ok = sum(1 for status, _ in run["answers"] if 200 <= status < 300)
                rates[name].append(ok / seconds)
                cpu[name].append(used / max(1, ok) * 1e6)
    finally:
        for server, _, _ in servers.values():
            server.stop()
    first, second = list(trees)
    ratios = [a / b for a, b in zip(rates[first], rates[second], strict=True)]
    return {
        "rounds": rounds,
        "seconds": seconds,
        "servers": {
            name: {"ok_per_s": _spread(rates[name], 0), "cpu_us_per_ok": _spread(cpu[name], 0)} for name in trees
        },
        "ratio": {"of": f"{first} / {second}", **_spread(ratios, 3)},
    }


def _spread(values: list[float], digits: int) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), digits),
        "least": round(min(values), digits),
        "most": round(max(values), digits),
    }


def side_by_side_text(side: dict[str, Any]) -> str:
    lines = [f"peak side by side, {side['rounds']} rounds of {side['seconds']} s, 50 connections (median, least–most):"]
    for name, figures in side["servers"].items():
        rate, cpu = figures["ok_per_s"], figures["cpu_us_per_ok"]
        lines.append(
            f"  {name}: {rate['median']:,.0f} 2xx/s ({rate['least']:,.0f}–{rate['most']:,.0f}), "
            f"{cpu['median']:,.0f} µs of worker CPU per 2xx ({cpu['least']:,.0f}–{cpu['most']:,.0f})"
        )
    ratio = side["ratio"]
    lines.append(f"  {ratio['of']}: {ratio['median']} ({ratio['least']}–{ratio['most']})")
    return "\n".join(lines)


COLUMNS = (
    ("run", "run"), ("answered_per_s", "answered/s"), ("ok_per_s", "2xx/s"), ("ok_p50_ms", "2xx p50 ms"),
    ("ok_p99_ms", "2xx p99 ms"), ("refused_per_s", "503/s"), ("refused_p99_ms", "503 p99 ms"),
    ("refused_max_ms", "503 max ms"), ("over_10s_or_unanswered", "≥10 s or lost"), ("probe_max_ms", "probe max ms"),
    ("probe_failures", "probe failures"), ("polite_ok_p99_ms", "polite 2xx p99 ms"),
    ("polite_refused", "polite 503s"), ("polite_refused_max_ms", "polite 503 max ms"),
)  # fmt: skip


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| server | " + " | ".join(title for _, title in COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for row in rows:
        cells = ["—" if row[key] is None else f"{row[key]:,}" if isinstance(row[key], int) else str(row[key])
                 for key, _ in COLUMNS]  # fmt: skip
        lines.append(f"| {row['server']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15, help="length of each run (default 15)")
    parser.add_argument(
        "--baseline",
        default=BASELINE,
        help=f"the release to compare with (default {BASELINE}; none: this tree only)",
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--peak-rounds", type=int, default=5, help="rounds of 5 s of the peaks compared side by side (default 5)"
    )
    args = parser.parse_args()
    rows = measure("now", ROOT, health=True, seconds=args.seconds)
    side = None
    if args.baseline != "none":
        with baseline_tree(args.baseline) as tree:
            rows += measure(f"at {args.baseline}", tree, health=False, seconds=args.seconds)
            # The runs above ask each server in turn, minutes apart; the peaks are compared
            # again with both up at once, round by round.
            side = peak_side_by_side({"now": ROOT, f"at {args.baseline}": tree}, args.peak_rounds, 5)
    print(table(rows))
    if side is not None:
        print("\n" + side_by_side_text(side))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": rows, "peak_side_by_side": side}, indent=2) + "\n")
    capacity = statistics.mean(r["ok_per_s"] for r in rows if r["run"].startswith("peak"))
    print(f"\ncapacity (2xx/s at 50 connections, mean of both servers): {capacity:,.0f}")


if __name__ == "__main__":
    main()
