"""Random legal deals, played out from a seed: test data for the service and for other engines.

:func:`random_deal` shuffles, deals, bids, calls, discards, shows poignées and plays every
trick, each step by the rules (rules.md §2–§9), the cards played chosen at random among the
legal ones (:func:`~.play.legal_cards`). It draws from ``random.Random(seed)`` alone, so a
seed gives the same deal for as long as this module does not change; the deal is played, not
judged: its evaluation (:func:`~.deal.evaluate_deal`) is valid and complete.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Final

from .call import lowest_callable_rank
from .cards import (
    DECK_SIZE,
    EXCUSE,
    EXCUSE_BIT,
    JACK,
    KING,
    KNIGHT,
    OUDLERS,
    QUEEN,
    RANK_OF,
    TRUMPS,
    Card,
    CardMask,
    cards_of,
    count,
    mask_of,
    suit_card,
)
from .cards import PLAIN_SUITS as SUITS
from .dealing import is_petit_sec
from .discard import discardable_plain
from .play import legal_cards, opening_ban, trick_winner
from .poignees import showable_cards
from .record import DealRecord, PoigneeShown
from .replay import first_leader
from .scoring import Contract
from .table import TABLES, Table
from .variants import FFT, Rules

# The bidding: a seat weighs its hand (per card, scaled to a four-player hand of 18 cards so
# that every table bids alike), adds some luck, and names the highest contract that reaches.
WEIGHT_OUDLER: Final = 8
WEIGHT_TRUMP: Final = 2
WEIGHT_BY_RANK: Final = {KING: 6, QUEEN: 3, KNIGHT: 2, JACK: 1}
LUCK: Final = 10.0
"""The luck added to a hand's weight is drawn from ±LUCK."""
BID_AT: Final = (
    (Contract.GARDE_CONTRE, 46.0),
    (Contract.GARDE_SANS, 42.0),
    (Contract.GARDE, 37.0),
    (Contract.PRISE, 32.0),
)
"""The weight (plus luck) from which a seat wants each contract, highest first."""
REFERENCE_HAND: Final = 18

CALL_OWN_CARD: Final = 0.05
"""How often a five-player taker calls a card of his own hand (§5.1), and so plays alone."""
CHELEM_ANNOUNCED: Final = 0.03
"""How often the taker announces a chelem (§9.6): now and then, whatever his hand."""
POIGNEE_SHOWN: Final = 0.75
"""How often a seat holding enough trumps for a poignée shows one (§9.5: it is optional)."""


def random_deal(players: int, seed: int, rules: Rules = FFT) -> DealRecord:
    """A complete deal at ``players`` (3, 4 or 5), legally played, the same for the same ``seed``.

    The record carries everything a deal can: hands and dog as dealt, the bids (and the
    contract and taker they make), the called card at five players, the discard in a prise or
    garde, the poignées shown, a chelem announced now and then, and every card played.
    ``seed`` is a whole number ≥ 0 (``random.Random`` seeds ``-s`` as ``s``).
    """
    table = TABLES.get(players)
    if table is None:
        raise ValueError(f"No table of {players} players; Tarot is played at {', '.join(map(str, TABLES))}.")
    if seed < 0:
        raise ValueError(f"The seed is a whole number from 0, not {seed}.")
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    while True:  # §3.1, §3.3: a petit sec, or every seat passing, and the cards are dealt again
        hands, dog = _deal(rng, table)
        if any(is_petit_sec(hand, rules) for hand in hands):
            continue
        bids = _auction(rng, hands, dealer, table)
        if any(bid is not None for bid in bids):
            break
    turn = max(i for i, bid in enumerate(bids) if bid is not None)  # each bid tops the last: the last one takes
    contract = bids[turn]
    assert contract is not None
    taker = (dealer + 1 + turn) % players
    called = _call(rng, hands[taker]) if players == 5 else None
    play_hands = list(hands)
    discard: CardMask | None = None
    if contract.dog_to_taker:
        discard = _discard(rng, hands[taker] | dog, table.dog_size)
        play_hands[taker] = (hands[taker] | dog) & ~discard
    record = DealRecord(
        players=players,
        dealer=dealer,
        plays=(),
        hands=tuple(tuple(cards_of(hand)) for hand in hands),
        dog=tuple(cards_of(dog)),
        contract=contract,
        taker=taker,
        bids=bids,
        called_card=called,
        discard=None if discard is None else tuple(cards_of(discard)),
        chelem_announced=rng.random() < CHELEM_ANNOUNCED,
        rules=rules,
    )
    # The service's own reading of who leads: the taker after a chelem announced, else by the rules.
    leader = first_leader(record, taker)
    poignees = _poignees(rng, play_hands, taker, discard or 0, leader, table)
    plays = _play(rng, play_hands, leader, called, rules, table)
    return dataclasses.replace(record, poignees=poignees, plays=plays)


