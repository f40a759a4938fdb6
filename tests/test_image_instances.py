"""Several instances of the image behind a load balancer, each stopped and started again in turn
while a CI job replays a long log through it, as a rolling restart of the Deployment does.

Three containers of the image, run as the Deployment runs them (load/deployed.py), behind
Debian's nginx on 127.0.0.1 (round robin, streaming both ways, a connection refused tried on
the next instance). ``tarot-rules replay --url`` reads the log from its standard input, which
this test writes at a steady pace, as an engine writing its records while it plays; meanwhile
each instance in turn gets SIGTERM (it drains: readiness 503, batches stop at a line and say
where to resume), exits, and is started again. The replay must answer every record once, and
its exit status and JUnit report must be those of the same log replayed in process.
Figures: docs/reliability.md.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from load.background import Background
from load.deployed import Container, container_spec, grace_seconds
from tests.image import MARK, Image
from tests.mutations import faulty
from tests.serving import ROOT, VENV_BIN, free_port

pytestmark = MARK

INSTANCES = 3
RECORDS = 32_000
PACE = 800
"""Records written to the replay per second: the log lasts some 40 s, longer than a restart of
every instance in turn (each drains for DRAIN_SECONDS, exits, and starts again: some 9 s)."""

NGINX = """\
worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
# A balancer that holds a spike's connections (the instances' own bound is what is tested).
events {{ worker_connections 8192; }}
http {{
    access_log {work}/access.log;
    client_body_temp_path {work}/client;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    upstream tarot {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 0;
        location / {{
            proxy_pass http://tarot;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # Answers stream as they are made, and bodies as they are sent.
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_read_timeout 60s;
            # An instance that refuses the connection (stopped) is skipped for the next one.
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        subprocess.run([str(ROOT / "scripts" / "ensure-packages"), "nginx:nginx-light"], check=False)
        found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        pytest.fail("Debian's nginx is needed (apt-get install nginx-light)", pytrace=False)
    return found


class Balancer:
    """nginx in front of the instances, on a free loopback port."""

    def __init__(self, work: Path, backends: list[int]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        work.mkdir()
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in backends)
        (work / "nginx.conf").write_text(NGINX.format(work=work, servers=servers, port=self.port), encoding="utf-8")
        self.work = work
        self.proc = subprocess.Popen(
            [nginx_binary(), "-p", str(work), "-c", str(work / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 10
        while not (work / "nginx.pid").exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start: {self.proc.stderr.read() if self.proc.stderr else ''!r}")
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGQUIT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def deal_records(tmp: Path) -> list[str]:
    """A log as an engine writes one: dealt games with their claims at 3, 4 and 5 players, some
    claims wrong, some deals faulty, some lines that are not deal records, cycled to RECORDS
    lines with ids of their own."""
    pool: list[dict[str, Any]] = []
    for players in (3, 4, 5):
        dealt = subprocess.run(
            [str(VENV_BIN / "tarot-rules"), "deal", "--players", str(players), "--seed", str(players),
             "--count", "300", "--claims"],
            capture_output=True, text=True, check=True,
        ).stdout.splitlines()  # fmt: skip
        pool += [json.loads(line) for line in dealt]
    for n in range(0, len(pool), 25):
        pool[n]["claims"]["points"] += 1  # a claim the rules disagree with
    for mutation, _ in faulty("swapped_pair", range(40), 4):
        pool.append({**mutation.deal, "claims": {"valid": True}})
    pool += [{"players": 4, "dealer": 9}, {"players": 2}]
    lines = []
    for n in range(RECORDS):
        record = dict(pool[n % len(pool)])
        record["id"] = f"r{n}"
        lines.append(json.dumps(record))
    return lines


def replay(args: list[str], lines: list[str], pace: float | None, cwd: Path) -> int:
    """``tarot-rules replay - ARGS`` fed ``lines`` on its standard input (``pace`` lines a second, or at once)."""
    output = (cwd / "replay.out").open("w+b")
    proc = subprocess.Popen(
        [str(VENV_BIN / "tarot-rules"), "--lang", "en", "replay", "-", "--quiet", *args],
        cwd=cwd, stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT,
        env={**os.environ, "LANG": "C.UTF-8"},
    )  # fmt: skip
    assert proc.stdin is not None
    started = time.monotonic()
    step = 100
    try:
        for n in range(0, len(lines), step):
            proc.stdin.write(("\n".join(lines[n : n + step]) + "\n").encode())
            proc.stdin.flush()
            if pace:
                time.sleep(max(0.0, started + (n + step) / pace - time.monotonic()))
        proc.stdin.close()
    except BrokenPipeError:
        pass  # it stopped reading: what it says is below
    status = proc.wait(timeout=600)
    output.seek(0)
    assert status in (0, 1), output.read().decode()[-3000:]
    output.close()
    return status


def junit_outcomes(path: Path) -> tuple[dict[str, str], list[tuple[str, str | None, str | None, str | None]]]:
    """The report's totals, and each test case's name with its failure or error (type and
    message), in order; times left out."""
    root = ET.parse(path).getroot()
    totals = {key: root.get(key, "") for key in ("tests", "failures", "errors", "skipped")}
    cases = []
    for case in root.iter("testcase"):
        fault = case.find("failure")
        if fault is None:
            fault = case.find("error")
        cases.append(
            (
                str(case.get("name")),
                None if fault is None else fault.tag,
                None if fault is None else fault.get("type"),
                None if fault is None else fault.get("message"),
            )
        )
    return totals, cases


@pytest.fixture
def instances(image: Image) -> Iterator[list[Container]]:
    started: list[Container] = []
    try:
        for _ in range(INSTANCES):
            started.append(Container(image.host, image.tag, free_port()))
        for container in started:
            container.ready()
        yield started
    finally:
        for container in started:
            container.remove()


def test_a_rolling_restart_under_a_replay_loses_and_repeats_nothing(instances: list[Container], tmp_path: Path) -> None:
    lines = deal_records(tmp_path)
    balancer = Balancer(tmp_path / "nginx", [c.port for c in instances])
    restarts: list[dict[str, float]] = []
    failures: list[str] = []
    replay_done = threading.Event()

    def roll() -> None:
        try:
            restart_each()
        except Exception as exc:
            failures.append(f"{exc!r}: {getattr(exc, 'stderr', '')}")

    def restart_each() -> None:
        time.sleep(2)  # the replay is under way
        for container in instances:
            signalled = time.monotonic()
            container.signal(signal.SIGTERM)
            try:
                status = container.wait(grace_seconds())
            except TimeoutError:
                failures.append(f"{container.id[:12]} did not stop within the grace period")
                return
            if status != 0:
                failures.append(f"{container.id[:12]} exited {status}")
            stopped = time.monotonic()
            container.start()
            container.ready()
            restarts.append({"stopped_s": stopped - signalled, "ready_s": time.monotonic() - stopped})
            if replay_done.is_set():
                failures.append("the replay ended before every instance was restarted: the log is too short")
                return

    roller = threading.Thread(target=roll)
    try:
        roller.start()
        started = time.monotonic()
        remote = replay(["--url", balancer.base, "--junit", str(tmp_path / "remote.xml")], lines, PACE, tmp_path)
        took = time.monotonic() - started
        replay_done.set()
        roller.join(timeout=120)
    finally:
        balancer.stop()
    local = replay(["--junit", str(tmp_path / "local.xml")], lines, None, tmp_path)

    # Batches that met a draining instance: stopped there, and sent again to another.
    stopped = sum(
        1
        for container in instances
        for line in container.logs().splitlines()
        if '"path": "/v1/deals/evaluate-batch"' in line and '"complete": false' in line
    )
    assert failures == [] and len(restarts) == INSTANCES, (failures, restarts)
    assert stopped > 0, "no batch met a draining instance: the restarts were not tested"
    assert remote == local == 1  # the log holds faulty deals and wrong claims
    remote_totals, remote_cases = junit_outcomes(tmp_path / "remote.xml")
    local_totals, local_cases = junit_outcomes(tmp_path / "local.xml")
    assert remote_totals == local_totals and remote_totals["tests"] == str(RECORDS)
    assert [name for name, *_ in remote_cases] == [f"r{n}" for n in range(RECORDS)], "every record answered once"
    assert remote_cases == local_cases
    print(f"\n{RECORDS} records in {took:.1f} s through {INSTANCES} instances, {stopped} batches stopped by a drain;")
    print(f"restarts: {restarts}")


SPIKE_SECONDS = 60
SPIKE_FACTOR = 10
SESSION = 4
"""Requests a new client of the spike sends on its connection."""


class Kubelet(Background):
    """The Deployment's probes of one instance, as the kubelet makes them: readiness and liveness
    on the probe port, each at its period and timeout; an instance is taken out of the Service
    after readiness fails ``failureThreshold`` times in a row, and restarted after liveness does."""

    def __init__(self, container: Container, spec: dict[str, Any]) -> None:
        self.container = container
        self.probes = {name: spec[f"{name}Probe"] for name in ("readiness", "liveness")}
        self.in_a_row = {name: 0 for name in self.probes}
        self.verdicts: list[str] = []
        self.slowest = 0.0
        self.asked = 0
        super().__init__([functools.partial(self._probe, name) for name in self.probes])

    def _probe(self, name: str) -> None:
        probe = self.probes[name]
        path, period, timeout = probe["httpGet"]["path"], probe["periodSeconds"], probe["timeoutSeconds"]
        while not self.stop.wait(period):
            started = time.monotonic()
            try:
                with urllib.request.urlopen(self.container.health_base + path, timeout=timeout) as answer:
                    ok = answer.status == 200
            except OSError:
                ok = False
            self.slowest = max(self.slowest, time.monotonic() - started)
            self.asked += 1
            self.in_a_row[name] = 0 if ok else self.in_a_row[name] + 1
            if self.in_a_row[name] >= probe["failureThreshold"]:
                self.verdicts.append("taken out of the Service" if name == "readiness" else "restarted")


def h2load(base: str, *options: str, timeout: float) -> dict[str, int]:
    """h2load's counts of requests done and of answers by status class, posting legal cards."""
    body = ROOT / "load" / "bodies" / "legal_cards.json"
    done = subprocess.run(
        ["h2load", "--h1", "-t1", *options, "-d", str(body), "-H", "Content-Type: application/json",
         f"{base}/v1/tricks/legal-cards"],
        capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    counts = {}
    for line in done.stdout.splitlines():
        if line.startswith("status codes:"):
            for part in line.split(":", 1)[1].split(","):
                value, name = part.split()
                counts[name] = int(value)
        if line.startswith("requests:"):
            for part in line.split(":", 1)[1].split(","):
                value, _, name = part.strip().partition(" ")
                counts[name] = int(value)
    return counts


def test_a_spike_of_ten_times_capacity_takes_no_instance_out_and_a_replay_goes_through(
    instances: list[Container], tmp_path: Path
) -> None:
    if shutil.which("h2load") is None:
        subprocess.run([str(ROOT / "scripts" / "ensure-packages"), "h2load:nghttp2-client"], check=False)
    if shutil.which("h2load") is None:
        pytest.fail("h2load is needed (apt-get install nghttp2-client)", pytrace=False)
    spec = container_spec()
    balancer = Balancer(tmp_path / "nginx", [c.port for c in instances])
    lines = deal_records(tmp_path)[:4_000]
    try:
        # The capacity of the three, through the balancer: 50 busy connections for 5 s.
        peak = h2load(balancer.base, "-c", "50", "-D", "5", timeout=60)
        capacity = peak.get("2xx", 0) / 5
        rate = max(1, round(SPIKE_FACTOR * capacity / SESSION))
        clients = rate * SPIKE_SECONDS
        spike_options = ["-r", str(rate), "-c", str(clients), "-n", str(clients * SESSION), "-T", "30s", "-N", "30s"]
        with contextlib.ExitStack() as stack:
            kubelets = [stack.enter_context(Kubelet(c, spec)) for c in instances]
            spike: dict[str, int] = {}
            spiker = threading.Thread(
                target=lambda: spike.update(h2load(balancer.base, *spike_options, timeout=SPIKE_SECONDS + 90))
            )
            spiker.start()
            time.sleep(5)  # the spike is on
            # A CI job's replay through it, its log written as the engine plays (100 a second).
            remote = replay(["--url", balancer.base, "--junit", str(tmp_path / "remote.xml")], lines, 100, tmp_path)
            spiker.join()
        assert all(c.running() for c in instances)
    finally:
        balancer.stop()
    local = replay(["--junit", str(tmp_path / "local.xml")], lines, None, tmp_path)
    refused = sum(1 for c in instances for line in c.logs().splitlines() if "Shedding load" in line)
    print(f"\ncapacity {capacity:.0f}/s; spike at {SPIKE_FACTOR} x for {SPIKE_SECONDS} s: {spike};")
    print(f"probes: slowest {max(k.slowest for k in kubelets) * 1000:.0f} ms of {sum(k.asked for k in kubelets)}")
    assert refused > 0, "the spike was not over capacity: nothing was shed"
    assert [k.verdicts for k in kubelets] == [[], [], []], "an instance was taken out or restarted for a slow probe"
    assert all(k.asked >= SPIKE_SECONDS // 10 for k in kubelets)
    assert remote == local == 1
    assert junit_outcomes(tmp_path / "remote.xml") == junit_outcomes(tmp_path / "local.xml")
