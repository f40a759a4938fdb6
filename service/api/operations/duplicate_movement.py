"""A duplicate tournament's movement (rules.md §17.1–17.2): POST /v1/tournaments/duplicate/movement."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from service.contract.duplicate_movement import DUPLICATE_MOVEMENT, MOVEMENT_MAX_BYTES

from ..parsing import answer, operation

blp = Blueprint(
    "duplicate_movement",
    __name__,
    description="A duplicate tournament: the movement of its players and étuis, made or checked.",
)


@operation(blp, DUPLICATE_MOVEMENT, max_body=MOVEMENT_MAX_BYTES)
def post_duplicate_movement(req: Any) -> dict[str, Any]:
    """Make a duplicate tournament's movement, or check one made by hand.

    The request gives the `tables` (3 to 40, four players each), the `positions` (1 to `tables`),
    the étuis a table plays at each position, the players by orientation (four lines of one id per
    table; `N1` … by default) and, to deal the étuis' cards, a `seed`. The answer seats every player
    at every position: players change tables but never orientation, and each table's étui set goes
    to the next lower table (rules.md §17.1, the rulebook's p. 18 example). No player plays an étui
    twice; with a count of tables prime to 6 no two players meet twice either (`perfect`), and
    otherwise the fewest meetings are repeated, each listed with its positions. Every étui is
    labelled (its taker, its dealer, and the player on the dealer's right who leads, §17.2); each
    player's places are listed (his route card); with a `seed` every étui's four hands and dog are
    dealt, the same on any machine. The same request always gets the same movement. With
    `sittings` (the check form) nothing is made: a movement made elsewhere is held to the rules,
    each fault with its code, its JSON pointer, its position, table, players and étuis; an
    answer's `sittings` sent back pass it with the same repeats.
    """
    return answer(DUPLICATE_MOVEMENT, req)
