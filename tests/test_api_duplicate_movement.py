"""rules.md §17.1 The movement and §17.2 The étuis, through ``POST /v1/tournaments/duplicate/movement``.

The answers are held to a model written apart, here, from nothing but the answer's JSON: every
player once a position, at his orientation, four to a table, one étui set a table, nobody
playing an étui twice, and the meetings counted by brute force. The check form is held to the
generating form (an answer's sittings sent back pass it, with the same repeats) and to each fault
planted once, located by its pointer.
"""

from __future__ import annotations

import copy
import time
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules.verdicts import DuplicateMovementFault

PATH = "/v1/tournaments/duplicate/movement"
NWSE = ("north", "west", "south", "east")
Json = Any

# ---- the independent model ---------------------------------------------------------------------


def model_problems(request: Json, answer: Json) -> list[str]:
    """What the answer breaks of §17.1–17.2, found from its JSON alone."""
    t = request["tables"]
    p = request.get("positions") or t
    e = request.get("etuis_per_position", 1)
    lines = request.get("players") or {o: [f"{o[0].upper()}{i}" for i in range(1, t + 1)] for o in NWSE}
    own = {pid: o for o, line in lines.items() for pid in line}
    wrong = []
    sittings = answer["sittings"]
    if [(s["position"], s["table"]) for s in sittings] != [(q, j) for q in range(1, p + 1) for j in range(1, t + 1)]:
        wrong.append("not position by position, table by table")
    for q in range(1, p + 1):
        at = [s for s in sittings if s["position"] == q]
        seated = [pid for s in at for pid in s["players"].values()]
        if sorted(seated) != sorted(own):
            wrong.append(f"position {q}: not every player once")
        wrong += [f"{pid} off his orientation" for s in at for o, pid in s["players"].items() if own.get(pid) != o]
        sets = {tuple(s["etuis"]) for s in at}
        if len(sets) != t or any(len(x) != e or (x[0] - 1) % e or list(x) != list(range(x[0], x[0] + e)) for x in sets):
            wrong.append(f"position {q}: not one étui set a table")
    played = Counter((pid, n) for s in sittings for pid in s["players"].values() for n in s["etuis"])
    wrong += [f"{pid} plays étui {n} twice" for (pid, n), c in played.items() if c > 1]
    if brute_repeats(sittings) != {tuple(r["players"]): r["positions"] for r in answer["repeats"]}:
        wrong.append("repeats not those counted")
    if answer["perfect"] != (not answer["repeats"] and not answer["etui_repeats"]):
        wrong.append("perfect wrong")
    return wrong


def brute_repeats(sittings: list[Json]) -> dict[tuple[str, ...], list[int]]:
    met: dict[tuple[str, ...], list[int]] = {}
    for s in sittings:
        for pair in combinations(sorted(s["players"].values()), 2):
            met.setdefault(pair, []).append(s["position"])
    return {pair: sorted(at) for pair, at in met.items() if len(at) > 1}


def post(client: FlaskClient, body: Json, language: str = "en") -> Json:
    r = client.post(PATH, json=body, headers={"Accept-Language": language})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def check_form(answer: Json, tables: int, **more: Json) -> Json:
    """The check form of an answer's movement: its sittings as they are, its labels without the leader."""
    labels = [{k: v for k, v in e.items() if k != "leader"} for e in answer["etuis"]]
    return {"tables": tables, "sittings": answer["sittings"], "etuis": labels, **more}


# ---- §17.1 the movement ------------------------------------------------------------------------


@pytest.mark.parametrize("tables", [5, 7, 11, 13, 17, 19, 23, 25, 29])
def test_17_1_tables_prime_to_6_have_a_perfect_movement_over_every_position(client: FlaskClient, tables: int) -> None:
    body = {"tables": tables}
    answer = post(client, body)
    assert model_problems(body, answer) == []
    assert answer["perfect"] and answer["repeats"] == [] and answer["positions"] == tables


