"""Several implementations in one conformance run: every selected case posed to each, one matrix.

Each implementation is named on the command line (``--implementation NAME=URL`` or
``NAME=harness command``) and run over the same cases as a run of one is
(:func:`~.conformance_run.run_cases`). The :class:`Matrix` holds each case's outcome for each
implementation: the counts per implementation, by operation and by topic (a case file); the
cases where the implementations that checked a case do not all give the same answer
(:meth:`Matrix.disagreements`, with the kit's expectation and the sections of the rulebook the
case cites); the cases every implementation that checked them failed (:meth:`Matrix.all_failed`:
the kit itself is then suspect). The exit status follows the policy the user chose
(:meth:`Matrix.verdict`): every implementation passes (``--require all``), or a named one does
and the others are compared only.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from .casefiles import Case, CaseFile
from .client import ServiceUrl, url_argument
from .conformance_run import ORDER, Counts, Ran, Summary, in_one, run_cases
from .outcome import MISSING, Outcome, Status
from .words import say

ALL = "all"
"""``--require all``: every implementation must pass (the default); not a name an implementation may take."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
"""An implementation's name: it goes in the JUnit class names, the reports' columns and file names."""


class Named(NamedTuple):
    """An implementation as given: its name, and a service's URL or a harness's command."""

    name: str
    url: ServiceUrl | None
    command: str | None


def implementation_argument(text: str) -> Named:
    """``NAME=URL`` (``http://`` or ``https://``) or ``NAME=harness command``, as an argparse type."""
    name, equals, target = text.partition("=")
    name, target = name.strip(), target.strip()
    if not equals or not target:
        raise argparse.ArgumentTypeError(say("matrix.no_target", value=text))
    if not NAME.fullmatch(name) or name.lower() == ALL:
        raise argparse.ArgumentTypeError(say("matrix.bad_name", name=name))
    if re.match(r"https?://", target, re.IGNORECASE):
        return Named(name, url_argument(target), None)
    return Named(name, None, target)


def key(name: str) -> str:
    """What two names must not share: JUnit class names and file names fold case and ``-``/``_``."""
    return name.lower().replace("-", "_")


def check_names(named: Sequence[Named], required: str) -> None:
    """Refuse two implementations of the same name, and a ``--require`` that names none of them."""
    seen: dict[str, str] = {}
    for n in named:
        if key(n.name) in seen:
            raise argparse.ArgumentTypeError(say("matrix.same_name", name=n.name, other=seen[key(n.name)]))
        seen[key(n.name)] = n.name
    if required != ALL and required not in {n.name for n in named}:
        names = ", ".join(n.name for n in named)
        raise argparse.ArgumentTypeError(say("matrix.unknown_required", name=required, names=names))


def unreached_cases(
    files: Sequence[CaseFile], cases: Sequence[Case], skips: Sequence[tuple[str, str]], why: str
) -> list[Ran]:
    """The outcomes of an implementation that could not be reached: none of its cases was posed."""
    return run_cases(files, cases, skips, None, why)


@dataclass
class Column:
    """One implementation's run."""

    name: str
    described: str
    """Where it is, for the reports: its URL or its command."""
    ran: list[Ran]
    unreached: str = ""
    """Why it could not be reached (its cases then all failed), or empty."""
    harness: bool = False
    """Whether it is a harness's command (else a service's URL): a run of one says which."""
    unmatched: list[str] = field(default_factory=list)
    """Why a ``--tag`` or ``--case`` given selects no case, as the run's selection said."""
    summary: Summary = field(init=False)

    def __post_init__(self) -> None:
        self.summary = Summary.of(self.ran, self.unmatched, self.unreached)


class Row(NamedTuple):
    """One case, with its outcome for each implementation (in the order of the columns)."""

    case: Case
    outcomes: tuple[Outcome, ...]

    @property
    def checked(self) -> list[Outcome]:
        """The outcomes of the implementations that answered the case, or were asked and could not."""
        return [o for o in self.outcomes if o.status != Status.SKIPPED and not o.unasked]


class Said(NamedTuple):
    """What one implementation said to a case where the implementations disagree: at each
    pointer in question its value (the case's when it has no difference there), or the reason it
    gave no answer, or that it skipped the case."""

    status: Status
    values: dict[str, Any]
    note: str = ""


class Disagreement(NamedTuple):
    row: Row
    pointers: tuple[str, ...]
    """The pointers where some implementation's answer is not the kit's."""
    expected: dict[str, Any]
    """What the kit expects at each of them."""
    said: tuple[Said, ...]


