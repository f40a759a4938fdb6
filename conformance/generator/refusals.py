"""Curated cases of requests the rules refuse: a card code that does not exist, a card given
twice, a seat out of range, a required field missing, a field that does not apply at this table
size. Each is a sound request spoilt in one place; an implementation must refuse it (a 4xx
problem) and locate the fault at, or within, each expected pointer.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from service.randomdeals import random_deal

from .assembly import Kit, Topic
from .building import cut
from .cards import DECK, Json
from .verdicts import REFUSED

REMOVED: Json = object()
"""The value of a row that takes the field out."""

RefusalRow = tuple[int, str, list[str], list[str], str, Json, list[str]]
"""A refusal as a row of its topic's table: number, description, sections, tags, the pointer
spoilt, the value put there (or REMOVED), the pointers the refusal must locate."""

DEAL_SEED = 1
"""The random deals spoilt for the evaluate operation's refusals (service/randomdeals.py)."""


def spoilt(request: Json, pointer: str, value: Json) -> Json:
    """A copy of ``request`` with ``value`` at ``pointer`` (its tokens plain keys and indexes, or
    ``-`` past a list's end), or without what is there when ``value`` is REMOVED."""
    out = copy.deepcopy(request)
    *path, last = pointer[1:].split("/")
    parent = out
    for token in path:
        parent = parent[int(token) if isinstance(parent, list) else token]
    if isinstance(parent, list) and last == "-":
        parent.append(value)  # the JSON pointer past a list's end: an item added
        return out
    key = int(last) if isinstance(parent, list) else last
    if value is REMOVED:
        del parent[key]
    else:
        parent[key] = value
    return out


def add_refusals(kit: Kit, topic: Topic, sound: Json, rows: Iterable[RefusalRow]) -> None:
    """The cases of a table, each ``sound`` spoilt as its row says. ``sound`` itself must be
    answered (else the service refuses it: ServiceError), so that each refusal is the row's."""
    kit.answer(topic.operation, sound)
    for number, description, rules, tags, pointer, value, pointers in rows:
        request = spoilt(sound, pointer, value)
        kit.add_refusal(topic, number, description, rules, tags, request, pointers)


def refusal_cases(kit: Kit) -> None:
    legal_refusals(kit)
    winner_refusals(kit)
    deal_refusals(kit)
    score_refusals(kit)
    evaluate_refusals(kit)
    game_refusals(kit)


# fmt: off
def legal_refusals(kit: Kit) -> None:
    t = kit.topic("legal-cards", "refusals", "Positions the rules refuse, each fault located by its JSON pointer: "
                  "cards that do not exist or are given twice, a trick already full, a field missing or out of "
                  "place (rules.md §1.5, §2, §5).", REFUSED)
    sound = {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]}
    add_refusals(kit, t, sound, [
        (1, "A hand holding 22T: trumps run from 1 to 21.", ["1.5"], [], "/hand/2", "22T", ["/hand/2"]),
        (2, "A trick led with QX: the suits are S, H, D and C.", ["1.5"], [], "/trick/0", "QX", ["/trick/0"]),
        (3, "A hand holding the king of spades twice: each card is in the deck once.", ["1.1"], [], "/hand/2", "KS",
         ["/hand"]),
        (4, "No hand: the cards held are what the legal cards are chosen from.", ["6"], [], "/hand", REMOVED,
         ["/hand"]),
        (5, "A trick of four cards at four players: it is complete, nobody is left to play to it.", ["2", "7"], [],
         "/trick", ["QS", "2S", "3S", "4S"], ["/trick"]),
        (6, "A called card at four players: only a five-player taker calls one.", ["5.1"], ["called-card"],
         "/called_card", "KH", ["/called_card"]),
    ])


def winner_refusals(kit: Kit) -> None:
    t = kit.topic("winner", "refusals", "Tricks the rules refuse, each fault located by its JSON pointer: cards "
                  "that do not exist or are played twice, more cards than players, a leader who is not at the table "
                  "(rules.md §1.5, §2, §7).", REFUSED)
    sound = {"players": 4, "leader": 2, "cards": ["QS", "EX", "1T", "KS"]}
    add_refusals(kit, t, sound, [
        (1, "A trick holding 0T: trumps run from 1 to 21.", ["1.5"], [], "/cards/1", "0T", ["/cards/1"]),
        (2, "The queen of spades played twice in one trick.", ["1.1"], [], "/cards/3", "QS", ["/cards"]),
        (3, "Seat 4 leads at four players: the seats are 0 to 3.", ["2"], [], "/leader", 4, ["/leader"]),
        (4, "Seat -1 leads: the seats are 0 to 3.", ["2"], [], "/leader", -1, ["/leader"]),
        (5, "Five cards in a trick at four players: each seat plays one.", ["2", "7"], [], "/cards",
         ["QS", "EX", "1T", "KS", "2S"], ["/cards"]),
        (6, "No cards: the trick's cards decide its winner.", ["7"], [], "/cards", REMOVED, ["/cards"]),
    ])


