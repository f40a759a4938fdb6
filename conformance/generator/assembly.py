"""The kit being built: topics, cases, the checks every answer passes, the files written."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from service.cli.kit import MISSING, json_equal, resolve, same_elements
from service.rules.variants import FFT, Rules

from . import service
from .cards import Json
from .errors import KitError
from .oracle import ref_evaluate, ref_first_fault, ref_legal, ref_score_answer, ref_winner_answer
from .service import OPERATIONS

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "conformance" / "v1" / "cases"

PLAYER_TAG = {3: "three-players", 4: "four-players", 5: "five-players"}
FLAG_DEFAULTS = {flag.name: getattr(FFT, flag.name) for flag in dataclasses.fields(Rules)}
"""Each rule flag's FFT default: a case that sets another value is tagged with the flag."""


HELD_BACK: dict[str, str] = {}
"""Cases whose rulebook verdict the service does not give yet: left out of the kit, their
numbers kept, until the service is put right (the run then says to release them)."""


MULTISETS = ("/legal", "/next/legal", "/poignees")
"""Answer arrays whose order is not a verdict: compared as multisets."""
SCORE_TERMS = (
    "won", "threshold", "margin", "multiplier", "contract_points", "petit_au_bout", "poignees", "chelem",
    "per_defender", "scores",
)  # fmt: skip

RULING_TERMS = ("decision", "reason", "side_at_fault", "faults", "as_played_scores", "scores")


def same(got: Json, value: Json, *, unordered: bool) -> bool:
    """The kit's own comparison (service.cli.kit): numbers by value, listed arrays as multisets."""
    if unordered and isinstance(got, list) and isinstance(value, list):
        return same_elements(value, got)
    return json_equal(got, value)


def verdict_pointers(operation: str, request: Json, answer: Json) -> list[str]:
    """The parts of an answer that are rule verdicts (never the messages)."""
    if operation == "legal-cards":
        return ["/legal", "/reason"]
    if operation == "winner":
        return ["/winner", "/winner_index", "/winning_card", "/led_suit", "/trumped", "/complete"]
    if operation == "score":
        return ["/" + k for k in SCORE_TERMS]
    if operation == "score-game":
        from .games import game_pointers  # games builds on this module

        return game_pointers(request, answer)
    out = ["/status", "/valid"]
    if answer["status"] == "redeal":
        out.append("/redeal_reason")
    else:
        out += ["/taker", "/contract", "/partner"]
    if not answer["valid"]:
        out += ["/violations/0/code", "/violations/0/trick", "/violations/0/seat", "/score"]
        # A complete faulty deal's ruling (§14): its decision, row, side and marks; not its words.
        return [*out, *("/ruling/" + k for k in RULING_TERMS)] if "ruling" in answer else out
    if answer["status"] == "redeal":
        return out
    n = request["players"]
    out += [f"/tricks/{i}/winner" for i, t in enumerate(answer["tricks"]) if len(t["cards"]) == n]
    if answer["excuse"] is None:
        out.append("/excuse")  # nothing played yet
    else:
        out += ["/excuse/outcome", "/excuse/kept_by", "/excuse/exchange"]
    out += ["/poignees", "/chelem/announced"]
    if answer["status"] == "in_progress":
        return [*out, "/next/seat", "/next/legal"]
    out += ["/points/attack", "/points/defence", "/oudlers/attack", "/oudlers/defence", "/petit_au_bout"]
    return [*out, "/chelem/made_by", *("/score/" + k for k in SCORE_TERMS)]


@dataclass
class Topic:
    operation: str
    name: str
    description: str
    cases: dict[int, dict[str, Json]] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return CASES_DIR / self.operation / f"{self.name}.json"

    def text(self) -> str:
        cases = [self.cases[n] for n in sorted(self.cases)]
        return json.dumps({"description": self.description, "cases": cases}, indent=2, ensure_ascii=False) + "\n"


