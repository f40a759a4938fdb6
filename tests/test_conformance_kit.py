"""The conformance kit's cases (conformance/v1/): well formed, complete, and true of the service.

The kit is written by its generator, conformance/generator; these tests hold the committed files to the
case-file schema and the rulebook, check that together they cover every section, verdict code,
table size and variant flag, and pose every case to the service in process: a case's answer
holds its expectations, a refusal case's request is refused with a fault located at (or within)
each of its pointers. The pointer and comparison logic is the format's own (RFC 6901, numbers by
value, multisets for ``unordered``), written here again so that the runner is not what tests the kit.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from jsonschema import Draft202012Validator

from service.cli.casefiles import _case, compare
from service.rules.variants import FFT, Rules
from service.rules.verdicts import (
    Anomaly,
    DuplicateFault,
    DuplicateMovementFault,
    LegalReason,
    RedealReason,
    SeatingFault,
    ViolationCode,
)
from tests.test_rulebook import SECTIONS

ROOT = Path(__file__).parent.parent
KIT = ROOT / "conformance" / "v1"
SCHEMA = json.loads((KIT / "case-file.schema.json").read_text(encoding="utf-8"))
FILES = sorted((KIT / "cases").rglob("*.json"))
CONTENT = {path: json.loads(path.read_text(encoding="utf-8")) for path in FILES}
CASES = [(path, case) for path, content in CONTENT.items() for case in content["cases"]]
ANSWERED = [(path, case) for path, case in CASES if "expect" in case]
REFUSED = [(path, case) for path, case in CASES if "expect_problem" in case]
OPERATIONS = {
    "/v1/tricks/legal-cards": "legal-cards",
    "/v1/tricks/winner": "winner",
    "/v1/deals/deal": "deal",
    "/v1/deals/score": "score",
    "/v1/deals/evaluate": "evaluate",
    "/v1/games/score": "score-game",
    "/v1/tournaments/standings": "standings",
    "/v1/tournaments/seating": "seating",
    "/v1/tournaments/duplicate/movement": "duplicate-movement",
    "/v1/tournaments/duplicate/standings": "duplicate-standings",
}
PLAYER_TAGS = {3: "three-players", 4: "four-players", 5: "five-players"}


def player_tags(request: dict[str, Any]) -> set[str]:
    """The table size's tag; a tournament's (its players a list): the sizes of its cards' tables; a
    duplicate tournament's: four players a table (rules.md §17)."""
    if "form" in request:
        return {PLAYER_TAGS[4]}
    if isinstance(request["players"], int):
        return {PLAYER_TAGS[request["players"]]}
    tables = [*request.get("scorecards", []), *request.get("seating", [])]
    return {PLAYER_TAGS[len(t["seats"])] for t in tables if len(t.get("seats", {})) in PLAYER_TAGS}


FLAGS = {f.name: getattr(FFT, f.name) for f in dataclasses.fields(Rules)}


def resolve(doc: Any, pointer: str) -> tuple[bool, Any]:
    """RFC 6901: (found, value)."""
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and re.fullmatch(r"0|[1-9][0-9]*", token) and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return False, None
    return True, doc


