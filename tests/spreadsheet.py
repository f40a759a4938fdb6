"""LibreOffice Calc, headless, for the tests that open a CSV answer as a spreadsheet user does.

A CSV file is imported with the Text CSV filter's options (the field separators, the language
that reads numbers, formulas evaluated) and written as a flat OpenDocument spreadsheet, whose
cells are read back here: a text, a number or a formula, as the program holds it. Where
LibreOffice is absent the tests are skipped, saying how to get it, unless
``REQUIRE_SPREADSHEET=1`` (set by ``.ci/run``): then they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

PROGRAMS = ("soffice", "libreoffice")
SOFFICE = next((path for name in PROGRAMS if (path := shutil.which(name))), None)
REQUIRED = os.environ.get("REQUIRE_SPREADSHEET") == "1"
HOW = (
    "`make test` installs Debian's libreoffice-calc-nogui where it may (root or passwordless sudo); "
    "otherwise `apt-get install --no-install-recommends libreoffice-calc-nogui`"
)


def need_spreadsheet() -> None:
    """Skip the test (fail it, with ``REQUIRE_SPREADSHEET=1``) where LibreOffice is absent."""
    if SOFFICE is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_SPREADSHEET=1 and no LibreOffice here: {HOW}", pytrace=False)
        pytest.skip(f"no LibreOffice on this machine: {HOW}")


SEMICOLON, COMMA, TAB = 59, 44, 9
FRENCH, ENGLISH_US = 1036, 1033
"""Windows language identifiers, which the filter takes for the language that reads numbers."""


def csv_filter(separators: tuple[int, ...], language: int) -> str:
    """The Text CSV import filter with its options, by position: the field separators, `"` as the
    text delimiter, the character set left to the program (a byte-order mark says UTF-8), from
    line 1, standard columns, ``language``, quoted fields not forced to text, no special number
    detection, spaces kept, and formulas evaluated, as Excel evaluates them."""
    tokens = ["/".join(map(str, separators)), "34", "", "1", "", str(language)]
    tokens += ["false", "false", "false", "false", "false", "", "true"]
    return "CSV:" + ",".join(tokens)


@dataclass(frozen=True)
class Cell:
    kind: str | None
    """The cell's value type: ``string``, ``float``… None for an empty cell."""
    text: str
    """What the cell shows."""
    formula: str | None
    """The formula the cell computes, if any."""


_NS = {
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
}


def _attr(element: ET.Element, ns: str, name: str) -> str | None:
    return element.get(f"{{{_NS[ns]}}}{name}")


def read_fods(path: Path) -> list[list[Cell]]:
    """The first sheet's rows of a flat OpenDocument spreadsheet, empty cells at a row's end left out."""
    sheet = ET.parse(path).getroot().find(".//table:table", _NS)
    assert sheet is not None, f"{path}: no sheet"
    rows = []
    for row in sheet.iter(f"{{{_NS['table']}}}table-row"):
        cells: list[Cell] = []
        for cell in row.findall("table:table-cell", _NS):
            text = "\n".join("".join(p.itertext()) for p in cell.findall("text:p", _NS))
            one = Cell(_attr(cell, "office", "value-type"), text, _attr(cell, "table", "formula"))
            cells += [one] * int(_attr(cell, "table", "number-columns-repeated") or 1)
        while cells and cells[-1].kind is None:
            cells.pop()
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def open_csv(files: dict[str, bytes], filter_options: str, work: Path) -> dict[str, list[list[Cell]]]:
    """Each CSV file (by its name, without extension) as LibreOffice opens it with
    ``filter_options``, in one run of the program with a profile of its own under ``work``."""
    assert SOFFICE is not None, "call need_spreadsheet() first"
    work.mkdir(parents=True, exist_ok=True)
    sources = []
    for name, data in files.items():
        source = work / f"{name}.csv"
        source.write_bytes(data)
        sources.append(str(source))
    out = work / "out"
    # A private profile: runs side by side do not share (or lock) one.
    profile = (work / "profile").as_uri()
    subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation={profile}",
            "--headless",
            "--norestore",
            f"--infilter={filter_options}",
            *("--convert-to", "fods", "--outdir", str(out)),
            *sources,
        ],
        capture_output=True,
        timeout=60,
        check=True,
    )
    return {name: read_fods(out / f"{name}.fods") for name in files}
