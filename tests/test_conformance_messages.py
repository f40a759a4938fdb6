"""What ``tarot-rules conformance`` says when the implementation is not what the run needs, and how
often: a base URL that answers 404 Not Found to every operation named with its likely fix (in
the words ``replay`` says it with), an answer where a refusal is expected and the reverse said
as such, each message once, on the terminal and in the Markdown report; and, in every report,
the values that differ in JSON's words.

The implementations are the worked Python adapter, a real gunicorn of the service, a service
out of reach, and harnesses made wrong on purpose (tests/test_cli_conformance.py's fake).
"""

from __future__ import annotations

import html
import io
import json
import re
import shlex
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from service.cli import words
from service.cli.casefiles import Case, CaseFile, json_equal
from service.cli.client import service_url, wrong_base
from service.cli.conformance_matrix import Column, Matrix
from service.cli.conformance_report import markdown, print_details, write_html
from service.cli.matrix_html import write_matrix_html
from service.cli.matrix_report import markdown as matrix_markdown
from service.cli.matrix_report import print_matrix
from service.cli.matrix_report import write_junit as write_matrix_junit
from service.cli.outcome import Difference, Outcome, Status

from .commandline import golden_records, summary, tarot_rules, write_ndjson
from .serving import Gunicorn, free_port
from .test_cli_conformance import (
    EVALUATE,
    FAKE,
    FLASK_ADAPTER,
    LEGAL,
    ROOT,
    SCORE,
    WINNER,
    command,
    kit_files,
    refusal_kit,
    write_kit,
)

# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as running:
        yield running


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    return write_kit(tmp_path / "kit", kit_files())


@pytest.fixture
def fake(tmp_path: Path) -> Any:
    script = tmp_path / "fake_harness.py"
    script.write_text(FAKE.format(root=str(ROOT)))
    return lambda mode: command(script, mode)


ROOT_FIX = (
    "the base URL is the service's root, each operation's path added to it: is this a Tarot rules service of "
    "this version?"
)


@pytest.mark.parametrize(
    ("prefix", "paths", "fix"),
    [
        ("/v1", [WINNER, SCORE], "drop the /v1: the base URL is the service's root (http://host:8000), the "
                                 "operations' paths start with /v1"),
        ("/v1/", [WINNER], "drop the /v1: the base URL is the service's root (http://host:8000), the operations' "
                           "paths start with /v1"),
        ("/api/v1", [WINNER], "drop the /v1: the base URL is the service's root (http://host:8000/api), the "
                              "operations' paths start with /v1"),
        ("/v1/tricks", [WINNER, LEGAL], "drop the /v1/tricks: the base URL is the service's root (http://host:8000), "
                                        "the operations' paths start with /v1/tricks"),
        ("/v1/tricks", [WINNER, SCORE], ROOT_FIX),  # the score's path does not start with /v1/tricks
        ("", [WINNER], ROOT_FIX),
        ("/v2", [WINNER], ROOT_FIX),
        ("/tricks", [WINNER], ROOT_FIX),  # a part of the paths, not how they start
    ],
)  # fmt: skip
def test_a_wrong_base_url_is_said_with_its_likely_fix(prefix: str, paths: list[str], fix: str) -> None:
    url = f"http://host:8000{prefix}"
    posed = ", ".join(paths)
    assert (
        wrong_base(service_url(url), paths) == f"{url} answered 404 Not Found to every operation posed ({posed}): {fix}"
    )


def test_a_base_url_that_doubles_the_v1_fails_the_run_named_once_with_its_fix_in_every_report(
    server: Gunicorn, kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit, report, page = tmp_path / "c.xml", tmp_path / "c.md", tmp_path / "c.html"
    wrong = server.base + "/v1"
    status, out, err = tarot_rules(
        capsys, "conformance", "--kit", kit, "--url", wrong, "--junit", junit, "--report", report, "--html", page
    )
    fix = f"drop the /v1: the base URL is the service's root ({server.base}), the operations' paths start with /v1"
    said = f"{wrong} answered 404 Not Found to every operation posed ({EVALUATE}, {LEGAL}, {SCORE}, {WINNER}): {fix}"
    assert status == 2  # as an implementation that could not be reached
    assert err.splitlines() == [f"tarot-rules: {said}"]
    assert summary(out) == {"cases": 12, "passed": 0, "failed": 12, "skipped": 0}
    assert "No operation at this path" not in out + err and "Failures" not in out
    text = report.read_text(encoding="utf-8")
    assert text.count(said) == 1 and f"**The implementation was not reached: {said}.**" in text.splitlines()
    assert "12 cases not run, for the reason above." in text.splitlines()
    drawn = html.unescape(page.read_text(encoding="utf-8"))
    assert drawn.count(said) == 1 and "No operation at this path" not in drawn
    # JUnit: each case failed unasked, its failure saying why (a CI page shows one test case at a time).
    failures = [case.find("failure") for case in ET.parse(junit).iter("testcase")]
    assert len(failures) == 12
    assert {f.get("message") if f is not None else None for f in failures} == {f"not run: {said}"}

    # The replay, given the same base URL, says it in the same words: one detection for both commands.
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:2])
    status, out, err = tarot_rules(capsys, "replay", games, "--url", wrong)
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"tarot-rules: {wrong} answered 404 Not Found to every operation posed (/v1/deals/evaluate-batch): {fix}"
    ]


