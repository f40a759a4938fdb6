"""POST /v1/games/score, a game's score sheet (rules.md §15), through the Flask test client."""

from __future__ import annotations

import copy
import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.contract.games import SCORE_GAME
from service.randomdeals import random_deal
from service.rules.cards import CARD_BY_CODE
from service.rules.sheet import draw_for_deal, draw_rank

from .mutations import faulty

PATH = "/v1/games/score"
SHEET = SCORE_GAME.examples["rulebookSheet"].request


def post(client: FlaskClient, body: dict[str, Any], **kwargs: Any) -> Any:
    answer = client.post(PATH, json=body, **kwargs)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_15_3_the_rulebooks_worked_deals_at_one_table(client: FlaskClient) -> None:
    # rules.md §10's five deals at one table, seats N, E, S, W, the takers E, W, S, N, S.
    sheet = post(client, SHEET)
    assert [b["net"] for b in sheet["bilans"]] == [-446, -390, 1346, -510]
    assert [b["plus"] for b in sheet["bilans"]] == [318, 360, 1746, 270]
    assert [b["minus"] for b in sheet["bilans"]] == [764, 750, 400, 780]
    assert [b["rank"] for b in sheet["bilans"]] == [3, 2, 1, 4]
    assert [b["name"] for b in sheet["bilans"]] == ["N", "E", "S", "W"]
    assert [row["taker"] for row in sheet["deals"]] == [1, 3, 2, 0, 2]
    assert sheet["deals"][-1]["totals"] == [-446, -390, 1346, -510]
    assert sheet["zero_sum"] is True
    assert sheet["claims"] == {"agree": True, "mismatches": []}


def test_15_3_each_row_is_the_single_deal_answer(client: FlaskClient) -> None:
    sheet = post(client, SHEET)
    for entry, row in zip(SHEET["deals"], sheet["deals"], strict=True):
        single = client.post("/v1/deals/score", json={"players": 4, **entry["summary"]}).get_json()
        assert row["scores"] == single["scores"]


def test_15_1_the_lowest_card_deals(client: FlaskClient) -> None:
    # 10 of hearts and 10 of clubs: the 10 of clubs deals (the FFT Code text, rules.md §15); trumps draw
    # above every plain card.
    sheet = post(client, SHEET)
    assert sheet["draw"] == {"first_dealer": 1, "redraw": []}
    cards = [CARD_BY_CODE[c] for c in ("1C", "1D", "1H", "1S", "2C", "KS", "1T", "21T")]
    assert sorted(cards, key=draw_rank) == cards
    assert draw_for_deal([CARD_BY_CODE[c] for c in ("KS", "1T", "1C")]).first_dealer == 2


def test_15_1_the_excuse_draws_again(client: FlaskClient) -> None:
    sheet = post(client, {**SHEET, "draw": ["10H", "EX", "5T", "KS"]})
    assert sheet["draw"] == {"first_dealer": None, "redraw": [1]}
    assert all(row["dealer_in_turn"] is None for row in sheet["deals"])


def test_15_2_a_dealer_out_of_turn_is_flagged_not_refused(client: FlaskClient) -> None:
    body = copy.deepcopy(SHEET)
    body["deals"][2]["dealer"] = 1  # seat 3's turn
    sheet = post(client, body)
    assert [row["dealer_in_turn"] for row in sheet["deals"]] == [True, True, False, True, True]


def test_15_4_a_claimed_bilan_with_one_wrong_number_disagrees_there(client: FlaskClient) -> None:
    body = {**SHEET, "claims": {"net": [-446, -390, 1346, -500], "rows": [[-106, 318, -106, -106]]}}
    claims = post(client, body)["claims"]
    mismatch = {"pointer": "/claims/net/3", "claimed": -500, "correct": -510}
    assert claims == {"agree": False, "mismatches": [mismatch | {"message": "Seat 3's bilan is -510, not -500."}]}


@pytest.mark.parametrize(
    ("claims", "english", "french"),
    [
        (
            {"net": [-446, -390, 1364, -510]},
            "Seat 2's bilan is +1,346, not +1,364.",
            "Bilan du joueur 2 : +1 346, pas +1 364.",
        ),
        (
            {"rows": [[-106, 318, 0, -106]]},
            "Deal 1, seat 2: the mark is -106, not 0.",
            "Donne 1, joueur 2 : la marque est -106, pas 0.",
        ),
        (
            {"rows": [[-106, 318, -106, -106]] * 5 + [[0, 0, 0, 0]]},
            "The sheet has 5 deals: there is no deal 6.",
            "La feuille compte 5 donnes : il n'y a pas de donne 6.",
        ),
    ],
    ids=["a_bilan", "a_mark", "a_row_too_many"],
)
def test_15_4_each_sheet_claim_that_differs_is_said_in_both_languages(
    client: FlaskClient, claims: dict[str, Any], english: str, french: str
) -> None:
    body = {**SHEET, "claims": claims}
    said = {
        language: post(client, body, headers={"Accept-Language": language})["claims"]["mismatches"]
        for language in ("en", "fr")
    }
    assert said["en"][-1]["message"] == english
    assert said["fr"][-1]["message"] == french.replace(" : ", "\u00a0: ").replace("+1 3", "+1\u202f3")
    assert [{**m, "message": None} for m in said["en"]] == [{**m, "message": None} for m in said["fr"]]


