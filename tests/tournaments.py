"""Tournaments for the control table's tests (rules.md §16): clean ones drawn at random, and each
scored error planted in one.

A clean tournament seats its players at random, position by position, at tables of four (and of
three, or five, where the count asks for them), and writes each card as North would: every deal
as its summary, with the marks ``POST /v1/deals/score`` gives it written beside it (or only the
marks, or only the summary), a deal dealt again now and then, and the bilans at the foot. Each
planting spoils such a tournament in one place and says what the control table must report:
the code, the pointer and the players of the table.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from conformance.generator.games import random_summary
from service.contract.scoring import SCORE

Json = Any
ORIENTATIONS = ("north", "west", "south", "east", "fifth")
"""A card's seats in playing order (§16.2), restated here rather than read from the code under test."""
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
KINDS = (
    "deal_not_zero_sum",
    "impossible_marks",
    "marks_contradict_deal",
    "bilan_mismatch",
    "table_missing",
    "player_missing",
    "card_not_returned",
    "seated_card_missing",
    "player_twice",
    "unknown_player",
    "deal_count",
    "position_not_in_plan",
    "duplicate_table",
    "teammates_together",
    "wrong_table_number",
    "players_swapped",
    "not_seated_here",
    "seated_absent",
)
"""Each way of planting a scored error; ``seated_card_missing`` is a ``card_not_returned`` told by
the seating; the last four are told by the seating too."""


