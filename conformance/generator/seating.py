"""A tournament's seating (rules.md §16.5): the check form of a seating made elsewhere, each
fault planted once in a seating that keeps every rule; seatings asked of the engine, held to
the rules whatever their arrangement; and requests that are no tournament.

Any seating that keeps the rules is right, so the kit never expects one arrangement: a seat-form
case expects what every right answer says (the bound, the tables, no repeat where none is
needed) and, in ``expect_seating``, the rules its tables must keep, which the runner checks
(service/cli/seating_check.py). Every answer is held to the reference model of
oracle_seating.py: the check form's faults, and the seatings' rules.
"""

from __future__ import annotations

import copy

from .assembly import Kit
from .cards import Json
from .errors import KitError
from .oracle_seating import check_answer, seating_problems, tables_for
from .refusals import REMOVED, spoilt
from .verdicts import PLAYER_TAG, Checks, fixed_pointers

OPERATION = "seating"
RULES = ["16.5"]
FAULT_FIELDS = ("code", "pointer", "position", "table", "players")
ORIENTATIONS = ("north", "west", "south", "east")
CHECKED = ("/bound", "/table_sizes", "/without_repeats", "/repeat_free", "/meets_bound")


def seating_pointers(request: Json, answer: Json) -> list[str]:
    """The check form: every fault but its words, the repeats, the bound and what the seating
    reaches of it. The seat form: what any right seating says (its tables are expect_seating's)."""
    out = ["/bound", "/table_sizes"]
    if not answer["faults"]:
        out.append("/faults")
    for k in range(len(answer["faults"])):
        out += [f"/faults/{k}/{f}" for f in FAULT_FIELDS]
    if request.get("seat") == "none":
        return [*out, "/seated", "/repeats", "/without_repeats", "/repeat_free", "/meets_bound"]
    out.append("/shortfalls")
    if answer["without_repeats"]:
        out += ["/repeats", "/without_repeats", "/repeat_free", "/meets_bound"]
    return out


def seating_reference(request: Json, answer: Json) -> dict[str, Json]:
    """What the reference model says: all of the check form; of the seat form, the bound, the
    tables and the faults of the positions played."""
    model = check_answer(request)
    if request.get("seat") == "none":
        known = {key: model[key] for key in ("bound", "table_sizes", "repeats", "without_repeats", "repeat_free",
                                             "meets_bound")}  # fmt: skip
        out = {f"/{key}": value for key, value in known.items()}
        if not model["faults"]:
            out["/faults"] = []
        for k, fault in enumerate(model["faults"]):
            out |= {f"/faults/{k}/{f}": fault[f] for f in FAULT_FIELDS}
        return out
    out = {"/bound": model["bound"], "/table_sizes": model["table_sizes"]}
    if not model["faults"]:
        out["/faults"] = []
    for k, fault in enumerate(model["faults"]):
        out |= {f"/faults/{k}/{f}": fault[f] for f in FAULT_FIELDS}
    return out


def seating_tags(request: Json, answer: Json | None) -> set[str]:
    """A tournament's: the sizes of its tables, the check form, and each fault the check finds."""
    tags = {"tournament", "seating"}
    players = request.get("players")
    tables = tables_for(len(set(players)), bool(request.get("tables_of_five"))) if isinstance(players, list) else None
    if tables is not None:
        tags |= {PLAYER_TAG[size] for size, count in zip((4, 3, 5), tables, strict=True) if count}
    if request.get("seat") == "none":
        tags.add("check-form")
    if answer is not None:
        tags |= {f"seating:{f['code']}" for f in answer["faults"]}
    return tags


SEATING_CHECKS = Checks(seating_pointers, seating_reference, seating_tags)
SEATING_REFUSED = Checks(fixed_pointers(), lambda request, answer: {}, seating_tags)


def seating_cases(kit: Kit) -> None:
    check_cases(kit)
    seat_cases(kit)
    seating_refusals(kit)


# ---- seatings that keep every rule, built apart from any search ---------------------------------


def grid(m: int, positions: int, names: list[str] | None = None) -> list[Json]:
    """4m players (m prime, 5 or more) as m rows of 4: position 1 seats each row at a table;
    position k + 1 the players (r, c) with r − k·c ≡ j (mod m) at table j + 1. Two players meet
    at most once; the seats turn with the position so that nobody keeps his orientation."""
    names = names or [f"P{i}" for i in range(1, 4 * m + 1)]
    played = []
    for k in range(positions):
        for j in range(m):
            members = [names[j * 4 + c] if k == 0 else names[((j + k * c) % m) * 4 + c] for c in range(4)]
            members = members[k % 4 :] + members[: k % 4]
            played.append({"position": k + 1, "table": j + 1, "seats": dict(zip(ORIENTATIONS, members, strict=True))})
    return played


