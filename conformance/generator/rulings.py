"""Curated deals of chapter 14: the Code of Arbitration's ruling on a faulty deal (rules.md §14).

Each case breaks one row of the decision table on purpose, at three, four and five players,
and states by hand what the row rules: the decision, the side at fault, and all marks 0 when
the deal is void or dealt again. The deal is searched for (seeds name-0, name-1, …) until the
row and the outcome as played are the ones the case is about.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from . import service
from .assembly import Kit, Topic
from .building import Position, inject, make_deal, plain, trumps, with_bids
from .cards import KINGS, SUITS, TABLE, Deal, Json, suit
from .discard import discard_with
from .errors import KitError
from .oracle import first_leader, ref_evaluate, ref_ruling

Outcome = str
"""Which side won as played: "attack", "defence", or "" when the case does not depend on it."""


@dataclass(frozen=True)
class Row:
    """A row of the table as a case states it: the side at fault and the decision, by hand."""

    reason: str
    side: str | None
    decision: str


def _won(answer: Json) -> str:
    """The side that won as played: the taker's mark is positive exactly when his side won."""
    return "attack" if answer["ruling"]["as_played_scores"][answer["taker"]] > 0 else "defence"


def _search(name: str, build: Callable[[str], Deal | None], row: Row, won: Outcome) -> tuple[Deal, Json]:
    for i in range(400):
        d = build(f"{name}-{i}")
        if d is None:
            continue
        answer = service.answer("evaluate", d)
        ruling = answer.get("ruling")
        if ruling is None or ruling["reason"] != row.reason or ruling["side_at_fault"] != row.side:
            continue
        if won and _won(answer) != won:
            continue
        return d, answer
    raise KitError(f"{name}: no deal found")


def _add(
    kit: Kit,
    t: Topic,
    number: int,
    description: str,
    rules: list[str],
    tags: list[str],
    d: Deal,
    row: Row,
    extra: dict[str, Json] | None = None,
) -> None:
    want: dict[str, Json] = {
        "/valid": False,
        "/status": "complete",
        "/ruling/reason": row.reason,
        "/ruling/decision": row.decision,
        "/ruling/side_at_fault": row.side,
    }
    if row.decision != "counted":
        want["/ruling/scores"] = [0] * d["players"]
    ref = ref_ruling(d) if row.reason in ("completed_renounce", "discard_fault") else None
    if ref is not None and any(want[p] != v for p, v in ref.items()):
        raise KitError(f"rulings/{number:03d}: the reference model rules {ref}, the case states {want}")
    kit.add(t, number, description, ["14", *rules], ["ruling", *tags], d, want={**want, **(extra or {})})


# The faults, each made on a legally played deal: builders of a deal from a seed, or None
# when the seed's deal does not lend itself to the fault.

Build = Callable[[str], Deal | None]
Extra = Callable[[Deal, Json], dict[str, Json]]
"""The verdicts a case adds to its row's, read from the deal and the service's answer."""


def _renounce_by(side: str) -> Callable[[Deal], Deal | None]:
    """A revoke (§6.3) by a seat of ``side``, completed since the deal went on."""

    def make(d: Deal) -> Deal | None:
        attack = ref_evaluate(d).attack

        def choose(p: Position) -> str | None:
            if p.reason != "follow" or (p.seat in attack) != (side == "attack"):
                return None
            return next((c for c in p.hand if c not in p.legal and suit(c) != "T"), None)

        found = inject(d, choose)
        return None if found is None else found[0]

    return make


def _out_of_turn(d: Deal) -> Deal:
    """The same plays with the dealer one seat earlier: the opening lead was then made by the
    seat after the one due (§2)."""
    return {**d, "dealer": (d["dealer"] - 1) % d["players"]}


def _opening_leader(d: Deal) -> int:
    return first_leader(d, d["taker"])


def _revoke(n: int, side: str) -> Build:
    def make(s: str) -> Deal | None:
        return _renounce_by(side)(make_deal(n, s))

    return make


def _king_discarded(n: int, king: str) -> Callable[[str], Deal]:
    """A garde whose taker, drawn from the seed, discarded ``king`` (§4.2)."""

    def make(s: str) -> Deal:
        taker = random.Random(s).randrange(n)
        return make_deal(n, s, taker=taker, contract="garde", fixed={taker: [king]}, discard=discard_with(s, king))

    return make


def _both_sides(n: int) -> Build:
    """A king discarded by the taker and a defender's revoke."""

    def make(s: str) -> Deal | None:
        return _renounce_by("defence")(_king_discarded(n, "KH")(s))

    return make


def _bid_not_higher(n: int) -> Build:
    """A prise bid after a garde, by the seat after the taker (§3.3)."""

    def make(s: str) -> Deal:
        d = make_deal(n, s, dealer=0, taker=1, contract="garde")
        return with_bids(d, ["garde", "prise", *["pass"] * (n - 2)])

    return make