def canonical(value: Any) -> Any:
    """JSON with numbers by value: 40 and 40.0 alike."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return int(value) if float(value).is_integer() else value
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return {k: canonical(v) for k, v in value.items()}


def text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def matches(got: Any, want: Any, *, unordered: bool) -> bool:
    got, want = canonical(got), canonical(want)
    if unordered:
        if not isinstance(got, list) or not isinstance(want, list):
            return False
        return Counter(map(text, got)) == Counter(map(text, want))
    # Through JSON text: in Python True == 1, in JSON they differ.
    return text(got) == text(want)


def case_id(item: tuple[Path, dict[str, Any]]) -> str:
    return str(item[1]["id"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(KIT)))
def test_case_file_follows_the_schema(path: Path) -> None:
    errors = sorted(Draft202012Validator(SCHEMA).iter_errors(CONTENT[path]), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_the_schema_is_valid_and_strict() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    validator = Draft202012Validator(SCHEMA)
    case = ANSWERED[0][1]
    good = {"description": "x", "cases": [case]}
    assert validator.is_valid(good)
    spoilt = [
        ("unknown tag", lambda c: c["tags"].append("fun")),
        ("unknown violation", lambda c: c["tags"].append("violation:cheating")),
        ("id of another operation", lambda c: c.update(id="winner/x/001")),
        ("id without number", lambda c: c.update(id="legal-cards/x/1")),
        ("section not a number", lambda c: c.update(rules=["§6"])),
        ("extra field", lambda c: c.update(note="x")),
        ("expect key not a pointer", lambda c: c["expect"].update(legal=[])),
        ("no rules", lambda c: c.update(rules=[])),
    ]
    for name, spoil in spoilt:
        bad = copy.deepcopy(good)
        bad["cases"][0]["id"] = "legal-cards/x/001"
        bad["cases"][0]["operation"] = "/v1/tricks/legal-cards"
        assert validator.is_valid(bad), "the copy is valid before it is spoilt"
        spoil(bad["cases"][0])
        assert not validator.is_valid(bad), name
    refusal = {**REFUSED[0][1], "id": "legal-cards/x/001", "operation": "/v1/tricks/legal-cards"}
    assert validator.is_valid({"description": "x", "cases": [refusal]})
    spoilt_refusals = [
        ("an answer expected too", lambda c: c.update(expect={"/legal": []})),
        ("unordered without expect", lambda c: c.update(unordered=["/legal"])),
        ("no refusal tag", lambda c: c.update(tags=["four-players"])),
        ("not a 4xx", lambda c: c["expect_problem"].update(status=500)),
        ("no pointer", lambda c: c["expect_problem"].update(pointers=[])),
        ("the whole request", lambda c: c["expect_problem"].update(pointers=[""])),
        ("an error code expected", lambda c: c["expect_problem"].update(codes=["unknown_card"])),
        ("neither answer nor refusal", lambda c: c.pop("expect_problem")),
    ]
    for name, spoil in spoilt_refusals:
        bad = copy.deepcopy(refusal)
        spoil(bad)
        assert not validator.is_valid({"description": "x", "cases": [bad]}), name
    assert not validator.is_valid({**good, "cases": [{**case, "tags": ["four-players", "refusal"]}]})
    for code in ViolationCode:
        assert validator.is_valid({**good, "cases": [{**case, "tags": [f"violation:{code}"]}]}), code
    for reason in RedealReason:
        assert validator.is_valid({**good, "cases": [{**case, "tags": [f"redeal:{reason}"]}]}), reason


def test_ids_are_unique_and_name_their_file() -> None:
    ids = Counter(case["id"] for _, case in CASES)
    assert not [i for i, n in ids.items() if n > 1]
    for path, case in CASES:
        operation, topic, _ = case["id"].split("/")
        assert (operation, topic) == (path.parent.name, path.stem), case["id"]
        assert OPERATIONS[case["operation"]] == operation, case["id"]


def test_the_kit_is_large_enough() -> None:
    assert len(CASES) >= 800


def test_every_section_cited_is_in_the_rulebook() -> None:
    cited = {s for _, case in CASES for s in case["rules"]}
    assert cited <= SECTIONS, sorted(cited - SECTIONS)


def test_the_cases_cover_the_rulebook_and_every_verdict() -> None:
    cited = {s.split(".")[0] for _, case in CASES for s in case["rules"]}
    assert {str(n) for n in range(1, 10)} <= cited
    tags = {t for _, case in CASES for t in case["tags"]}
    expected = [case["expect"] for _, case in ANSWERED]
    assert {f"violation:{code}" for code in ViolationCode} <= tags
    assert {e.get("/violations/0/code") for e in expected} >= set(ViolationCode)
    assert {f"redeal:{reason}" for reason in RedealReason} <= tags
    assert {e.get("/redeal_reason") for e in expected} >= set(RedealReason)
    assert {e.get("/reason") for e in expected} >= set(LegalReason)
    assert {f"anomaly:{code}" for code in Anomaly} <= tags
    assert {v for e in expected for k, v in e.items() if re.fullmatch(r"/anomalies/\d+/code", k)} >= set(Anomaly)
    assert {f"seating:{code}" for code in SeatingFault} <= tags
    assert {f"movement:{code}" for code in DuplicateMovementFault} <= tags
    assert {v for e in expected for k, v in e.items() if re.fullmatch(r"/faults/\d+/code", k)} >= set(SeatingFault)
    assert {f"duplicate:{code}" for code in DuplicateFault} <= tags
    assert {v for e in expected for k, v in e.items() if re.fullmatch(r"/faults/\d+/code", k)} >= set(DuplicateFault)
    assert set(PLAYER_TAGS.values()) <= tags
    assert set(FLAGS) <= tags
    assert {"golden", "generated"} <= tags


def test_every_operation_has_cases_that_expect_a_refusal() -> None:
    refusals = Counter(case["operation"] for _, case in REFUSED)
    assert set(refusals) == set(OPERATIONS)
    assert all(3 <= n <= 10 for n in refusals.values()), refusals


@pytest.mark.parametrize(("path", "case"), ANSWERED, ids=[case_id(c) for c in ANSWERED])
def test_case_holds(app: Flask, path: Path, case: dict[str, Any]) -> None:
    request = case["request"]
    # The tags the request decides: the table size, and each flag set to a non-default value.
    rules = request.get("rules") or {}
    flags = {name for name, default in FLAGS.items() if name in rules and rules[name] != default}
    assert player_tags(request) <= set(case["tags"])
    assert flags == set(case["tags"]) & set(FLAGS)
    unordered = case.get("unordered", [])
    assert set(unordered) <= set(case["expect"])

    response = app.test_client().post(case["operation"], json=request)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    for pointer, want in case["expect"].items():
        found, got = resolve(answer, pointer)
        assert found, f"{pointer} is not in the answer"
        assert matches(got, want, unordered=pointer in unordered), (pointer, got, want)
    if case["operation"] == "/v1/deals/evaluate":
        codes = {f"violation:{v['code']}" for v in answer["violations"]}
        assert codes == {t for t in case["tags"] if t.startswith("violation:")}
        redeal = {f"redeal:{answer['redeal_reason']}"} if answer["redeal_reason"] else set()
        assert redeal == {t for t in case["tags"] if t.startswith("redeal:")}
    if case["operation"] == "/v1/tournaments/standings":
        codes = {f"anomaly:{a['code']}" for a in answer["anomalies"]}
        assert codes == {t for t in case["tags"] if t.startswith("anomaly:")}
    if case["operation"] == "/v1/tournaments/duplicate/movement":
        codes = {f"movement:{f['code']}" for f in answer["faults"]}
        assert codes == {t for t in case["tags"] if t.startswith("movement:")}
    if case["operation"] == "/v1/tournaments/duplicate/standings":
        codes = {f"duplicate:{f['code']}" for f in answer["faults"]}
        assert codes == {t for t in case["tags"] if t.startswith("duplicate:")}
    if case["operation"] == "/v1/tournaments/seating":
        codes = {f"seating:{f['code']}" for f in answer["faults"]}
        assert codes == {t for t in case["tags"] if t.startswith("seating:")}
        if "expect_seating" in case:
            # Its tables are not expected: the runner holds them to the rules (any right seating passes).
            assert not [p for p in case["expect"] if p.startswith("/seated")]
            assert compare(_case(path, case["id"], 1, case), answer) == []


def located(expected: str, found: list[str]) -> bool:
    """A fault at the pointer ``expected``, or within it."""
    return any(pointer == expected or pointer.startswith(expected + "/") for pointer in found)


@pytest.mark.parametrize(("path", "case"), REFUSED, ids=[case_id(c) for c in REFUSED])
def test_refusal_holds(app: Flask, path: Path, case: dict[str, Any]) -> None:
    request = case["request"]
    rules = request.get("rules") or {}
    flags = {name for name, default in FLAGS.items() if name in rules and rules[name] != default}
    assert player_tags(request) <= set(case["tags"]) and "refusal" in case["tags"]
    assert flags == set(case["tags"]) & set(FLAGS)

    response = app.test_client().post(case["operation"], json=request)
    expected = case["expect_problem"]
    assert response.status_code == expected["status"], response.get_json()
    problem = response.get_json()
    assert response.mimetype == "application/problem+json"
    found = [error["pointer"] for error in problem["errors"]]
    for pointer in expected["pointers"]:
        assert located(pointer, found), (pointer, found)


def test_the_generator_reproduces_the_files() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "conformance.generator", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]


SEATINGS = [(path, case) for path, case in ANSWERED if "expect_seating" in case]


def _spoil_seating(answer: dict[str, Any], how: str) -> None:
    """One rule broken in the answer's first position, by hand."""
    first, second = answer["seated"][0]["seats"], answer["seated"][1]["seats"]
    if how == "a player twice":
        first["north"] = second["north"]
    elif how == "a stranger":
        first["north"] = "X99"
    elif how == "a table of 5":
        first["fifth"] = second.pop("east")
    elif how == "tables numbered twice":
        answer["seated"][1]["table"] = answer["seated"][0]["table"]
    elif how == "a position left out":
        answer["seated"] = [t for t in answer["seated"] if t["position"] != answer["seated"][0]["position"]]
    elif how == "a repeat":
        # The first two tables of the last position take the first position's two north players.
        last = [t for t in answer["seated"] if t["position"] == answer["seated"][-1]["position"]]
        a, b = last[0]["seats"], last[1]["seats"]
        a["north"], b["north"] = b["north"], a["north"]
        a["east"], b["east"] = b["east"], a["east"]
    elif how == "the repeats not listed":
        answer["repeats"] = [{"players": ["P1", "P2"], "meetings": 2, "positions": [1, 2]}]


