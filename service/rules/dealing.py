"""The cards as dealt (rules.md §2, §2.1, §3.1): the deal of a deck in packets with the dog put
aside, and the checks of dealt hands: their sizes, cards dealt twice, a petit sec."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..messages import CardName, msg
from .cards import DECK_SIZE, EXCUSE_BIT, FULL_DECK, PETIT, TRUMPS, Card, CardMask, mask_of
from .frozen import copied_by_constructor
from .record import DealContext
from .table import Table
from .variants import FFT, Rules
from .verdicts import ViolationCode

FFT_PACKETS: Final[dict[int, int]] = {3: 4, 4: 3, 5: 3}
"""The FFT's packet by number of players (§2.1): four cards at a time at three, three at four and five."""
PACKETS: Final = (1, 3, 4)
"""The packets a deal may use: one card at a time (the FFT Code text), three or four (the FFT)."""


class DogFault(StrEnum):
    """Why a deck position cannot be where a dog card is put aside (§2.1)."""

    FIRST_OR_LAST_CARD = "dog_first_or_last_card"
    """The deck's first or last card never goes to the dog."""
    INSIDE_PACKET = "dog_inside_packet"
    """The dog's cards are put aside between packets, never in the middle of one."""


def packet_fits(table: Table, packet: int) -> bool:
    """Whether packets of ``packet`` cards deal this table's hands whole: 4 only at three players."""
    return packet in PACKETS and table.hand_size % packet == 0


def spread_dog_positions(table: Table, packet: int) -> tuple[int, ...]:
    """Where the dog's cards are put aside when the request does not say: spread evenly between
    the packets (§2.1). With ``P`` packets dealt in all and a dog of ``m`` cards, the ``k``-th dog
    card (``k = 1 … m``) is put aside after ``g = ⌊k·P / (m + 1)⌋`` packets, at deck position
    ``g·packet + k − 1``; as ``P > m``, never before the first packet nor after the last."""
    packets = table.players * table.hand_size // packet
    m = table.dog_size
    return tuple(k * packets // (m + 1) * packet + k - 1 for k in range(1, m + 1))


def dog_faults(packet: int, positions: Sequence[int]) -> list[tuple[int, DogFault]]:
    """The faults of dog positions (deck positions ``0 … 77``, distinct) for packets of
    ``packet``: by index in ``positions``, each with its :class:`DogFault`."""
    taken = sorted(set(positions))
    faults = []
    for index, position in enumerate(positions):
        if position in (0, DECK_SIZE - 1):
            faults.append((index, DogFault.FIRST_OR_LAST_CARD))
            continue
        # The hand cards dealt before it: a whole number of packets, or the dog card splits one.
        hand_cards_before = position - taken.index(position)
        if hand_cards_before % packet:
            faults.append((index, DogFault.INSIDE_PACKET))
    return faults


@dataclass(frozen=True, slots=True)
class DealtCards:
    """A deck dealt (§2.1): who got each card, the dog set aside, and a petit sec if one was dealt."""

    deck: tuple[Card, ...]
    """The 78 cards in the order dealt, the first card first."""
    packet: int
    hands: tuple[tuple[Card, ...], ...]
    """By seat, each in the order received."""
    dog: tuple[Card, ...]
    """In the order put aside."""
    dog_positions: tuple[int, ...]
    """The deck position of each card of :attr:`dog`, ascending."""
    petit_sec_seat: int | None
    """The seat dealt a petit sec (§3.1): the deal begins again. One seat at most holds the Petit."""


def deal_deck(
    deck: Sequence[Card],
    table: Table,
    dealer: int,
    packet: int | None = None,
    dog_positions: Sequence[int] | None = None,
    rules: Rules = FFT,
) -> DealtCards:
    """The deal of ``deck`` (§2.1): from the top, packets of ``packet`` cards (the FFT's for the
    table when not given) to each seat in playing order from the one after ``dealer``, round
    after round; the card at each of ``dog_positions`` (spread evenly when not given) is put
    aside in the dog instead. :class:`ValueError` for a deck, packet or positions the rules
    refuse (the contract locates those faults first)."""
    if len(deck) != DECK_SIZE or mask_of(deck) != FULL_DECK:
        raise ValueError("A deck holds each of the 78 cards once.")
    if not 0 <= dealer < table.players:
        raise ValueError(f"No seat {dealer} at {table.players} players.")
    packet = FFT_PACKETS[table.players] if packet is None else packet
    if not packet_fits(table, packet):
        raise ValueError(f"Packets of {packet} do not deal hands of {table.hand_size}.")
    positions = spread_dog_positions(table, packet) if dog_positions is None else tuple(sorted(dog_positions))
    if len(set(positions)) != table.dog_size or not all(0 <= p < DECK_SIZE for p in positions):
        raise ValueError(f"The dog takes {table.dog_size} distinct deck positions.")
    if dog_faults(packet, positions):
        raise ValueError(f"The dog cannot be put aside at {list(positions)} with packets of {packet}.")
    hands: list[list[Card]] = [[] for _ in range(table.players)]
    dog: list[Card] = []
    aside = set(positions)
    dealt = 0  # hand cards dealt so far
    for position, card in enumerate(deck):
        if position in aside:
            dog.append(card)
            continue
        seat = (dealer + 1 + dealt // packet) % table.players
        hands[seat].append(card)
        dealt += 1
    petit_sec = first_petit_sec([mask_of(hand) for hand in hands], rules)
    return DealtCards(tuple(deck), packet, tuple(tuple(hand) for hand in hands), tuple(dog), positions, petit_sec)


def check_dealt_hands(deal: DealContext) -> list[CardMask] | None:
    """The dealt hands as masks, after checking sizes and that no card is dealt twice."""
    r, table = deal.record, deal.table
    if r.hands is None:
        return None
    seen = 0
    masks = []
    for seat, hand in enumerate(r.hands):
        if len(hand) != table.hand_size:
            deal.report(
                ViolationCode.HAND_SIZE,
                msg("violation.hand_size.hand", len(hand), seat=seat, expected=table.hand_size),
                seat=seat,
            )
        mask = mask_of(hand)
        if mask & seen or mask.bit_count() != len(hand):  # some card dealt twice: say which
            for card in hand:
                if seen >> card & 1:
                    deal.report(
                        ViolationCode.DUPLICATE_CARD,
                        msg("violation.duplicate_card.dealt", card=CardName(card)),
                        seat=seat,
                        card=card,
                    )
                seen |= 1 << card
        seen |= mask
        masks.append(mask)
    if r.dog is not None:
        if len(r.dog) != table.dog_size:
            deal.report(ViolationCode.HAND_SIZE, msg("violation.hand_size.dog", len(r.dog), expected=table.dog_size))
        for card in r.dog:
            if seen >> card & 1:
                deal.report(
                    ViolationCode.DUPLICATE_CARD, msg("violation.duplicate_card.dealt", card=CardName(card)), card=card
                )
            seen |= 1 << card
    return masks


def is_petit_sec(hand: CardMask, rules: Rules) -> bool:
    if hand & TRUMPS != 1 << PETIT:
        return False
    return rules.petit_sec_ignores_excuse or not hand & EXCUSE_BIT


def first_petit_sec(hands: Sequence[CardMask], rules: Rules) -> int | None:
    """The first seat dealt a petit sec (§3.1), or None."""
    for seat, hand in enumerate(hands):
        if is_petit_sec(hand, rules):
            return seat
    return None


def petit_sec_seat(deal: DealContext, dealt: list[CardMask] | None) -> int | None:
    return first_petit_sec(dealt or [], deal.record.rules)


copied_by_constructor(DealtCards)
