"""Random legal deals from a seed: the one generator of the tests, the benchmarks, the
conformance kit and ``tarot-rules deal``.

:func:`random_record` draws the dealer, deals the cards as ``POST /v1/deals/deal`` deals them
from the seed's decimal text (:func:`dealt_cards`: rules.md §2.1, §2.2), then draws the taker
and his contract, the called card at five players, a discard in a prise or garde, now and then
a chelem announced, plays every trick, each card drawn among the legal ones
(:func:`~service.rules.play.legal_cards`), and last the poignées shown. Everything but the
cards is drawn from ``random.Random(seed)``, so a seed gives the same deal for as long as this
module keeps its draws in the same order: the kit's generated cases are written from these
seeds, and a change in the order of the draws rewrites them. An auction (``auction=True``) is
drawn after everything else for the same reason.

The steps are functions of their own (:func:`dealt_cards`, :func:`deal_around`,
:func:`call`, :func:`discard`, :func:`play_out` with a :data:`Policy`), so that the kit can
build its curated deals from the same draws: cards placed in given hands, a card played on
purpose at a given moment.

Only the rules core is imported here: neither the web layer nor its schemas.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Final

from service.rules.call import lowest_callable_rank
from service.rules.cards import (
    DECK_SIZE,
    OUDLERS,
    PLAIN_SUITS,
    TRUMPS,
    Card,
    CardMask,
    cards_of,
    format_card,
    mask_of,
    parse_card,
    suit_card,
)
from service.rules.dealing import deal_deck, is_petit_sec
from service.rules.discard import discardable_plain
from service.rules.play import legal_cards, opening_ban, trick_winner
from service.rules.poignees import showable_cards
from service.rules.record import DealRecord, PoigneeShown
from service.rules.replay import opening_leader
from service.rules.scoring import Contract
from service.rules.shuffle import shuffled_deck
from service.rules.table import TABLES, Table
from service.rules.variants import FFT, Rules

CHELEM_ANNOUNCED: Final = 0.05
"""How often the taker announces a chelem (§9.6): now and then, whatever his hand."""
POIGNEE_SHOWN: Final = 0.5
"""How often a seat holding enough trumps shows a poignée (§9.5: it is optional)."""
OVERBID: Final = 0.5
"""In a drawn auction, how often a seat before the taker bids what it can below him."""
PASS: Final = "pass"
"""A pass, as the request writes it."""


@dataclass(frozen=True)
class Turn:
    """What a playing policy sees: the trick's number and the seat, the cards of the trick so
    far, the seat's hand, the cards the rules let it play (ascending), and the draws."""

    trick_index: int
    seat: int
    trick: Sequence[Card]
    hand: CardMask
    legal: Sequence[Card]
    rng: random.Random


Policy = Callable[[Turn], Card | None]
"""The card a seat plays (any card of its hand, even one the rules refuse), or ``None`` for a
card drawn among the legal ones."""


def _table(players: int) -> Table:
    table = TABLES.get(players)
    if table is None:
        raise ValueError(f"No table of {players} players; Tarot is played at {', '.join(map(str, TABLES))}.")
    return table


REDEALS: Final = 1000
"""Deals after a petit sec before giving up (one deal in some fifty has one)."""


def seed_text(seed: int, redeal: int = 0) -> str:
    """The seed of the shuffle (§2.2) of deal ``seed``: its decimal text, then ``seed/1``,
    ``seed/2``… for each new deal after a petit sec."""
    return str(seed) if redeal == 0 else f"{seed}/{redeal}"


def dealt_cards(seed: int, table: Table, dealer: int, rules: Rules = FFT) -> tuple[list[CardMask], CardMask]:
    """Hands and dog of the deal of the cards (§2.1: the FFT's packets, the dog spread between
    them) of the deck :func:`seed_text` shuffles, the same dealer dealing again from the next
    seed text while a hand is a petit sec (§3.1)."""
    for redeal in range(REDEALS):
        dealt = deal_deck(shuffled_deck(seed_text(seed, redeal)), table, dealer, rules=rules)
        if dealt.petit_sec_seat is None:
            return [mask_of(hand) for hand in dealt.hands], mask_of(dealt.dog)
    raise ValueError(f"Seed {seed}: a petit sec in {REDEALS} deals.")


