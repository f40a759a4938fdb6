"""The reference model of a duplicate tournament's control table (docs/rules.md §17.3–17.9), read
from the rulebook apart from service/rules: the topage, the percentages, the rankings, the faults
of the fiches ambulantes, and the points de match of quadrettes and team matches.

It works on the wire's JSON and keeps exact fractions. A play given as a summary is scored by the
scorer it is handed (the kit hands it oracle.ref_score_answer's single-defender figure, the deal
read as a Garde at four), so that this module stays independent of the other models.

One simplification, stated: a figure is impossible (``impossible_score``) here when it is odd or
beyond the extreme figures (−616, +620, §17.3); the cases this model checks have no even figure
inside them that no Garde gives.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, getcontext
from fractions import Fraction

from .cards import Json

SEATS = ["north", "west", "south", "east"]
Scorer = Callable[[Json], int]
"""A summary → the single defender's figure of the imposed Garde at four."""


def half_up(value: Fraction, places: int = 1) -> float:
    """Rounded half up to ``places`` decimals (§17.4)."""
    scaled = value * 10**places
    whole = scaled.numerator // scaled.denominator
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    return float(Fraction(whole, 10**places))


def figure(play: Json, scorer: Scorer) -> int:
    return int(play["score"]) if play.get("score") is not None else scorer(play["summary"])


def place_grades(scores: list[int]) -> list[Fraction]:
    """p. 17–18: the worst table 0, the best 100, evenly spaced by the times played; tied tables
    share (the mean of) the grades of the places they hold."""
    ladder = sorted(scores)
    steps = len(scores) - 1
    grades = []
    for s in scores:
        held = [i for i, other in enumerate(ladder) if other == s]
        grades.append(Fraction(100 * sum(held), len(held) * steps))
    return grades


def seated(form: str, play: Json, taker: str) -> list[tuple[str, str, bool]]:
    """(entrant, line, attacks) of each entrant of a play."""
    at = play["players"]
    if form == "individual":
        return [(at[o], o, o == taker) for o in SEATS]
    ns_attacks = taker in ("north", "south")
    return [(at["north"], "north_south", ns_attacks), (at["west"], "east_west", not ns_attacks)]


def ref_session(form: str, session: Json, scorer: Scorer) -> Json:
    """One session: its topage, each entrant's grades and percentages, in order of first play."""
    takers = {e["number"]: e["taker"] for e in session["etuis"]}
    plays = session["plays"]
    adjustments = session.get("adjustments") or {}
    annulled = {a["etui"] for a in adjustments.get("annulled") or []}
    marks = {(m["entrant"], m["etui"]): Fraction(Decimal(repr(m["grade"]))) for m in adjustments.get("marks") or []}
    off: dict[str, Fraction] = {}
    for p in adjustments.get("penalties") or []:
        off[p["entrant"]] = off.get(p["entrant"], Fraction(0)) + Fraction(Decimal(repr(p["points"])))
    grade_of: dict[int, Fraction | None] = {}
    topage = []
    for etui in session["etuis"]:
        mine = sorted(
            (i for i, p in enumerate(plays) if p["etui"] == etui["number"]),
            key=lambda i: (plays[i]["position"], plays[i]["table"]),
        )
        if not mine:
            continue
        scores = [figure(plays[i], scorer) for i in mine]
        graded = len(mine) > 1 and etui["number"] not in annulled
        grades = place_grades(scores) if graded else [None] * len(mine)
        grade_of |= dict(zip(mine, grades, strict=True))
        topage.append(
            {
                "etui": etui["number"],
                "played": len(mine),
                "annulled": etui["number"] in annulled,
                "lines": [{"play": i, "score": s, "taker": g} for i, s, g in zip(mine, scores, grades, strict=True)],
            }
        )
    per: dict[str, Json] = {}
    for i, play in enumerate(plays):
        for entrant, line, attacks in seated(form, play, takers[play["etui"]]):
            taker_grade = grade_of[i]
            grade = None if taker_grade is None else (taker_grade if attacks else 100 - taker_grade)
            if play["etui"] in annulled:
                grade = None
            elif (entrant, play["etui"]) in marks:
                grade = marks[(entrant, play["etui"])]
            own = per.setdefault(entrant, {"line": line, "attack": [], "defence": [], "plays": []})
            own["plays"].append((i, grade))
            if grade is not None:
                own["attack" if attacks else "defence"].append(grade)
    weights = (Fraction(1, 4), Fraction(3, 4)) if form == "individual" else (Fraction(1, 2), Fraction(1, 2))
    percentages = []
    for entrant, own in per.items():
        attack = sum(own["attack"]) / len(own["attack"]) if own["attack"] else None
        defence = sum(own["defence"]) / len(own["defence"]) if own["defence"] else None
        if attack is not None and defence is not None:
            overall: Fraction | None = weights[0] * attack + weights[1] * defence
        else:
            overall = attack if defence is None else defence
        if overall is not None:
            overall -= off.get(entrant, Fraction(0))
        percentages.append(
            {
                "entrant": entrant,
                "line": own["line"],
                "attack": attack,
                "defence": defence,
                "attacks": len(own["attack"]),
                "defences": len(own["defence"]),
                "global": overall,
                "one_sided": (attack is None) != (defence is None),
            }
        )
    return {"topage": topage, "percentages": percentages}


