"""A duplicate tournament's control table (rules.md §17.3–17.9): POST /v1/tournaments/duplicate/standings,
as JSON or as a spreadsheet file."""

from __future__ import annotations

from typing import Any

import flask
from flask import Response
from flask_smorest import Blueprint

from service.contract.components import DUPLICATE_SHEETS
from service.contract.duplicate_sheets import duplicate_csv, duplicate_csv_doc, duplicate_file_name
from service.contract.duplicate_standings import DUPLICATE_MAX_BYTES, DUPLICATE_STANDINGS
from service.contract.openapi import DUPLICATE_SHEET

from ..parsing import answer, operation, query_choice
from ..spreadsheets import json_or_spreadsheet

blp = Blueprint(
    "duplicate-standings",
    __name__,
    description="A duplicate tournament: the topage, the percentages, the rankings, the points de match.",
)


@operation(
    blp,
    DUPLICATE_STANDINGS,
    max_body=DUPLICATE_MAX_BYTES,
    parameters=(DUPLICATE_SHEET,),
    doc=duplicate_csv_doc(DUPLICATE_STANDINGS.examples["rulebookTopage"]),
)
def post_duplicate_standings(req: Any) -> Response:
    """The control table of a duplicate tournament: the topage, the percentages, the rankings, the feuilles de route.

    The whole tournament so far is the request (nothing is kept), by its `form`. In the
    individual and the triplettes, each session's `etuis` (their labels), its `plays` as the
    fiches ambulantes write them (position, table, étui, the players by orientation, and the
    taker's figure or the deal's summary, scored as the imposed Garde at four), the referee's
    `adjustments` and, when known, the movement's `sittings`. The answer grades every table on
    every étui against the others (the topage), gives each entrant's attack, defence and global
    percentages, the classement général (and the alterné of one session), each feuille de route,
    and the faults of the fiches, each with its code, its JSON pointer and its players: counted as
    written, never corrected (rules.md §17.9). Percentages are given rounded half up to one
    decimal and exact (a double): the rankings follow the exact values. For quadrettes (the
    deals of each opposition) and a team match (its quarters), the points de match (§17.8). With
    `Accept: text/csv` a ranking comes as a spreadsheet file, as the score sheet's do; `sheet`
    chooses which.
    """
    standings = answer(DUPLICATE_STANDINGS, req)
    sheet = query_choice(flask.request, "sheet", DUPLICATE_SHEETS, "DuplicateSheet")
    return json_or_spreadsheet(
        standings,
        lambda language: (duplicate_csv(standings, language, sheet), duplicate_file_name(sheet, language)),
    )
