"""``tarot-rules replay``: what it reads, whatever it is given.

A record cut short (a log truncated, a line cut in two) is a malformed record wherever it is in
its log: the only line, the first, the last, any other, with blank lines before it or not, in a
file or on standard input. It is reported once, at its own line, in the terminal, the JUnit
report and the HTML page, never with the parser's "line 1" beside it, and the replay goes on
and fails (exit 1), as for any malformed record.

Every body the API takes, as a file (on one line or over several) or on standard input, is read
as the deal records it holds (an evaluation's request, the batch's JSON body, its NDJSON body),
or refused (exit 2) saying what it is and where it goes (a score sheet, another operation's request).
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
from service.contract.batch import EVALUATE_BATCH, evaluate_records
from service.contract.evaluate import EVALUATE
from service.contract.games import SCORE_GAME
from service.contract.operations import OPERATIONS
from service.randomdeals import random_deal

from .commandline import summary

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


# -- every body the API takes, given to the replay -------------------------------------------------------------

RECORDS_OF = {
    EVALUATE.operation_id: lambda request: [request],
    EVALUATE_BATCH.operation_id: lambda request: request["deals"],
}
"""The operations whose request bodies are deal records, and the records each body holds."""


def bodies() -> list[tuple[str, str, Any]]:
    """Each example request of each operation of the contract: (operation id, example, request)."""
    return [(op.operation_id, name, ex.request) for op in OPERATIONS.values() for name, ex in op.examples.items()]


def written(request: Any, form: str) -> bytes:
    if form == "one line":
        return json.dumps(request).encode() + b"\n"
    return json.dumps(request, indent=2, ensure_ascii=False).encode()  # as an editor, or curl -d @file, has it


@pytest.mark.parametrize(
    ("form", "stdin"), [("one line", False), ("pretty", False), ("one line", True), ("pretty", True)]
)
@pytest.mark.parametrize(("operation", "example", "sent"), bodies(), ids=lambda v: v if isinstance(v, str) else "")
def test_each_body_the_api_takes_is_read_as_records_or_refused_saying_what_it_is(
    tmp_path: Path, operation: str, example: str, sent: Any, form: str, stdin: bool
) -> None:
    body = written(sent, form)
    games = tmp_path / "body.json"
    games.write_bytes(body)
    status, out, err = replay("-" if stdin else games, stdin=body if stdin else None)
    name = "stdin" if stdin else str(games)
    op = next(op for op in OPERATIONS.values() if op.operation_id == operation)
    if operation in RECORDS_OF:
        # The body's own records, each read as the service reads it: the service's counts.
        said = evaluate_records(iter(RECORDS_OF[operation](sent)))["summary"]  # the request left as it is
        assert status in (0, 1) and err == "", err
        counts = summary(out)
        assert (counts["records"], counts["valid"], counts["malformed"]) == (
            said["deals"],
            said["valid"],
            said["malformed"],
        ), out
        return
    assert (status, out) == (2, "")
    [line] = err.splitlines()
    if op is SCORE_GAME:
        assert line == (
            f"tarot-rules: {name}: a game's score sheet (the body of POST {op.path}), not deal records: the replay "
            f"cannot run on it; POST {op.path} checks a sheet and its claims"
        )
    else:
        assert line == (
            f"tarot-rules: {name}: the body of a {operation} request (POST {op.path}), not deal records: the "
            "replay cannot run on it"
        )


def test_the_batch_s_ndjson_body_is_its_records_one_a_line(tmp_path: Path) -> None:
    example = EVALUATE_BATCH.examples["replay"].request["deals"]
    games = tmp_path / "batch.ndjson"
    games.write_text("".join(json.dumps(deal) + "\n" for deal in example), encoding="utf-8")
    status, out, _ = replay(games)
    said = evaluate_records(iter(example))["summary"]
    assert status in (0, 1)
    assert (summary(out)["records"], summary(out)["malformed"]) == (said["deals"], said["malformed"])


def test_the_records_of_a_json_batch_are_located_by_their_index(tmp_path: Path) -> None:
    deals = [deal(n) for n in range(3)]
    deals[1]["players"] = 9
    games = tmp_path / "batch.json"
    games.write_text("\n" + json.dumps({"deals": deals}, indent=1), encoding="utf-8")
    report = tmp_path / "report.xml"
    status, out, _ = replay(games, "--junit", report)
    assert status == 1
    assert (
        f"\n{games}[1] (deal-1): malformed record: The record is well-formed JSON but not a valid deal record.\n" in out
    )
    assert [case.get("line") for case in ET.parse(report).iter("testcase")] == ["0", "1", "2"]


def test_the_help_says_every_form_the_command_reads_and_every_exit_status() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["replay", "--help"])
    said = " ".join(out.getvalue().split())
    for form in ("NDJSON", "a JSON array of records", "one JSON record", '{"deals": [...]}', "- for standard input"):
        assert form in said, form
    for status in ("0 every deal valid and complete", "no record was found", "2 the replay could not run"):
        assert status in said, status
