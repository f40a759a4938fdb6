"""``tarot-rules replay``: recorded deals and their claims checked from the command line.

The command runs in process (``main([...])``) on files written here: the golden deals with
the claims their expected values make (all true), then with claims made false, records made
malformed, deals made faulty. The same replay must give the same report whatever the number
of processes, and through a running service (``--url``) as in process.
"""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from service.cli import local, main, remote
from service.contract.records import LINE_MAX_BYTES
from service.randomdeals import random_deal

from .commandline import (
    falsified,
    golden_records,
    made_faulty,
    stub,
    summary,
    tarot_rules,
    timeless,
    without_rate,
    write_ndjson,
)
from .serving import Gunicorn, free_port

SCRIPT = Path(sys.executable).parent / "tarot-rules"


# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return tarot_rules(capsys, "replay", *args)


def disagreements(out: str) -> dict[str, list[str]]:
    """Each record's false claims as listed: ``{location: [pointer, ...]}``."""
    found: dict[str, list[str]] = {}
    current = None
    for line in out.splitlines():
        if line.endswith(": claims disagree:"):
            current = line.split(" ", 1)[0]
            found[current] = []
        elif line.startswith("    /claims/") and current is not None:
            found[current].append(line.split(":", 1)[0].strip())
        else:
            current = None
    return found


def test_golden_deals_with_true_claims_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = write_ndjson(tmp_path / "games.ndjson", golden_records())
    status, out, err = replay(capsys, str(games), "--jobs", "1")
    assert status == 0, out + err
    counts = summary(out)
    assert counts.pop("deals/s") >= 0  # the rate: any
    assert counts == {
        "records": 42,
        "valid": 42,
        "of which in progress": 0,
        "faulty": 0,
        "malformed": 0,
        "claims checked": 42,
        "claims disagreeing": 0,
    }
    assert "Failures" not in out
    assert err == ""


def test_each_false_claim_is_reported_at_its_pointer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, falsehoods = falsified()
    games = write_ndjson(tmp_path / "games.ndjson", records)
    status, out, _ = replay(capsys, str(games))
    assert status == 1
    counts = summary(out)
    assert (counts["valid"], counts["claims checked"], counts["claims disagreeing"]) == (42, 42, 6)
    assert disagreements(out) == {f"{games}:{i + 1}": [pointer] for i, pointer in falsehoods.items()}
    for i in falsehoods:
        assert f"{games}:{i + 1} ({records[i]['id']}): claims disagree:" in out


def test_junit_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, falsehoods = falsified()
    faulty = made_faulty(records[2])
    odd = {**records[5], "id": "odd <&> \x01 id"}
    lines: list[Any] = [*records[:10], odd, '{"players": 3, "surplus": 1}', *records[10:]]
    games = write_ndjson(tmp_path / "games.ndjson", lines)
    report = tmp_path / "report.xml"
    status, _, _ = replay(capsys, str(games), "--junit", str(report))
    assert status == 1

    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == len(lines)
    assert suite.get("name") == str(games)
    # A dotted class name, the same on every machine (CI viewers split it on its dots).
    assert {c.get("classname") for c in cases} == {"tarot_rules.replay.games"}
    assert {c.get("file") for c in cases} == {str(games)}
    assert [int(c.get("line") or 0) for c in cases] == list(range(1, len(lines) + 1))
    assert all(float(c.get("time") or -1) >= 0 for c in cases)
    failed = {c.get("name"): c.findall("failure") for c in cases if c.findall("failure")}
    assert set(failed) == {records[i]["id"] for i in falsehoods} | {faulty["id"]}
    assert all(len(f) == 1 for f in failed.values())
    both = failed[faulty["id"]][0]
    assert "faulty deal" in (both.get("message") or "") and "claims disagree" in (both.get("message") or "")
    assert "lead out of turn" in (both.text or "") and "/claims/valid" in (both.text or "")
    for i, pointer in falsehoods.items():
        assert pointer in (failed[records[i]["id"]][0].text or "")
    errors = [c for c in cases if c.findall("error")]
    assert [c.get("name") for c in errors] == [f"{games}:12"]
    assert "/surplus" in (errors[0].find("error").text or "")  # type: ignore[union-attr]
    assert cases[10].get("name") == "odd <&> \ufffd id"
    expected = {"tests": str(len(lines)), "failures": str(len(failed)), "errors": "1"}
    for element in (root, suite):
        assert {k: element.get(k) for k in expected} == expected


