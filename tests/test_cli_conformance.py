"""``tarot-rules conformance``: the kit runner, against this service and against implementations made wrong.

Each test writes a small kit of its own under ``tmp_path``, whose expectations are this
service's own answers (asked of the Flask test client), and runs the command in process.
The implementation under test is the worked adapter (``conformance/adapters/flask_app.py``),
a real gunicorn (``--url``), or a fake harness that forwards to the app and then errs on
purpose: drops the Excuse, dies, breaks the protocol.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app
from service.cli.casefiles import json_equal, resolve, same_elements
from service.cli.outcome import MISSING

from .commandline import count, stub, summary, tarot_rules
from .conftest import deal_request, golden
from .serving import Gunicorn, free_port

ROOT = Path(__file__).parent.parent
ADAPTER = ROOT / "conformance" / "adapters" / "flask_app.py"
REAL_CASES = ROOT / "conformance" / "v1" / "cases"

LEGAL = "/v1/tricks/legal-cards"
WINNER = "/v1/tricks/winner"
SCORE = "/v1/deals/score"
EVALUATE = "/v1/deals/evaluate"


def command(*words: str | Path) -> str:
    return shlex.join([sys.executable, *map(str, words)])


FLASK_ADAPTER = command(ADAPTER)


# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


# The fake implementation: the app in process, made wrong as its argument says.
FAKE = """
import json, sys, time
sys.path.insert(0, {root!r})
from service.app import create_app

mode, _, n = sys.argv[1].partition("=")
protocol, sys.stdout = sys.stdout, sys.stderr
client = create_app({{"TESTING": True}}).test_client()
for line in sys.stdin:
    message = json.loads(line)
    seq = message["seq"]
    if mode == "die-after" and seq > int(n):
        sys.exit(3)
    if mode == "log":
        with open(n, "a") as log:
            log.write(message["operation"] + "\\n")
    if mode == "slow" and seq == 1:
        time.sleep(float(n))
    response = client.post(message["operation"], json=message["request"])
    answer = response.get_json()
    if mode == "drop-excuse" and answer.get("reason") == "follow":
        answer["legal"] = [card for card in answer["legal"] if card != "EX"]
    if mode == "flip-validity" and "tricks" in answer:
        answer["valid"] = not answer["valid"]
    if mode == "odd-evaluation" and "tricks" in answer:
        answer.update(score=5, ruling=[], tricks=[{{"leader": 0, "cards": ["KS"]}}])
    reply = {{"seq": seq + (mode == "wrong-seq" and seq == int(n)), "answer": answer}}
    if response.status_code != 200:
        reply = {{"seq": seq, "refused": {{"status": response.status_code, "errors": answer["errors"]}}}}
    if mode == "error" and seq == int(n):
        reply = {{"seq": seq, "error": "not implemented yet"}}
    if mode == "skip" and message["operation"] != "/v1/tricks/legal-cards":
        reply = {{"seq": seq, "skipped": True, **({{"message": n}} if n else {{}})}}
    if mode == "refuse-all":
        reply = {{"seq": seq, "refused": {{"status": 422, "errors": [{{"pointer": "/players", "message": "No."}}]}}}}
    if mode == "answer-all":
        reply = {{"seq": seq, "answer": answer}}
    if mode == "refuse-at-root" and "refused" in reply:
        reply["refused"]["errors"] = [{{"pointer": ""}}]
    if mode == "refuse-500" and "refused" in reply:
        reply["refused"]["status"] = 500
    if mode == "refuse-without-status" and "refused" in reply:
        reply["refused"] = {{"errors": [{{"pointer": e["pointer"]}} for e in reply["refused"]["errors"]]}}
    if mode == "odd-refusal" and "refused" in reply:
        reply["refused"] = {{"status": "422", "errors": "/hand"}}
    text = "Ready." if mode == "garbage" and seq == int(n) else json.dumps(reply)
    protocol.write(text + "\\n")
    protocol.flush()
