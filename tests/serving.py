"""A real gunicorn, started as the image starts it, on a free loopback port.

Tests that need the deployed behaviour (several workers, signals, logs, metrics) use this
instead of the Flask test client. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).parent.parent
VENV_BIN = Path(sys.executable).parent
GUNICORN_COMMAND = ("gunicorn", "-c", "gunicorn.conf.py", "service.wsgi:app")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Answer:
    """Status, headers and body of one HTTP answer."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        return json.loads(self.body)


def call(
    base: str, method: str, path: str, body: object = None, headers: dict[str, str] | None = None, timeout: float = 10
) -> Answer:
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if body is not None else {}
    req = urllib.request.Request(base + path, data=data, headers={**sent, **(headers or {})}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return Answer(r.status, dict(r.headers), r.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, dict(e.headers), e.read())


class Gunicorn:
    """gunicorn running a command (by default the image's entrypoint), by default from the
    repository root.

    Its output is read continuously into ``lines`` (a full pipe would block the server).
    """

    def __init__(
        self,
        env: dict[str, str] | None = None,
        command: Sequence[str] = GUNICORN_COMMAND,
        cwd: Path = ROOT,
        health: bool = False,
    ) -> None:
        """``health``: the probes and the metrics on a port of their own (``health_port``)."""
        self.cwd = cwd
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.health_port = free_port() if health else None
        self.lines: list[str] = []
        path = f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"
        self.env = {**os.environ, "PATH": path, "WEB_CONCURRENCY": "2", "DRAIN_SECONDS": "0", **(env or {})}
        self.env.update(HOST="127.0.0.1", PORT=str(self.port))
        if self.health_port is not None:
            self.env["HEALTH_PORT"] = str(self.health_port)
        self.command = list(command)
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> Gunicorn:
        self.proc = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("gunicorn exited at start:\n" + "\n".join(self.lines))
            try:
                if call(self.base, "GET", "/readyz", timeout=1).status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("gunicorn did not become ready:\n" + "\n".join(self.lines))

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, as Kubernetes sends it; the exit status."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def log_records(self) -> list[dict[str, Any]]:
        """Every output line, parsed; a line that is not a JSON object fails the test."""
        records = []
        for line in list(self.lines):
            record = json.loads(line)
            assert isinstance(record, dict), line
            records.append(record)
        return records
