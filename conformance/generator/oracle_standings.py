"""The reference model of the control table (docs/rules.md §16.1–16.4), read from the rulebook
apart from service/rules: what a tournament's cards add up to, the scored errors each one holds,
and the standings.

It works on the wire's JSON. A deal given as a summary is scored by the scorer it is handed (the
kit hands it the reference model's own, oracle.ref_score_answer), so that this module stays
independent of the other models.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .cards import Json

PLAYING_ORDER = ["north", "west", "south", "east", "fifth"]
"""§16.2: a card's seats in playing order, the seat after North being West."""
FFT_MINUTES = {3: 35, 4: 45}
FFT_SHAPES = [(5, 4), (6, 4), (7, 3)]
FROM_THE_FFT_CODE = {"deal_not_zero_sum", "table_missing", "player_missing", "card_not_returned"}
SECTION = {
    "impossible_marks": "9.3",
    "deal_count": "16.1",
    "position_not_in_plan": "16.1",
    "teammates_together": "16.4",
}

Scorer = Callable[[Json], list[int]]
"""A summary (with its ``players``) → every seat's marks."""


def seats_of(card: Json) -> list[str]:
    return [o for o in PLAYING_ORDER if o in card["seats"]]


def deal_row(entry: Json, n: int, scorer: Scorer) -> tuple[list[int] | None, list[int], bool]:
    """A deal of a card: the row its summary scores (None when only its marks are written), the row
    counted (the written one first), whether it was played (§16.1)."""
    scored: list[int] | None = None
    if "summary" in entry:
        scored = scorer({"players": n, **entry["summary"]})
    elif "not_played" in entry:
        scored = [0] * n
    counted = scored
    if "marks" in entry:
        counted = [entry["marks"]["row"][o] for o in PLAYING_ORDER if o in entry["marks"]["row"]]
    assert counted is not None, "the model is handed summaries, deals not played and marks only"
    played = entry.get("not_played", {}).get("reason") != "redeal"
    return scored, counted, played


def could_be_dealt(row: list[int], taker: int | None, partner: int | None) -> bool:
    """§9.3: some seat's mark is (n − 1)·D with every other seat's −D; or, at five, a seat's 2·D and
    another's D with the other three −D. A taker (and partner) written must be those seats; a
    partner written at the taker's seat is a taker alone."""
    n = len(row)
    for t in range(n):
        if taker is not None and t != taker:
            continue
        rest = row[:t] + row[t + 1 :]
        alone_ok = partner is None or partner == t
        if alone_ok and len(set(rest)) == 1 and row[t] + (n - 1) * rest[0] == 0:
            return True
        if n != 5:
            continue
        for p in range(n):
            if p == t or (partner is not None and partner != p):
                continue
            defence = [row[s] for s in range(n) if s not in (t, p)]
            if len(set(defence)) == 1 and row[p] == -defence[0] and row[t] == -2 * defence[0]:
                return True
    return False