"""


@pytest.fixture
def fake(tmp_path: Path) -> Any:
    script = tmp_path / "fake_harness.py"
    script.write_text(FAKE.format(root=str(ROOT)))
    return lambda mode: command(script, mode)


# The kit of these tests: (file, tags, operation, request, pointers checked). Legal cards are unordered.
SPECS: list[tuple[str, list[str], str, dict[str, Any], list[str]]] = [
    (
        "legal-cards/follow-suit",
        ["four-players", "follow-suit", "excuse"],
        LEGAL,
        {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]},
        ["/legal", "/reason"],
    ),
    (
        "legal-cards/follow-suit",
        ["four-players", "follow-suit"],
        LEGAL,
        {"players": 4, "hand": ["KS", "2S", "5T"], "trick": ["QS"]},
        ["/legal", "/reason"],
    ),
    (
        "legal-cards/follow-suit",
        ["three-players", "follow-suit", "excuse"],
        LEGAL,
        {"players": 3, "hand": ["2H", "9H", "EX", "3T"], "trick": ["KH", "5T"]},
        ["/legal", "/reason"],
    ),
    (
        "legal-cards/trumps",
        ["four-players", "overtrump", "excuse"],
        LEGAL,
        {"players": 4, "hand": ["KS", "5T", "12T", "EX"], "trick": ["QH", "9T"]},
        ["/legal", "/reason"],
    ),
    (
        "legal-cards/trumps",
        ["three-players", "trump"],
        LEGAL,
        {"players": 3, "hand": ["KS", "5T", "12T"], "trick": ["QH"]},
        ["/legal", "/reason"],
    ),
    (
        "winner/tricks",
        ["four-players", "trick-winner", "trump"],
        WINNER,
        {"players": 4, "leader": 2, "cards": ["QS", "EX", "1T", "KS"]},
        ["/winner", "/winner_index", "/trumped"],
    ),
    (
        "winner/tricks",
        ["four-players", "trick-winner", "excuse"],
        WINNER,
        {"players": 4, "leader": 1, "cards": ["EX", "7D", "KD", "2T"]},
        ["/winner", "/led_suit", "/trumped"],
    ),
    (
        "winner/tricks",
        ["three-players", "trick-winner", "in-progress"],
        WINNER,
        {"players": 3, "leader": 1, "cards": ["EX", "2H"]},
        ["/winner", "/led_suit", "/complete"],
    ),
    (
        "score/marks",
        ["four-players", "scoring"],
        SCORE,
        {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2},
        ["/won", "/threshold", "/scores", "/per_defender"],
    ),
    (
        "score/marks",
        ["five-players", "scoring", "half-point"],
        SCORE,
        {"players": 5, "contract": "garde_sans", "taker": 2, "partner": 4, "points": 44.5, "oudlers": 2},
        ["/won", "/margin", "/scores"],
    ),
    (
        "evaluate/golden",
        ["three-players", "golden", "chelem"],
        EVALUATE,
        deal_request(golden("deals.jsonl")[0]),
        ["/valid", "/status", "/points/attack", "/chelem", "/score/scores", "/tricks/23/winner"],
    ),
    (
        "evaluate/golden",
        ["three-players", "golden", "petit-au-bout"],
        EVALUATE,
        deal_request(golden("deals.jsonl")[3]),
        ["/valid", "/petit_au_bout", "/oudlers", "/excuse/outcome", "/score/scores"],
    ),
]


def at(document: Any, pointer: str) -> Any:
    for key in pointer.split("/")[1:]:
        document = document[int(key) if isinstance(document, list) else key]
    return document


@cache
def kit_files() -> dict[str, dict[str, Any]]:
    """The test kit's case files by path under ``cases/``, their expectations the app's answers."""
    client = create_app({"TESTING": True}).test_client()
    files: dict[str, dict[str, Any]] = {}
    for topic, tags, operation, request, pointers in SPECS:
        response = client.post(operation, json=request)
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        cases = files.setdefault(f"{topic}.json", {"description": f"The {topic} cases.", "cases": []})["cases"]
        case = {
            "id": f"{topic}/{len(cases) + 1:03d}",
            "description": f"A {topic} case.",
            "rules": ["6.1"],
            "tags": tags,
            "operation": operation,
            "request": request,
            "expect": {pointer: at(answer, pointer) for pointer in pointers},
        }
        if operation == LEGAL:
            case["unordered"] = ["/legal"]
        cases.append(case)
    return files


def write_kit(directory: Path, files: dict[str, Any]) -> Path:
    for name, content in files.items():
        path = directory / "cases" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
    return directory


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    return write_kit(tmp_path / "kit", kit_files())


def all_cases() -> list[dict[str, Any]]:
    return [case for name in sorted(kit_files()) for case in kit_files()[name]["cases"]]


def conformance(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    return tarot_rules(capsys, "conformance", *args)


def by_operation(out: str) -> dict[str, list[int]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("operation "))
    rows = {}
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        operation, *counts = (part for part in line.split(" ") if part)
        rows[operation] = [count(c) for c in counts]
    return rows


def junit_cases(path: Path) -> dict[str, ET.Element]:
    return {case.get("name", ""): case for case in ET.parse(path).getroot().iter("testcase")}


def test_the_kit_passes_through_the_flask_adapter(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER)
    assert status == 0, out + err
    assert summary(out) == {"cases": 12, "passed": 12, "failed": 0, "skipped": 0}
    assert by_operation(out) == {
        LEGAL: [5, 5, 0, 0],
        WINNER: [3, 3, 0, 0],
        SCORE: [2, 2, 0, 0],
        EVALUATE: [2, 2, 0, 0],
    }
    assert "Failures" not in out


def test_the_kit_passes_through_a_running_service(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Gunicorn() as server:
        status, out, err = conformance(capsys, "--kit", kit, "--url", server.base + "/", "--quiet")
    assert status == 0, out + err
    assert summary(out) == {"cases": 12, "passed": 12, "failed": 0, "skipped": 0}


def test_a_service_that_cannot_be_reached(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = conformance(capsys, "--kit", kit, "--url", f"http://127.0.0.1:{free_port()}")
    assert status == 2
    assert "cannot reach the service at http://127.0.0.1:" in err
    assert out == ""


def test_an_implementation_that_forbids_the_excuse_fails_where_it_was_legal(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "junit.xml"
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", fake("drop-excuse"), "--junit", junit)
    assert status == 1
    excuse_legal = {
        c["id"] for c in all_cases() if c["expect"].get("/reason") == "follow" and "EX" in c["expect"]["/legal"]
    }
    assert excuse_legal == {"legal-cards/follow-suit/001", "legal-cards/follow-suit/003"}
    assert summary(out) == {"cases": 12, "passed": 10, "failed": 2, "skipped": 0}
    assert by_operation(out)[LEGAL] == [5, 3, 2, 0]

    cases = junit_cases(junit)
    assert set(cases) == {c["id"] for c in all_cases()}
    failed = {name for name, case in cases.items() if case.find("failure") is not None}
    assert failed == excuse_legal
    failure = cases["legal-cards/follow-suit/001"].find("failure")
    assert failure is not None
    assert failure.get("type") == "mismatch"
    assert failure.get("message") == '/legal: expected in any order ["1S", "KS", "EX"], got ["1S", "KS"]'
    assert cases["legal-cards/follow-suit/001"].get("classname") == "tarot_rules.conformance.legal_cards.follow_suit"
    root = ET.parse(junit).getroot()
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert set(suites) == {f"cases/{name}" for name in kit_files()}
    assert suites["cases/legal-cards/follow-suit.json"].get("failures") == "2"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("12", "2", "0")

    # The terminal lists each failure with its file, description and differing pointers.
    assert "legal-cards/follow-suit/001 (cases/legal-cards/follow-suit.json): A legal-cards/follow-suit case." in out
    assert '    /legal: expected in any order ["2H", "9H", "EX"], got ["2H", "9H"]' in out


def test_the_markdown_report(kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.md"
    status, _, _ = conformance(
        capsys, "--kit", kit, "--harness", fake("drop-excuse"), "--report", report, "--skip-tag", "golden=slow"
    )
    assert status == 1
    text = report.read_text()
    assert text.startswith("# Conformance kit: failed\n\n12 cases: 8 passed, 2 failed, 2 skipped.\n")
    lines = text.splitlines()
    for heading in ("## By operation", "## By tag", "## Skipped", "## Failures"):
        assert heading in lines
    for row in (
        "| Operation | Cases | Passed | Failed | Skipped |",
        "|---|---:|---:|---:|---:|",
        "| `/v1/tricks/legal-cards` | 5 | 3 | 2 | 0 |",
        "| `/v1/deals/evaluate` | 2 | 0 | 0 | 2 |",
        "| **total** | 12 | 8 | 2 | 2 |",
        "| `excuse` | 4 | 2 | 2 | 0 |",
        "| `golden` | 2 | 0 | 0 | 2 |",
        "| `golden` | 2 | slow |",
        "| Case | File | First difference | Faults in the answer |",
        "| `legal-cards/follow-suit/001` | `cases/legal-cards/follow-suit.json` "
        '| `/legal: expected in any order ["1S", "KS", "EX"], got ["1S", "KS"]` |  |',
    ):
        assert row in lines, row
    # Operations in the API's order, tags in alphabetical order.
    operations = [line.split("`")[1] for line in lines if line.startswith("| `/v1/")]
    assert operations == [LEGAL, WINNER, SCORE, EVALUATE]


def test_tags_select_and_skip(kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, report = tmp_path / "junit.xml", tmp_path / "report.md"
    status, out, err = conformance(
        capsys,
        "--kit", kit, "--harness", FLASK_ADAPTER, "--junit", junit, "--report", report,
        "--tag", "excuse", "--skip-tag", "three-players=no three-player table here", "--skip-tag", "overtrump",
    )  # fmt: skip
    assert status == 0, out + err
    # The Excuse's cases: three at four players (one of them overtrumping), one at three.
    assert summary(out) == {"cases": 4, "passed": 2, "failed": 0, "skipped": 2}
    assert "  three-players (1): no three-player table here" in out
    assert "  overtrump (1): skipped with --skip-tag overtrump" in out
    cases = junit_cases(junit)
    assert set(cases) == {c["id"] for c in all_cases() if "excuse" in c["tags"]}
    skipped = {name: case.find("skipped") for name, case in cases.items()}
    assert {name: element.get("message") for name, element in skipped.items() if element is not None} == {
        "legal-cards/follow-suit/003": "no three-player table here",
        "legal-cards/trumps/001": "skipped with --skip-tag overtrump",
    }
    lines = report.read_text().splitlines()
    assert "| `three-players` | 1 | no three-player table here |" in lines
    assert "| `excuse` | 4 | 2 | 0 | 2 |" in lines

    # --quiet: the summary only.
    status, quiet, _ = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--tag", "excuse", "--quiet",
                                   "--skip-tag", "three-players")  # fmt: skip
    assert status == 0
    assert "Skipped" not in quiet and summary(quiet)["skipped"] == 1

    # A tag no case has is a typo: nothing runs, and a run that checks nothing fails.
    status, _, err = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--tag", "exucse")
    assert status == 1
    assert "no case of the kit has the tag 'exucse'" in err


def test_operations_and_case_ids_select(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "operations.log"
    status, out, err = conformance(capsys, "--kit", kit, "--harness", fake(f"log={log}"), "--operation", "legal-cards")
    assert status == 0, out + err
    assert summary(out) == {"cases": 5, "passed": 5, "failed": 0, "skipped": 0}
    assert log.read_text().splitlines() == [LEGAL] * 5  # only legal-card cases are sent

    # Repeated: any of them; with --tag and --case, every filter applies.
    status, out, _ = conformance(
        capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--operation", "winner", "--operation", "score", "--quiet"
    )
    assert (status, summary(out)["cases"]) == (0, 5)
    status, out, _ = conformance(
        capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--operation", "legal-cards", "--tag", "excuse", "--quiet"
    )
    assert (status, summary(out)["cases"]) == (0, 3)
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--quiet",
                                 "--case", "legal-cards/trumps/*", "--case", "score/marks/002")  # fmt: skip
    assert (status, summary(out)["cases"]) == (0, 3)
    assert set(by_operation(out)) == {LEGAL, SCORE}

    # An operation the kit does not have is a usage error naming those it has.
    status, out, err = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--operation", "tricks")
    assert (status, out) == (2, "")
    choices = "(choose from 'legal-cards', 'winner', 'deal', 'score',"
    assert f"argument --operation: invalid choice: 'tricks' {choices}" in err
    # A glob no id matches is a typo, as an unknown tag is: it checks nothing, and the run fails.
    status, out, err = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--case", "evaluate/rulings/*")
    assert status == 1 and summary(out)["cases"] == 0
    assert "no case of the kit has an id matching 'evaluate/rulings/*'" in err


def test_a_run_that_checks_nothing_fails(kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, report = tmp_path / "junit.xml", tmp_path / "report.md"
    skip_every_size = ("--skip-tag", "three-players", "--skip-tag", "four-players", "--skip-tag", "five-players")
    status, out, err = conformance(
        capsys, "--kit", kit, "--harness", FLASK_ADAPTER, *skip_every_size, "--junit", junit, "--report", report
    )
    said = "no case was checked (all 12 cases selected were skipped): a run that checks nothing fails"
    assert status == 1
    assert summary(out) == {"cases": 12, "passed": 0, "failed": 0, "skipped": 12}
    assert err == f"tarot-rules: {said}\n"
    cases = junit_cases(junit)
    failure = cases["nothing-checked"].find("failure")
    assert failure is not None and failure.get("message") == said and failure.get("type") == "nothing-checked"
    assert ET.parse(junit).getroot().get("failures") == "1"
    text = report.read_text()
    assert text.startswith("# Conformance kit: failed\n\n12 cases: 0 passed, 0 failed, 12 skipped.\n")
    assert "\n**No case was checked: all 12 cases selected were skipped.**\n" in text

    # Filters that select nothing together: the same failure, and the implementation is never asked.
    status, out, err = conformance(
        capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--operation", "winner", "--tag", "golden", "--junit", junit
    )
    assert status == 1
    assert summary(out) == {"cases": 0, "passed": 0, "failed": 0, "skipped": 0}
    assert "no case was checked (no case of the kit is selected by the --operation, --case and --tag given" in err
    assert set(junit_cases(junit)) == {"nothing-checked"}


NOTHING = "a run that checks nothing fails"


@pytest.mark.parametrize(
    ("filters", "said"),
    [
        (
            ["--case", "evaluate/rulings/*"],
            "no case was checked (no case of the kit has an id matching 'evaluate/rulings/*')",
        ),
        (["--tag", "exucse"], "no case was checked (no case of the kit has the tag 'exucse')"),
        (
            ["--tag", "exucse", "--case", "nowhere/*"],
            "no case was checked (no case of the kit has the tag 'exucse'; no case of the kit has an id matching "
            "'nowhere/*')",
        ),
        (["--operation", "winner", "--tag", "golden"], "no case was checked (no case of the kit is selected by the"),
        (
            ["--skip-tag", "three-players", "--skip-tag", "four-players", "--skip-tag", "five-players"],
            "no case was checked (all 12 cases selected were skipped)",
        ),
        # Beside a glob that matches, one that matches nothing still checks nothing: a typo that
        # would quietly narrow the run.
        (
            ["--case", "score/*", "--case", "evaluate/rulings/*"],
            "a filter given checked nothing (no case of the kit has an id matching 'evaluate/rulings/*')",
        ),
    ],
)
def test_every_way_of_checking_nothing_fails_the_run_with_1_in_every_report(
    kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], filters: list[str], said: str
) -> None:
    junit, report = tmp_path / "junit.xml", tmp_path / "report.md"
    status, out, err = conformance(
        capsys, "--kit", kit, "--harness", FLASK_ADAPTER, *filters, "--junit", junit, "--report", report
    )
    assert status == 1, out + err
    [line] = [line for line in err.splitlines() if NOTHING in line]
    assert line.startswith(f"tarot-rules: {said}") and line.endswith(f": {NOTHING}")
    failure = junit_cases(junit)["nothing-checked"].find("failure")
    assert failure is not None and failure.get("message") == line.removeprefix("tarot-rules: ")
    text = report.read_text()
    assert text.startswith("# Conformance kit: failed\n")
    assert re.search(r"^\*\*(No case was checked|A filter given checked nothing): .*\.\*\*$", text, re.MULTILINE)


def test_the_docs_say_a_run_that_checks_nothing_exits_1() -> None:
    # The kit's README and docs/ci.md say what the command does: 1, never 2, for nothing checked.
    readme = " ".join((ROOT / "conformance" / "README.md").read_text(encoding="utf-8").split())
    ci = " ".join((ROOT / "docs" / "ci.md").read_text(encoding="utf-8").split())
    for flag in ("--case 'evaluate/rulings/*'", "--tag five-players"):
        bullet = readme[readme.index(f"- `{flag}`") :].split("; - ")[0]
        assert "checks nothing: the run fails (exit 1)" in bullet, bullet
    assert "1 when one failed **or when no case was checked**" in readme
    assert "a `--tag` or `--case` that selects no case checks nothing" in readme
    said = "A run that checks no case (none selected, a `--tag` or `--case` that selects none, or every one skipped)"
    assert f"{said} exits 1" in ci


def test_the_timeout(kit: Path, fake: Any, capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("0", "-1", "nan", "inf", "soon"):
        status, out, err = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--timeout", value)
        assert (status, out) == (2, "")
        assert f"argument --timeout: not a positive number of seconds: {value}" in err
    status, out, err = conformance(capsys, "--kit", kit, "--harness", fake("slow=3"), "--timeout", "0.5")
    assert status == 1
    assert summary(out) == {"cases": 12, "passed": 0, "failed": 12, "skipped": 0}
    assert "tarot-rules: the harness did not answer request 1 within 0.5 s; the remaining cases fail" in err
    status, out, _ = conformance(capsys, "--help")
    assert status == 0 and "--timeout SECONDS" in out and "(--harness); default 30" in " ".join(out.split())


def test_a_harness_may_skip_cases(kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]) -> None:
    junit, report = tmp_path / "junit.xml", tmp_path / "report.md"
    reason = "this engine knows only which cards are legal"
    status, out, err = conformance(
        capsys, "--kit", kit, "--harness", fake(f"skip={reason}"), "--junit", junit, "--report", report,
        "--skip-tag", "golden=slow",
    )  # fmt: skip
    assert status == 0, out + err
    assert summary(out) == {"cases": 12, "passed": 5, "failed": 0, "skipped": 7}
    assert by_operation(out)[WINNER] == [3, 0, 0, 3]
    # Grouped by reason, as the skips of --skip-tag are.
    assert f"  the implementation (5): {reason}" in out.splitlines()
    assert "  golden (2): slow" in out.splitlines()
    skipped = {name: case.find("skipped") for name, case in junit_cases(junit).items()}
    messages = {element.get("message") for element in skipped.values() if element is not None}
    assert messages == {reason, "slow"}
    assert sum(element is not None for element in skipped.values()) == 7
    lines = report.read_text().splitlines()
    assert f"| *the implementation* | 5 | {reason} |" in lines
    assert "| **total** | 12 | 5 | 0 | 7 |" in lines

    # Without a reason; and skipping every case is checking nothing.
    status, out, err = conformance(capsys, "--kit", kit, "--harness", fake("skip"), "--operation", "winner")
    assert status == 1
    assert "  the implementation (3): skipped by the implementation, without a reason" in out.splitlines()
    assert "no case was checked (all 3 cases selected were skipped)" in err


# Requests the app refuses, each with the pointers a refusal must locate (at them or within them).
REFUSALS: list[tuple[str, dict[str, Any], list[str]]] = [
    (LEGAL, {"players": 4, "hand": ["KS", "1S", "KS", "EX"], "trick": ["QS"]}, ["/hand"]),
    (LEGAL, {"players": 4, "hand": ["KS", "22T"], "trick": ["QS"]}, ["/hand/1"]),
    (WINNER, {"players": 4, "leader": 4, "cards": ["QS"]}, ["/leader"]),
    (SCORE, {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2, "partner": 1}, ["/partner"]),
]


def refusal_kit(directory: Path) -> Path:
    """Four refusal cases, and one case answered (legal cards, as in the kit above)."""
    client = create_app({"TESTING": True}).test_client()
    cases = []
    for i, (operation, request, pointers) in enumerate(REFUSALS, 1):
        status = client.post(operation, json=request).status_code
        assert status == 422
        cases.append({
            "id": f"score/refusals/{i:03d}", "description": "A request refused.", "rules": ["1.5"],
            "tags": ["four-players", "refusal"], "operation": operation, "request": request,
            "expect_problem": {"status": status, "pointers": pointers},
        })  # fmt: skip
    answered = copy.deepcopy(kit_files()["legal-cards/follow-suit.json"]["cases"][0])
    cases.append({**answered, "id": "score/refusals/005"})
    return write_kit(directory, {"score/refusals.json": {"description": "Refusals.", "cases": cases}})


def failure_lines(junit: Path) -> dict[str, list[str]]:
    """Each failed case's failure: its message, then its text less the description."""
    found = {}
    for name, case in junit_cases(junit).items():
        failure = case.find("failure")
        if failure is not None:
            found[name] = [failure.get("message") or "", *(failure.text or "").splitlines()[1:]]
    return found


