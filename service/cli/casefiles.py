"""The conformance kit's case files, read and checked, and an answer compared with a case's expectations.

A kit is a directory whose ``cases/**/*.json`` files each hold a ``description`` and a list of
``cases`` (the format is described in ``conformance/README.md``). Each case poses one request
to one operation and states, per JSON pointer (RFC 6901) into the 200 answer, the value that
must be there (``expect``), and for a seating the rules its tables keep whatever their
arrangement (``expect_seating``); or, for a request the rules refuse, the problem expected
instead (``expect_problem``: a 4xx locating a fault at each of its pointers). :func:`load_kit` reads
them all or raises :class:`~.errors.CommandError` naming the file and the case at fault;
:func:`compare` lists where an answer differs from a case, :func:`compare_refusal` where a
refusal does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from .errors import CommandError, reason
from .outcome import ANSWERED, MISSING, Difference, Words
from .seating_check import seating_differences, valid_expectation
from .words import say

CASES_DIRECTORY = "cases"


# A JSON pointer: empty (the whole document), or /-separated tokens where ~ only escapes ~ and /.
_POINTER = re.compile(r"(/([^~/]|~[01])*)*")
_INDEX = re.compile(r"0|[1-9][0-9]*")


class ExpectedProblem(NamedTuple):
    """What a refusal case expects: a refusal, and the faults it locates."""

    status: int
    """The status this service refuses the request with; any 4xx passes (400 or 422 is a matter of style)."""
    pointers: tuple[str, ...]
    """Each must locate a fault of the refusal: an error's pointer is it, or within it."""


class Case(NamedTuple):
    file: str
    """The case file's path relative to the kit, with / separators."""
    number: int
    """Its position in its file, from 1."""
    id: str
    description: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    operation: str
    request: Any
    expect: dict[str, Any]
    """Empty for a refusal case."""
    unordered: frozenset[str]
    expect_problem: ExpectedProblem | None = None
    """A refusal case's expected problem."""
    expect_seating: dict[str, Any] | None = None
    """A seating case's rules its answer's seating keeps, whatever its arrangement (seating_check.py)."""


class CaseFile(NamedTuple):
    path: str
    """Relative to the kit, with / separators."""
    description: str
    cases: tuple[Case, ...]


def default_kit() -> Path:
    """The kit that comes with the command: the package's own copy (``service/conformance-kit/v1``,
    put there by the package's build), or, where the package is the repository itself (an
    editable install, a checkout), the repository's ``conformance/v1``."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "conformance-kit" / "v1"
    return packaged if packaged.is_dir() else package.parent / "conformance" / "v1"


def load_kit(kit: Path) -> list[CaseFile]:
    """Every case file of the kit, in path order; :class:`CommandError` at the first fault found."""
    if not kit.is_dir():
        raise CommandError(say("kit.no_kit", path=str(kit)))
    root = kit / CASES_DIRECTORY
    paths = sorted((p for p in root.rglob("*.json") if p.is_file()), key=lambda p: p.relative_to(root).parts)
    if not paths:
        raise CommandError(say("kit.no_case_files", path=str(kit)))
    files = [_load_file(path, path.relative_to(kit).as_posix()) for path in paths]
    seen: dict[str, str] = {}
    for case_file in files:
        for case in case_file.cases:
            if case.id in seen:
                path, where = str(kit / case_file.path), say("kit.case", number=case.number)
                raise CommandError(say("kit.duplicate_id", path=path, case=where, id=case.id, other=seen[case.id]))
            seen[case.id] = case_file.path
    return files


def _load_file(path: Path, name: str) -> CaseFile:
    try:
        data = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise CommandError(say("kit.not_json", path=str(path), reason=str(exc))) from None
    except OSError as exc:
        raise CommandError(say("kit.unreadable", path=str(path), reason=reason(exc))) from None
    if not isinstance(data, dict) or "cases" not in data:
        raise CommandError(say("kit.not_a_case_file", path=str(path)))
    if not isinstance(data.get("description"), str):
        raise CommandError(say("kit.file_field", path=str(path), field="description", kind=say("kit.kind.string")))
    if not isinstance(data["cases"], list):
        raise CommandError(say("kit.file_field", path=str(path), field="cases", kind=say("kit.kind.list")))
    cases = tuple(_case(path, name, number, raw) for number, raw in enumerate(data["cases"], 1))
    return CaseFile(name, data["description"], cases)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _kind(field: str) -> str:
    """What a case's field has to be, in words."""
    kinds = {
        "id": say("kit.kind.string"),
        "description": say("kit.kind.string"),
        "rules": say("kit.kind.rules"),
        "tags": say("kit.kind.strings"),
        "unordered": say("kit.kind.strings"),
        "operation": say("kit.kind.operation"),
        "request": say("kit.kind.object"),
        "expect": say("kit.kind.object"),
        "expect_problem": say("kit.kind.problem"),
        "expect_seating": say("kit.kind.seating"),
    }
    return kinds[field]


