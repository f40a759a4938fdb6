"""The deal of the cards (rules.md §2.1): POST /v1/deals/deal, from a deck or a seed (§2.2)."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from service.contract.dealing import DEAL_CARDS

from ..parsing import answer, operation

blp = Blueprint("dealing", __name__, description="The deal of the cards: hands and dog from a deck or a seed.")


@operation(blp, DEAL_CARDS)
def post_deal(req: dict[str, Any]) -> dict[str, Any]:
    """Deal the cards: every seat's hand and the dog, from a deck or from a seed.

    The dealer deals counter-clockwise from the seat after him (the deck's first card goes to
    it), in packets of 3 cards (4 at three players; 1 with `packet: 1`, as the FFT Code text deals), and
    puts the dog's cards aside one at a time between packets, never the deck's first or last
    card (rules.md §2.1). A `seed` is shuffled into a deck by the algorithm of rules.md §2.2
    (SHA-256 in counter mode driving a Fisher–Yates shuffle), which any language reproduces:
    the same seed deals the same cards everywhere and in every version of `/v1`. The answer
    says whether the deal must begin again (a petit sec, §3.1).
    """
    return answer(DEAL_CARDS, req)
