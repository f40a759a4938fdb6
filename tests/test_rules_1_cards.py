"""rules.md §1 — cards, codes, oudlers, card points."""

from __future__ import annotations

import pytest

from service.rules import cards as C  # noqa: N812


def test_the_deck_has_78_cards_in_canonical_order() -> None:
    assert len(C.CARD_CODES) == 78
    assert C.CARD_CODES[:3] == ("1S", "2S", "3S")
    assert C.CARD_CODES[10:14] == ("JS", "NS", "QS", "KS")
    assert C.CARD_CODES[14] == "1H"
    assert C.CARD_CODES[56] == "1T"
    assert C.CARD_CODES[76] == "21T"
    assert C.CARD_CODES[77] == "EX"
    assert len(set(C.CARD_CODES)) == 78


def test_card_points_total_91() -> None:
    assert sum(C.HALF_POINTS) == 182


@pytest.mark.parametrize(
    ("code", "half_points"),
    [
        ("21T", 9),
        ("1T", 9),
        ("EX", 9),
        ("KS", 9),
        ("QH", 7),
        ("ND", 5),
        ("JC", 3),
        ("10S", 1),
        ("1D", 1),
        ("20T", 1),
        ("2T", 1),
    ],
)
def test_card_points(code: str, half_points: int) -> None:
    assert C.HALF_POINTS[C.parse_card(code)] == half_points


def test_oudlers_are_21_petit_excuse() -> None:
    assert C.cards_of(C.OUDLERS) == [C.parse_card("1T"), C.parse_card("21T"), C.parse_card("EX")]


@pytest.mark.parametrize("code", ["ks", "K S", "11S", "0T", "22T", "EXC", "", "KT", "CS", "T1"])
def test_unknown_codes_are_refused(code: str) -> None:
    with pytest.raises(KeyError):
        C.parse_card(code)


def test_codes_round_trip() -> None:
    for card in range(78):
        assert C.parse_card(C.format_card(card)) == card


def test_suits_and_ranks() -> None:
    assert C.SUIT_OF[C.parse_card("KS")] is C.Suit.SPADES
    assert C.SUIT_OF[C.parse_card("NC")] is C.Suit.CLUBS
    assert C.SUIT_OF[C.parse_card("1T")] is C.Suit.TRUMPS
    assert C.SUIT_OF[C.EXCUSE] is None
    assert C.RANK_OF[C.parse_card("KS")] == 14
    assert C.RANK_OF[C.parse_card("21T")] == 21
    assert C.suit_card(C.Suit.HEARTS, 10) == C.parse_card("10H")
    assert C.trump(21) == C.MONDE


def test_masks() -> None:
    hand = C.mask_of(C.parse_card(c) for c in ["EX", "KS", "1T"])
    assert C.count(hand) == 3
    assert [C.format_card(c) for c in C.cards_of(hand)] == ["KS", "1T", "EX"]
    assert C.half_points_of(hand) == 27
    assert C.count(C.TRUMPS) == 21
    assert C.count(C.KINGS) == 4
    assert all(C.count(C.SUIT_MASKS[s]) == 14 for s in range(4))
