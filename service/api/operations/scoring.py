"""The scoring operation: the marks of a deal from its summary (rules.md §9)."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from service.contract.scoring import SCORE

from ..parsing import answer, operation

blp = Blueprint("scoring", __name__, description="Scoring a deal from its summary.")


@operation(blp, SCORE)
def post_score(req: dict[str, Any]) -> dict[str, Any]:
    """The marks of every seat from a deal's summary (rules.md §9).

    `D = s·(25 + margin)·M + p·10·M + s·P + C` per defender; each defender −D, the taker
    2D (3 players), 3D (4), or at five 2D with the partner D, or 4D alone.

    Refused as impossible (422): points off the half-point grid or outside 0–91, oudlers
    outside 0–3, points that the oudlers rule out (each oudler is worth 4.5, the Excuse at
    least 4 after its exchange, so `k` oudlers mean at least 4.5k − 0.5 points and leave the
    other side at least 4.5(3 − k) − 0.5), a partner below five players, a seat out of range,
    poignées showing more than the 22 trumps and Excuse. Unlikely but possible summaries (a
    chelem with few card points in a garde contre) are scored.
    """
    return answer(SCORE, req)
