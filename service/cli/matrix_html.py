"""The page of a run of several implementations: one self-contained HTML page with the matrix.

Rows are the kit's topics (its case files), grouped by operation, each opening (``<details>``)
onto its cases; columns are the implementations. A topic's cell counts its cases passed, failed
and skipped; a case's cell is a mark (passed, failed, skipped) whose reason shows on hover (its
``title``) and, for a failure or a skip, when the mark is opened. Above the matrix: the policy's
verdict, the implementations with their counts; below it, the cases where implementations
disagree (what each answered, what the kit expects and the rulebook's sections) and the cases
every implementation fails. As the page of one implementation (:mod:`.html`): everything inline,
no script, every value escaped.
"""

from __future__ import annotations

from typing import Any

from .conformance_matrix import Matrix, topic
from .conformance_run import Counts
from .matrix_report import kit_text, outcome_line, policy, said_text, sections, verdict
from .outcome import Outcome, Status
from .page import render
from .report_files import report_file
from .words import labelled, language, number, say

LISTED = 200
"""Rows of the disagreements and of the cases every implementation fails drawn; the others counted."""
MARKS = {Status.PASSED: "✓", Status.FAILED: "✗", Status.SKIPPED: "–"}

_TEMPLATE = """{% extends "page.html" %}
{% block style -%}
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
td.n { text-align: right; }
.matrix { --columns: 1fr; border: 1px solid #ccc; max-width: 100%; }
.line { display: grid; grid-template-columns: var(--columns); align-items: start; }
.line > * { padding: .2rem .5rem; border-top: 1px solid #eee; overflow-wrap: anywhere; }
.head { font-weight: 600; background: #f3f3f3; }
.operation { font-weight: 600; background: #fafafa; }
details.topic > summary { list-style: none; cursor: pointer; }
details.topic > summary::-webkit-details-marker { display: none; }
details.topic > summary .name::before { content: "▸ "; color: #777; }
details.topic[open] > summary .name::before { content: "▾ "; }
.case .name { padding-left: 1.6rem; font-family: ui-monospace, monospace; font-size: .9em; }
.cell { text-align: center; }
.passed { background: #e3f5e3; } .failed { background: #ffd9d9; } .skipped { background: #eee; color: #555; }
.mixed { background: #fff2cc; }
details.mark > summary { cursor: pointer; list-style: none; }
details.mark > summary::-webkit-details-marker { display: none; }
details.mark > p { text-align: left; font-size: .85em; margin: .2rem 0; }
{%- endblock %}
{% block body -%}
<p class="verdict {{ 'ok' if passed else 'bad' }}">{{ verdict }}</p>
<p class="intro">{{ t.intro }}</p>
<table class="implementations">
<tr><th>{{ t.implementation }}</th><th>{{ t.where }}</th><th>{{ t.cases }}</th><th>{{ t.passed }}</th>
<th>{{ t.failed }}</th><th>{{ t.skipped }}</th></tr>
{% for c in columns %}<tr><th>{{ c.name }}{% if c.required %} *{% endif %}</th>
<td><code>{{ c.where }}</code>{% if c.unreached %}<br><span class="bad">{{ c.unreached }}</span>{% endif %}</td>
<td class="n">{{ c.cases }}</td><td class="n">{{ c.passed }}</td><td class="n">{{ c.failed }}</td>
<td class="n">{{ c.skipped }}</td></tr>
{% endfor %}</table>
{% if columns|selectattr("required")|list %}<p>{{ t.legend }}</p>{% endif %}
<h2>{{ t.matrix }}</h2>
<div class="matrix" style="--columns: minmax(14rem, 2fr) repeat({{ columns|length }}, minmax(7rem, 1fr))">
<div class="line head"><span>{{ t.topic }}</span>
{%- for c in columns %}<span class="cell">{{ c.name }}</span>{% endfor %}</div>
{% for op in operations %}<div class="line operation"><span>{{ op.name }}</span>
{%- for cell in op.cells %}<span class="cell {{ cell.kind }}">{{ cell.text }}</span>{% endfor %}</div>
{% for tp in op.topics %}<details class="topic" id="topic-{{ tp.name }}">
<summary class="line"><span class="name">{{ tp.name }}</span>
{%- for cell in tp.cells %}<span class="cell {{ cell.kind }}">{{ cell.text }}</span>{% endfor %}</summary>
{% for case in tp.cases %}<div class="line case"><span class="name" title="{{ case.description }}">{{ case.id }}</span>
{%- for cell in case.cells %}
{%- if cell.open %}<details class="cell mark {{ cell.status }}">
<summary title="{{ cell.reason }}">{{ cell.mark }}</summary>
<p>{{ cell.reason }}</p></details>
{%- else %}<span class="cell mark {{ cell.status }}" title="{{ cell.reason }}">{{ cell.mark }}</span>{% endif %}
{%- endfor %}</div>
{% endfor %}</details>
{% endfor %}{% endfor %}</div>
<h2 id="disagreements">{{ disagreements_title }}</h2>
{% if disagreements %}<p>{{ t.disagreements_intro }}</p>
<table class="disagreements">
<tr><th>{{ t.case }}</th><th>{{ t.the_kit }}</th>{% for c in columns %}<th>{{ c.name }}</th>{% endfor %}</tr>
{% for d in disagreements %}<tr><td><code>{{ d.id }}</code><br><small>{{ d.description }}</small>
<br><small>{{ d.sections }}</small></td>
<td class="ok">{{ d.kit }}</td>{% for s in d.said %}<td class="{{ s.kind }}">{{ s.text }}</td>{% endfor %}</tr>
{% endfor %}</table>{% if disagreements_more %}<p>{{ disagreements_more }}</p>{% endif %}
{% else %}<p>{{ t.no_disagreements }}</p>{% endif %}
<h2 id="all-failed">{{ all_failed_title }}</h2>
{% if all_failed %}<p class="bad">{{ t.all_failed_intro }}</p>
<table class="all-failed">
<tr><th>{{ t.case }}</th>{% for c in columns %}<th>{{ c.name }}</th>{% endfor %}</tr>
{% for r in all_failed %}<tr><td><code>{{ r.id }}</code><br><small>{{ r.description }}</small>
<br><small>{{ r.sections }}</small></td>
{% for text in r.lines %}<td>{{ text }}</td>{% endfor %}</tr>
{% endfor %}</table>{% if all_failed_more %}<p>{{ all_failed_more }}</p>{% endif %}
{% else %}<p>{{ t.none_all_failed }}</p>{% endif %}
{%- endblock %}
"""