def test_malformed_lines_are_reported_and_the_others_evaluated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = golden_records()[:4]
    lines = [good[0], "{not json", "", good[1], {**good[2], "surplus": True}, "  ", good[3], "[1, 2]"]
    games = write_ndjson(tmp_path / "games.ndjson", lines)
    status, out, _ = replay(capsys, str(games), "--jobs", "1")
    assert status == 1
    counts = summary(out)
    assert (counts["records"], counts["valid"], counts["malformed"]) == (6, 3, 3)
    assert f"{games}:2: malformed record: The line is not valid JSON." in out
    # The line is said by its place in the file alone: no "line 1" of the parser beside ":2".
    assert "\n    the record (malformed_json): Invalid JSON at column 2: a property name" in out
    assert "    the record (type): Wrong type: expected an object with the fields `id`, `players`, `dealer`," in out
    assert f"{games}:5 ({good[2]['id']}): malformed record" in out
    assert "    /surplus (unknown_field): Unknown field." in out
    assert f"{games}:8: malformed record" in out


def test_a_line_over_the_limit_is_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = golden_records()[0]
    long_line = json.dumps({**record, "id": "x" * LINE_MAX_BYTES})
    games = write_ndjson(tmp_path / "games.ndjson", [long_line, record])
    status, out, _ = replay(capsys, str(games), "--jobs", "1")
    assert status == 1
    assert f"{games}:1: malformed record: A line holds at most {LINE_MAX_BYTES // 1024} KiB." in out
    assert summary(out)["valid"] == 1


def test_json_array_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, falsehoods = falsified()
    games = tmp_path / "games.json"
    games.write_text("\n\n" + json.dumps(records, indent=1))
    status, out, _ = replay(capsys, str(games), "--jobs", "2")
    assert status == 1
    assert disagreements(out) == {f"{games}[{i}]": [pointer] for i, pointer in falsehoods.items()}


def test_a_json_array_that_does_not_parse_stops_the_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.json"
    games.write_text("\n[\n" + json.dumps(golden_records()[0]) + ",\n}\n")
    status, out, err = replay(capsys, str(games))
    assert status == 2
    assert out == ""
    assert err.startswith(f"tarot-rules: {games}: not a valid JSON array: Invalid JSON at line 4, column 1")


def test_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    records, falsehoods = falsified()
    data = "\n" + "".join(json.dumps(r) + "\n" for r in records)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    status, out, _ = replay(capsys, "-", "--jobs", "1")
    assert status == 1
    assert disagreements(out) == {f"stdin:{i + 2}": [pointer] for i, pointer in falsehoods.items()}


def test_a_file_of_something_else_stops_the_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:1])
    other = tmp_path / "notes.txt"
    other.write_text("\n  \nplayers: 3\n{}\n")
    status, out, err = replay(capsys, str(games), str(other))
    assert status == 2
    assert out == ""
    assert err == (
        f"tarot-rules: {other}:3: neither NDJSON nor JSON: a record begins with '{{' (NDJSON, one a line; "
        "or one JSON record over several lines), a list of records with '[' (a JSON array), not with 'players: 3'\n"
    )


def test_a_missing_file_stops_the_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:1])
    status, out, err = replay(capsys, str(games), str(tmp_path / "missing.ndjson"))
    assert (status, out) == (2, "")
    assert err == f"tarot-rules: {tmp_path / 'missing.ndjson'}: no such file\n"


def test_a_file_without_records_is_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.ndjson"
    empty.write_text("\n \n")
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:2])
    report = tmp_path / "report.xml"
    status, out, err = replay(capsys, str(empty), str(games), "--junit", str(report), "--jobs", "1")
    assert status == 0
    assert summary(out)["records"] == 2
    assert err == f"tarot-rules: warning: {empty} holds no records\n"
    suites = ET.parse(report).getroot().findall("testsuite")
    assert [(s.get("name"), s.get("tests"), len(s)) for s in suites] == [(str(empty), "0", 0), (str(games), "2", 2)]


