"""The server hooks: functions that ``gunicorn.conf.py`` calls from gunicorn's own hooks.

Imported by gunicorn's settings file in the master: nothing here loads gevent.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from typing import Any

from ..connection import DRAINING
from .limits import AdmissionLimits, ConnectionLimits


def refuse_unsupported(cfg: Any) -> None:
    """Refuse, at start-up, gunicorn settings this server would otherwise ignore.

    The worker reads and writes its sockets itself, in plain HTTP/1.1: given a certificate it
    would still speak plain HTTP, and asked for HTTP/2 it would still speak HTTP/1.1. An
    operator who asked for either is told so before any client is, with what to do instead.
    """
    refused = []
    if cfg.is_ssl:
        refused.append(
            "TLS (certfile/keyfile): this server speaks plain HTTP; terminate TLS in front of it "
            "(an ingress or a proxy)"
        )
    if "h2" in (getattr(cfg, "http_protocols", None) or ()):
        refused.append("HTTP/2 (http_protocols h2): this server speaks HTTP/1.1; leave http_protocols at h1")
    if refused:
        raise RuntimeError("settings this server cannot honour: " + "; ".join(refused))


# Prometheus multiprocess mode: each worker writes its samples to files in this directory and
# /metrics sums them, so the counts are right whichever worker answers the scrape.
_OWN_METRICS_DIR = "_TAROT_OWN_METRICS_DIR"


def choose_metrics_directory() -> None:
    """Set ``PROMETHEUS_MULTIPROC_DIR`` to a new temporary directory unless it is set.

    Called as the settings file loads: the variable must be set before any worker imports
    prometheus_client. The file is read again on SIGHUP; the directory chosen the first
    time is kept.
    """
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tarot-metrics-")
        os.environ[_OWN_METRICS_DIR] = os.environ["PROMETHEUS_MULTIPROC_DIR"]


def prepare_metrics_directory(directory: str) -> None:
    """Create the metrics directory and wipe it (a previous run's files would add to our counts);
    :class:`RuntimeError` saying what to do when the workers could not write there.

    Every request writes its samples there: a directory the workers cannot write (a read-only
    root with no volume mounted on it) would let the instance start, report itself ready, and
    then fail every request. It is tried once here, before any worker starts.
    """
    try:
        os.makedirs(directory, exist_ok=True)
        for entry in os.scandir(directory):
            if entry.is_file() and entry.name.endswith(".db"):
                os.unlink(entry.path)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise RuntimeError(
            f"the metrics directory {directory} (PROMETHEUS_MULTIPROC_DIR) is not writable: "
            f"{exc.strerror or exc}; mount a writable volume there (the Deployment's emptyDir) "
            "or point PROMETHEUS_MULTIPROC_DIR at a writable directory"
        ) from None


def on_starting(server: Any) -> None:
    """Refuse settings the server cannot honour and a metrics directory it cannot write (gunicorn
    prints the reason and exits 1); say which version and rules core it serves."""
    try:
        refuse_unsupported(server.cfg)
        prepare_metrics_directory(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    except RuntimeError as exc:
        server.log.error("refusing to start: %s", exc)
        raise
    # Imported here, in the master, so that the line says what the workers will load: they
    # make the same choice from the same files (service/rules/__init__.py).
    from service import __version__
    from service.rules import CORE

    server.log.info("tarot-rules %s, %s rules core", __version__, CORE, extra={"version": __version__, "core": CORE})


def child_exit(worker: Any) -> None:
    """Drop a dead worker's live gauges; its counters stay in the totals."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit() -> None:
    """Remove the metrics directory if this server made it."""
    own = os.environ.get(_OWN_METRICS_DIR)
    if own:
        shutil.rmtree(own, ignore_errors=True)


def post_worker_init(
    worker: Any,
    limits: ConnectionLimits,
    drain_seconds: float,
    admission: AdmissionLimits | None = None,
    health_port: int | None = None,
) -> None:
    """Give the worker its deadlines, its admission limits and the port that serves only the
    probes and the metrics; drain on SIGTERM: /readyz 503 for ``drain_seconds``, then stop.

    gunicorn's own handler stops the worker at once, after the request in hand; requests that
    a load balancer still routes here in the meantime would be refused. While draining,
    every answer closes its connection, so that clients reconnect to instances in service.
    """
    worker.limits = limits
    if admission is not None:
        worker.admission_limits = admission
    worker.health_port = health_port

    def drain(signum: int, frame: Any) -> None:
        worker.wsgi.config[DRAINING] = True
        if drain_seconds <= 0:
            worker.handle_exit(signum, frame)
            return
        signal.signal(signal.SIGALRM, worker.handle_exit)
        signal.setitimer(signal.ITIMER_REAL, drain_seconds)

    signal.signal(signal.SIGTERM, drain)
    # As gunicorn does: a signal must not interrupt the system call of a request in progress.
    signal.siginterrupt(signal.SIGTERM, False)
