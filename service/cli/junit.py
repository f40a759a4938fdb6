"""The JUnit XML report of a replay: one ``<testsuite>`` per file, one ``<testcase>`` per record.

A deal that is faulty or whose claims disagree is a ``<failure>`` (one, listing both when it
is both); a malformed record is an ``<error>``. Each element is written with ElementTree as
its record comes, into temporary files, and the report is put together at the end, when
every suite's counts are known: memory stays flat however many records there are.

Only the failures' messages and texts are in the command's language: the names, types and
counts are the same in every language, for the tools that compare reports.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import IO

from .errors import CommandError, reason
from .outcomes import FAULTY, MALFORMED, Outcome, error_details, error_message, failure_details, failure_message
from .words import say

REPORT_NAME = "tarot-rules replay"
"""The report's name: the command's, in every language."""

# XML 1.0 has no way to write these, not even escaped; a record's id may hold them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with what XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _start_tag(element: ET.Element) -> str:
    # ElementTree writes whole elements only: the start tag is the element, empty, less its end tag.
    whole = ET.tostring(element, encoding="unicode", short_empty_elements=False)
    return whole[: -len(f"</{element.tag}>")]


class JUnitReport:
    def __init__(self, path: str, suites: Sequence[str]) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise CommandError(say("junit.not_writable", path=path, reason=say("junit.is_a_directory")))
        if not os.path.isdir(directory):
            raise CommandError(say("junit.no_directory", path=path))
        if not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            raise CommandError(say("junit.not_writable", path=path, reason=say("junit.permission")))
        self.path = path
        self._names = list(suites)
        self._current = -1
        self._counts = [0, 0, 0]  # the current suite's tests, failures, errors
        self._totals = [0, 0, 0]
        # Open across the replay; close() or write() closes them.
        self._cases: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._suites: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115

    def _next_suite(self) -> None:
        if self._current >= 0:
            tests, failures, errors = self._counts
            suite = ET.Element(
                "testsuite",
                name=xml_text(self._names[self._current]),
                tests=str(tests),
                failures=str(failures),
                errors=str(errors),
                skipped="0",
            )
            self._suites.write(f"  {_start_tag(suite)}\n")
            self._cases.seek(0)
            shutil.copyfileobj(self._cases, self._suites)
            self._suites.write("  </testsuite>\n")
            self._cases.seek(0)
            self._cases.truncate()
            self._totals = [t + c for t, c in zip(self._totals, self._counts, strict=True)]
        self._current += 1
        self._counts = [0, 0, 0]

    def add(self, outcome: Outcome, name: str) -> None:
        """One record's test case, named ``name``; records come in input order."""
        while self._current < outcome.file_no:
            self._next_suite()
        case = ET.Element("testcase", name=xml_text(name), classname=xml_text(self._names[outcome.file_no]))
        self._counts[0] += 1
        if outcome.verdict == MALFORMED:
            self._counts[2] += 1
            error = ET.SubElement(case, "error", message=xml_text(error_message(outcome)), type=MALFORMED)
            error.text = xml_text(error_details(outcome))
        elif not outcome.passed:
            self._counts[1] += 1
            kinds = [FAULTY] if outcome.verdict == FAULTY else []
            kinds += ["claims"] if outcome.agree is False else []
            failure = ET.SubElement(case, "failure", message=xml_text(failure_message(outcome)), type=" ".join(kinds))
            failure.text = xml_text(failure_details(outcome))
        self._cases.write(f"    {ET.tostring(case, encoding='unicode')}\n")

    def write(self) -> None:
        """Write the report (every file gets its suite, even one without records)."""
        while self._current < len(self._names):
            self._next_suite()
        tests, failures, errors = self._totals
        root = ET.Element("testsuites", name=REPORT_NAME, tests=str(tests), failures=str(failures), errors=str(errors))
        try:
            with open(self.path, "w", encoding="utf-8") as out:
                out.write('<?xml version="1.0" encoding="utf-8"?>\n')
                out.write(f"{_start_tag(root)}\n")
                self._suites.seek(0)
                shutil.copyfileobj(self._suites, out)
                out.write("</testsuites>\n")
        except OSError as exc:
            raise CommandError(say("junit.not_writable", path=self.path, reason=reason(exc))) from None
        finally:
            self.close()

    def close(self) -> None:
        self._cases.close()
        self._suites.close()