def test_17_1_the_p18_example_sends_table_1s_etuis_to_tables_1_5_4_3_2(client: FlaskClient) -> None:
    answer = post(client, {"tables": 5, "etuis_per_position": 3})
    at = [s["table"] for s in answer["sittings"] if s["etuis"] == [1, 2, 3]]
    assert at == [1, 5, 4, 3, 2]


# rules.md §17.1's table: perfect up to P positions; pairs meeting twice at P = T.
EVEN_OR_THREES = [(3, 1, 6), (4, 1, 28), (6, 5, 36), (8, 4, 56), (9, 6, 36), (10, 7, 60), (12, 8, 72), (16, 11, 144)]


@pytest.mark.parametrize(("tables", "perfect_up_to", "pairs_at_t"), EVEN_OR_THREES)
def test_17_1_other_counts_are_perfect_as_far_as_the_table_says(
    client: FlaskClient, tables: int, perfect_up_to: int, pairs_at_t: int
) -> None:
    assert post(client, {"tables": tables, "positions": perfect_up_to})["perfect"]
    past = {"tables": tables, "positions": perfect_up_to + 1}
    assert not post(client, past)["perfect"]
    whole = {"tables": tables}
    answer = post(client, whole)
    assert model_problems(whole, answer) == []
    assert len(answer["repeats"]) == pairs_at_t and answer["etui_repeats"] == []


def test_17_1_named_players_keep_their_orientation_and_their_schedules_say_where(client: FlaskClient) -> None:
    lines = {o: [f"{o}-{i}" for i in range(6)] for o in NWSE}
    body = {"tables": 6, "positions": 4, "etuis_per_position": 2, "players": lines}
    answer = post(client, body)
    assert model_problems(body, answer) == []
    assert [s["player"] for s in answer["schedules"]] == [pid for o in NWSE for pid in lines[o]]
    for schedule in answer["schedules"]:
        for place in schedule["places"]:
            (sitting,) = [
                s for s in answer["sittings"] if (s["position"], s["table"]) == (place["position"], place["table"])
            ]
            assert sitting["players"][schedule["orientation"]] == schedule["player"]
            assert sitting["etuis"] == place["etuis"]
        assert [p["position"] for p in schedule["places"]] == [1, 2, 3, 4]


def test_17_1_the_same_request_gets_the_same_movement(client: FlaskClient) -> None:
    body = {"tables": 14, "positions": 12, "etuis_per_position": 2, "seed": "x"}
    assert post(client, body) == post(client, body)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_17_1_every_movement_made_passes_the_check_form_with_the_same_repeats(
    client: FlaskClient, data: st.DataObject
) -> None:
    tables = data.draw(st.integers(3, 16), "tables")
    body: Json = {
        "tables": tables,
        "positions": data.draw(st.integers(1, tables), "positions"),
        "etuis_per_position": data.draw(st.integers(1, 4), "etuis"),
    }
    if data.draw(st.booleans(), "named"):
        body["players"] = {o: [f"{o[:2]}{i}" for i in range(tables)] for o in NWSE}
    answer = post(client, body)
    assert model_problems(body, answer) == []
    checked = post(client, check_form(answer, tables, players=body.get("players")))
    assert checked["faults"] == []
    assert checked["repeats"] == answer["repeats"]
    assert checked["etui_repeats"] == answer["etui_repeats"] == []
    assert checked["perfect"] == answer["perfect"]
    by_player = sorted(checked["schedules"], key=lambda x: x["player"])
    assert by_player == sorted(answer["schedules"], key=lambda x: x["player"])
    if "players" in body:  # in the order of the lines given
        assert checked["schedules"] == answer["schedules"]


# ---- §17.2 the étuis ---------------------------------------------------------------------------


