"""The auction (rules.md §3): one bid per seat, each higher than the last; the highest takes."""

from __future__ import annotations

from ..messages import Term, msg
from .record import DealContext
from .scoring import Contract
from .verdicts import ViolationCode


def contract_and_taker(deal: DealContext) -> tuple[Contract | None, int | None]:
    """The contract and taker, from the bids when given (§3)."""
    r, n = deal.record, deal.record.players
    if r.bids is None:
        return r.contract, r.taker
    if len(r.bids) != n:
        deal.report(ViolationCode.BID_ORDER, msg("violation.bid_order.count", len(r.bids), seats=n))
    best: Contract | None = None
    taker: int | None = None
    for i, bid in enumerate(r.bids[:n]):
        seat = (r.dealer + 1 + i) % n
        if bid is None:
            continue
        if best is not None and bid.rank <= best.rank:
            deal.report(
                ViolationCode.BID_NOT_HIGHER,
                msg(
                    "violation.bid_not_higher",
                    seat=seat,
                    bid=Term("contract", bid.value),
                    best=Term("contract", best.value),
                ),
                seat=seat,
            )
            continue
        best, taker = bid, seat
    if r.contract is not None and best is not None and taker is not None and (r.contract, r.taker) != (best, taker):
        deal.report(
            ViolationCode.BID_ORDER,
            msg("violation.bid_order.taker", seat=taker, contract=Term("contract", best.value)),
        )
    return best, taker