def _deal(rng: random.Random, table: Table) -> tuple[list[CardMask], CardMask]:
    # Dealing by threes with the dog's cards set aside one at a time splits the deck as a
    # plain cut of a shuffled deck does: every split is as likely.
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    size = table.hand_size
    hands = [mask_of(deck[seat * size : (seat + 1) * size]) for seat in range(table.players)]
    return hands, mask_of(deck[table.players * size :])


def _weight(hand: CardMask, table: Table) -> float:
    weight = WEIGHT_OUDLER * count(hand & OUDLERS) + WEIGHT_TRUMP * count(hand & TRUMPS & ~OUDLERS)
    weight += sum(WEIGHT_BY_RANK.get(RANK_OF[card], 0) for card in cards_of(hand & ~TRUMPS & ~EXCUSE_BIT))
    return weight * REFERENCE_HAND / table.hand_size


def _auction(rng: random.Random, hands: Sequence[CardMask], dealer: int, table: Table) -> tuple[Contract | None, ...]:
    """One bid per seat from the dealer's right (§3.3): a contract above the best so far, or a pass."""
    bids: list[Contract | None] = []
    best = -1
    for i in range(table.players):
        seat = (dealer + 1 + i) % table.players
        wish = _weight(hands[seat], table) + rng.uniform(-LUCK, LUCK)
        bid = next((contract for contract, weight in BID_AT if wish >= weight), None)
        if bid is not None and bid.rank > best:
            bids.append(bid)
            best = bid.rank
        else:
            bids.append(None)
    return tuple(bids)


def _call(rng: random.Random, hand: CardMask) -> Card:
    """The called card (§5.1): a king; holding all four, a queen; and so on down to a jack."""
    rank = lowest_callable_rank(hand)
    choices = [suit_card(suit, rank) for suit in SUITS]
    own = [card for card in choices if hand >> card & 1]
    others = [card for card in choices if not hand >> card & 1]
    # Holding every jack as well, he can only call one of his own.
    if own and (not others or rng.random() < CALL_OWN_CARD):
        return rng.choice(own)
    return rng.choice(others)


def _discard(rng: random.Random, available: CardMask, size: int) -> CardMask:
    """The écart (§4.2): no king, no oudler; trumps only as many as the other cards fall short."""
    plain = cards_of(discardable_plain(available))
    if len(plain) >= size:
        return mask_of(rng.sample(plain, size))
    # Hand and dog hold at least 11 cards besides the 4 kings and 3 oudlers: enough trumps.
    trumps = cards_of(available & TRUMPS & ~OUDLERS)
    return mask_of(plain) | mask_of(rng.sample(trumps, size - len(plain)))


def _poignees(
    rng: random.Random, hands: Sequence[CardMask], taker: int, discard: CardMask, leader: int, table: Table
) -> tuple[PoigneeShown, ...]:
    """The poignées shown (§9.5), in the order the seats play to the first trick (each shows
    his before his first card): a tier the hand reaches, that many trumps, the highest first,
    and the Excuse only in place of a trump the seat lacks, all its trumps shown beside it."""
    shown: list[PoigneeShown] = []
    for i in range(table.players):
        seat = (leader + i) % table.players
        trumps = showable_cards(hands[seat], discard, seat == taker) & TRUMPS
        has_excuse = bool(hands[seat] & EXCUSE_BIT)
        tiers = [size for size in table.poignee_sizes if size <= count(trumps) + has_excuse]
        if not tiers or rng.random() >= POIGNEE_SHOWN:
            continue
        size = rng.choice(tiers)
        if size > count(trumps):
            cards = [*sorted(cards_of(trumps), reverse=True), EXCUSE]
        else:
            cards = sorted(rng.sample(cards_of(trumps), size), reverse=True)
        shown.append(PoigneeShown(seat, tuple(cards)))
    return tuple(shown)


def _play(
    rng: random.Random,
    hands: Sequence[CardMask],
    leader: int,
    called: Card | None,
    rules: Rules,
    table: Table,
) -> tuple[Card, ...]:
    """Every trick, each card drawn from the legal ones (§5.3, §6); the winner leads the next (§7)."""
    live = list(hands)
    plays: list[Card] = []
    for t in range(table.tricks):
        ban = opening_ban(called, rules, first_trick=t == 0)
        trick: list[Card] = []
        for i in range(table.players):
            seat = (leader + i) % table.players
            card = rng.choice(cards_of(legal_cards(live[seat], trick, banned_lead=ban).cards))
            trick.append(card)
            live[seat] &= ~(1 << card)
        winner = trick_winner(trick)
        assert winner is not None  # a full trick holds cards besides the Excuse
        # The last trick's winner leads nothing, so the chelem exception of §7 is not needed here.
        leader = (leader + winner) % table.players
        plays += trick
    return tuple(plays)
