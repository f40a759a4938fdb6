"""A replay's report to look at: one self-contained HTML page (``tarot-rules replay --html``).

The page is for the person reading a failed CI replay: a summary by file, then each faulty or
disagreeing deal drawn as a table of tricks (seats as columns, tricks as rows, the leader and
the winner marked), its root faults marked on their cards with the service's words and their
consequences folded under them, the claims that differ beside the right values, and the
ruling with its final score. Deals that pass are counted, not drawn, and at most ``limit``
failing deals are drawn, so a long log gives a small page.

Everything is inline (styles, no script, no font or image from elsewhere): the page opens from
a CI artifact with no network. Jinja2 writes it, escaping every value, since a record's id and
an implementation's messages are not trusted.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from jinja2 import Environment

from .errors import CommandError
from .faults import Fault, roots
from .outcome import Outcome, Status, shown
from .words import say

REPLAY_COLUMNS = ("deals", "valid", "faulty", "malformed", "claims_disagree")
CONFORMANCE_COLUMNS = ("cases", "passed", "failed", "skipped")
"""The counts of the summary, per file: a replay's deals, or a conformance run's cases."""

DRAWN_BY_DEFAULT = 50
"""Failing deals drawn in full; the others are counted."""

_SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}


def card_face(code: str | None) -> dict[str, str]:
    """How a card code is drawn: its rank, its suit's symbol and a class (suit colour, trump, Excuse)."""
    if not code:
        return {"rank": "", "symbol": "", "kind": "none", "code": ""}
    if code == "EX":
        return {"rank": "Exc", "symbol": "★", "kind": "excuse", "code": code}
    rank, suit = code[:-1], code[-1]
    if suit == "T":
        return {"rank": rank, "symbol": "T", "kind": "trump", "code": code}
    symbol, colour = _SUITS.get(suit, ("?", "black"))
    return {"rank": {"1": "A"}.get(rank, rank), "symbol": symbol, "kind": colour, "code": code}


_TEMPLATE = """<!DOCTYPE html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ t.title }}</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-top: 1px solid #ccc; padding-top: 1rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: center; }
th { background: #f3f3f3; }
.card { display: inline-block; min-width: 2.6em; font-weight: 600; }
.red { color: #c00; } .black { color: #111; }
.trump { color: #06c; } .excuse { color: #806000; }
.lead { background: #eef5ff; } .win { outline: 2px solid #2a2; outline-offset: -2px; }
.fault { background: #ffd9d9; } .fault .mark { color: #c00; font-size: .8em; vertical-align: super; }
.consequence { background: #fff2cc; }
.meta td, .meta th { text-align: left; }
.ok { color: #2a2; } .bad { color: #c00; }
details { margin: .25rem 0 .5rem 1rem; }
</style>
</head>
<body>
<h1>{{ t.title }}</h1>
<table class="summary">
<tr><th>{{ t.file }}</th>{% for key in columns %}<th>{{ t[key] }}</th>
{% endfor %}</tr>
{% for f in files %}<tr><td>{{ f.name }}</td>{% for key in columns %}
<td>{{ f[key] }}</td>{% endfor %}</tr>
{% endfor %}</table>
<p>{{ t.agreeing }}</p>
{% for d in drawn %}
<h2 id="deal-{{ loop.index }}">{{ d.name }}</h2>
<p>{{ d.line }}</p>
{% if d.error %}<p class="bad">{{ d.error }}</p>{% endif %}
{% if d.meta %}<table class="meta">
{% for label, value in d.meta %}<tr><th>{{ label }}</th><td>{{ value }}</td></tr>
{% endfor %}</table>{% endif %}
{% if d.tricks %}<table class="tricks">
<tr><th>{{ t.trick }}</th>{% for s in d.seats %}<th>{{ s }}</th>{% endfor %}</tr>
{% for row in d.tricks %}<tr><th>{{ row.number }}</th>{% for cell in row.cells %}
<td class="{{ cell.classes }}" title="{{ cell.title }}">
{%- if cell.face.code %}<span class="card {{ cell.face.kind }}">{{ cell.face.rank }}{{ cell.face.symbol }}</span>
{%- endif %}
{%- if cell.mark %}<span class="mark">{{ cell.mark }}</span>{% endif %}</td>{% endfor %}</tr>
{% endfor %}</table>
<p>{{ t.legend }}</p>{% endif %}
{% if d.roots %}<h3>{{ t.root_faults }}</h3><ol>
{% for r in d.roots %}<li class="bad">{{ r.text }}{% if r.consequences %}<details><summary>{{ r.counted }}</summary><ul>
{% for c in r.consequences %}<li>{{ c }}</li>{% endfor %}</ul></details>{% endif %}</li>
{% endfor %}</ol>{% endif %}
{% if d.mismatches %}<h3>{{ t.claims_disagree }}</h3><table>
<tr><th>{{ t.pointer }}</th><th>{{ t.claimed }}</th><th>{{ t.correct }}</th><th></th></tr>
{% for m in d.mismatches %}<tr><td>{{ m.pointer }}</td><td class="bad">{{ m.claimed }}</td>
<td class="ok">{{ m.correct }}</td><td>{{ m.message }}</td></tr>
{% endfor %}</table>{% endif %}
{% endfor %}
{% if more %}<p>{{ more }}</p>{% endif %}
</body>
</html>
"""


