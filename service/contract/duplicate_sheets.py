"""A duplicate tournament's rankings and feuilles de route as spreadsheet files (rules.md §17.6;
``Accept: text/csv``), with the score sheet's rules (:mod:`.spreadsheet`): the byte-order mark,
the separators of the language, texts quoted and neutralised, numbers bare.

Percentages are written as the referee shows them, half up to one decimal (§17.4), with the
language's decimal separator (``56.3``, in French ``56,3``), so that a spreadsheet reads them as
numbers; points de match to three decimals (§17.8). The rows are made from the JSON answer, so
the file says what the answer says.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final

from service.messages import Message, msg
from service.texts import DEFAULT_LANGUAGE, catalog, render

from .components import DUPLICATE_SHEETS
from .spreadsheet import BOM, DECIMAL_POINTS, SEPARATORS, csv_doc, write_table

Cell = str | int | Decimal
LINE_WORDS: Final = {
    "north": "duplicate.sheet.line.north",
    "west": "duplicate.sheet.line.west",
    "south": "duplicate.sheet.line.south",
    "east": "duplicate.sheet.line.east",
    "north_south": "duplicate.sheet.line.north_south",
    "east_west": "duplicate.sheet.line.east_west",
}
ROLE_WORDS: Final = {"attack": "duplicate.sheet.attack", "defence": "duplicate.sheet.defence"}
COLUMNS: Final = {
    "rank": "duplicate.sheet.rank",
    "quadrette": "duplicate.sheet.quadrette",
    "won": "duplicate.sheet.won",
    "lost": "duplicate.sheet.lost",
    "penalties": "duplicate.sheet.penalties",
    "total": "duplicate.sheet.total",
    "team": "duplicate.sheet.team",
    "bonus": "duplicate.sheet.bonus",
    "entrant": "duplicate.sheet.entrant",
    "line": "duplicate.sheet.line",
    "place": "duplicate.sheet.place",
    "tier": "duplicate.sheet.tier",
    "line_rank": "duplicate.sheet.line_rank",
    "global": "duplicate.sheet.global",
    "session_column": "duplicate.sheet.session_column",
    "etui": "duplicate.sheet.etui",
    "position": "duplicate.sheet.position",
    "table": "duplicate.sheet.table",
    "role": "duplicate.sheet.role",
    "score": "duplicate.sheet.score",
    "grade": "duplicate.sheet.grade",
    "note": "duplicate.sheet.note",
}
"""The columns' names (keys written out, so that the catalogs' tests find them)."""
FILE_NAMES: Final = {
    "general": "duplicate.sheet.file.general",
    "alterne": "duplicate.sheet.file.alterne",
    "feuilles": "duplicate.sheet.file.feuilles",
}


def _said(key: str, language: str, **args: Any) -> str:
    return render(msg(key, **args), language)


def _figure(value: float | None, places: int = 1) -> Cell:
    """A number of the answer as the sheet writes it: to ``places`` decimals; empty when null."""
    return "" if value is None else Decimal(repr(value)).quantize(Decimal(1).scaleb(-places))


def _line(line: str, language: str) -> str:
    return _said(LINE_WORDS[line], language) if line in LINE_WORDS else line


def general_rows(answer: dict[str, Any], language: str) -> list[list[Cell]]:
    """The classement général: each entrant's rank, id, line, session globals and total; a
    quadrettes tournament's or a team match's own ranking."""
    if answer["quadrettes"] is not None:
        head = ["rank", "quadrette", "won", "lost", "penalties", "total"]
        rows: list[list[Cell]] = [[_said(COLUMNS[h], language) for h in head]]
        for row in answer["quadrettes"]["standings"]:
            rows.append([row["rank"], row["quadrette"], *(_figure(row[k], 3) for k in head[2:])])
        return rows
    if answer["team_match"] is not None:
        match = answer["team_match"]
        quarters = [_said("duplicate.sheet.quarter", language, number=q["quarter"]) for q in match["quarters"]]
        header: list[Cell] = [
            _said(COLUMNS["team"], language),
            *quarters,
            _said(COLUMNS["bonus"], language),
            _said(COLUMNS["total"], language),
        ]
        rows = [header]
        for i, team in enumerate(match["teams"]):
            side = "first" if i == 0 else "second"
            cells = [_figure(q[side], 3) for q in match["quarters"]]
            rows.append([team, *cells, _figure(match["bonus"][i], 3), _figure(match["totals"][i], 3)])
        return rows
    sessions = len(answer["sessions"])
    header = [
        _said(COLUMNS["rank"], language),
        _said(COLUMNS["entrant"], language),
        _said(COLUMNS["line"], language),
        *(_said("duplicate.sheet.session", language, number=s + 1) for s in range(sessions)),
        _said(COLUMNS["total"], language),
    ]
    rows = [header]
    for row in answer["general"]:
        globals_ = [_figure(g) for g in row["sessions"]]
        rank: Cell = "" if row["rank"] is None else row["rank"]
        rows.append([rank, row["entrant"], _line(row["line"], language), *globals_, _figure(row["total"])])
    return rows


def alterne_rows(answer: dict[str, Any], language: str) -> list[list[Cell]]:
    """The classement alterné: place, tier, line, rank in the line, entrant, global (header only
    where there is none: several sessions, quadrettes, a team match)."""
    head = ["place", "tier", "line", "line_rank", "entrant", "global"]
    rows: list[list[Cell]] = [[_said(COLUMNS[h], language) for h in head]]
    for row in answer["alterne"] or []:
        line = _line(row["line"], language)
        rows.append([row["place"], row["tier"], line, row["line_rank"], row["entrant"], _figure(row["global"])])
    return rows


def feuilles_rows(answer: dict[str, Any], language: str) -> list[list[Cell]]:
    """Every feuille de route, one row per play: the entrant, the session (from 1), the étui, the
    position and table, the orientation, the role, the score, the grade and a note."""
    head = ["entrant", "session_column", "etui", "position", "table", "line", "role", "score", "grade", "note"]
    rows: list[list[Cell]] = [[_said(COLUMNS[h], language) for h in head]]
    for feuille in answer["feuilles"] or []:
        for line in feuille["lines"]:
            note = ""
            if line["annulled"]:
                note = _said("duplicate.sheet.annulled", language)
            elif line["adjusted"]:
                note = _said("duplicate.sheet.adjusted", language)
            rows.append(
                [
                    feuille["entrant"],
                    line["session"] + 1,
                    line["etui"],
                    line["position"],
                    line["table"],
                    _line(line["orientation"], language),
                    _said(ROLE_WORDS[line["role"]], language),
                    line["score"],
                    _figure(line["grade"]),
                    note,
                ]
            )
    return rows


SHEET_ROWS: Final = {"general": general_rows, "alterne": alterne_rows, "feuilles": feuilles_rows}


def duplicate_csv(answer: dict[str, Any], language: str = DEFAULT_LANGUAGE, sheet: str = DUPLICATE_SHEETS[0]) -> str:
    """The ``sheet`` of ``answer`` (a ``duplicateStandings`` answer) as the CSV file sent."""
    rows = SHEET_ROWS[sheet](answer, language)
    return BOM + write_table(rows, SEPARATORS.get(language, ","), DECIMAL_POINTS.get(language, "."))


def duplicate_file_name(sheet: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The file name to save ``sheet`` as, in ``language``."""
    return catalog(language).render(Message(FILE_NAMES[sheet]), sentence=False) + ".csv"


