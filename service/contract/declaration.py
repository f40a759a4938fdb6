"""How an operation of the contract is declared: its id, path and name in the conformance kit,
its schemas, the plan that loads its requests, how it answers one, and its examples.

An operation's examples are data, ``examples/<operationId>.json`` beside this module (shipped
with the package): each a summary, a request and the answer the service gives it, written by
``python -m service.spec --answers``. The contract shows them (each request, and its answer as
the 200's example), Swagger's "Try it out" sends them, and tests post every one of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, NamedTuple

import marshmallow as ma

from service.messages import msg
from service.rules.deal import Evaluation
from service.rules.play import LegalReason
from service.rules.scoring import Contract
from service.texts import DEFAULT_LANGUAGE

from .common import StrictSchema
from .plans import LoadPlan
from .problems import ProblemError, errors_from_messages

EXAMPLES = "examples"
"""The directory of the examples' files, in this package."""


class Decided(NamedTuple):
    """What the rules decided for one request, as the service's metrics and access log count it
    (a named tuple: one is made per deal of a batch, and costs less so than a frozen dataclass)."""

    legal_reason: LegalReason | None = None
    scored: tuple[Contract, bool] | None = None
    """A deal scored from its summary: its contract, and whether the taker's side won."""
    evaluation: Evaluation | None = None
    claims_agree: bool | None = None
    """Whether the claims sent with a deal all agreed; None when none were sent."""


NOTHING_DECIDED = Decided()


class Answered(NamedTuple):
    """An operation's answer (JSON data), and what the rules decided on the way."""

    answer: dict[str, Any]
    decided: Decided = NOTHING_DECIDED


Answer = Callable[..., Answered]
"""A loaded request, the language of the texts for people, and the operation's own options
(keywords) → its :class:`Answered`."""


class Example(NamedTuple):
    summary: str
    request: Any
    answer: Any
    """What the service answers to ``request``, in English, as JSON data."""


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


def read_examples(operation_id: str) -> dict[str, Example]:
    """An operation's examples, by name, in their file's order."""
    text = files(__package__).joinpath(EXAMPLES, f"{operation_id}.json").read_text(encoding="utf-8")
    return {name: Example(**example) for name, example in json.loads(text).items()}


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
    kit_name: str | None
    """Its name in the conformance kit (the directory of its cases); None when the kit has no cases of it."""
    request_schema: StrictSchema
    response_schema: ma.Schema
    answer: Answer
    plan: LoadPlan = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plan", LoadPlan(self.request_schema))

    @property
    def examples(self) -> dict[str, Example]:
        """Its examples, read from their file (each time: ``make spec`` rewrites their answers)."""
        return read_examples(self.operation_id)

    def respond(self, data: Any, language: str = DEFAULT_LANGUAGE, **options: Any) -> Answered:
        """The answer to a parsed request body: :class:`ProblemError` (422) when it is not valid."""
        return self.answer(load(self.plan, data), language, **options)
