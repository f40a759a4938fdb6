"""The deal of the cards (rules.md §2.1) and the shuffle from a seed (§2.2), with the rulebook's
test vectors read from docs/rules.md itself (their one copy)."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import CARD_CODES, DECK_SIZE, FULL_DECK, PETIT, format_card, mask_of, parse_card, trump
from service.rules.dealing import (
    FFT_PACKETS,
    DogFault,
    deal_deck,
    dog_faults,
    packet_fits,
    spread_dog_positions,
)
from service.rules.shuffle import ByteStream, draw_below, is_valid_seed, reference_shuffled_deck, shuffled_deck
from service.rules.table import TABLES
from service.rules.variants import Rules

RULEBOOK = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
SECTION = RULEBOOK[RULEBOOK.index("### 2.2 ") : RULEBOOK.index("## 3. ")]
BLOCKS = re.findall(r"```text\n(.*?)```", SECTION, flags=re.DOTALL)


def _deck_vectors() -> list[tuple[str, str, list[str]]]:
    vectors = []
    for chunk in BLOCKS[1].strip().split("\n\n"):  # the first block is the pseudo-code
        seed_line, digest_line, *lines = chunk.splitlines()
        seed = json.loads(seed_line.removeprefix("seed "))
        vectors.append((seed, digest_line.removeprefix("digest "), " ".join(lines).split()))
    return vectors


DECK_VECTORS = _deck_vectors()


def test_the_rulebook_gives_three_decks_at_least() -> None:
    assert len(DECK_VECTORS) >= 3
    assert all(len(deck) == DECK_SIZE and set(deck) == set(CARD_CODES) for _, _, deck in DECK_VECTORS)


@pytest.mark.parametrize(("seed", "digest", "deck"), DECK_VECTORS, ids=[v[0] for v in DECK_VECTORS])
def test_2_2_vectors_seed_to_deck(seed: str, digest: str, deck: list[str]) -> None:
    dealt = [format_card(card) for card in shuffled_deck(seed)]
    assert dealt == deck
    assert hashlib.sha256(" ".join(dealt).encode("ascii")).hexdigest() == digest


def test_2_2_vectors_the_stream_and_the_first_draws() -> None:
    block = re.search(r"block 0 is\s+`([0-9a-f]{64})`", SECTION)
    words = re.search(r"first words are\s+([\d,\s]+?), and", SECTION)
    draws = re.search(r"are ([\d,\s]+?)\. Each deck", SECTION)
    assert block and words and draws
    assert hashlib.sha256(b"tarot" + bytes(8)).hexdigest() == block[1]
    stream = ByteStream("tarot")
    assert [stream.word() for _ in range(3)] == [int(w) for w in words[1].split(",")]
    stream = ByteStream("tarot")
    expected = [int(j) for j in draws[1].split(",")]
    assert [stream.below(i + 1) for i in range(77, 77 - len(expected), -1)] == expected


def test_2_2_vector_a_deal_at_four_players() -> None:
    head, positions, *seats, dog = BLOCKS[2].strip().splitlines()
    found = re.fullmatch(r'deal seed (".*") players (\d) dealer (\d) packet (\d)', head)
    assert found
    seed, players, dealer, packet = json.loads(found[1]), int(found[2]), int(found[3]), int(found[4])
    assert players == 4
    dealt = deal_deck(shuffled_deck(seed), TABLES[players], dealer, packet)
    assert list(dealt.dog_positions) == [int(p) for p in positions.removeprefix("dog positions ").split()]
    assert [" ".join(map(format_card, hand)) for hand in dealt.hands] == [s.split(": ")[1] for s in seats]
    assert " ".join(map(format_card, dealt.dog)) == dog.removeprefix("dog: ")
    assert dealt.petit_sec_seat is None


def test_2_2_draws_are_below_n_and_rejection_uses_words_up() -> None:
    stream = ByteStream("x")
    assert all(0 <= stream.below(n) < n for n in range(1, 79) for _ in range(5))
    # n = 3: limit = 2^32 − 1, so only the word 2^32 − 1 is refused; a whole block has 8 words.
    stream, words = ByteStream("y"), ByteStream("y")
    assert [stream.below(1) for _ in range(9)] == [0] * 9  # nothing refused: one word a draw
    assert stream.word() == [words.word() for _ in range(10)][-1]

    given = [2**32 - 1, 7]
    assert draw_below(lambda: given.pop(0), 3) == 1 and given == []  # 2^32 − 1 refused and used up, then 7 mod 3


def test_2_2_seeds() -> None:
    assert is_valid_seed("a") and is_valid_seed("é" * 256)
    assert not is_valid_seed("") and not is_valid_seed("a" * 257) and not is_valid_seed("\ud800")
    # No normalisation: É as one code point and as E + combining acute are two seeds.
    assert shuffled_deck("\u00c9") != shuffled_deck("E\u0301")


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=40).filter(is_valid_seed))
def test_2_2_same_seed_same_deck_every_card_once(seed: str) -> None:
    deck = shuffled_deck(seed)
    assert deck == shuffled_deck(seed)
    assert len(deck) == DECK_SIZE and mask_of(deck) == FULL_DECK


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=256).filter(is_valid_seed))
def test_2_2_the_fast_shuffle_is_the_stated_one(seed: str) -> None:
    # The shuffle reads the stream a block at a time; the rulebook's steps read it word by word.
    assert shuffled_deck(seed) == reference_shuffled_deck(seed)


CANONICAL = tuple(range(DECK_SIZE))


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("packet", [1, 3, 4])
def test_2_1_hand_and_dog_sizes(players: int, packet: int) -> None:
    table = TABLES[players]
    if not packet_fits(table, packet):
        assert packet == 4 and players != 3
        with pytest.raises(ValueError):
            deal_deck(CANONICAL, table, 0, packet)
        return
    dealt = deal_deck(shuffled_deck(f"sizes/{players}/{packet}"), table, 0, packet)
    assert [len(hand) for hand in dealt.hands] == [table.hand_size] * players
    assert len(dealt.dog) == table.dog_size == len(dealt.dog_positions)
    assert mask_of(dealt.dog) | mask_of(c for hand in dealt.hands for c in hand) == FULL_DECK


def test_2_1_the_fft_packets() -> None:
    assert FFT_PACKETS == {3: 4, 4: 3, 5: 3}
    assert deal_deck(CANONICAL, TABLES[3], 0).packet == 4
    assert deal_deck(CANONICAL, TABLES[5], 0).packet == 3


LATE_DOG = {
    (4, 3): [30, 40, 50, 60, 70, 74],
    (4, 1): [30, 40, 50, 60, 70, 74],
    (5, 3): [30, 40, 50],
    (3, 4): [32, 41, 50, 59, 68, 73],
}
"""Dog positions after the first packets, so that these are dealt straight from the deck."""


@pytest.mark.parametrize(
    ("players", "dealer", "packet", "first_hands"),
    [
        # The deck in canonical order: 1S 2S … 10S JS NS QS KS 1H 2H …
        (4, 0, 3, {1: "1S 2S 3S", 2: "4S 5S 6S", 3: "7S 8S 9S", 0: "10S JS NS"}),
        (4, 2, 3, {3: "1S 2S 3S", 0: "4S 5S 6S", 1: "7S 8S 9S", 2: "10S JS NS"}),
        (4, 3, 1, {0: "1S 5S 9S", 1: "2S 6S 10S", 2: "3S 7S JS", 3: "4S 8S NS"}),
        (5, 4, 3, {0: "1S 2S 3S", 1: "4S 5S 6S", 4: "QS KS 1H"}),
        (3, 1, 4, {2: "1S 2S 3S 4S", 0: "5S 6S 7S 8S", 1: "9S 10S JS NS"}),
    ],
)
def test_2_1_the_first_card_to_the_seat_after_the_dealer(
    players: int, dealer: int, packet: int, first_hands: dict[int, str]
) -> None:
    dealt = deal_deck(CANONICAL, TABLES[players], dealer, packet, LATE_DOG[players, packet])
    for seat, cards in first_hands.items():
        got = dealt.hands[seat][: len(cards.split())]
        assert " ".join(map(format_card, got)) == cards


def test_2_1_a_dog_card_between_packets_is_skipped_by_the_deal() -> None:
    # By default at four players the 10th card (position 9, the 10 of spades) goes to the dog:
    # seat 0, fourth in turn after dealer 0, gets the next three cards.
    dealt = deal_deck(CANONICAL, TABLES[4], 0, 3)
    assert dealt.dog_positions[0] == 9 and dealt.dog[0] == parse_card("10S")
    assert " ".join(map(format_card, dealt.hands[0][:3])) == "JS NS QS"


def test_2_1_the_dog_at_the_positions_given() -> None:
    positions = [3, 7, 20, 50, 61, 76]  # packets of 1: any position but the first and last
    dealt = deal_deck(CANONICAL, TABLES[4], 0, 1, positions)
    assert dealt.dog == tuple(positions) and dealt.dog_positions == tuple(positions)
    assert all(card not in dealt.dog for hand in dealt.hands for card in hand)
    # Given in any order, the dog is the same, in the order put aside.
    assert deal_deck(CANONICAL, TABLES[4], 0, 1, positions[::-1]).dog == dealt.dog


@pytest.mark.parametrize(("players", "packet"), [(3, 1), (3, 3), (3, 4), (4, 1), (4, 3), (5, 1), (5, 3)])
def test_2_1_the_default_dog_positions_are_spread_between_packets(players: int, packet: int) -> None:
    table = TABLES[players]
    positions = spread_dog_positions(table, packet)
    assert len(set(positions)) == table.dog_size
    assert not dog_faults(packet, positions)
    # Never two dog cards in a row by default: each alone between two packets.
    assert all(b - a > 1 for a, b in itertools.pairwise(positions))


def test_2_1_dog_faults() -> None:
    assert dog_faults(3, [0, 10, 77]) == [(0, DogFault.FIRST_OR_LAST_CARD), (2, DogFault.FIRST_OR_LAST_CARD)]
    # Position 4 has 4 hand cards before it: inside the second packet of 3. After it, position 7
    # has 6 (between packets), position 8 has 7.
    assert dog_faults(3, [4, 7]) == [(0, DogFault.INSIDE_PACKET)]
    assert dog_faults(3, [4, 8]) == [(0, DogFault.INSIDE_PACKET), (1, DogFault.INSIDE_PACKET)]
    assert dog_faults(3, [3, 7]) == []
    assert dog_faults(3, [3, 4]) == []  # two in a row, both after the first packet


@settings(max_examples=60, deadline=None)
@given(
    st.text(min_size=1, max_size=12).filter(is_valid_seed),
    st.sampled_from([(3, 1), (3, 3), (3, 4), (4, 1), (4, 3), (5, 1), (5, 3)]),
    st.integers(0, 4),
    st.data(),
)
def test_2_1_the_dog_never_takes_the_first_or_last_card(
    seed: str, table_packet: tuple[int, int], dealer: int, data: st.DataObject
) -> None:
    players, packet = table_packet
    table = TABLES[players]
    dealer %= players
    # Any positions the rules allow: distinct gaps between packets, drawn, some dog cards in a row.
    packets = players * table.hand_size // packet
    gaps = data.draw(
        st.lists(st.integers(1, packets - 1), min_size=table.dog_size, max_size=table.dog_size).map(sorted)
    )
    positions = [gap * packet + k for k, gap in enumerate(gaps)]
    assert not dog_faults(packet, positions)
    deck = shuffled_deck(seed)
    for given_positions in (positions, None):
        dealt = deal_deck(deck, table, dealer, packet, given_positions)
        assert deck[0] not in dealt.dog and deck[-1] not in dealt.dog
        assert deck[0] in dealt.hands[(dealer + 1) % players]
        assert [len(hand) for hand in dealt.hands] == [table.hand_size] * players
        assert 0 not in dealt.dog_positions and DECK_SIZE - 1 not in dealt.dog_positions
    # The same positions with the first or last card among them are refused.
    spoilt = [0, *positions[1:]] if data.draw(st.booleans()) else [*positions[:-1], DECK_SIZE - 1]
    assert any(fault is DogFault.FIRST_OR_LAST_CARD for _, fault in dog_faults(packet, spoilt))
    with pytest.raises(ValueError):
        deal_deck(deck, table, dealer, packet, spoilt)


def _deck_with_petit_sec(excuse_too: bool) -> list[int]:
    """A deck that gives seat 0 at four players (dealer 3) the Petit as its only trump, and the
    Excuse beside it when asked."""
    # Dealt in canonical order, each card is its own deck position: seat 0's hand is where its cards lie.
    seat_0 = deal_deck(CANONICAL, TABLES[4], 3, 3).hands[0]
    first = [PETIT, parse_card("EX") if excuse_too else parse_card("KS")]
    held = first + [card for card in range(trump(1)) if card not in first][: len(seat_0) - len(first)]
    rest = iter(card for card in range(DECK_SIZE) if card not in held)
    deck = [-1] * DECK_SIZE
    for position, card in zip(seat_0, held, strict=True):
        deck[position] = card
    return [next(rest) if card < 0 else card for card in deck]


@pytest.mark.parametrize(("excuse_too", "ignores_excuse", "flagged"), [
    (False, False, True), (True, False, False), (True, True, True),
])  # fmt: skip
def test_3_1_a_petit_sec_is_flagged(excuse_too: bool, ignores_excuse: bool, flagged: bool) -> None:
    deck = _deck_with_petit_sec(excuse_too)
    dealt = deal_deck(deck, TABLES[4], 3, 3, None, Rules(petit_sec_ignores_excuse=ignores_excuse))
    assert mask_of(dealt.hands[0]) & mask_of(range(trump(1), trump(21) + 1)) == 1 << PETIT
    assert (parse_card("EX") in dealt.hands[0]) is excuse_too
    assert dealt.petit_sec_seat == (0 if flagged else None)


def test_2_1_refuses_what_the_contract_refuses_first() -> None:
    table = TABLES[4]
    with pytest.raises(ValueError):
        deal_deck(CANONICAL[:-1], table, 0)
    with pytest.raises(ValueError):
        deal_deck((*CANONICAL[:-1], 0), table, 0)
    with pytest.raises(ValueError):
        deal_deck(CANONICAL, table, 4)
    with pytest.raises(ValueError):
        deal_deck(CANONICAL, table, 0, 3, [9, 19, 32, 42, 55])
    with pytest.raises(ValueError):
        deal_deck(CANONICAL, table, 0, 3, [10, 19, 32, 42, 55, 65])
