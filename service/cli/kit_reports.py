"""What a run of the conformance kit writes and prints, drawn from one model, the :class:`Matrix`.

A run of one implementation is a matrix of one column: its JUnit report is the same writer's,
and its terminal summary, Markdown report and HTML page keep the layout of a run of one
(:mod:`.conformance_report`), drawn from that column; several implementations are reported side
by side (:mod:`.matrix_report`, :mod:`.matrix_html`). So an implementation gets the same reports
whether ``--url``, ``--harness`` or a lone ``--implementation`` names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from .casefiles import CaseFile
from .conformance_matrix import Matrix
from .conformance_report import markdown, print_details, print_summary, write_html, write_markdown
from .matrix_html import write_matrix_html
from .matrix_report import markdown as matrix_markdown
from .matrix_report import print_matrix, write_junit


def write_reports(
    matrix: Matrix, files: Sequence[CaseFile], junit: str | None, report: str | None, html: str | None
) -> None:
    """The reports asked for: JUnit, Markdown and HTML, at their paths."""
    alone = matrix.alone()
    if junit is not None:
        write_junit(junit, files, matrix)
    if html is not None:
        if alone is not None:
            write_html(html, files, alone)
        else:
            write_matrix_html(html, matrix)
    if report is not None:
        write_markdown(report, markdown(alone) if alone is not None else matrix_markdown(matrix))


def print_run(matrix: Matrix, out: IO[str], details: bool) -> None:
    """The summary on the terminal, and the failures or disagreements with ``details``."""
    alone = matrix.alone()
    if alone is None:
        print_matrix(matrix, out, details=details)
        return
    print_summary(alone.summary, out)
    if details:
        print_details(alone.summary, out)