DUPLICATE_CSV_DESCRIPTION = (
    "A ranking as a spreadsheet file (`Accept: text/csv`), with the score sheet's rules: "
    "`text/csv; charset=utf-8; header=present`, `Content-Disposition: attachment`, RFC 4180 with CRLF line "
    "ends, the UTF-8 byte-order mark first, `,` separating the fields in English and `;` in French "
    "(`Accept-Language`), every text quoted and numbers bare, a text a spreadsheet would run as a formula "
    "written after an apostrophe. Percentages are written as shown, half up to one decimal (rules.md §17.4), "
    "with the language's decimal separator (`56.3`, in French `56,3`); points de match to three decimals. The "
    "query parameter `sheet` chooses the file: `general` (the default: rank, entrant, line, each session's "
    "global and the total; a quadrettes tournament's ranking, a team match's quarters), `alterne` (place, tier, "
    "line, rank in the line, entrant, global; the header alone where there is no alterné) or `feuilles` (one row "
    "per play of every feuille de route: entrant, session, étui, position, table, orientation, role, score, "
    "grade, note). The faults are in the JSON answer only."
)


def duplicate_csv_doc(example: Any) -> dict[str, Any]:
    """The CSV answer as the contract describes it."""
    disposition = "With `text/csv` only: `attachment`, and the file name to save it as (RFC 6266)."
    return csv_doc(example, duplicate_csv, DUPLICATE_CSV_DESCRIPTION, disposition, "duplicate-general.csv")
