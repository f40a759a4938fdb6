"""Hypothesis: random game sheets (``POST /v1/games/score``) at 3, 4 and 5 players, held row by
row against the single-deal operations, and their sums, claims and spreadsheet against the rows."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from service.randomdeals import random_deal

SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
GAME = "/v1/games/score"


def post(client: FlaskClient, path: str, body: Any, **kwargs: Any) -> Any:
    response = client.post(path, json=body, **kwargs)
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def summary_of(answer: dict[str, Any]) -> dict[str, Any]:
    """A deal's summary as its players would write it, from its evaluation (no ``players``)."""
    summary = {
        "contract": answer["contract"],
        "taker": answer["taker"],
        "points": answer["points"]["attack"],
        "oudlers": answer["oudlers"]["attack"],
        "petit_au_bout": answer["petit_au_bout"],
        "poignees": [{"side": p["side"], "size": p["size"]} for p in answer["poignees"]],
        "chelem": answer["chelem"],
    }
    if answer["partner"] is not None:
        summary["partner"] = answer["partner"]
    return summary


@st.composite
def records(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A random legal deal; or with two plays swapped (most such deals are faulty), a card dealt
    to the wrong hand (a fault of the deal, ruled a redeal), or every seat passing."""
    d = random_deal(draw(st.integers(0, 2**32)), players)
    change = draw(st.sampled_from(["none", "swap", "swap", "misdeal", "all_passed"]))
    if change == "swap":
        i, j = draw(st.lists(st.integers(0, len(d["plays"]) - 1), min_size=2, max_size=2, unique=True))
        plays = list(d["plays"])
        plays[i], plays[j] = plays[j], plays[i]
        d = {**d, "plays": plays}
    elif change == "misdeal":
        hands = [list(hand) for hand in d["hands"]]
        hands[1].append(hands[0].pop())
        d = {**d, "hands": hands}
    elif change == "all_passed":
        passed = {"bids": ["pass"] * players, "contract": None, "taker": None, "called_card": None}
        d = {**d, **passed, "discard": [], "plays": []}
    return d


@st.composite
def entries(draw: st.DrawFn, players: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["summary", "record", "not_played"]))
    if kind == "record":
        return {"record": draw(records(players))}
    if kind == "not_played":
        return {"not_played": {"reason": draw(st.sampled_from(["redeal", "void"]))}}
    # A summary made from a random legal deal; "summary" entries keep it for the check.
    return {"summary": {"seed": draw(st.integers(0, 2**32))}}


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.sampled_from([3, 4, 5]))
    deals = draw(st.lists(entries(players), max_size=8))
    game: dict[str, Any] = {"players": players, "deals": deals}
    if draw(st.booleans()):
        game["names"] = [f"Player {s}" for s in range(players)]
    return game


def made(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """The game with each summary entry's seed turned into that random deal's summary."""
    n = game["players"]
    deals = []
    for entry in game["deals"]:
        if "summary" in entry:
            evaluated = post(client, "/v1/deals/evaluate", random_deal(entry["summary"]["seed"], n))
            deals.append({"summary": summary_of(evaluated)})
        else:
            deals.append(entry)
    return {**game, "deals": deals}


def single_scores(client: FlaskClient, players: int, entry: dict[str, Any]) -> list[int]:
    """The row the single-deal operation gives the entry."""
    if "summary" in entry:
        return post(client, "/v1/deals/score", {"players": players, **entry["summary"]})["scores"]
    if "record" in entry:
        answer = post(client, "/v1/deals/evaluate", entry["record"])
        if not answer["valid"]:
            assert answer["ruling"] is not None, "a complete faulty deal is ruled"
            event("a faulty record, ruled")
            return answer["ruling"]["scores"]
        if answer["status"] == "redeal":
            return [0] * players
        return answer["score"]["scores"]
    return [0] * players


@SETTINGS
@given(games())
def test_each_row_is_its_single_deal_and_the_bilans_are_the_sums(client: FlaskClient, drawn: dict[str, Any]) -> None:
    game = made(client, drawn)
    n = game["players"]
    answer = post(client, GAME, game)
    assert len(answer["deals"]) == len(game["deals"])
    running = [0] * n
    columns: list[list[int]] = [[] for _ in range(n)]
    for i, (entry, row) in enumerate(zip(game["deals"], answer["deals"], strict=True)):
        assert row["index"] == i
        assert row["scores"] == single_scores(client, n, entry), i
        running = [t + m for t, m in zip(running, row["scores"], strict=True)]
        assert row["totals"] == running
        for s in range(n):
            columns[s].append(row["scores"][s])
    nets = [b["net"] for b in answer["bilans"]]
    for s, b in enumerate(answer["bilans"]):
        assert b["seat"] == s
        assert b["name"] == (game["names"][s] if "names" in game else None)
        assert b["plus"] == sum(m for m in columns[s] if m > 0)
        assert b["minus"] == -sum(m for m in columns[s] if m < 0)
        assert b["net"] == b["plus"] - b["minus"] == sum(columns[s]) == running[s]
        assert b["rank"] == 1 + sum(other > b["net"] for other in nets)
    assert sum(nets) == 0
    assert answer["zero_sum"] is True
    assert answer["claims"] is None and answer["draw"] is None


def dealt_again(client: FlaskClient, entry: dict[str, Any]) -> bool:
    """Whether the single-deal operation has the entry dealt again by the same dealer (§15.2)."""
    if "record" in entry:
        answer = post(client, "/v1/deals/evaluate", entry["record"])
        ruled_redeal = answer.get("ruling") is not None and answer["ruling"]["decision"] == "redeal"
        return bool(answer["status"] == "redeal" or ruled_redeal)
    return "not_played" in entry and entry["not_played"]["reason"] == "redeal"


@SETTINGS
@given(games(), st.data())
def test_15_2_each_row_s_dealer_is_due_as_its_single_deal_has_it_dealt_again(
    client: FlaskClient, drawn: dict[str, Any], data: st.DataObject
) -> None:
    game = made(client, drawn)
    n = game["players"]
    game["draw"] = data.draw(st.permutations(["1T", "5T", "9T", "14T", "21T"][:n]))
    for entry in game["deals"]:
        if "record" not in entry:
            entry["dealer"] = data.draw(st.integers(0, n - 1))
    answer = post(client, GAME, game)
    due = answer["draw"]["first_dealer"]
    for i, (entry, row) in enumerate(zip(game["deals"], answer["deals"], strict=True)):
        dealer = entry["record"]["dealer"] if "record" in entry else entry["dealer"]
        assert row["dealer_in_turn"] == (dealer == due), i
        if not dealt_again(client, entry):
            due = (due + 1) % n


def unsaid(claims: dict[str, Any]) -> dict[str, Any]:
    """The claims checked, each mismatch's message (said, and said of its seat) left out."""
    for m in claims["mismatches"]:
        seat = m["pointer"].rsplit("/", 1)[1]
        assert m.pop("message").startswith(("Seat " + seat, "Deal ", "The sheet has ")), m
    return claims


@SETTINGS
@given(games(), st.data())
def test_claims_agree_with_the_answer_and_one_wrong_bilan_is_named(
    client: FlaskClient, drawn: dict[str, Any], data: st.DataObject
) -> None:
    game = made(client, drawn)
    n = game["players"]
    answer = post(client, GAME, game)
    nets = [b["net"] for b in answer["bilans"]]
    rows = [row["scores"] for row in answer["deals"]]
    right = post(client, GAME, {**game, "claims": {"net": nets, "rows": rows}})
    assert right["claims"] == {"agree": True, "mismatches": []}
    seat = data.draw(st.integers(0, n - 1))
    wrong = list(nets)
    wrong[seat] += data.draw(st.integers(-1000, 1000).filter(bool))
    checked = unsaid(post(client, GAME, {**game, "claims": {"net": wrong, "rows": rows}})["claims"])
    net_mismatch = {"pointer": f"/claims/net/{seat}", "claimed": wrong[seat], "correct": nets[seat]}
    assert checked == {"agree": False, "mismatches": [net_mismatch]}
    if not rows:
        return
    # One wrong mark in the rows, the nets right: that cell alone is named, then with the net.
    i, s = data.draw(st.integers(0, len(rows) - 1)), data.draw(st.integers(0, n - 1))
    bad_rows = [list(row) for row in rows]
    bad_rows[i][s] += data.draw(st.integers(-1000, 1000).filter(bool))
    row_mismatch = {"pointer": f"/claims/rows/{i}/{s}", "claimed": bad_rows[i][s], "correct": rows[i][s]}
    checked = unsaid(post(client, GAME, {**game, "claims": {"net": nets, "rows": bad_rows}})["claims"])
    assert checked == {"agree": False, "mismatches": [row_mismatch]}
    checked = unsaid(post(client, GAME, {**game, "claims": {"net": wrong, "rows": bad_rows}})["claims"])
    assert checked == {"agree": False, "mismatches": [net_mismatch, row_mismatch]}


@SETTINGS
@given(games())
def test_the_spreadsheet_holds_the_json_rows(client: FlaskClient, drawn: dict[str, Any]) -> None:
    game = made(client, drawn)
    answer = post(client, GAME, game)
    response = client.post(GAME, json=game, headers={"Accept": "text/csv"})
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    table = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"), newline="")))
    n, count = game["players"], len(answer["deals"])
    assert len(table) == 1 + count + 4  # header, the deals, the totals, plus, minus, bilan
    # The deal, its taker and contract, a column per player, the note.
    assert all(len(line) == 3 + n + 1 for line in table)
    marks = slice(3, 3 + n)
    if "names" in game:
        assert table[0][marks] == game["names"]
    for line, row in zip(table[1 : 1 + count], answer["deals"], strict=True):
        assert [int(v) for v in line[marks]] == row["scores"]
        assert (line[1] == "") == (row["taker"] is None) and (line[2] == "") == (row["contract"] is None)
        assert (line[-1] == "") == (row["not_played"] is None and row["ruling"] is None)
    final = answer["deals"][-1]["totals"] if count else [0] * n
    assert [int(v) for v in table[1 + count][marks]] == final
    for line, key in zip(table[2 + count :], ("plus", "minus", "net"), strict=True):
        assert [int(v) for v in line[marks]] == [b[key] for b in answer["bilans"]]


@SETTINGS
@given(st.integers(0, 6), st.integers(0, 6), st.data())
def test_an_entry_for_another_table_is_refused_where_it_stands(
    client: FlaskClient, before: int, after: int, data: st.DataObject
) -> None:
    players = data.draw(st.sampled_from([3, 4, 5]))
    other = data.draw(st.sampled_from([p for p in (3, 4, 5) if p != players]))
    fine = {"summary": {"contract": "garde", "taker": 0, "points": 51, "oudlers": 2}}
    if data.draw(st.booleans()):
        stranger = {"summary": {**fine["summary"], "players": other}}
    else:
        stranger = {"record": random_deal(data.draw(st.integers(0, 2**32)), other)}
    game = {"players": players, "deals": [fine] * before + [stranger] + [fine] * after}
    response = client.post(GAME, json=game)
    assert response.status_code == 422
    pointers = [e["pointer"] for e in response.get_json()["errors"]]
    assert pointers == [f"/deals/{before}"]


def test_a_five_player_entry_in_a_four_player_game_points_at_it(client: FlaskClient) -> None:
    fine = {"summary": {"contract": "garde", "taker": 0, "points": 51, "oudlers": 2}}
    five = {"summary": {**fine["summary"], "players": 5}}
    response = client.post(GAME, json={"players": 4, "deals": [fine, five]})
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/deals/1"]


@SETTINGS
@given(st.sampled_from([3, 4, 5]), st.integers(0, 2**32), st.integers(0, 4), st.integers(1, 60), st.data())
def test_an_unfinished_record_is_refused_where_it_stands(
    client: FlaskClient, players: int, seed: int, before: int, played: int, data: st.DataObject
) -> None:
    # A record must give the sheet a row: one cut before its end scores nothing (no 500).
    d = random_deal(seed, players)
    cut = {**d, "plays": d["plays"][: min(played, len(d["plays"]) - 1)]}
    fine = {"not_played": {"reason": data.draw(st.sampled_from(["redeal", "void"]))}}
    response = client.post(GAME, json={"players": players, "deals": [fine] * before + [{"record": cut}]})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [(f"/deals/{before}/record", "unscored_record")]
