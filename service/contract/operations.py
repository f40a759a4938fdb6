"""Every operation of the contract, declared once: its id, path, name in the conformance kit,
schemas, examples and answer (:class:`~.declaration.Operation`). What serves them, the kit's
generator and runner, the command line's batch client, the docs and the tests that hold each
fast path to its schema all read them from here, so that none is forgotten or named twice."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from .batch import EVALUATE_BATCH
from .dealing import DEAL_CARDS
from .declaration import Operation
from .duplicate_movement import DUPLICATE_MOVEMENT
from .duplicate_standings import DUPLICATE_STANDINGS
from .evaluate import EVALUATE
from .games import SCORE_GAME
from .scoring import SCORE
from .seating import SEAT_TOURNAMENT
from .standings import STANDINGS
from .tricks import LEGAL_CARDS, WINNER

OPERATIONS: dict[str, Operation] = {
    op.operation_id: op
    for op in (
        LEGAL_CARDS,
        WINNER,
        DEAL_CARDS,
        SCORE,
        EVALUATE,
        EVALUATE_BATCH,
        SCORE_GAME,
        STANDINGS,
        SEAT_TOURNAMENT,
        DUPLICATE_MOVEMENT,
        DUPLICATE_STANDINGS,
    )
}
"""By ``operationId``, in the order the contract lists them."""

IN_THE_KIT: dict[str, Operation] = {op.kit_name: op for op in OPERATIONS.values() if op.kit_name is not None}
"""The operations the conformance kit has cases of, by their name there, in the same order."""


def requested(data: Any) -> list[Operation]:
    """The operations ``data`` is a valid request of, in the contract's order (what a body is,
    for a reader that was given one of unknown kind)."""
    found = []
    for op in OPERATIONS.values():
        try:
            op.plan.load(data)
        except ma.ValidationError:
            continue
        found.append(op)
    return found