def table_sizes(players: int, fives: bool = False) -> list[int]:
    """Tables of four, with the fewest of three (or, with ``fives``, of five) the count leaves over."""
    if fives:
        fifths = players % 4
        return [5] * fifths + [4] * ((players - 5 * fifths) // 4)
    threes = (4 - players % 4) % 4
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


def marks_of(summary: Json, players: int) -> list[int]:
    """A summary's marks, as the single-deal operation scores it."""
    return list(SCORE.respond({"players": players, **summary}).answer["scores"])


def random_card(rng: random.Random, position: int, table: int, seated: list[str], deals: int) -> Json:
    """One table's card: ``deals`` played deals (and maybe one dealt again), each as its summary
    with its marks written, its marks alone or its summary alone, the bilans written."""
    n = len(seated)
    order = ORIENTATIONS[:n] if n != 3 else rng.choice([("north", "west", "south"), ("west", "south", "east")])
    entries: list[Json] = []
    totals = [0] * n
    for _ in range(deals):
        if rng.random() < 0.1:
            entries.append({"not_played": {"reason": "redeal"}})
        summary = random_summary(rng, n)
        row = marks_of(summary, n)
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        marks: Json = {"row": dict(zip(order, row, strict=True))}
        how = rng.choice(["both", "both", "marks", "summary"])
        if how != "summary" and rng.random() < 0.7:
            marks["taker"], marks["contract"] = order[summary["taker"]], summary["contract"]
            if n == 5:
                marks["partner"] = order[summary["partner"]]
        entry: Json = {"summary": summary} if how == "summary" else {"marks": marks}
        if how == "both":
            entry["summary"] = summary
        entries.append(entry)
    card: Json = {"position": position, "table": table, "seats": dict(zip(order, seated, strict=True))}
    card["deals"] = entries
    if rng.random() < 0.8:
        card["totals"] = dict(zip(order, totals, strict=True))
    return card


def random_tournament(
    rng: random.Random,
    players: int = 16,
    positions: int = 5,
    deals: int = 4,
    *,
    fives: bool = False,
    seating: bool = True,
    teams: bool = False,
    adjustments: int = 0,
) -> Json:
    """A clean tournament: every card right, no scored error anywhere."""
    ids = [f"P{i + 1}" for i in range(players)]
    cards, seated = [], []
    met: set[frozenset[str]] = set()
    for position in range(1, positions + 1):
        shuffled = rng.sample(ids, players)
        start = 0
        for table, size in enumerate(table_sizes(players, fives), start=1):
            group = shuffled[start : start + size]
            start += size
            met |= {frozenset((a, b)) for a in group for b in group if a != b}
            card = random_card(rng, position, table, group, deals)
            cards.append(card)
            seated.append({"position": position, "table": table, "seats": dict(card["seats"])})
    entrants: list[Json] = [{"id": i, "name": f"Player {i[1:]}"} for i in ids]
    if teams:
        # Teams of two who never met: a team's players never sit at one table.
        free = list(ids)
        rng.shuffle(free)
        team = 0
        while free:
            a = free.pop()
            mate = next((b for b in free if frozenset((a, b)) not in met), None)
            if mate is not None:
                free.remove(mate)
                team += 1
                for entrant in entrants:
                    if entrant["id"] in (a, mate):
                        entrant["team"] = f"T{team}"
    request: Json = {"players": entrants, "plan": {"positions": positions, "deals": deals}, "scorecards": cards}
    if seating:
        request["seating"] = seated
    if adjustments:
        request["adjustments"] = [
            {"player": rng.choice(ids), "position": rng.randint(1, positions), "points": rng.choice([-50, -20, 10])}
            for _ in range(adjustments)
        ]
    return request


@dataclass(frozen=True)
class Planted:
    """A scored error planted in a tournament, and what the control table must say of it."""

    request: Json
    code: str
    pointer: str
    players: list[str]


def card_players(card: Json) -> list[str]:
    """A card's players as written, in playing order, a seat without one left out."""
    return [card["seats"][o] for o in ORIENTATIONS if card["seats"].get(o) is not None]


def counted_row(entry: Json, order: list[str], n: int) -> list[int]:
    """The marks a card counts for a deal: the row written, else the summary's, else zeros."""
    if "marks" in entry:
        return [entry["marks"]["row"][o] for o in order]
    if "summary" in entry:
        return marks_of(entry["summary"], n)
    return [0] * n


def rewrite_totals(card: Json) -> None:
    """The bilans at the foot of a card made the sums of its rows again (when it has them)."""
    if "totals" not in card:
        return
    order = [o for o in ORIENTATIONS if o in card["seats"]]
    n = len(order)
    sums = [0] * n
    for entry in card["deals"]:
        sums = [a + b for a, b in zip(sums, counted_row(entry, order, n), strict=True)]
    card["totals"] = dict(zip(order, sums, strict=True))


def plant(request: Json, kind: str, rng: random.Random, card: int | None = None) -> Planted | None:
    """``request`` (a clean tournament) with one scored error of ``kind``, on the card of index
    ``card`` (a random one when None); None when there is no place for one (no written row, no
    team…)."""
    t = copy.deepcopy(request)
    cards = t["scorecards"]
    c = rng.randrange(len(cards)) if card is None else card
    return _plant(t, kind, rng, c)


def _plant(t: Json, kind: str, rng: random.Random, c: int) -> Planted | None:
    cards = t["scorecards"]
    card = cards[c]
    order = [o for o in ORIENTATIONS if o in card["seats"]]
    base = f"/scorecards/{c}"
    if kind in ("deal_not_zero_sum", "impossible_marks", "marks_contradict_deal"):
        written = [d for d, e in enumerate(card["deals"]) if "marks" in e]
        if kind == "marks_contradict_deal":
            written = [d for d in written if "summary" in card["deals"][d] and "contract" in card["deals"][d]["marks"]]
        if not written:
            return None
        d = rng.choice(written)
        marks = card["deals"][d]["marks"]
        if kind == "deal_not_zero_sum":
            o = rng.choice(order)
            marks["row"][o] += rng.choice([-10, 1, 10, 100])
            where = f"{base}/deals/{d}/marks/row"
        elif kind == "impossible_marks":
            # Two defenders' marks (the row's most common value) moved apart by a point each way:
            # the row still sums to zero, but no deal gives it.
            row = [marks["row"][o] for o in order]
            defence = max(set(row), key=row.count)
            a, b = [s for s in range(len(row)) if row[s] == defence][:2]
            marks["row"][order[a]] += 1
            marks["row"][order[b]] -= 1
            where = f"{base}/deals/{d}/marks/row"
        else:
            marks["contract"] = rng.choice([x for x in CONTRACTS if x != marks["contract"]])
            where = f"{base}/deals/{d}/marks"
        rewrite_totals(card)
        return Planted(t, kind, where, card_players(card))
    if kind == "bilan_mismatch":
        if "totals" not in card:
            return None
        o = rng.choice(order)
        card["totals"][o] += rng.choice([-10, 10, 100])
        return Planted(t, kind, f"{base}/totals/{o}", card_players(card))
    if kind == "table_missing":
        del card["table"]
        return Planted(t, kind, f"{base}/table", card_players(card))
    if kind == "player_missing":
        o = rng.choice(order)
        card["seats"][o] = None
        return Planted(t, kind, f"{base}/seats/{o}", card_players(card))
    if kind == "card_not_returned":
        card["returned"] = False
        card["deals"] = []
        card.pop("totals", None)
        return Planted(t, kind, f"{base}/returned", card_players(card))
    if kind == "seated_card_missing":
        if "seating" not in t:
            return None
        del cards[c]
        at = (card["position"], card["table"])
        k = next(k for k, s in enumerate(t["seating"]) if (s["position"], s["table"]) == at)
        return Planted(t, "card_not_returned", f"/seating/{k}", card_players(card))
    if kind == "player_twice":
        others = [i for i, other in enumerate(cards) if other["position"] == card["position"] and i != c]
        if not others or any(p.get("team") for p in t["players"]):
            return None  # (a player moved could sit with his teammate)
        donor = rng.choice(others)
        player = rng.choice(card_players(cards[donor]))
        o = rng.choice(order)
        card["seats"][o] = player
        later = max(c, donor)
        at = cards[later]
        seat = o if later == c else next(x for x in ORIENTATIONS if at["seats"].get(x) == player)
        return Planted(t, kind, f"/scorecards/{later}/seats/{seat}", card_players(at))
    if kind == "unknown_player":
        o = rng.choice(order)
        card["seats"][o] = "X999"
        return Planted(t, kind, f"{base}/seats/{o}", card_players(card))
    if kind == "deal_count":
        played = [d for d, e in enumerate(card["deals"]) if "not_played" not in e]
        del card["deals"][rng.choice(played)]
        rewrite_totals(card)
        return Planted(t, kind, f"{base}/deals", card_players(card))
    if kind == "position_not_in_plan":
        extra = copy.deepcopy(card)
        extra["position"] = t["plan"]["positions"] + 1
        cards.append(extra)
        return Planted(t, kind, f"/scorecards/{len(cards) - 1}/position", card_players(extra))
    if kind == "duplicate_table":
        others = [i for i, other in enumerate(cards) if other["position"] == card["position"] and i != c]
        if not others:
            return None
        other = rng.choice(others)
        later, earlier = max(c, other), min(c, other)
        cards[later]["table"] = cards[earlier]["table"]
        t.pop("seating", None)  # the table renumbered would be a seated table without its card
        return Planted(t, kind, f"/scorecards/{later}/table", card_players(cards[later]))
    if kind == "teammates_together":
        t.pop("seating", None)  # (the swap that brings them together is a fault against it too)
        return _plant_teammates(t, rng)
    if kind in ("wrong_table_number", "players_swapped", "not_seated_here", "seated_absent"):
        return _plant_against_seating(t, kind, rng, c) if "seating" in t else None
    raise ValueError(kind)


def _plant_against_seating(t: Json, kind: str, rng: random.Random, c: int) -> Planted | None:
    """A card (or the seating) changed so that the two disagree in one way."""
    cards = t["scorecards"]
    card = cards[c]
    order = [o for o in ORIENTATIONS if o in card["seats"]]
    same = [i for i, x in enumerate(cards) if x["position"] == card["position"] and i != c]
    if kind == "wrong_table_number":
        taken = {x["table"] for x in cards if x["position"] == card["position"]}
        choices = [cards[i]["table"] for i in same] + [max(taken) + 1]
        card["table"] = rng.choice(choices)
        return Planted(t, kind, f"/scorecards/{c}/table", card_players(card))
    if kind == "players_swapped":
        if not same or any(p.get("team") for p in t["players"]):
            return None  # (a player moved could sit with his teammate)
        other = rng.choice(same)
        o, p = rng.choice(order), rng.choice([x for x in ORIENTATIONS if x in cards[other]["seats"]])
        card["seats"][o], cards[other]["seats"][p] = cards[other]["seats"][p], card["seats"][o]
        first, seat = (c, o) if c < other else (other, p)
        return Planted(t, kind, f"/scorecards/{first}/seats/{seat}", card_players(cards[first]))
    t["players"].append({"id": "R0", "name": "Reserve"})
    if kind == "not_seated_here":
        o = rng.choice(order)
        card["seats"][o] = "R0"
        return Planted(t, kind, f"/scorecards/{c}/seats/{o}", card_players(card))
    k = next(k for k, x in enumerate(t["seating"]) if (x["position"], x["table"]) == (card["position"], card["table"]))
    seats = t["seating"][k]["seats"]
    free = "fifth" if len(seats) == 4 else next((o for o in ORIENTATIONS[:4] if o not in seats), None)
    if free is None:
        return None
    seats[free] = "R0"
    return Planted(t, kind, f"/seating/{k}/seats/{free}", card_players(card))


def _plant_teammates(t: Json, rng: random.Random) -> Planted | None:
    """Two teammates brought to one table by swapping one of them with a player of the other's
    table, when the swap brings no other team together."""
    team_of = {p["id"]: p.get("team") for p in t["players"]}
    cards = t["scorecards"]
    for c in rng.sample(range(len(cards)), len(cards)):
        card = cards[c]
        for a in card_players(card):
            if team_of.get(a) is None:
                continue
            mate = next(p for p, team in team_of.items() if team == team_of[a] and p != a)
            found = [i for i, x in enumerate(cards) if x["position"] == card["position"] and mate in card_players(x)]
            if not found:
                continue
            other = cards[found[0]]
            for c_seat, swapped in card["seats"].items():
                if swapped in (a, None):
                    continue
                # The player sent to the other table must not find his own teammate there.
                there = [team_of.get(p) for p in card_players(other) if p != mate]
                if team_of.get(swapped) is not None and team_of[swapped] in there:
                    continue
                m_seat = next(o for o, p in other["seats"].items() if p == mate)
                card["seats"][c_seat], other["seats"][m_seat] = mate, swapped
                seats = [o for o in ORIENTATIONS if o in card["seats"]]
                second = max(seats.index(c_seat), seats.index(next(o for o in seats if card["seats"][o] == a)))
                return Planted(t, "teammates_together", f"/scorecards/{c}/seats/{seats[second]}", card_players(card))
    return None
