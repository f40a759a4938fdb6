"""The batch the generated clients send (tests/test_client_python.py, tests/test_client_typescript.py).

Valid records at three, four and five players (legally played deals from service/randomdeals.py,
and a golden deal with the claims its engines agree on), sent twice: alone, and followed by
one record that is well typed for a client but not a valid deal record (a dealer's seat
beyond the table). Both batches are needed: the service loads a batch of valid records on
one path and a batch with a bad one on another (service/contract/plans.py), and the
defect fixed in 96ff20d refused every record of the first kind only.
"""

from __future__ import annotations

from typing import Any

from service.randomdeals import random_deal
from tests.conftest import deal_request, golden, golden_claims

NOT_A_DEAL = {"id": "not-a-deal", "players": 4, "dealer": 4, "contract": "garde", "taker": 1, "plays": ["KS"]}
NOT_A_DEAL_ERRORS = [("/dealer", "seat_out_of_range")]
"""The (pointer, code) of each error of the problem answered for NOT_A_DEAL."""


def valid_records() -> list[dict[str, Any]]:
    records = [
        {"id": f"random-{players}p-{seed}", **random_deal(seed, players)} for players in (3, 4, 5) for seed in (7, 8)
    ]
    deal = golden("deals.jsonl")[0]
    records.append({"id": "golden-0", **deal_request(deal), "claims": golden_claims(deal)})
    return records


BATCHES = {"all valid": valid_records(), "one not a deal": [*valid_records(), NOT_A_DEAL]}
"""The batches each client sends, by name."""


def tricks(record: dict[str, Any]) -> int:
    """The number of tricks of a complete deal."""
    return len(record["plays"]) // int(record["players"])