def ref_standings(request: Json, scorer: Scorer) -> Json:
    """The model's answer: the plan, each card's counted rows and bilans, the scored errors (code,
    pointer, position, table, players, source, rule, sanction) and the standings and teams."""
    players = {p["id"]: p for p in request["players"]}
    plan = request.get("plan")
    errors: list[Json] = []
    per_card: Counter[str] = Counter()

    def report(key: str, code: str, pointer: str, position: int, table: int | None, named: list[str]) -> None:
        per_card[key] += 1
        errors.append(
            {
                "code": code,
                "pointer": pointer,
                "position": position,
                "table": table,
                "players": named,
                "source": "fft_code" if code in FROM_THE_FFT_CODE else "rulebook",
                "rule": SECTION.get(code, "16.3"),
                "sanction": "warning" if per_card[key] == 1 else "penalty",
            }
        )

    against = _against_seating(request)
    tables_out = []
    seen_at: set[tuple[int, str]] = set()
    numbered: set[tuple[int, int]] = set()
    bilans: dict[str, list[Json]] = {p: [] for p in players}
    for c, card in enumerate(request["scorecards"]):
        order = seats_of(card)
        n = len(order)
        at = [card["seats"][o] for o in order]
        named = [p for p in at if p is not None]
        pos, table = card["position"], card.get("table")
        key, here = f"card {c}", f"/scorecards/{c}"

        def flag(
            code: str, pointer: str, key: str = key, pos: int = pos, table: int | None = table, named: list[str] = named
        ) -> None:
            report(key, code, pointer, pos, table, named)

        # In the card's order (§16.3): its number, its position, its seats, its return, its
        # deals, their count, its bilans.
        view = against.get(c)
        counts_as = table if view is None else view["number"]
        if table is None:
            flag("table_missing", f"{here}/table")
        elif view is not None and view["number"] != table:
            flag("wrong_table_number", f"{here}/table")
        if counts_as is not None:
            if (pos, counts_as) in numbered:
                flag("duplicate_table", f"{here}/table")
            numbered.add((pos, counts_as))
        if plan is not None and pos > plan["positions"]:
            flag("position_not_in_plan", f"{here}/position")
        teams_here: set[str] = set()
        teams_by: set[tuple[str, str]] = set()
        for o, player in zip(order, at, strict=True):
            if player is None:
                flag("player_missing", f"{here}/seats/{o}")
                continue
            if player not in players:
                flag("unknown_player", f"{here}/seats/{o}")
            if (pos, player) in seen_at:
                flag("player_twice", f"{here}/seats/{o}")
            seen_at.add((pos, player))
            team = players.get(player, {}).get("team")
            if team is not None:
                if team in teams_here and (team, player) not in teams_by:
                    flag("teammates_together", f"{here}/seats/{o}")
                teams_here.add(team)
                teams_by.add((team, player))
            if view is not None and o in view["seats"]:
                flag(view["seats"][o], f"{here}/seats/{o}")
        for absent in [] if view is None else view["absent"]:
            flag("seated_absent", absent)
        returned = card.get("returned", True)
        rows: list[list[int]] = []
        played = 0
        if not returned:
            flag("card_not_returned", f"{here}/returned")
        else:
            for d, entry in enumerate(card.get("deals", [])):
                scored, counted, was_played = deal_row(entry, n, scorer)
                rows.append(counted)
                played += was_played
                if "marks" not in entry:
                    continue
                marks = entry["marks"]
                taker = order.index(marks["taker"]) if marks.get("taker") else None
                partner = order.index(marks["partner"]) if marks.get("partner") else None
                if sum(counted) != 0:
                    flag("deal_not_zero_sum", f"{here}/deals/{d}/marks/row")
                elif not could_be_dealt(counted, taker, partner):
                    flag("impossible_marks", f"{here}/deals/{d}/marks/row")
                elif scored is not None and _contradicts(entry, counted, scored, taker, partner):
                    flag("marks_contradict_deal", f"{here}/deals/{d}/marks")
            if plan is not None and played != plan["deals"]:
                flag("deal_count", f"{here}/deals")
        sums = [sum(row[s] for row in rows) for s in range(n)]
        for o, s in zip(order, sums, strict=True):
            written = (card.get("totals") or {}).get(o)
            if returned and written is not None and written != s:
                flag("bilan_mismatch", f"{here}/totals/{o}")
        tables_out.append({"seats": sums, "played": played, "rows": rows})
        for s, player in enumerate(at):
            if player in bilans:
                bilans[player].append({"position": pos, "bilan": sums[s] if returned else None})
    stood_for = {view["seated"] for view in against.values()}
    for k, seated in enumerate(request.get("seating", [])):
        order = seats_of(seated)
        who = [seated["seats"][o] for o in order]
        if k not in stood_for:
            named = [p for p in who if p is not None]
            report(f"seated {k}", "card_not_returned", f"/seating/{k}", seated["position"], seated["table"], named)
            for player in named:
                bilans[player].append({"position": seated["position"], "bilan": None})
    adjusted = Counter[str]()
    for adjustment in request.get("adjustments", []):
        adjusted[adjustment["player"]] += adjustment["points"]
    marks = {p: sum(b["bilan"] for b in bilans[p] if b["bilan"] is not None) for p in players}
    total = {p: marks[p] + adjusted[p] for p in players}
    tie_break = request.get("tie_break", "none")
    ranked_by = {p: (total[p], _tie(bilans[p], tie_break)) for p in players}
    rank = {p: 1 + sum(ranked_by[q] > ranked_by[p] for q in players) for p in players}
    standings = sorted(players, key=lambda p: rank[p])  # stable: the order of players among equals
    teams: dict[str, list[str]] = {}
    for p, player in players.items():
        if player.get("team") is not None:
            teams.setdefault(player["team"], []).append(p)
    team_total = {t: sum(total[p] for p in members) for t, members in teams.items()}
    team_rank = {t: 1 + sum(v > team_total[t] for v in team_total.values()) for t in teams}
    return {
        "plan": None
        if plan is None
        else {
            **plan,
            "minutes": FFT_MINUTES.get(plan["deals"]),
            "fft_shape": (plan["positions"], plan["deals"]) in FFT_SHAPES,
        },
        "tables": tables_out,
        "anomalies": errors,
        "standings": [
            {"player": p, "rank": rank[p], "marks": marks[p], "adjustments": adjusted[p], "total": total[p]}
            for p in standings
        ],
        "teams": None
        if not teams
        else [
            {"rank": team_rank[t], "team": t, "players": teams[t], "total": team_total[t]}
            for t in sorted(teams, key=lambda t: team_rank[t])
        ],
    }