def ref_alterne(rows: list[tuple[str, str, Fraction]], lines: list[str]) -> list[tuple[int, str]]:
    """p. 18: each line ranked; the line winners first, then the seconds… equal globals sharing
    a place within a tier (readings of §17.6). (place, entrant), in order."""
    by_line: dict[str, list[tuple[str, Fraction]]] = {line: [] for line in lines}
    for entrant, line, overall in rows:
        by_line.setdefault(line, []).append((entrant, overall))
    ranked = [sorted(members, key=lambda m: -m[1]) for members in by_line.values()]
    out: list[tuple[int, str]] = []
    for tier in range(max((len(r) for r in ranked), default=0)):
        members = sorted((r[tier] for r in ranked if tier < len(r)), key=lambda m: -m[1])
        base = len(out)
        out += [(base + 1 + sum(o[1] > m[1] for o in members), m[0]) for m in members]
    return out


def ref_duplicate(request: Json, scorer: Scorer) -> Json:
    """The model's answer to an individual or triplettes tournament."""
    form = request["form"]
    sessions = [ref_session(form, s, scorer) for s in request["sessions"]]
    lines: dict[str, str] = {}
    for s in sessions:
        for p in s["percentages"]:
            lines.setdefault(p["entrant"], p["line"])
    coefficients = [Fraction(Decimal(repr(s.get("coefficient", 1)))) for s in request["sessions"]]
    totals: dict[str, Fraction | None] = {}
    for entrant in lines:
        parts = [
            c * p["global"]
            for s, c in zip(sessions, coefficients, strict=True)
            for p in s["percentages"]
            if p["entrant"] == entrant and p["global"] is not None
        ]
        totals[entrant] = sum(parts, Fraction(0)) if parts else None
    ranked = [t for t in totals.values() if t is not None]
    general = [
        {"entrant": e, "total": t, "rank": None if t is None else 1 + sum(o > t for o in ranked)}
        for e, t in totals.items()
    ]
    general.sort(key=lambda row: (row["rank"] is None, row["rank"] or 0))
    alterne = None
    if len(sessions) == 1:
        names = SEATS if form == "individual" else ["north_south", "east_west"]
        rows = [(e, lines[e], t) for e, t in totals.items() if t is not None]
        alterne = ref_alterne(rows, names)
    return {
        "sessions": sessions,
        "general": general,
        "alterne": alterne,
        "faults": [f for s, session in enumerate(request["sessions"]) for f in ref_faults(form, s, session, scorer)],
    }


