"""Random legal deals for property tests, played through the core's own legal_cards."""

from __future__ import annotations

import random
from typing import Any

from service.rules.cards import (
    EXCUSE_BIT,
    KINGS,
    OUDLERS,
    PETIT,
    TRUMPS,
    cards_of,
    format_card,
    mask_of,
    parse_card,
)
from service.rules.play import legal_cards, trick_winner
from service.rules.record import DealRecord, PoigneeShown
from service.rules.scoring import Contract
from service.rules.table import TABLES
from service.rules.variants import FFT, Rules


def _petit_sec(hand: int) -> bool:
    return hand & TRUMPS == 1 << PETIT and not hand & EXCUSE_BIT


def random_deal(seed: int, players: int) -> dict[str, Any]:
    """A legally played complete deal, in the request shape of POST /v1/deals/evaluate."""
    rng = random.Random(seed)
    table = TABLES[players]
    while True:
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [mask_of(deck[i * table.hand_size : (i + 1) * table.hand_size]) for i in range(players)]
        dog = mask_of(deck[players * table.hand_size :])
        if not any(_petit_sec(h) for h in hands):
            break
    dealer = rng.randrange(players)
    taker = rng.randrange(players)
    contract = rng.choice(list(Contract))
    called = None
    if players == 5:
        rank = 14
        while rank > 11 and all(hands[taker] >> (s * 14 + rank - 1) & 1 for s in range(4)):
            rank -= 1
        called = rng.choice([s * 14 + rank - 1 for s in range(4)])
    play_hands = list(hands)
    discard = 0
    if contract.dog_to_taker:
        full = hands[taker] | dog
        plain = cards_of(full & ~TRUMPS & ~KINGS & ~EXCUSE_BIT)
        rng.shuffle(plain)
        chosen = plain[: table.dog_size]
        if len(chosen) < table.dog_size:
            spare = cards_of(full & TRUMPS & ~OUDLERS)
            chosen += rng.sample(spare, table.dog_size - len(chosen))
        discard = mask_of(chosen)
        play_hands[taker] = full & ~discard
    chelem = rng.random() < 0.05
    leader = taker if chelem else (dealer + 1) % players
    plays: list[int] = []
    live = list(play_hands)
    for t in range(table.tricks):
        trick: list[int] = []
        for pos in range(players):
            seat = (leader + pos) % players
            ban = called if players == 5 and t == 0 else None
            options = cards_of(legal_cards(live[seat], trick, banned_lead=ban).cards)
            card = rng.choice(options)
            trick.append(card)
            live[seat] &= ~(1 << card)
        plays += trick
        index = trick_winner(trick)
        leader = (leader + (index or 0)) % players
    poignees = []
    for seat in range(players):
        trumps = cards_of(play_hands[seat] & TRUMPS)
        if seat == taker:
            trumps += cards_of(discard & TRUMPS)
        if len(trumps) >= table.poignee_sizes[0] and rng.random() < 0.5:
            shown = sorted(trumps, reverse=True)[: table.poignee_sizes[0]]
            poignees.append({"seat": seat, "cards": [format_card(c) for c in shown]})

    def codes(mask: int) -> list[str]:
        return [format_card(c) for c in cards_of(mask)]

    return {
        "players": players,
        "dealer": dealer,
        "hands": [codes(h) for h in hands],
        "dog": codes(dog),
        "contract": contract.value,
        "taker": taker,
        "called_card": None if called is None else format_card(called),
        "discard": codes(discard),
        "chelem_announced": chelem,
        "poignees": poignees,
        "plays": [format_card(c) for c in plays],
    }


def record(d: dict[str, Any]) -> DealRecord:
    """The core's record of a deal given in the request shape of POST /v1/deals/evaluate."""

    def cards(codes: list[str] | None) -> tuple[int, ...] | None:
        return None if codes is None else tuple(parse_card(c) for c in codes)

    def bid(name: str) -> Contract | None:
        return None if name == "pass" else Contract(name)

    hands = d.get("hands")
    return DealRecord(
        players=d["players"],
        dealer=d["dealer"],
        plays=tuple(parse_card(c) for c in d.get("plays", [])),
        hands=None if hands is None else tuple(tuple(parse_card(c) for c in h) for h in hands),
        dog=cards(d.get("dog")),
        contract=None if d.get("contract") is None else Contract(d["contract"]),
        taker=d.get("taker"),
        bids=None if d.get("bids") is None else tuple(bid(b) for b in d["bids"]),
        called_card=None if d.get("called_card") is None else parse_card(d["called_card"]),
        discard=cards(d.get("discard")),
        chelem_announced=d.get("chelem_announced", False),
        poignees=tuple(
            PoigneeShown(p["seat"], tuple(parse_card(c) for c in p["cards"])) for p in d.get("poignees", [])
        ),
        rules=Rules(**{k: (type(getattr(FFT, k))(v)) for k, v in d.get("rules", {}).items()}),
    )
