"""A game's score sheet as a file for a spreadsheet program (``Accept: text/csv``).

The file is made for people who open it in Excel, LibreOffice Calc or Numbers, in their
language, and it must open there in columns, with its names intact and nothing run:

- **Columns**: the deal, its taker, its contract, one column per player (the marks), and a note
  (a deal not played, or a ruling, said in words); then the total, plus, minus and bilan rows.
- **Separator**: `,` in English, `;` in French, the list separator of a French spreadsheet
  (a French Excel opens a comma-separated file in one column). Every text cell is quoted,
  numbers are not: a name holding `,` or `;` stays one cell whichever of the two a program
  splits on (LibreOffice splits on both by default). Marks are whole numbers, so no decimal
  separator is ever written.
- **Byte-order mark**: the file starts with the UTF-8 BOM, in both languages. Excel reads a CSV
  without it in the system's legacy code page (« Hélène » comes out as « HÃ©lÃ¨ne »); with it,
  as UTF-8. LibreOffice and Google Sheets read either. A script reads it with ``utf-8-sig``.
- **Formulas**: a text cell a spreadsheet would take for a formula gets a leading apostrophe
  (OWASP's advice against CSV injection, :func:`neutralised`); numbers are written as numbers,
  so a negative mark stays a number.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import Any, Final
from urllib.parse import quote

from service.messages import Term, msg
from service.texts import DEFAULT_LANGUAGE, catalog, render

MEDIA_TYPE: Final = "text/csv"
CONTENT_TYPE: Final = "text/csv; charset=utf-8; header=present"
"""RFC 4180's media type, with its charset and ``header`` parameters: the first row names the columns."""
BOM: Final = "\ufeff"
SEPARATORS: Final = {"en": ",", "fr": ";"}
"""The field separator of each language: the list separator its spreadsheets expect."""
DECIMAL_POINTS: Final = {"en": ".", "fr": ","}
"""The decimal separator of each language (a French spreadsheet reads 56,3 as a number, 56.3 as text)."""

FORMULA_TRIGGERS: Final = frozenset("=+-@\t\r\n\0＝＋－＠")
"""First characters that make a spreadsheet read a cell as a formula: OWASP's list (``=``, ``+``,
``-``, ``@``, tab, carriage return), the line feed and NUL of OWASP's ASVS (1.2.10), and the
full-width forms of the first four, which some East Asian spreadsheets take for them."""


def neutralised(text: str) -> str:
    """``text`` as a spreadsheet shows it but never runs it: after a leading apostrophe when it
    starts with a formula trigger, or with one after leading spaces (some programs trim them);
    unchanged otherwise. The apostrophe is visible in most programs: a name shown as ``'=SUM(…)``
    rather than a formula run."""
    if text[:1] in FORMULA_TRIGGERS or text.lstrip()[:1] in FORMULA_TRIGGERS:
        return "'" + text
    return text


class _Comma(Decimal):
    """A decimal written with a decimal comma: still a number to the CSV writer (never quoted)."""

    def __str__(self) -> str:
        return Decimal.__str__(self).replace(".", ",")


def _cell(value: str | int | Decimal, point: str = ".") -> str | int | Decimal:
    # Numbers (the marks) are written as they are, and read as numbers; only texts are neutralised.
    if isinstance(value, Decimal):
        return _Comma(value) if point == "," else value
    return value if isinstance(value, int) else neutralised(value)


def write_table(rows: Iterable[Sequence[str | int | Decimal]], separator: str, point: str = ".") -> str:
    """``rows`` as CSV text (RFC 4180, CRLF line ends): each text neutralised and quoted, each
    number bare, a decimal with the decimal separator ``point``."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value, point) for value in row])
    return out.getvalue()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _note(row: dict[str, Any], language: str) -> str:
    """A row's note: why it has no marks, or the ruling it was scored by, in words."""
    if row["not_played"] == "redeal":
        return render(msg("sheet.not_played.redeal"), language)
    if row["not_played"] == "void":
        return render(msg("sheet.not_played.void"), language)
    if row["ruling"] is not None:
        return render(msg("sheet.ruled", decision=Term("decision", row["ruling"]["decision"])), language)
    return ""


