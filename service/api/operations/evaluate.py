"""The deal evaluation operation (rules.md §2–§9): POST /v1/deals/evaluate."""

from __future__ import annotations

from typing import Any

import flask
from flask import Response
from flask_smorest import Blueprint

from service.contract.components import DETAILS, SUMMARY
from service.contract.evaluate import DIGEST, EVALUATE
from service.contract.jsonio import dumps
from service.contract.openapi import DETAIL

from ..parsing import answer, operation, query_choice

blp = Blueprint("evaluation", __name__, description="Evaluating a whole deal record, complete or in progress.")


def requested_detail(req: flask.Request) -> str:
    """The ``detail`` the request asks for (``full`` when it says nothing): 400 for another value."""
    return query_choice(req, "detail", DETAILS, DETAIL)


@operation(
    blp,
    EVALUATE,
    parameters=(DETAIL,),
    doc={"responses": {200: {"content": {DIGEST: {"schema": {"$ref": "#/components/schemas/DealDigest"}}}}}},
)
def post_evaluate(req: dict[str, Any]) -> dict[str, Any] | Response:
    """Evaluate a whole deal, complete or in progress.

    Checks the deal against the rules and reports every fault in deal order, each located at
    its trick and seat (`violations`); replays the tricks with their winners (the Excuse takes
    the last trick of a chelem, §7); settles the Excuse (§8); counts each side's points and
    oudlers; and scores the deal (the same object as `POST /v1/deals/score`). A deal with any
    violation is `valid: false` with `score: null`. In progress, `next` is the seat to play and
    its legal cards. Without `hands`, a complete deal's hands are inferred from its plays, so a
    revoke is still proven when the seat later shows the suit it failed to follow.

    With `detail=summary` the answer is the deal's `DealDigest` instead, under its own media
    type (`application/vnd.tarot.deal-digest+json`), so that this operation's JSON answer
    keeps one type; batches carry the digest as a typed field of each item.
    """
    detail = requested_detail(flask.request)
    evaluated = answer(EVALUATE, req, detail=detail)
    return Response(dumps(evaluated), mimetype=DIGEST) if detail == SUMMARY else evaluated