def test_refusals_pass_when_refused_where_expected(
    tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = refusal_kit(tmp_path / "kit")
    for harness in (FLASK_ADAPTER, fake("refuse-without-status")):
        status, out, err = conformance(capsys, "--kit", kit, "--harness", harness)
        assert status == 0, out + err
        assert summary(out) == {"cases": 5, "passed": 5, "failed": 0, "skipped": 0}
    with Gunicorn() as server:
        status, out, err = conformance(capsys, "--kit", kit, "--url", server.base, "--quiet")
    assert status == 0, out + err
    assert summary(out)["passed"] == 5
    # Engines that do not validate their input skip them by their tag.
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--skip-tag", "refusal", "--quiet")
    assert (status, summary(out)["skipped"]) == (0, 4)


@pytest.mark.parametrize(
    ("mode", "failures"),
    [
        (
            "refuse-at-root",
            {
                f"score/refusals/00{i}": [f"/errors: expected {json.dumps(pointers)}, got [\"\"]: no fault located at "
                                          f"(or within) {pointers[0]}"] * 2
                for i, (_, _, pointers) in enumerate(REFUSALS, 1)
            },
        ),
        (
            "refuse-500",
            {
                f"score/refusals/00{i}": ["/status: expected 422, got 500: not a refusal (4xx)"] * 2
                for i in range(1, 5)
            },
        ),
        (
            # Answered, whatever the answer: said as such, beside the refusal and the faults it should locate.
            "answer-all",
            {
                f"score/refusals/00{i}": ["answered (gave a verdict) where the kit expects a refusal (a 4xx) "
                                          f"locating {', '.join(pointers)}"] * 2
                for i, (_, _, pointers) in enumerate(REFUSALS, 1)
            },
        ),
        (
            "refuse-all",
            {
                **{
                    f"score/refusals/00{i}": [f'/errors: expected {json.dumps(pointers)}, got ["/players"]: no fault '
                                              f"located at (or within) {pointers[0]}"] * 2
                    for i, (_, _, pointers) in enumerate(REFUSALS, 1)
                },
                "score/refusals/005": ["refused where the kit expects an answer: status 422; /players: No."] * 2,
            },
        ),
        (
            "odd-refusal",
            {
                f"score/refusals/00{i}": [f'the harness refused request {i} with {{"status": "422", "errors": '
                                          '"/hand"}: a refusal is an object with an optional status (an integer) and '
                                          "an optional list of errors, each an object with a pointer (a string)"] * 2
                for i in range(1, 5)
            },
        ),
    ],
)  # fmt: skip
def test_refusals_that_are_not_what_the_case_expects(
    tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str], mode: str, failures: dict[str, list[str]]
) -> None:
    kit, junit = refusal_kit(tmp_path / "kit"), tmp_path / "junit.xml"
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", fake(mode), "--junit", junit)
    assert status == 1
    assert summary(out)["failed"] == len(failures)
    assert failure_lines(junit) == failures