def _contradicts(entry: Json, written: list[int], scored: list[int], taker: int | None, partner: int | None) -> bool:
    """Written marks, taker, partner or contract other than the deal's summary scores (§16.3)."""
    summary = entry.get("summary")
    if written != scored:
        return True
    if summary is None:
        return False
    if taker is not None and taker != summary["taker"]:
        return True
    if partner is not None:
        mine = None if partner == (summary["taker"] if taker is None else taker) else partner
        theirs = summary.get("partner")
        theirs = None if theirs == summary["taker"] else theirs
        if mine != theirs:
            return True
    contract = entry["marks"].get("contract")
    return contract is not None and contract != summary["contract"]


def _against_seating(request: Json) -> dict[int, Json]:
    """§16.2-16.3, the cards against the `seating`: for each card that stands for a seated table,
    that table (`seated`, its index), the number the card counts as, the code of each of its
    seats the seating disagrees with (by orientation), and the pointers of the seated players
    absent from every card of the position."""
    seating = request.get("seating") or []
    cards = request["scorecards"]
    known = {p["id"] for p in request["players"]}

    def names(x: Json) -> list[str]:
        return [x["seats"][o] for o in seats_of(x) if x["seats"][o] is not None]

    home: dict[tuple[int, str], int] = {}
    for k in range(len(seating) - 1, -1, -1):
        for player in names(seating[k]):
            home[(seating[k]["position"], player)] = k
    stands: dict[int, int] = {}
    for c, card in enumerate(cards):
        mine = set(names(card))
        ranked = [
            (len(mine & set(names(x))), x["table"] == card.get("table"), -k)
            for k, x in enumerate(seating)
            if x["position"] == card["position"]
        ]
        ranked = [r for r in ranked if r[0] or r[1]]
        if ranked:
            stands[c] = -max(ranked)[2]
    on_cards = {(card["position"], p) for card in cards for p in names(card)}
    on_own = {(cards[c]["position"], p) for c, k in stands.items() for p in names(cards[c])
              if home.get((cards[c]["position"], p)) == k}  # fmt: skip
    out: dict[int, Json] = {}
    strays: list[tuple[int, str, str, int | None]] = []  # card, orientation, player, seated table index
    for c, k in stands.items():
        card = cards[c]
        out[c] = {"seated": k, "number": seating[k]["table"], "seats": {}, "absent": [], "doubles": 0}
        for o in seats_of(card):
            player = card["seats"][o]
            if player is None or player not in known or home.get((card["position"], player)) == k:
                continue
            if (card["position"], player) in on_own:
                out[c]["doubles"] += 1
            else:
                strays.append((c, o, player, home.get((card["position"], player))))
    paired: set[tuple[int, str]] = set()
    for a, (c, o, _, at) in enumerate(strays):
        if (c, o) in paired or at is None:
            continue
        for d, p, _, back in strays[a + 1 :]:
            if (d, p) not in paired and stands.get(d) == at and back == stands[c]:
                paired |= {(c, o), (d, p)}
                out[c]["seats"][o] = "players_swapped"
                break
    for c, k in stands.items():
        card = cards[c]
        seated = seating[k]
        missing = [o for o in seats_of(seated) if seated["seats"][o] is not None
                   and (seated["position"], seated["seats"][o]) not in on_cards]  # fmt: skip
        written = [card["seats"][o] for o in seats_of(card)]
        good = [p for p in written if p is not None and p in known]
        missing = missing[out[c]["doubles"] + len(written) - len(set(good)) :]
        for d, o, _, _ in strays:
            if d == c and (c, o) not in paired:
                out[c]["seats"][o] = "not_seated_here"
                missing = missing[1:]
        out[c]["absent"] = [f"/seating/{k}/seats/{o}" for o in missing]
    return out


def _tie(bilans: list[Json], tie_break: str) -> tuple[int, ...]:
    """§16.4: the best position first (descending bilans), or the count of positive positions."""
    values = [b["bilan"] for b in bilans if b["bilan"] is not None]
    if tie_break == "best_position":
        return tuple(sorted(values, reverse=True))
    if tie_break == "positive_positions":
        return (len([v for v in values if v > 0]),)
    return ()
