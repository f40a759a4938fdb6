"""Tournaments at the control table (rules.md §16.1–16.4): the rulebook's worked deals on a card,
each scored error planted once in a clean tournament, random tournaments of 3-, 4- and 5-player
tables with and without errors, ties, tie-breaks and teams, and requests that are no tournament.

Every answer is held to the reference model of oracle_standings.py, which scores each summary with
the model of oracle.py: the cards' bilans, the scored errors (code, pointer, players, source,
sanction), the standings and the teams.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable

from .assembly import Kit
from .cards import Json
from .errors import KitError
from .games import random_summary
from .oracle import ref_score_answer
from .oracle_standings import PLAYING_ORDER, ref_standings
from .refusals import REMOVED, spoilt
from .service import OPERATIONS
from .verdicts import PLAYER_TAG, Checks, fixed_pointers

OPERATION = "standings"
RULES = ["16.2", "16.3", "16.4"]
ANOMALY_FIELDS = ("code", "pointer", "position", "table", "players", "source", "rule", "sanction")
STANDING_FIELDS = ("player", "rank", "marks", "adjustments", "total")


def model_scores(summary: Json) -> list[int]:
    scores: list[int] = ref_score_answer(summary)["/scores"]
    return scores


def standings_pointers(request: Json, answer: Json) -> list[str]:
    """The verdicts of the control table: the plan, each card's bilans, played deals and counted
    rows, every scored error but its words, each standing, the teams."""
    out = ["/plan", "/teams"]
    if not answer["anomalies"]:
        out.append("/anomalies")
    for k in range(len(answer["anomalies"])):
        out += [f"/anomalies/{k}/{f}" for f in ANOMALY_FIELDS]
    for i in range(len(answer["standings"])):
        out += [f"/standings/{i}/{f}" for f in STANDING_FIELDS]
    for c, table in enumerate(answer["tables"]):
        out += [f"/tables/{c}/seats/{s}/bilan" for s in range(len(table["seats"]))]
        out += [f"/tables/{c}/played", *(f"/tables/{c}/deals/{d}/marks" for d in range(len(table["deals"])))]
    return out


def standings_reference(request: Json, answer: Json) -> dict[str, Json]:
    """What the reference model says at each of those pointers."""
    model = ref_standings(request, model_scores)
    known: dict[str, Json] = {"/plan": model["plan"], "/teams": model["teams"]}
    if not model["anomalies"]:
        known["/anomalies"] = []
    for k, found in enumerate(model["anomalies"]):
        known |= {f"/anomalies/{k}/{f}": found[f] for f in ANOMALY_FIELDS}
    for i, row in enumerate(model["standings"]):
        known |= {f"/standings/{i}/{f}": row[f] for f in STANDING_FIELDS}
    for c, table in enumerate(model["tables"]):
        known |= {f"/tables/{c}/seats/{s}/bilan": bilan for s, bilan in enumerate(table["seats"])}
        known[f"/tables/{c}/played"] = table["played"]
        known |= {f"/tables/{c}/deals/{d}/marks": row for d, row in enumerate(table["rows"])}
    return known


def standings_tags(request: Json, answer: Json | None) -> set[str]:
    """A tournament's: the sizes of its tables, teams and a tie-break when it has them, and each
    scored error its answer reports."""
    tags = {"tournament"}
    for table in [*request.get("scorecards", []), *request.get("seating", [])]:
        seats = table.get("seats") if isinstance(table, dict) else None
        if isinstance(seats, dict) and len(seats) in PLAYER_TAG:
            tags.add(PLAYER_TAG[len(seats)])
    players = request.get("players")
    if isinstance(players, list) and any(isinstance(p, dict) and p.get("team") for p in players):
        tags.add("teams")
    if request.get("tie_break", "none") != "none":
        tags.add("tie-break")
    if answer is not None:
        tags |= {f"anomaly:{a['code']}" for a in answer["anomalies"]}
    return tags


STANDINGS_CHECKS = Checks(standings_pointers, standings_reference, standings_tags)
STANDINGS_REFUSED = Checks(fixed_pointers(), lambda request, answer: {}, standings_tags)


def standings_cases(kit: Kit) -> None:
    worked_cases(kit)
    anomaly_cases(kit)
    generated_tournaments(kit)
    ranking_cases(kit)
    standings_refusals(kit)


def worked_cases(kit: Kit) -> None:
    about = (
        "The contract's examples: the rulebook's worked deals (§10) on one card of position 1, table 3; two tables "
        "of a position with three scored errors."
    )
    t = kit.topic(OPERATION, "worked", about, STANDINGS_CHECKS)
    worked = OPERATIONS[OPERATION].examples["rulebookDeals"].request
    want: dict[str, Json] = {f"/tables/0/seats/{s}/bilan": b for s, b in enumerate([72, 136, -400, 192])}
    want |= {"/plan/minutes": 45, "/standings/0/player": "E3", "/standings/0/total": 192}
    kit.add(t, 1, "Position 1, table 3: four of the rulebook's worked deals (§10), each summary with its marks "
            "written, the bilans +72, +136, −400, +192: clean.", [*RULES, "10"], [], worked, want=want)  # fmt: skip
    errors = OPERATIONS[OPERATION].examples["scoredErrors"].request
    want = {f"/anomalies/{k}/sanction": s for k, s in enumerate(["warning", "penalty", "warning"])}
    about = (
        "Two tables of position 1: a row written 10 off zero and a bilan added wrong at table 1 (a warning, then a "
        "penalty), no table number on the other card (a warning)."
    )
    kit.add(t, 2, about, RULES, [], errors, want=want)


def two_tables() -> Json:
    """The worked card, and table 4 of the same position written by its marks alone, both seated."""
    body = copy.deepcopy(OPERATIONS[OPERATION].examples["rulebookDeals"].request)
    body["players"] += [{"id": f"{o}4", "name": f"Player {o}4"} for o in "NWSE"]
    rows = ([-60, 180, -60, -60], [34, 34, -102, 34], [-70, -70, 210, -70], [-27, -27, -27, 81])
    second = {
        "position": 1,
        "table": 4,
        "seats": {"north": "N4", "west": "W4", "south": "S4", "east": "E4"},
        "deals": [{"marks": {"row": dict(zip(PLAYING_ORDER, row, strict=False))}} for row in rows],
        "totals": {"north": -123, "west": 117, "south": 21, "east": -15},
    }
    body["scorecards"].append(second)
    body["seating"] = [{"position": 1, "table": c["table"], "seats": dict(c["seats"])} for c in body["scorecards"]]
    return body


Change = tuple[str, Json]
"""A pointer into the request and the value put there (REMOVED: taken out)."""


def changed(request: Json, changes: Iterable[Change]) -> Json:
    for pointer, value in changes:
        request = spoilt(request, pointer, value)
    return request


TEAMS = [("/players/0/team", "A"), ("/players/3/team", "A")]
"""N3 and E3 of one team."""
# fmt: off
PLANTED: list[tuple[int, str, list[str], list[Change], str, str]] = [
    (1, "Table 4 writes its third deal's marks with North 10 too many (and his bilan with them).", ["16.3"],
     [("/scorecards/1/deals/2/marks/row/north", -60), ("/scorecards/1/totals/north", -113)],
     "deal_not_zero_sum", "/scorecards/1/deals/2/marks/row"),
    (2, "Table 3's first deal written with two defenders' marks apart, −100 and −112: still zero, but no deal's.",
     ["9.3", "16.3"],
     [("/scorecards/0/deals/0/marks/row/north", -100), ("/scorecards/0/deals/0/marks/row/west", -112),
      ("/scorecards/0/totals/north", 78), ("/scorecards/0/totals/west", 130)],
     "impossible_marks", "/scorecards/0/deals/0/marks/row"),
    (3, "Table 3's first deal written taken by North, whose mark is a defender's.", ["9.3", "16.3"],
     [("/scorecards/0/deals/0/marks/taker", "north")], "impossible_marks", "/scorecards/0/deals/0/marks/row"),
    (4, "Table 3's second deal written as a garde: its summary says garde sans.", ["16.3"],
     [("/scorecards/0/deals/1/marks/contract", "garde")], "marks_contradict_deal", "/scorecards/0/deals/1/marks"),
    (5, "Table 3 writes South's bilan −380: his marks add up to −400.", ["16.3"],
     [("/scorecards/0/totals/south", -380)], "bilan_mismatch", "/scorecards/0/totals/south"),
    (6, "Table 4's card has no table number: it stands for the seated table 4, whose players it names.",
     ["16.2", "16.3"], [("/scorecards/1/table", REMOVED)], "table_missing", "/scorecards/1/table"),
    (7, "Table 4's card has no name and number at West.", ["16.3"],
     [("/scorecards/1/seats/west", None)], "player_missing", "/scorecards/1/seats/west"),
    (8, "Table 4's card did not come back.", ["16.3", "16.4"],
     [("/scorecards/1/returned", False), ("/scorecards/1/deals", []), ("/scorecards/1/totals", REMOVED)],
     "card_not_returned", "/scorecards/1/returned"),
    (9, "Table 4 was seated, and no card came back from it.", ["16.2", "16.3"],
     [("/scorecards/1", REMOVED)], "card_not_returned", "/seating/1"),
    (10, "S3, of table 3, written at table 4 too.", ["16.3"],
     [("/scorecards/1/seats/south", "S3")], "player_twice", "/scorecards/1/seats/south"),
    (11, "N4 written at two seats of table 4's card.", ["16.3"],
     [("/scorecards/1/seats/east", "N4")], "player_twice", "/scorecards/1/seats/east"),
    (12, "E9 written at table 4: nobody has that number.", ["16.3"],
     [("/scorecards/1/seats/east", "E9")], "unknown_player", "/scorecards/1/seats/east"),
    (13, "Table 4 plays three deals of a plan of four.", ["16.1", "16.3"],
     [("/scorecards/1/deals/3", REMOVED), ("/scorecards/1/totals", {"north": -96, "west": 144, "south": 48,
                                                                    "east": -96})],
     "deal_count", "/scorecards/1/deals"),
    (14, "Table 4's card (and its seating) in position 6 of a plan of 5.", ["16.1", "16.3"],
     [("/scorecards/1/position", 6), ("/seating/1/position", 6)], "position_not_in_plan", "/scorecards/1/position"),
    (15, "Two cards for table 3 in position 1 (no seating given).", ["16.3"],
     [("/scorecards/1/table", 3), ("/seating", REMOVED)], "duplicate_table", "/scorecards/1/table"),
    (16, "N3 and E3 of one team at table 3: teammates never meet.", ["16.3", "16.4"], TEAMS,
     "teammates_together", "/scorecards/0/seats/east"),
    (17, "Table 4's card numbered 3, beside table 3's own: its players were seated at table 4.", ["16.2", "16.3"],
     [("/scorecards/1/table", 3)], "wrong_table_number", "/scorecards/1/table"),
    (18, "S3 and S4 each written at the other's table.", ["16.2", "16.3"],
     [("/scorecards/0/seats/south", "S4"), ("/scorecards/1/seats/south", "S3")],
     "players_swapped", "/scorecards/0/seats/south"),
    (19, "R1, a player the seating seats nowhere in position 1, written at table 4 in E4's place.", ["16.2", "16.3"],
     [("/players/-", {"id": "R1", "name": "Reserve"}), ("/scorecards/1/seats/east", "R1")],
     "not_seated_here", "/scorecards/1/seats/east"),
    (20, "The seating puts R1 at table 4 too, as its fifth: he is on no card.", ["16.2", "16.3"],
     [("/players/-", {"id": "R1", "name": "Reserve"}), ("/seating/1/seats/fifth", "R1")],
     "seated_absent", "/seating/1/seats/fifth"),
]
# fmt: on


def anomaly_cases(kit: Kit) -> None:
    about = (
        "Each scored error planted once in two clean tables of a position: it is reported once, at its pointer, "
        "with the players of its table (§16.3)."
    )
    t = kit.topic(OPERATION, "anomalies", about, STANDINGS_CHECKS)
    sound = two_tables()
    kit.add(t, 1, "The two tables, clean: no scored error.", RULES, [], sound, want={"/anomalies": []})
    for number, description, rules, changes, code, pointer in PLANTED:
        request = changed(sound, changes)
        want = {"/anomalies/0/code": code, "/anomalies/0/pointer": pointer, "/anomalies/0/sanction": "warning"}
        answer = kit.add(t, number + 1, description, [*RULES, *rules], [], request, want=want)
        if len(answer["anomalies"]) != 1:
            raise KitError(f"{OPERATION}/anomalies/{number + 1:03d}: {len(answer['anomalies'])} scored errors")


# ---- random tournaments ----------------------------------------------------------------------------


def sizes(players: int, fives: bool) -> list[int]:
    """Tables of four, the fewest of three (or five) the count leaves over."""
    if fives:
        return [5] * (players % 4) + [4] * ((players - 5 * (players % 4)) // 4)
    threes = (4 - players % 4) % 4
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


def tournament(
    kit: Kit, seed: str, players: int, positions: int, deals: int, fives: bool = False, planned: int | None = None
) -> Json:
    """A clean tournament seated at random: each deal a summary, its marks (as the score operation
    gives them) written beside it, or alone, or not; now and then a deal dealt again; the bilans."""
    rng = random.Random(seed)
    ids = [f"P{i + 1}" for i in range(players)]
    cards, seating = [], []
    for position in range(1, positions + 1):
        order = rng.sample(ids, players)
        for table, size in enumerate(sizes(players, fives), start=1):
            group, order = order[:size], order[size:]
            seats = PLAYING_ORDER[:size] if size != 3 else ["north", "west", "south"]
            entries, totals = [], [0] * size
            for _ in range(deals):
                if rng.random() < 0.1:
                    entries.append({"not_played": {"reason": "redeal"}})
                summary = random_summary(rng, size)
                row = kit.answer("score", {"players": size, **summary})["scores"]
                totals = [a + b for a, b in zip(totals, row, strict=True)]
                how = rng.choice(["both", "marks", "summary"])
                entry: Json = {} if how == "marks" else {"summary": summary}
                if how != "summary":
                    entry["marks"] = {"row": dict(zip(seats, row, strict=True)), "taker": seats[summary["taker"]]}
                entries.append(entry)
            at = dict(zip(seats, group, strict=True))
            card: Json = {"position": position, "table": table, "seats": at, "deals": entries}
            cards.append({**card, "totals": dict(zip(seats, totals, strict=True))})
            seating.append({"position": position, "table": table, "seats": dict(at)})
    return {
        "players": [{"id": i, "name": f"Player {i[1:]}"} for i in ids],
        "plan": {"positions": planned or positions, "deals": deals},
        "scorecards": cards,
        "seating": seating,
    }


def generated_tournaments(kit: Kit) -> None:
    t = kit.topic(OPERATION, "generated", "Random tournaments at tables of 4, 3 and 5, seated at random: clean, then "
                  "with one card spoilt; every bilan, scored error and standing as the reference model says "
                  "(§16).", STANDINGS_CHECKS)  # fmt: skip
    shapes = [
        (1, "16 players, 3 positions of a plan of 5 × 4", 16, 3, 4, False),
        (2, "14 players (two tables of three), 2 positions of 4 deals", 14, 2, 4, False),
        (3, "17 players (a table of five), 2 positions of 3 deals", 17, 2, 3, True),
        (4, "12 players, 2 positions of 4 deals", 12, 2, 4, False),
    ]
    spoils = ["a row written 10 off zero", "a bilan written 10 off", "a stranger's number", "no table number"]
    for number, what, players, positions, deals, fives in shapes:
        request = tournament(kit, f"standings-{number}", players, positions, deals, fives, 5 if number == 1 else None)
        kit.add(t, number, f"{what}: clean.", ["16.1", *RULES], [], request, want={"/anomalies": []})
        rng = random.Random(f"spoilt-{number}")
        c = rng.randrange(len(request["scorecards"]))
        card = request["scorecards"][c]
        seat = rng.choice(list(card["seats"]))
        written = [d for d, e in enumerate(card["deals"]) if "marks" in e]
        spoil = spoils[number - 1]
        changes: list[Change]
        if spoil == spoils[0] and written:
            d = rng.choice(written)
            mark = card["deals"][d]["marks"]["row"][seat]
            total = card["totals"][seat]
            changes = [(f"/scorecards/{c}/deals/{d}/marks/row/{seat}", mark + 10), (f"/scorecards/{c}/totals/{seat}",
                                                                                    total + 10)]  # fmt: skip
        elif spoil == spoils[1]:
            changes = [(f"/scorecards/{c}/totals/{seat}", card["totals"][seat] + 10)]
        elif spoil == spoils[2]:
            changes = [(f"/scorecards/{c}/seats/{seat}", "X99")]
        else:
            changes = [(f"/scorecards/{c}/table", REMOVED)]
        kit.add(t, number + 10, f"{what}, card {c} with {spoil}.", ["16.1", *RULES], [], changed(request, changes))


def ranking_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "ranking", "Equal totals share a rank unless a tie-break is named (best_position, "
                  "positive_positions); the referee's adjustments; teams ranked by their players' sum (§16.4).",
                  STANDINGS_CHECKS)  # fmt: skip
    seats = dict(zip(["north", "west", "south", "east"], "ABCD", strict=True))
    rows = [[200, 50, -150, -100], [-100, 50, 100, -50], [0, 0, -50, 50]]
    tied: Json = {
        "players": [{"id": x, "name": f"Player {x}"} for x in "ABCD"],
        "scorecards": [
            {
                "position": p,
                "table": 1,
                "seats": seats,
                "deals": [{"marks": {"row": dict(zip(seats, row, strict=True))}}],
            }
            for p, row in enumerate(rows, start=1)
        ],
    }
    cases = [
        (1, "A and B both on 100, C and D on −100: they share ranks 1 and 3.", None),
        (2, "The same, best_position: A's +200 beats B's +50; C's +100 beats D's +50.", "best_position"),
        (3, "The same, positive_positions: B positive twice, A once; C and D once each, still equal.",
         "positive_positions"),
    ]  # fmt: skip
    for number, description, tie_break in cases:
        request = tied if tie_break is None else {**tied, "tie_break": tie_break}
        kit.add(t, number, description, ["16.4"], [], request)
    adjusted = {**tied, "adjustments": [{"player": "B", "position": 2, "points": -20, "reason": "Slow play"}]}
    kit.add(t, 4, "B's −20 from the referee puts A alone first; the adjustment is the only amount added.",
            ["16.3", "16.4"], [], adjusted)  # fmt: skip
    teams = changed(two_tables(), [("/players/0/team", "Rouge"), ("/players/4/team", "Rouge"),
                                   ("/players/2/team", "Bleu"), ("/players/6/team", "Bleu")])  # fmt: skip
    kit.add(t, 5, "Teams Rouge (N3, N4) and Bleu (S3, S4) at two tables: each team's total is its players'.",
            ["16.4"], [], teams)  # fmt: skip


# fmt: off
def standings_refusals(kit: Kit) -> None:
    t = kit.topic(OPERATION, "refusals", "Requests that are no tournament, each fault located by its JSON pointer: a "
                  "number given twice, a table of two, a mark at a seat the card does not have, a deal with "
                  "nothing, deals on a card not returned, a seated stranger (rules.md §16.2).", STANDINGS_REFUSED)
    sound = two_tables()
    kit.answer(t.operation, sound)
    rows: list[tuple[int, str, list[str], list[Change]]] = [
        (1, "N3's number given to a second player.", ["/players/8/id"], [("/players", [*sound["players"],
                                                                                       {"id": "N3", "name": "x"}])]),
        (2, "Table 4 with two seats.", ["/scorecards/1/seats"],
         [("/scorecards/1/seats", {"north": "N4", "south": "S4"})]),
        (3, "A mark at the fifth seat of a table of four.", ["/scorecards/1/deals/0/marks/row"],
         [("/scorecards/1/deals/0/marks/row/fifth", 0)]),
        (4, "A deal given as nothing.", ["/scorecards/1/deals/0"], [("/scorecards/1/deals/0", {})]),
        (5, "A card not returned that gives deals.", ["/scorecards/1/deals"], [("/scorecards/1/returned", False)]),
        (6, "Z1 seated at table 4: not a player of the tournament.", ["/seating/1/seats/east"],
         [("/seating/1/seats/east", "Z1")]),
        (7, "A scorecard without its seats.", ["/scorecards/0/seats"], [("/scorecards/0/seats", REMOVED)]),
    ]
    for number, description, pointers, changes in rows:
        kit.add_refusal(t, number, description, ["16.2"], [], changed(sound, changes), pointers)
# fmt: on
