"""The reference model of a tournament's seating (docs/rules.md §16.5), read from the rulebook
apart from service/rules: the tables a count of players sits at, the bound on positions without
a repeated meeting, the faults of a seating made elsewhere (the check form), and whether a
seating the service made keeps the rules, whatever its arrangement.

It works on the wire's JSON: seated tables as ``{"position", "table", "seats": {orientation:
player}}``, the seats in playing order north, west, south, east, fifth (§16.2).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .cards import Json

PLAYING_ORDER = ["north", "west", "south", "east", "fifth"]
FAULT_ORDER = [
    "seated_twice", "missing_player", "unknown_player", "duplicate_table", "table_size", "table_sizes",
    "forbidden_pair", "repeat_meeting", "uneven_threes", "uneven_fives", "fixed_elsewhere",
]  # fmt: skip
"""§16.5: a position's faults are listed in this order, then by table and seat."""


def tables_for(n: int, fives: bool) -> tuple[int, int, int] | None:
    """Rule 2: (tables of 4, of 3, of 5): the fewest tables of 3, or with tables of 5 those in
    their place and then the fewest of them; None when none seat ``n``."""
    options = [
        (threes, five, (n - 3 * threes - 5 * five) // 4)
        for threes in range(n // 3 + 1)
        for five in range((n // 5 + 1) if fives else 1)
        if n > 0 and n - 3 * threes - 5 * five >= 0 and (n - 3 * threes - 5 * five) % 4 == 0
    ]
    if not options:
        return None
    threes, five, fours = min(options)
    return fours, threes, five


def bound_for(n: int, fives: bool) -> int:
    """§16.5: the most positions p with 3p − ⌊3tp/n⌋ + ⌈5fp/n⌉ ≤ n − 1 (t tables of 3 and f of 5
    a position): what the player who meets the most others can meet, new each time."""
    tables = tables_for(n, fives)
    if tables is None:
        return 0
    _, t, f = tables
    p = 0
    while p < n and 3 * (p + 1) - (3 * t * (p + 1)) // n + -((-5 * f * (p + 1)) // n) <= n - 1:
        p += 1
    return p


def _by_position(played: list[Json]) -> list[list[tuple[int, Json]]]:
    count = max((t["position"] for t in played), default=0)
    return [[(i, t) for i, t in enumerate(played) if t["position"] == p] for p in range(1, count + 1)]


def _seats(table: Json) -> list[tuple[str, str]]:
    return [(o, table["seats"][o]) for o in PLAYING_ORDER if o in table["seats"]]


def _never_together(request: Json) -> set[frozenset[str]]:
    """Rule 3: the forbidden pairs, and each two players of one team."""
    pairs = {frozenset(p) for p in request.get("forbidden") or []}
    teams: dict[str, list[str]] = {}
    for entry in request.get("teams") or []:
        teams.setdefault(entry["team"], []).append(entry["player"])
    return pairs | {frozenset(pair) for members in teams.values() for pair in combinations(members, 2)}


def check_answer(request: Json) -> dict[str, Json]:
    """The check form's verdicts (``seat: none``): each fault without its words, the repeats, the
    bound and what the seating reaches of it. Of a request that seats, the faults of its positions
    played: its players are those present, so nobody is missing, and a seat may hold a player
    present or one who left."""
    seating = request.get("seat", "next") != "none"
    players: list[str] = request["players"]
    fives = bool(request.get("tables_of_five"))
    forbidden = _never_together(request)
    fixed = {f["player"]: f["table"] for f in request.get("fixed") or []}
    positions = _by_position(request.get("played") or [])
    faults: list[tuple[tuple[int, int, int, int], Json]] = []
    met: dict[tuple[str, str], list[int]] = {}
    odd: dict[int, Counter[str]] = {3: Counter(), 5: Counter()}

    def fault(p: int, code: str, k: int | None, s: int | None, pointer: str, who: list[str], table: int | None) -> None:
        key = (p, FAULT_ORDER.index(code), -1 if k is None else k, s or 0)
        faults.append((key, {"code": code, "pointer": pointer, "position": p + 1, "table": table, "players": who}))

    for p, tables in enumerate(positions):
        seen: set[str] = set()
        numbers: set[int] = set()
        sizes_ok = True
        for k, (i, table) in enumerate(tables):
            seats = _seats(table)
            if table["table"] in numbers:
                fault(p, "duplicate_table", k, None, f"/played/{i}/table", [], table["table"])
            numbers.add(table["table"])
            if len(seats) not in ((3, 4, 5) if fives else (3, 4)):
                sizes_ok = False
                fault(p, "table_size", k, None, f"/played/{i}/seats", [x for _, x in seats], table["table"])
            for s, (o, x) in enumerate(seats):
                at = f"/played/{i}/seats/{o}"
                if x in seen:
                    fault(p, "seated_twice", k, s, at, [x], table["table"])
                seen.add(x)
                if x not in players and x not in (request.get("left") or []):
                    fault(p, "unknown_player", k, s, at, [x], table["table"])
                if x in fixed and fixed[x] != table["table"]:
                    fault(p, "fixed_elsewhere", k, s, at, [x], table["table"])
        first = f"/played/{tables[0][0]}/position"
        for x in [] if seating else sorted(set(players) - seen):
            fault(p, "missing_player", None, None, first, [x], None)
        if sizes_ok:
            total = sum(len(t["seats"]) for _, t in tables)
            least = tables_for(total, fives)
            got3 = sum(len(t["seats"]) == 3 for _, t in tables)
            got5 = sum(len(t["seats"]) == 5 for _, t in tables)
            if least is None or got3 > least[1] or got5 > least[2]:
                fault(p, "table_sizes", None, None, first, [], None)
        for k, (i, table) in enumerate(tables):
            for pair in combinations(sorted({x for _, x in _seats(table)}), 2):
                if frozenset(pair) in forbidden:
                    fault(p, "forbidden_pair", k, None, f"/played/{i}/seats", list(pair), table["table"])
                if pair in met:
                    fault(p, "repeat_meeting", k, None, f"/played/{i}/seats", list(pair), table["table"])
                met.setdefault(pair, []).append(p + 1)
        # Rule 5: a player now at his second table of 3 (or of 5) or more beyond the fewest of those
        # seated, each size counted apart.
        everyone = sorted(seen)
        for size, code in ((3, "uneven_threes"), (5, "uneven_fives")):
            had = odd[size]
            for _, table in tables:
                if len(table["seats"]) == size:
                    had.update(set(table["seats"].values()))
            if not +had:
                continue
            fewest = min(had[x] for x in everyone)
            other = next(x for x in everyone if had[x] == fewest)
            for k, (i, table) in enumerate(tables):
                if len(table["seats"]) != size:
                    continue
                names = [x for _, x in _seats(table)]
                for s, (o, x) in enumerate(_seats(table)):
                    if had[x] >= fewest + 2 and names.index(x) == s:
                        fault(p, code, k, s, f"/played/{i}/seats/{o}", [x, other], table["table"])
    faults.sort(key=lambda f: f[0])
    repeats = sorted(((where, list(pair)) for pair, where in met.items() if len(where) > 1))
    n = len(set(players))
    sizes = tables_for(n, fives)
    limit = bound_for(n, fives)
    free = min((where[1] - 1 for where, _ in repeats), default=len(positions))
    return {
        "faults": [f for _, f in faults],
        "repeats": [{"players": pair, "meetings": len(where), "positions": where} for where, pair in repeats],
        "without_repeats": not repeats,
        "repeat_free": free,
        "meets_bound": free >= min(limit, len(positions)),
        "bound": limit,
        "table_sizes": None if sizes is None else {"fours": sizes[0], "threes": sizes[1], "fives": sizes[2]},
    }


def seating_problems(request: Json, answer: Json, expected: Json) -> list[str]:
    """What a seat-form answer's seating breaks of the rules and of the case's bounds (its
    ``expect_seating``), said plainly; none when it keeps them all."""
    problems: list[str] = []
    players = set(request["players"])
    forbidden = _never_together(request)
    fixed = {f["player"]: f["table"] for f in request.get("fixed") or []}
    played: list[Json] = request.get("played") or []
    seated: list[Json] = answer["seated"]
    if sorted({t["position"] for t in seated}) != expected["positions"]:
        problems.append(f"positions {sorted({t['position'] for t in seated})}, not {expected['positions']}")
    want = Counter({4: expected["tables"]["fours"], 3: expected["tables"]["threes"], 5: expected["tables"]["fives"]})
    history = [[[x for _, x in _seats(t)] for _, t in tables] for tables in _by_position(played)]
    for tables in _by_position(seated)[len(history) :]:
        if not tables:
            problems.append("a position left out")
            continue
        position = [[x for _, x in _seats(t)] for _, t in tables]
        everyone = [x for table in position for x in table]
        if sorted(everyone) != sorted(players):
            problems.append(f"position {tables[0][1]['position']} does not seat every player once")
        if +Counter(len(table) for table in position) != +want:
            problems.append(f"position {tables[0][1]['position']}: tables of {sorted(map(len, position))}")
        if sorted(t["table"] for _, t in tables) != list(range(1, len(tables) + 1)):
            problems.append(f"position {tables[0][1]['position']}: tables not numbered 1 to {len(tables)}")
        for _, t in tables:
            order = [o for o, _ in _seats(t)]
            if not ((len(order) == 3 and "fifth" not in order) or order in (PLAYING_ORDER[:4], PLAYING_ORDER)):
                problems.append(f"table {t['table']} seated at {order}")
            for x in t["seats"].values():
                if x in fixed and fixed[x] != t["table"]:
                    problems.append(f"{x} away from table {fixed[x]}")
            for pair in combinations(sorted(t["seats"].values()), 2):
                if frozenset(pair) in forbidden:
                    problems.append(f"{pair} together at table {t['table']}")
        history.append(position)
        for size in (3, 5):
            had = Counter(x for p in history for table in p if len(table) == size for x in table)
            if max(had[x] for x in players) - min(had[x] for x in players) > 1:
                problems.append(f"tables of {size} not in turn after position {len(history)}")
    met = Counter(pair for p in history for table in p for pair in combinations(sorted(table), 2))
    repeats = {pair: k for pair, k in met.items() if k > 1}
    if len(repeats) > expected["repeats"] or max(repeats.values(), default=1) > expected["most_meetings"]:
        problems.append(f"{len(repeats)} repeated pairs, meeting up to {max(repeats.values(), default=1)} times")
    listed = {(tuple(sorted(r["players"])), r["meetings"]) for r in answer["repeats"]}
    if listed != set(repeats.items()):
        problems.append("the repeats listed are not the seating's")
    return problems
