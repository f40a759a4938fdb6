"""Every operation of the contract, by ``operationId``: what serves them all, and the tests
that hold each fast path to its schema, read them from here, so that none is forgotten."""

from __future__ import annotations

from .batch import EVALUATE_BATCH
from .evaluate import EVALUATE
from .games import SCORE_GAME
from .operation import Operation
from .scoring import SCORE
from .tricks import LEGAL_CARDS, WINNER

OPERATIONS: dict[str, Operation] = {
    op.operation_id: op for op in (LEGAL_CARDS, WINNER, SCORE, EVALUATE, EVALUATE_BATCH, SCORE_GAME)
}
