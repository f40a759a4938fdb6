"""Duplicate tournaments at the control table (rules.md §17.3–17.9): the rulebook's topage (p. 18)
and points de match (p. 23), random evenings of the individual and the triplettes held to a
movement, sessions with coefficients and the referee's adjustments, each fault of a fiche
ambulante once, quadrettes and team matches, and requests that are no tournament.

Every answer is held to the reference model of oracle_duplicate.py, which scores each summary
with the model of oracle.py: the topage, the percentages, the rankings, the faults, the points
de match.
"""

from __future__ import annotations

import copy
import random

from .assembly import Kit
from .cards import Json
from .oracle import ref_score_answer
from .oracle_duplicate import SEATS, half_up, ref_duplicate, ref_quadrettes, ref_team_match
from .refusals import REMOVED, spoilt
from .service import OPERATIONS
from .verdicts import Checks, fixed_pointers

OPERATION = "duplicate-standings"
RULES = ["17.3", "17.4", "17.5", "17.6"]
FAULT_CODES = (
    "impossible_score",
    "etui_twice_for_player",
    "etui_twice_in_position",
    "etui_played_once",
    "orientation_changed",
    "not_in_movement",
    "players_not_as_movement",
    "etui_not_as_movement",
    "play_missing",
)


def garde_figure(summary: Json) -> int:
    """The model's figure of a summary, read as the imposed Garde at four (§17.3)."""
    garde = {**summary, "players": 4, "contract": "garde", "taker": 0, "partner": None}
    figure: int = ref_score_answer(garde)["/per_defender"]
    return figure


def duplicate_pointers(request: Json, answer: Json) -> list[str]:
    """The verdicts: the topage's grades, the percentages, the rankings, the faults; or the points de match."""
    if answer["quadrettes"] is not None:
        out = [f"/quadrettes/deals/{k}/first_pm" for k in range(len(answer["quadrettes"]["deals"]))]
        return out + [
            f"/quadrettes/standings/{i}/{f}"
            for i in range(len(answer["quadrettes"]["standings"]))
            for f in ("rank", "quadrette", "total")
        ]
    if answer["team_match"] is not None:
        match = answer["team_match"]
        out = [f"/team_match/deals/{k}/{f}" for k in range(len(match["deals"])) for f in ("first_pm", "second_pm")]
        out += [f"/team_match/quarters/{q}/{f}" for q in range(len(match["quarters"])) for f in ("first", "second")]
        return [*out, "/team_match/totals", "/team_match/winner"]
    out = ["/faults"] if not answer["faults"] else []
    out += [f"/faults/{k}/{f}" for k in range(len(answer["faults"])) for f in ("code", "pointer", "players")]
    for s, session in enumerate(answer["sessions"]):
        for t, topage in enumerate(session["topage"]):
            at = f"/sessions/{s}/topage/{t}"
            out += [f"{at}/etui", f"{at}/played", f"{at}/annulled"]
            out += [
                f"{at}/lines/{j}/{f}"
                for j in range(len(topage["lines"]))
                for f in ("play", "score", "taker", "taker_exact", "defenders_exact")
            ]
        out += [
            f"/sessions/{s}/percentages/{i}/{f}"
            for i in range(len(session["percentages"]))
            for f in (
                "entrant",
                "line",
                "attack_exact",
                "defence_exact",
                "attacks",
                "defences",
                "global",
                "global_exact",
                "one_sided",
            )
        ]
    out += [f"/general/{i}/{f}" for i in range(len(answer["general"])) for f in ("entrant", "rank", "total_exact")]
    if answer["alterne"] is not None:
        out += [f"/alterne/{i}/{f}" for i in range(len(answer["alterne"])) for f in ("place", "entrant")]
    return out


def _exact(value: object) -> object:
    return None if value is None else float(value)  # type: ignore[arg-type]


