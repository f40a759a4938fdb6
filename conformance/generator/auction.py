"""Curated deals of chapter 3: the bids and the petit sec (rules.md §3, §11, §12)."""

from __future__ import annotations

import random

from .assembly import Kit
from .building import fault, make_deal, with_bids
from .cards import DECK, SUITS, TABLE, Deal, Json, ordered, suit


def bids_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "bids",
        "The auction: the taker and contract from the bids, all passing, bids out of order (rules.md §3.2–3.4, §12).",
    )
    prise = make_deal(4, "bids-6", dealer=0, taker=1, contract="prise")
    pousse = make_deal(4, "bids-9", dealer=0, taker=1, contract="garde", rules={"pousse_alias": True})
    # fmt: off
    kit.add_rows(t, [
        (1, "Bids pass, prise, pass, garde sans from the dealer's right: the dealer, seat 3, takes.", ["3.3", "3.2"],
         ["bids"], with_bids(make_deal(4, "bids-1", dealer=3, taker=3, contract="garde_sans"),
                             ["pass", "prise", "pass", "garde_sans"]),
         {"/valid": True, "/taker": 3, "/contract": "garde_sans"}),
        *((n, f"{players} players, every seat passes: the cards are dealt again.", ["3.3"], ["bids"],
           with_bids(make_deal(players, f"bids-{n}", play=False), ["pass"] * players, called_card=None, discard=None),
           {"/status": "redeal", "/redeal_reason": "all_passed", "/valid": True})
          for n, players in ((2, 4), (3, 3), (4, 5))),
        (5, "A prise after a garde is not higher: the bid is a fault and is ignored.", ["3.3"], ["bids"],
         with_bids(make_deal(4, "bids-5", dealer=0, taker=1, contract="garde"), ["garde", "prise", "pass", "pass"]),
         {**fault("bid_not_higher", None, 2), "/taker": 1}),
        (6, "A prise after a prise is not higher.", ["3.3"], ["bids"],
         with_bids(prise, ["prise", "prise", "pass", "pass"]), {**fault("bid_not_higher", None, 2), "/taker": 1}),
        (7, "Three bids at four players: every seat speaks once.", ["3.3", "12"], ["bids"],
         with_bids(prise, ["prise", "pass", "pass"]), fault("bid_order", None, None)),
        (8, "Bids that make seat 1 the taker in garde, while the record states a prise.", ["3.3", "12"], ["bids"],
         {**prise, "bids": ["garde", "pass", "pass", "pass"]}, fault("bid_order", None, None)),
        (9, "Under pousse_alias a pousse bid is a garde: the taker plays a garde.", ["3.4", "11", "12"], ["bids"],
         with_bids(pousse, ["pousse", "pass", "pass", "pass"]),
         {"/valid": True, "/contract": "garde", "/score/multiplier": 2}),
        (10, "Under pousse_alias a pousse after a garde is not higher (it is a garde).", ["3.4", "11", "12"], ["bids"],
         with_bids(pousse, ["garde", "pousse", "pass", "pass"]),
         {**fault("bid_not_higher", None, 2), "/contract": "garde"}),
        (11, "The dealer's right (seat 2 when seat 1 deals) speaks first: its garde makes it the taker.", ["2", "3.3"],
         ["bids"], with_bids(make_deal(3, "bids-11", dealer=1, taker=2, contract="garde"), ["garde", "pass", "pass"]),
         {"/valid": True, "/taker": 2}),
        (12, "Cards played in a deal that everybody passed: the deal had to be dealt again.", ["3.3", "12"], ["bids"],
         with_bids(make_deal(4, "bids-12", play=False), ["pass"] * 4, plays=make_deal(4, "bids-12")["plays"][:4]),
         {**fault("plays_length", 0, None), "/status": "redeal", "/redeal_reason": "all_passed"}),
        (13, "Five players: a prise by seat 2, then garde contre by the dealer, seat 4, who takes.", ["3.3", "3.2"],
         ["bids", "called-card"], with_bids(make_deal(5, "bids-13", dealer=4, taker=4, contract="garde_contre"),
                                            ["pass", "pass", "prise", "pass", "garde_contre"]),
         {"/valid": True, "/taker": 4, "/contract": "garde_contre", "/score/multiplier": 6}),
    ])
    # fmt: on