def test_a_replay_that_checks_nothing_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An engine that crashed and wrote no log must not pass the build: 1, said, and in JUnit too.
    empty = tmp_path / "empty.ndjson"
    empty.write_text("")
    report = tmp_path / "report.xml"
    for args in ([str(empty)], ["-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        status, out, err = replay(capsys, *args, "--junit", str(report))
        assert status == 1
        assert summary(out)["records"] == 0
        assert err.endswith("tarot-rules: nothing was checked: the files hold no record\n")
        root = ET.parse(report).getroot()
        assert (root.get("tests"), root.get("failures")) == ("1", "1")
        [case] = root.iter("testcase")
        failure = case.find("failure")
        assert failure is not None and failure.get("type") == "nothing-checked"


def cut_short(record: dict[str, Any], cards: int) -> dict[str, Any]:
    return {**record, "plays": record["plays"][:-cards]}


def test_a_deal_cut_short_fails_unless_games_in_progress_are_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = golden_records()[:3]
    whole = {k: v for k, v in records[1].items() if k != "claims"}
    games = write_ndjson(tmp_path / "games.ndjson", [records[0], cut_short(whole, 5), records[2]])
    report = tmp_path / "report.xml"
    status, out, _ = replay(capsys, str(games), "--junit", str(report))
    assert status == 1  # a recording that stops at trick 17 of 18 is a defect of the recording
    counts = summary(out)
    assert (counts["valid"], counts["of which in progress"]) == (3, 1)
    trick = (len(whole["plays"]) - 5) // whole["players"] + 1
    tricks = len(whole["plays"]) // whole["players"]
    said = f"deal in progress: the record stops at trick {trick} of {tricks}"
    assert f"{games}:2 ({whole['id']}): {said}" in out
    failures = [c.find("failure") for c in ET.parse(report).iter("testcase")]
    assert [(f.get("type"), f.get("message")) for f in failures if f is not None] == [("in-progress", said)]
    status, out, _ = replay(capsys, str(games), "--allow-in-progress")
    assert status == 0 and summary(out)["of which in progress"] == 1


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_one_json_record_over_several_lines_is_one_record(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The README's own example, pretty-printed: one record, not 197 malformed lines.
    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "evaluate-deal.json"
    if how == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(example.read_bytes())))
        status, out, _ = replay(capsys, "-")
    else:
        status, out, _ = replay(capsys, str(example))
    assert status == 0, out
    assert (summary(out)["records"], summary(out)["valid"]) == (1, 1)


def test_ndjson_whose_first_record_is_broken_is_still_ndjson(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = golden_records()[:3]
    games = tmp_path / "games.ndjson"
    games.write_text(json.dumps(records[0])[:-1] + "\n" + "".join(json.dumps(r) + "\n" for r in records[1:]))
    status, out, _ = replay(capsys, str(games))
    assert status == 1
    assert (summary(out)["records"], summary(out)["malformed"]) == (3, 1)


def test_a_json_document_that_does_not_parse_stops_the_replay_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "deal.json"
    broken.write_text('{\n  "players": 4,\n  "dealer": oops\n}\n')
    status, out, err = replay(capsys, str(broken))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(f"tarot-rules: {broken}: neither NDJSON nor JSON: ")


def test_a_faulty_deal_is_told_with_its_ruling_and_its_ruled_marks_may_be_claimed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.contract.evaluate import EVALUATE

    # A defender renounces and the defence wins as played: the ruling voids the deal (§14.2).
    deal = EVALUATE.examples["defenderRenounces"].request
    faulty = {**deal, "id": "ruled"}
    ruling = EVALUATE.respond(deal).answer["ruling"]
    assert ruling["scores"] != ruling["as_played_scores"]
    ruled = {
        **faulty,
        "claims": {"scores": ruling["scores"], "ruling": {k: ruling[k] for k in ("decision", "side_at_fault")}},
    }
    played = {**faulty, "id": "as-played", "claims": {"scores": ruling["as_played_scores"]}}
    games = write_ndjson(tmp_path / "games.ndjson", [ruled, played])
    report = tmp_path / "report.xml"
    status, out, _ = replay(capsys, str(games), "--junit", str(report))
    assert status == 1  # faulty either way
    assert f"    ruling: {ruling['message']}" in out
    assert summary(out)["claims disagreeing"] == 1  # the marks as played, not the ruled ones
    assert "/claims/scores: claimed" in out
    texts = {c.get("name"): c.find("failure").text or "" for c in ET.parse(report).iter("testcase")}  # type: ignore[union-attr]
    assert f"ruling: {ruling['message']}" in texts[faulty["id"]]
    assert "claims disagree" not in texts[faulty["id"]].lower() and "/claims/scores" in texts["as-played"]


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay"]) == 2
    assert main(["replay", "games.ndjson", "--jobs", "0"]) == 2
    assert main(["replay", "games.ndjson", "--url", "ftp://example.org"]) == 2
    err = capsys.readouterr().err
    assert "not a positive whole number: 0" in err
    assert "not an http:// or https:// URL: ftp://example.org" in err


def many_records() -> list[Any]:
    """Some 300 generated deals: a few faulty, some with false claims, some malformed."""
    lines: list[Any] = []
    for seed in range(300):
        deal = {"id": f"deal-{seed}", **random_deal(seed, 3 + seed % 3)}
        if seed % 29 == 0:
            deal["plays"] = deal["plays"][1:2] + deal["plays"][:1] + deal["plays"][2:]
        if seed % 7 == 0:
            deal["claims"] = {"valid": True, "points": 41 if seed % 2 else 45.5}
        lines.append(deal if seed % 37 else json.dumps(deal)[:-1])
    return lines


def test_two_processes_give_the_same_report_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = write_ndjson(tmp_path / "games.ndjson", many_records())
    reports = []
    outs = []
    for jobs in ("1", "2"):
        report = tmp_path / f"report-{jobs}.xml"
        status, out, _ = replay(capsys, str(games), "--jobs", jobs, "--junit", str(report))
        assert status == 1
        outs.append(without_rate(out))
        reports.append(report.read_bytes())
    assert outs[0] == outs[1]
    assert timeless(reports[0]) == timeless(reports[1])
    root = ET.fromstring(reports[0])
    failing = int(root.get("failures") or 0) + int(root.get("errors") or 0)
    section = outs[0].split("Failures:\n")[1].splitlines()
    assert len({line.split(" ", 1)[0] for line in section if line.startswith(str(games))}) == 20
    assert failing > 20
    assert section[-1] == f"… and {failing - 20} more (see --junit)"


def test_quiet_prints_the_summary_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = falsified()
    games = write_ndjson(tmp_path / "games.ndjson", records)
    status, out, _ = replay(capsys, str(games), "--quiet", "--jobs", "1")
    assert status == 1
    # The counts, then what the records leave out (they give no bids), and no failure.
    assert out.splitlines()[8:] == ["", "not checked: auction 42 records"]
    assert summary(out)["claims disagreeing"] == 6


def test_the_installed_command(tmp_path: Path) -> None:
    records, _ = falsified()
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    done = subprocess.run(
        [str(SCRIPT), "replay", "-", "--jobs", "2"], input=data, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 1, done.stderr
    assert summary(done.stdout.decode())["claims disagreeing"] == 6
    assert done.stderr == b""  # no progress bar: standard error is not a terminal
    ok = write_ndjson(tmp_path / "games.ndjson", golden_records())
    done = subprocess.run([str(SCRIPT), "replay", str(ok)], capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_a_running_service_gives_the_same_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = falsified()
    made_faulty(records[2])
    lines: list[Any] = [*records[:10], '{"players": 3, "surplus": 1}', "{not json", *records[10:]]
    games = write_ndjson(tmp_path / "games.ndjson", lines)
    local = ("--junit", str(tmp_path / "local.xml"), "--html", str(tmp_path / "local.html"))
    status, in_process, _ = replay(capsys, str(games), "--jobs", "1", *local)
    assert status == 1
    with Gunicorn() as server:
        # Small batches, so that several are in flight at once and merged back in order.
        remote = ("--junit", str(tmp_path / "remote.xml"), "--html", str(tmp_path / "remote.html"))
        status, out, err = replay(capsys, str(games), "--url", server.base, "--batch-size", "7", *remote)
    assert status == 1, err
    assert without_rate(out) == without_rate(in_process)
    assert timeless(tmp_path / "remote.xml") == timeless(tmp_path / "local.xml")
    assert (tmp_path / "remote.html").read_bytes() == (tmp_path / "local.html").read_bytes()


def test_an_unreachable_service_stops_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:3])
    url = f"http://127.0.0.1:{free_port()}"
    status, out, err = replay(capsys, str(games), "--url", url)
    assert (status, out) == (2, "")
    assert err == f"tarot-rules: cannot reach the service at {url}: Connection refused (4 attempts)\n"


@pytest.mark.parametrize(
    ("script", "received"),
    [
        (["stop 4"], [10, 6, 2]),  # the instance stopped: the unevaluated tail is sent again
        (["cut 5"], [10, 6, 2]),  # the answer cut: its last item is not trusted, and sent again
        (["503", "503", "503"], [10, 10, 10, 10, 2]),  # three retries in a row
        # An instance that drains takes no new batch: sent again as long as it says so, more
        # times in a row than failures are (a load balancer unaware of readiness).
        (["drain 0"] * 6, [10] * 7 + [2]),
        (["drain 4", "drain 0", "drain 0", "drain 0", "drain 0"], [10, 6, 6, 6, 6, 6, 2]),
    ],
)
def test_batches_not_answered_in_full_are_sent_again(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    script: list[str],
    received: list[int],
) -> None:
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    monkeypatch.setattr(remote, "DRAINING_PAUSE", 0)
    records, _ = falsified()
    games = write_ndjson(tmp_path / "games.ndjson", [*records[:11], "{not json"])
    _, in_process, _ = replay(capsys, str(games), "--jobs", "1")
    with stub(copy.copy(script)) as server:
        status, out, err = replay(capsys, str(games), "--url", server.base, "--batch-size", "10", "--jobs", "1")
        assert status == 1, err
        assert server.received == received
    assert without_rate(out) == without_rate(in_process)


def test_an_instance_that_never_stops_draining_stops_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Draining is bounded in time on the service's side; the client bounds it too.
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    monkeypatch.setattr(remote, "DRAINING_PAUSE", 0)
    monkeypatch.setattr(remote, "DRAINING_RETRIES", 2)
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:3])
    with stub(["drain 0"] * 6) as server:
        status, out, err = replay(capsys, str(games), "--url", server.base)
        assert server.received == [3] * 6
    assert (status, out) == (2, "")
    stopped = "the instance stopped before the end of a batch"
    assert err == f"tarot-rules: cannot replay against {server.base}: {stopped} (6 attempts)\n"


