"""Claims: what a client's own engine computed for a deal, checked against the service's answer.

A team replaying recorded games sends, with each deal, what its engine found (``claims``):
validity, trick winners, the attack's card points and oudlers, the partner, every seat's
score, the first fault and, for a complete faulty deal, the ruling. The answer says whether
they all agree, and locates each one that does not by a JSON pointer into the request
(``/claims/trick_winners/7``), with the claimed and the correct value side by side. Claims
left out are not checked.

A complete faulty deal's score is its ruling's (rules.md §14: what a score sheet writes), so
an engine that rules as the Code of Arbitration does claims those marks; one that claims the
marks as the cards fell is told so, the ruling named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from marshmallow import fields

from service.messages import Arg, Message, Points, Signed, SignedList, Term, msg
from service.rules.cards import OUDLERS, count
from service.rules.deal import Evaluation
from service.rules.scoring import TOTAL_HALF
from service.rules.table import LARGEST_HAND, MAX_PLAYERS
from service.texts import DEFAULT_LANGUAGE, render

from .common import AnswerSchema, StrictSchema, fail, seat_field
from .fields import BoundedList, EnumField, HalfPoints, Length, Range, StrictBoolean, StrictInteger, StrictNested


class ClaimedViolationSchema(StrictSchema):
    code = EnumField("ViolationCode", required=True)
    trick = StrictInteger(
        required=True,
        allow_none=True,
        validate=Range(min=0, max=LARGEST_HAND - 1),
        metadata={"description": "Trick index, from 0; null for a fault outside the play (a bid, the discard)."},
    )
    seat = seat_field("The seat at fault; null when no one seat is.", required=True, allow_none=True)


class ClaimedRulingSchema(StrictSchema):
    decision = EnumField("Decision", required=True)
    side_at_fault = EnumField(
        "AtFault",
        required=True,
        allow_none=True,
        metadata={"description": "Null when the irregularity is no fault, or the cards are dealt again."},
    )


class ClaimsSchema(StrictSchema):
    """What the client's engine computed; each field is optional and checked only when given."""

    valid = StrictBoolean(metadata={"description": "The deal breaks no rule (so far, in progress)."})
    trick_winners = BoundedList(
        seat_field("A trick's winner."),
        validate=Length(max=LARGEST_HAND),
        metadata={"description": "The winner of every complete trick, in order (an unfinished last trick left out)."},
    )
    points = HalfPoints(
        validate=lambda half: 0 <= half <= TOTAL_HALF or fail("range", msg("error.range.points")),
        allow_none=True,
        metadata={
            "minimum": 0,
            "maximum": 91,
            "multipleOf": 0.5,
            "description": "The attack's card points, 0–91 in steps of 0.5; null: none counted (a redeal).",
        },
    )
    oudlers = StrictInteger(
        validate=Range(min=0, max=count(OUDLERS)),
        allow_none=True,
        metadata={"description": "The attack's oudlers; null: none counted."},
    )
    partner = seat_field(
        "Five players: the called partner's seat; null when the taker called himself.", allow_none=True
    )
    scores = BoundedList(
        StrictInteger(),
        validate=Length(max=MAX_PLAYERS),
        allow_none=True,
        metadata={
            "description": "Every seat's mark for the deal, seat 0 first: for a complete faulty deal, the marks "
            "after its ruling (`ruling.scores`, what a score sheet writes); null: the deal has no score."
        },
    )
    first_violation = StrictNested(
        ClaimedViolationSchema,
        allow_none=True,
        metadata={"description": "A faulty deal: its first fault (code, trick, seat); null: the deal has none."},
    )
    ruling = StrictNested(
        ClaimedRulingSchema,
        allow_none=True,
        metadata={
            "description": "A complete faulty deal: the ruling of the Code of Arbitration (rules.md §14), its "
            "decision and the side at fault; null: the deal has none (valid, or unfinished)."
        },
    )


class MismatchSchema(AnswerSchema):
    pointer = fields.String(
        required=True, metadata={"description": "JSON pointer to the claim in the deal record, e.g. `/claims/points`."}
    )
    claimed = fields.Raw(required=True, metadata={"description": "The value claimed, as sent."})
    correct = fields.Raw(required=True, metadata={"description": "The value by the rules (null: none applies)."})
    message = fields.String(required=True)


class ClaimsResultSchema(AnswerSchema):
    agree = StrictBoolean(required=True, metadata={"description": "Every claim given matches the rules."})
    mismatches = fields.List(fields.Nested(MismatchSchema), required=True)