def test_15_a_record_scores_as_it_evaluates_and_a_faulty_one_by_its_ruling(client: FlaskClient) -> None:
    valid = random_deal(3, 4)
    wrong = next(m.deal for m, _ in faulty("swapped_pair", range(50), 4))
    body = {"players": 4, "deals": [{"record": valid}, {"record": wrong}, {"not_played": {"reason": "void"}}]}
    rows = post(client, body)["deals"]
    evaluated = [client.post("/v1/deals/evaluate", json=d).get_json() for d in (valid, wrong)]
    assert rows[0]["scores"] == evaluated[0]["score"]["scores"] and rows[0]["ruling"] is None
    assert rows[1]["scores"] == evaluated[1]["ruling"]["scores"]
    assert rows[1]["ruling"] is not None and rows[1]["ruling"] == evaluated[1]["ruling"]
    assert rows[2] | {"totals": None} == {
        "index": 2,
        "kind": "not_played",
        "dealer": None,
        "dealer_in_turn": None,
        "taker": None,
        "contract": None,
        "not_played": "void",
        "ruling": None,
        "scores": [0, 0, 0, 0],
        "totals": None,
    }


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (
            {"players": 4, "deals": [{"not_played": {"reason": "void"}}, {"record": random_deal(1, 5)}]},
            "/deals/1",
        ),
        ({"players": 4, "deals": [{"record": {**random_deal(1, 4), "plays": random_deal(1, 4)["plays"][:10]}}]}, None),
        ({"players": 4, "draw": ["10H", "10C", "5T"], "deals": []}, "/draw"),
        ({"players": 4, "draw": ["10H", "10C", "10H", "KS"], "deals": []}, "/draw/2"),
    ],
    ids=["another_table_size", "a_deal_in_progress", "draw_of_three", "draw_with_a_card_twice"],
)
def test_15_a_sheet_that_cannot_be_written_is_a_located_422(
    client: FlaskClient, body: dict[str, Any], pointer: str | None
) -> None:
    answer = client.post(PATH, json=body)
    assert answer.status_code == 422
    pointers = [e["pointer"] for e in answer.get_json()["errors"]]
    assert pointers == [pointer or "/deals/0/record"]


def test_15_the_sheet_as_a_spreadsheet_in_french(client: FlaskClient) -> None:
    # The file in full: tests/test_sheet_spreadsheet.py.
    answer = client.post(PATH, json=SHEET, headers={"Accept": "text/csv", "Accept-Language": "fr"})
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert "Accept" in answer.headers["Vary"] and answer.headers["Content-Language"] == "fr"
    rows = list(csv.reader(io.StringIO(answer.get_data().decode("utf-8-sig"), newline=""), delimiter=";"))
    assert rows[0] == ["Donne", "Preneur", "Contrat", "N", "E", "S", "W", "Remarque"]
    assert rows[1] == ["Donne 1", "E", "Garde", "-106", "318", "-106", "-106", ""]
    assert rows[-4:] == [
        ["Total", "", "", "-446", "-390", "1346", "-510", ""],
        ["Plus", "", "", "318", "360", "1746", "270", ""],
        ["Moins", "", "", "764", "750", "400", "780", ""],
        ["Bilan", "", "", "-446", "-390", "1346", "-510", ""],
    ]
    english = client.post(PATH, json={**SHEET, "names": None}, headers={"Accept": "text/csv"})
    header = english.get_data().decode("utf-8-sig").splitlines()[0]
    assert header == '"Deal","Taker","Contract","Seat 0","Seat 1","Seat 2","Seat 3","Note"'


def test_15_2_a_deal_dealt_again_is_dealt_by_the_same_dealer(client: FlaskClient) -> None:
    summary = {"contract": "prise", "taker": 1, "points": 50, "oudlers": 2}
    body = {
        "players": 4,
        "draw": ["1C", "2C", "3C", "4C"],
        "deals": [
            {"dealer": 0, "not_played": {"reason": "redeal"}},
            {"dealer": 0, "summary": summary},
            {"dealer": 1, "not_played": {"reason": "void"}},
            {"dealer": 2, "summary": summary},
        ],
    }
    assert [row["dealer_in_turn"] for row in post(client, body)["deals"]] == [True, True, True, True]


def test_15_2_records_the_core_deals_again_keep_their_dealer(client: FlaskClient) -> None:
    # Every seat passed, and a fault of the deal ruled after the play (§14.5): both dealt again
    # by the same dealer, like a row said not played for a redeal.
    passed = random_deal(11, 4) | {"contract": None, "taker": None, "called_card": None, "discard": [], "plays": []}
    passed["bids"] = ["pass"] * 4
    misdealt = copy.deepcopy(random_deal(12, 4))
    misdealt["hands"][1].append(misdealt["hands"][0].pop())  # 17 and 19 cards
    summary = {"contract": "prise", "taker": 1, "points": 50, "oudlers": 2}
    body = {
        "players": 4,
        "draw": ["1C", "2C", "3C", "4C"],
        "deals": [
            {"record": passed | {"dealer": 0}},
            {"record": misdealt | {"dealer": 0}},
            {"dealer": 0, "summary": summary},
            {"dealer": 1, "summary": summary},
        ],
    }
    rows = post(client, body)["deals"]
    assert rows[0]["not_played"] == "redeal"
    assert (rows[1]["ruling"]["decision"], rows[1]["ruling"]["reason"]) == ("redeal", "dealing_fault")
    assert [row["dealer_in_turn"] for row in rows] == [True, True, True, True]