def duplicate_reference(request: Json, answer: Json) -> dict[str, Json]:
    """What the reference model says at each of those pointers."""
    if request["form"] == "quadrettes":
        model = ref_quadrettes(request)
        known: dict[str, Json] = {f"/quadrettes/deals/{k}/first_pm": pm for k, pm in enumerate(model["deals"])}
        for i, row in enumerate(model["standings"]):
            known |= {f"/quadrettes/standings/{i}/{f}": row[f] for f in ("rank", "quadrette", "total")}
        return known
    if request["form"] == "team_match":
        match = ref_team_match(request)
        known = {"/team_match/totals": match["totals"], "/team_match/winner": match["winner"]}
        for k, (first, second) in enumerate(match["deals"]):
            known |= {f"/team_match/deals/{k}/first_pm": first, f"/team_match/deals/{k}/second_pm": second}
        for q, (first, second) in enumerate(match["quarters"]):
            known |= {f"/team_match/quarters/{q}/first": first, f"/team_match/quarters/{q}/second": second}
        return known
    model = ref_duplicate(request, garde_figure)
    known = {"/faults": []} if not model["faults"] else {}
    for k, fault in enumerate(model["faults"]):
        known |= {f"/faults/{k}/{f}": fault[f] for f in ("code", "pointer", "players")}
    for s, session in enumerate(model["sessions"]):
        for t, topage in enumerate(session["topage"]):
            at = f"/sessions/{s}/topage/{t}"
            known |= {
                f"{at}/etui": topage["etui"],
                f"{at}/played": topage["played"],
                f"{at}/annulled": topage["annulled"],
            }
            for j, line in enumerate(topage["lines"]):
                grade = line["taker"]
                known |= {
                    f"{at}/lines/{j}/play": line["play"],
                    f"{at}/lines/{j}/score": line["score"],
                    f"{at}/lines/{j}/taker": None if grade is None else half_up(grade),
                    f"{at}/lines/{j}/taker_exact": _exact(grade),
                    f"{at}/lines/{j}/defenders_exact": None if grade is None else float(100 - grade),
                }
        for i, p in enumerate(session["percentages"]):
            at = f"/sessions/{s}/percentages/{i}"
            known |= {
                f"{at}/entrant": p["entrant"],
                f"{at}/line": p["line"],
                f"{at}/attacks": p["attacks"],
                f"{at}/defences": p["defences"],
                f"{at}/one_sided": p["one_sided"],
                f"{at}/attack_exact": _exact(p["attack"]),
                f"{at}/defence_exact": _exact(p["defence"]),
                f"{at}/global_exact": _exact(p["global"]),
                f"{at}/global": None if p["global"] is None else half_up(p["global"]),
            }
    for i, row in enumerate(model["general"]):
        known |= {
            f"/general/{i}/entrant": row["entrant"],
            f"/general/{i}/rank": row["rank"],
            f"/general/{i}/total_exact": _exact(row["total"]),
        }
    for i, (place, entrant) in enumerate(model["alterne"] or []):
        known |= {f"/alterne/{i}/place": place, f"/alterne/{i}/entrant": entrant}
    return known


def duplicate_tags(request: Json, answer: Json | None) -> set[str]:
    tags = {"tournament", "duplicate", "four-players"}
    form = request.get("form")
    if form in ("triplettes", "quadrettes"):
        tags.add(str(form))
    if form == "team_match":
        tags.add("team-match")
    if answer is not None:
        tags |= {f"duplicate:{f['code']}" for f in answer["faults"]}
    return tags


CHECKS = Checks(duplicate_pointers, duplicate_reference, duplicate_tags)
REFUSED = Checks(fixed_pointers(), lambda request, answer: {}, duplicate_tags)


def duplicate_cases(kit: Kit) -> None:
    golden_cases(kit)
    generated_cases(kit)
    fault_cases(kit)
    match_cases(kit)
    refusal_cases(kit)


# ---- building tournaments ------------------------------------------------------------------------------