class HtmlReport:
    """The page, filled as the outcomes come, written at the end."""

    def __init__(
        self,
        path: str,
        files: Sequence[str],
        language: str,
        limit: int = DRAWN_BY_DEFAULT,
        columns: Sequence[str] = REPLAY_COLUMNS,
        title: str = "tarot-rules replay",
        values: tuple[str, str] | None = None,
    ) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(directory) or not os.access(directory, os.W_OK):
            raise CommandError(say("html.not_writable", path=path))
        self.path = path
        self.language = language
        self.limit = limit
        self.title = title
        self.values = values
        """The headings of a failure's two values: claimed and correct, or found and expected."""
        self.columns = list(columns)
        self.files: list[dict[str, Any]] = [{"name": name, **dict.fromkeys(self.columns, 0)} for name in files]
        self.drawn: list[dict[str, Any]] = []
        self.not_drawn = 0
        self.passing = 0

    def count(self, file_no: int, *columns: str, passed: bool = False) -> None:
        """Count one deal or case of file ``file_no`` in ``columns``; one that ``passed`` is not drawn."""
        for column in columns:
            self.files[file_no][column] += 1
        self.passing += passed

    def add_failure(
        self,
        name: str,
        line: str,
        faults: Sequence[Fault],
        rows: Sequence[dict[str, str]],
        drawing: dict[str, Any] | None,
        error: str = "",
    ) -> None:
        """Draw one failure (within the limit): ``rows`` are the values that differ, each with
        its ``pointer``, ``claimed`` (or expected) and ``correct`` (or found) value."""
        if len(self.drawn) >= self.limit:
            self.not_drawn += 1
            return
        self.drawn.append(_drawn(name, line, faults, rows, drawing, error))

    def add(self, outcome: Outcome, name: str, line: str) -> None:
        """Count a replay's ``outcome``; draw it when it fails and the limit allows. ``name`` names
        the deal (its id, or its file and line), ``line`` says why it failed in one line."""
        malformed = outcome.status == Status.ERROR
        verdict = "malformed" if malformed else "faulty" if outcome.faults else "valid"
        disagree = ["claims_disagree"] if outcome.differences else []
        self.count(outcome.file_no, "deals", verdict, *disagree, passed=outcome.passed)
        if outcome.passed:
            return
        rows = [
            {"pointer": d.pointer, "claimed": shown(d.got), "correct": shown(d.expected), "message": d.why}
            for d in outcome.differences
        ]
        self.add_failure(name, line, outcome.faults, rows, outcome.drawing, outcome.note if malformed else "")

    def write(self) -> None:
        texts = _texts()
        texts["title"] = self.title
        if self.values is not None:
            texts["claimed"], texts["correct"] = self.values
        texts["agreeing"] = say("html.agreeing", self.passing)
        page = _ENVIRONMENT.from_string(_TEMPLATE).render(
            lang=self.language,
            columns=self.columns,
            t=texts,
            files=self.files,
            drawn=self.drawn,
            more=say("html.more", self.not_drawn) if self.not_drawn else "",
        )
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(page)


