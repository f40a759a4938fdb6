"""``tarot-rules replay``: its counts are the service's, and a deal in progress is told as it is.

Over any log mixing complete deals, deals whose record stops before the end, faulty deals,
malformed lines and claims right or wrong: the terminal's summary and the HTML page's counts by
file are the batch summary the service gives for the same log (``valid`` counts every deal that
breaks no rule, complete or not; ``in_progress`` those of them that stop before the end), and
the exit status is the batch summary's verdict. A deal in progress fails the replay, listed
among the failures in every report; with ``--allow-in-progress`` it is no failure in any report
(not under "Failures:", no JUnit failure, not drawn as a failing deal), and is listed under a
heading of its own.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.cli import main
from service.randomdeals import random_deal

from .commandline import made_faulty, summary

pytestmark = pytest.mark.usefixtures("locale")

KINDS = ("complete", "in_progress", "faulty", "malformed")
TERMINAL = {
    "records": "deals",
    "valid": "valid",
    "of which in progress": "in_progress",
    "faulty": "faulty",
    "malformed": "malformed",
    "claims checked": "claims_checked",
    "claims disagreeing": "claims_disagree",
}
"""The terminal's labels (English) and the batch summary's fields they say."""
PAGE_COLUMNS = ("deals", "valid", "in_progress", "faulty", "malformed", "claims_disagree")
FAILURES = "Failures:"
ALLOWED = "In progress, allowed by --allow-in-progress (no failure):"


def record(n: int, kind: str, cut: int, claim: str) -> Any:
    """Record ``n`` of a log: a deal of the ``kind`` asked (``cut`` cards short when in progress),
    with no claim, a right one or a wrong one; a malformed line is a line cut in two."""
    deal: dict[str, Any] = {"id": f"deal-{n}", **random_deal(n, 3 + n % 3)}
    if kind == "in_progress":
        deal["plays"] = deal["plays"][: len(deal["plays"]) - 1 - cut % len(deal["plays"])]
    elif kind == "faulty":
        made_faulty(deal)  # its first two cards swapped: the leader plays a card it does not hold
    if claim != "none":
        deal["claims"] = {"valid": (kind != "faulty") == (claim == "right")}
    if kind == "malformed":
        return json.dumps(deal)[: 40 + cut]
    return deal


def replay(*args: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", *map(str, args), "--jobs", "1"])
    return status, out.getvalue(), err.getvalue()


def sections(out: str) -> dict[str, list[str]]:
    """The terminal's lists after the summary, by heading."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line in (FAILURES, ALLOWED):
            current = found.setdefault(line, [])
        elif not line:
            current = None
        elif current is not None:
            current.append(line)
    return found


def page_counts(page: str) -> dict[str, int]:
    """The HTML page's counts by file, added up (the page lists only the files where something failed)."""
    if '<table class="summary">' not in page:
        return dict.fromkeys(PAGE_COLUMNS, 0)
    start = page.index('<table class="summary">')
    table = page[start : page.index("</table>", start)]
    rows = [[int(n) for n in re.findall(r"<td>(\d+)</td>", row)] for row in table.split("<tr>")[2:]]
    return dict(zip(PAGE_COLUMNS, (sum(column) for column in zip(*rows, strict=True)), strict=True))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    log=st.lists(
        st.tuples(st.sampled_from(KINDS), st.integers(0, 60), st.sampled_from(["none", "right", "wrong"])),
        max_size=7,
    ),
    allow=st.booleans(),
)
def test_the_replay_counts_as_the_service_and_tells_a_deal_in_progress_by_the_flag(
    app: Flask, log: list[tuple[str, int, str]], allow: bool
) -> None:
    lines = [record(n, kind, cut, claim) for n, (kind, cut, claim) in enumerate(log)]
    body = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    with app.test_client() as client:
        answer = client.post("/v1/deals/evaluate-batch", data=body, content_type="application/x-ndjson")
    said = json.loads(answer.get_data().splitlines()[-1])["summary"]
    in_progress = [f"deal-{n}" for n, (kind, _, _) in enumerate(log) if kind == "in_progress"]
    assert said["in_progress"] == len(in_progress)

    with tempfile.TemporaryDirectory() as scratch:
        games = Path(scratch) / "games.ndjson"
        games.write_text(body, encoding="utf-8")
        report, page = Path(scratch) / "report.xml", Path(scratch) / "report.html"
        flag = ["--allow-in-progress"] if allow else []
        status, out, _ = replay(games, "--junit", report, "--html", page, *flag)
        cases = {case.get("name"): case for case in ET.parse(report).iter("testcase")}
        html = page.read_text(encoding="utf-8")

    # One meaning of each count: the service's, in the terminal and on the page.
    counts = summary(out)
    counts.pop("deals/s")
    assert {TERMINAL[label]: value for label, value in counts.items()} == {k: said[k] for k in TERMINAL.values()}
    if said["deals"] > 0:
        assert page_counts(html) == ({k: said[k] for k in PAGE_COLUMNS} if status else dict.fromkeys(PAGE_COLUMNS, 0))
    # The verdict is the summary's: every record a valid deal, claims agreeing, complete or allowed not to be.
    passed = (
        said["deals"] > 0
        and said["valid"] == said["deals"]
        and said["claims_disagree"] == 0
        and (allow or said["in_progress"] == 0)
    )
    assert status == (0 if passed else 1)

    listed = sections(out)
    failures = listed.get(FAILURES, [])
    for deal in in_progress:
        case = cases[deal]
        failure = case.find("failure")
        said_as_failure = [line for line in failures if f"({deal}): deal in progress:" in line]
        if allow:
            # No failure for being in progress, in any report; listed under its own heading.
            assert said_as_failure == []
            assert failure is None or "in-progress" not in (failure.get("type") or "")
            assert failure is None or "in progress" not in (failure.get("message") or "")
            assert [line for line in listed[ALLOWED] if f"({deal}): the record stops at trick" in line]
            assert "allowed by --allow-in-progress" in (case.findtext("system-out") or "")
            assert re.search(rf"<li>{deal} <small>[^<]*</small> — the record stops at trick", html)
            drawn = re.search(rf'<h2 id="deal-\d+">{deal} ', html)
            assert (drawn is not None) == (failure is not None)  # drawn only when failing for its claims
        else:
            assert len(said_as_failure) == 1
            assert failure is not None and "in-progress" in (failure.get("type") or "")
            assert ALLOWED not in out and "allowed" not in (case.findtext("system-out") or "")
            assert re.search(rf'<h2 id="deal-\d+">{deal} ', html)
