"""rules.md §7 — the winner of a trick (the chelem exception is tested with deals)."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules.cards import parse_card
from service.rules.play import led_suit, trick_winner

from .kitcases import kit_cases


@pytest.mark.parametrize("case", kit_cases("winner", "trick-winner", "excuse"))
def test_7_trick_winner(case: dict[str, Any]) -> None:
    """The kit's curated tricks (tests/kitcases.py): the winning card, its seat, the suit led."""
    request, expect = case["request"], case["expect"]
    cards = [parse_card(c) for c in request["cards"]]
    index = trick_winner(cards)
    assert index == expect["/winner_index"]
    assert (None if index is None else (request["leader"] + index) % request["players"]) == expect["/winner"]
    suit = led_suit(cards)
    assert (None if suit is None else suit.code) == expect["/led_suit"]


def test_only_the_excuse_has_no_winner_yet() -> None:
    assert trick_winner([parse_card("EX")]) is None
    assert led_suit([parse_card("EX")]) is None