def labels(count: int) -> list[Json]:
    """§17.2's labels: the taker turns with the number, the dealer a seat further each four étuis."""
    return [
        {"number": n, "taker": SEATS[(n - 1) % 4], "dealer": SEATS[((n - 1) + (n - 1) // 4) % 4]}
        for n in range(1, count + 1)
    ]


def movement(tables: int, positions: int, per_table: int, triplettes: bool = False) -> list[Json]:
    """§17.1's movement for a table count prime to 6: line ``L`` moves up ``L`` tables a position,
    the étuis down one. In triplettes the North-South triplettes stay, the East-West move up one."""
    sittings = []
    for p in range(positions):
        for t in range(tables):
            j = (t + p) % tables  # the étui set at table t
            if triplettes:
                ns, ew = f"NS{t + 1}", f"EW{(t - p) % tables + 1}"
                at = {"north": ns, "west": ew, "south": ns, "east": ew}
            else:
                at = {o: f"{o[0].upper()}{(t - s * p) % tables + 1}" for s, o in enumerate(SEATS)}
            etuis = [j * per_table + k + 1 for k in range(per_table)]
            sittings.append({"position": p + 1, "table": t + 1, "players": at, "etuis": etuis})
    return sittings


def garde_summary(rng: random.Random) -> Json:
    """A deal that a Garde at four can give (§17.3): the Petit au bout only on a side that holds
    the Petit, a poignée now and then."""
    oudlers = rng.randrange(4)
    summary: Json = {
        "players": 4,
        "contract": "garde",
        "taker": 0,
        "oudlers": oudlers,
        "points": rng.randrange(max(0, 9 * oudlers - 1), 183 - max(0, 9 * (3 - oudlers) - 1)) / 2,
    }
    petit = rng.choice([None, None, None, "attack", "defence"])
    if (petit == "attack" and oudlers >= 1) or (petit == "defence" and oudlers <= 2):
        summary["petit_au_bout"] = petit
    if rng.random() < 0.15:
        summary["poignees"] = [{"side": rng.choice(["attack", "defence"]), "size": "simple"}]
    return summary


def session(rng: random.Random, tables: int, positions: int, per_table: int, triplettes: bool = False) -> Json:
    """A session held to its movement, each play a figure or a summary."""
    sittings = movement(tables, positions, per_table, triplettes)
    plays = []
    for sitting in sittings:
        for etui in sitting["etuis"]:
            play: Json = {
                "position": sitting["position"],
                "table": sitting["table"],
                "etui": etui,
                "players": dict(sitting["players"]),
            }
            summary = garde_summary(rng)
            if rng.random() < 0.5:
                play["summary"] = summary
            else:
                play["score"] = garde_figure(summary)
            plays.append(play)
    return {"etuis": labels(tables * per_table), "plays": plays, "sittings": sittings}


def with_figure(built: Json) -> Json:
    """The session with its first play written as a figure (the faults and refusals spoil it)."""
    first = built["plays"][0]
    if "summary" in first:
        first["score"] = garde_figure(first.pop("summary"))
    return built


# ---- the cases -------------------------------------------------------------------------------------------


def golden_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION,
        "golden",
        "The rulebook's examples: the topage of p. 18 and the points de match of p. 23 (§17.4, §17.8).",
        CHECKS,
    )
    topage = OPERATIONS[OPERATION].examples["rulebookTopage"].request
    want = {f"/sessions/0/topage/0/lines/{j}/taker": g for j, g in enumerate([75, 100, 0, 25, 50])}
    kit.add(
        t,
        1,
        "Étui 1, taker North, played at tables 1, 5, 4, 3, 2 for 56, 62, −56, −52, 50: grades 75, 100, "
        "0, 25, 50, the defenders the complement.",
        ["17.4"],
        ["golden"],
        topage,
        want=want,
    )
    for number, (first, second, pm) in enumerate([(82, 66, 4.0), (68, -76, 12.0), (-68, -58, -3.162)], start=2):
        body = {
            "form": "quadrettes",
            "quadrettes": {
                "oppositions": [{"first": "A", "second": "B", "deals": [{"etui": 1, "first": first, "second": second}]}]
            },
        }
        kit.add(
            t,
            number,
            f"p. 23: {first:+d} against {second:+d}, {pm:+.3f} points de match.",
            ["17.8"],
            ["golden"],
            body,
            want={"/quadrettes/deals/0/first_pm": pm},
        )


def generated_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION,
        "generated",
        "Random evenings held to their movement: the individual at 5 and 7 "
        "tables, the triplettes, two sessions with a coefficient, the referee's adjustments; every grade, "
        "percentage and rank as the reference model says (§17.3–17.7, §17.9).",
        CHECKS,
    )
    shapes = [
        (1, "5 tables, 5 positions of 2 étuis", 5, 5, 2),
        (2, "7 tables, 4 positions of 1 étui", 7, 4, 1),
        (3, "5 tables, 3 positions of 3 étuis", 5, 3, 3),
    ]
    for number, what, tables, positions, per_table in shapes:
        body = {
            "form": "individual",
            "sessions": [session(random.Random(f"dup-{number}"), tables, positions, per_table)],
        }
        kit.add(
            t, number, f"The individual, {what}: clean.", [*RULES, "17.1"], ["generated"], body, want={"/faults": []}
        )
    rng = random.Random("dup-triplettes")
    body = {"form": "triplettes", "sessions": [session(rng, 5, 5, 2, triplettes=True)]}
    kit.add(
        t,
        4,
        "The triplettes, 5 tables, 5 positions of 2 étuis: ½ attack + ½ defence, the alterné by line.",
        RULES,
        ["generated"],
        body,
    )
    rng = random.Random("dup-sessions")
    first, second = session(rng, 5, 3, 2), session(rng, 5, 3, 2)
    body = {"form": "individual", "sessions": [first, {**second, "coefficient": 1.5}]}
    kit.add(
        t,
        5,
        "Two sessions of 5 tables, the second weighted 1.5: ranked by the sum (§17.7).",
        [*RULES, "17.7"],
        ["generated"],
        body,
    )
    adjusted = copy.deepcopy(first)
    play = adjusted["plays"][0]
    adjusted["adjustments"] = {
        "annulled": [{"etui": adjusted["plays"][1]["etui"], "reason": "Cards missing"}],
        "marks": [{"entrant": play["players"]["west"], "etui": play["etui"], "grade": 33.3}],
        "penalties": [{"entrant": play["players"]["north"], "points": 2.5}],
    }
    kit.add(
        t,
        6,
        "An étui annulled, a mark of 33.3 %, a penalty of 2.5 points (§17.9).",
        [*RULES, "17.9"],
        ["generated"],
        {"form": "individual", "sessions": [adjusted]},
    )


def fault_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION,
        "faults",
        "Each fault of a fiche ambulante planted once in a clean session held to its "
        "movement: reported at its play, counted as written (§17.9).",
        CHECKS,
    )
    sound = {"form": "individual", "sessions": [with_figure(session(random.Random("dup-faults"), 5, 2, 1))]}
    kit.add(
        t,
        1,
        "5 tables, 2 positions of 1 étui, held to the movement: no fault.",
        ["17.9"],
        [],
        sound,
        want={"/faults": []},
    )
    plays = sound["sessions"][0]["plays"]
    swapped = {o: plays[5]["players"][p] for o, p in zip(SEATS, ["west", "north", "south", "east"], strict=True)}
    planted = {
        "impossible_score": [("/sessions/0/plays/0/score", 71)],
        "etui_twice_for_player": [
            ("/sessions/0/sittings", REMOVED),
            ("/sessions/0/plays/-", {**plays[6], "table": 9, "position": 3, "players": dict(plays[2]["players"])}),
        ],
        "etui_twice_in_position": [("/sessions/0/sittings", REMOVED), ("/sessions/0/plays/6/position", 1)],
        "etui_played_once": [("/sessions/0/plays/9", REMOVED), ("/sessions/0/sittings/9/etuis", [])],
        "orientation_changed": [("/sessions/0/plays/5/players", swapped), ("/sessions/0/sittings/5/players", swapped)],
        "not_in_movement": [("/sessions/0/sittings/5", REMOVED)],
        "players_not_as_movement": [("/sessions/0/sittings/0/players/east", "X1")],
        "etui_not_as_movement": [("/sessions/0/sittings/0/etuis", [3])],
        "play_missing": [("/sessions/0/sittings/0/etuis", [1, 6])],
    }
    for number, code in enumerate(FAULT_CODES, start=2):
        body = sound
        for pointer, value in planted[code]:
            body = spoilt(body, pointer, value)
        kit.add(t, number, f"`{code}` planted once.", ["17.9"], [], body)


