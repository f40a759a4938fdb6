"""An operation of the contract: its schemas, the plan that loads its requests, its examples,
and how it answers a loaded request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import marshmallow as ma

from service.messages import msg
from service.texts import DEFAULT_LANGUAGE

from .common import StrictSchema
from .plans import LoadPlan
from .problems import ProblemError, errors_from_messages

Answer = Callable[[dict[str, Any], str], dict[str, Any]]
"""A loaded request and the language of the texts for people → the answer, as JSON data."""


def load(plan: LoadPlan, data: Any) -> Any:
    """``data`` through a request schema's plan: a 422 problem with one located error per fault."""
    try:
        return plan.load(data)
    except ma.ValidationError as exc:
        raise ProblemError(
            422,
            "invalid-request",
            msg("error.invalid_request"),
            errors_from_messages(exc.messages),
        ) from None


@dataclass(frozen=True)
class Operation:
    """One operation of the contract, by its ``operationId`` (clients name methods after it).

    Everything that serves it (the HTTP view, the command line, the conformance kit's
    generator) loads its requests with :attr:`plan`, which stands in for
    ``request_schema.load``, and answers with :attr:`answer`, whose JSON the response schema
    describes; tests hold both fast paths to their schemas, operation by operation.
    """

    operation_id: str
    path: str
    request_schema: StrictSchema
    response_schema: ma.Schema
    examples: dict[str, dict[str, Any]]
    answer: Answer
    plan: LoadPlan = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plan", LoadPlan(self.request_schema))

    def respond(self, data: Any, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The answer to a parsed request body: :class:`ProblemError` (422) when it is not valid."""
        return self.answer(load(self.plan, data), language)
