"""Deals and positions built for curated cases: hands with cards placed, play policies."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import (
    CONTRACTS,
    DECK,
    KINGS,
    OUDLERS,
    RANKS,
    SUITS,
    TABLE,
    Deal,
    Json,
    ordered,
    rank,
    suit,
)
from .kit import (
    KitError,
)
from .oracle import (
    Ref,
    first_leader,
    opening_ban,
    ref_evaluate,
    ref_legal,
    ref_trick_index,
    ref_tricks,
    start_hands,
    taker_and_contract,
)


def petit_sec(hand: Iterable[str], ignore_excuse: bool = False) -> bool:
    cards = set(hand)
    return {c for c in cards if suit(c) == "T"} == {"1T"} and (ignore_excuse or "EX" not in cards)


def new_hands(
    players: int,
    rng: random.Random,
    fixed: dict[int, list[str]] | None = None,
    dog: list[str] | None = None,
    allow_petit_sec: bool = False,
) -> tuple[list[list[str]], list[str]]:
    """Hands and dog, the ``fixed`` cards where they are asked for, the rest at random."""
    fixed, table = fixed or {}, TABLE[players]
    taken = [c for cards in fixed.values() for c in cards] + list(dog or [])
    assert len(taken) == len(set(taken)), taken
    for _ in range(1000):
        rest = [c for c in DECK if c not in taken]
        rng.shuffle(rest)
        hands = [list(fixed.get(s, [])) for s in range(players)]
        for hand in hands:
            while len(hand) < table.hand:
                hand.append(rest.pop())
        chien = list(dog or [])
        while len(chien) < table.dog:
            chien.append(rest.pop())
        assert not rest
        if allow_petit_sec or not any(petit_sec(h) for h in hands):
            return [ordered(h) for h in hands], ordered(chien)
    raise KitError("no deal without a petit sec")


def auto_discard(full: list[str], size: int, rng: random.Random) -> list[str]:
    """A legal discard (§4.2): plain non-king cards, trumps only when they run short."""
    plain = [c for c in ordered(full) if suit(c) in SUITS and c not in KINGS]
    rng.shuffle(plain)
    chosen = plain[:size]
    if len(chosen) < size:
        spare = [c for c in ordered(full) if suit(c) == "T" and c not in OUDLERS]
        chosen += rng.sample(spare, size - len(chosen))
    return ordered(chosen)


def auto_call(hand: list[str], rng: random.Random) -> str:
    """A king, or the next rank down when the taker holds all four (§5.1)."""
    for r in ("K", "Q", "N", "J"):
        if not all(r + s in hand for s in SUITS):
            return r + rng.choice(SUITS)
    return "J" + rng.choice(SUITS)


@dataclass
class Turn:
    """What a playing policy sees: the deal, the trick so far and the seat's options."""

    deal: Deal
    trick_index: int
    seat: int
    trick: list[str]
    hand: list[str]
    legal: list[str]
    rng: random.Random

    @property
    def last(self) -> bool:
        return self.trick_index == TABLE[self.deal["players"]].hand - 1


Policy = Callable[[Turn], str | None]
Discarder = Callable[[list[list[str]], list[str], int], list[str]]
"""A discard made from the hands, the dog and the taker's seat."""


def play_out(d: Deal, rng: random.Random, policy: Policy | None = None) -> list[str]:
    """Every card of the deal, each chosen by ``policy`` (any card of the hand: it may break a
    rule on purpose) or else at random among the legal ones."""
    n = d["players"]
    taker, contract = taker_and_contract(d)
    assert taker is not None and contract is not None
    hands = start_hands(d, taker, contract)
    leader = first_leader(d, taker)
    plays: list[str] = []
    for t in range(TABLE[n].hand):
        trick: list[str] = []
        for pos in range(n):
            seat = (leader + pos) % n
            legal, _ = ref_legal(hands[seat], trick, opening_ban(d) if t == 0 else None)
            card = policy(Turn(d, t, seat, trick, hands[seat], legal, rng)) if policy else None
            if card is None:
                card = rng.choice(legal)
            assert card in hands[seat], (card, hands[seat])
            trick.append(card)
            hands[seat].remove(card)
        plays += trick
        leader = (leader + (ref_trick_index(trick) or 0)) % n
    return plays


def make_deal(
    players: int,
    seed: str,
    *,
    dealer: int | None = None,
    taker: int | None = None,
    contract: str | None = None,
    fixed: dict[int, list[str]] | None = None,
    dog: list[str] | None = None,
    called: str | None = None,
    chelem: bool = False,
    rules: dict[str, Json] | None = None,
    discard: list[str] | Discarder | None = None,
    poignees: Callable[[Deal], list[dict[str, Json]]] | None = None,
    policy: Policy | None = None,
    play: bool = True,
    allow_petit_sec: bool = False,
) -> Deal:
    """A deal in the evaluate request's shape, seeded by name; what is not given is drawn."""
    rng = random.Random(seed)
    hands, chien = new_hands(players, rng, fixed, dog, allow_petit_sec)
    dealer = rng.randrange(players) if dealer is None else dealer
    taker = rng.randrange(players) if taker is None else taker
    contract = rng.choice(CONTRACTS) if contract is None else contract
    if players == 5 and called is None:
        called = auto_call(hands[taker], rng)
    if callable(discard):
        discard = discard(hands, chien, taker)
    elif discard is None:
        discard = auto_discard(hands[taker] + chien, TABLE[players].dog, rng) if contract in ("prise", "garde") else []
    d: Deal = {
        "players": players,
        "dealer": dealer,
        "hands": hands,
        "dog": chien,
        "contract": contract,
        "taker": taker,
        "called_card": called,
        "discard": discard,
        "chelem_announced": chelem,
        "poignees": [],
        "plays": [],
    }
    if rules:
        d["rules"] = rules
    if poignees is not None:
        d["poignees"] = poignees(d)
    if play:
        d["plays"] = play_out(d, rng, policy)
    return d