def nineteen() -> list[Json]:
    """19 players over two positions, the tables of 3 in turn and nobody meeting twice."""
    names = [f"P{i}" for i in range(1, 20)]
    first = [names[0:4], names[4:8], names[8:12], names[12:16], names[16:19]]
    second = [[names[0], names[4], names[8], names[12]], [names[1], names[5], names[9], names[16]],
              [names[2], names[6], names[13], names[17]], [names[3], names[10], names[14], names[18]],
              [names[7], names[11], names[15]]]  # fmt: skip
    played = []
    for p, position in enumerate((first, second), start=1):
        for t, members in enumerate(position, start=1):
            at = ORIENTATIONS if len(members) == 4 else ("north", "south", "east")
            played.append({"position": p, "table": t, "seats": dict(zip(at, members, strict=True))})
    return played


def _checked(played: list[Json], players: list[str], positions: int, **more: Json) -> Json:
    return {"players": players, "positions": positions, "played": played, "seat": "none", **more}


def check_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "check", "The check form (seat: none): a seating made elsewhere, keeping every rule or "
                  "with one fault planted, each fault with its code, its pointer, its position, table and players "
                  "(rules.md §16.5).", SEATING_CHECKS)  # fmt: skip
    twenty = [f"P{i}" for i in range(1, 21)]
    clean = grid(5, 3)
    kit.add(t, 1, "20 players over 3 positions, nobody meeting twice: no fault.", RULES, [],
            _checked(clean, twenty, 5))  # fmt: skip
    kit.add(t, 2, "19 players over 2 positions, the tables of 3 in turn: no fault.", RULES, [],
            _checked(nineteen(), [f"P{i}" for i in range(1, 20)], 5))  # fmt: skip
    # Position 2's tables 1 and 2 exchange their south players, who meet again those they met before.
    swapped = copy.deepcopy(clean)
    second = [x for x in swapped if x["position"] == 2]
    a, b = second[0]["seats"], second[1]["seats"]
    a["south"], b["south"] = b["south"], a["south"]
    rows: list[tuple[int, str, Json]] = [
        (3, "Two tables of position 2 exchange a player: pairs who met in position 1 meet again.",
         _checked(swapped, twenty, 5)),
        (4, "P1 and P2, forbidden to meet (teammates), at table 1 of position 1.",
         _checked(clean, twenty, 5, forbidden=[["P1", "P2"], ["P1", "P20"]])),
        (5, "P2 fixed to table 1 sits at other tables in positions 2 and 3.",
         _checked(clean, twenty, 5, fixed=[{"player": "P2", "table": 1}])),
        (6, "P9 takes P2's seat in position 1: he sits twice, P2 at no table.",
         _checked(spoilt(clean, "/0/seats/west", "P9"), twenty, 5)),
        (7, "X1, no player of the tournament, in P2's seat: a stranger, and P2 missing.",
         _checked(spoilt(clean, "/0/seats/west", "X1"), twenty, 5)),
        (8, "Two tables numbered 1 in position 1.", _checked(spoilt(clean, "/1/table", 1), twenty, 5)),
        (9, "A table of 5 and one of 3 in position 1, without tables of five.",
         _checked(_moved(clean), twenty, 5)),
        (10, "The same with tables of five: 20 players need none, and no table of 3.",
         _checked(_moved(clean), twenty, 5, tables_of_five=True)),
        (11, "19 players: P17, P18 and P19 at a table of 3 again in position 2 while others have sat at none.",
         _checked(_threes_again(), [f"P{i}" for i in range(1, 20)], 5)),
        (12, "Tables of 3 for 20 players: more than the count needs (none).",
         _checked(_in_threes(), twenty, 5)),
        (13, "21 players with tables of five: P17 at the table of 5 again in position 2 while others have sat at "
         "none.", _checked(_five_again(), [f"P{i}" for i in range(1, 22)], 5, tables_of_five=True)),
    ]  # fmt: skip
    for number, description, request in rows:
        answer = kit.add(t, number, description, RULES, [], request)
        if not answer["faults"]:
            raise KitError(f"seating/check/{number:03d}: nothing found")


def _moved(played: list[Json]) -> list[Json]:
    """Position 1's table 2 gives its east player to table 1, as its fifth."""
    out = copy.deepcopy(played)
    out[0]["seats"]["fifth"] = out[1]["seats"].pop("east")
    return out


