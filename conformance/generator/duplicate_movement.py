"""A duplicate tournament's movement (rules.md §17.1–17.2): movements asked of the engine, held to
the rules whatever their arrangement of the players; the check form of a movement made elsewhere,
each fault planted once; and requests that are no movement.

Which player sits where is the engine's choice, so a made movement's case never expects the
players of a sitting: it expects what every right movement says (the shape, the étui sets where
§17.1 sends them, the labels of §17.2, no étui played twice, the cards dealt from a seed, and for
a count of tables prime to 6 no repeat, for an even count over every position some), and the
generator holds the answer to the reference model of oracle_movement.py: every player once a
position at his orientation, the repeats counted by brute force.
"""

from __future__ import annotations

import copy
from math import gcd

from .assembly import Kit
from .cards import Json
from .errors import KitError
from .oracle_movement import NWSE, check_faults, dealt_problems, etui_repeats, label, movement_problems, repeats, shape
from .refusals import REMOVED, spoilt
from .verdicts import Checks, fixed_pointers

OPERATION = "duplicate-movement"
RULES = ["17.1"]
FAULT_FIELDS = ("code", "pointer", "position", "table", "players", "etuis")


def lines(tables: int) -> Json:
    return {o: [f"{o[0].upper()}{i}" for i in range(1, tables + 1)] for o in NWSE}


def movement_pointers(request: Json, answer: Json) -> list[str]:
    if "sittings" in request:
        out = ["/repeats", "/etui_repeats", "/perfect"]
        out += ["/faults"] if not answer["faults"] else []
        return out + [f"/faults/{k}/{f}" for k in range(len(answer["faults"])) for f in FAULT_FIELDS]
    t, p, _ = shape(request)
    out = ["/tables", "/positions", "/etuis_per_position", "/etuis", "/etui_repeats", "/faults"]
    out += [f"/sittings/{k}/{f}" for k in range(t * p) for f in ("position", "table", "etuis")]
    if gcd(t, 6) == 1:
        out += ["/repeats", "/perfect"]
    elif t % 2 == 0 and p == t:
        out.append("/perfect")
    if "seed" in request:
        out.append("/dealt")
    return out


def movement_reference(request: Json, answer: Json) -> dict[str, Json]:
    """What the model says: of the check form, every fault but its words, and the repeats; of a
    made movement, its shape, the étui sets, the labels, and what the count of tables forces."""
    if "sittings" in request:
        faults = check_faults(request)
        out: dict[str, Json] = {
            "/repeats": repeats(request["sittings"]),
            "/etui_repeats": etui_repeats(request["sittings"]),
            "/perfect": not faults and not repeats(request["sittings"]),
        }
        if not faults:
            out["/faults"] = []
        for k, fault in enumerate(faults):
            out |= {f"/faults/{k}/{f}": fault[f] for f in FAULT_FIELDS}
        return out
    t, p, e = shape(request)
    out = {"/tables": t, "/positions": p, "/etuis_per_position": e, "/etui_repeats": [], "/faults": []}
    out["/etuis"] = [label(n) for n in range(1, t * e + 1)]
    for k in range(t * p):
        q, j = divmod(k, t)
        set_at = list(range(((j + q) % t) * e + 1, ((j + q) % t) * e + e + 1))
        out |= {f"/sittings/{k}/position": q + 1, f"/sittings/{k}/table": j + 1, f"/sittings/{k}/etuis": set_at}
    if gcd(t, 6) == 1:
        out |= {"/repeats": [], "/perfect": True}
    elif t % 2 == 0 and p == t:
        out["/perfect"] = False  # §17.1: no movement of an even count is perfect over every position
    return out


def movement_tags(request: Json, answer: Json | None) -> set[str]:
    tags = {"tournament", "duplicate"}
    if "sittings" in request:
        tags.add("check-form")
    elif "seed" in request:
        tags.add("seed")
    if answer is not None:
        tags |= {f"movement:{f['code']}" for f in answer["faults"]}
    return tags


MOVEMENT_CHECKS = Checks(movement_pointers, movement_reference, movement_tags)
MOVEMENT_REFUSED = Checks(fixed_pointers(), lambda request, answer: {}, movement_tags)


def duplicate_movement_cases(kit: Kit) -> None:
    made_cases(kit)
    check_cases(kit)
    movement_refusals(kit)


def made_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "made", "Movements asked of the engine, held to the rules whatever the players' "
                  "arrangement: every player once a position at his orientation, the étui sets sent to the next "
                  "lower table (p. 18), the labels of §17.2, nobody playing an étui twice, no repeat for a count of "
                  "tables prime to 6, and the étuis' cards dealt from a seed (rules.md §17.1–17.2).",
                  MOVEMENT_CHECKS)  # fmt: skip
    rows: list[tuple[int, str, Json, list[str]]] = [
        (1, "The p. 18 tournament: 5 tables over 5 positions; table 1's étui set goes to tables 1, 5, 4, 3, 2, "
         "and nobody meets twice.", {"tables": 5}, RULES),
        (2, "7 tables over 7 positions, 2 étuis a table: a perfect movement.",
         {"tables": 7, "etuis_per_position": 2}, RULES),
        (3, "11 tables over 11 positions: a perfect movement.", {"tables": 11}, RULES),
        (4, "13 tables over 13 positions, 3 étuis a table: a perfect movement.",
         {"tables": 13, "etuis_per_position": 3}, RULES),
        (5, "6 tables over 6 positions: an even count, so some pairs meet twice, and nobody plays an étui twice.",
         {"tables": 6}, RULES),
        (6, "8 tables over 8 positions, 2 étuis a table: an even count, not perfect.",
         {"tables": 8, "etuis_per_position": 2}, RULES),
        (7, "4 tables over 2 positions: nobody plays an étui twice.", {"tables": 4, "positions": 2}, RULES),
        (8, "9 tables over 6 positions, 4 étuis a table: each orientation takes once and deals once in four étuis.",
         {"tables": 9, "positions": 6, "etuis_per_position": 4}, ["17.1", "17.2"]),
        (9, "3 tables over 3 positions, 2 étuis a table, every étui's cards dealt from the seed `kit`.",
         {"tables": 3, "etuis_per_position": 2, "seed": "kit"}, ["17.1", "17.2"]),
        (10, "5 tables over 3 positions, the étuis dealt from the seed `club-night`.",
         {"tables": 5, "positions": 3, "seed": "club-night"}, ["17.1", "17.2"]),
    ]  # fmt: skip
    for number, description, shaped, rules in rows:
        request = {**shaped, "players": lines(shaped["tables"])}
        answer = kit.add(t, number, description, rules, [], request)
        problems = movement_problems(request, answer) + (dealt_problems(request, answer) if "seed" in request else [])
        if problems:
            raise KitError(f"{OPERATION}/made/{number:03d}: " + "; ".join(problems))


