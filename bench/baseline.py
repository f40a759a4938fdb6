"""The framework ceiling for the HTTP benchmark: bare Flask, no schemas, no rules.

One view for every operation's path: it parses the JSON body, as the service must, and
returns a small JSON answer. Served by gunicorn's stock sync worker, with the same
gunicorn.conf.py as the service otherwise (workers, JSON access log), so the ratio
service / baseline is the cost of the service's own work and of its way of serving.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request

app = Flask(__name__)


@app.post("/v1/<path:operation>")
def operation(operation: str) -> dict[str, Any]:
    body = request.get_json()
    return {"operation": operation, "fields": len(body)}


@app.get("/readyz")
def readyz() -> dict[str, str]:
    """For the harness to know the server is up, as it asks the service."""
    return {"status": "ok"}
