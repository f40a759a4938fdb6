"""The command's reports lead with the root faults (issue 23; rules.md §12, §13).

A violation with ``caused_by`` set follows from the earlier root fault at that index. The
replay's text and JUnit report and the conformance runner's reports name the roots first, in
the service's words, each with its count of consequences, and list the consequences after,
under their root. Tricks are said from 1, as everywhere for people. The answers here have
``caused_by`` drawn at will, consistent or not; the replay's end-to-end test reads the core's own.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.cli import conformance_matrix, conformance_report, conformance_run, matrix_report, words
from service.cli.casefiles import Case, CaseFile
from service.cli.faults import ROOTS_NAMED, Fault, details, fault_of, faults_of, head, roots, summary
from service.cli.outcome import Outcome, Status, failure_details, failure_message, faulty_details, faulty_line

from .commandline import faulty_records, tarot_rules, write_ndjson
from .test_cli_language import machine_parts

NBSP = "\u00a0"
# card_not_in_hand and wrong_leader, as each language names them.
FAULT_WORDS = {
    "en": ("card not in hand", "lead out of turn"),
    "fr": ("carte absente de la main", "entame hors de tour"),
}

pytestmark = pytest.mark.usefixtures("locale")


@pytest.fixture
def speak() -> Iterator[Any]:
    """Sets the command's language for a test, and puts the one before back after it."""
    before = words.language()
    yield words.use
    words.use(before)


def fault(
    code: str, trick: int | None, seat: int | None, caused_by: int | None = None, card: str | None = None
) -> Fault:
    return Fault(code, trick, seat, card, f"{code} said", caused_by)


RENOUNCE = Fault("renounce", 3, 2, "5H", "Seat 2 played 5H without following hearts.", None)
# One root at trick index 3 and six consequences: what issue 23 shows.
ONE_ROOT = (RENOUNCE, *(fault("must_trump", 4 + i, i % 4, 0) for i in range(6)))
# Two roots, their consequences interleaved in deal order; one outside the play (no trick).
TWO_ROOTS = (
    fault("discard_trump", None, 3),
    fault("renounce", 0, 1),
    fault("must_trump", 1, 1, 1),
    fault("card_not_in_hand", 2, 3, 0),
    fault("must_overtrump", 5, 1, 1),
)


# -- table: what is said, and in which order -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "faults", "line"),
    [
        ("en", ONE_ROOT, "renounce at trick 4 by seat 2 — and 6 consequences"),
        ("fr", ONE_ROOT, "renonce au pli 4 par le joueur 2 — et 6 conséquences"),
        (
            "en",
            TWO_ROOTS,
            "trump discarded without need by seat 3 — and 1 consequence, "
            "then renounce at trick 1 by seat 1 — and 2 consequences",
        ),
        (
            "fr",
            TWO_ROOTS,
            "atout écarté sans nécessité par le joueur 3 — et 1 conséquence, "
            "puis renonce au pli 1 par le joueur 1 — et 2 conséquences",
        ),
        ("en", (fault("petit_sec", None, None),), "petit sec not dealt again"),
        # A code the rulebook does not have (an implementation under test may say one): as it came.
        ("fr", (fault("revoke", 2, 1),), '"revoke" au pli 3 par le joueur 1'),
        ("en", (fault("wrong_leader", 0, None),), "lead out of turn at trick 1"),
        ("fr", (fault("wrong_leader", 0, None),), "entame hors de tour au pli 1"),
        (
            "en",
            tuple(fault("renounce", t, 0) for t in range(5)),
            "renounce at trick 1 by seat 0, then renounce at trick 2 by seat 0, then renounce at trick 3 by seat 0, "
            "and 2 more root faults",
        ),
        (
            "fr",
            tuple(fault("renounce", t, 0) for t in range(4)),
            "renonce au pli 1 par le joueur 0, puis renonce au pli 2 par le joueur 0, "
            "puis renonce au pli 3 par le joueur 0, et 1 autre faute d'origine",
        ),
    ],
)
def test_the_one_line_summary_names_the_roots_with_their_counts(
    speak: Any, language: str, faults: tuple[Fault, ...], line: str
) -> None:
    speak(language)
    assert summary(faults) == line


def test_the_details_give_the_roots_first_then_their_consequences(speak: Any) -> None:
    speak("en")
    assert list(details(TWO_ROOTS)) == [
        "  trump discarded without need by seat 3 — and 1 consequence: discard_trump said",
        "  renounce at trick 1 by seat 1 — and 2 consequences: renounce said",
        "  consequences of trump discarded without need by seat 3:",
        "    card not in hand at trick 3 by seat 3: card_not_in_hand said",
        "  consequences of renounce at trick 1 by seat 1:",
        "    failure to trump at trick 2 by seat 1: must_trump said",
        "    failure to overtrump at trick 6 by seat 1: must_overtrump said",
    ]
    speak("fr")
    assert list(details(ONE_ROOT, "    ", listed=2)) == [
        f"    renonce au pli 4 par le joueur 2, carte 5H — et 6 conséquences{NBSP}: "
        "Seat 2 played 5H without following hearts.",
        f"    conséquences de renonce au pli 4 par le joueur 2{NBSP}:",
        f"      refus de couper au pli 5 par le joueur 0{NBSP}: must_trump said",
        f"      refus de couper au pli 6 par le joueur 1{NBSP}: must_trump said",
        "      … et 4 autres conséquences (voir --junit)",
    ]


