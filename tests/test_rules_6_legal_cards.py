"""rules.md §6 (which cards are legal) and the five-player opening-lead ban of §5.

The positions are the conformance kit's curated ones (tests/kitcases.py), and its golden ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.rules.cards import cards_of, format_card, mask_of, parse_card
from service.rules.play import legal_cards, opening_ban
from service.rules.variants import Rules

from .conftest import golden
from .kitcases import kit_cases


def legal(hand: str, trick: str = "", banned: str | None = None) -> tuple[str, str]:
    h = mask_of(parse_card(c) for c in hand.split())
    t = [parse_card(c) for c in trick.split()]
    result = legal_cards(h, t, banned_lead=None if banned is None else parse_card(banned))
    return " ".join(format_card(c) for c in cards_of(result.cards)), result.reason.value


def check(case: dict[str, Any]) -> None:
    """A legal-cards case of the kit: the legal cards, as a set, and the rule that decided them."""
    request, expect = case["request"], case["expect"]
    rules = Rules(**request.get("rules", {}))
    called = request.get("called_card")
    ban = opening_ban(
        None if called is None else parse_card(called), rules, first_trick=request.get("first_trick", False)
    )
    got, why = legal(" ".join(request["hand"]), " ".join(request["trick"]), None if ban is None else format_card(ban))
    assert sorted(got.split()) == sorted(expect["/legal"])
    assert why == expect["/reason"]


@pytest.mark.parametrize("case", kit_cases("legal-cards", "lead"))
def test_6_2_leading(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("legal-cards", "follow-suit"))
def test_6_3_following_suit(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("legal-cards", "trump"))
def test_6_4_trumping(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("legal-cards", "discard"))
def test_6_5_discarding(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("legal-cards", "excuse"))
def test_6_1_the_excuse(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("legal-cards", "called-suit-ban"))
def test_5_3_the_called_suit_ban(case: dict[str, Any]) -> None:
    check(case)


# Positions of the ban the kit does not hold (the king of spades called, first trick).
BAN_CASES = [
    ("no called suit on the opening lead", "3S 5S 2H", "", "2H", "called_suit_ban"),
    ("the called card and the Excuse: both may be led", "KS EX", "", "KS EX", "lead"),
]


@pytest.mark.parametrize(("rule", "hand", "trick", "expected", "reason"), BAN_CASES, ids=[c[0] for c in BAN_CASES])
def test_5_3_the_called_suit_ban_more(rule: str, hand: str, trick: str, expected: str, reason: str) -> None:
    assert legal(hand, trick, "KS") == (expected, reason)


@pytest.mark.parametrize("row", golden("legal_positions.jsonl"), ids=lambda r: f"{r['players']}p-{r['hand'][0]}")
def test_golden_positions(row: dict[str, Any]) -> None:
    banned = row["called_card"] if row["players"] == 5 and row["first_trick"] else None
    got, _ = legal(" ".join(row["hand"]), " ".join(row["trick"]), banned)
    assert got.split() == row["legal"]