def score_refusals(kit: Kit) -> None:
    t = kit.topic("score", "refusals", "Deal summaries the rules refuse, each fault located by its JSON pointer: "
                  "more oudlers or points than the deck holds, points off the half-point grid, a contract, taker or "
                  "partner that cannot be (rules.md §1.2, §1.3, §2, §3.2, §5.2).", REFUSED)
    sound = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
    add_refusals(kit, t, sound, [
        (1, "Four oudlers: there are three, the 21, the Petit and the Excuse.", ["1.2"], ["oudlers"], "/oudlers", 4,
         ["/oudlers"]),
        (2, "92 points: the deck holds 91.", ["1.3"], [], "/points", 92, ["/points"]),
        (3, "40.3 points: card points come in halves.", ["1.3"], ["half-point"], "/points", 40.3, ["/points"]),
        (4, "A contract named grande: the contracts are prise, garde, garde_sans and garde_contre.", ["3.2"], [],
         "/contract", "grande", ["/contract"]),
        (5, "Seat 4 takes at four players: the seats are 0 to 3.", ["2"], [], "/taker", 4, ["/taker"]),
        (6, "A partner at four players: only a five-player taker has one.", ["5.2"], ["called-card"], "/partner", 1,
         ["/partner"]),
        (7, "No points: the taker's side's card points decide the deal.", ["9.1"], [], "/points", REMOVED,
         ["/points"]),
    ])
    # A chelem leaves the side that took no trick only its pile and its Excuse (rules.md §9.6, §12).
    sound = {"players": 4, "contract": "garde", "taker": 0, "points": 87, "oudlers": 2,
             "chelem": {"announced": True, "made_by": "attack"}}
    add_refusals(kit, t, sound, [
        (8, "A garde chelem by the attack with 2 oudlers and 58 points: the defence keeps at most its Excuse, so the "
         "attack has 87.", ["9.6", "12", "8.2"], ["chelem"], "/points", 58, ["/points"]),
    ])
    sound = {"players": 4, "contract": "garde", "taker": 0, "points": 80, "oudlers": 1,
             "chelem": {"announced": False, "made_by": None}}
    add_refusals(kit, t, sound, [
        (9, "A garde won with 80 points and 1 oudler, said to be the attack's chelem: the 21 and the Petit would "
         "have fallen in its tricks.", ["9.6", "12"], ["chelem"], "/chelem/made_by", "attack", ["/oudlers"]),
    ])
    sound = {"players": 4, "contract": "prise", "taker": 0, "points": 7, "oudlers": 1,
             "chelem": {"announced": False, "made_by": "defence"}}
    add_refusals(kit, t, sound, [
        (10, "A defence chelem at prise with 1 oudler and 30 points: the taker keeps his discard (at most 19, no "
         "king) and his Excuse (4).", ["9.6", "12", "4.2"], ["chelem"], "/points", 30, ["/points"]),
    ])


def deal_refusals(kit: Kit) -> None:
    t = kit.topic("deal", "refusals", "Deals of the cards the rules refuse, each fault located by its JSON "
                  "pointer: a deck without every card once, the dog given the deck's first or last card or put "
                  "aside inside a packet, packets that do not fill the hands, both a deck and a seed (rules.md "
                  "§1.1, §2, §2.1, §2.2).", REFUSED)
    sound = {"players": 4, "dealer": 1, "deck": DECK, "dog_positions": [9, 19, 32, 42, 55, 65]}
    add_refusals(kit, t, sound, [
        (1, "A deck with the king of spades twice and no Excuse: every card once.", ["1.1", "2.1"], ["deck"],
         "/deck/77", "KS", ["/deck"]),
        (2, "A deck of 77 cards.", ["1.1", "2.1"], ["deck"], "/deck", DECK[:-1], ["/deck"]),
        (3, "The dog given the deck's first card.", ["2.1"], ["dog"], "/dog_positions/0", 0, ["/dog_positions/0"]),
        (4, "The dog given the deck's last card.", ["2.1"], ["dog"], "/dog_positions/5", 77, ["/dog_positions/5"]),
        (5, "A dog card in the middle of a packet of 3 (ten hand cards dealt before it).", ["2.1"], ["dog"],
         "/dog_positions/0", 10, ["/dog_positions/0"]),
        (6, "Five dog positions at four players: the dog holds six cards.", ["2", "2.1"], ["dog"],
         "/dog_positions", [9, 19, 32, 42, 55], ["/dog_positions"]),
        (7, "Packets of 4 at four players: they do not fill hands of 18.", ["2.1"], [], "/packet", 4, ["/packet"]),
        (8, "A deck and a seed: the deal is of one or the other.", ["2.2"], ["seed"], "/seed", "tarot",
         ["/seed"]),
    ])