def sheet_rows(answer: dict[str, Any], language: str = DEFAULT_LANGUAGE) -> list[list[str | int]]:
    """The sheet's cells, row by row: the header, a row per deal, the total, plus, minus and
    bilan rows; texts in ``language``, marks as numbers."""
    words = catalog(language)
    seats = answer["bilans"]
    names = [s["name"] or render(msg("sheet.seat", seat=s["seat"]), language) for s in seats]
    header: list[str | int] = [
        render(msg("sheet.deal_column"), language),
        render(msg("sheet.taker"), language),
        render(msg("sheet.contract"), language),
        *names,
        render(msg("sheet.note"), language),
    ]
    table = [header]
    for row in answer["deals"]:
        taker = "" if row["taker"] is None else names[row["taker"]]
        contract = "" if row["contract"] is None else _capital(words.value(Term("contract", row["contract"])))
        label = render(msg("sheet.deal", number=row["index"] + 1), language)
        table.append([label, taker, contract, *row["scores"], _note(row, language)])
    last = answer["deals"][-1]["totals"] if answer["deals"] else [0] * len(seats)
    table.append([render(msg("sheet.total"), language), "", "", *last, ""])
    for key in ("plus", "minus", "net"):
        table.append([render(msg(f"sheet.{key}"), language), "", "", *(s[key] for s in seats), ""])
    return table


def sheet_csv(answer: dict[str, Any], language: str = DEFAULT_LANGUAGE) -> str:
    """The sheet of ``answer`` (a ``scoreGame`` answer) as the CSV file it is sent as, byte-order
    mark first, separated and headed as ``language`` writes it."""
    return BOM + write_table(sheet_rows(answer, language), SEPARATORS.get(language, ","))


_NOT_IN_NAME: Final = re.compile(r"[^\w-]+")
_DASHES: Final = re.compile(r"-{2,}")
_NAME_PART: Final = 40
"""The most characters of a table's name kept in a file name."""


def _name_part(text: str) -> str:
    # Letters, digits, - and _ kept; every other run (spaces, dots, slashes, quotes, controls) a dash.
    part = _DASHES.sub("-", _NOT_IN_NAME.sub("-", unicodedata.normalize("NFC", text)))
    return part.strip("-_")[:_NAME_PART].strip("-_")


def file_name(table: str | None, language: str = DEFAULT_LANGUAGE) -> str:
    """The file name to save the sheet as: the sheet's word in ``language``, then the table's
    name or number (its letters, digits, ``-`` and ``_``) when it has one."""
    part = "" if table is None else _name_part(table)
    words = catalog(language)
    stem = words.render(msg("sheet.file.table", table=part) if part else msg("sheet.file"), sentence=False)
    return stem + ".csv"


def _ascii(name: str) -> str:
    # Accents dropped (é → e), anything else outside ASCII letters and digits a dash.
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem, _, extension = plain.rpartition(".")
    return _DASHES.sub("-", re.sub(r"[^A-Za-z0-9_-]+", "-", stem)).strip("-") + "." + extension


def content_disposition(name: str) -> str:
    """The ``Content-Disposition`` of a download saved as ``name`` (RFC 6266): the name as it is
    when ASCII, otherwise an ASCII stand-in and the name itself in UTF-8 (RFC 8187's ``filename*``)."""
    if name.isascii():
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{_ascii(name)}\"; filename*=UTF-8''{quote(name, safe='')}"


