"""gunicorn settings for the service: ``gunicorn -c gunicorn.conf.py service.wsgi:app``.

`make run` and the container image both use this file; everything an operator tunes comes
from the environment (see the README's Deploy section).
"""

import os
import shutil
import signal
import tempfile

from service.connection import DRAINING
from service.worker import ConnectionLimits, refuse_unsupported

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"

# One worker process per CPU, each serving many connections with gevent (service.worker):
# a slow or idle client waits in a greenlet and costs the others nothing, and the rules
# work, CPU-bound and short, runs one request at a time per process.
worker_class = "service.worker.ServiceWorker"
workers = int(os.environ.get("WEB_CONCURRENCY") or len(os.sched_getaffinity(0)))
# Open connections per worker; at the bound a worker stops accepting until one closes.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "1000"))

# A worker that misses its heartbeat this long (a request computing for 30 s: none does) is
# killed and replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On SIGTERM, in-flight requests get this long to finish (below Kubernetes' 30 s grace).
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
# An idle kept-alive connection waits this long for its next request, then is closed.
keepalive = int(os.environ.get("KEEPALIVE_SECONDS", "5"))
# Deadlines of a request: its headers from its first byte, and each wait for body bytes.
connection_limits = ConnectionLimits(
    header_seconds=float(os.environ.get("HEADER_TIMEOUT_SECONDS", "5")),
    body_seconds=float(os.environ.get("BODY_TIMEOUT_SECONDS", "10")),
    # Unsent streamed answers a worker may keep in TMPDIR for clients still sending (batches).
    answer_spill_bytes=int(os.environ.get("ANSWER_SPILL_MIB", "256")) * 1024 * 1024,
)

# After SIGTERM a worker keeps serving this long with /readyz answering 503, so that load
# balancers polling readiness stop sending traffic before the sockets close.
drain_seconds = float(os.environ.get("DRAIN_SECONDS", "5"))

# Heartbeat files on tmpfs: a disk-backed /tmp can stall workers under I/O pressure, and the
# image's root filesystem is read-only.
worker_tmp_dir = "/dev/shm"

# The service needs no run-time control channel; no socket file is left behind.
control_socket_disable = True

# JSON lines on stdout, access and error logs alike (service.logs).
logger_class = "service.logs.JsonGunicornLogger"
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")

# Prometheus multiprocess mode: each worker writes its samples to files in this directory and
# /metrics sums them, so the counts are right whichever worker answers the scrape. The
# variable must be set before any worker imports prometheus_client. This file is read again
# on SIGHUP; the directory chosen the first time is kept.
_OWN_METRICS_DIR = "_TAROT_OWN_METRICS_DIR"
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tarot-metrics-")
    os.environ[_OWN_METRICS_DIR] = os.environ["PROMETHEUS_MULTIPROC_DIR"]


def on_starting(server):
    """Refuse settings the server cannot honour (TLS, HTTP/2: gunicorn prints the reason and
    exits 1); create the metrics directory and wipe it: a previous run's files would add to
    our counts."""
    refuse_unsupported(server.cfg)
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(directory, exist_ok=True)
    for entry in os.scandir(directory):
        if entry.is_file() and entry.name.endswith(".db"):
            os.unlink(entry.path)


def child_exit(server, worker):
    """Drop a dead worker's live gauges; its counters stay in the totals."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics directory if this server made it."""
    own = os.environ.get(_OWN_METRICS_DIR)
    if own:
        shutil.rmtree(own, ignore_errors=True)


def post_worker_init(worker):
    """Give the worker its deadlines; drain on SIGTERM: /readyz 503 for ``drain_seconds``, then stop.

    gunicorn's own handler stops the worker at once, after the request in hand; requests that
    a load balancer still routes here in the meantime would be refused. While draining,
    every answer closes its connection, so that clients reconnect to instances in service.
    """
    worker.limits = connection_limits

    def drain(signum, frame):
        worker.wsgi.config[DRAINING] = True
        if drain_seconds <= 0:
            worker.handle_exit(signum, frame)
            return
        signal.signal(signal.SIGALRM, worker.handle_exit)
        signal.setitimer(signal.ITIMER_REAL, drain_seconds)

    signal.signal(signal.SIGTERM, drain)
    # As gunicorn does: a signal must not interrupt the system call of a request in progress.
    signal.siginterrupt(signal.SIGTERM, False)
