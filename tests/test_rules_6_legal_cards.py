"""rules.md §6 (which cards are legal) and the five-player opening-lead ban of §5."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules.cards import cards_of, format_card, mask_of, parse_card
from service.rules.play import LegalReason, legal_cards

from .conftest import golden


def legal(hand: str, trick: str = "", banned: str | None = None) -> tuple[str, str]:
    h = mask_of(parse_card(c) for c in hand.split())
    t = [parse_card(c) for c in trick.split()]
    result = legal_cards(h, t, banned_lead=None if banned is None else parse_card(banned))
    return " ".join(format_card(c) for c in cards_of(result.cards)), result.reason.value


CASES = [
    # (rule, hand, trick, legal, reason)
    ("6.2 leading: any card", "KS 2H 5T EX", "", "KS 2H 5T EX", "lead"),
    ("6.2 after an Excuse lead: any card", "KS 2H 5T", "EX", "KS 2H 5T", "lead"),
    ("6.3 follow suit, no need to go higher", "1S KS 2H 5T EX", "QS", "1S KS EX", "follow"),
    ("6.3 follow the suit set after an Excuse lead", "1S 2H 5T", "EX 3H", "2H", "follow"),
    ("6.3 follow even when the trick is already trumped", "1S 2H 5T", "QS 4T", "1S", "follow"),
    ("6.4 void: must trump", "2H 5T 9T", "QS", "5T 9T", "trump"),
    ("6.4 void: must trump, Excuse allowed", "2H 5T EX", "QS", "5T EX", "trump"),
    ("6.4 void: must overtrump", "2H 5T 9T 12T", "QS 8T", "9T 12T", "overtrump"),
    ("6.4 overtrump even over a partner", "2H 5T 9T", "QS 8T 3S", "9T", "overtrump"),
    ("6.4 cannot overtrump: undertrump", "2H 5T 6T", "QS 8T", "5T 6T", "undertrump"),
    ("6.4 trump led: must overtrump", "KS 3T 15T", "10T", "15T", "overtrump"),
    ("6.4 trump led: cannot overtrump, any trump", "KS 3T 5T", "10T", "3T 5T", "undertrump"),
    ("6.4 trump led after Excuse: overtrump", "KS 3T 15T", "EX 10T", "15T", "overtrump"),
    ("6.4 the Petit may be forced out", "KS 1T", "21T", "1T", "undertrump"),
    ("6.5 trump led, no trump: any card", "KS 2H", "10T", "KS 2H", "discard"),
    ("6.5 no suit, no trump: any card", "2H 3D EX", "QS", "2H 3D EX", "discard"),
    ("6.1 the Excuse alone is always legal", "EX", "QS 5T", "EX", "discard"),
    ("6.1 Excuse as the last card on a trump lead", "EX", "10T", "EX", "discard"),
    ("5 ban: no called suit on the opening lead", "3S 5S 2H", "", "2H", "called_suit_ban"),
    ("5 ban: the called card itself may be led", "3S KS 2H", "", "KS 2H", "called_suit_ban"),
    ("5 ban: lifts when only the called suit is held", "3S 5S", "", "3S 5S", "lead"),
    ("5 ban: lifts when only the called suit is held, the called card among it", "3S KS", "", "3S KS", "lead"),
    ("5 ban: the called card and the Excuse: both may be led", "KS EX", "", "KS EX", "lead"),
    ("5 ban: the Excuse is something else to lead", "3S 5S EX", "", "EX", "called_suit_ban"),
    ("5 ban: binds whoever sets the suit after an Excuse lead", "3S 2H", "EX", "2H", "called_suit_ban"),
    ("5 ban: no effect once a suit is led", "3S 2H", "4S", "3S", "follow"),
]


@pytest.mark.parametrize(("rule", "hand", "trick", "expected", "reason"), CASES, ids=[c[0] for c in CASES])
def test_legal_cards(rule: str, hand: str, trick: str, expected: str, reason: str) -> None:
    banned = None
    if rule.startswith("5 ban"):
        banned = "KS"
    got, why = legal(hand, trick, banned)
    assert got == expected
    assert why == reason
    assert why in {r.value for r in LegalReason}


@pytest.mark.parametrize("row", golden("legal_positions.jsonl"), ids=lambda r: f"{r['players']}p-{r['hand'][0]}")
def test_golden_positions(row: dict[str, Any]) -> None:
    banned = row["called_card"] if row["players"] == 5 and row["first_trick"] else None
    got, _ = legal(" ".join(row["hand"]), " ".join(row["trick"]), banned)
    assert got.split() == row["legal"]
