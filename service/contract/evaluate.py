"""The deal evaluation operation (rules.md §2–§9): POST /v1/deals/evaluate."""

from __future__ import annotations

from collections import Counter
from typing import Any

from marshmallow import fields

from service.messages import msg
from service.rules.cards import DECK_SIZE
from service.rules.deal import Evaluation, Status, evaluate_deal
from service.rules.record import DealRecord, PoigneeShown
from service.rules.scoring import Contract, contract_named
from service.rules.table import MAX_PLAYERS, MIN_PLAYERS, TABLES
from service.rules.variants import Rules
from service.texts import DEFAULT_LANGUAGE, render

from .cards import codes, codes_of
from .claims import ClaimsResultSchema, ClaimsSchema, as_played_of, check_claims, true_claims_of
from .common import (
    IF_LOADED,
    AnswerSchema,
    Errors,
    StrictSchema,
    called_card_field,
    players_field,
    rules_field,
    seat_error,
    seat_field,
)
from .components import FULL, SUMMARY, bids_accepted, contracts_accepted
from .declaration import Answered, Decided, Operation
from .fields import (
    BoundedList,
    CardList,
    EnumField,
    Length,
    Range,
    StrictBoolean,
    StrictInteger,
    StrictNested,
    StrictString,
)
from .scoring import ScoreResponse, check_contract, dump_score
from .verdicts import (
    ViolationSchema,
    dump_ruling,
    ruling_field,
    unchecked_field,
    unchecked_of,
    violation_of,
)

PASS = "pass"
DIGEST = "application/vnd.tarot.deal-digest+json"
"""The media type of a single deal's digest (``detail=summary``): its own, so that the
operation's JSON answer keeps one type in every generated client."""


def cards(description: str, max_items: int, **kwargs: Any) -> fields.List[Any]:
    # No uniqueItems and no table-size limits here: a card dealt or played twice, or a hand
    # of the wrong size, is a verdict about the deal (a violation in a 200 answer), not a
    # malformed request. The deck's 78 cards bound every list.
    return CardList(validate=Length(max=max_items), metadata={"description": description}, **kwargs)


class PoigneeDeclaredSchema(StrictSchema):
    seat = seat_field("The seat that showed it.", required=True)
    cards = cards("The trumps shown (the Excuse only in place of a trump the player lacks).", DECK_SIZE, required=True)
    shown_at = StrictInteger(
        load_default=None,
        validate=Range(min=0, max=DECK_SIZE),
        metadata={
            "description": "How many cards of the deal (`plays`) had been played when it was shown. Absent or "
            "null: before its owner's first card, as §9.5 asks. Later is `poignee_late`, which the ruling reads "
            "(§14.6): just after the owner's first card, before the next card, is counted as normal."
        },
    )


ID_MAX_LENGTH = 200


def record_id_field() -> StrictString:
    return StrictString(
        load_default=None,
        validate=Length(max=ID_MAX_LENGTH),
        metadata={"description": "The client's name for this deal (a game id, a file and line), echoed in the answer."},
    )


