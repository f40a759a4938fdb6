"""``tarot-rules replay``: what a record leaves out is said in every report (rules.md §12).

Missing data is never a fault, so a record whose only news is its evaluation's ``unchecked``
passes; but it is never silent either. Over any log of legal deals with any parts left out: the
terminal counts the records by each code of their ``unchecked``, the JUnit report gives each
record's as its test case's output, the HTML page has a table of them by code, all as the
service answers each record. ``--fail-on-unchecked CODE[,CODE…]`` (or ``all``) fails the
records that list one of those codes, and the replay with them.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.cli import main
from service.contract.records import record_item
from service.randomdeals import random_record, request_of
from service.rules.replay import opening_leader
from service.rules.verdicts import Unchecked

from .commandline import stub, summary, tarot_rules, timeless, without_rate, write_ndjson
from .test_rules_12_left_out import announcing_seeds, records_left_out

pytestmark = pytest.mark.usefixtures("locale")

CODES = [code.value for code in Unchecked]
FAILURES = "Failures:"


def replay(*args: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", *map(str, args), "--jobs", "1"])
    return status, out.getvalue(), err.getvalue()


def service_codes(record: dict[str, Any]) -> list[str]:
    """The codes of the record's ``unchecked``, as the service answers it."""
    return [str(u["code"]) for u in record_item(0, record)["result"]["unchecked"]]


def terminal_counts(out: str) -> dict[str, int]:
    """``not checked: dealt_hands 12 records, dog 3``: the records by code, as the terminal says them."""
    lines = [line for line in out.splitlines() if line.startswith("not checked: ")]
    assert len(lines) <= 1, lines
    return {code: int(n) for code, n in re.findall(r"(\w+) (\d+)", lines[0])} if lines else {}