class Kit:
    def __init__(self) -> None:
        self.topics: dict[tuple[str, str], Topic] = {}
        self.held_back: list[str] = []

    def topic(self, operation: str, name: str, description: str) -> Topic:
        key = (operation, name)
        if key in self.topics:
            raise KitError(f"topic {operation}/{name} made twice")
        self.topics[key] = Topic(operation, name, description)
        return self.topics[key]

    def answer(self, operation: str, request: Json) -> Json:
        return service.answer(operation, request)

    def add(
        self,
        topic: Topic,
        number: int,
        description: str,
        rules: list[str],
        tags: Iterable[str],
        request: Json,
        *,
        want: dict[str, Json] | None = None,
        fault_ref: bool = False,
        only_want: bool = False,
    ) -> Json:
        """One case: the service's answer, held against ``want`` and the reference model.

        ``expect`` holds the answer's verdicts, or with ``only_want`` just the pointers of
        ``want`` (golden cases: the figures of the golden file and nothing else)."""
        case_id = f"{topic.operation}/{topic.name}/{number:03d}"
        if number in topic.cases:
            raise KitError(f"{case_id} used twice")
        answer = self.answer(topic.operation, request)
        pointers = [] if only_want else verdict_pointers(topic.operation, request, answer)
        checks = dict(reference(topic.operation, request, answer, fault_ref=fault_ref))
        for pointer, value in (want or {}).items():
            if pointer not in pointers:
                pointers.append(pointer)
            checks[pointer] = value
        wrong = []
        for pointer, value in checks.items():
            got = resolve(answer, pointer)
            if got is MISSING or not same(got, value, unordered=pointer in MULTISETS):
                wrong.append(f"{case_id}: the service answers {got!r} at {pointer}, not {value!r}")
        if case_id in HELD_BACK:
            if not wrong:
                raise KitError(f"{case_id}: the service now agrees; take it out of HELD_BACK")
            self.held_back.append(case_id)
            return answer
        if wrong:
            raise KitError("\n".join([*wrong, description]))
        if any(resolve(answer, p) is MISSING for p in pointers):
            raise KitError(f"{case_id}: a pointer of {pointers} is not in the answer")
        expect = {p: resolve(answer, p) for p in pointers}
        case: dict[str, Json] = {
            "id": case_id,
            "description": description,
            "rules": list(dict.fromkeys(rules)),
            "tags": sorted(set(tags) | auto_tags(topic.operation, request, answer)),
            "operation": OPERATIONS[topic.operation].path,
            "request": request,
            "expect": expect,
        }
        unordered = [p for p in pointers if p in MULTISETS and isinstance(expect[p], list)]
        if unordered:
            case["unordered"] = unordered
        topic.cases[number] = case
        return answer

    def files(self) -> dict[Path, str]:
        return {t.path: t.text() for t in self.topics.values()}


def auto_tags(operation: str, request: Json, answer: Json) -> set[str]:
    """The tags a case's request and answer decide: table, variant flags, faults, redeals."""
    tags = {PLAYER_TAG[request["players"]]}
    rules = request.get("rules") or {}
    tags |= {flag for flag, default in FLAG_DEFAULTS.items() if flag in rules and rules[flag] != default}
    if operation == "evaluate":
        tags |= {f"violation:{v['code']}" for v in answer["violations"]}
        if answer["redeal_reason"]:
            tags |= {"redeal", f"redeal:{answer['redeal_reason']}"}
        if not answer["valid"]:
            tags.add("faulty")
        if answer["status"] == "in_progress":
            tags.add("in-progress")
    return tags


def reference(operation: str, request: Json, answer: Json, *, fault_ref: bool) -> dict[str, Json]:
    """What the reference model says of this request (the parts it knows)."""
    if operation == "legal-cards":
        players = request["players"]
        rules = request.get("rules") or {}
        ban = None
        if players == 5 and request.get("first_trick") and rules.get("called_suit_lead_ban", True):
            ban = request.get("called_card")
        legal, reason = ref_legal(request["hand"], request.get("trick") or [], ban)
        return {"/legal": legal, "/reason": reason}
    if operation == "winner":
        return ref_winner_answer(request)
    if operation == "score":
        return ref_score_answer(request)
    if operation == "score-game":
        return {}  # games.check_rows holds each row against its single-deal operation
    if fault_ref:
        fault = ref_first_fault(request)
        if fault is None:
            return {"/valid": True}
        code, trick, seat = fault
        return {"/valid": False, "/violations/0/code": code, "/violations/0/trick": trick, "/violations/0/seat": seat}
    if answer["valid"] and answer["status"] != "redeal":
        return ref_evaluate(request).answer
    return {}


LEGAL_TAG = {
    "follow": "follow-suit", "trump": "trump", "overtrump": "overtrump", "undertrump": "undertrump",
    "discard": "discard", "called_suit_ban": "first-lead-ban",
}  # fmt: skip
LEGAL_RULES = {
    "lead": ["6.2"], "called_suit_ban": ["5.3", "6.2"], "follow": ["6.3"], "trump": ["6.4"], "overtrump": ["6.4"],
    "undertrump": ["6.4"], "discard": ["6.5"],
}  # fmt: skip