def _threes_again() -> list[Json]:
    out = nineteen()
    third = [x for x in out if x["position"] == 2]
    by_table = {x["table"]: x for x in third}
    # The table of 3 of position 2 given position 1's table of 3 again, its players swapped in.
    first3 = ["P17", "P18", "P19"]
    second3 = list(by_table[5]["seats"].values())
    rename = dict(zip(first3 + second3, second3 + first3, strict=True))
    for x in third:
        x["seats"] = {o: rename.get(p, p) for o, p in x["seats"].items()}
    return out


def _five_again() -> list[Json]:
    """21 players over two positions without a repeat, P17 at the table of 5 in both."""
    first = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20, 21]]
    second = [[2, 6, 10, 18], [3, 7, 14, 19], [4, 11, 15, 20], [8, 12, 16, 21], [17, 1, 5, 9, 13]]
    played = []
    for p, position in enumerate((first, second), start=1):
        for t, members in enumerate(position, start=1):
            at = (*ORIENTATIONS, "fifth") if len(members) == 5 else ORIENTATIONS
            played.append({"position": p, "table": t, "seats": {o: f"P{m}" for o, m in zip(at, members, strict=True)}})
    return played


def _in_threes() -> list[Json]:
    names = [f"P{i}" for i in range(1, 21)]
    at = ("north", "south", "east")
    tables = [names[0:3], names[3:6], names[6:9], names[9:12], names[12:16], names[16:20]]
    return [{"position": 1, "table": t, "seats": dict(zip(at if len(m) == 3 else ORIENTATIONS, m, strict=True))}
            for t, m in enumerate(tables, start=1)]  # fmt: skip


# ---- seatings asked of the engine, held to the rules ---------------------------------------------


def seat_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "seat", "Seatings asked of the engine (the next position, or every one left), each held "
                  "to the rules whatever its arrangement (expect_seating): every player once a position, tables of 4 "
                  "and the fewest of 3, no forbidden pair, fixed players at their table, the tables of 3 (and of 5) in "
                  "turn, no "
                  "repeated meeting within the bound, and beyond it no more than counting forces (rules.md §16.5).",
                  SEATING_CHECKS)  # fmt: skip

    def players(n: int) -> list[str]:
        return [f"P{i}" for i in range(1, n + 1)]

    rows: list[tuple[int, str, Json, int, int]] = [
        (1, "16 players' first position.", {"players": players(16), "positions": 5, "seed": "kit"}, 0, 1),
        (2, "16 players' 5 positions at once: every pair meets once, none twice (the bound).",
         {"players": players(16), "positions": 5, "seat": "remaining", "seed": "kit"}, 0, 1),
        (3, "20 players' 5 positions at once.",
         {"players": players(20), "positions": 5, "seat": "remaining", "seed": "kit"}, 0, 1),
        (4, "19 players (four tables of 4, one of 3) over 5 positions, teammates apart, P19 fixed to table 2.",
         {"players": players(19), "positions": 5, "seat": "remaining", "seed": "kit",
          "forbidden": [["P1", "P2"], ["P3", "P4"]], "fixed": [{"player": "P19", "table": 2}]}, 0, 1),
        (5, "18 players (three tables of 4, two of 3) over 5 positions.",
         {"players": players(18), "positions": 5, "seat": "remaining", "seed": "kit"}, 0, 1),
        (6, "33 players over 5 positions.",
         {"players": players(33), "positions": 5, "seat": "remaining", "seed": "kit"}, 0, 1),
        (7, "64 players' first position.", {"players": players(64), "positions": 5, "seed": "kit"}, 0, 1),
        (8, "20 players, 3 positions played elsewhere without a repeat: the fourth.",
         {"players": players(20), "positions": 5, "seed": "kit", "played": grid(5, 3)}, 0, 1),
        (9, "20 players, 2 positions played elsewhere: the 3 left at once.",
         {"players": players(20), "positions": 5, "seat": "remaining", "seed": "kit", "played": grid(5, 2)}, 0, 1),
        (10, "16 players over 7 positions, beyond the bound of 5: 168 meetings for 120 pairs, so 48 pairs meet "
         "twice at least; no more, and none three times.",
         {"players": players(16), "positions": 7, "seat": "remaining", "seed": "kit"}, 48, 2),
        (11, "25 players at tables of 4 and one of 5, tables of five allowed, over 5 positions: the table of 5 in "
         "turn.",
         {"players": players(25), "positions": 5, "seat": "remaining", "seed": "kit", "tables_of_five": True}, 0, 1),
        (12, "24 players over 7 positions, the bound: a seating without a repeat exists (a resolvable design).",
         {"players": players(24), "positions": 7, "seat": "remaining", "seed": "kit"}, 0, 1),
        (13, "27 players (six tables of 4, one of 3) over 7 positions: no repeat, the table of 3 in turn.",
         {"players": players(27), "positions": 7, "seat": "remaining", "seed": "kit"}, 0, 1),
        (14, "28 players over 9 positions, the bound: every pair meets once, none twice.",
         {"players": players(28), "positions": 9, "seat": "remaining", "seed": "kit"}, 0, 1),
        (15, "16 players over 10 positions, twice the bound: every pair meets twice at most.",
         {"players": players(16), "positions": 10, "seat": "remaining", "seed": "kit"}, 120, 2),
        (16, "12 players over 5 positions: three tables cannot keep anyone apart after the first position, but no "
         "pair need meet three times.",
         {"players": players(12), "positions": 5, "seat": "remaining", "seed": "kit"}, 30, 2),
        (17, "20 players in ten teams of two over 5 positions: teammates never at one table.",
         {"players": players(20), "positions": 5, "seat": "remaining", "seed": "kit",
          "teams": [{"player": f"P{i}", "team": f"T{(i + 1) // 2}"} for i in range(1, 21)]}, 4, 2),
        (18, "20 players, 2 positions played elsewhere, P1O written for P10 at one seat: a seat that holds no player "
         "is a fault, never passed over.",
         {"players": players(20), "positions": 5, "seed": "kit",
          "played": spoilt(grid(5, 2), "/0/seats/north", "P1O")}, 0, 1),
        (19, "20 players, 2 positions played elsewhere, P1 gone after them (`left`) and P21 come: no fault.",
         {"players": [*players(20)[1:], "P21"], "positions": 5, "seed": "kit", "left": ["P1"],
          "played": grid(5, 2)}, 0, 1),
    ]  # fmt: skip
    for number, description, request, repeats, most in rows:
        answer = kit.add(t, number, description, RULES, [], request)
        n, fives = len(request["players"]), bool(request.get("tables_of_five"))
        tables = tables_for(n, fives)
        assert tables is not None
        done = max((x["position"] for x in request.get("played", [])), default=0)
        count = 1 if request.get("seat", "next") == "next" else request["positions"] - done
        expected: Json = {
            "positions": list(range(done + 1, done + count + 1)),
            "tables": {"fours": tables[0], "threes": tables[1], "fives": tables[2]},
            "repeats": repeats,
            "most_meetings": most,
        }
        problems = seating_problems(request, answer, expected)
        if problems:
            raise KitError(f"seating/seat/{number:03d}: " + "; ".join(problems))
        t.cases[number]["expect_seating"] = expected


