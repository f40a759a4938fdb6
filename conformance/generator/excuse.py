"""Curated deals of chapters 7 and 8: the Excuse (rules.md §7, §8, §11, §12)."""

from __future__ import annotations

import random

from .assembly import Kit
from .building import excuse_played, find_deal, keep, make_deal, plain, play_first, trumps
from .cards import Deal, Json, other
from .oracle import Ref, ref_evaluate


def excuse_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "excuse",
        "The Excuse settlement: returned, exchanged, owed, on paper, in the last "
        "trick, in a chelem (rules.md §7, §8, §11, §12).",
    )

    def exchange(owner: str, paid: int | None, on_paper: bool = False) -> dict[str, Json]:
        return {"from_side": owner, "to_side": other(owner), "paid_at_trick": paid, "on_paper": on_paper}

    def before_last(d: Deal, r: Ref) -> bool:
        return 0 <= excuse_played(r)[0] < len(r.tricks) - 1

    def exchanged(d: Deal, r: Ref, *, earlier: bool) -> bool:
        if not before_last(d, r):
            return False
        index, _, owner = excuse_played(r)
        won = [i for i, u in enumerate(r.tricks) if r.side(u.winner) == owner]  # type: ignore[arg-type]
        return r.side(r.tricks[index].winner) != owner and bool(won) and (won[0] < index) == earlier  # type: ignore[arg-type]

    def in_last(d: Deal, r: Ref, own_side_wins: bool) -> bool:
        index, _, owner = excuse_played(r)
        last = r.tricks[-1]
        return (
            index == len(r.tricks) - 1
            and r.answer["/excuse/outcome"] == "changed_side"
            and (r.side(last.winner) == owner) == own_side_wins  # type: ignore[arg-type]
        )

    def five(seed: str) -> Deal:
        rng = random.Random(seed + "/partner")
        partner = rng.choice([1, 2, 3, 4])
        return make_deal(5, seed, dealer=4, taker=0, contract="garde_sans", called="KS", chelem=True,
                         fixed={0: trumps(7, 21), partner: ["KS", "EX"]}, policy=keep("EX"))  # fmt: skip

    # Where each deal's Excuse went, by the reference model's reading of the deal.
    def trick(d: Deal) -> int:
        return excuse_played(ref_evaluate(d))[0]

    def seat(d: Deal) -> int:
        return excuse_played(ref_evaluate(d))[1]

    def owner(d: Deal) -> str:
        return excuse_played(ref_evaluate(d))[2]

    def first_won(d: Deal) -> int:
        """The first trick the side of the Excuse's owner wins."""
        r = ref_evaluate(d)
        return next(i for i, u in enumerate(r.tricks) if r.side(u.winner) == owner(d))  # type: ignore[arg-type]

    # The deals searched for, and those several rows share; then the table.
    # fmt: off
    returned = find_deal(
        "excuse-1",
        lambda s: make_deal(4, s),
        lambda d, r: before_last(d, r) and r.side(r.tricks[excuse_played(r)[0]].winner) == excuse_played(r)[2],  # type: ignore[arg-type]
    )
    at_once = find_deal("excuse-2", lambda s: make_deal(3, s), lambda d, r: exchanged(d, r, earlier=True))
    owed = find_deal("excuse-3", lambda s: make_deal(5, s, policy=play_first("EX")),
                     lambda d, r: exchanged(d, r, earlier=False))
    other_wins = find_deal("excuse-6", lambda s: make_deal(4, s, policy=keep("EX")), lambda d, r: in_last(d, r, False))
    own_wins = find_deal("excuse-7", lambda s: make_deal(4, s, policy=keep("EX")), lambda d, r: in_last(d, r, True))
    strong = ["EX", *trumps(5, 21)]
    announced = make_deal(4, "excuse-10", dealer=0, taker=2, contract="garde_sans", fixed={2: strong}, chelem=True,
                          policy=keep("EX"))
    unannounced = make_deal(4, "excuse-11", dealer=2, taker=2, contract="garde_sans", fixed={2: strong},
                            policy=keep("EX"))
    partner_last = find_deal("excuse-14", five, lambda d, r: r.tricks[-1].cards[0] != "EX")
    weak = [*plain("SHDC", 1, 4), "5S", "5H"]
    defence_last = find_deal("excuse-15", lambda s: make_deal(4, s, dealer=1, taker=1, contract="garde_contre",
                                                              fixed={1: weak}, policy=keep("EX")),
                             lambda d, r: "EX" in r.tricks[-1].cards)
    low = ["EX", *[c for c in plain("SHDC", 1, 6) if c != "6C"]]
    trick_winner: dict[str, Json] = {"excuse_last_trick": "trick_winner"}
    requires_announce: dict[str, Json] = {"excuse_chelem_requires_announce": True}
    sweep: dict[str, Json] = {"/excuse/outcome": "took_last_trick", "/excuse/kept_by": "attack", "/tricks/17/winner": 2,
                              "/points/attack": 91, "/oudlers/attack": 3, "/chelem/made_by": "attack"}
    kit.add_rows(t, [
        (1, "The Excuse played before the last trick to a trick its own side wins: returned, nothing owed.", ["8.1"],
         ["excuse"], returned,
         {"/excuse/outcome": "returned", "/excuse/kept_by": owner(returned), "/excuse/exchange": None}),
        (2, "The Excuse returned from a trick the other side won, its side holding a trick already: a half-point "
         "card is handed over at once.", ["8.1", "12"], ["excuse", "half-point"], at_once,
         {"/excuse/outcome": "returned", "/excuse/kept_by": owner(at_once),
          "/excuse/exchange": exchange(owner(at_once), trick(at_once))}),
        (3, "The Excuse's side has no trick yet: the half point is owed and paid at the first trick it wins.",
         ["8.2", "12"], ["excuse", "half-point", "called-card"], owed,
         {"/excuse/outcome": "returned", "/excuse/exchange": exchange(owner(owed), first_won(owed))}),
        (4, "The taker takes every trick and the defence played its Excuse: the debt is settled on paper, 87 points "
         "to 4.", ["8.2", "1.3"], ["excuse", "chelem", "half-point"],
         make_deal(4, "excuse-4", dealer=3, taker=1, contract="garde_sans", fixed={1: trumps(4, 21)}, chelem=True,
                   policy=play_first("EX")),
         {"/excuse/outcome": "returned", "/excuse/kept_by": "defence",
          "/excuse/exchange": exchange("defence", None, True), "/points/attack": 87, "/points/defence": 4,
          "/chelem/made_by": "attack"}),
        (5, "The defence takes every trick, the taker having played his Excuse: on paper, the taker keeps 4 points "
         "and one oudler.", ["8.2", "1.3"], ["excuse", "chelem", "half-point", "oudlers"],
         make_deal(3, "excuse-5", dealer=0, taker=0, contract="garde_contre", fixed={0: low}, policy=play_first("EX")),
         {"/excuse/outcome": "returned", "/excuse/kept_by": "attack",
          "/excuse/exchange": exchange("attack", None, True), "/points/attack": 4, "/oudlers/attack": 1,
          "/chelem/made_by": "defence"}),
        (6, "The Excuse played to the last trick, which the other side wins: it changes side and counts as an "
         "oudler there.", ["8.3", "1.2"], ["excuse", "oudlers"], other_wins,
         {"/excuse/outcome": "changed_side", "/excuse/kept_by": other(owner(other_wins))}),
        (7, "The Excuse played to the last trick, which its own side wins: it still changes side.", ["8.3"],
         ["excuse"], own_wins, {"/excuse/outcome": "changed_side", "/excuse/kept_by": other(owner(own_wins))}),
        (8, "Variant excuse_last_trick trick_winner: the same Excuse stays with its side, which won the last trick.",
         ["8.3", "11"], ["excuse"], {**own_wins, "rules": trick_winner},
         {"/excuse/outcome": "kept_in_last_trick", "/excuse/kept_by": owner(own_wins)}),
        (9, "Variant excuse_last_trick trick_winner: an Excuse in a last trick the other side wins goes to it, as "
         "by default.", ["8.3", "11"], ["excuse"], {**other_wins, "rules": trick_winner},
         {"/excuse/outcome": "changed_side", "/excuse/kept_by": other(owner(other_wins))}),
        (10, "Announced chelem: the taker, having taken every trick, leads the Excuse to the last trick and takes it.",
         ["7", "8.4", "9.6"], ["excuse", "chelem"], announced, sweep),
        (11, "Chelem not announced: the Excuse led to the last trick by the side that took every trick still takes "
         "it.", ["7", "8.4", "9.6"], ["excuse", "chelem"], unannounced, sweep),
        (12, "Variant excuse_chelem_requires_announce: without an announce the Excuse led last does not take the "
         "trick; it changes side and the chelem is lost.", ["7", "11", "8.3"], ["excuse", "chelem"],
         {**unannounced, "rules": requires_announce},
         {"/excuse/outcome": "changed_side", "/excuse/kept_by": "defence", "/chelem/made_by": None}),
        (13, "Variant excuse_chelem_requires_announce with the chelem announced: the Excuse takes the last trick.",
         ["7", "11", "8.4"], ["excuse", "chelem"], {**announced, "rules": requires_announce}, sweep),
        (14, "Five players: the partner, not leading, puts the Excuse on the last trick after his side took every "
         "trick: he takes it.", ["7", "8.4"], ["excuse", "chelem", "called-card"], partner_last,
         {"/excuse/outcome": "took_last_trick", "/partner": seat(partner_last), "/tricks/14/winner": seat(partner_last),
          "/chelem/made_by": "attack"}),
        (15, "The defence took every trick and a defender puts the Excuse on the last trick: he takes it, the Excuse "
         "stays with the defence.", ["7", "8.4", "9.6"], ["excuse", "chelem"], defence_last,
         {"/excuse/outcome": "took_last_trick", "/excuse/kept_by": "defence", "/tricks/17/winner": seat(defence_last),
          "/chelem/made_by": "defence"}),
        (16, "Variant excuse_chelem_requires_announce: the defence's Excuse on the last trick does not take it; it "
         "changes side.", ["7", "11", "8.3"], ["excuse", "chelem"], {**defence_last, "rules": requires_announce},
         {"/excuse/outcome": "changed_side", "/excuse/kept_by": "attack"}),
        (17, "The Excuse in the dog of a garde sans stays with the taker's side.", ["4.3", "12"], ["excuse", "dog"],
         make_deal(4, "excuse-17", contract="garde_sans", dog=["EX"]),
         {"/excuse/outcome": "in_dog", "/excuse/kept_by": "attack"}),
        (18, "The Excuse in the dog of a garde contre goes to the defence.", ["4.3", "12"], ["excuse", "dog"],
         make_deal(3, "excuse-18", contract="garde_contre", dog=["EX"]),
         {"/excuse/outcome": "in_dog", "/excuse/kept_by": "defence"}),
    ])
    # fmt: on
