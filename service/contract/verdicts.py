"""The verdicts on a deal as answered: its violations, the Code of Arbitration's ruling on a
faulty complete deal (rules.md §14), and the parts of the record it leaves out that were not
checked (rules.md §12). A deal's evaluation, a game's sheet and a tournament's cards answer them
alike.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from service.rules.arbitration import SECTION, Ruling
from service.rules.deal import Evaluation
from service.rules.verdicts import Unchecked, Violation
from service.texts import render

from .cards import code, codes_of
from .common import AnswerSchema
from .fields import CardField, CardList, EnumField, StrictInteger, StrictString


class ViolationSchema(AnswerSchema):
    code = EnumField("ViolationCode", required=True)
    message = StrictString(
        required=True,
        metadata={
            "description": "The fault for people, with its specifics (the card, the seat, the trump to beat), "
            "in the language asked for (`Accept-Language`)."
        },
    )
    trick = StrictInteger(required=True, allow_none=True, metadata={"description": "Trick index, from 0."})
    seat = StrictInteger(required=True, allow_none=True)
    card = CardField(required=True, allow_none=True)
    legal = CardList(
        required=True, allow_none=True, metadata={"description": "For a card played illegally: the legal cards."}
    )
    caused_by = StrictInteger(
        required=True,
        allow_none=True,
        metadata={
            "description": "Null for a root fault. Otherwise the index, in this `violations` list, of the earlier "
            "root fault this one follows from (a consequence: rules.md §12). Reports lead with the roots."
        },
    )


class RulingSchema(AnswerSchema):
    """The Code of Arbitration's ruling on a complete deal with violations (rules.md §14)."""

    decision = EnumField("Decision", required=True)
    reason = EnumField("RulingReason", required=True, metadata={"description": "The row of §14's table it rests on."})
    side_at_fault = EnumField(
        "AtFault",
        required=True,
        allow_none=True,
        metadata={
            "description": "Null when the irregularity is no fault (a covered lead) or the cards are dealt again."
        },
    )
    faults = fields.List(
        StrictInteger(),
        required=True,
        metadata={"description": "Indexes, in `violations`, of the root faults the ruling rests on."},
    )
    as_played_scores = fields.List(
        StrictInteger(),
        required=True,
        metadata={
            "description": "Every seat's mark as the cards fell, seat 0 first, every poignée at the tier its cards "
            "reach (zero-sum)."
        },
    )
    scores = fields.List(
        StrictInteger(),
        required=True,
        metadata={"description": "Every seat's mark after the ruling: all 0 when void or dealt again (zero-sum)."},
    )
    message = StrictString(
        required=True, metadata={"description": "The ruling in words, in the language asked for (`Accept-Language`)."}
    )
    section = StrictString(required=True, metadata={"description": "The section of rules.md the row is stated in."})


def ruling_field() -> fields.Nested:
    """The ruling of the answer and of the digest alike: null but for a complete faulty deal."""
    return fields.Nested(
        RulingSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "A complete deal with violations: the ruling of the Code of Arbitration, and so its "
            "final score (§14). Null otherwise."
        },
    )


class NotCheckedSchema(AnswerSchema):
    code = EnumField("Unchecked", required=True)
    pointer = StrictString(
        required=True,
        metadata={"description": "The JSON pointer, into the request, of the part the record leaves out."},
    )
    message = StrictString(
        required=True,
        metadata={
            "description": "What was not checked, or how the part was read, in the language asked for "
            "(`Accept-Language`)."
        },
    )


def unchecked_field() -> fields.List[Any]:
    return fields.List(
        fields.Nested(NotCheckedSchema),
        required=True,
        metadata={
            "description": "The parts of the record it leaves out that the evaluation needed (rules.md §12, "
            '"What a record leaves out"): missing data is never a fault. A part the record proves (the dog from '
            "whole hands, the discard from a complete deal) is told and checked and not listed here; each part "
            "listed says what was not checked without it, or how it was read."
        },
    )


UNCHECKED_POINTER: dict[Unchecked, str] = {
    Unchecked.DEALT_HANDS: "/hands",
    Unchecked.DOG: "/dog",
    Unchecked.DISCARD: "/discard",
    Unchecked.AUCTION: "/bids",
    Unchecked.CHELEM_ANNOUNCEMENT: "/chelem_announced",
}
"""Where, in the request, each part left out would have been."""


def unchecked_of(ev: Evaluation, language: str) -> list[dict[str, Any]]:
    return [
        {"code": u.code, "pointer": UNCHECKED_POINTER[u.code], "message": render(u.message, language)}
        for u in ev.unchecked
    ]


def violation_of(v: Violation, language: str) -> dict[str, Any]:
    return {
        "code": v.code,
        "message": render(v.message, language),
        "trick": v.trick,
        "seat": v.seat,
        "card": code(v.card),
        "legal": codes_of(v.legal),
        "caused_by": v.caused_by,
    }


def dump_ruling(ruling: Ruling, language: str) -> dict[str, Any]:
    return {
        "decision": ruling.decision,
        "reason": ruling.reason,
        "side_at_fault": ruling.side_at_fault,
        "faults": list(ruling.faults),
        "as_played_scores": list(ruling.as_played.scores),
        "scores": list(ruling.scores),
        "message": render(ruling.message, language),
        "section": SECTION[ruling.reason],
    }
