"""rules.md §17.1–17.9 end to end: an evening of 5 tables, 20 players, 5 positions of 3 étuis.

The movement and the étuis' cards come from the core (service.rules.duplicate_movement and
duplicate_etuis: their own operation is not this one), each play is scored from a summary
drawn for its étui (the oudlers the taker's hand and the dog hold, card points the cards allow,
a poignée now and then), and the whole evening is sent to POST /v1/tournaments/duplicate/standings
with the movement's sittings. A clean evening: no fault; each étui's takers average 50 %, each
defender the complement; every global between 0 and 100; the alterné a reordering of the
général; each player's feuille de route his 15 plays.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.rules.cards import OUDLERS, mask_of
from service.rules.duplicate_etuis import deal_etuis
from service.rules.duplicate_movement import MovementRequest, make_movement
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS
from service.rules.scoring import points_bounds_half

PATH = "/v1/tournaments/duplicate/standings"
TABLES, POSITIONS, ETUIS = 5, 5, 3


def summary(rng: random.Random, hand: tuple[int, ...], dog: tuple[int, ...]) -> dict[str, Any]:
    """A plausible deal of the imposed Garde: the taker keeps his hand and the dog's oudlers, maybe
    wins one more from the defence, takes card points the cards allow, shows a poignée at times."""
    held = (mask_of(hand) | mask_of(dog)) & OUDLERS
    oudlers = min(3, held.bit_count() + (rng.random() < 0.2))
    low, high = points_bounds_half(oudlers)
    points = rng.randint(max(low, 56 - 20), min(high, 56 + 40)) / 2
    body: dict[str, Any] = {"players": 4, "contract": "garde", "taker": 0, "points": points, "oudlers": oudlers}
    if rng.random() < 0.15:
        body["poignees"] = [{"side": rng.choice(["attack", "defence"]), "size": "simple"}]
    return body


def evening(seed: str) -> dict[str, Any]:
    movement = make_movement(MovementRequest(TABLES, POSITIONS, ETUIS))
    dealt = {d.label.number: d for d in deal_etuis(seed, movement.etuis)}
    rng = random.Random(seed)
    plays, sittings = [], []
    for sitting in movement.sittings:
        at = dict(zip(DUPLICATE_ORIENTATIONS, sitting.players, strict=True))
        sittings.append(
            {"position": sitting.position, "table": sitting.table, "players": at, "etuis": list(sitting.etuis)}
        )
        for number in sitting.etuis:
            etui = dealt[number]
            deal = summary(rng, etui.hand_of(etui.label.taker), etui.dog)
            plays.append({"position": sitting.position, "table": sitting.table, "etui": number, "players": dict(at),
                          "summary": deal})  # fmt: skip
    labels = [{"number": e.number, "taker": e.taker, "dealer": e.dealer} for e in movement.etuis]
    return {"form": "individual", "sessions": [{"etuis": labels, "plays": plays, "sittings": sittings}]}


@pytest.mark.parametrize("seed", ["club-evening-1", "club-evening-2"])
def test_17_an_evening_of_five_tables_end_to_end(client: FlaskClient, seed: str) -> None:
    body = evening(seed)
    r = client.post(PATH, json=body)
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["faults"] == []
    [session] = answer["sessions"]
    assert len(session["topage"]) == TABLES * ETUIS
    for topage in session["topage"]:
        assert topage["played"] == POSITIONS
        takers = [Fraction(line["taker_exact"]).limit_denominator(1000) for line in topage["lines"]]
        assert sum(takers) / len(takers) == 50
        for line in topage["lines"]:
            assert line["defenders_exact"] == pytest.approx(100 - line["taker_exact"])
    players = {p for s in body["sessions"][0]["sittings"] for p in s["players"].values()}
    assert len(players) == 4 * TABLES
    general = answer["general"]
    assert {row["entrant"] for row in general} == players
    assert all(0 <= row["total_exact"] <= 100 and row["rank"] is not None for row in general)
    assert sorted(row["entrant"] for row in answer["alterne"]) == sorted(row["entrant"] for row in general)
    assert len(answer["alterne"]) == len(general)
    feuilles = {f["entrant"]: f for f in answer["feuilles"]}
    assert set(feuilles) == players
    for feuille in feuilles.values():
        assert len(feuille["lines"]) == POSITIONS * ETUIS
        assert len({line["etui"] for line in feuille["lines"]}) == POSITIONS * ETUIS  # no étui twice
    # The global is ¼ attack + ¾ defence (p. 18), each the mean of the player's grades.
    for pct in session["percentages"]:
        mine = feuilles[pct["entrant"]]["lines"]
        attack = [line["grade_exact"] for line in mine if line["role"] == "attack"]
        defence = [line["grade_exact"] for line in mine if line["role"] == "defence"]
        assert pct["attacks"] == len(attack) and pct["defences"] == len(defence)
        want = sum(attack) / len(attack) / 4 + 3 * sum(defence) / len(defence) / 4
        assert pct["global_exact"] == pytest.approx(want)
    # A player's percentages are shown rounded to one decimal.
    for pct in session["percentages"]:
        assert abs(pct["global"] - pct["global_exact"]) <= 0.05 + 1e-9