def evaluate_refusals(kit: Kit) -> None:
    t = kit.topic("evaluate", "refusals", "Deal records the rules refuse, each fault located by its JSON pointer: "
                  "cards that do not exist, a dealer or taker who is not at the table, hands that do not match the "
                  "table size, a called card where there is none to call (rules.md §1.5, §2, §5). A record's "
                  "faults of play are not refusals: they are verdicts (evaluate/play-faults).", REFUSED)
    sound = cut(random_deal(DEAL_SEED, 4), 4)
    add_refusals(kit, t, sound, [
        (1, "A hand holding 11S: the plain ranks are 1 to 10, J, N, Q and K.", ["1.5"], [], "/hands/0/3", "11S",
         ["/hands/0/3"]),
        (2, "22T played: trumps run from 1 to 21.", ["1.5"], [], "/plays/2", "22T", ["/plays/2"]),
        (3, "Seat 4 deals at four players: the seats are 0 to 3.", ["2"], [], "/dealer", 4, ["/dealer"]),
        (4, "Seat 4 takes at four players: the seats are 0 to 3.", ["2"], [], "/taker", 4, ["/taker"]),
        (5, "No dealer: who bids and leads first follows from his seat.", ["2"], [], "/dealer", REMOVED,
         ["/dealer"]),
        (6, "Three hands at four players.", ["2"], [], "/hands", sound["hands"][:3], ["/hands"]),
        (7, "A called card at four players: only a five-player taker calls one.", ["5.1"], ["called-card"],
         "/called_card", "KH", ["/called_card"]),
    ])
    sound = cut(random_deal(DEAL_SEED, 5), 3)
    add_refusals(kit, t, sound, [
        (8, "Five players, the called card ZH: the suits are S, H, D and C.", ["1.5", "5.1"], ["called-card"],
         "/called_card", "ZH", ["/called_card"]),
    ])


def game_refusals(kit: Kit) -> None:
    t = kit.topic("score-game", "refusals", "Score sheets the rules refuse, each fault located by its JSON pointer: "
                  "a draw of cards that do not exist or are drawn twice, names that do not match the table, a "
                  "dealer, taker or partner that cannot be, a deal or sheet missing a part (rules.md §1.5, §2, "
                  "§5.2, §15).", REFUSED)
    sound = {"players": 4, "names": ["N", "E", "S", "W"], "draw": ["10H", "10C", "5T", "KS"],
             "deals": [{"dealer": 1, "summary": {"contract": "garde", "taker": 0, "points": 51, "oudlers": 2}}]}
    add_refusals(kit, t, sound, [
        (1, "Seat 4 deals at four players: the seats are 0 to 3.", ["2"], ["sheet"], "/deals/0/dealer", 4,
         ["/deals/0/dealer"]),
        (2, "Seat 4 takes at four players: the seats are 0 to 3.", ["2"], ["sheet"], "/deals/0/summary/taker", 4,
         ["/deals/0/summary/taker"]),
        (3, "A partner at four players: only a five-player taker has one.", ["5.2"], ["sheet", "called-card"],
         "/deals/0/summary/partner", 1, ["/deals/0/summary/partner"]),
        (4, "1Z drawn: the suits are S, H, D and C.", ["1.5", "15.1"], ["draw"], "/draw/1", "1Z", ["/draw/1"]),
        (5, "Two seats draw the ten of hearts: each draws a card of its own.", ["15.1"], ["draw"], "/draw/1", "10H",
         ["/draw"]),
        (6, "Three names at a table of four.", ["15"], ["sheet"], "/names", ["N", "E", "S"], ["/names"]),
        (7, "A sheet without its deals.", ["15.3"], ["sheet"], "/deals", REMOVED, ["/deals"]),
        (8, "A deal's summary without its oudlers: they set the threshold.", ["1.4", "9.2"], ["sheet"],
         "/deals/0/summary/oudlers", REMOVED, ["/deals/0/summary/oudlers"]),
    ])
# fmt: on
