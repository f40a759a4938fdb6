"""A club's tournament (rules.md §16): POST /v1/tournaments/seating, the seating of each position."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from service.contract.seating import SEAT_TOURNAMENT

from ..parsing import answer, operation

blp = Blueprint(
    "tournaments",
    __name__,
    description="A club's tournament: the control table's standings and checks, the seating of each position.",
)


@operation(blp, SEAT_TOURNAMENT)
def post_seating(req: Any) -> dict[str, Any]:
    """Seat a tournament's next position, or every position left; or check a seating.

    The request is the tournament as it stands: the players present, the positions played (each
    table's number and its players, North, South, East, West), the pairs who never meet
    (teammates), the players fixed to a table, how many positions the tournament has, and a
    seed. The service plans every position left, so that no two players meet twice (rules.md
    §16.5: every player at one table; tables of 4 and the fewest tables of 3; no forbidden pair
    together; no repeated meeting, or the fewest; the tables of 3 in turn; fixed players at
    their table, in that priority), and seats the positions asked for. The same request gives
    the same seating on any machine; the next request, carrying the positions played so far,
    goes on with the same plan. The answer lists every repeated meeting, the bound on positions
    without repeats for this many players, and the faults of the positions played. With
    `seat: none` (the check form) nothing is seated: the positions played are held to the
    rules, each fault with its code, its pointer and its players.
    """
    return answer(SEAT_TOURNAMENT, req)
