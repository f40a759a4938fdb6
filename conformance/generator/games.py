"""Game sheets: the rulebook's worked deals at one table, the draw for the first deal, and
random sheets at 3, 4 and 5 players mixing summaries, records and deals not played.

Every row is also posed to the single-deal operation it stands for, and must score as that
one does: the sheet adds up, it decides nothing of a deal itself.
"""

from __future__ import annotations

import copy
import random

from service.randomdeals import random_deal
from service.rules.sheet import dealers_due

from .assembly import Kit, Topic
from .building import swap_plays
from .cards import CONTRACTS, PLAYER_WORD, Deal, Json
from .errors import KitError
from .service import OPERATIONS
from .verdicts import Checks

SHEET_RULES = ["15.3", "15.4", "9.3"]
"""The sections a sheet applies: its rows, totals and bilans (§15.3), claims (§15.4), each row
a deal's marks (§9.3)."""
DRAW_RULES = ["15.1", "15.2"]
"""The draw compares cards by their rank and suit (§1)."""
OPERATION = "score-game"


def game_pointers(request: Json, answer: Json) -> list[str]:
    """The verdicts of a sheet: each row's marks, totals and flags; each seat's bilan; the draw,
    the zero sum and the claims checked (never a ruling's or a mismatch's words)."""
    out = ["/draw", "/zero_sum"]
    if answer["claims"] is None:
        out.append("/claims")
    else:
        out.append("/claims/agree")
        for i in range(len(answer["claims"]["mismatches"])):
            out += [f"/claims/mismatches/{i}/{k}" for k in ("pointer", "claimed", "correct")]
    for i, row in enumerate(answer["deals"]):
        out += [f"/deals/{i}/{k}" for k in ("kind", "dealer", "dealer_in_turn", "taker", "contract", "not_played")]
        out += [f"/deals/{i}/scores", f"/deals/{i}/totals"]
        if row["ruling"] is not None:
            out += [f"/deals/{i}/ruling/{k}" for k in ("decision", "reason", "side_at_fault", "scores")]
    for s in range(request["players"]):
        out += [f"/bilans/{s}/{k}" for k in ("plus", "minus", "net", "rank")]
    return out


def game_tags(request: Json, answer: Json) -> set[str]:
    tags = {"sheet"}
    if request.get("draw") is not None:
        tags.add("draw")
    if request.get("claims") is not None:
        tags.add("claims")
    if any(row["ruling"] is not None for row in answer["deals"]):
        tags |= {"faulty", "ruling"}
    if any(row["not_played"] is not None for row in answer["deals"]):
        tags.add("not-played")
    return tags


def game_reference(request: Json, answer: Json) -> dict[str, Json]:
    """Nothing of the sheet's own: check_rows holds each row against its single-deal operation."""
    return {}


SHEET_CHECKS = Checks(game_pointers, game_reference, game_tags)
"""The sheet's checks, handed to each of its topics (verdicts.py knows no topic)."""


def game_cases(kit: Kit) -> None:
    rulebook_cases(kit)
    draw_cases(kit)
    for players in (3, 4, 5):
        generated_sheets(kit, players, 8)


def rulebook_cases(kit: Kit) -> None:
    t = kit.topic(
        OPERATION, "rulebook", "The rulebook's five worked deals (§10) kept on one sheet at one table.", SHEET_CHECKS
    )
    request = copy.deepcopy(OPERATIONS[OPERATION].examples["rulebookSheet"].request)
    nets, plus, minus = [-446, -390, 1346, -510], [318, 360, 1746, 270], [764, 750, 400, 780]
    want: dict[str, Json] = {"/draw/first_dealer": 1, "/draw/redraw": [], "/zero_sum": True, "/claims/agree": True}
    for s in range(4):
        want |= {f"/bilans/{s}/net": nets[s], f"/bilans/{s}/plus": plus[s], f"/bilans/{s}/minus": minus[s]}
    add(kit, t, 1, "Takers E, W, S, N, S: the bilans −446, −390, +1346, −510, as the written sheet claims.",
        [*SHEET_RULES, "9.4", "9.5", "9.6"], request, want)  # fmt: skip
    wrong = {**request, "claims": {"net": [-446, -390, 1364, -510]}}
    want = {
        "/claims/agree": False,
        "/claims/mismatches/0/pointer": "/claims/net/2",
        "/claims/mismatches/0/claimed": 1364,
        "/claims/mismatches/0/correct": 1346,
    }
    add(kit, t, 2, "The same sheet written with S's bilan as 1364: one mismatch, at /claims/net/2.", SHEET_RULES, wrong,
        want)  # fmt: skip
    rows = {**request, "claims": {"net": nets, "rows": [[-318, 954, -318, -318], [-76, -76, -76, 228]]}}
    want = {"/claims/agree": False, "/claims/mismatches/0/pointer": "/claims/rows/0/0"}
    add(kit, t, 3, "The first row written with N and E swapped: the mismatches start at /claims/rows/0/0.",
        SHEET_RULES, rows, want)  # fmt: skip


