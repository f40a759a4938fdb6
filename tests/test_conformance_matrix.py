"""``tarot-rules conformance --implementation NAME=…`` (repeated): several implementations in one
run, one matrix.

Side by side, as the teams the kit is for run it: the service over HTTP (a real gunicorn on
127.0.0.1), the worked JavaScript adapter in front of it, and an adapter for magmacrunch-tarot, a
published engine this project did not write, installed in a virtualenv of its own
(``.venv-magmacrunch``, ``make unit`` makes it). The counts the report shows are held, so that a
change in the kit, the runner or the engine is noticed. Then a deliberately wrong
implementation beside a right one: it is the only failing column, on exactly the cases its fault
touches. The names, the exit policy, the reports (terminal, JUnit, Markdown) and the HTML page,
in a real browser in both languages.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.cli.casefiles import Case
from service.cli.conformance_matrix import Column, Matrix
from service.cli.outcome import Difference, Outcome, Status

from .browser import dump_dom, needs_browser
from .commandline import count, tarot_rules
from .serving import ROOT, Gunicorn, free_port
from .test_conformance_adapters import NODE, NODE_ADAPTER, needs_node

FLASK_ADAPTER = shlex.join([sys.executable, str(ROOT / "conformance" / "adapters" / "flask_app.py")])
MAGMACRUNCH_VENV = ROOT / ".venv-magmacrunch"
MAGMACRUNCH_PYTHON = MAGMACRUNCH_VENV / "bin" / "python"
MAGMACRUNCH_ADAPTER = ROOT / "conformance" / "adapters" / "magmacrunch" / "adapter.py"
KIT = ROOT / "conformance" / "v1" / "cases"

# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


def kit_cases() -> list[dict[str, Any]]:
    return [
        case for path in sorted(KIT.rglob("*.json")) for case in json.loads(path.read_text(encoding="utf-8"))["cases"]
    ]


def matrix_counts(out: str) -> dict[str, dict[str, int]]:
    """The first table of a run's summary: each implementation's cases, passed, failed, skipped."""
    lines = out.splitlines()
    assert lines[0].split() == ["implementation", "cases", "passed", "failed", "skipped"], out[:300]
    rows = {}
    for line in lines[1:]:
        if not line.strip():
            break
        name, *figures = line.split()
        rows[name] = dict(zip(("cases", "passed", "failed", "skipped"), map(count, figures), strict=True))
    return rows


def by_operation(out: str) -> dict[str, dict[str, tuple[int, ...]]]:
    """The second table: per operation, each implementation's passed / failed / skipped."""
    block = out.split("\n\n")[1].splitlines()
    names = block[0].split()[1:]
    table: dict[str, dict[str, tuple[int, ...]]] = {}
    for line in block[1:-1]:
        operation, *cells = re.split(r"\s{2,}", line.strip())
        table[operation] = {n: tuple(count(x) for x in c.split(" / ")) for n, c in zip(names, cells, strict=True)}
    return table


def disagreeing(markdown: str) -> list[str]:
    """The ids of the cases the Markdown report lists as disagreements."""
    section = markdown.split("## Where implementations disagree", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)


def magmacrunch() -> str:
    """The magmacrunch adapter's command, in its own virtualenv; a clear failure where it is not
    installed (it needs the package registry, which CI has): never a silent skip."""
    found = (
        subprocess.run(
            [str(MAGMACRUNCH_PYTHON), "-c", "import tarot.rules"], capture_output=True, text=True, check=False
        )
        if MAGMACRUNCH_PYTHON.exists()
        else None
    )
    if found is None or found.returncode != 0:
        log = MAGMACRUNCH_VENV / "install.log"
        said = log.read_text(encoding="utf-8", errors="replace")[-2000:] if log.exists() else ""
        pytest.fail(
            "magmacrunch-tarot is not installed in .venv-magmacrunch: run `make .venv-magmacrunch/.installed` "
            f"(it needs the package registry). pip said:\n{said}"
        )
    return shlex.join([str(MAGMACRUNCH_PYTHON), str(MAGMACRUNCH_ADAPTER)])


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as running:
        yield running


