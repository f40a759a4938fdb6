"""gunicorn settings for the service (``gunicorn -c gunicorn.conf.py service.wsgi:app``)."""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", str(os.cpu_count() or 1)))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