def test_a_service_refusing_for_load_is_waited_for_as_long_as_the_patience_lasts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 503 with Retry-After: no failure, however many in a row, while --overload-wait lasts.
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    waits: list[float] = []
    monkeypatch.setattr(remote.Patience, "wait", _noted_wait(waits))
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:3])
    _, in_process, _ = replay(capsys, str(games), "--jobs", "1")
    with stub(["overloaded 2"] * 8) as server:
        status, out, err = replay(capsys, str(games), "--url", server.base, "--jobs", "1")
        assert server.received == [3] * 9
    assert status == 0, err
    assert without_rate(out) == without_rate(in_process)
    assert len(waits) == 8 and all(w == 2 for w in waits)
    # Past the patience, the refusals are failures as any other 503.
    with stub(["overloaded 2"] * 8) as server:
        status, _, err = replay(capsys, str(games), "--url", server.base, "--overload-wait", "5")
        assert server.received == [3] * 6  # two waited for, then four tries
    assert status == 2
    assert err == f"tarot-rules: cannot replay against {server.base}: 503 Service Unavailable (4 attempts)\n"


def _noted_wait(waits: list[float]) -> Any:
    """Patience.wait, noting each wait asked and spending it without sleeping."""

    def wait(self: Any, seconds: float, abort: Any = None) -> bool:
        if self.waited + seconds > self.budget:
            return False
        self.waited += seconds
        waits.append(seconds)
        return True

    return wait