def comparison_kit(directory: Path) -> Path:
    """Cases that probe the comparison: pointers that do not resolve, order, numbers, booleans."""
    score = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
    legal = {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]}
    winner = {"players": 4, "leader": 2, "cards": ["QS", "EX", "1T", "KS"]}
    whole = create_app({"TESTING": True}).test_client().post(WINNER, json=winner).get_json()
    base = {"description": "A comparison case.", "rules": ["6.1"], "tags": ["four-players"]}
    expects: list[tuple[str, dict[str, Any], dict[str, Any], list[str]]] = [
        (LEGAL, legal, {"/legal": ["EX", "1S", "KS"]}, ["/legal"]),  # 1 passes: any order
        (LEGAL, legal, {"/legal": ["EX", "1S", "KS"]}, []),  # 2 fails: in order
        (LEGAL, legal, {"/legal": ["EX", "1S", "KS", "KS"]}, ["/legal"]),  # 3 fails: a multiset
        (LEGAL, legal, {"/reason": "follow", "/legal/3": "EX", "/legal/-": "EX"}, []),  # 4 fails on /legal/3 and /-
        (SCORE, score, {"/threshold": 41, "/margin": 8.0, "/scores/0": 198.0}, []),  # 5 passes: numbers by value
        (SCORE, score, {"/won": 1, "/margin": True}, []),  # 6 fails twice: a boolean is no number
        (SCORE, score, {"/nothing/here": 1, "/won": True}, []),  # 7 fails: does not resolve
        (SCORE, score, {"/won/0": True, "/reason": None}, []),  # 8 fails: into a scalar, a missing key
        (WINNER, winner, {"": whole}, []),  # 9 passes: the whole answer
        (LEGAL, legal, {"/reason": ["follow"]}, ["/reason"]),  # 10 fails: not an array
    ]
    cases = [
        {**base, "id": f"score/compare/{i:03d}", "operation": op, "request": request, "expect": expect}
        | ({"unordered": unordered} if unordered else {})
        for i, (op, request, expect, unordered) in enumerate(expects, 1)
    ]
    return write_kit(directory, {"compare.json": {"description": "Comparison.", "cases": cases}})