# fmt: off
def seating_refusals(kit: Kit) -> None:
    t = kit.topic(OPERATION, "refusals", "Requests that are no tournament's seating, each fault located by its JSON "
                  "pointer: a player listed twice, a table of two, a fifth without the four, a position beyond the "
                  "tournament's, a position skipped, nothing left to seat, a forbidden pair of one player, a fixed "
                  "stranger, no seed (rules.md §16.5).", SEATING_REFUSED)
    sound: Json = {"players": [f"P{i}" for i in range(1, 21)], "positions": 5, "seed": "kit", "played": grid(5, 2)}
    kit.answer(t.operation, sound)
    rows: list[tuple[int, str, str, Json, list[str]]] = [
        (1, "P1 listed twice among the players.", "/players/20", "P1", ["/players/20"]),
        (2, "A table of two.", "/played/0/seats", {"north": "P1", "south": "P2"}, ["/played/0/seats"]),
        (3, "A fifth player at a table without west.", "/played/0/seats",
         {"north": "P1", "south": "P3", "east": "P4", "fifth": "P2"}, ["/played/0/seats"]),
        (4, "A table of position 6 in a tournament of 5.", "/played/9/position", 6, ["/played/9/position"]),
        (5, "Position 2 played, position 1 not.", "/played", grid(5, 2)[5:], ["/played"]),
        (6, "Every position played, and the next one asked for.", "/positions", 2, ["/seat"]),
        (7, "A forbidden pair of P1 twice.", "/forbidden", [["P1", "P1"]], ["/forbidden/0"]),
        (8, "X1, no player, fixed to a table.", "/fixed", [{"player": "X1", "table": 1}], ["/fixed/0/player"]),
        (9, "No seed to draw the seating from.", "/seed", REMOVED, ["/seed"]),
        (10, "The seats given as a list, not by orientation.", "/played/0/seats", ["P1", "P2", "P3", "P4"],
         ["/played/0/seats"]),
    ]
    for number, description, pointer, value, pointers in rows:
        request = spoilt(sound, pointer, value) if pointer != "/players/20" else {
            **sound, "players": [*sound["players"], value]}
        kit.add_refusal(t, number, description, RULES, [], request, pointers)
# fmt: on