CSV_DESCRIPTION = (
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


def csv_doc(
    example: Any, write: Callable[[dict[str, Any], str], str], description: str, disposition: str, file_name: str
) -> dict[str, Any]:
    """An operation's CSV answer as the contract describes it: the media type and the columns
    (``description``), its example in each language written by ``write`` from the operation's JSON
    example (``example.answer``), and the file name's header (``disposition``, ``file_name``)."""
    examples = {
        language: {
            "summary": f"{example.summary}, Accept-Language: {language} (shown without its byte-order mark)",
            "value": write(example.answer, language).removeprefix(BOM),
        }
        for language in SEPARATORS
    }
    header = {
        "description": disposition,
        "schema": {"type": "string"},
        "example": f'attachment; filename="{file_name}"',
    }
    content = {MEDIA_TYPE: {"schema": {"type": "string", "description": description}, "examples": examples}}
    return {"responses": {200: {"headers": {"Content-Disposition": header}, "content": content}}}


def csv_answer_doc(example: Any) -> dict[str, Any]:
    """The score sheet's CSV answer as the contract describes it."""
    disposition = (
        "With `text/csv` only: `attachment`, and the file name to save it as (RFC 6266; `filename*` in UTF-8, "
        "RFC 8187, beside an ASCII `filename` when the table's name is not ASCII)."
    )
    return csv_doc(example, sheet_csv, CSV_DESCRIPTION, disposition, "score-sheet-table-12.csv")


# ---- a tournament's standings ------------------------------------------------------------------


def standings_rows(answer: dict[str, Any], language: str = DEFAULT_LANGUAGE) -> list[list[str | int]]:
    """The standings' cells, row by row: the header, then a row per player, best first (rank,
    number, name, team when the tournament has teams, his bilan in each position, the referee's
    adjustments, the total); texts in ``language``, figures as numbers, a position he has no
    bilan for (no card, or a card not returned) left empty."""
    standings = answer["standings"]
    planned = answer["plan"]["positions"] if answer["plan"] is not None else 0
    seen = [p["position"] for s in standings for p in s["positions"]]
    positions = range(1, max([planned, *seen]) + 1)
    teams = answer["teams"] is not None
    header: list[str | int] = [
        render(msg("standings.rank"), language),
        render(msg("standings.player"), language),
        render(msg("standings.name"), language),
        *([render(msg("standings.team"), language)] if teams else []),
        *(render(msg("standings.position", number=p), language) for p in positions),
        render(msg("standings.adjustments"), language),
        render(msg("standings.total"), language),
    ]
    table = [header]
    for s in standings:
        cells: list[str | int] = []
        for p in positions:
            bilans = [at["bilan"] for at in s["positions"] if at["position"] == p and at["bilan"] is not None]
            cells.append(sum(bilans) if bilans else "")
        team = [s["team"] or ""] if teams else []
        table.append([s["rank"], s["player"], s["name"], *team, *cells, s["adjustments"], s["total"]])
    return table


def standings_csv(answer: dict[str, Any], language: str = DEFAULT_LANGUAGE) -> str:
    """The standings of ``answer`` (a ``tournamentStandings`` answer) as the CSV file sent,
    byte-order mark first, separated and headed as ``language`` writes it."""
    return BOM + write_table(standings_rows(answer, language), SEPARATORS.get(language, ","))


def standings_file_name(language: str = DEFAULT_LANGUAGE) -> str:
    """The file name to save the standings as, in ``language``."""
    return catalog(language).render(msg("standings.file"), sentence=False) + ".csv"


STANDINGS_CSV_DESCRIPTION = (
    "The standings as a spreadsheet file (`Accept: text/csv`), with the score sheet's rules: "
    "`text/csv; charset=utf-8; header=present`, `Content-Disposition: attachment` "
    "(`tournament-standings.csv`, in French `classement-du-tournoi.csv`), RFC 4180 with CRLF line ends, the "
    "UTF-8 byte-order mark first, `,` separating the "
    "fields in English and `;` in French (`Accept-Language`), every text quoted and numbers bare, and a text a "
    "spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab, a carriage return, a line "
    "feed or NUL, or their full-width forms, leading spaces aside) written after an apostrophe. The first row "
    "names the columns: the rank, the player's number, his name, his team (when the tournament has teams), his "
    "bilan in each position (`Position 1`…, as many as the plan has or the cards reach), the referee's "
    "adjustments and the total. Then a row per player, best first; a position without a bilan (no card, or a "
    "card not returned) is an empty cell. The scored errors are in the JSON answer only."
)


def standings_csv_doc(example: Any) -> dict[str, Any]:
    """The standings' CSV answer as the contract describes it."""
    disposition = "With `text/csv` only: `attachment`, and the file name to save it as (RFC 6266)."
    return csv_doc(example, standings_csv, STANDINGS_CSV_DESCRIPTION, disposition, "tournament-standings.csv")
