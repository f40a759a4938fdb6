"""A conformance run: the cases selected, each posed to the implementation, and the counts.

The cases are selected by operation, id, and tag (:func:`select`). Each case's
:class:`~.outcome.Outcome` says whether the implementation's answer holds what the case expects
(:func:`~.casefiles.compare`), or its refusal what the case's problem expects
(:func:`~.casefiles.compare_refusal`), with the answer's own faults and what a page draws of it
when it does not; a case skipped by a tag is not posed, one the implementation skips is
skipped with its reason; once the implementation is gone, the remaining cases fail unasked,
and all of them when it was not reached after all (:func:`run_implementation`: a wrong base URL).
:class:`Summary` counts them by operation and by tag; a run that checked no case says why
(:meth:`Summary.nothing_checked`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from time import perf_counter
from typing import Any, NamedTuple

from service.contract.operations import IN_THE_KIT

from .casefiles import Case, CaseFile, answered_instead, compare, compare_refusal
from .errors import PROG, warn
from .faults import faults_of
from .implementations import GoneError, Implementation, NoAnswerError, RefusedError, SkippedError
from .outcome import Difference, Outcome, Status, drawing
from .words import labelled, say

ORDER = [op.path for op in IN_THE_KIT.values()]
"""The order operations are listed in (the contract's); any other comes after them."""

Ran = tuple[Case, Outcome]
"""A case and its outcome."""


BY_THE_IMPLEMENTATION = ""
"""The tag of a skip the implementation asked for (a skip's tag names what skipped it; it has none)."""


class Selection(NamedTuple):
    cases: list[Case]
    unmatched: list[str]
    """Why a ``--tag`` or ``--case`` given selects no case of the kit (a typo, surely), one by one."""


def select(
    files: Sequence[CaseFile],
    tags: Sequence[str],
    skips: Sequence[tuple[str, str]],
    operations: Sequence[str] = (),
    globs: Sequence[str] = (),
) -> Selection:
    """The cases, in kit order, of one of ``operations`` (the kit's names: all when none), whose id
    matches one of ``globs`` (all when none) and with every tag of ``tags``; and each tag no case
    has, or glob that matches no id, said: it checks nothing, which fails the run as a run that
    checks nothing fails (exit 1), even beside other globs that match."""
    known = {tag for f in files for case in f.cases for tag in case.tags}
    unmatched = [say("conformance.unknown_tag", tag=tag) for tag in tags if tag not in known]
    for tag, _ in skips:
        if tag not in known:
            warn(say("conformance.unused_skip_tag", tag=tag))
    ids = [case.id for f in files for case in f.cases]
    unmatched += [
        say("conformance.unknown_case", glob=glob)
        for glob in globs
        if not any(fnmatchcase(case_id, glob) for case_id in ids)
    ]
    paths = {IN_THE_KIT[name].path for name in operations}
    cases = [
        case
        for f in files
        for case in f.cases
        if (not paths or case.operation in paths)
        and (not globs or any(fnmatchcase(case.id, glob) for glob in globs))
        and all(tag in case.tags for tag in tags)
    ]
    return Selection(cases, unmatched)


def run_cases(
    files: Sequence[CaseFile],
    cases: Iterable[Case],
    skips: Sequence[tuple[str, str]],
    implementation: Implementation | None,
    unreached: str = "",
) -> list[Ran]:
    """Each case with its outcome, in order; once the implementation is gone, the remaining cases
    fail unasked. With no ``implementation`` (it could not be reached: ``unreached`` says why),
    every case not skipped fails unasked, and nothing is said here: the caller says it once."""
    numbers = {f.path: i for i, f in enumerate(files)}
    ran: list[Ran] = []
    gone = unreached
    for case in cases:
        outcome = _outcomes(numbers[case.file], case)
        skip = next(((tag, why) for tag, why in skips if tag in case.tags), None)
        if skip is not None:
            ran.append(outcome(Status.SKIPPED, skip=skip, note=skip[1]))
            continue
        if gone or implementation is None:
            ran.append(outcome(Status.FAILED, note=gone, unasked=True))
            continue
        started = perf_counter()
        try:
            ran.append(_posed(case, implementation, outcome))
        except GoneError as exc:
            gone = str(exc)
            print(say("cli.failed", prog=PROG, message=say("conformance.gone", reason=gone)), file=sys.stderr)
            ran.append(outcome(Status.FAILED, note=gone, seconds=perf_counter() - started))
    return ran


def run_implementation(
    files: Sequence[CaseFile], cases: Sequence[Case], skips: Sequence[tuple[str, str]], implementation: Implementation
) -> tuple[list[Ran], str]:
    """The cases run by ``implementation``, and why it was not reached after all (empty when it
    was): then its answers are none of the cases' (a wrong base URL's 404s), and every case not
    skipped fails unasked, as with an implementation that could not be reached."""
    ran = run_cases(files, cases, skips, implementation)
    why = implementation.unreached()
    return (run_cases(files, cases, skips, None, why), why) if why else (ran, "")


def _posed(case: Case, implementation: Implementation, outcome: Callable[..., Ran]) -> Ran:
    """``case`` posed to the implementation, and its outcome; :class:`GoneError` when it cannot answer any more."""
    started = perf_counter()
    try:
        answer = implementation.ask(case.operation, case.request)
    except SkippedError as exc:
        why = str(exc) or say("conformance.skipped_by_harness")
        return outcome(Status.SKIPPED, skip=(BY_THE_IMPLEMENTATION, why), note=why, seconds=perf_counter() - started)
    except RefusedError as exc:
        if case.expect_problem is not None:
            return _judged(outcome, compare_refusal(case, exc.status, exc.pointers), perf_counter() - started)
        refused = say("conformance.refused_instead")
        note = labelled(refused, str(exc)) if str(exc) else refused
        return outcome(Status.FAILED, note=note, seconds=perf_counter() - started)
    except NoAnswerError as exc:
        return outcome(Status.FAILED, note=str(exc), seconds=perf_counter() - started)
    seconds = perf_counter() - started
    if case.expect_problem is not None:
        return _judged(outcome, answered_instead(case), seconds)
    differences = compare(case, answer)
    if not differences:
        return outcome(Status.PASSED, seconds=seconds)
    drawn = drawing(case.request, answer)
    found = faults_of(answer)
    return outcome(Status.FAILED, differences=tuple(differences), faults=found, drawing=drawn, seconds=seconds)


def _judged(outcome: Callable[..., Ran], differences: Sequence[Difference], seconds: float) -> Ran:
    """A refusal case's outcome: failed on its differences, else passed."""
    if differences:
        return outcome(Status.FAILED, differences=tuple(differences), seconds=seconds)
    return outcome(Status.PASSED, seconds=seconds)


def _outcomes(file_no: int, case: Case) -> Callable[..., Ran]:
    """What makes ``case``'s outcome from its status and details."""

    def outcome(status: Status, **details: Any) -> Ran:
        return case, Outcome(file_no, case.number, case.id, status, description=case.description, **details)

    return outcome


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def cases(self) -> int:
        return self.passed + self.failed + self.skipped

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.status, getattr(self, outcome.status) + 1)


