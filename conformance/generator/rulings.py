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


# The faults, each made on a legally played deal.


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


def ruling_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "rulings",
        "The ruling on a complete faulty deal, row by row of the Code of Arbitration's table: void, counted "
        "or dealt again, and the side at fault (rules.md §14).",
    )
    number = 0

    def case(
        description: str,
        rules: list[str],
        tags: list[str],
        row: Row,
        build: Callable[[str], Deal | None],
        won: Outcome = "",
        extra: Callable[[Deal, Json], dict[str, Json]] | None = None,
    ) -> Json:
        nonlocal number
        number += 1
        d, answer = _search(f"ruling-{number}", build, row, won)
        _add(kit, t, number, description, rules, tags, d, row, None if extra is None else extra(d, answer))
        return answer

    def table(n: int) -> None:
        at = f"{n} players"
        # §14.2: a completed revoke, incorrigible: void when the side at fault won, counted when it lost.
        for side, won, decision in (("defence", "defence", "void"), ("attack", "defence", "counted")):

            def revoke(s: str, n: int = n, side: str = side) -> Deal | None:
                d = make_deal(n, s)
                return _renounce_by(side)(d)

            case(
                f"{at}: a revoke by the {side}, which {'won' if side == won else 'lost'} as played: {decision}.",
                ["14.2", "6.3"],
                ["follow-suit"],
                Row("completed_renounce", side, decision),
                revoke,
                won,
                lambda d, a: (
                    {} if a["ruling"]["decision"] == "void" else {"/ruling/scores": a["ruling"]["as_played_scores"]}
                ),
            )

        # §14.4: a king discarded by the taker, who won: void; who lost: counted.
        for won, decision in (("attack", "void"), ("defence", "counted")):

            def discard(s: str, n: int = n) -> Deal:
                taker = random.Random(s).randrange(n)
                return make_deal(
                    n, s, taker=taker, contract="garde", fixed={taker: ["KS"]}, discard=discard_with(s, "KS")
                )

            case(
                f"{at}: the taker discarded a king and {'won' if won == 'attack' else 'lost'}: {decision}.",
                ["14.4", "4.2"],
                ["discard"],
                Row("discard_fault", "attack", decision),
                discard,
                won,
            )

        # §14.2: a bid not higher than the one before it, by the seat after the taker.
        def bid(s: str, n: int = n) -> Deal:
            d = make_deal(n, s, dealer=0, taker=1, contract="garde")
            return with_bids(d, ["garde", "prise", *["pass"] * (n - 2)])

        case(
            f"{at}: a prise bid after a garde, by a defender (seat 2) whose side lost as played: counted.",
            ["14.2", "3.3"],
            ["bids"],
            Row("auction_fault", "defence", "counted"),
            bid,
            "attack",
        )

        # §14.5: a card dealt to two seats, the deal played out all the same: dealt again.
        def dealt_twice(s: str, n: int = n) -> Deal:
            d = make_deal(n, s)
            hands = [list(h) for h in d["hands"]]
            hands[1][0] = hands[0][0]
            return {**d, "hands": hands}

        case(
            f"{at}: a card dealt to two seats and the deal played out: the same dealer deals again.",
            ["14.5", "1.1"],
            [],
            Row("dealing_fault", None, "redeal"),
            dealt_twice,
        )

        # §14.2: the same card played twice, recorded without hands.
        def played_twice(s: str, n: int = n) -> Deal:
            d = make_deal(n, s)
            plays = list(d["plays"])
            plays[-1] = plays[0]
            return {**{k: v for k, v in d.items() if k not in ("hands", "dog")}, "plays": plays}

        # The seat that played the card again is at fault: its side, read from a first deal.
        probe = service.answer("evaluate", played_twice("ruling-probe", n))["ruling"]["side_at_fault"]
        side = "attack" if probe == "attack" else "defence"
        case(
            f"{at}: without hands, the deal's first card played again as its last: void, since the side "
            f"at fault won as played.",
            ["14.2", "1.1"],
            [],
            Row("wrong_card_count", side, "void"),
            played_twice,
            side,
        )

        # §14.1: faults on both sides, a discard fault and a defender's revoke: void whoever won.
        def both(s: str, n: int = n) -> Deal | None:
            taker = random.Random(s).randrange(n)
            d = make_deal(n, s, taker=taker, contract="garde", fixed={taker: ["KH"]}, discard=discard_with(s, "KH"))
            return _renounce_by("defence")(d)

        case(
            f"{at}: the taker discarded a king and a defender revoked: void, both sides at fault.",
            ["14.1", "14.2", "14.4", "4.2", "6.3"],
            ["discard", "follow-suit"],
            Row("both_sides_at_fault", "both", "void"),
            both,
        )

        # §14.3: the opening lead made by the seat after the one due.
        def covered(s: str, n: int = n) -> Deal | None:
            d = make_deal(n, s)
            lead = d["plays"][0]
            attack = ref_evaluate(d).attack
            leader = _opening_leader(d)
            after = (leader + 1) % n
            if (leader in attack) == (after in attack) or suit(d["plays"][1]) != suit(lead) or suit(lead) == "T":
                return None
            return _out_of_turn(d)

        case(
            f"{at}: the opening lead made out of turn, and covered by the next seat, of the other side, "
            "following suit: no fault, counted.",
            ["14.3", "2"],
            [],
            Row("covered_lead", None, "counted"),
            covered,
            extra=lambda d, a: {"/ruling/scores": a["ruling"]["as_played_scores"]},
        )

        def exposed(s: str, n: int = n) -> Deal | None:
            d = make_deal(n, s)
            lead = d["plays"][0]
            attack = ref_evaluate(d).attack
            leader = _opening_leader(d)
            after = (leader + 1) % n
            plain_lead = lead not in KINGS and suit(lead) in SUITS
            if not plain_lead or (leader in attack) != (after in attack) or leader == d["taker"]:
                return None
            return _out_of_turn(d)

        case(
            f"{at}: the opening lead of a plain card below the king made out of turn, and not covered: a "
            "correctable fault, counted.",
            ["14.3", "2"],
            [],
            Row("exposed_card", "defence", "counted"),
            exposed,
            extra=lambda d, a: {"/ruling/scores": a["ruling"]["as_played_scores"]},
        )

        for won, decision in (("defence", "void"), ("attack", "counted")):

            def important(s: str, n: int = n) -> Deal | None:
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
                    policy=lambda turn: (
                        "KC" if turn.trick_index == 0 and turn.seat == leader and not turn.trick else None
                    ),
                )
                if d["plays"][0] != "KC":
                    return None
                return _out_of_turn(d)

            case(
                f"{at}: a defender's king led out of turn to the opening trick and not covered; the defence "
                f"{'won' if won == 'defence' else 'lost'}: {decision}.",
                ["14.3", "14.2", "2"],
                [],
                Row("exposed_important_card", "defence", decision),
                important,
                won,
            )

        # §14.6: the poignées, by the seed's table.
        sizes = TABLE[n].poignees
        first = sizes[0]

        def poignee(
            held: int,
            shown: Callable[[list[str]], list[str]],
            by: str,
            *,
            excuse: bool = False,
            shown_at: Callable[[Deal, int], int] | None = None,
            twice: bool = False,
            n: int = n,
        ) -> Callable[[str], Deal | None]:
            def make(s: str) -> Deal | None:
                rng = random.Random(s)
                dealer, taker = rng.randrange(n), rng.randrange(n)
                seat = taker if by == "attack" else (taker + 1 + rng.randrange(n - 1)) % n
                hand = _poignee_hand(n, held, excuse)
                cards = shown(hand)
                probe = make_deal(
                    n, s, dealer=dealer, taker=taker, contract="garde_sans", fixed={seat: hand}, play=False
                )
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

        def trumps_of(hand: list[str]) -> list[str]:
            return [c for c in hand if suit(c) == "T"]

        def position(d: Deal, seat: int) -> int:
            return (seat - _opening_leader(d)) % n

        tier = {3: "13", 4: "10", 5: "8"}[n]
        case(
            f"{at}: a poignée shown {first - 1} trumps strong by a seat holding {first}: rectifiable, counted, "
            f"completed to the tier of {tier}.",
            ["14.6", "9.5"],
            ["poignee"],
            Row("poignee_rectifiable", None, "counted"),
            poignee(first, lambda h: trumps_of(h)[1:], "defence"),
        )
        for by, won, decision in (
            ("attack", "attack", "counted"),
            ("defence", "attack", "counted"),
            ("defence", "defence", "void"),
        ):
            case(
                f"{at}: a poignée of all {first - 1} trumps held, short of {tier}, by the "
                f"{'taker' if by == 'attack' else 'defence'}; the {won} won: not counted, {decision}.",
                ["14.6", "9.5"],
                ["poignee"],
                Row("poignee_unrectifiable", by, decision),
                poignee(first - 1, trumps_of, by),
                won,
            )
        for by, won, decision in (
            ("attack", "defence", "counted"),
            ("defence", "attack", "counted"),
            ("defence", "defence", "void"),
        ):
            case(
                f"{at}: a poignée of {first + 1} trumps, more than the tier of {tier} and short of the next, "
                f"by the {'taker' if by == 'attack' else 'defence'}; the {won} won: {decision} at the tier.",
                ["14.6", "9.5"],
                ["poignee"],
                Row("poignee_too_many", by, decision),
                poignee(first + 1, trumps_of, by),
                won,
            )
        case(
            f"{at}: a poignée shown just after its owner's first card, before the next card: counted as normal.",
            ["14.6", "9.5"],
            ["poignee"],
            Row("poignee_before_covered", None, "counted"),
            poignee(first, trumps_of, "defence", shown_at=lambda d, seat: position(d, seat) + 1),
            extra=lambda d, a: {"/ruling/scores": a["ruling"]["as_played_scores"]},
        )
        for by, won, decision in (
            ("attack", "attack", "counted"),
            ("attack", "defence", "counted"),
            ("defence", "attack", "counted"),
            ("defence", "defence", "void"),
        ):
            kept = (by, won) in (("attack", "defence"), ("defence", "attack"))

            def late_scores(d: Deal, a: Json, kept: bool = kept) -> dict[str, Json]:
                if a["ruling"]["decision"] == "void":
                    return {}
                as_played = a["ruling"]["as_played_scores"]
                return {} if not kept else {"/ruling/scores": as_played}

            case(
                f"{at}: a poignée shown after the second trick by the {'taker' if by == 'attack' else 'defence'}; "
                f"the {won} won: {decision}{', the poignée not counted' if not kept and decision != 'void' else ''}.",
                ["14.6", "9.5"],
                ["poignee"],
                Row("poignee_late", by, decision),
                poignee(first, trumps_of, by, shown_at=lambda d, seat: 2 * n),
                won,
                late_scores,
            )
        for won, decision in (("defence", "void"), ("attack", "counted")):
            case(
                f"{at}: a defender's poignée showing the Excuse in place of a trump kept; the {won} won: {decision}.",
                ["14.6", "9.5"],
                ["poignee", "excuse"],
                Row("poignee_excuse", "defence", decision),
                poignee(first, lambda h: [*trumps_of(h)[1:], "EX"], "defence", excuse=True),
                won,
            )
        case(
            f"{at}: the same poignée shown twice by one seat: the second not counted, the deal counted.",
            ["14.6", "9.5"],
            ["poignee"],
            Row("poignee_second", None, "counted"),
            poignee(first, trumps_of, "attack", twice=True),
        )

    # Numbers follow the loop (27 a table): a case added later goes after it, from 82, so that
    # no id changes.
    for n in (3, 4, 5):
        table(n)