def _dealt_twice(n: int) -> Build:
    """A card dealt to two seats, the deal played out all the same."""

    def make(s: str) -> Deal:
        d = make_deal(n, s)
        hands = [list(h) for h in d["hands"]]
        hands[1][0] = hands[0][0]
        return {**d, "hands": hands}

    return make


def _misdealt(n: int) -> Build:
    """A card of seat 0's hand dealt to seat 1 instead: hands one short and one over."""

    def make(s: str) -> Deal:
        d = make_deal(n, s)
        hands = [list(h) for h in d["hands"]]
        hands[1].append(hands[0].pop())
        return {**d, "hands": hands}

    return make


def _disregarding(build: Build) -> Build:
    """The deal of ``build`` under the variant that disregards the dealer's errors (§14.5)."""

    def make(s: str) -> Deal | None:
        d = build(s)
        return None if d is None else {**d, "rules": {**(d.get("rules") or {}), "deal_errors_after_contract":
                                                       "disregarded"}}  # fmt: skip

    return make


def _played_twice(n: int) -> Callable[[str], Deal]:
    """The deal's first card played again as its last, recorded without hands."""

    def make(s: str) -> Deal:
        d = make_deal(n, s)
        plays = list(d["plays"])
        plays[-1] = plays[0]
        return {**{k: v for k, v in d.items() if k not in ("hands", "dog")}, "plays": plays}

    return make


class _Opening(NamedTuple):
    lead: str
    attack: frozenset[int]
    leader: int
    after: int
    """The seat after the opening leader, who covers his lead or not."""


def _opening(d: Deal, n: int) -> _Opening:
    """A deal's opening: its lead, the attack's seats, the seat that led and the next one."""
    leader = _opening_leader(d)
    return _Opening(d["plays"][0], frozenset(ref_evaluate(d).attack), leader, (leader + 1) % n)


def _covered_lead(n: int) -> Build:
    """The opening lead made out of turn and covered by the next seat, of the other side, following suit."""

    def make(s: str) -> Deal | None:
        d = make_deal(n, s)
        lead, attack, leader, after = _opening(d, n)
        if (leader in attack) == (after in attack) or suit(d["plays"][1]) != suit(lead) or suit(lead) == "T":
            return None
        return _out_of_turn(d)

    return make


def _exposed_lead(n: int) -> Build:
    """A defender's opening lead of a plain card below the king made out of turn, not covered."""

    def make(s: str) -> Deal | None:
        d = make_deal(n, s)
        lead, attack, leader, after = _opening(d, n)
        plain_lead = lead not in KINGS and suit(lead) in SUITS
        if not plain_lead or (leader in attack) != (after in attack) or leader == d["taker"]:
            return None
        return _out_of_turn(d)

    return make


def _exposed_king(n: int) -> Build:
    """A defender's king led out of turn to the opening trick, not covered."""

    def make(s: str) -> Deal | None:
        rng = random.Random(s)
        dealer = rng.randrange(n)
        leader = (dealer + 1) % n
        taker = (leader + 2) % n
        d = make_deal(
            n,
            s,
            dealer=dealer,
            taker=taker,
            fixed={leader: ["KC"]},
            policy=lambda turn: "KC" if turn.trick_index == 0 and turn.seat == leader and not turn.trick else None,
        )
        if d["plays"][0] != "KC":
            return None
        return _out_of_turn(d)

    return make


def _poignee_hand(players: int, held: int, excuse: bool = False) -> list[str]:
    """A hand of exactly ``held`` trumps (low ones, not the Petit), the Excuse if asked, and
    plain cards below the kings."""
    hand = [*trumps(2, held + 1), *(["EX"] if excuse else [])]
    return hand + plain("SHDC", 1, 10)[: TABLE[players].hand - len(hand)]


def _show(
    seat: int, cards: list[str], shown_at: int | None = None, twice: bool = False
) -> Callable[[Deal], list[Json]]:
    def make(d: Deal) -> list[Json]:
        p: dict[str, Json] = {"seat": seat, "cards": cards}
        if shown_at is not None:
            p["shown_at"] = shown_at
        return [p, dict(p)] if twice else [p]

    return make


