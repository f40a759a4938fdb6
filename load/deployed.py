"""The service's image, run as ``k8s/base/deployment.yaml`` runs it, on a Docker engine.

The engine and the image come from ``scripts/image`` (which starts an engine of its own and
makes a local Debian base where no image registry can be reached). A :class:`Container` takes
from the manifest what a kubelet would apply: the environment, the user and group, a read-only
root filesystem, no capabilities, no privilege escalation, the CPU and memory limits, and its
volumes (an ``emptyDir`` in memory as a tmpfs of its size, one on disk as a volume), and it
listens on 127.0.0.1 only. The image tests, the several-instances test and the
benchmarks against the image all start it here.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOYMENT = ROOT / "k8s" / "base" / "deployment.yaml"
IMAGE_SCRIPT = ROOT / "scripts" / "image"


class EngineError(Exception):
    """No Docker engine could be had, or the image could not be built; ``str()`` says why."""


def _script(*args: str, host: str | None = None, timeout: float) -> tuple[str, str]:
    """Its last line of output, and what it said on the way (stderr)."""
    env = {**os.environ, **({"DOCKER_HOST": host} if host else {})}
    done = subprocess.run(
        [str(IMAGE_SCRIPT), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        raise EngineError(done.stderr.strip() or f"scripts/image {' '.join(args)} exited {done.returncode}")
    lines = done.stdout.strip().splitlines()
    return (lines[-1] if lines else ""), done.stderr


STARTED = "starting a Docker engine of our own"
"""What scripts/image says when it starts an engine."""


def engine() -> tuple[str, bool]:
    """The ``DOCKER_HOST`` of an engine that answers, and whether one of our own was started
    for it (which :func:`stop_engine` stops)."""
    host, said = _script("engine", timeout=120)
    return host, STARTED in said


def stop_engine() -> None:
    _script("stop-engine", timeout=120)


def build(host: str) -> str:
    """The service's image built on that engine (its base made first where need be): its tag."""
    return _script("build", host=host, timeout=1200)[0]


def docker(host: str, *args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    """One docker command against that engine."""
    return subprocess.run(
        ["docker", *args],
        env={**os.environ, "DOCKER_HOST": host},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=check,
    )


def _container_spec() -> tuple[dict[str, Any], dict[str, Any]]:
    """The pod spec and its (only) container, from the manifest."""
    manifest = yaml.safe_load(DEPLOYMENT.read_text(encoding="utf-8"))
    pod: dict[str, Any] = manifest["spec"]["template"]["spec"]
    container: dict[str, Any] = pod["containers"][0]
    return pod, container


def container_spec() -> dict[str, Any]:
    """The manifest's container: its probes, ports and environment."""
    return _container_spec()[1]


def _bytes(quantity: str) -> int:
    """A Kubernetes memory quantity (``384Mi``, ``32Mi``, ``1Gi``) in bytes."""
    units = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}
    for suffix, factor in units.items():
        if quantity.endswith(suffix):
            return int(quantity[: -len(suffix)]) * factor
    return int(quantity)


def grace_seconds() -> int:
    """How long Kubernetes waits after SIGTERM before it kills the pod."""
    pod, _ = _container_spec()
    return int(pod.get("terminationGracePeriodSeconds", 30))