@pytest.mark.parametrize(
    ("caused_by", "grouped"),
    [
        # Each fault's cause as given, and the roots it gives: (root index, its consequences' indexes).
        ([None, 0, 0], [(0, [1, 2])]),
        ([None, 0, 1], [(0, [1, 2])]),  # a consequence of a consequence counts for its root
        ([None, 1, 5], [(0, []), (1, []), (2, [])]),  # itself, or later: a root of its own
        ([None, -1, None, 2], [(0, []), (1, []), (2, [3])]),  # no such index: a root of its own
        ([1, None], [(0, []), (1, [])]),
    ],
)
def test_a_cause_that_names_no_earlier_fault_makes_a_root(caused_by: list[int | None], grouped: Any) -> None:
    faults = [fault(f"code{i}", i, 0, cause) for i, cause in enumerate(caused_by)]
    found = [(faults.index(r.fault), [faults.index(c) for c in r.consequences]) for r in roots(faults)]
    assert found == grouped


def test_violations_of_an_answer_under_test_are_read_whatever_they_hold() -> None:
    assert fault_of({"code": "renounce", "trick": 2, "seat": 1, "card": "5H", "message": "m", "caused_by": 0}) == Fault(
        "renounce", 2, 1, "5H", "m", 0
    )
    assert fault_of({"code": 7, "trick": True, "seat": "1", "caused_by": 1.0}) == Fault("7", None, None, None, "", None)
    assert fault_of("renounce") == Fault('"renounce"', None, None, None, "", None)
    assert faults_of({"violations": None}) == () and faults_of([]) == ()


# -- a property: every root named, every consequence counted ---------------------------------------------------


@st.composite
def answers(draw: st.DrawFn) -> tuple[Fault, ...]:
    """Violations whose ``caused_by`` is consistent: null, or an earlier root's index."""
    faults: list[Fault] = []
    root_indexes: list[int] = []
    for i in range(draw(st.integers(min_value=1, max_value=14))):
        cause = draw(st.none() | st.sampled_from(root_indexes)) if root_indexes else None
        trick = draw(st.none() | st.integers(min_value=0, max_value=23))
        seat = draw(st.none() | st.integers(min_value=0, max_value=4))
        card = draw(st.none() | st.sampled_from(["5H", "EX", "21T"]))
        faults.append(Fault(f"code{i}", trick, seat, card, f"message {i}.", cause))
        if cause is None:
            root_indexes.append(i)
    return tuple(faults)


CONSEQUENCES = {
    "en": re.compile(r" — and (\d+) consequences?\b"),
    "fr": re.compile(r" — et (\d+) conséquences?\b"),
}


@given(faults=answers(), language=st.sampled_from(["en", "fr"]))
def test_every_root_is_named_and_every_consequence_counted(faults: tuple[Fault, ...], language: str) -> None:
    words.use(language)
    try:
        outcome = Outcome(0, 1, "deal", Status.FAILED, faults=faults)
        found = [f for f in faults if f.caused_by is None]
        follow = {i: sum(1 for f in faults if f.caused_by == i) for i, f in enumerate(faults) if f.caused_by is None}
        # The JUnit report: its message names the first roots with their counts, its text every root.
        message = failure_message(outcome)
        assert message == faulty_line(outcome)
        for root in found[:ROOTS_NAMED]:
            assert re.search(rf"(?<!\w){re.escape(head(root))}(?!\w)", message), (root, message)
        junit_roots = failure_details(outcome).splitlines()[1 : 1 + len(found)]
        for terminal in (False, True):
            # The terminal's text folds long lists of consequences, but counts them all.
            lines = faulty_details(outcome, "    ", 3) if terminal else junit_roots
            root_lines = lines[: len(found)]
            for line, root, index in zip(root_lines, found, follow, strict=True):
                assert line.strip().startswith(head(root)), (line, root)
                counted = CONSEQUENCES[language].search(line)
                assert (int(counted.group(1)) if counted else 0) == follow[index], line
            total = sum(int(m.group(1)) for line in root_lines for m in CONSEQUENCES[language].finditer(line))
            assert total == len(faults) - len(found)
        every = failure_details(outcome)
        for f in faults:
            assert f.message in every
    finally:
        words.use("en")


@given(t=st.integers(min_value=0, max_value=40), language=st.sampled_from(["en", "fr"]))
def test_a_trick_index_is_said_from_1(t: int, language: str) -> None:
    words.use(language)
    try:
        said = head(Fault("renounce", t, 2, None, "", None))
        assert said == (
            f"renounce at trick {t + 1} by seat 2" if language == "en" else f"renonce au pli {t + 1} par le joueur 2"
        )
    finally:
        words.use("en")


