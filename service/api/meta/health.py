"""Liveness and readiness: the probes an orchestrator or a load balancer asks."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_smorest import Blueprint

from service.connection import DRAINING
from service.contract.common import AnswerSchema
from service.contract.fields import StrictString

blp = Blueprint("ops", __name__, description="Health of the service and its contract.")


class HealthSchema(AnswerSchema):
    status = StrictString(required=True, metadata={"description": "`ok`, or `draining` while shutting down."})


@blp.route("/livez", methods=["GET"])
@blp.doc(operationId="checkLiveness")
@blp.response(200, HealthSchema())
def livez() -> dict[str, Any]:
    """Liveness: the process answers requests."""
    return {"status": "ok"}


@blp.route("/readyz", methods=["GET"])
@blp.doc(operationId="checkReadiness")
@blp.response(200, HealthSchema())
@blp.alt_response(503, schema=HealthSchema, description="Draining: take this instance out of rotation.")
def readyz() -> Any:
    """Readiness: the instance takes traffic (503 once it has begun to shut down)."""
    if current_app.config.get(DRAINING):
        return {"status": "draining"}, 503
    return {"status": "ok"}