def test_the_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "junit.xml"
    kit = comparison_kit(tmp_path / "kit")
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", FLASK_ADAPTER, "--junit", junit)
    assert status == 1
    assert summary(out) == {"cases": 10, "passed": 3, "failed": 7, "skipped": 0}
    failures = {
        name: (case.findtext("failure") or "").splitlines()[1:]
        for name, case in junit_cases(junit).items()
        if case.find("failure") is not None
    }
    nothing = "got nothing (the pointer does not resolve in the answer)"
    assert failures == {
        "score/compare/002": ['/legal: expected ["EX", "1S", "KS"], got ["1S", "KS", "EX"]'],
        "score/compare/003": ['/legal: expected in any order ["EX", "1S", "KS", "KS"], got ["1S", "KS", "EX"]'],
        "score/compare/004": [f'/legal/3: expected "EX", {nothing}', f'/legal/-: expected "EX", {nothing}'],
        "score/compare/006": ["/won: expected 1, got true", "/margin: expected true, got 8"],
        "score/compare/007": [f"/nothing/here: expected 1, {nothing}"],
        "score/compare/008": [f"/won/0: expected true, {nothing}", f"/reason: expected null, {nothing}"],
        "score/compare/010": ['/reason: expected ["follow"], got "follow": not an array to compare in any order'],
    }


