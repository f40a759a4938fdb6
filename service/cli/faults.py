"""A deal's faults as the command tells them to people: the root faults first, each with its consequences.

An evaluation lists its violations in deal order, and marks each one that only follows from an
earlier fault: ``caused_by`` is the index, in the same list, of that root fault (rules.md §12);
``null`` marks a root. One card played wrongly can bring a dozen violations after it, and the
reader of a failed deal wants the few that started it: every report of the command (the replay's
text and JUnit report, the conformance runner's) names the roots first, each with the number of
violations that follow from it, and lists those consequences after the roots, under their root.

The list comes from this service or from an implementation under test, so nothing in it is
trusted: a ``caused_by`` that names no earlier violation makes its violation a root of its own
(it is never dropped), and one that names an earlier consequence counts for that consequence's
root. Machine-readable outputs (JSON, the JUnit report's names and counts) are not made here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from .words import labelled, say, value_text

ROOTS_NAMED = 3
"""Root faults named in a one-line summary; the others are counted."""


class Fault(NamedTuple):
    """One violation of an evaluation, as reported."""

    code: str
    trick: int | None
    """0-based, as on the wire; texts say it from 1."""
    seat: int | None
    card: str | None
    message: str
    """The service's words for it (may be empty in an answer under test)."""
    caused_by: int | None = None


class Root(NamedTuple):
    """A root fault and the faults that follow from it, in deal order."""

    fault: Fault
    consequences: tuple[Fault, ...]


def _index(value: Any) -> int | None:
    # JSON has no integer booleans; Python's bool is an int.
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fault_of(violation: Any) -> Fault:
    """A violation of an answer (a JSON object), whatever it holds: what is not of its type is left out."""
    if not isinstance(violation, dict):
        return Fault(json.dumps(violation, ensure_ascii=False), None, None, None, "")
    code = violation.get("code")
    card = violation.get("card")
    message = violation.get("message")
    return Fault(
        code if isinstance(code, str) else json.dumps(code, ensure_ascii=False),
        _index(violation.get("trick")),
        _index(violation.get("seat")),
        card if isinstance(card, str) else None,
        message if isinstance(message, str) else "",
        _index(violation.get("caused_by")),
    )


def faults_of(answer: Any) -> tuple[Fault, ...]:
    """The violations of an evaluation answer; none when it has no list of them."""
    violations = answer.get("violations") if isinstance(answer, dict) else None
    return tuple(fault_of(v) for v in violations) if isinstance(violations, list) else ()


def roots(faults: Sequence[Fault]) -> list[Root]:
    """The root faults in deal order, each with its consequences."""
    root_of: list[int] = []
    for i, fault in enumerate(faults):
        cause = fault.caused_by
        root_of.append(root_of[cause] if cause is not None and 0 <= cause < i else i)
    followers: dict[int, list[Fault]] = {i: [] for i, root in enumerate(root_of) if root == i}
    for i, root in enumerate(root_of):
        if root != i:
            followers[root].append(faults[i])
    return [Root(faults[i], tuple(found)) for i, found in followers.items()]


def name(fault: Fault) -> str:
    """The fault's name in the language (« renonce », "failure to trump"); a code the rulebook does
    not have (an implementation under test may answer one) is shown as it came, quoted."""
    return value_text(fault.code, "violation")


def head(fault: Fault) -> str:
    """``renounce at trick 4 by seat 2``: the fault's name, and where, in the words of the language."""
    if fault.trick is not None and fault.seat is not None:
        return say("fault.at_trick_by_seat", code=name(fault), trick=fault.trick, seat=fault.seat)
    if fault.trick is not None:
        return say("fault.at_trick", code=name(fault), trick=fault.trick)
    if fault.seat is not None:
        return say("fault.by_seat", code=name(fault), seat=fault.seat)
    return name(fault)


def _counted(text: str, root: Root) -> str:
    """``text — and 6 consequences`` (``text`` alone for a root without any)."""
    if not root.consequences:
        return text
    return say("fault.with_consequences", len(root.consequences), fault=text)


def _said(fault: Fault, root: Root | None = None) -> str:
    """``renounce at trick 4 by seat 2, card 5H — and 6 consequences: the service's words``."""
    text = head(fault)
    if fault.card is not None:
        text = say("fault.with_card", fault=text, card=fault.card)
    if root is not None:
        text = _counted(text, root)
    return labelled(text, fault.message) if fault.message else text


def summary(faults: Sequence[Fault]) -> str:
    """One line: the root faults, each with its count of consequences
    (``renounce at trick 4 by seat 2 — and 6 consequences``)."""
    found = roots(faults)
    if not found:
        return ""
    line = _counted(head(found[0].fault), found[0])
    for root in found[1:ROOTS_NAMED]:
        line = say("fault.then", faults=line, fault=_counted(head(root.fault), root))
    if len(found) > ROOTS_NAMED:
        line = say("fault.more_roots", len(found) - ROOTS_NAMED, faults=line)
    return line


def details(faults: Sequence[Fault], indent: str = "  ", listed: int | None = None) -> Iterator[str]:
    """Every root fault, with its count of consequences and the service's words for it; then, root
    by root, its consequences, a level further in. ``listed``: at most this many consequences of
    each root are written out, the others counted."""
    found = roots(faults)
    for root in found:
        yield indent + _said(root.fault, root)
    for root in found:
        if not root.consequences:
            continue
        yield indent + say("text.heading", label=say("fault.consequences_of", fault=head(root.fault)))
        shown = root.consequences if listed is None else root.consequences[:listed]
        for fault in shown:
            yield f"{indent}  {_said(fault)}"
        if len(shown) < len(root.consequences):
            yield f"{indent}  " + say("fault.more_consequences", len(root.consequences) - len(shown))
