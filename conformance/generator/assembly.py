"""The kit being assembled: topics, cases, the checks every answer passes, the files written.

What each operation's answers are checked for is verdicts.py's; this module applies it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from service.cli.casefiles import json_equal, locates, resolve, same_elements
from service.cli.outcome import MISSING

from . import service
from .cards import Json
from .errors import KitError
from .service import OPERATIONS
from .verdicts import CHECKS, MULTISETS, Checks

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "conformance" / "v1" / "cases"


CaseRow = tuple[int, str, list[str], list[str], Json, dict[str, Json]]
"""A curated case as a row of its topic's table: number, description, sections, tags, request, want."""
REFUSAL_TAG = "refusal"
"""The tag of every case that expects a refusal: an engine that does not check its input skips it."""

HELD_BACK: dict[str, str] = {}
"""Cases whose rulebook verdict the service does not give yet: left out of the kit, their
numbers kept, until the service is put right (the run then says to release them)."""


def same(got: Json, value: Json, *, unordered: bool) -> bool:
    """The kit's own comparison (service.cli.casefiles): numbers by value, listed arrays as multisets."""
    if unordered and isinstance(got, list) and isinstance(value, list):
        return same_elements(value, got)
    return json_equal(got, value)


@dataclass
class Topic:
    operation: str
    name: str
    description: str
    checks: Checks
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

    def topic(self, operation: str, name: str, description: str, checks: Checks | None = None) -> Topic:
        """A new topic, its answers checked by ``checks``, or else by its operation's in CHECKS."""
        key = (operation, name)
        if key in self.topics:
            raise KitError(f"topic {operation}/{name} made twice")
        if checks is None:
            checks = CHECKS.get(operation)
        if checks is None:
            raise KitError(f"topic {operation}/{name}: no checks for {operation}; its module hands them in")
        self.topics[key] = Topic(operation, name, description, checks)
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
        case_id = self._new_case_id(topic, number)
        answer = self.answer(topic.operation, request)
        pointers = [] if only_want else topic.checks.pointers(request, answer)
        held = topic.checks.known(request, answer, first_fault=fault_ref)
        for pointer, value in (want or {}).items():
            if pointer not in pointers:
                pointers.append(pointer)
            held[pointer] = value
        wrong = []
        for pointer, value in held.items():
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
            "tags": sorted(set(tags) | topic.checks.tags(request, answer)),
            "operation": OPERATIONS[topic.operation].path,
            "request": request,
            "expect": expect,
        }
        unordered = [p for p in pointers if p in MULTISETS and isinstance(expect[p], list)]
        if unordered:
            case["unordered"] = unordered
        topic.cases[number] = case
        return answer

    @staticmethod
    def _new_case_id(topic: Topic, number: int) -> str:
        """The id of case ``number`` of ``topic``, which must not be taken yet."""
        case_id = f"{topic.operation}/{topic.name}/{number:03d}"
        if number in topic.cases:
            raise KitError(f"{case_id} used twice")
        return case_id

    def add_refusal(
        self,
        topic: Topic,
        number: int,
        description: str,
        rules: list[str],
        tags: Iterable[str],
        request: Json,
        pointers: list[str],
    ) -> None:
        """One case of a request the rules refuse: a sound request (refusals.add_refusals checks it
        is answered) spoilt in one place. The service must refuse it with a 4xx locating a fault
        at, or within, each of ``pointers`` (chosen so that any engine may locate it: ``/hand``,
        not the second of two equal cards)."""
        case_id = self._new_case_id(topic, number)
        status, located = service.refusal(topic.operation, request)
        missing = [p for p in pointers if not any(locates(p, found) for found in located)]
        if not 400 <= status < 500 or missing or not pointers:
            raise KitError(f"{case_id}: the service refuses it with {status} at {located}, not at {pointers}")
        topic.cases[number] = {
            "id": case_id,
            "description": description,
            "rules": list(dict.fromkeys(rules)),
            "tags": sorted({*tags, REFUSAL_TAG} | topic.checks.tags(request, None)),
            "operation": OPERATIONS[topic.operation].path,
            "request": request,
            "expect_problem": {"status": status, "pointers": pointers},
        }

    def add_rows(self, topic: Topic, rows: Iterable[CaseRow]) -> None:
        """The cases of a table, each as :meth:`add` makes it."""
        for number, description, rules, tags, request, want in rows:
            self.add(topic, number, description, rules, tags, request, want=want)

    def files(self) -> dict[Path, str]:
        return {t.path: t.text() for t in self.topics.values()}
