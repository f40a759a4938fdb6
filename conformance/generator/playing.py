"""Curated deals of chapters 2 and 6: faults of play and who leads first (rules.md §2, §5.3, §6, §11, §12)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .assembly import Kit
from .building import Position, fault, find_deal, inject, make_deal, play_first, positions, swap_plays
from .cards import SUITS, Deal, rank, suit
from .errors import KitError
from .oracle import Ref, first_leader, ref_evaluate, ref_tricks


def play_fault_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "play-faults",
        "Cards played against the rules, and records that do not add up (rules.md §1, §2, §6, §12).",
    )

    def injected(name: str, players: int, choose: Callable[[Position], str | None]) -> tuple[Deal, Position]:
        for i in range(500):
            found = inject(make_deal(players, f"{name}-{i}"), choose)
            if found is not None:
                return found
        raise KitError(f"{name}: no position")

    def off_suit(p: Position) -> str | None:
        if p.reason != "follow":
            return None
        return next((c for c in p.hand if c not in p.legal and suit(c) != "T"), None)

    def no_trump(p: Position) -> str | None:
        if p.reason != "trump":
            return None
        return next((c for c in p.hand if suit(c) in SUITS), None)

    def under(p: Position) -> str | None:
        if p.reason != "overtrump":
            return None
        return next((c for c in p.hand if suit(c) == "T" and c not in p.legal), None)

    def trump_lead(p: Position) -> str | None:
        if p.reason not in ("overtrump", "undertrump") or next(suit(c) for c in p.before if c != "EX") != "T":
            return None
        return next((c for c in p.hand if suit(c) in SUITS), None)

    def over_partner(name: str) -> tuple[Deal, Position]:
        for i in range(500):
            d = make_deal(5, f"{name}-{i}")
            r = ref_evaluate(d)

            def choose(p: Position, r: Ref = r) -> str | None:
                if p.reason != "overtrump" or p.seat not in r.attack:
                    return None
                trick = r.tricks[p.trick]
                top = max((c for c in p.before if suit(c) == "T"), key=rank)
                if trick.seat_of(top, 5) not in r.attack or trick.seat_of(top, 5) == p.seat:
                    return None
                return under(p)

            found = inject(d, choose)
            if found is not None:
                return found
        raise KitError(f"{name}: no position")

    # (number, description, sections, tags, the deal and the position of its fault, the fault)
    # fmt: off
    searched = [
        (1, "A player holding the led suit plays another suit: a revoke.", ["6.3"], ["follow-suit"],
         injected("play-1", 4, off_suit), "renounce"),
        (2, "Void in the led suit and holding trumps, a player throws a plain card instead of trumping.", ["6.4"],
         ["trump"], injected("play-2", 3, no_trump), "must_trump"),
        (3, "Holding a trump above the trick's highest, a player plays a lower one.", ["6.4"], ["overtrump"],
         injected("play-3", 5, under), "must_overtrump"),
        (4, "Trumps led: a player holding trumps plays a plain card.", ["6.4"], ["trump"],
         injected("play-4", 4, trump_lead), "renounce"),
        (5, "Five players: the partner's trump leads the trick, and a higher trump must still be played over it.",
         ["6.4"], ["overtrump", "called-card"], over_partner("play-5"), "must_overtrump"),
    ]
    # fmt: on
    for number, description, rules, tags, (d, p), code in searched:
        kit.add(t, number, description, rules, tags, d, want=fault(code, p.trick, p.seat))
    d = make_deal(4, "play-6", contract="prise")
    ps = positions(d)
    p = ps[len(ps) // 2 + 1]
    plays = list(d["plays"])
    plays[p.index] = d["discard"][0]
    kit.add(
        t,
        6,
        "Mid-deal, a player plays a card from the taker's discard, which he does not hold.",
        ["6", "12"],
        ["discard"],
        {**d, "plays": plays},
        want=fault("card_not_in_hand", p.trick, p.seat),
    )
    d = make_deal(3, "play-7")
    n = 3
    first = ref_tricks(d, first_leader(d, d["taker"]))[0]
    plays = d["plays"][1:n] + d["plays"][:1] + d["plays"][n:]
    kit.add(
        t,
        7,
        "The opening lead made by the seat after the one due to lead.",
        ["2", "12"],
        [],
        {**d, "plays": plays},
        want=fault("wrong_leader", 0, (first.leader + 1) % n),
    )
    d = make_deal(5, "play-8")
    kit.add(
        t,
        8,
        "One card more than the deal holds.",
        ["2", "12"],
        [],
        {**d, "plays": [*d["plays"], "EX"]},
        want=fault("plays_length", 15, None),
    )
    d = make_deal(4, "play-9")
    hands = [list(h) for h in d["hands"]]
    hands[1][0] = hands[0][0]
    kit.add(
        t,
        9,
        "A card dealt to two seats.",
        ["1.1", "12"],
        [],
        {**d, "hands": hands},
        want=fault("duplicate_card", None, 1),
    )
    d = make_deal(3, "play-10", play=False)
    hands = [list(h) for h in d["hands"]]
    hands[1].append(hands[0].pop())
    kit.add(
        t,
        10,
        "Seat 0 dealt one card short and seat 1 one card over.",
        ["2"],
        [],
        {**d, "hands": hands},
        want=fault("hand_size", None, 0),
    )
    d = make_deal(4, "play-11")
    plays = list(d["plays"])
    plays[-1] = plays[0]
    last = ref_tricks(d, first_leader(d, d["taker"]))[-1]
    request = {k: v for k, v in d.items() if k not in ("hands", "dog")}
    kit.add(
        t,
        11,
        "Without hands, the same card played twice (the first card again as the deal's last).",
        ["1.1", "12"],
        [],
        {**request, "plays": plays},
        want=fault("duplicate_card", 17, (last.leader + 3) % 4),
    )

    def proven(p: Position, d: Deal) -> str | None:
        card = off_suit(p)
        if card is None:
            return None
        # Without hands the seats follow from the winners: the fault must change none.
        swapped = swap_plays(d, p.index, d["plays"].index(card))
        before = [t.winner for t in ref_tricks(d, first_leader(d, d["taker"]))]
        after = [t.winner for t in ref_tricks(swapped, first_leader(d, d["taker"]))]
        return card if before == after else None

    for i in range(500):
        d = make_deal(4, f"play-12-{i}")
        found = inject(d, functools.partial(proven, d=d))
        if found is not None:
            break
    assert found is not None
    d, p = found
    request = {k: v for k, v in d.items() if k not in ("hands", "dog")}
    kit.add(
        t,
        12,
        "Without hands, a revoke is proven when the seat later plays the suit it failed to follow.",
        ["6.3", "12"],
        ["follow-suit"],
        request,
        want=fault("renounce", p.trick, p.seat),
    )
    d = find_deal("play-13", lambda s: make_deal(4, s),
                  lambda d, r: any(p.reason == "undertrump" for p in positions(d)))  # fmt: skip
    kit.add(
        t,
        13,
        "A deal in which a player unable to overtrump plays a lower trump: no fault.",
        ["6.4"],
        ["undertrump"],
        d,
        want={"/valid": True},
    )
    d = find_deal(
        "play-14",
        lambda s: make_deal(3, s, policy=play_first("EX")),
        lambda d, r: any(p.reason == "follow" and d["plays"][p.index] == "EX" for p in positions(d)),
    )
    kit.add(
        t,
        14,
        "A deal in which the Excuse is played by a player holding the led suit: no fault.",
        ["6.1"],
        ["excuse", "follow-suit"],
        d,
        want={"/valid": True},
    )


def first_lead_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "first-lead",
        "Who leads the first trick: the dealer's right, or under a variant the taker's right (rules.md §2, §11).",
    )
    after = {"first_lead": "after_taker"}
    variant = make_deal(4, "first-lead-2", dealer=2, taker=0, rules=after)
    # fmt: off
    kit.add_rows(t, [
        (1, "Seat 2 deals: seat 3, on the dealer's right, leads the first trick.", ["2"], [],
         make_deal(4, "first-lead-1", dealer=2, taker=0), {"/valid": True, "/tricks/0/leader": 3}),
        (2, "Variant first_lead after_taker: seat 0 takes, so seat 1 leads the first trick.", ["2", "11"], [],
         variant, {"/valid": True, "/tricks/0/leader": 1}),
        (3, "The same deal without the variant: seat 1 led out of turn, seat 3 was due.", ["2", "11", "12"], [],
         {k: v for k, v in variant.items() if k != "rules"}, fault("wrong_leader", 0, 1)),
        (4, "Five players, variant first_lead after_taker: seat 3 takes, seat 4 leads.", ["2", "11"], ["called-card"],
         make_deal(5, "first-lead-4", dealer=0, taker=3, rules=after), {"/valid": True, "/tricks/0/leader": 4}),
        (5, "Three players, seat 2 deals: the turn wraps round to seat 0, which leads.", ["2"], [],
         make_deal(3, "first-lead-5", dealer=2, taker=1), {"/valid": True, "/tricks/0/leader": 0}),
        (6, "Three players, variant first_lead after_taker: seat 1 takes, seat 2 (the dealer) leads.", ["2", "11"], [],
         make_deal(3, "first-lead-6", dealer=2, taker=1, rules=after), {"/valid": True, "/tricks/0/leader": 2}),
    ])
    # fmt: on
