"""A run's report to look at: one self-contained HTML page (``replay --html``, ``conformance --html``).

The page is for the person reading a failed CI run, in a minute: a line that says how the run
went, then each failure, then the counts by file for the files where something failed. A
replay's page draws each faulty or disagreeing deal (and says what a line that is no deal
record is: where, which field, which fault); a conformance run's draws each failed case's answer
beside what the case expects, the expected first fault marked on the trick table beside the
faults the implementation found. A deal is drawn as a table of tricks (seats as columns, the
leader and the winner marked), its root faults marked on their cards with their consequences
folded under them, contracts, seats, rulings and final scores in words. Passing deals or cases
are counted, not drawn, and at most ``limit`` failures are drawn, so a long log gives a small page.
What a replay's records leave out (their ``unchecked``) is said under each failure drawn, and
in a table by code: the deals, the service's words once, and the deals' names (``limit`` of them).

Everything is inline (styles, no script, no font or image from elsewhere): the page opens from
a CI artifact with no network. Jinja2 writes it, escaping every value, since a record's id and
an implementation's messages are not trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .deal_words import card_face, deal_meta, is_seat, seat_heading
from .faults import Fault, head, roots
from .outcome import FieldProblem, Outcome, Status, shown, stops_line, unchecked_lines
from .page import render
from .report_files import check_writable, report_file
from .words import labelled, number, say

REPLAY = "replay"
CONFORMANCE = "conformance"
COLUMNS = {
    REPLAY: ("deals", "valid", "in_progress", "faulty", "malformed", "claims_disagree"),
    CONFORMANCE: ("cases", "passed", "failed", "skipped"),
}
"""The counts of each file: a replay's deals, or a conformance run's cases."""

DRAWN_BY_DEFAULT = 50
"""Failures drawn in full; the others are counted."""


class Expected(NamedTuple):
    """The first fault a case expects: marked on the table beside those the answer found."""

    code: Any
    trick: Any
    seat: Any


_TEMPLATE = """{% extends "page.html" %}
{% block style -%}
h2 small { font-weight: normal; color: #555; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: center; }
.card { display: inline-block; min-width: 2.6em; font-weight: 600; }
.red { color: #c00; } .black { color: #111; }
.trump { color: #6a1b9a; } .excuse { color: #806000; }
.lead { box-shadow: inset 5px 0 0 #777; } .lead .card::before { content: "▸"; color: #777; }
.win { outline: 2px solid #2a2; outline-offset: -2px; }
.fault { background: #ffd9d9; } .mark { color: #c00; font-size: .8em; vertical-align: super; }
.consequence { background: #fff2cc; }
.expected { outline: 3px dashed #1565c0; outline-offset: -4px; } .expected .hint { color: #1565c0; font-size: .8em; }
.meta td, .meta th, table.unchecked td { text-align: left; }
details { margin: .25rem 0 .5rem 1rem; }
{%- endblock %}
{% block body -%}
<p class="verdict {{ 'bad' if failed else 'ok' }}">{{ verdict }}</p>
{% if note %}<p class="bad note">{{ note }}</p>{% endif %}
{% for d in drawn %}
<h2 id="deal-{{ loop.index }}">{{ d.name }}{% if d.where %} <small>{{ d.where }}</small>{% endif %}</h2>
<p>{{ d.line }}</p>
{% if d.error %}<p class="bad">{{ d.error }}</p>{% endif %}
{% if d.unchecked %}<ul class="unchecked">{% for line in d.unchecked %}<li>{{ line }}</li>{% endfor %}</ul>{% endif %}
{% if d.errors %}<table class="fields">
<tr><th>{{ t.field }}</th><th>{{ t.code }}</th><th></th></tr>
{% for e in d.errors %}<tr><td>{{ e.pointer }}</td><td>{{ e.code }}</td>
<td>{{ e.message }}{% if e.hint %} {{ e.hint }}{% endif %}</td></tr>
{% endfor %}</table>{% endif %}
{% if d.meta %}<table class="meta">
{% for label, value in d.meta %}<tr><th>{{ label }}</th><td>{{ value }}</td></tr>
{% endfor %}</table>{% endif %}
{% if d.tricks %}<table class="tricks">
<tr><th>{{ t.trick }}</th>{% for s in d.seats %}<th>{{ s }}</th>{% endfor %}</tr>
{% for row in d.tricks %}<tr><th>{{ row.number }}</th>{% for cell in row.cells %}
<td class="{{ cell.classes }}" title="{{ cell.title }}">
{%- if cell.face.code %}<span class="card {{ cell.face.kind }}">{{ cell.face.rank }}{{ cell.face.symbol }}</span>
{%- endif %}
{%- if cell.mark %}<span class="mark">{{ cell.mark }}</span>{% endif %}
{%- if cell.hint %}<span class="hint">{{ cell.hint }}</span>{% endif %}</td>{% endfor %}</tr>
{% endfor %}</table>
<p>{{ t.legend }}</p>{% endif %}
{% if d.expected %}<p class="expected-fault">{{ d.expected }}</p>{% endif %}
{% if d.roots %}<h3>{{ t.root_faults }}</h3><ol>
{% for r in d.roots %}<li class="bad">{{ r.text }}{% if r.consequences %}<details><summary>{{ r.counted }}</summary><ul>
{% for c in r.consequences %}<li>{{ c }}</li>{% endfor %}</ul></details>{% endif %}</li>
{% endfor %}</ol>{% endif %}
{% if d.mismatches %}<h3>{{ t.differences }}</h3><table>
<tr><th>{{ t.pointer }}</th><th>{{ t.claimed }}</th><th>{{ t.correct }}</th><th></th></tr>
{% for m in d.mismatches %}<tr><td>{{ m.pointer }}</td><td class="bad">{{ m.claimed }}</td>
<td class="ok">{{ m.correct }}</td><td>{{ m.message }}</td></tr>
{% endfor %}</table>{% endif %}
{% endfor %}
{% if more %}<p>{{ more }}</p>{% endif %}
{% if allowed %}<h2 id="in-progress">{{ t.in_progress_allowed }}</h2>
<ul class="in-progress">
{% for a in allowed %}<li>{{ a.name }}{% if a.where %} <small>{{ a.where }}</small>{% endif %} — {{ a.line }}</li>
{% endfor %}</ul>{% if allowed_more %}<p>{{ allowed_more }}</p>{% endif %}{% endif %}
{% if unchecked %}<h2 id="unchecked">{{ t.unchecked }}</h2>
<table class="unchecked">
<tr><th>{{ t.unchecked_code }}</th><th>{{ t.deals }}</th><th>{{ t.unchecked_said }}</th>
<th>{{ t.unchecked_deals }}</th></tr>
{% for u in unchecked %}<tr><td>{{ u.code }}</td><td>{{ u.count }}</td>
<td>{% for m in u.messages %}<p>{{ m }}</p>{% endfor %}</td><td>{{ u.names }}</td></tr>
{% endfor %}</table>{% endif %}
{% if failing_files %}<h2>{{ t.by_file }}</h2>
<table class="summary">
<tr><th>{{ t.file }}</th>{% for key in columns %}<th>{{ t[key] }}</th>
{% endfor %}</tr>
{% for f in failing_files %}<tr><td>{{ f.name }}</td>{% for key in columns %}
<td>{{ f[key] }}</td>{% endfor %}</tr>
{% endfor %}</table>{% endif %}
<p>{{ passing }}</p>
{%- endblock %}
"""


class HtmlReport:
    """The page, filled as the outcomes come, written at the end."""

    def __init__(
        self, path: str, files: Sequence[str], language: str, limit: int = DRAWN_BY_DEFAULT, kind: str = REPLAY
    ) -> None:
        check_writable(path, say("report.html"))
        self.path = path
        self.language = language
        self.limit = limit
        self.kind = kind
        self.columns = list(COLUMNS[kind])
        self.files: list[dict[str, Any]] = [
            {"name": name, "failing": 0, **dict.fromkeys(self.columns, 0)} for name in files
        ]
        self.drawn: list[dict[str, Any]] = []
        self.not_drawn = 0
        self.passing = 0
        self.failing = 0
        self.allowed: list[dict[str, str]] = []
        """Deals in progress a replay allowed (``--allow-in-progress``): listed, not drawn."""
        self.allowed_unlisted = 0
        self.note = ""
        """What the run says once, under its verdict (why cases failed unasked), rather than on each case."""
        self.unchecked: dict[str, dict[str, Any]] = {}
        """A replay's deals by each code of their ``unchecked``: how many, the service's words for
        it (each once: they name nothing of the deal), the first ``limit`` deals' names."""

    def count(self, file_no: int, *columns: str, passed: bool = False) -> None:
        """Count one deal or case of file ``file_no`` in ``columns``; one that ``passed`` is not drawn."""
        for column in columns:
            self.files[file_no][column] += 1
        self.passing += passed
        self.failing += not passed
        self.files[file_no]["failing"] += not passed

    def add_failure(self, name: str, line: str, faults: Sequence[Fault], **details: Any) -> None:
        """Draw one failure (within the limit). ``details``: ``where`` (its file and line), ``rows``
        (the values that differ, each a ``pointer``, a ``claimed`` or found value, a ``correct``
        or expected one and a ``message``), ``drawing``, ``error``, ``errors`` (the located
        faults of a record that is no deal record), ``expected`` (:class:`Expected`) and
        ``unchecked`` (what the record leaves out, in words)."""
        if len(self.drawn) >= self.limit:
            self.not_drawn += 1
            return
        self.drawn.append(_drawn(name, line, faults, **details))

    def add(self, outcome: Outcome, name: str, where: str, line: str) -> None:
        """Count a replay's ``outcome``; draw it when it fails and the limit allows. ``name`` names
        the deal (its id, or its file and line), ``line`` says why it failed in one line."""
        malformed = outcome.status == Status.ERROR
        # The service's counts: a deal in progress is valid, and counted in progress too.
        verdict = (
            ["malformed"]
            if malformed
            else ["faulty"]
            if outcome.faults
            else ["valid", "in_progress"]
            if outcome.unfinished is not None
            else ["valid"]
        )
        disagree = ["claims_disagree"] if outcome.differences else []
        self.count(outcome.file_no, "deals", *verdict, *disagree, passed=outcome.passed)
        if outcome.in_progress_allowed:
            # No failure: listed under a heading of its own (within the same limit).
            if len(self.allowed) < self.limit:
                self.allowed.append({"name": name, "where": where, "line": stops_line(outcome)})
            else:
                self.allowed_unlisted += 1
        for code, message in outcome.unchecked:
            said = self.unchecked.setdefault(code, {"count": 0, "messages": [], "names": []})
            said["count"] += 1
            if message not in said["messages"] and len(said["messages"]) < self.limit:
                said["messages"].append(message)
            if len(said["names"]) < self.limit:
                said["names"].append(name)
        if outcome.passed:
            return
        rows = [
            {
                "pointer": d.pointer,
                "claimed": shown(d.got, d.pointer),
                "correct": shown(d.expected, d.pointer),
                "message": d.why,
            }
            for d in outcome.differences
        ]
        self.add_failure(
            name,
            line,
            outcome.faults,
            where=where,
            rows=rows,
            drawing=outcome.drawing,
            error=outcome.note if malformed else "",
            errors=outcome.errors,
            unchecked=unchecked_lines(outcome),
        )

    def _verdict(self) -> str:
        """How the run went, in one line."""
        total = self.passing + self.failing
        conformance = self.kind == CONFORMANCE
        if not total:
            return say("html.conformance.nothing") if conformance else say("html.replay.nothing")
        if not self.failing:
            return say("html.conformance.all_passed", total) if conformance else say("html.replay.all_passed", total)
        if conformance:
            return say("html.conformance.failed", self.failing, total=number(total))
        return say("html.replay.failed", self.failing, total=number(total))

    def _passing(self) -> str:
        if not self.passing:
            return ""
        return (
            say("html.conformance.passing", self.passing)
            if self.kind == CONFORMANCE
            else say("html.agreeing", self.passing)
        )

    def _unchecked(self) -> list[dict[str, Any]]:
        """The rows of what the deals leave out: the most frequent code first."""
        rows = []
        for code, said in sorted(self.unchecked.items(), key=lambda item: (-item[1]["count"], item[0])):
            names, more = ", ".join(said["names"]), said["count"] - len(said["names"])
            rows.append(
                {
                    "code": code,
                    "count": number(said["count"]),
                    "messages": said["messages"],
                    "names": say("html.unchecked_more", more, names=names) if more else names,
                }
            )
        return rows

    def write(self) -> None:
        texts = _texts(self.kind)
        page = render(
            _TEMPLATE,
            lang=self.language,
            columns=self.columns,
            t=texts,
            verdict=self._verdict(),
            note=self.note,
            failed=self.failing > 0 or self.passing == 0,
            failing_files=[f for f in self.files if f["failing"]],
            drawn=self.drawn,
            more=say("html.more", self.not_drawn) if self.not_drawn else "",
            allowed=self.allowed,
            allowed_more=say("html.in_progress_more", self.allowed_unlisted) if self.allowed_unlisted else "",
            unchecked=self._unchecked(),
            passing=self._passing(),
        )
        with report_file(self.path, say("report.html")) as f:
            f.write(page)


def _texts(kind: str) -> dict[str, str]:
    """The page's words, in the command's language (each key said as it is, for the catalog test)."""
    texts = {
        "file": say("html.file"),
        "by_file": say("html.by_file"),
        "trick": say("html.trick"),
        "field": say("html.field"),
        "code": say("html.code"),
        "deals": say("html.deals"),
        "valid": say("html.valid"),
        "in_progress": say("html.in_progress"),
        "in_progress_allowed": say("html.in_progress_allowed"),
        "faulty": say("html.faulty"),
        "malformed": say("html.malformed"),
        "claims_disagree": say("html.claims_disagree"),
        "cases": say("html.cases"),
        "passed": say("html.passed"),
        "failed": say("html.failed"),
        "skipped": say("html.skipped"),
        "unchecked": say("html.unchecked"),
        "unchecked_code": say("html.unchecked_code"),
        "unchecked_said": say("html.unchecked_said"),
        "unchecked_deals": say("html.unchecked_deals"),
    }
    if kind == CONFORMANCE:
        return texts | {
            "title": "tarot-rules conformance",
            "legend": say("html.conformance.legend"),
            "root_faults": say("html.conformance.root_faults"),
            "differences": say("html.conformance.differences"),
            "pointer": say("html.conformance.pointer"),
            "claimed": say("html.got"),
            "correct": say("html.expected"),
        }
    return texts | {
        "title": "tarot-rules replay",
        "legend": say("html.legend"),
        "root_faults": say("html.root_faults"),
        "differences": say("html.claims_disagree"),
        "pointer": say("html.pointer"),
        "claimed": say("html.claimed"),
        "correct": say("html.correct"),
    }


def _drawn(
    name: str,
    line: str,
    faults: Sequence[Fault],
    *,
    where: str = "",
    rows: Sequence[dict[str, str]] = (),
    drawing: dict[str, Any] | None = None,
    error: str = "",
    errors: Sequence[FieldProblem] = (),
    expected: Expected | None = None,
    unchecked: Sequence[str] = (),
) -> dict[str, Any]:
    """What the page shows of one failure (``unchecked``: what its record leaves out, in words)."""
    d: dict[str, Any] = {
        "name": name,
        "where": where,
        "line": line,
        "error": error,
        "errors": list(errors),
        "meta": [],
        "tricks": [],
        "seats": [],
        "roots": [],
        "mismatches": list(rows),
        "expected": "",
        "unchecked": list(unchecked),
    }
    found = roots(faults)
    marks: dict[tuple[int, int], tuple[str, str, str, str | None]] = {}
    for n, root in enumerate(found, 1):
        fault = root.fault
        if fault.trick is not None and fault.seat is not None:
            marks[(fault.trick, fault.seat)] = ("fault", str(n), fault.message, fault.card)
        for c in root.consequences:
            if c.trick is not None and c.seat is not None:
                marks.setdefault((c.trick, c.seat), ("consequence", "", c.message, c.card))
        d["roots"].append(
            {
                "text": fault.message or fault.code,
                "counted": say("html.consequences", len(root.consequences)),
                "consequences": [c.message or c.code for c in root.consequences],
            }
        )
    where_expected = None
    if expected is not None and isinstance(expected.code, str):
        trick = expected.trick if is_seat(expected.trick) else None
        seat = expected.seat if is_seat(expected.seat) else None
        d["expected"] = labelled(say("html.expected_fault"), head(Fault(expected.code, trick, seat, None, "")))
        if trick is not None and seat is not None:
            where_expected = (trick, seat)
    if drawing is None:
        return d
    players = drawing["players"]
    taker, partner = drawing["taker"], drawing["partner"]
    d["seats"] = [seat_heading(s, taker, partner) for s in range(players)]
    d["meta"] = deal_meta(drawing)
    for t, trick in enumerate(drawing["tricks"]):
        d["tricks"].append({"number": t + 1, "cells": _trick_cells(t, trick, players, marks, where_expected)})
    return d


def _trick_cells(
    t: int,
    trick: dict[str, Any],
    players: int,
    marks: dict[tuple[int, int], tuple[str, str, str, str | None]],
    where_expected: tuple[int, int] | None,
) -> list[dict[str, Any]]:
    """Trick ``t`` seat by seat: its card, who led and who won it, the fault marked on it, and
    the fault the case expected there."""
    leader, cards, winner = trick["leader"], trick["cards"], trick.get("winner")
    cells = []
    for seat in range(players):
        j = (seat - leader) % players
        code = cards[j] if j < len(cards) else None
        classes = []
        if seat == leader:
            classes.append("lead")
        if seat == winner:
            classes.append("win")
        kind, mark, title, card = marks.get((t, seat), ("", "", "", None))
        if kind and card != code:  # a fault of that seat, not of this card (a poignée's)
            kind, mark, title = "", "", ""
        if kind:
            classes.append(kind)
        hint = ""
        if (t, seat) == where_expected:
            classes.append("expected")
            hint = say("html.expected_mark")
        cell = {"face": card_face(code), "classes": " ".join(classes), "mark": mark, "title": title}
        cells.append({**cell, "hint": hint})
    return cells