def _poignee(
    n: int,
    held: int,
    shown: Callable[[list[str]], list[str]],
    by: str,
    *,
    excuse: bool = False,
    shown_at: Callable[[Deal, int], int] | None = None,
    twice: bool = False,
) -> Build:
    """A garde sans in which a seat of side ``by`` holding ``held`` trumps shows ``shown`` of its
    hand, at the position in the play ``shown_at`` gives, if any, and twice if asked."""

    def make(s: str) -> Deal:
        rng = random.Random(s)
        dealer, taker = rng.randrange(n), rng.randrange(n)
        seat = taker if by == "attack" else (taker + 1 + rng.randrange(n - 1)) % n
        hand = _poignee_hand(n, held, excuse)
        cards = shown(hand)
        probe = make_deal(n, s, dealer=dealer, taker=taker, contract="garde_sans", fixed={seat: hand}, play=False)
        at = None if shown_at is None else shown_at(probe, seat)
        return make_deal(
            n,
            s,
            dealer=dealer,
            taker=taker,
            contract="garde_sans",
            fixed={seat: hand},
            poignees=_show(seat, cards, at, twice),
        )

    return make


def _trumps_of(hand: list[str]) -> list[str]:
    return [c for c in hand if suit(c) == "T"]


def _after_first_card(d: Deal, seat: int) -> int:
    """Just after the seat's first card: its position in the opening trick, plus one."""
    players: int = d["players"]
    return (seat - _opening_leader(d)) % players + 1


def _as_played(d: Deal, answer: Json) -> dict[str, Json]:
    return {"/ruling/scores": answer["ruling"]["as_played_scores"]}


def _as_played_unless_void(d: Deal, answer: Json) -> dict[str, Json]:
    return {} if answer["ruling"]["decision"] == "void" else _as_played(d, answer)


RulingCase = tuple[str, list[str], list[str], Row, Build, Outcome, Extra | None]
"""A case as a row of ``_table_cases``: description, sections, tags, the row of §14 it breaks, its
deal's builder, the side that won as played, the verdicts it adds."""


def _table_cases(n: int) -> list[RulingCase]:
    """The table's rows at ``n`` players, each broken by one case, in the order of their numbers."""
    at = f"{n} players"
    first = TABLE[n].poignees[0]
    tier = {3: "13", 4: "10", 5: "8"}[n]
    # The seat that played the card again is at fault: its side, read from a first deal.
    probe = service.answer("evaluate", _played_twice(n)("ruling-probe"))["ruling"]["side_at_fault"]
    twice = "attack" if probe == "attack" else "defence"

    def whose(by: str) -> str:
        return "taker" if by == "attack" else "defence"

    poignee = ["14.6", "9.5"]
    # fmt: off
    return [
        # §14.2: a completed revoke, incorrigible: void when the side at fault won, counted when it lost.
        *((f"{at}: a revoke by the {side}, which {'won' if side == won else 'lost'} as played: {decision}.",
           ["14.2", "6.3"], ["follow-suit"], Row("completed_renounce", side, decision), _revoke(n, side), won,
           _as_played_unless_void)
          for side, won, decision in (("defence", "defence", "void"), ("attack", "defence", "counted"))),
        # §14.4: a king discarded by the taker, who won: void; who lost: counted.
        *((f"{at}: the taker discarded a king and {'won' if won == 'attack' else 'lost'}: {decision}.",
           ["14.4", "4.2"], ["discard"], Row("discard_fault", "attack", decision), _king_discarded(n, "KS"), won, None)
          for won, decision in (("attack", "void"), ("defence", "counted"))),
        # §14.2: a bid not higher than the one before it, by the seat after the taker.
        (f"{at}: a prise bid after a garde, by a defender (seat 2) whose side lost as played: counted.",
         ["14.2", "3.3"], ["bids"], Row("auction_fault", "defence", "counted"), _bid_not_higher(n), "attack", None),
        # §14.5: a card dealt to two seats, the deal played out all the same: dealt again.
        (f"{at}: a card dealt to two seats and the deal played out: the same dealer deals again.", ["14.5", "1.1"],
         [], Row("dealing_fault", None, "redeal"), _dealt_twice(n), "", None),
        # §14.2: the same card played twice, recorded without hands.
        (f"{at}: without hands, the deal's first card played again as its last: void, since the side at fault won "
         "as played.", ["14.2", "1.1"], [], Row("wrong_card_count", twice, "void"), _played_twice(n), twice, None),
        # §14.1: faults on both sides, a discard fault and a defender's revoke: void whoever won.
        (f"{at}: the taker discarded a king and a defender revoked: void, both sides at fault.",
         ["14.1", "14.2", "14.4", "4.2", "6.3"], ["discard", "follow-suit"], Row("both_sides_at_fault", "both", "void"),
         _both_sides(n), "", None),
        # §14.3: the opening lead made by the seat after the one due.
        (f"{at}: the opening lead made out of turn, and covered by the next seat, of the other side, following "
         "suit: no fault, counted.", ["14.3", "2"], [], Row("covered_lead", None, "counted"), _covered_lead(n), "",
         _as_played),
        (f"{at}: the opening lead of a plain card below the king made out of turn, and not covered: a correctable "
         "fault, counted.", ["14.3", "2"], [], Row("exposed_card", "defence", "counted"), _exposed_lead(n), "",
         _as_played),
        *((f"{at}: a defender's king led out of turn to the opening trick and not covered; the defence "
           f"{'won' if won == 'defence' else 'lost'}: {decision}.", ["14.3", "14.2", "2"], [],
           Row("exposed_important_card", "defence", decision), _exposed_king(n), won, None)
          for won, decision in (("defence", "void"), ("attack", "counted"))),
        # §14.6: the poignées, by the seed's table.
        (f"{at}: a poignée shown {first - 1} trumps strong by a seat holding {first}: rectifiable, counted, "
         f"completed to the tier of {tier}.", poignee, ["poignee"], Row("poignee_rectifiable", None, "counted"),
         _poignee(n, first, lambda h: _trumps_of(h)[1:], "defence"), "", None),
        *((f"{at}: a poignée of all {first - 1} trumps held, short of {tier}, by the {whose(by)}; the {won} won: not "
           f"counted, {decision}.", poignee, ["poignee"], Row("poignee_unrectifiable", by, decision),
           _poignee(n, first - 1, _trumps_of, by), won, None)
          for by, won, decision in (("attack", "attack", "counted"), ("defence", "attack", "counted"),
                                    ("defence", "defence", "void"))),
        *((f"{at}: a poignée of {first + 1} trumps, more than the tier of {tier} and short of the next, by the "
           f"{whose(by)}; the {won} won: {decision} at the tier.", poignee, ["poignee"],
           Row("poignee_too_many", by, decision), _poignee(n, first + 1, _trumps_of, by), won, None)
          for by, won, decision in (("attack", "defence", "counted"), ("defence", "attack", "counted"),
                                    ("defence", "defence", "void"))),
        (f"{at}: a poignée shown just after its owner's first card, before the next card: counted as normal.",
         poignee, ["poignee"], Row("poignee_before_covered", None, "counted"),
         _poignee(n, first, _trumps_of, "defence", shown_at=_after_first_card), "", _as_played),
        # A late poignée is not counted: the marks as played only where it would not have changed them.
        *((f"{at}: a poignée shown after the second trick by the {whose(by)}; the {won} won: {decision}"
           f"{', the poignée not counted' if not kept and decision != 'void' else ''}.", poignee, ["poignee"],
           Row("poignee_late", by, decision), _poignee(n, first, _trumps_of, by, shown_at=lambda d, seat: 2 * n),
           won, _as_played_unless_void if kept else None)
          for by, won, decision, kept in (("attack", "attack", "counted", False),
                                          ("attack", "defence", "counted", True),
                                          ("defence", "attack", "counted", True),
                                          ("defence", "defence", "void", False))),
        *((f"{at}: a defender's poignée showing the Excuse in place of a trump kept; the {won} won: {decision}.",
           poignee, ["poignee", "excuse"], Row("poignee_excuse", "defence", decision),
           _poignee(n, first, lambda h: [*_trumps_of(h)[1:], "EX"], "defence", excuse=True), won, None)
          for won, decision in (("defence", "void"), ("attack", "counted"))),
        (f"{at}: the same poignée shown twice by one seat: the second not counted, the deal counted.", poignee,
         ["poignee"], Row("poignee_second", None, "counted"), _poignee(n, first, _trumps_of, "attack", twice=True), "",
         None),
    ]
    # fmt: on