@pytest.mark.parametrize(
    "how",
    ["a player twice", "a stranger", "a table of 5", "tables numbered twice", "a position left out", "a repeat",
     "the repeats not listed"],
)  # fmt: skip
def test_a_seating_case_fails_a_seating_that_breaks_a_rule(app: Flask, how: str) -> None:
    # Every seat case of 5 positions at once: a seating spoilt by hand fails it, wherever the
    # arrangement put the players.
    cases = [(p, c) for p, c in SEATINGS if len(c["expect_seating"]["positions"]) == 5]
    assert cases
    for path, case in cases:
        answer = app.test_client().post(case["operation"], json=case["request"]).get_json()
        loaded = _case(path, case["id"], 1, case)
        assert compare(loaded, answer) == []
        _spoil_seating(answer, how)
        assert compare(loaded, answer), (case["id"], how)


def test_a_seating_case_fails_a_forbidden_pair_and_a_fixed_player_moved(app: Flask) -> None:
    path, case = next((p, c) for p, c in SEATINGS if c["request"].get("fixed"))
    answer = app.test_client().post(case["operation"], json=case["request"]).get_json()
    loaded = _case(path, case["id"], 1, case)
    assert compare(loaded, answer) == []
    fixed = case["request"]["fixed"][0]
    pair = case["request"]["forbidden"][0]
    for table in answer["seated"]:
        if fixed["player"] in table["seats"].values():
            table["table"] = fixed["table"] + 1
            break
    differences = compare(loaded, answer)
    assert any(d.pointer.endswith("/seats/" + o) for d in differences for o in ("north", "west", "south", "east"))
    seats = answer["seated"][-1]["seats"]
    seats["north"], seats["west"] = pair
    assert any(pair[0] in d.why and pair[1] in d.why for d in compare(loaded, answer))