def _case(path: Path, name: str, number: int, raw: Any) -> Case:
    if not isinstance(raw, dict):
        raise CommandError(say("kit.case_not_object", path=str(path), case=say("kit.case", number=number)))
    case_id = raw.get("id")
    # Where a fault is: "case 3", or "case 3 (its id)" when it has one.
    if isinstance(case_id, str):
        where = say("kit.case_with_id", number=number, id=case_id)
    else:
        where = say("kit.case", number=number)

    def fault(field: str) -> CommandError:
        return CommandError(say("kit.case_field", path=str(path), case=where, field=field, kind=_kind(field)))

    checks: tuple[tuple[str, Callable[[Any], bool]], ...] = (
        ("id", lambda v: isinstance(v, str) and v != ""),
        ("description", lambda v: isinstance(v, str)),
        ("rules", lambda v: _strings(v) and len(v) > 0),
        ("tags", _strings),
        ("operation", lambda v: isinstance(v, str) and v.startswith("/")),
        ("request", lambda v: isinstance(v, dict)),
        # A case expects an answer, or a refusal (and then nothing else).
        ("expect", lambda v: isinstance(v, dict)) if "expect_problem" not in raw else ("expect_problem", _problem),
    )
    for field, valid in checks:
        if field not in raw or not valid(raw[field]):
            raise fault(field)
    if "expect_problem" in raw and ("expect" in raw or "unordered" in raw):
        raise CommandError(say("kit.answer_or_refusal", path=str(path), case=where))
    unordered = raw.get("unordered", [])
    if not _strings(unordered):
        raise fault("unordered")
    if "expect_seating" in raw and ("expect_problem" in raw or not valid_expectation(raw["expect_seating"])):
        raise fault("expect_seating")
    expect: dict[str, Any] = raw.get("expect", {})
    if not expect and "expect_problem" not in raw:
        raise CommandError(say("kit.empty_expect", path=str(path), case=where))
    problem = raw.get("expect_problem")
    located = problem["pointers"] if problem is not None else []
    for field, pointers in (("expect", list(expect)), ("unordered", unordered), ("expect_problem", located)):
        for pointer in pointers:
            if not _POINTER.fullmatch(pointer):
                raise CommandError(say("kit.bad_pointer", path=str(path), case=where, pointer=pointer, field=field))
    for pointer in unordered:
        # A pointer to compare in any order but with nothing expected there is a slip in the case.
        if pointer not in expect:
            raise CommandError(say("kit.not_expected", path=str(path), case=where, pointer=pointer))
        if not isinstance(expect[pointer], list):
            value = orjson.dumps(expect[pointer]).decode()
            raise CommandError(say("kit.not_a_list", path=str(path), case=where, pointer=pointer, value=value))
    return Case(
        file=name,
        number=number,
        id=raw["id"],
        description=raw["description"],
        rules=tuple(raw["rules"]),
        tags=tuple(raw["tags"]),
        operation=raw["operation"],
        request=raw["request"],
        expect=expect,
        unordered=frozenset(unordered),
        expect_problem=None if problem is None else ExpectedProblem(problem["status"], tuple(problem["pointers"])),
        expect_seating=raw.get("expect_seating"),
    )


