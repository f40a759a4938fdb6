"""A club's tournament (rules.md §16): POST /v1/tournaments/standings, as JSON or as a spreadsheet file;
POST /v1/tournaments/seating, the seating of each position."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from service.contract import spreadsheet
from service.contract.seating import SEAT_TOURNAMENT, SEATING_MAX_BYTES
from service.contract.standings import STANDINGS, STANDINGS_MAX_BYTES

from ..parsing import answer, operation
from ..spreadsheets import json_or_spreadsheet

blp = Blueprint(
    "tournaments",
    __name__,
    description="A club's tournament: the control table's standings and checks, the seating of each position.",
)


@operation(
    blp,
    STANDINGS,
    max_body=STANDINGS_MAX_BYTES,
    doc=spreadsheet.standings_csv_doc(STANDINGS.examples["rulebookDeals"]),
)
def post_tournament_standings(req: dict[str, Any]) -> Response:
    """The control table of a tournament in free deals: every card added up, its scored errors, the standings.

    The whole tournament so far is the request (nothing is kept): the `players`, the `plan`
    (positions × deals: 5 × 4, 6 × 4, 7 × 3, or the organiser's own), each table's scorecard for
    each position as North wrote it (its `seats` by orientation; its deals as a game's sheet takes
    them, `summary`, `record` or `not_played`, and/or the `marks` written; its `totals`), the
    `seating` (a seated table with no card is a card not returned) and the referee's
    `adjustments`. The answer ranks the players by their total, the sum of their marks plus the
    adjustments (equal totals share a rank unless `tie_break` says), the teams by their
    players' sum, adds each card up, and lists the scored errors it finds, each with its
    machine code, the JSON pointer where it is, the players of its table, the text it comes
    from and a suggested sanction (a table's first a warning, penalties after). The cards are
    counted as written, never corrected: a card put right is a new request (rules.md §16). With
    `Accept: text/csv` the standings come as a spreadsheet file, as the score sheet's do.
    """
    standings = answer(STANDINGS, req)
    return json_or_spreadsheet(
        standings,
        lambda language: (spreadsheet.standings_csv(standings, language), spreadsheet.standings_file_name(language)),
    )


@operation(blp, SEAT_TOURNAMENT, max_body=SEATING_MAX_BYTES)
def post_seating(req: Any) -> dict[str, Any]:
    """Seat a tournament's next position, or every position left; or check a seating.

    The request is the tournament as it stands: the players present, the tables of the positions
    played (each `position`, `table` and `seats` by orientation, as a scorecard writes them and
    the standings' `seating` takes them), the pairs who never meet (teammates), the players fixed
    to a table, how many positions the tournament has, and a seed. The service plans every
    position left, so that no two players meet twice (rules.md §16.5: every player at one table;
    tables of 4 and the fewest tables of 3; no forbidden pair together; no repeated meeting, or
    the fewest; the tables of 3 in turn; fixed players at their table, in that priority), and
    seats the positions asked for. The same request gives the same seating on any machine; the
    next request, carrying the positions played so far, goes on with the same plan. The answer's
    `seated` tables are what the next request's `played` takes; it lists every repeated meeting,
    the bound on positions without repeats for this many players and whether the seating meets
    it, and the faults of the positions played. With `seat: none` (the check form) nothing is
    seated: the positions played are held to the rules, each fault with its code, its pointer
    and its players.
    """
    return answer(SEAT_TOURNAMENT, req)