def test_a_problem_answer_stops_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:3])
    with stub(["422"]) as server:
        status, out, err = replay(capsys, str(games), "--url", server.base)
    assert (status, out) == (2, "")
    assert err == f"tarot-rules: {server.base}: the service refused a batch: 422 Nope: Not now.\n"
    with stub(["503"] * 4) as server:
        status, _, err = replay(capsys, str(games), "--url", server.base)
    assert status == 2
    assert err == f"tarot-rules: cannot replay against {server.base}: 503 Service Unavailable (4 attempts)\n"


def test_workers_reading_spans_of_a_file_report_as_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Spans of a few hundred bytes: every edge of the cutting is met many times.
    monkeypatch.setattr(local, "SPAN_BYTES", 300)
    lines = [json.dumps(r).encode() for r in golden_records()[:12]]
    body = (
        b"\n\n"  # blank lines before the first record
        + lines[0] + b"\r\n" + lines[1] + b"\n\n  \n"  # CRLF, blank lines between records
        + b'{"id": "' + b"x" * (LINE_MAX_BYTES + 10) + b'"}\n'  # a line over the limit
        + b"not json\n"
        + b"\n".join(lines[2:]) + b"\n"
        + b"x" * (LINE_MAX_BYTES + 5) + b"\n"  # another, right before the last line
        + lines[0]  # no end of line
    )  # fmt: skip
    games = tmp_path / "games.ndjson"
    games.write_bytes(body)
    outs = []
    for jobs in ("1", "2"):
        report = tmp_path / f"report-{jobs}.xml"
        status, out, _ = replay(capsys, str(games), "--jobs", jobs, "--junit", str(report))
        assert status == 1
        outs.append((without_rate(out), timeless(report)))
    assert outs[0] == outs[1]
    assert summary(outs[0][0])["records"] == 16
    assert summary(outs[0][0])["malformed"] == 3