@dataclass
class Summary:
    total: Counts = field(default_factory=Counts)
    operations: dict[str, Counts] = field(default_factory=dict)
    tags: dict[str, Counts] = field(default_factory=dict)
    skips: dict[tuple[str, str], int] = field(default_factory=dict)
    """Cases skipped, by the --skip-tag (tag, reason) that skipped them, or the implementation's
    reason (:data:`BY_THE_IMPLEMENTATION`, reason)."""
    failures: list[Ran] = field(default_factory=list)
    """The cases that failed once posed."""
    unasked: list[Ran] = field(default_factory=list)
    """The cases that failed unposed, the implementation gone: listed as one."""
    unmatched: list[str] = field(default_factory=list)
    """Why a ``--tag`` or ``--case`` given selected no case (:attr:`Selection.unmatched`)."""
    unreached: str = ""
    """Why the implementation was not reached (its cases are then all unasked), or empty."""

    @classmethod
    def of(cls, ran: Iterable[Ran], unmatched: Sequence[str] = (), unreached: str = "") -> Summary:
        summary = cls(unmatched=list(unmatched), unreached=unreached)
        for case, outcome in ran:
            summary.total.add(outcome)
            summary.operations.setdefault(case.operation, Counts()).add(outcome)
            for tag in case.tags:
                summary.tags.setdefault(tag, Counts()).add(outcome)
            if outcome.skip is not None:
                summary.skips[outcome.skip] = summary.skips.get(outcome.skip, 0) + 1
            elif outcome.status == Status.FAILED:
                (summary.unasked if outcome.unasked else summary.failures).append((case, outcome))
        known = {path: i for i, path in enumerate(ORDER)}
        order = sorted(summary.operations, key=lambda op: (known.get(op, len(known)), op))
        summary.operations = {op: summary.operations[op] for op in order}
        summary.tags = dict(sorted(summary.tags.items()))
        return summary

    def nothing_checked(self) -> str | None:
        """Why the run checked no case (none was selected, or every one skipped); None when it checked some."""
        if self.total.passed or self.total.failed:
            return None
        if not self.total.cases:
            return in_one(self.unmatched) if self.unmatched else say("conformance.nothing_selected")
        return say("conformance.all_skipped", self.total.skipped)

    def unchecked(self) -> str | None:
        """What fails a run that checked nothing, said for people: nothing at all (and why), or
        nothing for a ``--tag`` or ``--case`` given beside others that checked cases; None when
        every filter given checked something."""
        why = self.nothing_checked()
        if why is not None:
            return say("conformance.nothing_checked", reason=why)
        if self.unmatched:
            return say("conformance.filter_checked_nothing", reason=in_one(self.unmatched))
        return None


def in_one(reasons: Sequence[str]) -> str:
    """Several reasons in one sentence (``a; b; c``)."""
    return functools.reduce(lambda first, second: say("text.parts", first=first, second=second), reasons)
