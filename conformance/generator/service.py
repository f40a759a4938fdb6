"""The one seam between the generator and the service: every question the kit asks goes here.

The service is asked in process, through its contract (:mod:`service.contract`): the same
load and the same answer as over HTTP, without a web framework.
"""

from __future__ import annotations

import json
from typing import Any

from service.contract.declaration import Operation
from service.contract.evaluate import EVALUATE
from service.contract.games import SCORE_GAME
from service.contract.jsonio import dumps
from service.contract.problems import ProblemError
from service.contract.scoring import SCORE
from service.contract.tricks import LEGAL_CARDS, WINNER

OPERATIONS: dict[str, Operation] = {
    "legal-cards": LEGAL_CARDS,
    "winner": WINNER,
    "score": SCORE,
    "evaluate": EVALUATE,
    "score-game": SCORE_GAME,
}
"""The kit's operations and the contract's operation each one names."""


class ServiceError(Exception):
    """The service refused a request the kit built: a fault of the kit's building, or of the service."""


def answer(operation: str, request: Any) -> Any:
    """The service's answer (JSON) to ``request`` posed to ``operation`` (a key of OPERATIONS)."""
    try:
        answered = OPERATIONS[operation].respond(request).answer
    except ProblemError as exc:
        codes = [(e.pointer, e.code) for e in exc.errors]
        raise ServiceError(f"{operation}: {exc.status} {codes} for {json.dumps(request)}") from None
    # As sent: through JSON, which writes the core's enums as their values.
    return json.loads(dumps(answered))