def topic(case: Case) -> str:
    """A case's topic: its file's path less ``cases/`` and ``.json`` (``legal-cards/excuse``)."""
    return case.file.removeprefix("cases/").removesuffix(".json")


def _canonical(value: Any, unordered: bool) -> bytes:
    if value is MISSING:
        return b"<missing>"
    if unordered and isinstance(value, list):
        try:
            return orjson.dumps(sorted(value, key=orjson.dumps), option=orjson.OPT_SORT_KEYS)
        except TypeError:
            pass
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return repr(value).encode()


def _answer_key(outcome: Outcome) -> tuple[Any, ...]:
    """What an implementation answered to a case, as far as the case looks: two implementations
    with the same key agree with each other (a pass; the same values where they differ from the
    case; no answer at all)."""
    if outcome.status == Status.PASSED:
        return ("passed",)
    if outcome.note:
        return ("no-answer",)
    return ("answered", *sorted((d.pointer, _canonical(d.got, d.unordered)) for d in outcome.differences))


@dataclass
class Matrix:
    columns: list[Column]
    required: str = ALL
    unmatched: list[str] = field(default_factory=list)
    """Why a ``--tag`` or ``--case`` given selects no case (:attr:`~.conformance_run.Selection.unmatched`)."""
    rows: list[Row] = field(init=False)

    def __post_init__(self) -> None:
        cases = [case for case, _ in self.columns[0].ran] if self.columns else []
        self.rows = [Row(case, tuple(column.ran[i][1] for column in self.columns)) for i, case in enumerate(cases)]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def by(self, what: str) -> dict[str, list[Counts]]:
        """Counts per implementation by ``operation`` or ``topic``, in kit order."""
        out: dict[str, list[Counts]] = {}
        # The operations in the contract's order, as a run of one lists them; topics in kit order within.
        known = {path: i for i, path in enumerate(ORDER)}
        for row in sorted(self.rows, key=lambda r: known.get(r.case.operation, len(known))):
            label = row.case.operation if what == "operation" else topic(row.case)
            counts = out.setdefault(label, [Counts() for _ in self.columns])
            for c, outcome in zip(counts, row.outcomes, strict=True):
                c.add(outcome)
        return out

    def disagreements(self) -> list[Disagreement]:
        """The cases that two implementations or more checked and answered differently."""
        found = []
        for row in self.rows:
            checked = row.checked
            if len(checked) < 2 or len({_answer_key(o) for o in checked}) < 2:
                continue
            expected = {d.pointer: d.expected for o in checked for d in o.differences}
            pointers = sorted(expected)
            said = []
            for o in row.outcomes:
                got = {d.pointer: d.got for d in o.differences}
                values = {p: got.get(p, expected[p]) for p in pointers}
                # Why it was not run is said once, where it stopped (or in the summary, not reached).
                note = say("matrix.said.not_run") if o.unasked else o.note
                said.append(Said(o.status, values if o.status != Status.SKIPPED and not o.note else {}, note))
            found.append(Disagreement(row, tuple(pointers), expected, tuple(said)))
        return found

    def all_failed(self) -> list[Row]:
        """The cases that two implementations or more checked, and every one of them failed."""
        return [
            row for row in self.rows if len(row.checked) >= 2 and all(o.status == Status.FAILED for o in row.checked)
        ]

    def judged(self) -> list[Column]:
        """The implementations the exit status depends on."""
        return [c for c in self.columns if self.required in (ALL, c.name)]

    def alone(self) -> Column | None:
        """The one implementation of a run of one (reported in a layout of its own), else None."""
        return self.columns[0] if len(self.columns) == 1 else None

    def unchecked(self) -> str | None:
        """What fails the run for checking nothing: an implementation judged that checked no case
        (and why), or a ``--tag`` or ``--case`` given that selects none; None otherwise. A run of
        one says it as a run of one does, without the implementation's name."""
        alone = self.alone()
        if alone is not None:
            return alone.summary.unchecked()
        for column in self.judged():
            why = column.summary.nothing_checked()
            if why is None:
                continue
            if not self.rows and self.unmatched:
                why = in_one(self.unmatched)
            return say("matrix.nothing_checked", name=column.name, reason=why)
        if self.unmatched:
            return say("conformance.filter_checked_nothing", reason=in_one(self.unmatched))
        return None

    def failing(self) -> list[Column]:
        """The implementations judged that failed a case."""
        return [c for c in self.judged() if c.summary.total.failed]

    def passed(self) -> bool:
        return not self.failing() and self.unchecked() is None
