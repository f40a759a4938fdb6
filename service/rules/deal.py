"""Evaluating a whole deal: the orchestration of the rulebook's chapters over one record.

:func:`evaluate_deal` takes a deal record (complete or in progress) through the chapters in
deal order, each in its module: the cards as dealt (:mod:`.dealing`, §2–§3.1), the auction
(:mod:`.auction`, §3), the dog and discard (:mod:`.discard`, §4), the call (:mod:`.call`,
§5), the poignées (:mod:`.poignees`, §9.5), the play (:mod:`.replay`, §2, §6, §7), the
Excuse (:mod:`.excuse`, §8), the count (:mod:`.counting`, §9.1, §9.4) and the score
(:mod:`.scoring`, §9). Every violation is reported, in deal order, with the trick and seat
where it happened. When the record has no hands they are inferred from the plays: a seat's
hand at any trick is the cards it plays from then on, so a revoke (a seat that failed to
follow and later shows a card of that suit) is found exactly as with the hands given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ..messages import Message, msg
from .arbitration import AsPlayed, Ruling, rule_deal
from .auction import contract_and_taker
from .call import called_card_played, check_call, partner_of
from .cards import CardMask
from .counting import count_points, petit_au_bout_side
from .dealing import check_dealt_hands, petit_sec_seat
from .discard import check_discard, play_hands
from .excuse import ExcuseSettlement, excuse_so_far
from .frozen import copied_by_constructor
from .missing import fill_in
from .play import Trick
from .poignees import PoigneeResult, check_poignees
from .record import DealContext, DealRecord
from .replay import NextPlay, first_leader, replay
from .scoring import Contract, Score, Side, Summary, score
from .table import TABLES
from .verdicts import Decision, NotChecked, RedealReason, Unchecked, Violation, ViolationCode


class Status(StrEnum):
    """Where the deal stands."""

    COMPLETE = "complete"
    IN_PROGRESS = "in_progress"
    REDEAL = "redeal"
    """Every seat passed, or a petit sec was dealt: the cards are dealt again."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The verdict on a deal. A redeal fills only the first four fields and ``redeal_reason``."""

    status: Status
    valid: bool
    violations: tuple[Violation, ...]
    chelem_announced: bool
    taker: int | None = None
    contract: Contract | None = None
    partner: int | None = None
    partner_known: bool = True
    """False while a five-player deal given without its hands has not shown the called card:
    ``partner`` None then means not known yet, not the taker alone."""
    attack: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    excuse: ExcuseSettlement | None = None
    points_half: tuple[int, int] | None = None
    """Card points of the attack and the defence after the Excuse settlement (complete deals)."""
    oudlers: tuple[int, int] | None = None
    petit_au_bout: Side | None = None
    chelem_made_by: Side | None = None
    poignees: tuple[PoigneeResult, ...] = ()
    score: Score | None = None
    next: NextPlay | None = None
    redeal_reason: RedealReason | None = None
    redeal_message: Message | None = None
    """The redeal said for people: the reason, and the seat with a petit sec."""
    ruling: Ruling | None = None
    """A complete deal with violations: the Code of Arbitration's ruling (§14)."""
    unchecked: tuple[NotChecked, ...] = ()
    """What the record leaves out that the evaluation needed, and what it did without it (§12)."""

    @property
    def dealt_again(self) -> bool:
        """Whether the same dealer deals again (§15.2): every seat passed or a petit sec was
        dealt, or the ruling on a faulty deal sends it back (a fault of the deal, §14.5)."""
        return self.status is Status.REDEAL or (self.ruling is not None and self.ruling.decision is Decision.REDEAL)


def evaluate_deal(record: DealRecord) -> Evaluation:
    """Evaluate a deal record against the rules (rules.md §2–§9)."""
    evaluation = _evaluate(record)
    if not evaluation.valid and any(
        u.message.key == "unchecked.chelem_announcement.not_said" for u in evaluation.unchecked
    ):
        # Neither the hands nor the announcement given: read with the seat due leading, the
        # record shows faults; if read with the taker leading (an announced chelem) it shows
        # none, that is the reading that charges nobody (§12).
        announced = _evaluate(replace(record, chelem_announced=True))
        if announced.valid:
            said = NotChecked(Unchecked.CHELEM_ANNOUNCEMENT, msg("unchecked.chelem_announcement.read_as_announced"))
            return replace(
                announced,
                unchecked=tuple(
                    u if u.code is not Unchecked.CHELEM_ANNOUNCEMENT else said for u in evaluation.unchecked
                ),
            )
    return evaluation