_ENVIRONMENT = Environment(autoescape=True)


def _texts() -> dict[str, str]:
    """The page's words, in the command's language (each key said as it is, for the catalog test)."""
    return {
        "file": say("html.file"),
        "claims_disagree": say("html.claims_disagree"),
        "trick": say("html.trick"),
        "legend": say("html.legend"),
        "root_faults": say("html.root_faults"),
        "pointer": say("html.pointer"),
        "claimed": say("html.claimed"),
        "correct": say("html.correct"),
        "deals": say("html.deals"),
        "valid": say("html.valid"),
        "faulty": say("html.faulty"),
        "malformed": say("html.malformed"),
        "cases": say("html.cases"),
        "passed": say("html.passed"),
        "failed": say("html.failed"),
        "skipped": say("html.skipped"),
    }


def _drawn(
    name: str,
    line: str,
    faults: Sequence[Fault],
    rows: Sequence[dict[str, str]],
    drawing: dict[str, Any] | None,
    error: str,
) -> dict[str, Any]:
    """What the page shows of one failure."""
    d: dict[str, Any] = {
        "name": name,
        "line": line,
        "error": error,
        "meta": [],
        "tricks": [],
        "seats": [],
        "roots": [],
        "mismatches": list(rows),
    }
    found = roots(faults)
    marks: dict[tuple[int, int], tuple[str, str, str, str | None]] = {}
    for number, root in enumerate(found, 1):
        fault = root.fault
        if fault.trick is not None and fault.seat is not None:
            marks[(fault.trick, fault.seat)] = ("fault", str(number), fault.message, fault.card)
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
    if drawing is None:
        return d
    players = drawing["players"]
    d["seats"] = [say("html.seat", seat=s) for s in range(players)]
    d["meta"] = _meta(drawing)
    for t, trick in enumerate(drawing["tricks"]):
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
            cells.append({"face": card_face(code), "classes": " ".join(classes), "mark": mark, "title": title})
        d["tricks"].append({"number": t + 1, "cells": cells})
    return d


def _meta(drawing: dict[str, Any]) -> list[tuple[str, str]]:
    # The drawing may come from an answer under test: only what has the expected type is shown.
    meta = [(say("html.contract"), str(drawing["contract"] or "—"))]
    taker, partner = drawing["taker"], drawing["partner"]
    meta.append((say("html.taker"), say("html.seat", seat=taker) if _seat(taker) else "—"))
    if _seat(partner):
        meta.append((say("html.partner"), say("html.seat", seat=partner)))
    for label, key in ((say("html.dog"), "dog"), (say("html.discard"), "discard")):
        cards = drawing.get(key) or []
        meta.append((label, " ".join(_plain_face(c) for c in cards if isinstance(c, str)) or "—"))
    ruling = drawing.get("ruling")
    if ruling:
        meta.append((say("html.ruling"), str(ruling.get("message") or ruling.get("decision", ""))))
        meta.append((say("html.final_score"), _marks(ruling.get("scores"))))
    elif drawing.get("scores") is not None:
        meta.append((say("html.final_score"), _marks(drawing["scores"])))
    return meta


def _seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _marks(scores: Any) -> str:
    return " ".join(str(s) for s in scores) if isinstance(scores, list) else "—"


def _plain_face(code: str) -> str:
    face = card_face(code)
    return f"{face['rank']}{face['symbol']}"
