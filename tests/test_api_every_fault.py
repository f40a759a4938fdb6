"""A request with several faults is told them all in one answer: the rules across fields run on
the fields that loaded, beside the faults of the fields that did not (a rule whose inputs did
not load is skipped, not said wrongly). For every operation, faults that each alone are
answered at their pointer, planted together, are all answered at once."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.generator import refusals
from service.contract.operations import OPERATIONS
from service.randomdeals import random_deal
from tests import badinputs

SUMMARY = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
DEAL = random_deal(4, 4)
BATCH = "/v1/deals/evaluate-batch"
FOUR_SEATS = ("north", "west", "south", "east")
DUPLICATE_SESSION = badinputs.duplicate_body()["sessions"][0]

# Per operation: a sound request, and faults (the pointer spoilt, the value put there, the
# pointer of the error it gets, and whether a rule across fields finds it).
Fault = tuple[str, Any, str, bool]
DEAL_FAULTS: list[Fault] = [
    ("/chelem_announced", "yes", "/chelem_announced", False),
    ("/plays", "KS", "/plays", False),
    ("/id", 7, "/id", False),
    ("/dealer", 4, "/dealer", True),
    ("/called_card", "KH", "/called_card", True),
    ("/poignees", [{"seat": 4, "cards": ["1T"] * 10}], "/poignees/0/seat", True),
]
OPERATION_FAULTS: dict[str, tuple[dict[str, Any], list[Fault]]] = {
    "/v1/tricks/legal-cards": (
        {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]},
        [
            ("/first_trick", "yes", "/first_trick", False),
            ("/rules", 3, "/rules", False),
            ("/trick", ["QS", "JS", "10S", "9S"], "/trick", True),
            ("/called_card", "KH", "/called_card", True),
        ],
    ),
    "/v1/tricks/winner": (
        {"players": 4, "cards": ["KS", "QS"]},
        [("/leader", "x", "/leader", False), ("/cards", ["KS", "KS"], "/cards/1", True)],
    ),
    "/v1/deals/deal": (
        {"players": 4, "dealer": 0, "seed": "x"},
        [
            ("/rules", 3, "/rules", False),
            ("/dog_positions", "x", "/dog_positions", False),
            ("/dealer", 4, "/dealer", True),
            ("/packet", 4, "/packet", True),
        ],
    ),
    "/v1/deals/score": (
        SUMMARY,
        [
            ("/petit_au_bout", True, "/petit_au_bout", False),
            ("/chelem", "attack", "/chelem", False),
            ("/poignees", [{"side": "attack", "size": "single"}], "/poignees/0/size", False),
            ("/taker", 4, "/taker", True),
            ("/partner", 1, "/partner", True),
            ("/points", 90, "/points", True),
        ],
    ),
    "/v1/deals/evaluate": (DEAL, DEAL_FAULTS),
    BATCH: ({"deals": [DEAL]}, [(f"/deals/0{p}", v, f"/deals/0{e}", c) for p, v, e, c in DEAL_FAULTS]),
    "/v1/games/score": (
        {"players": 4, "deals": [{"summary": SUMMARY}, {"not_played": {"reason": "redeal"}}]},
        [
            ("/table", 3, "/table", False),
            ("/deals/1/not_played/reason", "x", "/deals/1/not_played/reason", False),
            ("/names", ["N", "E"], "/names", True),
            ("/draw", ["10H", "10C", "5T"], "/draw", True),
            ("/claims", {"net": [0, 0]}, "/claims/net", True),
        ],
    ),
    "/v1/tournaments/standings": (
        {
            "players": [{"id": p, "name": p} for p in "NWSE"],
            "scorecards": [
                {
                    "position": 1,
                    "table": 1,
                    "seats": {"north": "N", "west": "W", "south": "S", "east": "E"},
                    "deals": [{"summary": {k: v for k, v in SUMMARY.items() if k != "players"}}],
                }
            ],
        },
        [
            ("/tie_break", "coin", "/tie_break", False),
            ("/scorecards/0/position", 0, "/scorecards/0/position", False),
            ("/scorecards/0/deals/0/summary/points", 49.25, "/scorecards/0/deals/0/summary/points", False),
            ("/players/1/id", "N", "/players/1/id", True),
            ("/scorecards/0/totals", {"fifth": 0}, "/scorecards/0/totals/fifth", True),
            ("/adjustments", [{"player": "Z", "position": 1, "points": 1}], "/adjustments/0/player", True),
        ],
    ),
    "/v1/tournaments/seating": (
        {
            "players": ["A", "B", "C", "D", "E", "F", "G", "H"],
            "positions": 2,
            "seed": "x",
            "forbidden": [["A", "B"]],
            "fixed": [{"player": "A", "table": 1}],
        },
        [
            ("/tables_of_five", "yes", "/tables_of_five", False),
            ("/seat", "all", "/seat", False),
            (
                "/played",
                [{"position": 0, "table": 1, "seats": dict(zip(FOUR_SEATS, "ABCD", strict=True))}],
                "/played/0/position",
                False,
            ),
            ("/players", ["A", "B", "C", "D", "E", "F", "G", "H", "A"], "/players/8", True),
            ("/forbidden/0", ["C", "C"], "/forbidden/0", True),
            ("/fixed/0/player", "Z", "/fixed/0/player", True),
        ],
    ),
    "/v1/tournaments/duplicate/movement": (
        {"tables": 5, "players": {o: [f"{o[0]}{t}" for t in range(1, 6)] for o in FOUR_SEATS}, "seed": "x"},
        [
            ("/seed", "", "/seed", False),
            ("/etuis_per_position", 0, "/etuis_per_position", False),
            ("/etuis", 1, "/etuis", False),
            ("/positions", 6, "/positions", True),
            ("/players/west/1", "n1", "/players/west/1", True),
            ("/players/east", ["e1"], "/players/east", True),
        ],
    ),
    "/v1/tournaments/duplicate/standings": (
        # Two sessions: the fields' faults in the first, the rules' in the second (a session whose
        # fields did not all load has its rules skipped, as every object's).
        {"form": "individual", "sessions": [DUPLICATE_SESSION, copy.deepcopy(DUPLICATE_SESSION)]},
        [
            ("/sessions/0/plays/0/position", 0, "/sessions/0/plays/0/position", False),
            ("/sessions/0/coefficient", "x", "/sessions/0/coefficient", False),
            ("/sessions/0/etuis/0/taker", "fifth", "/sessions/0/etuis/0/taker", False),
            ("/sessions/1/plays/1/etui", 9, "/sessions/1/plays/1/etui", True),
            ("/sessions/1/sittings/1/table", 1, "/sessions/1/sittings/1/table", True),
            (
                "/sessions/1/adjustments",
                {"penalties": [{"entrant": "Z", "points": 1}]},
                "/sessions/1/adjustments/penalties/0/entrant",
                True,
            ),
        ],
    ),
}


def pointers(client: FlaskClient, path: str, body: Any, language: str = "en") -> set[str]:
    """The pointers of every error the one answer to ``body`` has (a batch's record: its item's,
    located in the batch)."""
    r = client.post(path, data=json.dumps(body), content_type="application/json", headers={"Accept-Language": language})
    if path == BATCH:
        assert r.status_code == 200, r.get_json()
        problem = r.get_json()["results"][0].get("problem", {"errors": []})
        return {"/deals/0" + e["pointer"] for e in problem["errors"]}
    if r.status_code == 200:
        return set()
    assert r.status_code == 422, r.get_json()
    return {e["pointer"] for e in r.get_json()["errors"]}


def test_every_operation_has_its_faults() -> None:
    assert set(OPERATION_FAULTS) == {op.path for op in OPERATIONS.values()}
    for _, faults in OPERATION_FAULTS.values():
        assert {across for *_, across in faults} == {True, False}  # a field's fault and a rule's, at least


@pytest.mark.parametrize("path", list(OPERATION_FAULTS))
def test_each_fault_alone_is_answered_at_its_pointer(client: FlaskClient, path: str) -> None:
    sound, faults = OPERATION_FAULTS[path]
    assert pointers(client, path, sound) == set()
    for at, value, answered, _ in faults:
        assert pointers(client, path, refusals.spoilt(sound, at, value)) == {answered}, (at, value)


@st.composite
def planted(draw: st.DrawFn) -> tuple[str, list[Fault]]:
    path = draw(st.sampled_from(list(OPERATION_FAULTS)))
    faults = OPERATION_FAULTS[path][1]
    chosen = set(draw(st.lists(st.sampled_from(range(len(faults))), min_size=2)))
    # Both kinds, at least: the faults of fields, and those of the rules across them.
    chosen |= {draw(st.sampled_from([i for i, f in enumerate(faults) if f[3] is across])) for across in (True, False)}
    return path, [faults[i] for i in sorted(chosen)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=planted(), language=st.sampled_from(["en", "fr"]))
def test_faults_planted_together_are_answered_together(
    client: FlaskClient, case: tuple[str, list[Fault]], language: str
) -> None:
    path, faults = case
    body = OPERATION_FAULTS[path][0]
    for at, value, _, _ in faults:
        body = refusals.spoilt(body, at, value)
    assert pointers(client, path, body, language) == {answered for _, _, answered, _ in faults}


def test_a_rule_whose_field_did_not_load_is_skipped_not_said_wrongly(client: FlaskClient) -> None:
    # No `required` for the contract or the bids when the bids sent are not a list: they were
    # given, and their fault is said; the seat checked by the table still is.
    body = {**DEAL, "bids": "pass", "contract": None, "taker": None, "dealer": 4}
    r = client.post("/v1/deals/evaluate", json=body)
    errors = {(e["pointer"], e["code"]) for e in r.get_json()["errors"]}
    assert errors == {("/bids", "type"), ("/dealer", "seat_out_of_range")}
    # Nor a seat beyond a table whose player count did not load.
    r = client.post("/v1/deals/score", json={**SUMMARY, "players": 6, "taker": 3, "petit_au_bout": 1})
    assert {e["pointer"] for e in r.get_json()["errors"]} == {"/players", "/petit_au_bout"}
