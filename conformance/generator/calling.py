"""Curated deals of chapter 5: the called card at five players (rules.md §5)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .assembly import Kit
from .building import Policy, Turn, chain, fault, find_deal, make_deal, play_first
from .cards import KINGS, Deal, suit
from .oracle import Ref, first_leader, ref_tricks, start_hands


def called_card_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "called-card",
        "Five players: the called card, the partner, the opening-lead ban (rules.md §5, §11, §12).",
    )
    tags = ["called-card"]
    ban = [*tags, "first-lead-ban"]

    def holder(d: Deal, card: str) -> int | None:
        return next((s for s, h in enumerate(d["hands"]) if card in h), None)

    def lead_called_suit(called: str) -> Policy:
        def policy(turn: Turn) -> str | None:
            if turn.trick_index or turn.trick:
                return None
            barred = [c for c in turn.hand if suit(c) == suit(called) and c != called]
            return barred[0] if barred else None

        return policy

    def opening_with(called: str, *, excuse: bool = False) -> Callable[[str], Deal]:
        def make(seed: str) -> Deal:
            rng = random.Random(seed + "/seats")
            dealer = rng.randrange(5)
            leader = (dealer + 1) % 5
            fixed = {leader: ["EX"]} if excuse else {}
            policy = lead_called_suit(called) if not excuse else chain(play_first("EX", leader), second_called(called))
            return make_deal(5, seed, dealer=dealer, called=called, fixed=fixed, policy=policy)

        return make

    def second_called(called: str) -> Policy:
        def policy(turn: Turn) -> str | None:
            if turn.trick_index or turn.trick != ["EX"]:
                return None
            barred = [c for c in turn.hand if suit(c) == suit(called) and c != called]
            return barred[0] if barred else None

        return policy

    def led_barred(d: Deal, r: Ref, pos: int = 0) -> bool:
        first = r.tricks[0]
        card = first.cards[pos]
        seat = (first.leader + pos) % 5
        return suit(card) == "H" and card != "KH" and any(suit(c) != "H" for c in d["hands"][seat])

    def opening_leader(d: Deal) -> int:
        return ref_tricks(d, first_leader(d, d["taker"]))[0].leader

    # The deals searched for, and those several rows share; then the table.
    # fmt: off
    hearts = find_deal("called-1", lambda s: make_deal(5, s, called="KH"),
                       lambda d, r: holder(d, "KH") not in (None, d["taker"]))
    queen = find_deal("called-4", lambda s: make_deal(5, s, taker=1, fixed={1: list(KINGS)}, called="QS"),
                      lambda d, r: holder(d, "QS") not in (None, 1))
    led = find_deal("called-7", opening_with("KH"),
                    lambda d, r: d["taker"] != r.tricks[0].leader and led_barred(d, r))
    set_second = find_deal("called-9", opening_with("KH", excuse=True), lambda d, r: led_barred(d, r, 1))
    unplayed = find_deal("called-10", lambda s: make_deal(5, s, called="KS", play=False),
                         lambda d, r: sum(suit(c) == "S" for c in r.answer["/next/legal"]) < sum(
                             suit(c) == "S" for c in d["hands"][(d["dealer"] + 1) % 5]))
    to_lead = (unplayed["dealer"] + 1) % 5
    kit.add_rows(t, [
        (1, "The king of hearts called: its holder is the partner, and shares the marks 2:1.", ["5.2", "9.3"], tags,
         hearts, {"/valid": True, "/partner": holder(hearts, "KH")}),
        (2, "The taker calls a king of his own hand: he plays alone against four (marks 4D).", ["5.1", "5.2"], tags,
         make_deal(5, "called-2", taker=3, fixed={3: ["KD"]}, called="KD"), {"/valid": True, "/partner": None}),
        (3, "The called king lies in the dog: the taker plays alone.", ["5.2"], [*tags, "dog"],
         make_deal(5, "called-3", taker=0, dog=["KC"], called="KC", contract="garde_sans"),
         {"/valid": True, "/partner": None}),
        (4, "Holding the four kings, the taker calls a queen; its holder is the partner.", ["5.1", "5.2"], tags,
         queen, {"/valid": True, "/partner": holder(queen, "QS")}),
        (5, "A queen called by a taker who does not hold all four kings.", ["5.1", "12"], tags,
         find_deal("called-5", lambda s: make_deal(5, s, taker=2, fixed={2: ["KS", "KH"]}, called="QD"),
                   lambda d, r: sum(k in d["hands"][2] for k in KINGS) < 4),
         fault("bad_call", None, 2)),
        (6, "Holding the four kings, the taker calls one of them: accepted, he plays alone.", ["5.1", "12"], tags,
         make_deal(5, "called-6", taker=4, fixed={4: list(KINGS)}, called="KC"), {"/valid": True, "/partner": None}),
        (7, "The opening lead in the called king's suit while holding other cards.", ["5.3"], ban,
         led, fault("called_suit_lead", 0, opening_leader(led))),
        (8, "Variant called_suit_lead_ban false: the same opening lead in the called suit is allowed.", ["5.3", "11"],
         ban, {**led, "rules": {"called_suit_lead_ban": False}}, {"/valid": True}),
        (9, "The Excuse led to the first trick, the next player sets the called suit: the ban was his.", ["5.3", "6"],
         [*ban, "excuse"], set_second, fault("called_suit_lead", 0, (opening_leader(set_second) + 1) % 5)),
        (10, "Five players before the first card: the player to lead may not lead the called suit.", ["5.3", "12"],
         [*ban, "in-progress"], unplayed,
         {"/status": "in_progress", "/next/seat": to_lead,
          "/next/legal": [c for c in start_hands(unplayed, unplayed["taker"], unplayed["contract"])[to_lead]
                          if suit(c) != "S" or c == "KS"]}),
        (11, "A lost garde with a partner: the taker pays 2D, the partner D.", ["5.2", "9.3"], tags,
         find_deal("called-11", lambda s: make_deal(5, s, called="KD", contract="garde"),
                   lambda d, r: r.partner is not None and r.answer["/score/won"] is False),
         {"/valid": True, "/score/won": False}),
    ])
    # fmt: on