def deployment_options(*, without_volume: str | None = None) -> list[str]:
    """``docker run`` options for what the manifest sets, but the name, port and image.

    ``without_volume``: the mount path of a volume to leave out, as a manifest missing it would.
    """
    pod, container = _container_spec()
    security = {**pod.get("securityContext", {}), **container.get("securityContext", {})}
    options = ["--user", f"{security['runAsUser']}:{security['runAsGroup']}"]
    if security.get("readOnlyRootFilesystem"):
        options.append("--read-only")
    if security.get("allowPrivilegeEscalation") is False:
        options += ["--security-opt", "no-new-privileges"]
    for capability in security.get("capabilities", {}).get("drop", []):
        options += ["--cap-drop", capability]
    limits = container.get("resources", {}).get("limits", {})
    if "cpu" in limits:
        cpu = str(limits["cpu"])
        options += ["--cpus", str(int(cpu[:-1]) / 1000 if cpu.endswith("m") else float(cpu))]
    if "memory" in limits:
        options += ["--memory", str(_bytes(limits["memory"]))]
    for variable in container.get("env", []):
        options += ["--env", f"{variable['name']}={variable['value']}"]
    volumes = {volume["name"]: volume for volume in pod.get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        if mount["mountPath"] == without_volume:
            continue
        empty_dir = volumes[mount["name"]]["emptyDir"]
        if empty_dir.get("medium") == "Memory":
            size = _bytes(empty_dir.get("sizeLimit", "64Mi"))
            # Owned by the pod's user and fsGroup: what fsGroup makes of an emptyDir, writable by
            # the service (this engine does not apply a tmpfs's mode).
            group = pod.get("securityContext", {}).get("fsGroup", security["runAsGroup"])
            owner = f"uid={security['runAsUser']},gid={group}"
            options += ["--tmpfs", f"{mount['mountPath']}:rw,nosuid,nodev,size={size},{owner}"]
        else:  # on the node's disk, as an emptyDir is; docker cannot bound its size
            options += ["--mount", f"type=volume,destination={mount['mountPath']}"]
    # The image's own HEALTHCHECK is not what Kubernetes runs (it probes over HTTP, below).
    options.append("--no-healthcheck")
    return options


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 2) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return exc.code


class Container:
    """The image, started as the Deployment starts it, its ports published on 127.0.0.1: the
    service's, and the probe port (``health_port``)."""

    def __init__(
        self,
        host: str,
        image: str,
        port: int,
        *,
        health_port: int | None = None,
        env: dict[str, str] | None = None,
        without_volume: str | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        self.host, self.image, self.port = host, image, port
        self.base = f"http://127.0.0.1:{port}"
        self.health_port = health_port if health_port is not None else _free_port()
        self.health_base = f"http://127.0.0.1:{self.health_port}"
        options = deployment_options(without_volume=without_volume)
        # On the host's network, listening on 127.0.0.1 only: traffic stays on loopback, and no
        # userland proxy stands between (docker's would cut a stream that the service ends while
        # the client is still sending, as a batch on a draining instance does; a Kubernetes
        # Service forwards in the kernel, as loopback does).
        ports = {"HOST": "127.0.0.1", "PORT": str(port), "HEALTH_PORT": str(self.health_port)}
        for name, value in {**(env or {}), **ports}.items():
            options += ["--env", f"{name}={value}"]
        self.id = docker(host, "run", "--detach", "--network", "host", *options, *extra, image).stdout.strip()

    def ready(self, timeout: float = 30) -> float:
        """Seconds until ``/readyz`` answers 200; :class:`RuntimeError` (with the logs) if it never does."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if not self.running():
                raise RuntimeError(f"the container exited at start:\n{self.logs()}")
            try:
                if _get(self.base + "/readyz", timeout=1) == 200:
                    return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the container was not ready within {timeout} s:\n{self.logs()}")

    def running(self) -> bool:
        state = docker(self.host, "inspect", "--format", "{{.State.Running}}", self.id).stdout.strip()
        return state == "true"

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(docker(self.host, "inspect", "--format", "{{json .State}}", self.id).stdout)
        return state

    def signal(self, signum: int = signal.SIGTERM) -> None:
        docker(self.host, "kill", "--signal", signal.Signals(signum).name, self.id)

    def wait(self, timeout: float) -> int:
        """The exit status, once the container has stopped (``TimeoutError`` if not within ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if not state["Running"]:
                return int(state["ExitCode"])
            time.sleep(0.05)
        raise TimeoutError(f"the container still runs after {timeout} s")

    def start(self) -> None:
        docker(self.host, "start", self.id)

    def execute(self, *command: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return docker(self.host, "exec", self.id, *command, timeout=timeout, check=False)

    def logs(self) -> str:
        done = docker(self.host, "logs", self.id, check=False)
        return done.stdout + done.stderr

    def pids(self) -> list[int]:
        """The host's process ids of the server: gunicorn's master (the container's first process)
        and its workers."""
        master = int(docker(self.host, "inspect", "--format", "{{.State.Pid}}", self.id).stdout)
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        return [master, *sorted(int(pid) for pid in children)]

    def remove(self) -> None:
        docker(self.host, "rm", "--force", "--volumes", self.id, check=False)