def test_an_operation_the_implementation_lacks_is_no_wrong_base_url(
    server: Gunicorn, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A case at an operation the service does not have: it alone fails, on its own 404.
    nowhere = {
        "id": "nowhere/001", "description": "An operation this service lacks.", "rules": ["6.1"], "tags": [],
        "operation": "/v1/tricks/nowhere", "request": {}, "expect": {"/winner": 0},
    }  # fmt: skip
    kit = write_kit(tmp_path / "kit", {**kit_files(), "nowhere.json": {"description": "N.", "cases": [nowhere]}})
    status, out, err = tarot_rules(capsys, "conformance", "--kit", kit, "--url", server.base)
    assert status == 1, out + err
    assert summary(out) == {"cases": 13, "passed": 12, "failed": 1, "skipped": 0}
    assert "404" in out and "answered 404 Not Found to every operation" not in out + err
    # Posed alone, it is every operation the run posed: then the base URL is taken as wrong.
    status, out, err = tarot_rules(capsys, "conformance", "--kit", kit, "--url", server.base, "--case", "nowhere/*")
    assert status == 2
    assert f"{server.base} answered 404 Not Found to every operation posed (/v1/tricks/nowhere)" in err


def repeated(lines: list[str]) -> list[str]:
    """The lines (or paragraphs) said more than once."""
    return sorted({line for line in lines if lines.count(line) > 1})


@pytest.mark.parametrize("matrix", [False, True], ids=["one", "beside-another"])
@pytest.mark.parametrize("scenario", ["unreachable", "wrong-base-url", "harness-that-cannot-answer"])
def test_an_implementation_not_reached_is_said_once(
    server: Gunicorn,
    kit: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scenario: str,
    matrix: bool,
) -> None:
    target, reason = {
        "unreachable": (f"http://127.0.0.1:{free_port()}", "cannot reach the service at"),
        "wrong-base-url": (f"{server.base}/v1", "answered 404 Not Found to every operation posed"),
        "harness-that-cannot-answer": (shlex.join([sys.executable, "-c", "pass"]), "ended before its first answer"),
    }[scenario]
    report = tmp_path / "report.md"
    if matrix:
        chosen = ["--implementation", f"good={FLASK_ADAPTER}", "--implementation", f"bad={target}"]
    else:
        chosen = ["--url" if target.startswith("http") else "--harness", target]
    status, out, err = tarot_rules(
        capsys, "conformance", "--kit", kit, *chosen, "--operation", "winner", "--report", report
    )
    assert status == 2, out + err
    said = [line for line in (out + err).splitlines() if line.strip()]
    assert repeated(said) == []
    assert (out + err).count(reason) == 1, out + err
    if not report.exists():  # a run of one stops before its report when the implementation cannot be reached
        assert not matrix and scenario != "wrong-base-url"
        return
    paragraphs = [p.strip() for p in report.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert repeated(paragraphs) == []
    assert sum(p.count(reason) for p in paragraphs) == 1


def test_an_implementation_that_cannot_answer_a_case_says_so_once(
    kit: Path, tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "matrix.md"
    status, out, _ = tarot_rules(
        capsys, "conformance", "--kit", kit, "--case", "winner/tricks/001", "--report", report,
        "--implementation", f"good={FLASK_ADAPTER}", "--implementation", f"erring={fake('error=1')}",
    )  # fmt: skip
    assert status == 1
    assert "    erring: the implementation could not answer: not implemented yet" in out.splitlines()
    assert out.count("could not answer") == 1
    row = next(line for line in report.read_text(encoding="utf-8").splitlines() if "winner/tricks/001" in line)
    assert row.count("could not answer") == 1 and "no answer" not in row


def test_an_answer_where_a_refusal_is_expected_and_the_reverse_are_said_as_such(
    tmp_path: Path, fake: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    kit, report = refusal_kit(tmp_path / "kit"), tmp_path / "matrix.md"
    status, out, _ = tarot_rules(
        capsys, "conformance", "--kit", kit, "--report", report, "--implementation", f"good={FLASK_ADAPTER}",
        "--implementation", f"answers={fake('answer-all')}", "--implementation", f"refuses={fake('refuse-all')}",
    )  # fmt: skip
    assert status == 1
    lines = out.splitlines()
    # A harness has no status: an answer is no "/status 200", it is an answer, beside the refusal the kit expects.
    assert "    the kit expects: a refusal (a 4xx) locating /hand" in lines
    assert "    answers: an answer (a verdict)" in lines
    assert "/status" not in out and "200" not in out
    # A refusal where the kit expects an answer.
    assert "    refuses: refused where the kit expects an answer: status 422; /players: No." in lines
    text = report.read_text(encoding="utf-8")
    assert "| a refusal (a 4xx) locating /hand | as the kit | an answer (a verdict) |" in text
    assert "/status" not in text


@pytest.mark.parametrize(("required", "legend"), [([], False), (["--require", "a"], True)])
def test_the_matrix_page_explains_its_star_only_beside_a_starred_implementation(
    kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], required: list[str], legend: bool
) -> None:
    page = tmp_path / "matrix.html"
    status, _, _ = tarot_rules(
        capsys, "conformance", "--kit", kit, "--case", "winner/tricks/001", "--html", page, *required,
        "--implementation", f"a={FLASK_ADAPTER}", "--implementation", f"b={FLASK_ADAPTER}",
    )  # fmt: skip
    assert status == 0
    text = page.read_text(encoding="utf-8")
    assert ("<th>a *</th>" in text) is legend
    assert text.count("* marks the implementation that must pass") == int(legend)


# JSON values; their strings without the letters of Python's words (None, True, False, none), so
# that those words can only come from a report's own rendering; nor U+FFFE and U+FFFF, which XML
# cannot hold (the JUnit report replaces them).
STRINGS = st.text(st.characters(blacklist_characters="nNTF\ufffe\uffff", blacklist_categories=("Cs",)), max_size=4)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | STRINGS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(STRINGS, inner, max_size=3),
    max_leaves=5,
)
PYTHON_WORDS = re.compile(r"\b(?:None|True|False|none)\b")
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)


def _said_of(text: str) -> list[str]:
    """The lines of a terminal's output that say a value at the case's pointer (lines end at a new
    line only: a string's U+0085 or U+2028 ends none)."""
    return [line for line in text.split("\n") if "/x" in line]


def _cells_of(text: str) -> list[str]:
    """The same of a Markdown report, its cells' | unescaped."""
    return [line.replace("\\|", "|") for line in _said_of(text)]


def _failures(junit: Path) -> list[str]:
    return [
        text
        for failure in ET.parse(junit).iter("failure")
        for text in (failure.get("message") or "", failure.text or "")
    ]


def _cells(page: Path) -> list[str]:
    return [html.unescape(cell) for cell in CELL.findall(page.read_text(encoding="utf-8"))]


def reports(directory: Path, case: Case, failed: Outcome, passed: Outcome) -> dict[str, list[str]]:
    """What each report of a run of one (``failed``) and of two side by side (``passed`` beside
    ``failed``) says of the case."""
    files = [CaseFile(case.file, "Cases.", (case,))]
    ran = [(case, failed)]
    one = Column("a", "x", ran)  # a run of one is a matrix of one column
    summary = one.summary
    terminal = io.StringIO()
    print_details(summary, terminal)
    write_matrix_junit(str(directory / "one.xml"), files, Matrix([one]))
    write_html(str(directory / "one.html"), files, one)
    matrix = Matrix([Column("a", "x", [(case, passed)]), Column("b", "y", ran)])
    side_by_side = io.StringIO()
    print_matrix(matrix, side_by_side)
    write_matrix_junit(str(directory / "two.xml"), files, matrix)
    write_matrix_html(str(directory / "two.html"), matrix)
    return {
        "terminal": _said_of(terminal.getvalue()),
        "markdown": _cells_of(markdown(one)),
        "junit": _failures(directory / "one.xml"),
        "html": _cells(directory / "one.html"),
        "matrix terminal": _said_of(side_by_side.getvalue()),
        "matrix markdown": _cells_of(matrix_markdown(matrix)),
        "matrix junit": _failures(directory / "two.xml"),
        "matrix html": _cells(directory / "two.html"),
    }


@settings(max_examples=60, deadline=None)  # each example writes four reports
@given(expected=JSON_VALUES, got=JSON_VALUES, language=st.sampled_from(["en", "fr"]))
def test_every_report_says_the_values_that_differ_as_json_says_them(expected: Any, got: Any, language: str) -> None:
    assume(not json_equal(expected, got))
    case = Case("cases/op/t.json", 1, "op/t/001", "A case.", ("7",), ("t",), WINNER, {}, {"/x": expected}, frozenset())
    failed = Outcome(
        0, 1, case.id, Status.FAILED, differences=(Difference("/x", expected, got),), description="A case."
    )
    passed = Outcome(0, 1, case.id, Status.PASSED, description="A case.")
    words.use(language)
    try:
        with tempfile.TemporaryDirectory() as directory:
            said = reports(Path(directory), case, failed, passed)
    finally:
        words.use("en")
    for report, texts in said.items():
        for value in (expected, got):
            shown = json.dumps(value, ensure_ascii=False)
            assert any(shown in text for text in texts), (report, shown, texts)
        assert not [text for text in texts if PYTHON_WORDS.search(text)], report