def test_a_malformed_record_says_how_to_fix_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The service's hint (the nearest card code) goes with the pointer and code, in the run's language.
    record = random_deal(7, 4)
    record["plays"][0] = record["plays"][0].lower()
    games = write_ndjson(tmp_path / "games.ndjson", [record])
    for language, hint in (("en", "Did you mean"), ("fr", "Vouliez-vous dire")):
        status, out, _ = tarot_rules(capsys, "--lang", language, "replay", games, "--jobs", "1")
        [line] = [line for line in out.splitlines() if "/plays/0 (unknown_card)" in line]
        assert status == 1 and f"{hint} {record['plays'][0].upper()}" in line, line


@pytest.mark.parametrize("command", ["replay", "deal"])
def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path, command: str) -> None:
    # `tarot-rules … | head -1`: the pipe closes under the command, which stops quietly, whether
    # the write that fails comes during the run (deal: well over a pipe's buffer) or at its end
    # (replay: a few lines, still in standard output's buffer; so the child buffers it, as a
    # terminal-less run does, and the pipe is closed before anything is read).
    broken = write_ndjson(tmp_path / "broken.ndjson", ["{not json"] * 3000)
    args = ["replay", str(broken), "--jobs", "1"] if command == "replay" else ["deal", "--players", "4"]
    args += [] if command == "replay" else ["--seed", "3", "--count", "300"]
    root = Path(__file__).resolve().parent.parent
    program = [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())", *args]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with subprocess.Popen(program, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        if command == "deal":
            process.stdout.readline()
        process.stdout.close()
        error = process.stderr.read().decode()
        status = process.wait(timeout=120)
    assert "Traceback" not in error and "BrokenPipeError" not in error, error
    assert status == 1


def test_a_claimed_first_fault_s_trick_is_said_from_1_as_the_message_beside_it() -> None:
    from service.cli import words
    from service.cli.outcome import shown

    before = words.language()
    words.use("en")
    try:
        assert shown(3, "/claims/first_violation/trick") == "4"
        assert shown(None, "/claims/first_violation/trick") == "none"
        assert shown(3, "/claims/partner") == "3"  # a seat stays as it is
    finally:
        words.use(before)