def clean(tables: int = 5, positions: int = 2, per: int = 2) -> list[Json]:
    """A movement written by hand that keeps every rule: line ``k`` (north 0 …) moves ``k`` tables
    up a position, the étui sets one down; perfect for 5 tables."""
    out = []
    for q in range(positions):
        for j in range(tables):
            seats = {o: f"{o[0].upper()}{(j - k * q) % tables + 1}" for k, o in enumerate(NWSE)}
            s = (j + q) % tables
            out.append({"position": q + 1, "table": j + 1, "players": seats,
                        "etuis": list(range(s * per + 1, s * per + per + 1))})  # fmt: skip
    return out


def check_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "check", "The check form: a movement made elsewhere, keeping every rule or with one "
                  "fault planted, each fault with its code, its pointer, its position, table, players and étuis; "
                  "two players meeting again are repeats, not faults (rules.md §17.1).", MOVEMENT_CHECKS)  # fmt: skip
    sound: Json = {"tables": 5, "players": lines(5), "sittings": clean()}
    labels = [{"number": n, "taker": "north", "dealer": "east"} for n in range(1, 11)]
    rows: list[tuple[int, str, Json]] = [
        (1, "5 tables over 2 positions, as the movement makes them: no fault, no repeat.", sound),
        (3, "Position 2's last table numbered as position 4.", spoilt(sound, "/sittings/9/position", 4)),
        (4, "Two tables numbered 1 in position 1.", spoilt(sound, "/sittings/1/table", 1)),
        (5, "A seat left empty.", spoilt(sound, "/sittings/2/players/west", REMOVED)),
        (6, "X1, no player of the tournament, in N1's seat: a stranger, and N1 absent.",
         spoilt(sound, "/sittings/0/players/north", "X1")),
        (7, "N1 in N2's seat too: twice in position 1.", spoilt(sound, "/sittings/1/players/north", "N1")),
        (8, "N3 at east in position 2.", spoilt(sound, "/sittings/6/players/east", "N3")),
        (9, "A table that plays no étui.", spoilt(sound, "/sittings/3/etuis", [])),
        (10, "Étui 1 at two tables of position 1.", spoilt(sound, "/sittings/4/etuis", [1, 10])),
        (11, "Table 1 given its étui set again in position 2: its players play them again.",
         spoilt(sound, "/sittings/5/etuis", [1, 2])),
        (12, "Labels for étuis 1 to 9 only: étui 10 has none.", {**sound, "etuis": labels[:9]}),
        (13, "Étui 10 is labelled twice.", {**sound, "etuis": [*labels, labels[-1]]}),
        (14, "Two tables exchange their west players in position 2: pairs meet again, repeats but no fault.",
         _exchanged(sound)),
    ]  # fmt: skip
    for number, description, request in rows:
        answer = kit.add(t, number, description, RULES, [], request)
        if 3 <= number <= 13 and not answer["faults"]:
            raise KitError(f"{OPERATION}/check/{number:03d}: nothing found")


def _exchanged(sound: Json) -> Json:
    out = copy.deepcopy(sound)
    a, b = out["sittings"][5]["players"], out["sittings"][6]["players"]
    a["west"], b["west"] = b["west"], a["west"]
    return out


# fmt: off
def movement_refusals(kit: Kit) -> None:
    t = kit.topic(OPERATION, "refusals", "Requests that are no movement, each fault located by its JSON pointer: "
                  "more positions than tables, a line of the wrong length, a player twice, a seed too long, too few "
                  "tables (rules.md §17.1–17.2).", MOVEMENT_REFUSED)
    sound: Json = {"tables": 5, "players": lines(5), "seed": "kit"}
    kit.answer(t.operation, sound)
    rows: list[tuple[int, str, str, Json, list[str]]] = [
        (1, "6 positions for 5 tables.", "/positions", 6, ["/positions"]),
        (2, "West's line of 4 players for 5 tables.", "/players/west", ["W1", "W2", "W3", "W4"], ["/players/west"]),
        (3, "N1 in south's line too.", "/players/south/2", "N1", ["/players/south/2"]),
        (4, "A seed of 257 characters.", "/seed", "s" * 257, ["/seed"]),
        (5, "2 tables.", "/tables", 2, ["/tables"]),
        (6, "31 étuis a table.", "/etuis_per_position", 31, ["/etuis_per_position"]),
    ]
    for number, description, pointer, value, pointers in rows:
        kit.add_refusal(t, number, description, ["17.1"], [], spoilt(sound, pointer, value), pointers)
# fmt: on
