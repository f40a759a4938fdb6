"""The auction (rules.md §3): one bid per seat, each higher than the last; the highest takes."""

from __future__ import annotations

from .record import DealContext
from .scoring import Contract
from .verdicts import ViolationCode


def contract_and_taker(deal: DealContext) -> tuple[Contract | None, int | None]:
    """The contract and taker, from the bids when given (§3)."""
    r, n = deal.record, deal.record.players
    if r.bids is None:
        return r.contract, r.taker
    if len(r.bids) != n:
        deal.report(
            ViolationCode.BID_ORDER, f"Each of the {n} seats speaks exactly once; {len(r.bids)} bids were given."
        )
    best: Contract | None = None
    taker: int | None = None
    for i, bid in enumerate(r.bids[:n]):
        seat = (r.dealer + 1 + i) % n
        if bid is None:
            continue
        if best is not None and bid.rank <= best.rank:
            deal.report(
                ViolationCode.BID_NOT_HIGHER,
                f"Seat {seat} bid {bid.value}, not higher than the {best.value} already bid.",
                seat=seat,
            )
            continue
        best, taker = bid, seat
    if r.contract is not None and best is not None and (r.contract, r.taker) != (best, taker):
        deal.report(
            ViolationCode.BID_ORDER, f"The bids make seat {taker} the taker in {best.value}, not what the record says."
        )
    return best, taker
