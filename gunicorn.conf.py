"""gunicorn settings for the service: ``gunicorn -c gunicorn.conf.py service.wsgi:app``.

`make run` and the container image both use this file; everything an operator tunes comes
from the environment (see the README's Deploy section).
"""

import json
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"

# Rules checks are short and CPU-bound: one sync worker per CPU keeps every core busy
# without the overhead of threads or an event loop.
worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY") or len(os.sched_getaffinity(0)))

# No request legitimately takes more than milliseconds; a worker stuck for 30 s is killed.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# On SIGTERM, in-flight requests get this long to finish (below Kubernetes' 30 s grace).
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = 5

# Heartbeat files on tmpfs: a disk-backed /tmp can stall workers under I/O pressure, and the
# image's root filesystem is read-only.
worker_tmp_dir = "/dev/shm"

# The service needs no run-time control channel; no socket file is left behind.
control_socket_disable = True

# Structured access log on stdout, one JSON object per request.
accesslog = "-"
errorlog = "-"
access_log_format = json.dumps(
    {
        "time": "%(t)s",
        "remote": "%(h)s",
        "method": "%(m)s",
        "path": "%(U)s",
        "status": "%(s)s",
        "bytes": "%(B)s",
        "duration_us": "%(D)s",
        "request_id": "%({x-request-id}o)s",
        "user_agent": "%(a)s",
    }
)