def ref_faults(form: str, s: int, session: Json, scorer: Scorer) -> list[Json]:
    """§17.9: each play's faults in request order, then the plays the movement misses."""
    plays = session["plays"]
    counts: dict[int, int] = {}
    for play in plays:
        counts[play["etui"]] = counts.get(play["etui"], 0) + 1
    sittings = session.get("sittings")
    seats_at = {(x["position"], x["table"]): x for x in sittings or []}
    met: set[tuple[str, int]] = set()
    at_position: set[tuple[int, int]] = set()
    first_line: dict[str, str] = {}
    out = []
    for i, play in enumerate(plays):
        ids = [play["players"][o] for o in SEATS]
        entrants = list(dict.fromkeys(ids))
        found: list[tuple[str, list[str]]] = []
        score = figure(play, scorer)
        if score % 2 or not -616 <= score <= 620:
            found.append(("impossible_score", entrants))
        again = [e for e in entrants if (e, play["etui"]) in met]
        if again:
            found.append(("etui_twice_for_player", again))
        if (play["position"], play["etui"]) in at_position:
            found.append(("etui_twice_in_position", entrants))
        if counts[play["etui"]] == 1:
            found.append(("etui_played_once", entrants))
        if form == "individual":
            moved = [p for p, o in zip(ids, SEATS, strict=True) if first_line.setdefault(p, o) != o]
            if moved:
                found.append(("orientation_changed", moved))
        if sittings is not None:
            sitting = seats_at.get((play["position"], play["table"]))
            if sitting is None:
                found.append(("not_in_movement", entrants))
            else:
                if [sitting["players"][o] for o in SEATS] != ids:
                    found.append(("players_not_as_movement", entrants))
                if play["etui"] not in sitting["etuis"]:
                    found.append(("etui_not_as_movement", entrants))
        out += [{"code": c, "pointer": f"/sessions/{s}/plays/{i}", "players": who} for c, who in found]
        met |= {(e, play["etui"]) for e in entrants}
        at_position.add((play["position"], play["etui"]))
    written = {(p["position"], p["table"], p["etui"]) for p in plays}
    for k, sitting in enumerate(sittings or []):
        for etui in sitting["etuis"]:
            if (sitting["position"], sitting["table"], etui) not in written:
                who = list(dict.fromkeys(sitting["players"][o] for o in SEATS))
                out.append({"code": "play_missing", "pointer": f"/sessions/{s}/sittings/{k}", "players": who})
    return out


# ---- points de match (§17.8) -------------------------------------------------------------------------


def ref_pm(ecart: int) -> Decimal:
    """sign × √|écart| to three decimals, half up (p. 24's grid), by a 40-digit square root."""
    getcontext().prec = 40
    root = Decimal(abs(ecart)).sqrt().quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    return -root if ecart < 0 else root


def ref_quadrettes(request: Json) -> Json:
    won: dict[str, Decimal] = {}
    lost: dict[str, Decimal] = {}
    deals = []
    for opposition in request["quadrettes"]["oppositions"]:
        a, b = opposition["first"], opposition["second"]
        for deal in opposition["deals"]:
            pm = ref_pm(deal["first"] - deal["second"])
            deals.append(float(pm))
            for name, signed in ((a, pm), (b, -pm)):
                won[name] = won.get(name, Decimal(0)) + max(signed, Decimal(0))
                lost[name] = lost.get(name, Decimal(0)) + max(-signed, Decimal(0))
    totals = {name: won[name] - lost[name] for name in won}
    for penalty in request["quadrettes"].get("penalties") or []:
        totals[penalty["quadrette"]] -= Decimal(repr(penalty["points"]))
    rows = sorted(
        ((1 + sum(o > t for o in totals.values()), name, t) for name, t in totals.items()), key=lambda row: row[0]
    )
    return {"deals": deals, "standings": [{"rank": r, "quadrette": n, "total": float(t)} for r, n, t in rows]}


def ref_team_match(request: Json) -> Json:
    match = request["team_match"]
    deals, quarters = [], []
    for quarter in match["quarters"]:
        first = second = Decimal(0)
        for deal in quarter["deals"]:
            pm = ref_pm(deal["first"]["score"] - deal["second"]["score"])
            gain = (max(pm, Decimal(0)), max(-pm, Decimal(0)))
            deals.append([float(g) for g in gain])
            first, second = first + gain[0], second + gain[1]
        quarters.append([float(first), float(second)])
    bonus = [Decimal(repr(t.get("bonus", 0))) for t in match["teams"]]
    totals = [bonus[k] + sum(Decimal(repr(q[k])) for q in quarters) for k in (0, 1)]
    winner = None if totals[0] == totals[1] else match["teams"][0 if totals[0] > totals[1] else 1]["name"]
    return {"deals": deals, "quarters": quarters, "totals": [float(t) for t in totals], "winner": winner}
