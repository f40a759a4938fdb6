"""The reference model of a duplicate tournament's movement (docs/rules.md §17.1–17.2), read from
the rulebook apart from service/rules: the étuis' labels, where each étui set is at each
position, what any right movement keeps (every player once a position at his own orientation,
four to a table, one set a table, no étui played twice), the repeats counted by brute force, and
the faults of a movement made elsewhere (the check form).

It works on the wire's JSON: sittings as ``{"position", "table", "players": {orientation:
player}, "etuis": [numbers]}``, orientations in playing order north, west, south, east.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .cards import Json

NWSE = ("north", "west", "south", "east")


def label(number: int) -> Json:
    """§17.2: the taker turns with the number; the dealer sits ⌊(n − 1)/4⌋ seats after him; the
    dealer's right (next in playing order) leads."""
    n = number - 1
    taker, dealer = n % 4, (n % 4 + n // 4) % 4
    return {"number": number, "taker": NWSE[taker], "dealer": NWSE[dealer], "leader": NWSE[(dealer + 1) % 4]}


def etui_set_at(tables: int, per: int, position: int, table: int) -> list[int]:
    """§17.1 (p. 18): set ``j`` at table ``(j − p) mod T`` (from 0), so table ``t`` at position
    ``p`` plays set ``(t + p) mod T``: étuis ``jE + 1`` … ``jE + E``."""
    j = (table - 1 + position - 1) % tables
    return list(range(j * per + 1, j * per + per + 1))


def shape(request: Json) -> tuple[int, int, int]:
    tables = request["tables"]
    return tables, request.get("positions") or tables, request.get("etuis_per_position", 1)


def repeats(sittings: list[Json]) -> list[Json]:
    """Two players meeting more than once, by brute force, in the order of the positions where they
    meet, then of the players."""
    met: dict[tuple[str, str], list[int]] = {}
    for s in sittings:
        seated = sorted({p for p in s["players"].values() if p})
        for pair in combinations(seated, 2):
            met.setdefault(pair, []).append(s["position"])
    found = [(sorted(at), pair) for pair, at in met.items() if len(at) > 1]
    found.sort()
    return [{"players": list(pair), "meetings": len(at), "positions": at} for at, pair in found]


def etui_repeats(sittings: list[Json]) -> list[Json]:
    played: dict[tuple[str, int], set[int]] = {}
    for s in sittings:
        for p in {p for p in s["players"].values() if p}:
            for n in set(s["etuis"]):
                played.setdefault((p, n), set()).add(s["position"])
    found = sorted((sorted(at), p, n) for (p, n), at in played.items() if len(at) > 1)
    return [{"player": p, "etui": n, "positions": at} for at, p, n in found]


def movement_problems(request: Json, answer: Json) -> list[str]:
    """What a made movement breaks of §17.1–17.2, whatever its arrangement of the players."""
    t, p, e = shape(request)
    lines = request["players"]
    own = {pid: o for o, line in lines.items() for pid in line}
    wrong = []
    sittings = answer["sittings"]
    if [(s["position"], s["table"]) for s in sittings] != [(q, j) for q in range(1, p + 1) for j in range(1, t + 1)]:
        return ["the sittings are not position by position, table by table"]
    for s in sittings:
        if s["etuis"] != etui_set_at(t, e, s["position"], s["table"]):
            wrong.append(f"position {s['position']} table {s['table']}: not the étui set §17.1 sends there")
        wrong += [f"{pid} off his orientation" for o, pid in s["players"].items() if own.get(pid) != o]
    for q in range(1, p + 1):
        seated = Counter(pid for s in sittings if s["position"] == q for pid in s["players"].values())
        if seated != Counter(list(own)):
            wrong.append(f"position {q}: not every player once")
    if etui_repeats(sittings):
        wrong.append("a player plays an étui twice")
    if answer["repeats"] != repeats(sittings):
        wrong.append("the repeats are not those the sittings make")
    if answer["perfect"] != (not answer["repeats"]):
        wrong.append("perfect is not: no repeat")
    if answer["etuis"] != [label(n) for n in range(1, t * e + 1)]:
        wrong.append("the labels are not §17.2's")
    return wrong


def dealt_problems(request: Json, answer: Json) -> list[str]:
    """§17.2: every étui dealt, four hands of 18 and a dog of 6, the 78 cards, from its seed text."""
    t, _, e = shape(request)
    wrong = []
    if [d["number"] for d in answer["dealt"]] != list(range(1, t * e + 1)):
        wrong.append("not every étui dealt, by number")
    for d in answer["dealt"]:
        hands = [d["hands"][o] for o in NWSE]
        if [len(h) for h in hands] != [18] * 4 or len(d["dog"]) != 6:
            wrong.append(f"étui {d['number']}: not 18 cards a hand and 6 in the dog")
        if len({c for h in hands for c in h} | set(d["dog"])) != 78:
            wrong.append(f"étui {d['number']}: not the 78 cards")
        text = f"{request['seed']}#{d['number']}"
        if d["seed"] != text and not d["seed"].startswith(text + "/"):
            wrong.append(f"étui {d['number']}: seed text {d['seed']!r}, not {text!r}")
    return wrong


# ---- the check form -------------------------------------------------------------------------------


def check_faults(request: Json) -> list[Json]:
    """The faults of the sittings given (§17.1's check form), each with its code, pointer, position,
    table, players and étuis, in the order the service lists them: misnumbered positions; then
    position by position the tables (a number again, a seat empty, a stranger), the players of the
    tournament seated nowhere, the seats (a player again, another orientation), the étuis (none, one
    again, one no label names); then the labels; then the étuis played again."""
    sittings = request["sittings"]
    lines = request.get("players")
    own: dict[str, str] = {}
    if lines:
        own = {pid: o for o in NWSE for pid in lines[o]}
    else:
        for s in sorted(sittings, key=lambda s: (s["position"], s["table"])):
            for o in NWSE:
                if s["players"].get(o):
                    own.setdefault(s["players"][o], o)
    numbers = sorted({s["position"] for s in sittings})
    faults = [
        _fault("position_numbers", f"/sittings/{_first(sittings, n)}/position", n, None)
        for n in numbers
        if not 1 <= n <= len(numbers)
    ]
    labels = request.get("etuis")
    for n in numbers:
        at = [i for i, s in enumerate(sittings) if s["position"] == n]
        faults += _tables(sittings, at, own, lines, n)
        faults += _seats(sittings, at, own)
        faults += _etuis(sittings, at, labels)
    seen: set[int] = set()
    for i, lab in enumerate(labels or []):
        if lab["number"] in seen or lab["taker"] not in NWSE or lab["dealer"] not in NWSE:
            faults.append(_fault("bad_label", f"/etuis/{i}", None, None, etuis=[lab["number"]]))
        seen.add(lab["number"])
    for r in etui_repeats(sittings):
        last = r["positions"][-1]
        i = next(
            i
            for i, s in enumerate(sittings)
            if s["position"] == last and r["player"] in s["players"].values() and r["etui"] in s["etuis"]
        )
        k = sittings[i]["etuis"].index(r["etui"])
        faults.append(
            _fault("etui_replayed", f"/sittings/{i}/etuis/{k}", last, sittings[i]["table"], [r["player"]], [r["etui"]])
        )
    return faults


def _fault(
    code: str, pointer: str, position: int | None, table: int | None, players: list[str] | None = None,
    etuis: list[int] | None = None,
) -> Json:  # fmt: skip
    return {"code": code, "pointer": pointer, "position": position, "table": table, "players": players or [],
            "etuis": etuis or []}  # fmt: skip


def _first(sittings: list[Json], position: int) -> int:
    return next(i for i, s in enumerate(sittings) if s["position"] == position)


def _tables(sittings: list[Json], at: list[int], own: dict[str, str], lines: Json, n: int) -> list[Json]:
    out, tables, seated = [], set(), set()
    for i in at:
        s = sittings[i]
        if s["table"] in tables:
            out.append(_fault("table_twice", f"/sittings/{i}/table", n, s["table"]))
        tables.add(s["table"])
        if any(not s["players"].get(o) for o in NWSE):
            out.append(_fault("missing_player", f"/sittings/{i}/players", n, s["table"]))
        for o in NWSE:
            pid = s["players"].get(o)
            if pid and pid not in own:
                out.append(_fault("unknown_player", f"/sittings/{i}/players/{o}", n, s["table"], [pid]))
            seated.add(pid)
    if lines:
        for pid in sorted(p for p in own if p not in seated):
            where = f"/players/{own[pid]}/{lines[own[pid]].index(pid)}"
            out.append(_fault("absent_player", where, n, None, [pid]))
    return out


def _seats(sittings: list[Json], at: list[int], own: dict[str, str]) -> list[Json]:
    out, first = [], set()
    for i in at:
        s = sittings[i]
        for o in NWSE:
            pid = s["players"].get(o)
            if not pid:
                continue
            if pid in first:
                out.append(_fault("player_twice", f"/sittings/{i}/players/{o}", s["position"], s["table"], [pid]))
            first.add(pid)
            if own.get(pid, o) != o:
                where = f"/sittings/{i}/players/{o}"
                out.append(_fault("orientation_changed", where, s["position"], s["table"], [pid]))
    return out


def _etuis(sittings: list[Json], at: list[int], labels: Json) -> list[Json]:
    out, seen = [], set()
    named = None if labels is None else {lab["number"] for lab in labels}
    for i in at:
        s = sittings[i]
        if not s["etuis"]:
            out.append(_fault("no_etui", f"/sittings/{i}/etuis", s["position"], s["table"]))
        for k, n in enumerate(s["etuis"]):
            if n in seen:
                out.append(_fault("etui_twice", f"/sittings/{i}/etuis/{k}", s["position"], s["table"], etuis=[n]))
            seen.add(n)
            if named is not None and n not in named:
                out.append(_fault("unknown_etui", f"/sittings/{i}/etuis/{k}", s["position"], s["table"], etuis=[n]))
    return out