def match_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION,
        "matches",
        "Quadrettes and team matches: the points de match of each deal, the totals, the ranking, the winner (§17.8).",
        CHECKS,
    )
    kit.add(
        t,
        1,
        "Quadrettes A, B and C, a penalty to C.",
        ["17.8", "17.9"],
        [],
        OPERATIONS[OPERATION].examples["quadrettes"].request,
    )
    rng = random.Random("dup-quadrettes")
    names = ["Rouge", "Bleu", "Vert", "Jaune"]
    oppositions = [
        {
            "first": a,
            "second": b,
            "deals": [
                {"etui": e + 1, "first": garde_figure(garde_summary(rng)), "second": garde_figure(garde_summary(rng))}
                for e in range(4)
            ],
        }
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    kit.add(
        t,
        2,
        "Four quadrettes, each against each over 4 deals.",
        ["17.8"],
        [],
        {"form": "quadrettes", "quadrettes": {"oppositions": oppositions}},
    )
    kit.add(
        t,
        3,
        "A team match of two quarters, a bonus to Nantes.",
        ["17.8"],
        [],
        OPERATIONS[OPERATION].examples["teamMatch"].request,
    )
    contracts = ["garde", "garde_sans", "garde_contre"]
    quarters = [
        {
            "deals": [
                {
                    "etui": 4 * q + d + 1,
                    "first": {"contract": rng.choice(contracts), "score": garde_figure(garde_summary(rng))},
                    "second": {"contract": rng.choice(contracts), "score": garde_figure(garde_summary(rng))},
                }
                for d in range(4)
            ]
        }
        for q in range(4)
    ]
    body = {
        "form": "team_match",
        "team_match": {"teams": [{"name": "Lyon", "bonus": 1.5}, {"name": "Nantes"}], "quarters": quarters},
    }
    kit.add(t, 4, "A whole team match, four quarters of 4 deals, a bonus of 1.5 to Lyon.", ["17.8"], [], body)


def refusal_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION,
        "refusals",
        "Requests that are no tournament, each fault at its JSON pointer: an étui "
        "listed twice, a play of an étui not listed, both a figure and a summary, a player at two "
        "orientations, a triplette split, an adjustment about what was not played (§17.9).",
        REFUSED,
    )
    sound = {"form": "individual", "sessions": [with_figure(session(random.Random("dup-refusals"), 5, 2, 1))]}
    kit.answer(t.operation, sound)
    triplettes = {"form": "triplettes", "sessions": [session(random.Random("dup-refusals-3"), 5, 2, 1, True)]}
    rows: list[tuple[int, str, Json, str, Json]] = [
        (1, "An étui listed twice.", sound, "/sessions/0/etuis/1/number", 1),
        (2, "A play of an étui the session does not list.", sound, "/sessions/0/plays/0/etui", 99),
        (
            3,
            "A play with a figure and a summary.",
            sound,
            "/sessions/0/plays/0/summary",
            garde_summary(random.Random(1)),
        ),
        (
            4,
            "A player at two orientations of one play.",
            sound,
            "/sessions/0/plays/0/players/east",
            sound["sessions"][0]["plays"][0]["players"]["north"],
        ),
        (5, "A triplettes play whose North and South differ.", triplettes, "/sessions/0/plays/0/players/south", "ZZ"),
        (6, "An étui annulled that nobody played.", sound, "/sessions/0/adjustments", {"annulled": [{"etui": 42}]}),
        (7, "A coefficient of 0.", sound, "/sessions/0/coefficient", 0),
    ]
    for number, description, body, pointer, value in rows:
        spoilt_body = spoilt(body, pointer, value)
        at = "/sessions/0/plays/0" if number == 3 else pointer
        if number == 6:
            at = "/sessions/0/adjustments/annulled/0/etui"
        kit.add_refusal(t, number, description, ["17.9"], [], spoilt_body, [at])