def _problem(value: Any) -> bool:
    """An expected problem: a 4xx status, and a non-empty list of pointers, none the whole request."""
    if not isinstance(value, dict) or set(value) != {"status", "pointers"}:
        return False
    status, pointers = value["status"], value["pointers"]
    return (
        isinstance(status, int)
        and not isinstance(status, bool)
        and 400 <= status < 500
        and _strings(pointers)
        and len(pointers) > 0
        and "" not in pointers
    )


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` (RFC 6901) in ``document``, or :data:`MISSING`."""
    if pointer == "":
        return document
    value = document
    for token in pointer[1:].split("/"):
        # ~1 first: "~01" is "~1" in the key, not "/".
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            if key not in value:
                return MISSING
            value = value[key]
        elif isinstance(value, list):
            # "-" (past the end) and leading zeros name no element.
            if not _INDEX.fullmatch(key) or int(key) >= len(value):
                return MISSING
            value = value[int(key)]
        else:
            return MISSING
    return value


def _number(value: Any) -> bool:
    # JSON has no booleans among its numbers; Python's bool is an int.
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (``40`` is ``40.0``), a boolean never a number."""
    if _number(a) or _number(b):
        return _number(a) and _number(b) and a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def same_elements(expected: list[Any], got: list[Any]) -> bool:
    """Equal as multisets under :func:`json_equal`."""
    if len(expected) != len(got):
        return False
    unmatched = list(got)
    for element in expected:
        for i, candidate in enumerate(unmatched):
            if json_equal(element, candidate):
                del unmatched[i]
                break
        else:
            return False
    return True


def compare(case: Case, answer: Any) -> list[Difference]:
    """Each of the case's pointers where the answer differs, in the case's order; empty when it passes."""
    differences = []
    for pointer, expected in case.expect.items():
        got = resolve(answer, pointer)
        unordered = pointer in case.unordered
        if got is MISSING:
            differences.append(Difference(pointer, expected, got, unordered, say("kit.no_value")))
        elif unordered:
            if not isinstance(got, list):
                differences.append(Difference(pointer, expected, got, unordered, say("kit.not_an_array")))
            elif not same_elements(expected, got):
                differences.append(Difference(pointer, expected, got, unordered))
        elif not json_equal(expected, got):
            differences.append(Difference(pointer, expected, got, unordered))
    if case.expect_seating is not None:
        differences += seating_differences(case.request, answer, case.expect_seating)
    return differences


def locates(expected: str, found: str) -> bool:
    """Whether a fault found at ``found`` locates the ``expected`` pointer: it is that pointer, or within it."""
    return found == expected or found.startswith(expected + "/")


def refusal_words(problem: ExpectedProblem) -> Words:
    """The refusal a case expects, in words (``a refusal (a 4xx) locating /hand``)."""
    return Words(say("kit.refusal", pointers=", ".join(problem.pointers)))


def answered_instead(case: Case) -> list[Difference]:
    """A refusal case answered: the answer (a verdict, whatever its values) where the refusal is expected."""
    assert case.expect_problem is not None
    return [Difference("", refusal_words(case.expect_problem), ANSWERED)]


def compare_refusal(case: Case, status: int | None, pointers: Sequence[str]) -> list[Difference]:
    """Where a refusal of ``status`` (None: a harness's, without one) locating faults at
    ``pointers`` differs from the refusal ``case`` expects; empty when it passes."""
    expected = case.expect_problem
    assert expected is not None
    if status is not None and not 400 <= status < 500:
        return [Difference("/status", expected.status, status, why=say("kit.not_a_refusal"))]
    missing = [p for p in expected.pointers if not any(locates(p, found) for found in pointers)]
    if missing:
        why = say("kit.not_located", pointers=", ".join(missing))
        return [Difference("/errors", list(expected.pointers), list(pointers), why=why)]
    return []