def _evaluate(record: DealRecord) -> Evaluation:
    n = record.players
    table = TABLES[n]
    deal = DealContext(record, table)

    dealt = check_dealt_hands(deal)
    taken = _taken(deal, dealt)
    if isinstance(taken, Evaluation):
        return taken
    contract, taker = taken

    fill_in(deal, dealt, contract, taker)
    record = deal.record  # with what it leaves out told, where it proves it
    hands = play_hands(deal, dealt, contract, taker)
    partner = partner_of(deal, dealt or hands, taker)
    attack = (taker,) if partner is None else tuple(sorted({taker, partner}))
    check_call(deal, dealt, taker)
    discard = check_discard(deal, dealt, hands, contract, taker)
    opening_leader = first_leader(record, taker)
    poignees = check_poignees(deal, hands, taker, attack, opening_leader)

    tricks, trick_masks, next_play = replay(deal, hands, taker, attack)
    complete = len(tricks) == table.tricks and len(tricks[-1].cards) == n
    status = Status.COMPLETE if complete else Status.IN_PROGRESS
    valid = not deal.violations
    chelem_made_by: Side | None = None
    excuse = None
    points = oudlers = None
    petit_au_bout = None
    result = None
    ruling = None
    side_of = [Side.ATTACK if s in attack else Side.DEFENCE for s in range(n)]
    if complete:
        chelem_made_by = _chelem_made_by(tricks, side_of, table.tricks)
        excuse, points, oudlers = count_points(deal, tricks, trick_masks, side_of, contract, discard)
        petit_au_bout = petit_au_bout_side(tricks, side_of, excuse)
        summary = Summary(
            players=n,
            contract=contract,
            taker=taker,
            partner=partner,
            points_half=points[0],
            oudlers=oudlers[0],
            petit_au_bout=petit_au_bout,
            poignees=tuple((p.side, p.size) for p in poignees),
            chelem_announced=bool(record.chelem_announced),
            chelem_made_by=chelem_made_by,
            petit_au_bout_to_taker=record.rules.petit_au_bout_to_taker,
        )
        if valid:
            result = score(summary)
        else:
            ruling = rule_deal(AsPlayed(deal, hands, discard, tricks, taker, side_of, opening_leader), summary)
    elif tricks:
        excuse = excuse_so_far(tricks, side_of, record.rules, table.tricks - 1)
    return Evaluation(
        status=status,
        valid=valid,
        violations=tuple(deal.violations),
        taker=taker,
        contract=contract,
        partner=partner,
        # Without the dealt hands, the called card's holder shows when it is played (or, the
        # deal over, it was in the dog).
        partner_known=dealt is not None or complete or called_card_played(record),
        attack=attack,
        tricks=tuple(tricks),
        excuse=excuse,
        points_half=points,
        oudlers=oudlers,
        petit_au_bout=petit_au_bout,
        chelem_announced=bool(record.chelem_announced),
        chelem_made_by=chelem_made_by,
        poignees=tuple(poignees),
        score=result,
        next=None if complete else next_play,
        ruling=ruling,
        unchecked=tuple(deal.unchecked),
    )


def _chelem_made_by(tricks: list[Trick], side_of: list[Side], count: int) -> Side | None:
    """The side that took every one of the deal's ``count`` tricks, if one did."""
    winners = [side_of[t.winner] for t in tricks if t.winner is not None]
    return winners[0] if len(set(winners)) == 1 and len(winners) == count else None


def _taken(deal: DealContext, dealt: list[CardMask] | None) -> tuple[Contract, int] | Evaluation:
    """The contract the auction made and its taker; a deal that went on past a petit sec it
    should have been dealt again for is charged with it (§3.1). The redeal when every seat
    passed, or a petit sec was dealt and nobody took."""
    petit_sec = petit_sec_seat(deal, dealt)
    after_deal = len(deal.violations)
    contract, taker = contract_and_taker(deal)
    if contract is None or taker is None:
        if petit_sec is None:
            return _redeal(deal, RedealReason.ALL_PASSED, msg("redeal.all_passed"))
        return _redeal(deal, RedealReason.PETIT_SEC, msg("redeal.petit_sec", seat=petit_sec))
    if petit_sec is not None:
        # The deal went on although it had to be dealt again: a fault of the deal itself.
        violation = Violation(ViolationCode.PETIT_SEC, msg("violation.petit_sec", seat=petit_sec), None, petit_sec)
        deal.violations.insert(after_deal, violation)
    return contract, taker


def _redeal(deal: DealContext, reason: RedealReason, message: Message) -> Evaluation:
    r = deal.record
    if r.plays:
        deal.report(ViolationCode.PLAYS_LENGTH, msg("violation.plays_length.redeal"), trick=0)
    return Evaluation(
        status=Status.REDEAL,
        valid=not deal.violations,
        violations=tuple(deal.violations),
        chelem_announced=bool(r.chelem_announced),
        redeal_reason=reason,
        redeal_message=message,
    )


copied_by_constructor(Evaluation)