# -- the replay: text and JUnit, in both languages -------------------------------------------------------------


def test_the_replay_leads_with_the_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The record's first two cards swapped: one root at the first trick, two consequences (§12).
    records, faulty = faulty_records()
    games = write_ndjson(tmp_path / "games.ndjson", records[:4])
    plain = tmp_path / "plain.xml"
    status_before, _, _ = tarot_rules(capsys, "--lang", "en", "replay", games, "--jobs", "1", "--junit", plain)
    where = f"{games}:3 ({faulty['id']})"
    for language, colon, said in (
        ("en", ": ", "faulty deal: card not in hand at trick 1 by seat 1 — and 2 consequences"),
        (
            "fr",
            f"{NBSP}: ",
            f"donne fautive{NBSP}: carte absente de la main au pli 1 par le joueur 1 — et 2 conséquences",
        ),
    ):
        report = tmp_path / f"{language}.xml"
        status, out, _ = tarot_rules(capsys, "--lang", language, "replay", games, "--jobs", "1", "--junit", report)
        assert status == status_before == 1
        lines = out.splitlines()
        at = lines.index(f"{where}{colon}{said}")
        not_in_hand, wrong_leader = FAULT_WORDS[language]
        assert lines[at + 1].startswith(f"    {not_in_hand} ") and " — " in lines[at + 1]
        assert lines[at + 2].startswith("    ") and lines[at + 2].endswith(":")  # the consequences' heading
        consequences = [line.strip() for line in lines[at + 3 : at + 5]]
        assert consequences[0].startswith(not_in_hand) and consequences[1].startswith(wrong_leader)
        failure = {c.get("name"): c for c in ET.parse(report).getroot().iter("testcase")}[faulty["id"]].find("failure")
        assert failure is not None
        assert (failure.get("message") or "").startswith(said)
        location, *text = (failure.text or "").splitlines()
        assert re.fullmatch(r".*games\.ndjson:\d+", location)  # the record's file and line first
        assert text[1].startswith(f"  {not_in_hand} ") and text[3].startswith(f"    {not_in_hand} ")
        # The machine fields do not change: not with the language, not with the causes.
        assert machine_parts(report) == machine_parts(plain)


# -- the conformance runner ------------------------------------------------------------------------------------


class Judge:
    """An implementation under test that finds one fault, and six that follow from it."""

    def ask(self, operation: str, request: Any) -> Any:
        violations = [{"code": "renounce", "trick": 3, "seat": 2, "card": "5H", "message": "Said.", "caused_by": None}]
        violations += [{"code": "must_trump", "trick": 4 + i, "seat": 1, "caused_by": 0} for i in range(6)]
        return {"valid": False, "violations": violations}

    def close(self) -> None:
        pass


def test_the_conformance_runner_says_the_answers_roots(
    speak: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    failing, passing = (
        Case("cases/x.json", n, f"x/00{n}", "A deal.", ("§6",), (), "/v1/deals/evaluate", {}, expect, frozenset())
        for n, expect in ((1, {"/valid": True}), (2, {"/valid": False}))
    )
    files = [CaseFile("cases/x.json", "", (failing, passing))]
    ran = conformance_run.run_cases(files, [failing, passing], [], Judge())
    outcomes = [o for _, o in ran]
    assert [len(o.faults) for o in outcomes] == [7, 0]  # kept for the failures only
    for language, label, roots_said in (
        ("en", "faults in the answer: ", "renounce at trick 4 by seat 2 — and 6 consequences"),
        ("fr", f"fautes de la réponse{NBSP}: ", "renonce au pli 4 par le joueur 2 — et 6 conséquences"),
    ):
        speak(language)
        found = conformance_run.Summary.of(ran)
        conformance_report.print_details(found, sys.stdout)
        out = capsys.readouterr().out.splitlines()
        # After the case's differences, what the answer found: its root, and how much followed.
        at = out.index(f"    {label}{roots_said}")
        assert out[at - 1].startswith("    /valid")
        # The JUnit failure: its message and type as before; its text ends with the answer's faults.
        junit = tmp_path / f"junit-{language}.xml"
        matrix_report.write_junit(
            str(junit), files, conformance_matrix.Matrix([conformance_matrix.Column("x", "", ran)])
        )
        failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
        assert failure is not None
        mismatch = conformance_report.JUNIT_MISMATCH
        assert failure.get("type") == mismatch and (failure.get("message") or "").startswith("/valid")
        text = (failure.text or "").splitlines()
        assert text[:2] == ["A deal.", conformance_report.difference_line(outcomes[0].differences[0])]
        assert text[3].startswith("  " + roots_said.split(" — ")[0]) and " — " in text[3]
        assert len(text) == 3 + 1 + 1 + 6  # the heading, the root, the consequences' heading, six consequences
        # The Markdown report: a column of the answer's root faults.
        [row] = [
            row
            for row in conformance_report.markdown(conformance_matrix.Column("x", "", ran)).splitlines()
            if row.startswith("| `x/001` |")
        ]
        assert row.endswith(f"| {roots_said} |")