def deal_around(
    rng: random.Random,
    table: Table,
    fixed: Mapping[int, Sequence[Card]],
    dog: Sequence[Card] = (),
    *,
    allow_petit_sec: bool = False,
    rules: Rules = FFT,
) -> tuple[list[CardMask], CardMask]:
    """Hands and dog holding the ``fixed`` cards of some seats and the ``dog`` cards given, the
    rest of the deck shuffled among them; a petit sec dealt again unless allowed."""
    taken = [card for cards in fixed.values() for card in cards] + list(dog)
    if len(taken) != len(set(taken)):
        raise ValueError(f"A card is placed twice: {sorted(taken)}.")
    for _ in range(1000):
        rest = [card for card in range(DECK_SIZE) if card not in taken]
        rng.shuffle(rest)
        hands = [list(fixed.get(seat, ())) for seat in range(table.players)]
        for hand in hands:
            while len(hand) < table.hand_size:
                hand.append(rest.pop())
        chien = list(dog)
        while len(chien) < table.dog_size:
            chien.append(rest.pop())
        masks = [mask_of(hand) for hand in hands]
        if allow_petit_sec or not any(is_petit_sec(hand, rules) for hand in masks):
            return masks, mask_of(chien)
    raise ValueError("No deal around these cards without a petit sec.")


def call(rng: random.Random, hand: CardMask) -> Card:
    """The called card (§5.1): a card of the lowest rank the taker may call, of any suit."""
    rank = lowest_callable_rank(hand)
    return rng.choice([suit_card(suit, rank) for suit in PLAIN_SUITS])


def discard(rng: random.Random, available: CardMask, size: int) -> CardMask:
    """The écart (§4.2): plain cards but kings; trumps but oudlers only where those fall short."""
    plain = cards_of(discardable_plain(available))
    rng.shuffle(plain)
    chosen = plain[:size]
    if len(chosen) < size:
        spare = cards_of(available & TRUMPS & ~OUDLERS)
        chosen += rng.sample(spare, size - len(chosen))
    return mask_of(chosen)


def play_out(
    rng: random.Random,
    hands: Sequence[CardMask],
    leader: int,
    called: Card | None = None,
    rules: Rules = FFT,
    policy: Policy | None = None,
    tricks: int | None = None,
) -> list[Card]:
    """Every card of ``tricks`` tricks (a hand's worth when not given): each seat plays what
    ``policy`` names, or else a card drawn among the legal ones (§5.3, §6); the winner leads
    the next trick (§7)."""
    players = len(hands)
    live = list(hands)
    plays: list[Card] = []
    for t in range(_table(players).tricks if tricks is None else tricks):
        ban = opening_ban(called, rules, first_trick=t == 0)
        trick: list[Card] = []
        for pos in range(players):
            seat = (leader + pos) % players
            options = cards_of(legal_cards(live[seat], trick, banned_lead=ban).cards)
            card = None if policy is None else policy(Turn(t, seat, tuple(trick), live[seat], options, rng))
            if card is None:
                card = rng.choice(options)
            elif not live[seat] >> card & 1:
                raise ValueError(f"The policy plays {format_card(card)}, which seat {seat} does not hold.")
            trick.append(card)
            live[seat] &= ~(1 << card)
        plays += trick
        leader = (leader + (trick_winner(trick) or 0)) % players
    return plays


def random_record(seed: int, players: int, rules: Rules = FFT, *, auction: bool = False) -> DealRecord:
    """A complete deal at ``players`` (3, 4 or 5), legally played, the same for the same ``seed``
    (a whole number from 0: ``random.Random`` seeds ``-s`` as ``s``).

    With ``auction`` the record also carries the bids that make its taker and contract, drawn
    last: the deal is the same with them or without."""
    table = _table(players)
    if seed < 0:
        raise ValueError(f"The seed is a whole number from 0, not {seed}.")
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    hands, dog = dealt_cards(seed, table, dealer, rules)
    taker = rng.randrange(players)
    contract = rng.choice(list(Contract))
    called = call(rng, hands[taker]) if players == 5 else None
    play_hands = list(hands)
    discarded = 0
    if contract.dog_to_taker:
        discarded = discard(rng, hands[taker] | dog, table.dog_size)
        play_hands[taker] = (hands[taker] | dog) & ~discarded
    chelem = rng.random() < CHELEM_ANNOUNCED
    leader = opening_leader(dealer, taker, players, chelem, rules)
    plays = play_out(rng, play_hands, leader, called, rules)
    poignees = _poignees(rng, play_hands, taker, discarded, table)
    return DealRecord(
        players=players,
        dealer=dealer,
        plays=tuple(plays),
        hands=tuple(tuple(cards_of(hand)) for hand in hands),
        dog=tuple(cards_of(dog)),
        contract=contract,
        taker=taker,
        bids=_auction(rng, dealer, taker, contract, players) if auction else None,
        called_card=called,
        discard=tuple(cards_of(discarded)),
        chelem_announced=chelem,
        poignees=poignees,
        rules=rules,
    )