def test_pointers_and_equality() -> None:
    document = {"a/b": {"m~n": [10, {"": 3}]}, "list": [0, 1], "~1": "tilde one"}
    assert resolve(document, "/a~1b/m~0n/1/") == 3
    assert resolve(document, "/~01") == "tilde one"
    assert resolve(document, "") is document
    for pointer in ("/a/b", "/list/01", "/list/2", "/list/-", "/list/0/x", "/missing"):
        assert resolve(document, pointer) is MISSING, pointer
    assert json_equal({"a": [40, 1.5]}, {"a": [40.0, 1.5]})
    assert not json_equal(True, 1) and not json_equal(0, False) and not json_equal(None, 0)
    assert not json_equal({"a": 1}, {"a": 1, "b": None}) and not json_equal("1", 1)
    assert same_elements([1, 2, 2], [2, 1.0, 2]) and not same_elements([1, 2, 2], [1, 1, 2])
    assert not same_elements([True], [1])


GOOD_CASE = {
    "id": "score/broken/001",
    "description": "A case.",
    "rules": ["9"],
    "tags": [],
    "operation": SCORE,
    "request": {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2},
    "expect": {"/won": True},
}


def broken(**changes: Any) -> dict[str, Any]:
    case = copy.deepcopy(GOOD_CASE) | {"id": "score/broken/002"}
    for name, value in changes.items():
        if value is None:
            del case[name]
        else:
            case[name] = value
    return {"description": "Broken.", "cases": [GOOD_CASE, case]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"description": "x", "cases": [', "score/broken.json: not a JSON file"),
        ([GOOD_CASE], "score/broken.json: not a case file"),
        (broken(expect=None), "score/broken.json: case 2 (score/broken/002): the field 'expect' is missing"),
        (broken(id=None), "score/broken.json: case 2: the field 'id' is missing"),
        (broken(rules=[]), "score/broken.json: case 2 (score/broken/002): the field 'rules' is missing or not"),
        (broken(operation="v1/deals/score"), "case 2 (score/broken/002): the field 'operation' is missing or not"),
        (broken(expect={"won": True}), "case 2 (score/broken/002): 'won' in 'expect' is not a JSON pointer"),
        (broken(unordered=["/scores"]), "the unordered pointer '/scores' is not one of those in 'expect'"),
        (broken(id="score/broken/001"), "case 2: the id 'score/broken/001' is already that of a case in"),
        (broken(expect_problem={"status": 422, "pointers": ["/points"]}), "'expect_problem' goes without 'expect'"),
        (
            broken(expect=None, expect_problem={"status": 200, "pointers": ["/points"]}),
            "the field 'expect_problem' is missing or not an object with a 4xx status and a non-empty list",
        ),
        (
            broken(expect=None, expect_problem={"status": 422, "pointers": ["points"]}),
            "'points' in 'expect_problem' is not a JSON pointer",
        ),
    ],
)
def test_a_broken_case_file_stops_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, message: str
) -> None:
    kit = write_kit(tmp_path / "kit", {"score/good.json": {"description": "Good.", "cases": []}})
    write_kit(kit, {"score/broken.json": content})
    status, out, err = conformance(capsys, "--kit", kit, "--harness", "exit 0")
    assert status == 2
    assert message in err
    assert str(kit / "cases" / "score" / "broken.json") in err
    assert out == ""