def _halved(half_points: int | None) -> float | None:
    # As it was sent: 40 stays 40, 40.5 stays 40.5.
    if half_points is None:
        return None
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def true_claims_of(ev: Evaluation, players: int) -> dict[str, Any]:
    """Every claim as the evaluation ``ev`` (of a deal at ``players``) makes it true: what an
    engine that agrees with the rules would claim. Read from the evaluation, not from an
    answer, which may not carry every part the claims are about (the digest)."""
    first = ev.violations[0] if ev.violations else None
    return {
        "valid": ev.valid,
        # A trick still in progress shows who is winning it so far: not a trick won yet.
        "trick_winners": [t.winner for t in ev.tricks if len(t.cards) == players],
        # 40, not 40.0: points as an engine writes them.
        "points": _halved(None if ev.points_half is None else ev.points_half[0]),
        "oudlers": None if ev.oudlers is None else ev.oudlers[0],
        "partner": ev.partner,
        # A complete faulty deal's marks are its ruling's: what a score sheet writes.
        "scores": list(ev.ruling.scores) if ev.ruling else None if ev.score is None else list(ev.score.scores),
        "first_violation": None if first is None else {"code": first.code, "trick": first.trick, "seat": first.seat},
        "ruling": None
        if ev.ruling is None
        else {"decision": ev.ruling.decision, "side_at_fault": ev.ruling.side_at_fault},
    }


def as_played_of(ev: Evaluation) -> list[int] | None:
    """A complete faulty deal's marks as the cards fell, which its ruling may change."""
    return None if ev.ruling is None else list(ev.ruling.as_played.scores)


def _seat_words(seat: int | None) -> Message:
    return msg("claim.no_one") if seat is None else msg("claim.seat", seat=seat)


def _points(value: float | None) -> Points | Message:
    return msg("claim.null") if value is None else Points(round(value * 2))


def _count(value: int | None) -> int | Message:
    return msg("claim.null") if value is None else value


_FIRST_VIOLATION_WORDS: dict[str, Callable[[Any], Arg]] = {
    "code": lambda code: Term("violation", code),
    "trick": _count,
    "seat": _seat_words,
}
_RULING_WORDS: dict[str, Callable[[Any], Arg]] = {
    "decision": lambda decision: Term("decision", decision),
    "side_at_fault": lambda side: Term("at_fault", side or "none"),
}
_RULING_KEYS = {"decision": "claim.ruling.decision", "side_at_fault": "claim.ruling.side_at_fault"}
_FIRST_VIOLATION_KEYS = {
    "code": "claim.first_violation.code",
    "trick": "claim.first_violation.trick",
    "seat": "claim.first_violation.seat",
}


class Mismatches:
    """Claims that differ from the truth, each located by its pointer and said in ``language``:
    a deal's claims here, a score sheet's in :mod:`.games`."""

    def __init__(self, language: str) -> None:
        self.mismatches: list[dict[str, Any]] = []
        self.language = language

    def differ(self, pointer: str, claimed: Any, correct: Any, message: Message) -> None:
        text = render(message, self.language)
        self.mismatches.append({"pointer": pointer, "claimed": claimed, "correct": correct, "message": text})


