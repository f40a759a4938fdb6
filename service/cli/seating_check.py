"""A tournament's seating held to its rules (rules.md §16.5), whatever its arrangement: what a
kit case's ``expect_seating`` asks of a seating answer.

A seating is not one answer: any that keeps the rules is right. So a seating case does not
expect the tables, it expects the answer's ``seated`` tables to be a seating of the request:
the positions asked for, each seating every player present once at tables of the expected
sizes numbered from 1, the seats a table of its size has; no forbidden pair (nor two teammates)
at a table; fixed players at their table; the tables of 3, and those of 5, in turn (after each
position, two players' counts of them differ by one at most); over the positions played and
seated, no more pairs meeting twice than the case allows and none more often than it allows;
and the answer's ``repeats`` listing exactly the pairs that meet more than once, with how many times.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from .outcome import Difference, Words
from .words import say

ORIENTATIONS = ("north", "west", "south", "east", "fifth")
SIZES = {"fours": 4, "threes": 3, "fives": 5}


def _table(value: Any) -> bool:
    """A seated table as the wire has it: its position, its number, its seats by orientation."""
    if not isinstance(value, dict):
        return False
    position, table, seats = value.get("position"), value.get("table"), value.get("seats")
    return (
        isinstance(position, int)
        and isinstance(table, int)
        and isinstance(seats, dict)
        and all(o in ORIENTATIONS and isinstance(p, str) for o, p in seats.items())
    )


def _seats_fit(seats: dict[str, str]) -> bool:
    """3 of the four orientations, the four, or the four and the fifth (§16.2)."""
    if len(seats) == 5:
        return True
    return len(seats) in (3, 4) and "fifth" not in seats


def seating_differences(request: dict[str, Any], answer: Any, expected: dict[str, Any]) -> list[Difference]:
    """Where the answer's seating breaks the rules or the case's bounds; empty when it keeps them."""
    seated = answer.get("seated") if isinstance(answer, dict) else None
    if not isinstance(seated, list) or not all(_table(t) for t in seated):
        return [Difference("/seated", Words(say("kit.seating.tables_of")), seated, why=say("kit.seating.not_tables"))]
    out: list[Difference] = []
    want = list(expected["positions"])
    got = sorted({t["position"] for t in seated})
    if got != want:
        out.append(Difference("/seated", want, got, why=say("kit.seating.positions")))
        return out
    players: list[str] = list(request["players"])
    present = set(players)
    forbidden = {frozenset(pair) for pair in request.get("forbidden") or [] if len(set(pair)) == 2}
    team_of = {entry["player"]: entry["team"] for entry in request.get("teams") or []}
    forbidden |= {frozenset((a, b)) for a in team_of for b in team_of if a < b and team_of[a] == team_of[b]}
    fixed = {entry["player"]: entry["table"] for entry in request.get("fixed") or []}
    sizes = Counter({SIZES[k]: v for k, v in expected["tables"].items() if v})
    history: list[list[list[str]]] = []
    count = max((t["position"] for t in request.get("played") or []), default=0)
    for number in range(1, count + 1):
        history.append([list(t["seats"].values()) for t in request["played"] if t["position"] == number])
    odd = {size: Counter(p for position in history for table in position if len(table) == size for p in table)
           for size in (3, 5)}  # fmt: skip
    for number in want:
        tables = [(i, t) for i, t in enumerate(seated) if t["position"] == number]
        first = f"/seated/{tables[0][0]}"
        if Counter(len(t["seats"]) for _, t in tables) != sizes:
            shape = sorted(len(t["seats"]) for _, t in tables)
            out.append(Difference(f"{first}/position", dict(expected["tables"]), shape, why=say("kit.seating.sizes")))
        numbers = sorted(t["table"] for _, t in tables)
        if numbers != list(range(1, len(tables) + 1)):
            out.append(Difference(f"{first}/position", list(range(1, len(tables) + 1)), numbers,
                                  why=say("kit.seating.numbers")))  # fmt: skip
        seen: Counter[str] = Counter()
        for i, t in tables:
            out += _table_differences(i, t, present, fixed, forbidden, seen)
        missing = [p for p in players if not seen[p]]
        if missing:
            out.append(Difference(f"{first}/position", players, missing, why=say("kit.seating.missing")))
        position = [list(t["seats"].values()) for _, t in tables]
        for size, had in odd.items():
            had.update(p for table in position if len(table) == size for p in table)
            counts = [had[p] for p in players]
            if max(counts) - min(counts) > 1:
                fewest, most = min(counts), max(counts)
                why = say("kit.seating.threes") if size == 3 else say("kit.seating.fives")
                out.append(Difference(f"{first}/position", fewest + 1, most, why=why))
        history.append(position)
    met: Counter[tuple[str, str]] = Counter()
    for position in history:
        for table in position:
            met.update(combinations(sorted(set(table)), 2))
    repeats = {pair: n for pair, n in met.items() if n > 1}
    if len(repeats) > expected["repeats"]:
        out.append(Difference("/seated", expected["repeats"], len(repeats), why=say("kit.seating.repeats")))
    most = max(repeats.values(), default=1)
    if most > expected["most_meetings"]:
        out.append(Difference("/seated", expected["most_meetings"], most, why=say("kit.seating.most_meetings")))
    listed = answer.get("repeats")
    said = (
        {(tuple(sorted(r["players"])), r["meetings"]) for r in listed if isinstance(r, dict)}
        if isinstance(listed, list) and all(isinstance(r, dict) and isinstance(r.get("players"), list) for r in listed)
        else None
    )
    if said != set(repeats.items()):
        truth = [{"players": list(pair), "meetings": n} for pair, n in sorted(repeats.items())]
        out.append(Difference("/repeats", truth, listed, unordered=True, why=say("kit.seating.listed")))
    return out


def _table_differences(
    i: int,
    t: dict[str, Any],
    present: set[str],
    fixed: dict[str, int],
    forbidden: set[frozenset[str]],
    seen: Counter[str],
) -> list[Difference]:
    """Where the answer's table ``i`` breaks the rules: its seats, a stranger, a player twice in
    its position (``seen`` counts them), away from his fixed table, beside one he must not meet."""
    out: list[Difference] = []
    seats: dict[str, str] = t["seats"]
    if not _seats_fit(seats):
        out.append(Difference(f"/seated/{i}/seats", sorted(seats), sorted(seats), why=say("kit.seating.seats")))
    for orientation, player in seats.items():
        seen[player] += 1
        at = f"/seated/{i}/seats/{orientation}"
        if player not in present:
            out.append(Difference(at, sorted(present), player, why=say("kit.seating.stranger")))
        elif seen[player] == 2:
            out.append(Difference(at, player, player, why=say("kit.seating.twice", player=player)))
        if player in fixed and fixed[player] != t["table"]:
            out.append(Difference(at, fixed[player], t["table"], why=say("kit.seating.fixed", player=player)))
    for pair in combinations(sorted(set(seats.values())), 2):
        if frozenset(pair) in forbidden:
            why = say("kit.seating.forbidden", first=pair[0], second=pair[1])
            out.append(Difference(f"/seated/{i}/seats", [], list(pair), why=why))
    return out


def valid_expectation(value: Any) -> bool:
    """A case's ``expect_seating``: the positions seated (a non-empty list of numbers), each
    position's tables by size, and the most repeated pairs and meetings of one pair allowed."""
    if not isinstance(value, dict) or set(value) != {"positions", "tables", "repeats", "most_meetings"}:
        return False
    positions, tables = value["positions"], value["tables"]

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    return (
        isinstance(positions, list)
        and len(positions) > 0
        and all(whole(p) and p > 0 for p in positions)
        and isinstance(tables, dict)
        and set(tables) == set(SIZES)
        and all(whole(v) for v in tables.values())
        and whole(value["repeats"])
        and whole(value["most_meetings"])
        and value["most_meetings"] >= 1
    )
