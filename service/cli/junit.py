"""The JUnit XML report of a run, for CI systems: one ``<testsuite>`` per file, one ``<testcase>`` each.

Both checks write it: a replay (a suite per log, a case per record) and a conformance run (a
suite per case file, a case per case; a suite per implementation and case file when several
run side by side, :func:`write_runs`). Each test case is written with ElementTree as it comes,
into temporary files, and the report is put together at the end, when every suite's counts are
known: memory stays flat however many records there are.

Test cases carry the ``time`` each took, and the ``file`` and ``line`` of their record. Their
``classname`` is dotted, as CI viewers read it (they split it on its dots into a package and a
class): ``tarot_rules.replay.logs.games`` for ``logs/games.ndjson``,
``tarot_rules.conformance.evaluate.rulings`` for the case file ``cases/evaluate/rulings.json``.
A run that checked nothing says so as a failed test case of its own (:meth:`JUnitReport.nothing_checked`).

Only the messages and texts are in the command's language: the names, types and counts are the
same in every language, for the tools that compare reports.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import IO, NamedTuple

from .outcome import Status
from .report_files import check_writable, report_file
from .words import say

# XML 1.0 has no way to write these, not even escaped; a record's id may hold them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with what XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _start_tag(element: ET.Element) -> str:
    # ElementTree writes whole elements only: the start tag is the element, empty, less its end tag.
    whole = ET.tostring(element, encoding="unicode", short_empty_elements=False)
    return whole[: -len(f"</{element.tag}>")]


def classname(command: str, path: str) -> str:
    """The dotted class name of a file's test cases: ``tarot_rules.<command>.<name>``, its name the
    file's without extension, under the directories of a case file (``cases/evaluate/rulings.json``:
    ``evaluate.rulings``), never those of a replay's log (a path differs from machine to machine);
    each part in letters, digits and ``_``."""
    stem = os.path.splitext(path)[0]
    parts = stem.removeprefix("cases/").split("/") if stem.startswith("cases/") else [os.path.basename(stem)]
    names = [re.sub(r"\W", "_", part, flags=re.ASCII) or "_" for part in parts]
    return ".".join(["tarot_rules", command, *(n if not n[0].isdigit() else f"_{n}" for n in names)])


class TestCase(NamedTuple):
    """One test case as the report says it."""

    file_no: int
    name: str
    status: Status
    message: str = ""
    """A failure's or an error's one line; a skip's reason."""
    kind: str = ""
    """A failure's or an error's ``type``."""
    text: str = ""
    """A failure's or an error's whole story."""
    seconds: float = 0.0
    """How long it took."""
    line: int | None = None
    """Where its record is in its file (a line from 1, or a place in a JSON array from 0)."""
    output: str = ""
    """What is said of it that is no failure (an allowed deal in progress): its ``system-out``."""


_ELEMENT = {Status.FAILED: "failure", Status.ERROR: "error", Status.SKIPPED: "skipped"}
_COUNTED = (Status.FAILED, Status.ERROR, Status.SKIPPED)


def _seconds(seconds: float) -> str:
    return f"{seconds:.6f}"


NOTHING_CHECKED = "nothing-checked"
"""The type of the failure a run that checked nothing writes."""


