"""The one seam between the generator and the service: every question the kit asks goes here.

The service is asked in process, through its contract (:mod:`service.contract`): the same
load and the same answer as over HTTP, without a web framework.
"""

from __future__ import annotations

import json
from typing import Any

from service.contract.declaration import Operation
from service.contract.jsonio import dumps
from service.contract.operations import IN_THE_KIT
from service.contract.problems import ProblemError

OPERATIONS: dict[str, Operation] = IN_THE_KIT
"""The kit's operations, by their name there: the contract declares each (its path, its answer)."""


class ServiceError(Exception):
    """The service refused a request the kit built: a fault of the kit's building, or of the service."""


def refusal(operation: str, request: Any) -> tuple[int, list[str]]:
    """The status and the faults' pointers of the service's refusal of ``request``; :class:`ServiceError`
    when it answers it."""
    try:
        OPERATIONS[operation].respond(request)
    except ProblemError as exc:
        return exc.status, [e.pointer for e in exc.errors]
    raise ServiceError(f"{operation}: answered, where a refusal is expected, {json.dumps(request)}")


def answer(operation: str, request: Any) -> Any:
    """The service's answer (JSON) to ``request`` posed to ``operation`` (a key of OPERATIONS)."""
    try:
        answered = OPERATIONS[operation].respond(request).answer
    except ProblemError as exc:
        codes = [(e.pointer, e.code) for e in exc.errors]
        raise ServiceError(f"{operation}: {exc.status} {codes} for {json.dumps(request)}") from None
    # As sent: through JSON, which writes the core's enums as their values.
    return json.loads(dumps(answered))
