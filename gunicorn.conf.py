"""gunicorn settings for the service: ``gunicorn -c gunicorn.conf.py service.wsgi:app``.

`make run` and the container image both use this file; everything an operator tunes comes
from the environment (see docs/operations.md, Configuration). The behaviour behind the settings is
in ``service/serving/`` (the worker, its limits, the hooks called below).
"""

import os
from typing import Any  # gunicorn passes its own objects to the hooks, untyped

from service.serving import hooks
from service.serving.limits import AdmissionLimits, ConnectionLimits

bind = [f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"]
# A port of its own for the probes and the metrics, when set (the image and the Deployment set
# 8001): there they never wait in the kernel's queue behind a crowd of new connections.
health_port = int(os.environ["HEALTH_PORT"]) if os.environ.get("HEALTH_PORT") else None
if health_port is not None:
    bind.append(f"{os.environ.get('HOST', '0.0.0.0')}:{health_port}")

# One worker process per CPU, each serving many connections with gevent: a slow or idle
# client waits in a greenlet and costs the others nothing, and the rules work, CPU-bound and
# short, runs one request at a time per process. Why this worker and not gunicorn's stock
# gevent one: docs/performance.md, "Serving: the stock gevent worker beside ours".
worker_class = "service.serving.worker.ServiceWorker"
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

# Under load (docs/operations.md, "Overload"): each worker takes on a request only while the work
# already queued for its one compute turn is under ADMISSION_QUEUE_SECONDS, serves them first come
# first served, and refuses with 503 and Retry-After what it cannot take on, or what waited past
# ADMISSION_DEADLINE_SECONDS.
admission_limits = AdmissionLimits(
    queue_seconds=float(os.environ.get("ADMISSION_QUEUE_SECONDS", "0.75")),
    deadline_seconds=float(os.environ.get("ADMISSION_DEADLINE_SECONDS", "1.0")),
    retry_after_seconds=int(os.environ.get("RETRY_AFTER_SECONDS", "1")),
)

# After SIGTERM a worker keeps serving this long with /readyz answering 503, so that load
# balancers polling readiness stop sending traffic before the sockets close.
drain_seconds = float(os.environ.get("DRAIN_SECONDS", "5"))

# Heartbeat files on tmpfs: a disk-backed /tmp can stall workers under I/O pressure, and the
# image's root filesystem is read-only.
worker_tmp_dir = "/dev/shm"

# The service needs no run-time control channel; no socket file is left behind.
control_socket_disable = True

# JSON lines on stdout, access and error logs alike.
logger_class = "service.serving.logs.JsonGunicornLogger"
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")

# Prometheus multiprocess mode: workers share their samples through a directory.
hooks.choose_metrics_directory()


def on_starting(server: Any) -> None:
    hooks.on_starting(server)


def child_exit(server: Any, worker: Any) -> None:
    hooks.child_exit(worker)


def on_exit(server: Any) -> None:
    hooks.on_exit()


def post_worker_init(worker: Any) -> None:
    hooks.post_worker_init(worker, connection_limits, drain_seconds, admission_limits, health_port)