def ruling_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "rulings",
        "The ruling on a complete faulty deal, row by row of the Code of Arbitration's table: void, counted "
        "or dealt again, and the side at fault (rules.md §14).",
    )
    # Numbers follow the table (27 cases a table size): a case added later goes after it, from 82,
    # so that no id changes.
    number = 0
    for n in (3, 4, 5):
        for description, rules, tags, row, build, won, extra in _table_cases(n):
            number += 1
            d, answer = _search(f"ruling-{number}", build, row, won)
            _add(kit, t, number, description, rules, tags, d, row, None if extra is None else extra(d, answer))
    # Variant deal_errors_after_contract: "disregarded" (the FFT Code text): the dealer's error is disregarded once the
    # contract is made, the deal scored as played (§14.5, §11).
    row = Row("dealing_error_disregarded", None, "counted")
    twice, misdealt = "a card dealt to two seats", "a card dealt to the wrong seat (hands one short, one over)"
    faults: list[tuple[int, Callable[[int], Build], str]] = [
        (3, _dealt_twice, twice),
        (4, _dealt_twice, twice),
        (5, _dealt_twice, twice),
        (4, _misdealt, misdealt),
    ]
    for n, fault, what in faults:
        number += 1
        d, answer = _search(f"ruling-{number}", _disregarding(fault(n)), row, "")
        _add(kit, t, number, f"{n} players, variant deal_errors_after_contract disregarded: {what}, the deal "
             "played out: counted as played.", ["14.5", "11"], [], d, row, _as_played(d, answer))  # fmt: skip
