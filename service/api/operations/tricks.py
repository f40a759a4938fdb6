"""The trick operations: legal cards (rules.md §5, §6) and the trick winner (§7)."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from service.contract.tricks import LEGAL_CARDS, WINNER

from ..parsing import answer, operation

blp = Blueprint("tricks", __name__, description="Card play inside one trick.")


@operation(blp, LEGAL_CARDS)
def post_legal_cards(req: dict[str, Any]) -> dict[str, Any]:
    """The legal cards of a hand, given the trick so far.

    Applies rules.md §6 (follow suit, trump, overtrump even over a partner, undertrump, the
    Excuse always playable) and, on the deal's first trick at five players, the called-suit
    lead ban of §5.
    """
    return answer(LEGAL_CARDS, req)


@operation(blp, WINNER)
def post_winner(req: dict[str, Any]) -> dict[str, Any]:
    """Who wins a trick, or is winning it so far.

    The highest trump wins; with no trump, the highest card of the led suit (rules.md §7).
    The Excuse never wins here: its one exception, the last trick of a chelem, depends on the
    whole deal and is applied by `POST /v1/deals/evaluate`.
    """
    return answer(WINNER, req)
