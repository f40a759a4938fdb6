"""The score sheet as a spreadsheet file (rules.md §15, ``Accept: text/csv``): formulas neutralised
(OWASP's advice against CSV injection), `;` in French and `,` in English, a byte-order mark, the
taker, contract and note of each row, a file name; and the file opened in LibreOffice Calc."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.http import parse_options_header

from service.contract.spreadsheet import (
    BOM,
    FORMULA_TRIGGERS,
    content_disposition,
    file_name,
    neutralised,
    write_table,
)

from .spreadsheet import COMMA, ENGLISH_US, FRENCH, SEMICOLON, csv_filter, need_spreadsheet, open_csv

PATH = "/v1/games/score"
PROPERTIES = settings(max_examples=150, deadline=None)

# ---- neutralising a text cell ----------------------------------------------------------------


def starts_a_formula(text: str) -> bool:
    return text[:1] in FORMULA_TRIGGERS or text.lstrip()[:1] in FORMULA_TRIGGERS


texts = st.text(
    alphabet=st.one_of(st.sampled_from([*sorted(FORMULA_TRIGGERS), " ", "'", '"', ",", ";"]), st.characters())
)


@PROPERTIES
@given(texts)
def test_a_neutralised_text_never_starts_a_formula_and_keeps_the_text(text: str) -> None:
    out = neutralised(text)
    assert not starts_a_formula(out)
    # The text itself is kept whole: after the one apostrophe added, or as it was.
    assert out == ("'" + text if starts_a_formula(text) else text)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("=SUM(A1:A2)", "'=SUM(A1:A2)"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@x", "'@x"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("  =1", "'  =1"),
        ("＝1", "'＝1"),
        ("Hélène", "Hélène"),
        ("a=b", "a=b"),
        ("'=1", "'=1"),
        ("", ""),
    ],
)
def test_the_cells_a_spreadsheet_would_run_get_an_apostrophe(text: str, shown: str) -> None:
    assert neutralised(text) == shown


cells = st.lists(st.lists(st.one_of(texts, st.integers(-(10**6), 10**6)), min_size=1, max_size=6), max_size=5)


@PROPERTIES
@given(cells, st.sampled_from([",", ";"]))
def test_a_table_reads_back_as_neutralised_texts_and_bare_numbers(rows: list[list[str | int]], separator: str) -> None:
    written = write_table(rows, separator)
    # Read as RFC 4180 says: each text comes back neutralised, each number as its digits.
    back = list(csv.reader(io.StringIO(written, newline=""), delimiter=separator))
    assert back == [[str(v) if isinstance(v, int) else neutralised(v) for v in row] for row in rows]
    assert not any(
        starts_a_formula(v)
        for row, line in zip(rows, back, strict=True)
        for x, v in zip(row, line, strict=True)
        if isinstance(x, str)
    )
    # Texts quoted, numbers bare: a reader that takes unquoted fields for numbers finds the marks there.
    numbers = list(csv.reader(io.StringIO(written, newline=""), delimiter=separator, quoting=csv.QUOTE_NONNUMERIC))
    assert [[v for v in line if isinstance(v, float)] for line in numbers] == [
        [float(v) for v in row if isinstance(v, int)] for row in rows
    ]


# ---- the file's name -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "language", "name"),
    [
        (None, "en", "score-sheet.csv"),
        (None, "fr", "feuille-de-marque.csv"),
        ("12", "en", "score-sheet-table-12.csv"),
        ("12", "fr", "feuille-de-marque-table-12.csv"),
        ("../../etc/passwd", "en", "score-sheet-table-etc-passwd.csv"),
        ('a "b"\r\n;c', "en", "score-sheet-table-a-b-c.csv"),
        ("Salle d'été", "fr", "feuille-de-marque-table-Salle-d-été.csv"),
        ("...", "en", "score-sheet.csv"),
    ],
)
def test_the_file_is_named_after_the_table(table: str | None, language: str, name: str) -> None:
    assert file_name(table, language) == name


@PROPERTIES
@given(st.text(max_size=80))
def test_a_file_name_is_safe_whatever_the_table(table: str) -> None:
    name = file_name(table, "en")
    assert name.startswith("score-sheet") and name.endswith(".csv") and len(name) < 80
    assert not any(c in name for c in "/\\\"'\r\n\0;:*?<>|") and name.isprintable()
    kind, options = parse_options_header(content_disposition(name))
    assert kind == "attachment" and options["filename"] == name


def test_a_name_beyond_ascii_has_an_ascii_stand_in() -> None:
    header = content_disposition("feuille-de-marque-table-Salle-d-été.csv")
    assert header == (
        'attachment; filename="feuille-de-marque-table-Salle-d-ete.csv"; '
        "filename*=UTF-8''feuille-de-marque-table-Salle-d-%C3%A9t%C3%A9.csv"
    )
    assert content_disposition("score-sheet.csv") == 'attachment; filename="score-sheet.csv"'


# ---- the answer --------------------------------------------------------------------------------

SUMMARY = {"contract": "garde", "taker": 0, "partner": 1, "points": 50, "oudlers": 2}
NAMES = ["=SUM(A1:A2)", "+1", "-2", "@x", "Hélène; Dupont, « é »"]
SHOWN = dict(zip(NAMES, ["'=SUM(A1:A2)", "'+1", "'-2", "'@x", "Hélène; Dupont, « é »"], strict=True))
"""Each name as a spreadsheet must show it: the four formulas as text, after an apostrophe."""
SHEET: dict[str, Any] = {
    "players": 5,
    "names": NAMES,
    "table": "Salle d'été",
    "deals": [
        {"summary": SUMMARY},
        {"summary": {**SUMMARY, "contract": "garde_sans", "taker": 4, "points": 30}},
        {"not_played": {"reason": "redeal"}},
        {"not_played": {"reason": "void"}},
    ],
}
SEPARATOR = {"en": ",", "fr": ";"}


def sheet_file(client: FlaskClient, language: str, body: dict[str, Any] = SHEET) -> Any:
    answer = client.post(PATH, json=body, headers={"Accept": "text/csv", "Accept-Language": language})
    assert answer.status_code == 200
    return answer


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_file_says_its_type_name_and_language(client: FlaskClient, language: str) -> None:
    answer = sheet_file(client, language)
    assert answer.headers["Content-Type"] == "text/csv; charset=utf-8; header=present"
    assert answer.headers["Content-Language"] == language
    assert {"Accept", "Accept-Language"} <= {v.strip() for h in answer.headers.getlist("Vary") for v in h.split(",")}
    kind, options = parse_options_header(answer.headers["Content-Disposition"])
    stem = {"en": "score-sheet", "fr": "feuille-de-marque"}[language]
    assert kind == "attachment" and options["filename"] == f"{stem}-table-Salle-d-été.csv"
    assert answer.get_data().startswith(BOM.encode())
    json_answer = client.post(PATH, json=SHEET)
    assert "Content-Disposition" not in json_answer.headers


@pytest.mark.parametrize(
    ("language", "header", "rows"),
    [
        (
            "en",
            ["Deal", "Taker", "Contract", *SHOWN.values(), "Note"],
            [
                ["Deal 1", "'=SUM(A1:A2)", "Garde"],
                ["Deal 2", "Hélène; Dupont, « é »", "Garde sans"],
                ["Deal 3", "", "", "Dealt again"],
                ["Deal 4", "", "", "Void"],
            ],
        ),
        (
            "fr",
            ["Donne", "Preneur", "Contrat", *SHOWN.values(), "Remarque"],
            [
                ["Donne 1", "'=SUM(A1:A2)", "Garde"],
                ["Donne 2", "Hélène; Dupont, « é »", "Garde sans"],
                ["Donne 3", "", "", "Redistribuée"],
                ["Donne 4", "", "", "Annulée"],
            ],
        ),
    ],
)
def test_each_row_says_its_taker_contract_and_why_it_was_not_played(
    client: FlaskClient, language: str, header: list[str], rows: list[list[str]]
) -> None:
    marks = client.post(PATH, json=SHEET).get_json()["deals"]
    text = sheet_file(client, language).get_data().decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text, newline=""), delimiter=SEPARATOR[language]))
    assert table[0] == header
    for line, want, row in zip(table[1:5], rows, marks, strict=True):
        assert line[:3] == want[:3] and line[-1] == (want[3] if len(want) > 3 else "")
        assert line[3:-1] == [str(m) for m in row["scores"]]
    assert len(table) == 1 + 4 + 4 and all(len(line) == 9 for line in table)


def test_a_ruled_deal_says_its_ruling_in_words(client: FlaskClient) -> None:
    from .mutations import faulty

    wrong = next(m.deal for m, _ in faulty("swapped_pair", range(50), 4))
    body = {"players": 4, "deals": [{"record": wrong}]}
    decision = client.post(PATH, json=body).get_json()["deals"][0]["ruling"]["decision"]
    words = {
        "void": ("the deal void", "donne annulée"),
        "counted": ("the deal counted as played", "donne comptée telle que jouée"),
        "redeal": ("the cards dealt again", "cartes redistribuées"),
    }[decision]
    english = sheet_file(client, "en", body).get_data().decode("utf-8-sig").splitlines()[1]
    french = sheet_file(client, "fr", body).get_data().decode("utf-8-sig").splitlines()[1]
    assert english.endswith(f'"Ruling: {words[0]}"') and french.endswith(f'"Arbitrage\u00a0: {words[1]}"')


# ---- opened in LibreOffice Calc ----------------------------------------------------------------


def test_the_file_opens_in_columns_with_its_names_as_text_in_libreoffice(client: FlaskClient, tmp_path: Path) -> None:
    """Each language's file opened as its users' spreadsheets read it: French with `;` alone
    separating fields and French numbers, English with `,` alone; formulas evaluated, as Excel
    does. Every name is a text cell showing its text, the accented one intact, the marks numbers."""
    need_spreadsheet()
    marks = client.post(PATH, json=SHEET).get_json()["deals"]
    assert any(m < 0 for row in marks for m in row["scores"])  # negative marks, to be read as numbers
    french = sheet_file(client, "fr").get_data()
    # The control: the same file without the apostrophes, which this import must run as formulas,
    # or the test would prove nothing.
    raw = french.replace(b"\"'", b'"')
    opened = open_csv({"fr": french, "raw": raw}, csv_filter((SEMICOLON,), FRENCH), tmp_path / "fr")
    opened |= open_csv({"en": sheet_file(client, "en").get_data()}, csv_filter((COMMA,), ENGLISH_US), tmp_path / "en")
    for language, first in (("en", "Deal"), ("fr", "Donne")):
        table = opened[language]
        header = table[0]
        assert len(header) == 9, [c.text for c in header]  # in columns, not one
        assert header[0].text == first  # the byte-order mark read as one, not shown
        for cell, name in zip(header[3:8], NAMES, strict=True):
            assert cell.kind == "string" and cell.formula is None
            assert cell.text == SHOWN[name]
        assert header[7].text == "Hélène; Dupont, « é »"
        assert table[1][1].kind == "string" and table[1][1].text == "'=SUM(A1:A2)"
        for line, row in zip(table[1:5], marks, strict=True):
            scores = line[3:8]
            assert [c.kind for c in scores] == ["float"] * 5 and [c.formula for c in scores] == [None] * 5
            assert [int(c.text) for c in scores] == row["scores"]
    assert opened["raw"][0][3].formula is not None and opened["raw"][0][4].kind == "float"