def draw_cases(kit: Kit) -> None:
    t = kit.topic(OPERATION, "draw", "The draw for the first deal: the lowest card deals; equal ranks by suit, clubs "
                  "lowest, then diamonds, hearts, spades; the Excuse draws again (§1).", SHEET_CHECKS)  # fmt: skip
    one = {"summary": {"contract": "garde", "taker": 0, "points": 51, "oudlers": 2}}
    draws = [
        ("10H, 10C, 5T, KS: the ten of clubs is the lowest, seat 1 deals.", ["10H", "10C", "5T", "KS"], 1, []),
        ("KD, KC, KH, KS: the king of clubs deals.", ["KD", "KC", "KH", "KS"], 1, []),
        ("7S, 7H, 7D: the seven of diamonds deals.", ["7S", "7H", "7D"], 2, []),
        (
            "21T, 1T, 1S, QH, JC: every plain card is below the trumps; the ace of spades deals.",
            ["21T", "1T", "1S", "QH", "JC"],
            2,
            [],
        ),
        ("1C, 1T, 2C, 1D: the ace of clubs is the lowest card.", ["1C", "1T", "2C", "1D"], 0, []),
        ("5T, 3T, 20T: trumps by number, the 3 deals.", ["5T", "3T", "20T"], 1, []),
        ("10H, EX, 5T, KS: the Excuse has no rank, its seat draws again.", ["10H", "EX", "5T", "KS"], None, [1]),
        (
            "EX, 1C, 2C, 3C, 4C: even the ace of clubs waits for the Excuse's redraw.",
            ["EX", "1C", "2C", "3C", "4C"],
            None,
            [0],
        ),
    ]
    for i, (description, draw, first, redraw) in enumerate(draws):
        n = len(draw)
        request = {"players": n, "draw": draw, "deals": [one]}
        want = {"/draw/first_dealer": first, "/draw/redraw": redraw}
        if first is None:
            want["/deals/0/dealer_in_turn"] = None
        add(kit, t, i + 1, description, DRAW_RULES, request, want)
    # The rotation after the draw: each next deal passes to the next seat; one out of turn is flagged.
    deals = [{**one, "dealer": d} for d in (1, 2, 0, 0)]
    request = {"players": 4, "draw": ["10H", "10C", "5T", "KS"], "deals": deals}
    want = {f"/deals/{i}/dealer_in_turn": ok for i, ok in enumerate([True, True, False, True])}
    add(kit, t, 11, "Dealers 1, 2, 0, 0 after seat 1 drew lowest: the third deal's dealer is out of turn, the "
        "fourth is the seat due by the rotation from the draw.",
        DRAW_RULES, request, want)  # fmt: skip


def add(kit: Kit, t: Topic, n: int, description: str, rules: list[str], request: Json, want: dict[str, Json]) -> None:
    answer = kit.answer(OPERATION, request)
    check_rows(kit, t, n, request, answer)
    kit.add(t, n, description, rules, [], request, want=want)


def check_rows(kit: Kit, t: Topic, n: int, request: Json, answer: Json) -> None:
    """Each row scores as its single-deal operation does; the totals run; the nets are the sums."""
    players = request["players"]
    running = [0] * players
    for i, (entry, row) in enumerate(zip(request["deals"], answer["deals"], strict=True)):
        if "summary" in entry:
            want = kit.answer("score", {"players": players, **entry["summary"]})["scores"]
        elif "record" in entry:
            single = kit.answer("evaluate", entry["record"])
            if single.get("ruling") is not None:
                want = single["ruling"]["scores"]
            elif single["score"] is not None:
                want = single["score"]["scores"]
            else:
                want = [0] * players  # dealt again
        else:
            want = [0] * players
        running = [a + b for a, b in zip(running, want, strict=True)]
        if row["scores"] != want or row["totals"] != running:
            raise KitError(f"{OPERATION}/{t.name}/{n:03d}: row {i} is {row['scores']}/{row['totals']}, not {want}")
    if [b["net"] for b in answer["bilans"]] != running or sum(running) != 0:
        raise KitError(f"{OPERATION}/{t.name}/{n:03d}: the nets are not the columns' sums, or not zero-sum")