def page_counts(page: str) -> dict[str, int]:
    """The page's table of what the records leave out: the records by code."""
    if '<table class="unchecked">' not in page:
        return {}
    start = page.index('<table class="unchecked">')
    table = page[start : page.index("</table>", start)]
    return {code: int(n) for code, n in re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td>", table)}


def output_codes(case: ET.Element) -> list[str]:
    """The codes a test case's output says were not checked, in order."""
    return re.findall(r"^not checked \((\w+)\): ", case.findtext("system-out") or "", flags=re.MULTILINE)


@st.composite
def logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Legal deals, some of their parts left out (any), each with an id."""
    cases = draw(st.lists(records_left_out(), min_size=1, max_size=6))
    return [{"id": f"deal-{n}", **partial} for n, (_, partial, _) in enumerate(cases)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=logs(), failing=st.sets(st.sampled_from([*CODES, "all"]), max_size=2))
def test_12_every_report_says_what_each_record_leaves_out_and_fails_only_for_the_codes_asked(
    log: list[dict[str, Any]], failing: set[str]
) -> None:
    said = {record["id"]: service_codes(record) for record in log}
    counts = Counter(code for codes in said.values() for code in set(codes))
    fails = {deal for deal, codes in said.items() if codes and ("all" in failing or set(codes) & failing)}
    flag = ["--fail-on-unchecked", ",".join(sorted(failing))] if failing else []
    with tempfile.TemporaryDirectory() as scratch:
        games = write_ndjson(Path(scratch) / "games.ndjson", log)
        report, page = Path(scratch) / "report.xml", Path(scratch) / "report.html"
        # Deals cut short are allowed: they would fail for that.
        status, out, _ = replay(games, "--allow-in-progress", "--junit", report, "--html", page, *flag)
        cases = {case.get("name"): case for case in ET.parse(report).iter("testcase")}
        html = page.read_text(encoding="utf-8")

    # Missing data is no fault: the replay fails only for the records the flag names.
    assert summary(out)["valid"] == len(log)
    assert status == (1 if fails else 0), out
    assert terminal_counts(out) == counts
    assert page_counts(html) == counts
    failures = out.split(FAILURES, 1)[1].split("\n\n")[0] if FAILURES in out else ""
    for deal, codes in said.items():
        case = cases[deal]
        assert output_codes(case) == codes
        failure = case.find("failure")
        if deal in fails:
            named = [c for c in codes if "all" in failing or c in failing]
            assert failure is not None and failure.get("type") == "unchecked"
            assert failure.get("message") == "not checked, failing by --fail-on-unchecked: " + ", ".join(named)
            assert f"({deal}): not checked, failing by --fail-on-unchecked: " in failures
            assert re.search(rf'<h2 id="deal-\d+">{deal} ', html)
        else:
            assert failure is None
            assert f"({deal})" not in failures
        if codes:
            assert re.search(rf"<td>[^<]*\b{deal}\b[^<]*</td></tr>", html)  # named in its codes' rows


def chelem_left_out(taker_due: bool) -> dict[str, Any]:
    """A legal four-player deal with a chelem announced, ``chelem_announced`` left out: the taker
    due to lead the first trick anyway, or leading it in another seat's turn."""
    for seed in announcing_seeds(4):
        record = random_record(seed, 4)
        assert record.taker is not None
        due = opening_leader(record.dealer, record.taker, 4, False, record.rules)
        if (due == record.taker) == taker_due:
            request = request_of(record, f"chelem-{seed}")
            del request["chelem_announced"]
            return request
    raise AssertionError("no such deal")


@pytest.mark.parametrize(
    ("taker_due", "reading"),
    [(False, "it is read as announced"), (True, "It is read as not announced")],
    ids=["read-as-announced", "read-as-not-announced"],
)
def test_12_a_chelem_announcement_read_from_the_record_is_said_and_fails_when_asked(
    tmp_path: Path, taker_due: bool, reading: str
) -> None:
    # Either reading changes the score; by default the record still passes, and says it.
    record = chelem_left_out(taker_due)
    games = write_ndjson(tmp_path / "games.ndjson", [record])
    report = tmp_path / "report.xml"
    status, out, _ = replay(games, "--junit", report)
    assert status == 0, out
    assert terminal_counts(out) == {"auction": 1, "chelem_announcement": 1}
    [case] = ET.parse(report).iter("testcase")
    assert case.find("failure") is None
    assert reading in (case.findtext("system-out") or "")

    status, out, _ = replay(games, "--junit", report, "--fail-on-unchecked", "chelem_announcement")
    assert status == 1
    [case] = ET.parse(report).iter("testcase")
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "unchecked"
    assert reading in (failure.text or "") and "auction" not in (failure.text or "")
    listed = out.split(FAILURES, 1)[1].splitlines()
    assert listed[1] == f"{games}:1 ({record['id']}): not checked, failing by --fail-on-unchecked: chelem_announcement"
    assert listed[2].startswith("    not checked (chelem_announcement): ") and reading in listed[2]
    assert replay(games, "--fail-on-unchecked", "dog,discard")[0] == 0  # codes it does not list


def test_a_record_that_leaves_nothing_out_says_nothing(tmp_path: Path) -> None:
    record = request_of(random_record(7, 4, auction=True), "whole")
    assert service_codes(record) == []
    games = write_ndjson(tmp_path / "games.ndjson", [record])
    status, out, _ = replay(games, "--junit", tmp_path / "report.xml", "--fail-on-unchecked", "all")
    assert status == 0
    assert "not checked" not in out
    [case] = ET.parse(tmp_path / "report.xml").iter("testcase")
    assert case.find("system-out") is None


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_code_that_is_not_one_is_refused_naming_the_codes(capsys: pytest.CaptureFixture[str], language: str) -> None:
    status, out, err = tarot_rules(capsys, "--lang", language, "replay", "-", "--fail-on-unchecked", "hands,dog")
    assert (status, out) == (2, "")
    assert "hands,dog" in err and all(code in err for code in CODES) and "all" in err


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["--fail-on-unchecked", "a record leaves out a part --fail-on-unchecked names"]),
        ("fr", ["--fail-on-unchecked", "si un enregistrement omet une partie que nomme --fail-on-unchecked"]),
    ],
)
def test_the_help_says_the_option_and_its_exit_status(
    capsys: pytest.CaptureFixture[str], language: str, said: list[str]
) -> None:
    with contextlib.suppress(SystemExit):
        main(["--lang", language, "replay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in [*said, *CODES]:
        assert words in text, words


def test_a_running_service_says_the_same_and_fails_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = [chelem_left_out(False), chelem_left_out(True), request_of(random_record(3, 5), "plain")]
    del log[2]["hands"]
    games = write_ndjson(tmp_path / "games.ndjson", log)
    flag = ("--fail-on-unchecked", "dealt_hands")
    local = tarot_rules(capsys, "replay", games, "--jobs", "1", "--junit", tmp_path / "local.xml", *flag)
    with stub([]) as server:
        remote = tarot_rules(capsys, "replay", games, "--url", server.base, "--junit", tmp_path / "remote.xml", *flag)
    assert local[0] == remote[0] == 1
    assert without_rate(remote[1]) == without_rate(local[1])
    assert "not checked: auction 3 records, chelem_announcement 2, dealt_hands 1" in local[1]
    assert timeless(tmp_path / "remote.xml") == timeless(tmp_path / "local.xml")


def test_the_reports_speak_the_language_of_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = write_ndjson(tmp_path / "games.ndjson", [chelem_left_out(True)])
    page = tmp_path / "report.html"
    status, out, _ = tarot_rules(capsys, "--lang", "fr", "replay", games, "--junit", tmp_path / "r.xml", "--html", page)
    assert status == 0
    assert "non vérifié\u00a0: auction 1 enregistrement, chelem_announcement 1" in out
    [case] = ET.parse(tmp_path / "r.xml").iter("testcase")
    assert "non vérifié (chelem_announcement)\u00a0: La donne ne dit pas" in (case.findtext("system-out") or "")
    assert "Non vérifié\u00a0: ce qu&#39;omettent les enregistrements" in page.read_text(encoding="utf-8")
    assert json.loads(games.read_text())["id"] in page.read_text(encoding="utf-8")