def _cell(counts: Counts) -> dict[str, str]:
    """A topic's or an operation's cell: its counts, coloured by how it went."""
    kind = (
        "failed"
        if counts.failed and not counts.passed
        else "mixed"
        if counts.failed
        else "skipped"
        if not counts.passed
        else "passed"
    )
    return {
        "kind": kind,
        "text": f"✓ {number(counts.passed)} · ✗ {number(counts.failed)} · – {number(counts.skipped)}",
    }


def _mark(outcome: Outcome) -> dict[str, Any]:
    status = outcome.status
    reason = say("matrix.html.passed") if status == Status.PASSED else outcome_line(outcome)
    return {"status": status.value, "mark": MARKS[status], "reason": reason, "open": status != Status.PASSED}


def _texts() -> dict[str, str]:
    return {
        "title": say("matrix.html.title"),
        "intro": say("matrix.html.intro"),
        "implementation": say("matrix.report.implementation"),
        "where": say("matrix.report.where"),
        "cases": say("html.cases"),
        "passed": say("html.passed"),
        "failed": say("html.failed"),
        "skipped": say("html.skipped"),
        "matrix": say("matrix.html.matrix"),
        "topic": say("matrix.report.topic"),
        "legend": say("matrix.html.legend"),
        "case": say("conformance.report.header.case"),
        "the_kit": say("matrix.report.the_kit"),
        "disagreements_intro": say("matrix.report.disagreements_intro"),
        "all_failed_intro": say("matrix.report.all_failed_intro"),
        "no_disagreements": say("matrix.no_disagreements"),
        "none_all_failed": say("matrix.none_all_failed"),
    }


def write_matrix_html(path: str, matrix: Matrix) -> None:
    columns = [
        {
            "name": c.name,
            "where": c.described,
            "unreached": c.unreached,
            "required": matrix.required == c.name,
            "cases": number(c.summary.total.cases),
            "passed": number(c.summary.total.passed),
            "failed": number(c.summary.total.failed),
            "skipped": number(c.summary.total.skipped),
        }
        for c in matrix.columns
    ]
    by_topic = matrix.by("topic")
    cases: dict[str, list[dict[str, Any]]] = {}
    operation_of: dict[str, str] = {}
    for row in matrix.rows:
        t = topic(row.case)
        operation_of[t] = row.case.operation
        cases.setdefault(t, []).append(
            {"id": row.case.id, "description": row.case.description, "cells": [_mark(o) for o in row.outcomes]}
        )
    operations = [
        {
            "name": op,
            "cells": [_cell(c) for c in counts],
            "topics": [
                {"name": t, "cells": [_cell(c) for c in tc], "cases": cases[t]}
                for t, tc in by_topic.items()
                if operation_of[t] == op
            ],
        }
        for op, counts in matrix.by("operation").items()
    ]
    disagreements = matrix.disagreements()
    failed = matrix.all_failed()
    page = render(
        _TEMPLATE,
        lang=language(),
        t=_texts(),
        passed=matrix.passed(),
        verdict=labelled(policy(matrix), verdict(matrix)),
        columns=columns,
        operations=operations,
        disagreements_title=say("matrix.report.disagreements", len(disagreements)),
        disagreements=[
            {
                "id": d.row.case.id,
                "description": d.row.case.description,
                "sections": sections(d.row.case),
                "kit": kit_text(d),
                "said": [{"kind": s.status.value, "text": said_text(s, d.pointers, d.expected)} for s in d.said],
            }
            for d in disagreements[:LISTED]
        ],
        disagreements_more=say("matrix.more", len(disagreements) - LISTED) if len(disagreements) > LISTED else "",
        all_failed_title=say("matrix.report.all_failed", len(failed)),
        all_failed=[
            {
                "id": r.case.id,
                "description": r.case.description,
                "sections": sections(r.case),
                "lines": [outcome_line(o) for o in r.outcomes],
            }
            for r in failed[:LISTED]
        ],
        all_failed_more=say("matrix.more", len(failed) - LISTED) if len(failed) > LISTED else "",
    )
    with report_file(path, say("report.html")) as f:
        f.write(page)