def test_a_kit_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = conformance(capsys, "--kit", tmp_path / "nowhere", "--harness", "exit 0")
    assert (status, "no conformance kit there" in err) == (2, True)
    (tmp_path / "empty" / "cases").mkdir(parents=True)
    status, _, err = conformance(capsys, "--kit", tmp_path / "empty", "--harness", "exit 0")
    assert (status, "no case files" in err) == (2, True)


def test_a_harness_that_dies_fails_the_remaining_cases(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "junit.xml"
    status, out, err = conformance(capsys, "--kit", kit, "--harness", fake("die-after=3"), "--junit", junit)
    assert status == 1
    assert summary(out) == {"cases": 12, "passed": 3, "failed": 9, "skipped": 0}
    died = "the harness ended before answering request 4: exit status 3"
    assert f"tarot-rules: {died}; the remaining cases fail" in err
    messages = [case.find("failure") for case in junit_cases(junit).values()]
    texts = [None if m is None else m.get("message") for m in messages]
    assert texts == [None] * 3 + [died] + [f"not run: {died}"] * 8
    # On the terminal, the cases not run are one line.
    assert out.endswith(f"    {died}\n… and 8 cases not run: {died}\n")


@pytest.mark.parametrize(
    ("mode", "message", "passed"),
    [
        ("wrong-seq=2", "the harness answered with seq 3 where 2 was expected", 1),
        ("garbage=5", "the harness answered request 5 with a line that is not JSON: 'Ready.'", 4),
        ("error=12", "the implementation could not answer: not implemented yet", 11),
    ],
)
def test_a_harness_that_breaks_the_protocol(
    kit: Path, fake: Any, capsys: pytest.CaptureFixture[str], mode: str, message: str, passed: int
) -> None:
    status, out, _ = conformance(capsys, "--kit", kit, "--harness", fake(mode))
    assert status == 1
    assert summary(out) == {"cases": 12, "passed": passed, "failed": 12 - passed, "skipped": 0}
    assert f"    {message}" in out


def test_a_harness_that_cannot_start(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = conformance(capsys, "--kit", kit, "--harness", "exit 7")
    assert status == 2
    assert "the harness (exit 7) ended before its first answer: exit status 7" in err
    assert out == ""


def test_the_whole_kit_passes_through_the_flask_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    cases = sum(len(json.loads(path.read_text(encoding="utf-8"))["cases"]) for path in REAL_CASES.rglob("*.json"))
    status, out, err = conformance(capsys, "--harness", FLASK_ADAPTER)  # the default kit: the repository's
    assert status == 0, out + err
    assert cases > 1000 and summary(out) == {"cases": cases, "passed": cases, "failed": 0, "skipped": 0}


def test_the_html_page_draws_each_failed_case(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "conformance.html"
    status, _, _ = conformance(capsys, "--kit", kit, "--harness", fake("flip-validity"), "--html", page)
    assert status == 1
    html = page.read_text(encoding="utf-8")
    failed = {c["id"] for c in all_cases() if c["operation"] == EVALUATE}
    assert set(re.findall(r'<h2 id="deal-\d+">([^<]*?)(?: <small>|</h2>)', html)) == failed
    assert html.count('<table class="tricks">') == len(failed)  # each evaluation drawn trick by trick
    assert "<td>/valid</td>" in html and "Answered" in html and "Expected" in html
    assert not re.search(r"<script|<link|<img|src=|href=|url\(", html, re.IGNORECASE)


def test_an_answer_of_the_wrong_shape_is_reported_not_a_crash(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Answers under test are not trusted: a score that is not an object, a trick with no winner.
    page, report = tmp_path / "c.html", tmp_path / "c.md"
    status, _, err = conformance(
        capsys, "--kit", kit, "--harness", fake("odd-evaluation"), "--html", page, "--report", report
    )
    assert status == 1 and "Traceback" not in err
    assert page.exists() and report.exists()


def test_a_service_refusing_for_load_is_asked_again_after_its_retry_after(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three refusals for load (503, Retry-After: 0), then the stub's own answer to the case (a
    # 422): the case is judged on that answer, not failed as "service unavailable".
    with stub(["overloaded 0"] * 3) as server:
        status, out, _ = conformance(capsys, "--url", server.base, "--case", "legal-cards/discard/001")
        assert len(server.languages) == 4
    assert status == 1
    assert "422" in out and "503" not in out
    # With no patience, the first refusal is the answer.
    with stub(["overloaded 5"] * 3) as server:
        status, out, _ = conformance(
            capsys, "--url", server.base, "--case", "legal-cards/discard/001", "--overload-wait", "0.001"
        )
        assert len(server.languages) == 1
    assert status == 1 and "503" in out


def _reports(
    capsys: pytest.CaptureFixture[str], directory: Path, kit: Path, *chosen: str
) -> tuple[int, dict[str, str], str]:
    """The exit status, the reports (the terminal's among them; the JUnit report less its times)
    and the standard error of a run of the kit against the implementation ``chosen``."""
    directory.mkdir()
    paths = {"junit": directory / "junit.xml", "report": directory / "report.md", "html": directory / "page.html"}
    options = [word for key, path in paths.items() for word in (f"--{key}", str(path))]
    status, out, err = conformance(capsys, "--kit", kit, *chosen, *options)
    said = {key: path.read_text(encoding="utf-8") for key, path in paths.items()}
    said["junit"] = re.sub(r' time="[0-9.]+"', "", said["junit"])
    return status, said | {"terminal": out}, err


@pytest.mark.parametrize("by", ["url", "harness"])
def test_one_implementation_named_reports_as_it_does_unnamed(
    by: str, kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # One implementation is one run: naming it (--implementation NAME=…) changes no report, only
    # the line on standard error that says which implementation is asked.
    def both(target: str) -> None:
        status, unnamed, _ = _reports(capsys, tmp_path / "unnamed", kit, f"--{by}", target)
        named_status, named, err = _reports(capsys, tmp_path / "named", kit, "--implementation", f"it={target}")
        assert (named_status, named) == (status, unnamed)
        assert f"it: {target}" in err
        assert status == (0 if by == "url" else 1)

    if by == "url":
        with Gunicorn() as server:
            both(server.base)
    else:
        both(fake("drop-excuse"))


@pytest.mark.parametrize(
    ("flag", "report"), [("--junit", "JUnit report"), ("--report", "Markdown report"), ("--html", "HTML report")]
)
def test_a_report_path_that_cannot_be_written_stops_the_run_before_it_starts(
    kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, report: str
) -> None:
    # The harness would fail every case: the refusal comes first, naming which report.
    missing = tmp_path / "nowhere" / "out"
    status, out, err = conformance(capsys, "--kit", kit, "--harness", "exit 7", flag, missing)
    assert (status, out) == (2, "")
    assert f"{missing}: cannot write the {report} there: no such directory" in err
    status, out, err = conformance(capsys, "--kit", kit, "--harness", "exit 7", flag, tmp_path)
    assert (status, out) == (2, "")
    assert f"{tmp_path}: cannot write the {report}: it is a directory" in err