class _Check(Mismatches):
    def winners(self, claimed: Sequence[int], correct: list[int]) -> None:
        for i, (mine, right) in enumerate(zip(claimed, correct, strict=False)):
            if mine != right:
                message = msg("claim.trick_winner", trick=i, correct=right, claimed=mine)
                self.differ(f"/claims/trick_winners/{i}", mine, right, message)
        if len(claimed) != len(correct):
            self.differ(
                "/claims/trick_winners",
                list(claimed),
                correct,
                msg("claim.trick_winners", len(claimed), complete=len(correct)),
            )

    def scores(
        self, claimed: list[int] | None, correct: list[int] | None, ruling: dict[str, Any] | None, as_played: Any
    ) -> None:
        if ruling is not None and claimed == as_played and claimed != correct:
            # The marks as the cards fell, where a sheet writes the ruling's: said as one.
            decision = Term("decision", ruling["decision"])
            message = msg("claim.scores.as_played", marks=SignedList(tuple(correct or ())), decision=decision)
            self.differ("/claims/scores", claimed, correct, message)
            return
        if claimed is not None and correct is not None and len(claimed) == len(correct):
            for seat, (mine, right) in enumerate(zip(claimed, correct, strict=True)):
                if mine != right:
                    message = msg("claim.score", seat=seat, correct=Signed(right), claimed=Signed(mine))
                    self.differ(f"/claims/scores/{seat}", mine, right, message)
        elif claimed != correct:
            said = msg("claim.scores", marks=SignedList(tuple(correct))) if correct is not None else None
            self.differ("/claims/scores", claimed, correct, said or msg("claim.scores.none"))

    def first_violation(self, claimed: dict[str, Any] | None, correct: dict[str, Any] | None) -> None:
        if claimed is None or correct is None:
            if claimed != correct:
                message = (
                    msg("claim.first_violation.none")
                    if correct is None
                    else msg("claim.first_violation", code=Term("violation", correct["code"]))
                )
                self.differ("/claims/first_violation", claimed, correct, message)
            return
        # Each in words: the fault's name, the trick (said from 1) or none, the seat or no one.
        self._parts("/claims/first_violation", claimed, correct, _FIRST_VIOLATION_KEYS, _FIRST_VIOLATION_WORDS)

    def ruling(self, claimed: dict[str, Any] | None, correct: dict[str, Any] | None) -> None:
        if claimed is None or correct is None:
            if claimed != correct:
                message = msg("claim.ruling.none") if correct is None else msg("claim.ruling.some")
                self.differ("/claims/ruling", claimed, correct, message)
            return
        self._parts("/claims/ruling", claimed, correct, _RULING_KEYS, _RULING_WORDS)

    def _parts(
        self,
        pointer: str,
        claimed: dict[str, Any],
        correct: dict[str, Any],
        keys: dict[str, str],
        words: dict[str, Callable[[Any], Arg]],
    ) -> None:
        """Each part of a claimed object that differs, at its pointer, said with its key's message and
        its words (in the order of ``keys``)."""
        for key, catalog_key in keys.items():
            if claimed[key] != correct[key]:
                said = words[key]
                message = msg(catalog_key, correct=said(correct[key]), claimed=said(claimed[key]))
                self.differ(f"{pointer}/{key}", claimed[key], correct[key], message)


def check_claims(
    claims: dict[str, Any],
    right: dict[str, Any],
    partner_known: bool = True,
    language: str = DEFAULT_LANGUAGE,
    as_played: list[int] | None = None,
) -> dict[str, Any]:
    """``claims`` (as loaded) against ``right`` (the true claims of the deal, :func:`true_claims_of`):
    agreement and mismatches, said in ``language``. ``partner_known``: False while a five-player
    deal given without its hands has not shown the called card yet; a partner claimed then is
    not checked. ``as_played``: a complete faulty deal's marks as played, to name the ruling
    when those are claimed."""
    check = _Check(language)
    if "valid" in claims and claims["valid"] != right["valid"]:
        message = msg("claim.valid") if right["valid"] else msg("claim.faulty")
        check.differ("/claims/valid", claims["valid"], right["valid"], message)
    if "trick_winners" in claims:
        check.winners(claims["trick_winners"], right["trick_winners"])
    if "points" in claims:
        claimed, correct = _halved(claims["points"]), right["points"]
        if claimed != correct:
            message = (
                msg("claim.points.none")
                if correct is None
                else msg("claim.points", correct=_points(correct), claimed=_points(claimed))
            )
            check.differ("/claims/points", claimed, correct, message)
    if "oudlers" in claims and claims["oudlers"] != right["oudlers"]:
        check.differ(
            "/claims/oudlers",
            claims["oudlers"],
            right["oudlers"],
            msg("claim.oudlers.none")
            if right["oudlers"] is None
            else msg("claim.oudlers", right["oudlers"], claimed=_count(claims["oudlers"])),
        )
    if "partner" in claims and partner_known and claims["partner"] != right["partner"]:
        check.differ(
            "/claims/partner",
            claims["partner"],
            right["partner"],
            msg("claim.partner", correct=_seat_words(right["partner"]), claimed=_seat_words(claims["partner"])),
        )
    if "scores" in claims:
        check.scores(claims["scores"], right["scores"], right["ruling"], as_played)
    if "first_violation" in claims:
        check.first_violation(claims["first_violation"], right["first_violation"])
    if "ruling" in claims:
        check.ruling(claims["ruling"], right["ruling"])
    return {"agree": not check.mismatches, "mismatches": check.mismatches}