def find_deal(name: str, make: Callable[[str], Deal], accept: Callable[[Deal, Ref], bool], tries: int = 3000) -> Deal:
    """The first deal ``make`` builds (seeds name-0, name-1, …) whose reading ``accept`` takes."""
    for i in range(tries):
        d = make(f"{name}-{i}")
        if accept(d, ref_evaluate(d)):
            return d
    raise KitError(f"{name}: no deal found")


def keep(*cards: str) -> Policy:
    """Each holder keeps these cards for the last trick when the rules let him."""

    def policy(turn: Turn) -> str | None:
        if turn.last or not any(c in turn.legal for c in cards):
            return None
        options = [c for c in turn.legal if c not in cards]
        return turn.rng.choice(options) if options else None

    return policy


def chain(*policies: Policy) -> Policy:
    def policy(turn: Turn) -> str | None:
        for p in policies:
            card = p(turn)
            if card is not None:
                return card
        return None

    return policy


def plain(suits: str, low: int, high: int) -> list[str]:
    """The plain cards of ``suits`` ranked ``low``…``high`` (1 = ace … 14 = king)."""
    return [RANKS[r - 1] + s for s in suits for r in range(low, high + 1)]


def trumps(low: int, high: int) -> list[str]:
    return [f"{k}T" for k in range(low, high + 1)]


@dataclass
class Position:
    index: int
    trick: int
    seat: int
    hand: list[str]
    before: list[str]
    legal: list[str]
    reason: str


def positions(d: Deal) -> list[Position]:
    """Every card of a legally played deal: who played it, from what hand, after what."""
    taker, contract = taker_and_contract(d)
    assert taker is not None and contract is not None
    hands = start_hands(d, taker, contract)
    n: int = d["players"]
    out: list[Position] = []
    for t, trick in enumerate(ref_tricks(d, first_leader(d, taker))):
        for pos, card in enumerate(trick.cards):
            seat, before = (trick.leader + pos) % n, trick.cards[:pos]
            legal, reason = ref_legal(hands[seat], before, opening_ban(d) if t == 0 else None)
            out.append(Position(len(out), t, seat, list(hands[seat]), before, legal, reason))
            hands[seat].remove(card)
    return out


def swap_plays(d: Deal, i: int, j: int) -> Deal:
    plays = list(d["plays"])
    plays[i], plays[j] = plays[j], plays[i]
    return {**d, "plays": plays}


def inject(d: Deal, choose: Callable[[Position], str | None]) -> tuple[Deal, Position] | None:
    """The deal with, at the first position where ``choose`` names a card, that card played
    instead, the card it replaces played later in its stead (hands stay consistent)."""
    for p in positions(d):
        card = choose(p)
        if card is None:
            continue
        j = d["plays"].index(card)
        if j > p.index:
            return swap_plays(d, p.index, j), p
    return None


def play_first(card: str, seat: int | None = None) -> Policy:
    """The holder (or ``seat``) plays ``card`` as soon as the rules let him."""

    def policy(turn: Turn) -> str | None:
        return card if card in turn.legal and (seat is None or turn.seat == seat) else None

    return policy


def at_trick(seat: int, trick: int, card: str) -> Policy:
    def policy(turn: Turn) -> str | None:
        return card if turn.seat == seat and turn.trick_index == trick and card in turn.hand else None

    return policy


def highest(seat: int) -> Policy:
    """``seat`` plays its strongest legal card, the Excuse last."""

    def policy(turn: Turn) -> str | None:
        if turn.seat != seat:
            return None
        options = [c for c in turn.legal if c != "EX"] or turn.legal
        return max(options, key=lambda c: (suit(c) == "T", rank(c) if c != "EX" else 0))

    return policy


def fault(code: str, trick: int | None, seat: int | None) -> dict[str, Json]:
    return {"/valid": False, "/violations/0/code": code, "/violations/0/trick": trick, "/violations/0/seat": seat}


def with_bids(d: Deal, bids: list[str], **extra: Json) -> Deal:
    return {**d, "contract": None, "taker": None, "bids": bids, **extra}


def excuse_played(r: Ref) -> tuple[int, int, str]:
    """(trick, seat, owner's side) of the Excuse; (-1, -1, "") when it was not played."""
    n = len(r.tricks[0].cards)
    index = next((i for i, t in enumerate(r.tricks) if "EX" in t.cards), None)
    if index is None:
        return -1, -1, ""
    seat = r.tricks[index].seat_of("EX", n)
    return index, seat, r.side(seat)


def show(seat: int, count: int, *, excuse: bool = False) -> Callable[[Deal], list[dict[str, Json]]]:
    """A poignée of ``seat``: its ``count`` highest trumps as play begins (the Excuse last, if asked)."""

    def make(d: Deal) -> list[dict[str, Json]]:
        taker, contract = taker_and_contract(d)
        hand = start_hands(d, taker, contract)[seat]  # type: ignore[arg-type]
        held = sorted((c for c in hand if suit(c) == "T"), key=rank, reverse=True)
        shown = [*held[: count - 1], "EX"] if excuse else held[:count]
        return [{"seat": seat, "cards": shown}]

    return make


def cut(d: Deal, cards: int) -> Deal:
    return {**d, "plays": d["plays"][:cards]}