def _poignees(
    rng: random.Random, hands: Sequence[CardMask], taker: int, discarded: CardMask, table: Table
) -> tuple[PoigneeShown, ...]:
    """A simple poignée, its highest trumps, by each seat holding enough that shows one (§9.5);
    the taker counts the trumps he discarded too."""
    shown: list[PoigneeShown] = []
    for seat, hand in enumerate(hands):
        trumps = cards_of(showable_cards(hand, discarded, seat == taker) & TRUMPS)
        if len(trumps) >= table.poignee_sizes[0] and rng.random() < POIGNEE_SHOWN:
            shown.append(PoigneeShown(seat, tuple(sorted(trumps, reverse=True)[: table.poignee_sizes[0]])))
    return tuple(shown)


def _auction(
    rng: random.Random, dealer: int, taker: int, contract: Contract, players: int
) -> tuple[Contract | None, ...]:
    """Bids from the dealer's right (§3.3) that make ``taker`` take at ``contract``: a seat
    before him may bid lower, each bid above the last; every other seat passes."""
    order = list(Contract)
    turn = (taker - dealer - 1) % players
    bids: list[Contract | None] = []
    best = -1
    for i in range(players):
        if i == turn:
            bids.append(contract)
            continue
        below = order[best + 1 : order.index(contract)] if i < turn else []
        if below and rng.random() < OVERBID:
            bid = rng.choice(below)
            best = order.index(bid)
            bids.append(bid)
        else:
            bids.append(None)
    return tuple(bids)


def _codes(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [format_card(card) for card in cards]


def request_of(record: DealRecord, record_id: str | None = None) -> dict[str, Any]:
    """The ``POST /v1/deals/evaluate`` request of a deal record, its keys in the request's
    order; the bids only when the record has them, the rules only where they differ from the FFT."""
    request: dict[str, Any] = {} if record_id is None else {"id": record_id}
    request.update(
        players=record.players,
        dealer=record.dealer,
        hands=None if record.hands is None else [_codes(hand) for hand in record.hands],
        dog=_codes(record.dog),
        contract=None if record.contract is None else record.contract.value,
        taker=record.taker,
    )
    if record.bids is not None:
        request["bids"] = [PASS if bid is None else bid.value for bid in record.bids]
    request.update(
        called_card=None if record.called_card is None else format_card(record.called_card),
        discard=_codes(record.discard),
        chelem_announced=record.chelem_announced,
        poignees=[{"seat": p.seat, "cards": _codes(p.cards)} for p in record.poignees],
        plays=_codes(record.plays),
    )
    if record.rules != FFT:
        # An enum as its plain string, as JSON parsing would give it.
        request["rules"] = {
            f.name: value.value if isinstance(value, Enum) else value
            for f in fields(record.rules)
            if (value := getattr(record.rules, f.name)) != getattr(FFT, f.name)
        }
    return request


def random_deal(seed: int, players: int) -> dict[str, Any]:
    """A legally played complete deal, in the request shape of ``POST /v1/deals/evaluate``."""
    return request_of(random_record(seed, players))


def record(d: Mapping[str, Any]) -> DealRecord:
    """The core's record of a deal given in the request shape of ``POST /v1/deals/evaluate``
    (a request the tests built: its fields are taken as they are, not validated)."""

    def cards(codes: list[str] | None) -> tuple[Card, ...] | None:
        return None if codes is None else tuple(parse_card(c) for c in codes)

    def bid(name: str) -> Contract | None:
        return None if name == PASS else Contract(name)

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
        chelem_announced=d.get("chelem_announced"),
        poignees=tuple(
            PoigneeShown(p["seat"], tuple(parse_card(c) for c in p["cards"]), p.get("shown_at"))
            for p in d.get("poignees", [])
        ),
        rules=Rules(**{k: (type(getattr(FFT, k))(v)) for k, v in d.get("rules", {}).items()}),
    )
