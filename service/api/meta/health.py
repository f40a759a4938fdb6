"""The service's index, and the probes an orchestrator or a load balancer asks: liveness and
readiness."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_smorest import Blueprint

from service import __version__
from service.connection import DRAINING
from service.contract.common import AnswerSchema
from service.contract.fields import StrictString
from service.contract.routes import CONTRACT, CONTRACT_YAML, DOCS, INDEX, LIVENESS, METRICS, READINESS

blp = Blueprint("ops", __name__, description="Health of the service and its contract.")


class HealthSchema(AnswerSchema):
    status = StrictString(required=True, metadata={"description": "`ok`, or `draining` while shutting down."})


def _path(description: str) -> StrictString:
    return StrictString(required=True, metadata={"description": description})


class ServiceIndexSchema(AnswerSchema):
    service = StrictString(required=True, metadata={"description": "The service's name."})
    version = StrictString(required=True, metadata={"description": "Its version, and its contract's (`info.version`)."})
    contract = _path("The path of its contract, the OpenAPI document (JSON).")
    contract_yaml = _path("The same contract as YAML.")
    docs = _path("The path of the page that shows every operation (Swagger UI).")
    liveness = _path("The liveness probe: 200 while the process serves.")
    readiness = _path("The readiness probe: 200 while the instance takes traffic, 503 once it drains.")
    metrics = _path("Its metrics, for Prometheus.")


@blp.route(INDEX, methods=["GET"])
@blp.doc(operationId="describeService")
@blp.response(200, ServiceIndexSchema())
def index() -> dict[str, Any]:
    """The service's index: its name and version, where its contract, operations and probes are.

    Always 200, so that a load balancer's default check passes; a check that follows draining asks `/readyz`.
    """
    return {
        "service": current_app.config["API_TITLE"],
        "version": __version__,
        "contract": CONTRACT,
        "contract_yaml": CONTRACT_YAML,
        "docs": DOCS,
        "liveness": LIVENESS,
        "readiness": READINESS,
        "metrics": METRICS,
    }


@blp.route(LIVENESS, methods=["GET"])
@blp.doc(operationId="checkLiveness")
@blp.response(200, HealthSchema())
def livez() -> dict[str, Any]:
    """Liveness: the process answers requests."""
    return {"status": "ok"}


@blp.route(READINESS, methods=["GET"])
@blp.doc(operationId="checkReadiness")
@blp.response(200, HealthSchema())
@blp.alt_response(503, schema=HealthSchema, description="Draining: take this instance out of rotation.")
def readyz() -> Any:
    """Readiness: the instance takes traffic (503 once it has begun to shut down)."""
    if current_app.config.get(DRAINING):
        return {"status": "draining"}, 503
    return {"status": "ok"}