class EvaluateRequest(StrictSchema):
    id = record_id_field()
    players = players_field()
    dealer = seat_field("The dealer's seat; the seat after it bids and leads first.", required=True)
    hands = BoundedList(
        cards("A hand as dealt, before the dog.", DECK_SIZE),
        allow_none=True,
        load_default=None,
        validate=Length(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={
            "description": "Every seat's hand as dealt, seat 0 first. Optional, as every part of a record: "
            "without it each seat's hand is the cards it plays, and `unchecked` says what is then not checked "
            "(§12)."
        },
    )
    dog = cards(
        "The dog (chien) as dealt. Optional: with whole hands, it is the cards no hand holds (§12).",
        DECK_SIZE,
        allow_none=True,
        load_default=None,
    )
    contract = EnumField(
        "Contract",
        contracts_accepted,
        allow_none=True,
        load_default=None,
        metadata={"description": "The contract (with `taker`), or give `bids`."},
    )
    taker = seat_field("The taker's seat (with `contract`).", allow_none=True, load_default=None)
    bids = BoundedList(
        EnumField("Bid", bids_accepted),
        allow_none=True,
        load_default=None,
        # Room past one bid per seat, so that a wrong count is a verdict (bid_order), not a 422.
        validate=Length(max=2 * MAX_PLAYERS),
        metadata={"description": "One bid per seat in speaking order from the dealer's right: `pass` or a contract."},
    )
    called_card = called_card_field("Five players: the card the taker called.")
    discard = cards(
        "The taker's discard (écart): prise and garde only. Optional: a complete deal proves it, the cards it "
        "left unplayed; in a deal in progress it is not checked (§12).",
        DECK_SIZE,
        allow_none=True,
        load_default=None,
    )
    chelem_announced = StrictBoolean(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Whether the taker announced a chelem (§9.6). Absent or null: the record does not say, "
            "and it is read from the first lead: announced when the hands show the taker leading the first trick "
            "while another seat was due to (`unchecked` then says so), else not announced (§12)."
        },
    )
    poignees = BoundedList(StrictNested(PoigneeDeclaredSchema), load_default=list, validate=Length(max=MAX_PLAYERS))
    plays = cards("Every card in play order, trick after trick.", DECK_SIZE, load_default=list)
    rules = rules_field()
    claims = StrictNested(
        ClaimsSchema,
        load_default=None,
        metadata={
            "description": "What the client's own engine computed for this deal, to be checked (`claims` answer)."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            seat_error(errors, ("dealer",), data["dealer"], data["players"])
        with IF_LOADED:
            seat_error(errors, ("taker",), data["taker"], data["players"])
        with IF_LOADED:
            if data["hands"] is not None and len(data["hands"]) != data["players"]:
                errors.add(("hands",), "hands_count", msg("error.hands_count", data["players"]))
        with IF_LOADED:
            if data["bids"] is None:
                for name in ("contract", "taker"):
                    if data[name] is None:
                        errors.add((name,), "required", msg("error.required.contract_or_bids"))
            elif (data["contract"] is None) != (data["taker"] is None):
                missing = "taker" if data["taker"] is None else "contract"
                errors.add((missing,), "required", msg("error.required.contract_and_taker"))
        with IF_LOADED:
            if data["contract"] is not None:
                check_contract(data["contract"], data["rules"], errors, ("contract",))
        with IF_LOADED:
            for i, bid in enumerate(data["bids"] or ()):
                if bid != PASS:
                    check_contract(bid, data["rules"], errors, ("bids", i))
        with IF_LOADED:
            self._check_call(data, errors)
        with IF_LOADED:
            claims, n = data["claims"], data["players"]
            if claims is not None:
                # A claimed seat is a seat too: beyond the table, the claim is refused, as a taker would be.
                seat_error(errors, ("claims", "partner"), claims.get("partner"), n)
                for i, seat in enumerate(claims.get("trick_winners") or ()):
                    seat_error(errors, ("claims", "trick_winners", i), seat, n)
                if claims.get("first_violation") is not None:
                    seat_error(errors, ("claims", "first_violation", "seat"), claims["first_violation"]["seat"], n)
        with IF_LOADED:
            n = data["players"]
            cards_played = TABLES[n].players * TABLES[n].tricks
            for i, p in enumerate(data["poignees"]):
                seat_error(errors, ("poignees", i, "seat"), p["seat"], n)
                if p["shown_at"] is not None and p["shown_at"] > cards_played:
                    # Beyond the deal's last card: no moment of this deal.
                    errors.add(("poignees", i, "shown_at"), "range", msg("error.range.max", max=cards_played))
        errors.raise_any()

    @staticmethod
    def _check_call(data: dict[str, Any], errors: Errors) -> None:
        n, called = data["players"], data["called_card"]
        if called is not None and n != 5:
            errors.add(("called_card",), "called_card_not_allowed", msg("error.called_card_not_allowed"))
        all_passed = data["bids"] is not None and all(bid == PASS for bid in data["bids"])
        if called is None and n == 5 and not all_passed:
            # Only a taker calls (§5): when every seat passed, the deal is dealt again.
            errors.add(("called_card",), "required", msg("error.required.called_card"))


def _contract(name: str | None, rules: Rules) -> Contract | None:
    return None if name is None or name == PASS else contract_named(name, rules)


def record_of(req: dict[str, Any]) -> DealRecord:
    """The core's record of a loaded request (card lists as tuples, contracts named)."""
    rules, hands, dog, bids, discard = req["rules"], req["hands"], req["dog"], req["bids"], req["discard"]
    return DealRecord(
        players=req["players"],
        dealer=req["dealer"],
        plays=tuple(req["plays"]),
        hands=None if hands is None else tuple(map(tuple, hands)),
        dog=None if dog is None else tuple(dog),
        contract=_contract(req["contract"], rules),
        taker=req["taker"],
        bids=None if bids is None else tuple(_contract(b, rules) for b in bids),
        called_card=req["called_card"],
        discard=None if discard is None else tuple(discard),
        chelem_announced=req["chelem_announced"],
        poignees=tuple(PoigneeShown(p["seat"], tuple(p["cards"]), p["shown_at"]) for p in req["poignees"])
        if req["poignees"]
        else (),
        rules=rules,
    )


def nullable_side(description: str) -> EnumField:
    return EnumField("Side", required=True, allow_none=True, metadata={"description": description})


class TrickSchema(AnswerSchema):
    leader = StrictInteger(required=True)
    cards = CardList(required=True, metadata={"description": "In play order."})
    winner = StrictInteger(required=True, allow_none=True)


class ExchangeSchema(AnswerSchema):
    from_side = EnumField("Side", required=True)
    to_side = EnumField("Side", required=True)
    paid_at_trick = StrictInteger(
        required=True,
        allow_none=True,
        metadata={
            "description": "The trick at which the owner's side gave a half-point card. Null: not paid, "
            "still owed while the deal is in progress, settled on paper once it is complete."
        },
    )
    on_paper = StrictBoolean(
        required=True,
        metadata={
            "description": "Complete deal whose owner's side never won a trick: the Excuse counted 4 for it "
            "and the other side got the half point (rules.md §8.2)."
        },
    )


class ExcuseSchema(AnswerSchema):
    outcome = EnumField("ExcuseOutcome", required=True)
    played_by = StrictInteger(required=True, allow_none=True)
    trick = StrictInteger(required=True, allow_none=True)
    kept_by = nullable_side("The side that keeps the Excuse.")
    exchange = fields.Nested(ExchangeSchema, required=True, allow_none=True)


class SidesSchema(AnswerSchema):
    attack = fields.Float(required=True)
    defence = fields.Float(required=True)


class OudlersSchema(AnswerSchema):
    attack = StrictInteger(required=True)
    defence = StrictInteger(required=True)


class ChelemResultSchema(AnswerSchema):
    announced = StrictBoolean(required=True)
    made_by = nullable_side("The side that took every trick, or null.")


class PoigneeResultSchema(AnswerSchema):
    seat = StrictInteger(required=True)
    side = EnumField("Side", required=True)
    size = EnumField("PoigneeSize", required=True)


class NextSchema(AnswerSchema):
    seat = StrictInteger(required=True)
    legal = CardList(required=True, allow_none=True, metadata={"description": "Null when the hands are not known."})


class EvaluateResponse(AnswerSchema):
    id = StrictString(required=True, allow_none=True, metadata={"description": "The request's `id`, echoed."})
    status = EnumField("DealStatus", required=True)
    valid = StrictBoolean(required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    redeal_reason = EnumField("RedealReason", required=True, allow_none=True)
    redeal_message = StrictString(
        required=True,
        allow_none=True,
        metadata={"description": "Why the cards are dealt again, for people; null unless `status` is `redeal`."},
    )
    taker = StrictInteger(required=True, allow_none=True)
    contract = EnumField("Contract", required=True, allow_none=True)
    partner = StrictInteger(required=True, allow_none=True)
    attack = fields.List(StrictInteger(), required=True)
    tricks = fields.List(fields.Nested(TrickSchema), required=True)
    excuse = fields.Nested(ExcuseSchema, required=True, allow_none=True)
    points = fields.Nested(SidesSchema, required=True, allow_none=True)
    oudlers = fields.Nested(OudlersSchema, required=True, allow_none=True)
    petit_au_bout = nullable_side("The side that took the Petit au bout.")
    chelem = fields.Nested(ChelemResultSchema, required=True)
    poignees = fields.List(fields.Nested(PoigneeResultSchema), required=True)
    score = fields.Nested(ScoreResponse, required=True, allow_none=True)
    next = fields.Nested(NextSchema, required=True, allow_none=True)
    claims = fields.Nested(
        ClaimsResultSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The request's `claims` checked against this answer; null when none were sent."},
    )
    ruling = ruling_field()
    unchecked = unchecked_field()


class RootFaultSchema(ViolationSchema):
    index = StrictInteger(required=True, metadata={"description": "Its index in the full `violations` list."})
    consequences = StrictInteger(
        required=True, metadata={"description": "How many later violations follow from it (`caused_by` this one)."}
    )


class DealDigestSchema(AnswerSchema):
    """A deal's evaluation reduced to what a pipeline acts on (`detail=summary`)."""

    id = StrictString(required=True, allow_none=True, metadata={"description": "The record's `id`, echoed."})
    status = EnumField("DealStatus", required=True)
    valid = StrictBoolean(required=True)
    violations = fields.List(
        fields.Nested(RootFaultSchema),
        required=True,
        metadata={"description": "The root faults only, in deal order, each with its consequences counted."},
    )
    violation_count = StrictInteger(
        required=True, metadata={"description": "Every violation, consequences included (as `detail=full` lists them)."}
    )
    scores = fields.List(
        StrictInteger(),
        required=True,
        allow_none=True,
        metadata={"description": "Every seat's mark, seat 0 first; null when the deal has no score."},
    )
    claims = fields.Nested(
        ClaimsResultSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The request's `claims` checked; null when none were sent."},
    )
    ruling = ruling_field()
    unchecked = unchecked_field()


def digest_evaluation(ev: Evaluation, record_id: str | None = None, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The digest of an evaluation (``detail=summary``), without its claims (see :func:`answer_record`)."""
    roots = []
    if ev.violations:  # most deals have none: no counting then
        consequences = Counter(v.caused_by for v in ev.violations if v.caused_by is not None)
        roots = [
            {**violation_of(v, language), "index": i, "consequences": consequences[i]}
            for i, v in enumerate(ev.violations)
            if v.caused_by is None
        ]
    digest: dict[str, Any] = {
        "id": record_id,
        "status": ev.status,
        "valid": ev.valid,
        "violations": roots,
        "violation_count": len(ev.violations),
        "scores": None if ev.score is None else list(ev.score.scores),
        "claims": None,
        "ruling": None if ev.ruling is None else dump_ruling(ev.ruling, language),
        "unchecked": unchecked_of(ev, language),
    }
    return digest


def dump_evaluation(ev: Evaluation, record_id: str | None = None, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The answer to an evaluation, without its claims (see :func:`answer_record`)."""
    # The core's enums are StrEnums: orjson writes each as its value, so they go in as they are.
    x = ev.excuse
    return {
        "id": record_id,
        "status": ev.status,
        "valid": ev.valid,
        "violations": [violation_of(v, language) for v in ev.violations],
        "redeal_reason": ev.redeal_reason,
        "redeal_message": None if ev.redeal_message is None else render(ev.redeal_message, language),
        "taker": ev.taker,
        "contract": ev.contract,
        "partner": ev.partner,
        "attack": list(ev.attack),
        "tricks": [{"leader": t.leader, "cards": codes(t.cards), "winner": t.winner} for t in ev.tricks],
        "excuse": None
        if x is None
        else {
            "outcome": x.outcome,
            "played_by": x.played_by,
            "trick": x.trick,
            "kept_by": x.kept_by,
            "exchange": None
            if x.exchange is None
            else {
                "from_side": x.exchange.from_side,
                "to_side": x.exchange.to_side,
                "paid_at_trick": x.exchange.paid_at_trick,
                "on_paper": x.exchange.paid_at_trick is None and ev.status is Status.COMPLETE,
            },
        },
        "points": None
        if ev.points_half is None
        else {"attack": ev.points_half[0] / 2, "defence": ev.points_half[1] / 2},
        "oudlers": None if ev.oudlers is None else {"attack": ev.oudlers[0], "defence": ev.oudlers[1]},
        "petit_au_bout": ev.petit_au_bout,
        "chelem": {"announced": ev.chelem_announced, "made_by": ev.chelem_made_by},
        "poignees": [{"seat": p.seat, "side": p.side, "size": p.size} for p in ev.poignees],
        "score": None if ev.score is None else dump_score(ev.score, language),
        "next": None if ev.next is None else {"seat": ev.next.seat, "legal": codes_of(ev.next.legal)},
        "claims": None,
        "ruling": None if ev.ruling is None else dump_ruling(ev.ruling, language),
        "unchecked": unchecked_of(ev, language),
    }


def answer_record(req: dict[str, Any], language: str = DEFAULT_LANGUAGE, detail: str = FULL) -> Answered:
    """Evaluate a loaded deal record: its answer (with its claims checked), whole or its digest
    as ``detail`` asks, its texts in ``language``; and the evaluation."""
    evaluation = evaluate_deal(record_of(req))
    dump = digest_evaluation if detail == SUMMARY else dump_evaluation
    answer = dump(evaluation, req["id"], language)
    agree = None
    if req["claims"] is not None:
        right = true_claims_of(evaluation, req["players"])
        played = as_played_of(evaluation)
        answer["claims"] = claims = check_claims(req["claims"], right, evaluation.partner_known, language, played)
        agree = claims["agree"]
    return Answered(answer, Decided(evaluation=evaluation, claims_agree=agree))


EVALUATE = Operation(
    "evaluateDeal", "/v1/deals/evaluate", "evaluate", EvaluateRequest(), EvaluateResponse(), answer_record
)
