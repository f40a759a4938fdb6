"""Deals and positions built for curated cases: hands with cards placed, play policies."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from service import randomdeals
from service.rules.cards import Card, CardMask, cards_of, format_card, mask_of, parse_card
from service.rules.table import TABLES

from .cards import CONTRACTS, RANKS, TABLE, Deal, Json, rank, suit
from .errors import KitError
from .oracle import Ref, first_leader, opening_ban, ref_evaluate, ref_legal, ref_tricks, start_hands, taker_and_contract


def _codes(cards: CardMask) -> list[str]:
    return [format_card(c) for c in cards_of(cards)]


def _mask(codes: Iterable[str]) -> CardMask:
    return mask_of(parse_card(c) for c in codes)


def new_hands(
    players: int,
    rng: random.Random,
    fixed: dict[int, list[str]] | None = None,
    dog: list[str] | None = None,
    allow_petit_sec: bool = False,
) -> tuple[list[list[str]], list[str]]:
    """Hands and dog, the ``fixed`` cards where they are asked for, the rest at random."""
    placed = {seat: [parse_card(c) for c in cards] for seat, cards in (fixed or {}).items()}
    try:
        hands, chien = randomdeals.deal_around(
            rng, TABLES[players], placed, [parse_card(c) for c in dog or []], allow_petit_sec=allow_petit_sec
        )
    except ValueError as e:
        raise KitError(str(e)) from e
    return [_codes(h) for h in hands], _codes(chien)


def auto_discard(full: list[str], size: int, rng: random.Random) -> list[str]:
    """A legal discard (§4.2): plain non-king cards, trumps only when they run short."""
    return _codes(randomdeals.discard(rng, _mask(full), size))


def auto_call(hand: list[str], rng: random.Random) -> str:
    """A king, or the next rank down when the taker holds all four (§5.1)."""
    return format_card(randomdeals.call(rng, _mask(hand)))


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
    rule on purpose) or else at random among the legal ones: the random deals' own play
    (service/randomdeals.py), on the hands this model reads from the deal."""
    taker, contract = taker_and_contract(d)
    assert taker is not None and contract is not None
    hands = [_mask(hand) for hand in start_hands(d, taker, contract)]
    ban = opening_ban(d)  # read with the deal's rules: given as the called card, the FFT's ban applies it

    def chosen(turn: randomdeals.Turn) -> Card | None:
        assert policy is not None
        seen = Turn(d, turn.trick_index, turn.seat, [format_card(c) for c in turn.trick], _codes(turn.hand),
                    [format_card(c) for c in turn.legal], turn.rng)  # fmt: skip
        card = policy(seen)
        return None if card is None else parse_card(card)

    try:
        plays = randomdeals.play_out(
            rng,
            hands,
            first_leader(d, taker),
            None if ban is None else parse_card(ban),
            policy=None if policy is None else chosen,
        )
    except ValueError as e:
        raise KitError(str(e)) from e
    return [format_card(c) for c in plays]


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