def test_17_2_labels_turn_the_taker_and_the_dealer_and_the_dealers_right_leads(client: FlaskClient) -> None:
    answer = post(client, {"tables": 4, "etuis_per_position": 4})
    etuis = answer["etuis"]
    assert [e["number"] for e in etuis] == list(range(1, 17))
    for e in etuis:
        n = e["number"] - 1
        assert e["taker"] == NWSE[n % 4]
        assert e["dealer"] == NWSE[(n + n // 4) % 4]
        assert e["leader"] == NWSE[(NWSE.index(e["dealer"]) + 1) % 4]


def test_17_2_a_seed_deals_every_etui_as_the_deal_operation_deals_its_seed_text(client: FlaskClient) -> None:
    answer = post(client, {"tables": 3, "etuis_per_position": 2, "seed": "club"})
    assert [d["number"] for d in answer["dealt"]] == list(range(1, 7))
    for dealt, label in zip(answer["dealt"], answer["etuis"], strict=True):
        hands = [dealt["hands"][o] for o in NWSE]
        assert all(len(h) == 18 for h in hands) and len(dealt["dog"]) == 6
        assert len({c for h in hands for c in h} | set(dealt["dog"])) == 78
        assert dealt["seed"].startswith(f"club#{dealt['number']}")
        same = client.post(
            "/v1/deals/deal", json={"players": 4, "dealer": NWSE.index(label["dealer"]), "seed": dealt["seed"]}
        ).get_json()
        assert same["hands"] == hands and same["dog"] == dealt["dog"] and not same["redeal"]
    assert post(client, {"tables": 3})["dealt"] == []


# ---- the check form: each fault planted once ---------------------------------------------------


def clean() -> Json:
    """5 tables over 2 positions, 2 étuis a table, as the movement answers them (étui sets go down)."""
    sittings = []
    for q in range(2):
        for j in range(5):
            seats = {o: f"{o[0].upper()}{(j - k * q) % 5 + 1}" for k, o in enumerate(NWSE)}
            s = (j + q) % 5
            sittings.append({"position": q + 1, "table": j + 1, "players": seats, "etuis": [2 * s + 1, 2 * s + 2]})
    return {"tables": 5, "sittings": sittings}


def spoil(body: Json, where: str, value: Json) -> Json:
    out = copy.deepcopy(body)
    *path, last = where.strip("/").split("/")
    node = out
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is None:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


LINES = {o: [f"{o[0].upper()}{i}" for i in range(1, 6)] for o in NWSE}
LABELS = [{"number": n, "taker": "north", "dealer": "east"} for n in range(1, 11)]
FAULTS = [
    ("position_numbers", spoil(clean(), "/sittings/9/position", 4), "/sittings/9/position"),
    ("table_twice", spoil(clean(), "/sittings/1/table", 1), "/sittings/1/table"),
    ("missing_player", spoil(clean(), "/sittings/2/players/west", None), "/sittings/2/players"),
    ("unknown_player", {**spoil(clean(), "/sittings/0/players/north", "X1"), "players": LINES},
     "/sittings/0/players/north"),
    ("absent_player", {**spoil(clean(), "/sittings/0/players/north", "X1"), "players": LINES}, "/players/north/0"),
    ("player_twice", spoil(clean(), "/sittings/1/players/north", "N1"), "/sittings/1/players/north"),
    ("orientation_changed", spoil(clean(), "/sittings/6/players/east", "N3"), "/sittings/6/players/east"),
    ("no_etui", spoil(clean(), "/sittings/3/etuis", []), "/sittings/3/etuis"),
    ("etui_twice", spoil(clean(), "/sittings/4/etuis", [1, 10]), "/sittings/4/etuis/0"),
    ("etui_replayed", spoil(clean(), "/sittings/5/etuis", [1, 2]), "/sittings/5/etuis/0"),
    ("unknown_etui", {**clean(), "etuis": LABELS[:9]}, "/sittings/4/etuis/1"),
    ("bad_label", {**clean(), "etuis": [*LABELS, LABELS[-1]]}, f"/etuis/{len(LABELS)}"),
]  # fmt: skip


def test_17_1_a_clean_movement_has_no_fault(client: FlaskClient) -> None:
    answer = post(client, {**clean(), "players": LINES, "etuis": LABELS})
    assert answer["faults"] == [] and answer["perfect"]


@pytest.mark.parametrize(("code", "body", "pointer"), FAULTS, ids=[f[0] for f in FAULTS])
def test_17_1_each_fault_is_found_and_located(client: FlaskClient, code: str, body: Json, pointer: str) -> None:
    answer = post(client, body)
    found = {(f["code"], f["pointer"]) for f in answer["faults"]}
    assert (code, pointer) in found, answer["faults"]
    assert not answer["perfect"]
    for f in answer["faults"]:
        assert resolve(body, f["pointer"]) is not None, f


def test_17_1_every_fault_code_is_planted() -> None:
    assert {f[0] for f in FAULTS} == {code.value for code in DuplicateMovementFault}


def resolve(body: Json, pointer: str) -> Json:
    node = body
    for key in pointer.strip("/").split("/"):
        node = node[int(key)] if isinstance(node, list) else node.get(key)
    return node


@pytest.mark.parametrize(("code", "body", "pointer"), FAULTS, ids=[f[0] for f in FAULTS])
def test_17_1_each_fault_is_said_in_french_and_in_english(
    client: FlaskClient, code: str, body: Json, pointer: str
) -> None:
    en = [f for f in post(client, body)["faults"] if f["code"] == code]
    fr = [f for f in post(client, body, "fr")["faults"] if f["code"] == code]
    assert en and [f["message"] for f in en] != [f["message"] for f in fr]
    assert [{k: v for k, v in f.items() if k != "message"} for f in en] == [
        {k: v for k, v in f.items() if k != "message"} for f in fr
    ]
    assert all("\u00a0:" in f["message"] or ":" not in f["message"] for f in fr)


def test_17_1_an_etui_replayed_and_a_repeat_are_both_listed(client: FlaskClient) -> None:
    body = spoil(clean(), "/sittings/5/etuis", [1, 2])  # position 2, table 1 given table 1's set again
    answer = post(client, body)
    assert {(r["player"], r["etui"], tuple(r["positions"])) for r in answer["etui_repeats"]} >= {("N1", 1, (1, 2))}
    assert brute_repeats(body["sittings"]) == {tuple(r["players"]): r["positions"] for r in answer["repeats"]}


# ---- bad requests, and the largest ------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"tables": 5, "positions": 6}, "/positions", "range"),
        ({"tables": 4, "players": {**LINES}}, "/players/north", "length"),
        (
            {"tables": 5, "players": {**LINES, "east": ["E1", "E2", "E3", "E4", "N2"]}},
            "/players/east/4",
            "duplicate_player",
        ),
        ({"tables": 5, "seed": "s" * 257}, "/seed", "length"),
        ({"positions": 5}, "/tables", "required"),
    ],
)
def test_17_1_a_request_that_is_no_movement_is_refused_where_it_is_wrong(
    client: FlaskClient, body: Json, pointer: str, code: str
) -> None:
    r = client.post(PATH, json=body)
    assert r.status_code == 422
    assert (pointer, code) in {(e["pointer"], e["code"]) for e in r.get_json()["errors"]}


def test_17_1_thirty_tables_thirty_positions_thirty_etuis_with_a_seed_answer(client: FlaskClient) -> None:
    started = time.process_time()
    answer = post(client, {"tables": 30, "etuis_per_position": 30, "seed": "big"})
    spent = time.process_time() - started
    assert len(answer["sittings"]) == 900 and len(answer["dealt"]) == 900
    assert spent < 10, spent  # some 0.3 s in pure Python on the project's machine
