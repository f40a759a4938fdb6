"""Curated deals in progress: who plays next, and what (rules.md §12)."""

from __future__ import annotations

from .assembly import Kit
from .building import cut, excuse_played, find_deal, make_deal, play_first, with_bids
from .cards import Deal, other, suit
from .oracle import Ref, first_leader, ref_evaluate, ref_tricks, start_hands


def in_progress_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "in-progress",
        "Deals in progress: who plays next and what he may play, the Excuse so far (rules.md §2, §6, §8.2, §12).",
    )
    d = make_deal(4, "in-progress-1", dealer=1)
    kit.add(
        t,
        1,
        "Four players, five tricks and three cards played: the fourth seat of the trick plays next.",
        ["2", "6", "12"],
        [],
        cut(d, 23),
        want={"/status": "in_progress", "/valid": True},
    )
    request = {k: v for k, v in cut(d, 23).items() if k not in ("hands", "dog")}
    kit.add(
        t,
        2,
        "The same deal without hands: who plays next is known, his legal cards are not.",
        ["2", "12"],
        [],
        request,
        want={"/status": "in_progress", "/next/legal": None},
    )
    d = make_deal(4, "in-progress-3", dealer=1, taker=3, contract="garde_sans", play=False)
    kit.add(
        t,
        3,
        "Nothing played yet: the dealer's right leads, any card of his hand.",
        ["2", "6.2"],
        [],
        d,
        want={"/next/seat": 2, "/next/legal": d["hands"][2]},
    )
    d = find_deal("in-progress-4", lambda s: make_deal(3, s, policy=play_first("EX")),
                  lambda d, r: any(t.cards[0] == "EX" for t in r.tricks[:-1]))  # fmt: skip
    r = ref_evaluate(d)
    index = next(i for i, u in enumerate(r.tricks) if u.cards[0] == "EX")
    led = r.tricks[index].leader
    kit.add(
        t,
        4,
        "Only the Excuse led in the current trick: the next seat plays, with no suit to follow yet.",
        ["6.2", "12"],
        ["excuse"],
        cut(d, index * 3 + 1),
        want={"/next/seat": (led + 1) % 3},
    )

    def owed(d: Deal, r: Ref) -> bool:
        index, _, owner = excuse_played(r)
        won = [i for i, u in enumerate(r.tricks) if r.side(u.winner) == owner]  # type: ignore[arg-type]
        if not 0 <= index < len(r.tricks) - 1 or not won:
            return False
        return r.side(r.tricks[index].winner) != owner and won[0] > index  # type: ignore[arg-type]

    d = find_deal("in-progress-5", lambda s: make_deal(4, s, policy=play_first("EX")), owed)
    r = ref_evaluate(d)
    index, _, owner = excuse_played(r)
    paid = next(i for i, u in enumerate(r.tricks) if r.side(u.winner) == owner)  # type: ignore[arg-type]
    debt = {"from_side": owner, "to_side": other(owner), "on_paper": False}
    kit.add(
        t,
        5,
        "The Excuse went to a trick the other side won and its side has no trick yet: the half point is still owed.",
        ["8.2", "12"],
        ["excuse", "half-point"],
        cut(d, (index + 1) * 4),
        want={"/excuse/outcome": "returned", "/excuse/exchange": {**debt, "paid_at_trick": None}},
    )
    kit.add(
        t,
        6,
        "The same deal once the Excuse's side has won a trick: the half point was paid there.",
        ["8.2", "12"],
        ["excuse", "half-point"],
        cut(d, (paid + 1) * 4),
        want={"/excuse/outcome": "returned", "/excuse/exchange": {**debt, "paid_at_trick": paid}},
    )

    def second_leader_holds_called_suit(d: Deal, r: Ref) -> bool:
        # The seat leading trick 1 holds a card the ban would bar, and others: the ban would show.
        seat = r.tricks[0].winner
        hand = [c for c in start_hands(d, r.taker, r.contract)[seat] if c not in r.tricks[0].cards]  # type: ignore[index]
        called = d["called_card"]
        barred = [c for c in hand if suit(c) == suit(called) and c != called]
        return bool(barred) and len(barred) < len(hand)

    d = find_deal("in-progress-7", lambda s: make_deal(5, s), second_leader_holds_called_suit)
    seat = ref_tricks(d, first_leader(d, d["taker"]))[0].winner
    assert seat is not None
    hand = [c for c in start_hands(d, d["taker"], d["contract"])[seat] if c not in d["plays"][:5]]
    kit.add(
        t,
        7,
        "Five players after the first trick: the opening-lead ban is over, the called suit may be led.",
        ["5.3", "12"],
        ["called-card", "first-lead-ban"],
        cut(d, 5),
        want={"/status": "in_progress", "/next/seat": seat, "/next/legal": hand},
    )
    d = make_deal(3, "in-progress-8", dealer=0, taker=2, contract="prise")
    kit.add(
        t,
        8,
        "Three players, bids given, mid-deal: the taker from the bids, the next seat and its cards.",
        ["3.3", "12"],
        ["bids"],
        with_bids(cut(d, 40), ["pass", "prise", "pass"]),
        want={"/taker": 2, "/contract": "prise", "/status": "in_progress"},
    )