def petit_sec_hand(players: int, rng: random.Random, excuse: bool = False, extra: tuple[str, ...] = ()) -> list[str]:
    """The Petit, maybe the Excuse or other cards, the rest plain cards."""
    pool = [c for c in DECK if suit(c) in SUITS]
    rng.shuffle(pool)
    head = ["1T", *(["EX"] if excuse else []), *extra]
    return ordered(head + pool[: TABLE[players].hand - len(head)])


def petit_sec_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "petit-sec",
        "The petit sec: the Petit as a hand's only trump, without the Excuse (rules.md §3.1, §11, §12).",
    )

    def deal(players: int, name: str, seat: int, taker: int, excuse: bool = False, **kw: Json) -> Deal:
        hand = petit_sec_hand(players, random.Random(name), excuse, kw.pop("extra", ()))
        return make_deal(players, name, fixed={seat: hand}, taker=taker, allow_petit_sec=True, **kw)

    excused = deal(4, "petit-sec-4", 2, 0, excuse=True, contract="garde_sans")
    passed = with_bids(deal(4, "petit-sec-6", 1, 0, excuse=True, play=False), ["pass"] * 4, discard=None)
    ignores_excuse = {"petit_sec_ignores_excuse": True}
    # fmt: off
    kit.add_rows(t, [
        (1, "Seat 0 was dealt a petit sec and every seat passed: the cards are dealt again.", ["3.1", "12"],
         ["petit-sec", "oudlers"], with_bids(deal(4, "petit-sec-1", 0, 1, play=False), ["pass"] * 4, discard=None),
         {"/status": "redeal", "/redeal_reason": "petit_sec", "/valid": True}),
        (2, "Seat 1 was dealt a petit sec, yet seat 2 took and the deal was played: a fault of the deal.",
         ["3.1", "12"], ["petit-sec", "oudlers"], deal(3, "petit-sec-2", 1, 2, contract="garde_sans"),
         fault("petit_sec", None, 1)),
        (3, "Five players: a petit sec at seat 3 and all passing: redeal, nothing called.", ["3.1", "12"],
         ["petit-sec", "oudlers"],
         with_bids(deal(5, "petit-sec-3", 3, 0, play=False), ["pass"] * 5, discard=None, called_card=None),
         {"/status": "redeal", "/redeal_reason": "petit_sec", "/valid": True}),
        (4, "The Petit with the Excuse beside it is not sec: the deal is played.", ["3.1"],
         ["petit-sec", "excuse", "oudlers"], excused, {"/valid": True, "/status": "complete"}),
        (5, "Variant petit_sec_ignores_excuse: the same hand is a petit sec, and playing it is a fault.", ["3.1", "11"],
         ["petit-sec", "excuse", "oudlers"], {**excused, "rules": ignores_excuse}, fault("petit_sec", None, 2)),
        (6, "The Petit with the Excuse, all passing: the redeal is for all passing, not for a petit sec.",
         ["3.1", "3.3"], ["petit-sec", "excuse"], passed, {"/status": "redeal", "/redeal_reason": "all_passed"}),
        (7, "Variant petit_sec_ignores_excuse, the Petit with the Excuse and all passing: a petit sec redeal.",
         ["3.1", "11"], ["petit-sec", "excuse"], {**passed, "rules": ignores_excuse},
         {"/status": "redeal", "/redeal_reason": "petit_sec"}),
        (8, "The Petit with one other trump is not sec.", ["3.1"], ["petit-sec", "oudlers"],
         deal(3, "petit-sec-8", 0, 1, extra=("2T",), contract="garde"), {"/valid": True, "/status": "complete"}),
        (9, "Five players: a petit sec at seat 4 while seat 1 took and called: the deal is faulted.", ["3.1", "12"],
         ["petit-sec", "called-card"], deal(5, "petit-sec-9", 4, 1, contract="prise"), fault("petit_sec", None, 4)),
    ])
    # fmt: on