class JUnitReport:
    def __init__(
        self,
        path: str,
        name: str,
        command: str,
        suites: Sequence[str],
        classnames: Sequence[str] | None = None,
        files: Sequence[str] | None = None,
    ) -> None:
        """A report named ``name`` (the command's, in every language) at ``path``, a suite per
        file of ``suites`` (their names as given), their test cases' class names from ``command``
        unless ``classnames`` gives each suite's, and their ``file`` the suite's name unless
        ``files`` gives each suite's."""
        check_writable(path, say("report.junit"))
        self.path = path
        self.name = name
        self.command = command
        self._names = list(suites)
        self._paths = list(files) if files is not None else self._names[:]
        self._classnames = list(classnames) if classnames is not None else [classname(command, s) for s in suites]
        self._files = len(self._names)
        self._current = -1
        self._counts = dict.fromkeys(("tests", *_COUNTED), 0)  # the current suite's
        self._totals = dict(self._counts)
        self._seconds = self._total_seconds = 0.0
        # Open across the run; close() or write() closes them.
        self._cases: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._suites: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115

    def _counted(self, element: ET.Element, counts: dict[str, int], seconds: float) -> None:
        element.set("tests", str(counts["tests"]))
        element.set("failures", str(counts[Status.FAILED]))
        element.set("errors", str(counts[Status.ERROR]))
        element.set("skipped", str(counts[Status.SKIPPED]))
        element.set("time", _seconds(seconds))

    def _next_suite(self) -> None:
        if self._current >= 0:
            suite = ET.Element("testsuite", name=xml_text(self._names[self._current]))
            self._counted(suite, self._counts, self._seconds)
            self._suites.write(f"  {_start_tag(suite)}\n")
            self._cases.seek(0)
            shutil.copyfileobj(self._cases, self._suites)
            self._suites.write("  </testsuite>\n")
            self._cases.seek(0)
            self._cases.truncate()
            self._totals = {k: self._totals[k] + v for k, v in self._counts.items()}
            self._total_seconds += self._seconds
        self._current += 1
        self._counts = dict.fromkeys(self._counts, 0)
        self._seconds = 0.0

    def add(self, case: TestCase) -> None:
        """One test case; they come in the order of their files."""
        while self._current < case.file_no:
            self._next_suite()
        element = ET.Element("testcase", name=xml_text(case.name), classname=self._classnames[case.file_no])
        if case.file_no < self._files:
            element.set("file", xml_text(self._paths[case.file_no]))
        element.set("time", _seconds(case.seconds))
        if case.line is not None:
            element.set("line", str(case.line))
        self._counts["tests"] += 1
        self._seconds += case.seconds
        tag = _ELEMENT.get(case.status)
        if tag is not None:
            self._counts[case.status] += 1
            if case.status == Status.SKIPPED:
                ET.SubElement(element, tag, message=xml_text(case.message))
            else:
                fault = ET.SubElement(element, tag, message=xml_text(case.message), type=case.kind)
                fault.text = xml_text(case.text)
        if case.output:
            ET.SubElement(element, "system-out").text = xml_text(case.output)
        self._cases.write(f"    {ET.tostring(element, encoding='unicode')}\n")

    def nothing_checked(self, message: str) -> None:
        """Say, as a failed test case of a suite of its own, that the run checked nothing: a CI
        system that reads only this report must not see an empty report as a pass."""
        while self._current < len(self._names):
            self._next_suite()
        self._names.append(self.command)
        self._classnames.append(f"tarot_rules.{self.command}")
        case = TestCase(len(self._names) - 1, NOTHING_CHECKED, Status.FAILED, message, NOTHING_CHECKED, message)
        self.add(case)

    def write(self) -> None:
        """Write the report (every file gets its suite, even one without test cases)."""
        while self._current < len(self._names):
            self._next_suite()
        root = ET.Element("testsuites", name=self.name)
        self._counted(root, self._totals, self._total_seconds)
        try:
            with report_file(self.path, say("report.junit")) as out:
                out.write('<?xml version="1.0" encoding="utf-8"?>\n')
                out.write(f"{_start_tag(root)}\n")
                self._suites.seek(0)
                shutil.copyfileobj(self._suites, out)
                out.write("</testsuites>\n")
        finally:
            self.close()

    def close(self) -> None:
        self._cases.close()
        self._suites.close()


def _name_part(name: str) -> str:
    return re.sub(r"\W", "_", name, flags=re.ASCII)


def write_runs(
    path: str,
    name: str,
    command: str,
    files: Sequence[str],
    runs: Sequence[tuple[str | None, Iterable[TestCase]]],
    nothing: str | None = None,
) -> None:
    """The report of the same files run against one implementation or several side by side: a
    suite per implementation and file, the test cases of each run in the order of its files; and
    a failed one saying ``nothing``, if given (that nothing was checked, and why). A run named
    (one of several) has its suites named ``NAME: file`` and its class names holding its name
    (``tarot_rules.conformance.NAME.legal_cards.excuse``); a run unnamed (``None``), neither."""
    suites, classnames, paths = [], [], []
    for run_name, _ in runs:
        named = command if run_name is None else f"{command}.{_name_part(run_name)}"
        for file in files:
            suites.append(file if run_name is None else f"{run_name}: {file}")
            classnames.append(classname(named, file))
            paths.append(file)
    report = JUnitReport(path, name, command, suites, classnames, paths)
    try:
        for i, (_, cases) in enumerate(runs):
            for case in cases:
                report.add(case._replace(file_no=i * len(files) + case.file_no))
        if nothing is not None:
            report.nothing_checked(nothing)
        report.write()
    finally:
        report.close()