def random_summary(rng: random.Random, players: int) -> Json:
    oudlers = rng.randrange(4)
    summary: Json = {
        "contract": rng.choice(CONTRACTS),
        "taker": rng.randrange(players),
        # Each oudler is worth 4.5 points: the side holding it has at least that much.
        "points": rng.randrange(9 * oudlers, 183 - 9 * (3 - oudlers)) / 2,
        "oudlers": oudlers,
        "petit_au_bout": rng.choice([None, None, "attack", "defence"]),
    }
    if players == 5:
        summary["partner"] = rng.randrange(players)
    return summary


def faulty_record(kit: Kit, rng: random.Random, d: Deal) -> Deal:
    """The deal with two plays swapped so that it is faulty and ruled (§14)."""
    n = len(d["plays"])
    for _ in range(200):
        i, j = sorted(rng.sample(range(n), 2))
        swapped = swap_plays(d, i, j)
        if kit.answer("evaluate", swapped).get("ruling") is not None:
            return swapped
    raise KitError("no faulty swap with a ruling")


def generated_sheets(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(OPERATION, f"generated-{players}p", f"Random {PLAYER_WORD[players]}-player sheets: random summaries, "
                  "random legal records and deals not played, in random order; each row as its single-deal "
                  "operation scores it.", SHEET_CHECKS)  # fmt: skip
    for sheet in range(count):
        rng = random.Random(f"sheet-{players}-{sheet}")
        entries: list[Json] = []
        for k in range(rng.randrange(3, 9)):
            kind = rng.choice(["summary", "summary", "record", "not_played"])
            if kind == "summary":
                entries.append({"summary": random_summary(rng, players)})
            elif kind == "record":
                entries.append({"record": random_deal(1000 * players + 10 * sheet + k, players)})
            else:
                entries.append({"not_played": {"reason": rng.choice(["redeal", "void"])}})
        what = ["random"]
        request: Json = {"players": players, "deals": entries}
        if sheet == 1:  # a faulty record, scored by its ruling
            d = random_deal(2000 * players + sheet, players)
            entries.insert(rng.randrange(len(entries) + 1), {"record": faulty_record(kit, rng, d)})
            what.append("with a faulty record scored by its ruling")
        if sheet in (2, 3):  # a draw, the summaries' dealers by the rotation, one out of turn
            draw = rng.sample(["1C", "5D", "9H", "QS", "3T", "14T", "21T", "JD"], players)
            request["draw"] = draw
            first = min(range(players), key=lambda s: draw_order(draw[s]))
            again = [entry.get("not_played", {}).get("reason") == "redeal" for entry in entries]
            for entry, due in zip(entries, dealers_due(first, again, players), strict=True):
                if "record" not in entry:
                    entry["dealer"] = due
            summaries = [i for i, e in enumerate(entries) if "record" not in e]
            if sheet == 3 and summaries:
                late = rng.choice(summaries)
                entries[late]["dealer"] = (entries[late]["dealer"] + 1) % players
                what.append(f"deal {late + 1}, a summary, dealt out of turn")
            what.append("after a draw")
        request["names"] = [f"P{s + 1}" for s in range(players)] if sheet % 2 else None
        answer = kit.answer(OPERATION, request)
        nets = [b["net"] for b in answer["bilans"]]
        if sheet in (4, 5):  # the sheet as written: right, or with one bilan number wrong
            seat = rng.randrange(players)
            claimed = list(nets)
            if sheet == 5:
                claimed[seat] += rng.choice([-10, 10, 100])
                what.append(f"claims with seat {seat}'s bilan wrong")
            else:
                what.append("claims that agree")
            request["claims"] = {"net": claimed, "rows": [row["scores"] for row in answer["deals"]]}
        if request["names"] is None:
            del request["names"]
        want: dict[str, Json] = {}
        if sheet == 5:
            want |= {
                "/claims/mismatches/0/pointer": f"/claims/net/{seat}",
                "/claims/mismatches/0/claimed": claimed[seat],
                "/claims/mismatches/0/correct": nets[seat],
            }
        description = f"Sheet {sheet}: {len(entries)} deals, " + ", ".join(what) + "."
        add(kit, t, sheet + 1, description, SHEET_RULES, request, want)


def draw_order(card: str) -> int:
    """The draw's order of the few cards the random sheets draw from (lowest first)."""
    return ["1C", "5D", "9H", "JD", "QS", "3T", "14T", "21T"].index(card)
