"""A game's score sheet (rules.md §15): POST /v1/games/score, as JSON or as a spreadsheet file."""

from __future__ import annotations

from typing import Any

import flask
from flask import Response
from flask_smorest import Blueprint

from service.contract import spreadsheet
from service.contract.games import SCORE_GAME
from service.contract.jsonio import dumps

from ..layers.language import request_language
from ..parsing import JSON, answer, operation

blp = Blueprint("games", __name__, description="A game's score sheet: the deals of one table added up.")

CSV = spreadsheet.MEDIA_TYPE

_EXAMPLE = SCORE_GAME.examples["rulebookSheet"]
_CSV_EXAMPLES = {
    language: {
        "summary": f"{_EXAMPLE.summary}, Accept-Language: {language} (shown without its byte-order mark)",
        "value": spreadsheet.sheet_csv(_EXAMPLE.answer, language).removeprefix(spreadsheet.BOM),
    }
    for language in ("en", "fr")
}

_CSV_DESCRIPTION = (
    "The sheet as a spreadsheet file (`Accept: text/csv`), sent as `text/csv; charset=utf-8; header=present` "
    "with `Content-Disposition: attachment` and a file name (`score-sheet-table-<table>.csv`, in French "
    "`feuille-de-marque-table-<table>.csv`; without the table when the request has none). CSV as RFC 4180 "
    "writes it (CRLF line ends), starting with the UTF-8 byte-order mark so that Excel reads accented names "
    "as UTF-8 (LibreOffice and Google Sheets read it either way; a script reads it as `utf-8-sig`). The "
    "separator is the one a spreadsheet of the language asked for (`Accept-Language`) expects: `,` in "
    "English, `;` in French; the marks are whole numbers, so no decimal separator appears. The first row "
    "names the columns: the deal, the taker, the contract, one column per player (their `names`, or "
    "`Seat 0`, `Seat 1`…), and a note. Then a row per deal: its number, its taker's name, its contract in "
    "words, every seat's mark, and the note: a deal not played (dealt again, void) or the ruling that "
    "scored it, in words. Then the total, plus, minus and bilan rows. Every text is quoted and numbers are "
    "not, so that a name holding `,` or `;` stays one cell and marks open as numbers. A text a spreadsheet "
    "would run as a formula (starting with `=`, `+`, `-`, `@`, a tab, a carriage return, a line feed or NUL, "
    "or their full-width forms, leading spaces aside) is written after an apostrophe, as OWASP advises "
    "against CSV injection: the cell shows `'=SUM(A1:A2)`, text, never a formula."
)


@operation(
    blp,
    SCORE_GAME,
    doc={
        "responses": {
            200: {
                "headers": {
                    "Content-Disposition": {
                        "description": "With `text/csv` only: `attachment`, and the file name to save it as "
                        "(RFC 6266; `filename*` in UTF-8, RFC 8187, beside an ASCII `filename` when the table's "
                        "name is not ASCII).",
                        "schema": {"type": "string"},
                        "example": 'attachment; filename="score-sheet-table-12.csv"',
                    }
                },
                "content": {
                    CSV: {"schema": {"type": "string", "description": _CSV_DESCRIPTION}, "examples": _CSV_EXAMPLES}
                },
            }
        }
    },
)
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
    if flask.request.accept_mimetypes.best_match((JSON, CSV), default=JSON) == CSV:
        language = request_language()
        response = Response(spreadsheet.sheet_csv(sheet, language), content_type=spreadsheet.CONTENT_TYPE)
        name = spreadsheet.file_name(sheet["table"], language)
        response.headers["Content-Disposition"] = spreadsheet.content_disposition(name)
    else:
        response = Response(dumps(sheet), mimetype=JSON)
    response.vary.add("Accept")
    return response
