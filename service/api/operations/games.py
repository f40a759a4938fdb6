"""A game's score sheet (rules.md §15): POST /v1/games/score, as JSON or as a spreadsheet file."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint

from service.contract import spreadsheet
from service.contract.games import SCORE_GAME

from ..parsing import answer, operation
from ..spreadsheets import json_or_spreadsheet

blp = Blueprint("games", __name__, description="A game's score sheet: the deals of one table added up.")


@operation(blp, SCORE_GAME, doc=spreadsheet.csv_answer_doc(SCORE_GAME.examples["rulebookSheet"]))
def post_score_game(req: dict[str, Any]) -> dict[str, Any] | Response:
    """The score sheet of a game (feuille de marque): the deals in, the totals and bilans out.

    Each deal is one of `summary` (the `scoreDeal` request; its `players` may be left out),
    `record` (the `evaluateDeal` request, complete: a faulty deal scores by its ruling, rules.md
    §14) or `not_played` (a redeal or a void deal: a row of zeros). The answer gives every row's
    marks and the running totals, each seat's plus, minus, net (the bilan) and rank, and, when
    the `draw` is given, the first dealer (the lowest card deals, rules.md §15.1) and whether
    each row's dealer follows the rotation. `claims` check a sheet written by hand: each number
    that differs is named by its pointer, and said in words. With `Accept: text/csv` the sheet
    comes as a file for a spreadsheet, in the language asked for: `,`-separated in English,
    `;`-separated in French, with a byte-order mark, formulas neutralised (below).
    """
    sheet = answer(SCORE_GAME, req)
    return json_or_spreadsheet(
        sheet,
        lambda language: (spreadsheet.sheet_csv(sheet, language), spreadsheet.file_name(sheet["table"], language)),
    )
