"""The one seam between the generator and the service: every question the kit asks goes here.

For now the service is asked in process, through the Flask application's test client.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from flask.testing import FlaskClient

from service.app import create_app

OPERATIONS = {
    "legal-cards": "/v1/tricks/legal-cards",
    "winner": "/v1/tricks/winner",
    "score": "/v1/deals/score",
    "evaluate": "/v1/deals/evaluate",
}
"""The kit's operations and the paths the service answers them at."""


class ServiceError(Exception):
    """The service refused a request the kit built: a fault of the kit's building, or of the service."""


@functools.cache
def _client() -> FlaskClient:
    return create_app({"TESTING": True}).test_client()


def answer(operation: str, request: Any) -> Any:
    """The service's answer (JSON) to ``request`` posed to ``operation`` (a key of OPERATIONS)."""
    response = _client().post(OPERATIONS[operation], json=request)
    if response.status_code != 200:
        raise ServiceError(f"{operation}: {response.status_code} {response.get_json()} for {json.dumps(request)}")
    return response.get_json()