# The operations the published engine answers at least in part, and the deal, which it skips
# whole: 824 cases of the kit, each posed to the three implementations.
SIDE_BY_SIDE = ("legal-cards", "winner", "score", "deal")


@needs_node
def test_the_service_the_javascript_adapter_and_a_published_engine_side_by_side(
    server: Gunicorn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert NODE is not None
    engine = magmacrunch()
    selected = sum(1 for case in kit_cases() if case["id"].split("/")[0] in SIDE_BY_SIDE)
    operations = [arg for name in SIDE_BY_SIDE for arg in ("--operation", name)]
    report, junit, page = tmp_path / "matrix.md", tmp_path / "matrix.xml", tmp_path / "matrix.html"
    status, out, err = tarot_rules(
        capsys,
        "conformance",
        "--implementation", f"service={server.base}",
        "--implementation", f"node={shlex.join([NODE, str(NODE_ADAPTER), server.base])}",
        "--implementation", f"magmacrunch={engine}",
        "--require", "service",
        *operations,
        "--report", report, "--junit", junit, "--html", page,
    )  # fmt: skip
    assert status == 0, out + err  # the service passes; the others are compared only
    assert matrix_counts(out) == {
        "service": {"cases": selected, "passed": selected, "failed": 0, "skipped": 0},
        "node": {"cases": selected, "passed": selected, "failed": 0, "skipped": 0},
        "magmacrunch": {"cases": 824, "passed": 278, "failed": 13, "skipped": 533},
    }
    assert selected == 824
    assert {op: cells["magmacrunch"] for op, cells in by_operation(out).items()} == {
        "/v1/deals/deal": (0, 0, 26),
        "/v1/tricks/legal-cards": (137, 2, 268),
        "/v1/deals/score": (80, 6, 123),
        "/v1/tricks/winner": (61, 5, 116),
    }
    # Where the engine differs from the two others: it answers requests the rules refuse (a card
    # twice, a trick already complete, a seat out of range, points or oudlers that cannot be),
    # fails on a taker out of range, and gives a trick of the Excuse alone to the Excuse.
    markdown = report.read_text(encoding="utf-8")
    assert disagreeing(markdown) == [
        "legal-cards/refusals/003",
        "legal-cards/refusals/005",
        "score/refusals/001",
        "score/refusals/002",
        "score/refusals/003",
        "score/refusals/005",
        "score/refusals/009",
        "score/refusals/010",
        "winner/excuse/005",
        "winner/refusals/002",
        "winner/refusals/003",
        "winner/refusals/004",
        "winner/refusals/005",
    ]
    assert "implementations disagree with each other on 13 cases" in out
    assert "no case was failed by every implementation" in out
    assert (
        "| `winner/excuse/005` | docs/rules.md §7, §12 | /winner null; /winner_index null; /winning_card null |"
        in markdown
    )
    # JUnit: each implementation's cases under its own class names, the same counts.
    cases = list(ET.parse(junit).iter("testcase"))
    for name in ("service", "node", "magmacrunch"):
        mine = [c for c in cases if c.get("classname", "").startswith(f"tarot_rules.conformance.{name}.")]
        assert len(mine) == selected
    engine_failed = {
        c.get("name") for c in cases if c.find("failure") is not None and ".magmacrunch." in c.get("classname", "")
    }
    assert engine_failed == set(disagreeing(markdown))
    assert page.stat().st_size > 0


def test_a_wrong_implementation_is_the_only_failing_column_on_exactly_the_cases_its_fault_touches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong_answer, touched = wrong_excuse(tmp_path)
    report, junit = tmp_path / "matrix.md", tmp_path / "matrix.xml"
    args = [
        "conformance",
        "--implementation", f"right={FLASK_ADAPTER}",
        "--implementation", f"wrong={wrong_answer}",
        "--operation", "winner", "--operation", "legal-cards",
        "--report", report, "--junit", junit,
    ]  # fmt: skip
    status, out, _ = tarot_rules(capsys, *args)
    assert status == 1  # every implementation must pass, by default
    counts = matrix_counts(out)
    assert counts["right"]["failed"] == 0 and counts["wrong"]["failed"] == len(touched)
    failed = {
        (c.get("classname", "").split(".")[2], c.get("name"))
        for c in ET.parse(junit).iter("testcase")
        if c.find("failure") is not None
    }
    assert failed == {("wrong", case_id) for case_id in touched}
    assert disagreeing(report.read_text(encoding="utf-8")) == sorted(touched)
    # The same run judged on the right one only: it passes, the wrong one still shown failing.
    status, out, _ = tarot_rules(capsys, *args, "--require", "right")
    assert status == 0
    assert "right must pass; the others are compared only: passed" in out
    assert f"implementations disagree with each other on {len(touched)} cases" in out


def wrong_excuse(tmp_path: Path) -> tuple[str, set[str]]:
    """A harness that answers as the service does but for one rule broken: a trick led with the
    Excuse is won by its leader, with the Excuse; and the cases of the kit that fault touches,
    found from the cases (a winner case that expects an answer, the Excuse led, and a value
    there the fault changes)."""
    script = tmp_path / "wrong_excuse.py"
    script.write_text(WRONG.replace("ROOT", repr(str(ROOT))), encoding="utf-8")
    touched = set()
    for case in kit_cases():
        request = case["request"]
        if case["operation"] != "/v1/tricks/winner" or "expect" not in case or request["cards"][:1] != ["EX"]:
            continue
        wrong = {"/winner": request["leader"], "/winner_index": 0, "/winning_card": "EX"}
        if any(case["expect"].get(pointer, value) != value for pointer, value in wrong.items()):
            touched.add(case["id"])
    assert touched  # the kit has such cases
    return shlex.join([sys.executable, str(script)]), touched


WRONG = """
import json
import sys

sys.path.insert(0, ROOT)
from service.app import create_app

protocol, sys.stdout = sys.stdout, sys.stderr
client = create_app({"TESTING": True}).test_client()
for line in sys.stdin:
    message = json.loads(line)
    request = message["request"]
    response = client.post(message["operation"], json=request)
    body = response.get_json(silent=True) or {}
    if response.status_code == 200:
        if message["operation"] == "/v1/tricks/winner" and request["cards"][:1] == ["EX"]:
            body = dict(body, winner=request["leader"], winner_index=0, winning_card="EX")
        reply = {"seq": message["seq"], "answer": body}
    else:
        reply = {"seq": message["seq"], "refused": {"status": response.status_code, "errors": body.get("errors", [])}}
    protocol.write(json.dumps(reply) + "\\n")
    protocol.flush()
"""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--implementation", "a=x", "--implementation", "A=y"], "two implementations are named a and A"),
        (["--implementation", "a-b=x", "--implementation", "a_b=y"], "two implementations are named a-b and a_b"),
        (["--implementation", "all=x"], "'all' cannot name an implementation"),
        (["--implementation", "a b=x"], "'a b' cannot name an implementation"),
        (["--implementation", "a="], "a=: an implementation is NAME=URL or NAME=COMMAND"),
        (["--implementation", "a=x", "--require", "b"], "--require b: no implementation has that name (the names: a"),
        (["--url", "http://127.0.0.1:9", "--require", "b"], "--require chooses among the implementations named"),
    ],
)
def test_names_are_unique_and_valid_and_the_policy_names_one_of_them(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = tarot_rules(capsys, "conformance", *args)
    assert status == 2
    assert said in err


def test_a_run_of_several_that_checks_nothing_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "matrix.xml"
    status, _, err = tarot_rules(
        capsys,
        "conformance",
        "--implementation", f"a={FLASK_ADAPTER}",
        "--implementation", f"b={FLASK_ADAPTER}",
        "--case", "winner/no-such-topic/*",
        "--junit", junit,
    )  # fmt: skip
    assert status == 1
    assert "a run that checks nothing fails" in err
    assert [c.get("name") for c in ET.parse(junit).iter("testcase")] == ["nothing-checked"]
    # An implementation that skips every case checks nothing: judged, it fails the run; compared only, it does not.
    skipper = shlex.join([sys.executable, "-c", SKIPPER])
    base = ["conformance", "--implementation", f"a={FLASK_ADAPTER}", "--implementation", f"skipper={skipper}"]
    status, _, err = tarot_rules(capsys, *base, "--case", "winner/excuse/*")
    assert status == 1 and "skipper checked no case" in err
    status, _, _ = tarot_rules(capsys, *base, "--case", "winner/excuse/*", "--require", "a")
    assert status == 0


SKIPPER = """
import json, sys
for line in sys.stdin:
    print(json.dumps({"seq": json.loads(line)["seq"], "skipped": True, "message": "nothing here"}), flush=True)
"""


def test_an_implementation_out_of_reach(capsys: pytest.CaptureFixture[str]) -> None:
    gone = f"http://127.0.0.1:{free_port()}"
    base = ["conformance", "--implementation", f"a={FLASK_ADAPTER}", "--implementation", f"gone={gone}"]
    status, out, _ = tarot_rules(capsys, *base, "--case", "winner/excuse/*")
    assert status == 2  # an implementation the policy judges could not be reached, as with --url
    assert "gone could not be reached, its cases failed" in out
    assert "no case was failed by every implementation" in out  # not asked is not failed
    status, out, _ = tarot_rules(capsys, *base, "--case", "winner/excuse/*", "--require", "a")
    assert status == 0
    assert matrix_counts(out)["gone"] == {"cases": 8, "passed": 0, "failed": 8, "skipped": 0}


def _page(tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str) -> tuple[Path, set[str]]:
    wrong_answer, touched = wrong_excuse(tmp_path)
    page = tmp_path / f"matrix-{language}.html"
    tarot_rules(
        capsys,
        "--lang", language,
        "conformance",
        "--implementation", f"right={FLASK_ADAPTER}",
        "--implementation", f"wrong={wrong_answer}",
        "--operation", "winner",
        "--html", page,
    )  # fmt: skip
    return page, touched


def test_the_matrix_page_loads_nothing_from_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page, touched = _page(tmp_path, capsys, "en")
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(|src=|href=", text, re.IGNORECASE)
    assert '<html lang="en">' in text
    # Each touched case has its failed mark in the wrong column, and no other case has one.
    failed_rows = re.findall(r'<span class="name" title="[^"]*">([^<]+)</span>(.*?)</div>', text, re.DOTALL)
    marked = {case_id for case_id, cells in failed_rows if "mark failed" in cells}
    assert marked == touched


PROBE = """<script>
const columns = [...document.querySelectorAll(".line.head > span")].map(s => s.textContent);
const failing = new Set();
for (const row of document.querySelectorAll(".line.case")) {
  [...row.children].forEach((cell, i) => { if (cell.classList.contains("failed")) failing.add(columns[i]); });
}
const failedTopic = [...document.querySelectorAll("details.topic")].find(t => t.querySelector(".mark.failed"));
const folded = failedTopic.getBoundingClientRect().height;
const hidden = !failedTopic.querySelector(".line.case").checkVisibility();
failedTopic.open = true;
const closed = hidden && failedTopic.getBoundingClientRect().height > 2 * folded;
const mark = failedTopic.querySelector("details.mark.failed");
mark.open = true;
const reason = mark.querySelector("p");
const box = reason.getBoundingClientRect();
document.body.setAttribute("data-probe", [document.querySelector("p.verdict").textContent,
  [...failing].join(","), closed, box.width > 0 && box.height > 0, reason.textContent,
  getComputedStyle(mark).backgroundColor, columns.join(",")].join("|"));
</script></body>"""


@needs_browser
@pytest.mark.parametrize(
    ("language", "verdict", "reason"),
    [
        ("en", "every implementation must pass: failed (wrong failed 7 cases)", "/winner: expected"),
        ("fr", "chaque implémentation doit réussir\u00a0: échoué (wrong a échoué à 7 cas)", "/winner\u00a0: attendu"),
    ],
)
def test_in_a_browser_the_matrix_shows_the_wrong_column_and_opens_onto_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, verdict: str, reason: str
) -> None:
    page, touched = _page(tmp_path, capsys, language)
    assert len(touched) == 7
    probed = tmp_path / f"probed-{language}.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    run = dump_dom(probed.as_uri(), tmp_path / f"profile-{language}")
    found = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert found is not None, run.stdout[:500]
    assert [line for line in run.stderr.splitlines() if "Uncaught" in line] == []
    said, failing, closed, visible, why, background, columns = html.unescape(found.group(1)).split("|")
    assert said == verdict
    assert failing == "wrong"  # the only failing column
    assert closed == "true"  # a topic is folded until opened
    assert visible == "true" and reason in why  # an opened mark says why
    assert background == "rgb(255, 217, 217)"
    assert columns.split(",")[1:] == ["right", "wrong"]


# What an implementation may do with a case: pass it, answer 1 or 2 where the case expects 0,
# give no answer, or skip it.
ACTS = st.sampled_from(["pass", 1, 2, "none", "skip"])


def _outcome(case: Case, act: Any) -> Outcome:
    if act == "pass":
        return Outcome(0, case.number, case.id, Status.PASSED)
    if act == "skip":
        return Outcome(0, case.number, case.id, Status.SKIPPED, note="no", skip=("", "no"))
    if act == "none":
        return Outcome(0, case.number, case.id, Status.FAILED, note="it could not answer")
    return Outcome(0, case.number, case.id, Status.FAILED, differences=(Difference("/x", 0, act),))


@given(
    acts=st.lists(st.lists(ACTS, min_size=1, max_size=4), max_size=12),
    required=st.sampled_from(["all", "i0", "i1"]),
)
def test_the_matrix_of_any_outcomes(acts: list[list[Any]], required: str) -> None:
    width = min((len(a) for a in acts), default=2)
    acts = [a[:width] for a in acts]
    winner = "/v1/tricks/winner"
    cases = [
        Case(
            f"cases/op/t{n % 3}.json", n + 1, f"op/t{n % 3}/{n:03}", "", ("7",), (), winner, {}, {"/x": 0}, frozenset()
        )
        for n in range(len(acts))
    ]
    columns = [
        Column(f"i{i}", "x", [(case, _outcome(case, a[i])) for case, a in zip(cases, acts, strict=True)])
        for i in range(width)
    ]
    if required not in {c.name for c in columns}:
        required = "all"
    matrix = Matrix(columns, required)
    # Every case is passed, failed or skipped for each, and the topics add up to the totals.
    for i, column in enumerate(columns):
        assert column.summary.total.cases == len(cases)
        topics = [counts[i] for counts in matrix.by("topic").values()]
        for status in ("passed", "failed", "skipped"):
            assert sum(getattr(c, status) for c in topics) == getattr(column.summary.total, status)
    # A disagreement: two implementations or more gave an answer (or none) and not the same one.
    said = [[a for a in row if a != "skip"] for row in acts]
    expected = [c.id for c, s in zip(cases, said, strict=True) if len(s) >= 2 and len(set(s)) > 1]
    assert [d.row.case.id for d in matrix.disagreements()] == expected
    # Failed by all: two implementations or more checked it, and none passed.
    expected = [c.id for c, s in zip(cases, said, strict=True) if len(s) >= 2 and "pass" not in s]
    assert [r.case.id for r in matrix.all_failed()] == expected
    # The policy: the implementations it judges checked something and failed nothing.
    judged = [i for i in range(width) if required in ("all", f"i{i}")]
    ok = all(any(row[i] != "skip" for row in acts) and all(row[i] in ("pass", "skip") for row in acts) for i in judged)
    assert matrix.passed() == ok
