"""rules.md §7 — the winner of a trick (the chelem exception is tested with deals)."""

from __future__ import annotations

import pytest

from service.rules.cards import parse_card
from service.rules.play import led_suit, trick_winner

CASES = [
    ("highest of the led suit", "3S KS QS 1S", 1),
    ("off-suit cards do not win", "3S KH QD 1C", 0),
    ("a trump beats the led suit", "KS 2T QS", 1),
    ("the highest trump wins", "KS 2T 21T 20T", 2),
    ("trump lead: highest trump", "5T 7T 1T", 1),
    ("the Excuse never wins", "EX 3S 1S", 1),
    ("the Excuse does not set the suit", "EX 2H KS QH", 3),
    ("the Excuse as last card", "3S 1S EX", 0),
    ("trump after Excuse lead", "EX 4T 5H", 1),
    ("five players", "7D ND 2D KD 10D", 3),
]


@pytest.mark.parametrize(("rule", "trick", "winner"), CASES, ids=[c[0] for c in CASES])
def test_trick_winner(rule: str, trick: str, winner: int) -> None:
    assert trick_winner([parse_card(c) for c in trick.split()]) == winner


def test_only_the_excuse_has_no_winner_yet() -> None:
    assert trick_winner([parse_card("EX")]) is None
    assert led_suit([parse_card("EX")]) is None
