"""``tarot-rules replay``: what it reads, whatever it is given.

A record cut short (a log truncated, a line cut in two) is a malformed record wherever it is in
its log: the only line, the first, the last, any other, with blank lines before it or not, in a
file or on standard input. It is reported once, at its own line, in the terminal, the JUnit
report and the HTML page, never with the parser's "line 1" beside it, and the replay goes on
and fails (exit 1), as for any malformed record.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.cli import main
from service.randomdeals import random_deal

pytestmark = pytest.mark.usefixtures("locale")


def replay(*args: str | Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", *map(str, args), "--jobs", "1"])
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def deal(n: int) -> dict[str, Any]:
    return {"id": f"deal-{n}", **random_deal(n, 3 + n % 3)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(1, 5),
    data=st.data(),
    blank=st.integers(0, 2),
    truncated=st.booleans(),
    from_stdin=st.booleans(),
)
def test_a_record_cut_short_is_a_malformed_record_at_its_own_line_wherever_it_is(
    count: int, data: st.DataObject, blank: int, truncated: bool, from_stdin: bool
) -> None:
    at = data.draw(st.integers(0, count - 1), label="at")
    whole = [json.dumps(deal(n)) for n in range(count)]
    cut = data.draw(st.integers(1, len(whole[at]) - 1), label="cut")
    # Truncated: the file ends within the record. Otherwise the records after it follow.
    lines = [*whole[:at], whole[at][:cut], *([] if truncated else whole[at + 1 :])]
    body = "\n" * blank + "\n".join(lines) + ("" if truncated else "\n")
    line = blank + at + 1
    with tempfile.TemporaryDirectory() as scratch:
        games = Path(scratch) / "games.ndjson"
        games.write_text(body, encoding="utf-8")
        report, page = Path(scratch) / "report.xml", Path(scratch) / "report.html"
        args = ["-" if from_stdin else games, "--junit", report, "--html", page]
        status, out, err = replay(*args, stdin=body.encode() if from_stdin else None)
        cases = list(ET.parse(report).iter("testcase"))
        html = page.read_text(encoding="utf-8")
    name = "stdin" if from_stdin else str(games)
    where = f"{name}:{line}"

    assert (status, err) == (1, ""), out + err
    assert f"\n{where}: malformed record: The line is not valid JSON.\n" in out
    assert re.search(r"\n    the record \(malformed_json\): Invalid JSON at column \d+", out)
    assert re.search(r"\bline \d", out.split("Failures:")[1]) is None  # no line but its own
    [error] = [case for case in cases if case.find("error") is not None]
    assert (error.get("name"), error.get("line")) == (where, str(line))
    assert [case.get("line") for case in cases] == [
        str(blank + n + 1) for n in range(len(lines))
    ]  # every record at its line
    assert (error.findtext("error") or "").startswith(f"{where}\n")
    assert re.search(r"\bline \d", error.findtext("error") or "") is None
    assert f'<h2 id="deal-1">{where} <small>{where}</small></h2>' in html
    assert re.search(r"\bline \d", html) is None
