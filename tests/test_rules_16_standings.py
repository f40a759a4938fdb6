"""rules.md §16.1–16.4: a tournament at the control table, POST /v1/tournaments/standings.

Each scored error planted once in a card is reported once, at its pointer, naming the players of
the table; a clean tournament reports none; a player's total is the sum of his marks, each deal's
as ``POST /v1/deals/score`` gives it (or as written), plus the referee's adjustments; and a
planted error is found whatever else the tournament holds.
"""

from __future__ import annotations

import copy
import csv
import io
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.http import parse_options_header

from service.contract.evaluate import EVALUATE
from service.contract.spreadsheet import BOM
from service.contract.standings import STANDINGS
from service.randomdeals import random_deal
from service.rules.tournament import fits
from service.rules.verdicts import Anomaly

from .mutations import faulty
from .spreadsheet import COMMA, ENGLISH_US, FRENCH, SEMICOLON, csv_filter, need_spreadsheet, open_csv
from .tournaments import (
    KINDS,
    ORIENTATIONS,
    counted_row,
    marks_of,
    plant,
    random_summary,
    random_tournament,
    rewrite_totals,
)

PATH = "/v1/tournaments/standings"
PROPERTIES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORKED = STANDINGS.examples["rulebookDeals"].request
"""Position 1, table 3: the rulebook's first four worked deals (§10), marks and bilans written."""
ERRORS = STANDINGS.examples["scoredErrors"].request


def standings(body: dict[str, Any], language: str = "en") -> dict[str, Any]:
    """The control table's answer, through the contract (the HTTP tests below post it)."""
    answer: dict[str, Any] = STANDINGS.respond(body, language).answer
    return answer


def found(body: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    return [(a["code"], a["pointer"], a["players"]) for a in standings(body)["anomalies"]]


def two_tables() -> dict[str, Any]:
    """The worked card, and a second table of the same position written by its marks alone."""
    body = copy.deepcopy(WORKED)
    body["players"] += [{"id": f"{o}4", "name": f"Player {o}4"} for o in "NWSE"]
    second = {
        "position": 1,
        "table": 4,
        "seats": {"north": "N4", "west": "W4", "south": "S4", "east": "E4"},
        "deals": [
            {"marks": {"row": dict(zip(ORIENTATIONS, row, strict=False))}}
            for row in ([-60, 180, -60, -60], [34, 34, -102, 34], [-70, -70, 210, -70], [-27, -27, -27, 81])
        ],
        "totals": {"north": -123, "west": 117, "south": 21, "east": -15},
    }
    body["scorecards"].append(second)
    body["seating"] = [
        {"position": 1, "table": t, "seats": dict(c["seats"])} for t, c in ((3, WORKED["scorecards"][0]), (4, second))
    ]
    return body


TABLE_3 = ["N3", "W3", "S3", "E3"]
TABLE_4 = ["N4", "W4", "S4", "E4"]


def spoil(change: Any) -> dict[str, Any]:
    body = two_tables()
    change(body)
    return body


def _card(body: dict[str, Any], c: int) -> dict[str, Any]:
    card: dict[str, Any] = body["scorecards"][c]
    return card


def _set(path: str, value: Any) -> Any:
    """A change that puts ``value`` at ``path`` (keys and indexes, as a pointer names them)."""

    def change(body: dict[str, Any]) -> None:
        *parents, last = [int(k) if k.isdigit() else k for k in path.strip("/").split("/")]
        node: Any = body
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _teams(body: dict[str, Any]) -> None:
    for p in body["players"]:
        p["team"] = {"N3": "A", "E3": "A", "N4": "B", "W3": "B", "E4": "C", "S3": "C"}.get(p["id"])


def _shift_row(body: dict[str, Any]) -> None:
    row = _card(body, 1)["deals"][2]["marks"]["row"]
    row["north"] += 10
    _card(body, 1)["totals"]["north"] += 10


def _uneven_defence(body: dict[str, Any]) -> None:
    row = _card(body, 0)["deals"][0]["marks"]["row"]
    row["north"], row["west"] = -100, -112
    _card(body, 0)["totals"] |= {"north": 78, "west": 130}


def _drop_deal(body: dict[str, Any]) -> None:
    del _card(body, 1)["deals"][3]
    rewrite_totals(_card(body, 1))


def _not_returned(body: dict[str, Any]) -> None:
    card = _card(body, 1)
    card |= {"returned": False, "deals": []}
    del card["totals"]


def _no_card(body: dict[str, Any]) -> None:
    del body["scorecards"][1]


def _beyond_plan(body: dict[str, Any]) -> None:
    body["scorecards"][1]["position"] = 6
    body["seating"][1]["position"] = 6


def _renumbered(body: dict[str, Any]) -> None:
    _card(body, 1)["table"] = 3
    del body["seating"]  # (table 4 would be a seated table without its card)


def _other_row(body: dict[str, Any]) -> None:
    _set("/scorecards/0/deals/3/marks/row", {"north": -46, "west": 138, "south": -46, "east": -46})(body)
    rewrite_totals(_card(body, 0))


def _swapped(body: dict[str, Any]) -> None:
    _card(body, 0)["seats"]["south"], _card(body, 1)["seats"]["south"] = "S4", "S3"


def _reserve(body: dict[str, Any]) -> None:
    """A player of the tournament whom the seating seats nowhere in position 1."""
    body["players"].append({"id": "R1", "name": "Reserve"})


def _reserve_on_card(body: dict[str, Any]) -> None:
    _reserve(body)
    _card(body, 1)["seats"]["east"] = "R1"


def _seated_absent(body: dict[str, Any]) -> None:
    _reserve(body)
    body["seating"][1]["seats"]["fifth"] = "R1"


# One row per planting: what is spoilt, the code, the pointer and the players named.
PLANTED = [
    ("a deal's marks one ten off zero", _shift_row, "deal_not_zero_sum", "/scorecards/1/deals/2/marks/row", TABLE_4),
    (
        "two defenders' marks unequal, the row still zero",
        _uneven_defence,
        "impossible_marks",
        "/scorecards/0/deals/0/marks/row",
        TABLE_3,
    ),
    (
        "the taker written at a defender's seat",
        _set("/scorecards/0/deals/0/marks/taker", "north"),
        "impossible_marks",
        "/scorecards/0/deals/0/marks/row",
        TABLE_3,
    ),
    (
        "the contract written is not the summary's",
        _set("/scorecards/0/deals/1/marks/contract", "garde"),
        "marks_contradict_deal",
        "/scorecards/0/deals/1/marks",
        TABLE_3,
    ),
    (
        "a row of another deal's marks beside the summary",
        _other_row,
        "marks_contradict_deal",
        "/scorecards/0/deals/3/marks",
        TABLE_3,
    ),
    (
        "South's bilan written 20 off",
        _set("/scorecards/0/totals/south", -380),
        "bilan_mismatch",
        "/scorecards/0/totals/south",
        TABLE_3,
    ),
    ("no table number", _set("/scorecards/1/table", None), "table_missing", "/scorecards/1/table", TABLE_4),
    (
        "no name and number at West",
        _set("/scorecards/1/seats/west", None),
        "player_missing",
        "/scorecards/1/seats/west",
        ["N4", "S4", "E4"],
    ),
    ("a card said not returned", _not_returned, "card_not_returned", "/scorecards/1/returned", TABLE_4),
    ("a seated table without its card", _no_card, "card_not_returned", "/seating/1", TABLE_4),
    (
        "a player of table 3 written at table 4 too",
        _set("/scorecards/1/seats/south", "S3"),
        "player_twice",
        "/scorecards/1/seats/south",
        ["N4", "W4", "S3", "E4"],
    ),
    (
        "a player at two seats of one card",
        _set("/scorecards/1/seats/east", "N4"),
        "player_twice",
        "/scorecards/1/seats/east",
        ["N4", "W4", "S4", "N4"],
    ),
    (
        "a number nobody has",
        _set("/scorecards/1/seats/east", "E9"),
        "unknown_player",
        "/scorecards/1/seats/east",
        ["N4", "W4", "S4", "E9"],
    ),
    ("three deals where the plan has four", _drop_deal, "deal_count", "/scorecards/1/deals", TABLE_4),
    ("a sixth position in a plan of five", _beyond_plan, "position_not_in_plan", "/scorecards/1/position", TABLE_4),
    ("two cards for table 3", _renumbered, "duplicate_table", "/scorecards/1/table", TABLE_4),
    ("teammates N3 and E3 at table 3", _teams, "teammates_together", "/scorecards/0/seats/east", TABLE_3),
    (
        "table 4's card numbered 3, beside table 3's own",
        _set("/scorecards/1/table", 3),
        "wrong_table_number",
        "/scorecards/1/table",
        TABLE_4,
    ),
    ("table 4's card numbered 9", _set("/scorecards/1/table", 9), "wrong_table_number", "/scorecards/1/table", TABLE_4),
    (
        "S3 and S4 each at the other's table",
        _swapped,
        "players_swapped",
        "/scorecards/0/seats/south",
        [*TABLE_3[:2], "S4", "E3"],
    ),
    (
        "a player the seating seats nowhere in E4's place",
        _reserve_on_card,
        "not_seated_here",
        "/scorecards/1/seats/east",
        ["N4", "W4", "S4", "R1"],
    ),
    ("a seated player on no card", _seated_absent, "seated_absent", "/seating/1/seats/fifth", TABLE_4),
]


def test_16_the_two_tables_are_clean() -> None:
    answer = standings(two_tables())
    assert answer["anomalies"] == []
    assert [s["bilan"] for s in answer["tables"][1]["seats"]] == [-123, 117, 21, -15]


@pytest.mark.parametrize(("what", "change", "code", "pointer", "players"), PLANTED, ids=[p[0] for p in PLANTED])
def test_16_3_each_scored_error_is_reported_once_at_its_pointer(
    what: str, change: Any, code: str, pointer: str, players: list[str]
) -> None:
    anomalies = standings(spoil(change))["anomalies"]
    assert [(a["code"], a["pointer"], a["players"]) for a in anomalies] == [(code, pointer, players)], what
    assert anomalies[0]["sanction"] == "warning"
    assert anomalies[0]["source"] == (
        "fft_code"
        if code in ("deal_not_zero_sum", "table_missing", "player_missing", "card_not_returned")
        else "rulebook"
    )


def test_16_3_every_kind_of_scored_error_is_planted() -> None:
    assert {p[2] for p in PLANTED} == {a.value for a in Anomaly}


def test_16_3_a_tables_first_scored_error_is_a_warning_and_the_next_ones_penalties() -> None:
    anomalies = standings(ERRORS)["anomalies"]
    assert [(a["code"], a["table"], a["sanction"]) for a in anomalies] == [
        ("deal_not_zero_sum", 1, "warning"),
        ("bilan_mismatch", 1, "penalty"),
        ("table_missing", None, "warning"),
    ]
    # The amounts are the referee's: the adjustment is added, nothing else.
    row = next(s for s in standings(ERRORS)["standings"] if s["player"] == "E1")
    assert (row["marks"], row["adjustments"], row["total"]) == (265, -20, 245)
    assert row["adjustment_details"] == [{"position": 1, "points": -20, "reason": "Late at the table"}]


def test_16_3_the_messages_say_where_in_both_languages() -> None:
    body = spoil(_shift_row)
    english = standings(body)["anomalies"][0]["message"]
    french = standings(body, "fr")["anomalies"][0]["message"]
    assert english == "Position 1, table 4: the marks of deal 3 add up to +10, not zero."
    assert french == "Position 1, table 4\u00a0: les marques de la donne 3 font +10, pas zéro."


# ---- the marks a deal gives (§9.3) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "taker", "partner", "possible"),
    [
        ([-106, -106, -106, 318], None, None, True),
        ([-106, -106, -106, 318], 3, None, True),
        ([-106, -106, -106, 318], 0, None, False),
        ([-100, -112, -106, 318], None, None, False),
        ([84, -42, -42], None, None, True),
        ([-42, -42, 84], 2, None, True),
        ([-42, -40, 82], None, None, False),
        ([0, 0, 0, 0], None, None, True),
        ([120, 60, -60, -60, -60], None, None, True),
        ([120, 60, -60, -60, -60], 0, 1, True),
        ([120, 60, -60, -60, -60], 0, 0, False),
        ([120, 60, -60, -60, -60], 0, 2, False),
        ([240, -60, -60, -60, -60], 0, 0, True),
        ([240, -60, -60, -60, -60], None, None, True),
        ([240, -60, -60, -60, -60], 0, 3, False),
        ([-60, 180, -60, -60, 0], None, None, False),
        ([120, -60, 60, -60, -60], None, 2, True),
    ],
)
def test_9_3_the_marks_a_deal_can_give(row: list[int], taker: int | None, partner: int | None, possible: bool) -> None:
    assert fits(row, taker, partner) is possible


@PROPERTIES
@given(st.randoms(use_true_random=False), st.sampled_from([3, 4, 5]))
def test_9_3_every_row_the_scoring_gives_fits_with_its_taker_and_partner(rng: random.Random, players: int) -> None:
    summary = random_summary(rng, players)
    row = marks_of(summary, players)
    assert fits(row, summary["taker"], summary.get("partner"))
    assert fits(row, None, None)


# ---- clean tournaments, their totals ---------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> dict[str, Any]:
    rng = draw(st.randoms(use_true_random=False))
    players = draw(st.integers(12, 22))
    fives = players % 4 * 5 <= players and draw(st.booleans()) and players % 4 != 0
    return random_tournament(
        rng,
        players,
        draw(st.integers(1, 6)),
        draw(st.sampled_from([3, 4])),
        fives=fives,
        seating=draw(st.booleans()),
        teams=draw(st.booleans()),
        adjustments=draw(st.integers(0, 3)),
    )


@PROPERTIES
@given(tournaments())
def test_16_3_a_clean_tournament_reports_no_scored_error(body: dict[str, Any]) -> None:
    assert standings(body)["anomalies"] == []


@PROPERTIES
@given(tournaments())
def test_16_4_totals_are_the_sum_of_each_players_marks_deal_by_deal(body: dict[str, Any]) -> None:
    # Each deal's marks computed here with POST /v1/deals/score (or as written), never by the
    # operation under test; then the referee's adjustments.
    want = {p["id"]: 0 for p in body["players"]}
    for card in body["scorecards"]:
        order = [o for o in ORIENTATIONS if o in card["seats"]]
        for entry in card["deals"]:
            for o, mark in zip(order, counted_row(entry, order, len(order)), strict=True):
                want[card["seats"][o]] += mark
    for adjustment in body.get("adjustments", []):
        want[adjustment["player"]] += adjustment["points"]
    rows = standings(body)["standings"]
    assert {r["player"]: r["total"] for r in rows} == want
    assert all(r["total"] == r["marks"] + r["adjustments"] for r in rows)
    assert all(r["marks"] == sum(p["bilan"] for p in r["positions"]) for r in rows)
    # Ranked by decreasing total, equal totals sharing a rank.
    assert [r["rank"] for r in rows] == [1 + sum(o["total"] > r["total"] for o in rows) for r in rows]
    assert [r["total"] for r in rows] == sorted(want.values(), reverse=True)


@PROPERTIES
@given(tournaments(), st.sampled_from(KINDS), st.randoms(use_true_random=False))
def test_16_3_a_planted_error_is_found_whatever_else_is_in_the_tournament(
    body: dict[str, Any], kind: str, rng: random.Random
) -> None:
    planted = plant(body, kind, rng)
    if planted is None:
        return  # no place for it in this tournament (no team, no written row…)
    assert found(planted.request) == [(planted.code, planted.pointer, planted.players)]


@PROPERTIES
@given(tournaments(), st.sampled_from(KINDS), st.randoms(use_true_random=False))
def test_16_3_two_errors_at_two_tables_are_both_found(body: dict[str, Any], kind: str, rng: random.Random) -> None:
    if len(body["scorecards"]) < 4 or kind in ("seated_card_missing", "player_twice", "duplicate_table"):
        return  # (these change another card, or the cards' order, than the one planted)
    first = plant(body, kind, rng, card=0)
    if first is None:
        return
    # The second on another card than the one the first is reported at.
    at = int(first.pointer.split("/")[2]) if first.pointer.startswith("/scorecards/") else None
    other = next(c for c in range(len(body["scorecards"]) - 1, -1, -1) if c != at)
    second = plant(first.request, "unknown_player", rng, card=other)
    assert second is not None
    anomalies = found(second.request)
    assert (first.code, first.pointer, first.players) in anomalies
    assert (second.code, second.pointer, second.players) in anomalies


def test_16_2_deals_as_records_are_scored_as_the_sheet_scores_them() -> None:
    body = copy.deepcopy(WORKED)
    deal = random_deal(7, 4)
    ruled = next(m.deal for m, _ in faulty("swapped_pair", range(50), 4))
    card = body["scorecards"][0]
    card["deals"][3:] = [{"record": deal}, {"record": ruled}]
    del card["totals"]
    sheet = STANDINGS.respond(body).answer
    single = [EVALUATE.respond(d).answer for d in (deal, ruled)]
    want = [s["ruling"]["scores"] if s.get("ruling") else s["score"]["scores"] for s in single]
    assert [row["marks"] for row in sheet["tables"][0]["deals"][3:]] == want
    assert sheet["tables"][0]["deals"][4]["ruling"] is not None


# ---- the plan, ties, teams, tables of three and five (§16.1, §16.4) ---------------------------------


@pytest.mark.parametrize(
    ("positions", "deals", "minutes", "fft"),
    [(5, 4, 45, True), (6, 4, 45, True), (7, 3, 35, True), (5, 3, 35, False), (4, 5, None, False)],
)
def test_16_1_the_plan_is_stated_with_its_time(positions: int, deals: int, minutes: int | None, fft: bool) -> None:
    body = {**copy.deepcopy(WORKED), "plan": {"positions": positions, "deals": deals}}
    assert standings(body)["plan"] == {"positions": positions, "deals": deals, "minutes": minutes, "fft_shape": fft}


def test_16_1_without_a_plan_no_count_is_checked() -> None:
    body = spoil(_drop_deal)
    del body["plan"]
    answer = standings(body)
    assert answer["plan"] is None and answer["anomalies"] == []


def test_16_1_a_deal_dealt_again_is_not_a_played_deal() -> None:
    body = two_tables()
    _card(body, 1)["deals"].insert(1, {"not_played": {"reason": "redeal"}})
    _card(body, 1)["deals"].append({"not_played": {"reason": "void"}})
    answer = standings(body)
    assert [d["played"] for d in answer["tables"][1]["deals"]] == [True, False, True, True, True, True]
    assert [a["code"] for a in answer["anomalies"]] == ["deal_count"]  # the void deal was played: five


def _positions(bilans: list[list[int]], tie_break: str | None = None) -> dict[str, Any]:
    """Four players, A to D, at one table position after position, with these bilans (one row of
    marks per position: they need not be a deal's, their scored errors are not what is tested)."""
    seats = dict(zip(("north", "west", "south", "east"), "ABCD", strict=True))
    body: dict[str, Any] = {
        "players": [{"id": x, "name": x} for x in "ABCD"],
        "scorecards": [
            {
                "position": p,
                "table": 1,
                "seats": seats,
                "deals": [{"marks": {"row": dict(zip(seats, row, strict=True))}}],
            }
            for p, row in enumerate(bilans, start=1)
        ],
    }
    if tie_break is not None:
        body["tie_break"] = tie_break
    return body


def _ranks(body: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(r["player"], r["total"], r["rank"]) for r in standings(body)["standings"]]


# A: +200, -100, 0; B: +50, +50, 0. Both 100: A has the better best position, B more positive ones.
TIED = [[200, 50, -150, -100], [-100, 50, 100, -50], [0, 0, -50, 50]]


@pytest.mark.parametrize(
    ("tie_break", "ranks"),
    [
        (None, [("A", 100, 1), ("B", 100, 1), ("C", -100, 3), ("D", -100, 3)]),
        ("none", [("A", 100, 1), ("B", 100, 1), ("C", -100, 3), ("D", -100, 3)]),
        ("best_position", [("A", 100, 1), ("B", 100, 2), ("C", -100, 3), ("D", -100, 4)]),
        ("positive_positions", [("B", 100, 1), ("A", 100, 2), ("C", -100, 3), ("D", -100, 3)]),
    ],
)
def test_16_4_equal_totals_share_a_rank_unless_a_tie_break_is_named(
    tie_break: str | None, ranks: list[tuple[str, int, int]]
) -> None:
    # C: -150, +100, -50 (best +100, one positive); D: -100, -50, +50 (best +50, one positive).
    assert _ranks(_positions(TIED, tie_break)) == ranks


def test_16_4_a_tie_break_that_cannot_tell_them_apart_leaves_the_rank_shared() -> None:
    same = [[100, 100, -100, -100], [100, 100, -100, -100]]
    for tie_break in ("best_position", "positive_positions"):
        assert [r for _, _, r in _ranks(_positions(same, tie_break))] == [1, 1, 3, 3]


def test_16_4_teams_are_ranked_by_their_players_sum() -> None:
    body = two_tables()
    for p in body["players"]:
        p["team"] = {"N3": "Rouge", "N4": "Rouge", "S3": "Bleu", "S4": "Bleu"}.get(p["id"])
    answer = standings(body)
    totals = {r["player"]: r["total"] for r in answer["standings"]}
    assert answer["teams"] == [
        {"rank": 1, "team": "Rouge", "players": ["N3", "N4"], "total": totals["N3"] + totals["N4"]},
        {"rank": 2, "team": "Bleu", "players": ["S3", "S4"], "total": totals["S3"] + totals["S4"]},
    ]
    assert standings(two_tables())["teams"] is None


def test_16_4_tables_of_three_and_five_are_summed_as_played_and_flagged() -> None:
    rng = random.Random(5)
    body = random_tournament(rng, 14, 2, 4)  # two tables of 4, two of 3 in each position
    answer = standings(body)
    assert answer["anomalies"] == []
    sizes = {r["player"]: {p["table_size"] for p in r["positions"]} for r in answer["standings"]}
    for r in answer["standings"]:
        assert r["other_table_sizes"] is (3 in sizes[r["player"]])
    five = random_tournament(random.Random(6), 17, 2, 3, fives=True)
    rows = standings(five)["standings"]
    assert any(r["other_table_sizes"] for r in rows) and {5} <= {p["table_size"] for r in rows for p in r["positions"]}


def test_16_4_a_card_not_returned_gives_no_bilan() -> None:
    answer = standings(spoil(_not_returned))
    row = next(r for r in answer["standings"] if r["player"] == "N4")
    assert row["positions"] == [{"position": 1, "table": 4, "table_size": 4, "bilan": None, "scorecard": 1}]
    assert row["total"] == 0
    missing = standings(spoil(_no_card))
    row = next(r for r in missing["standings"] if r["player"] == "N4")
    assert row["positions"] == [{"position": 1, "table": 4, "table_size": 4, "bilan": None, "scorecard": None}]


def test_16_2_a_contradicted_card_counts_its_written_marks() -> None:
    body = spoil(_other_row)
    answer = standings(body)
    deal = answer["tables"][0]["deals"][3]
    assert deal["scored"] == [-92, 276, -92, -92] and deal["marks"] == [-46, 138, -46, -46]
    assert answer["tables"][0]["seats"][1]["bilan"] == 136 - 276 + 138


# ---- refused: not a tournament (422) -------------------------------------------------------------


REFUSED = [
    ("a number given twice", lambda b: b["players"].append({"id": "N3", "name": "x"}), "/players/8/id"),
    ("a table of two", _set("/scorecards/1/seats", {"north": "N4", "south": "S4"}), "/scorecards/1/seats"),
    (
        "a fifth seat at a table of four",
        _set("/scorecards/1/seats", {"north": "N4", "west": "W4", "south": "S4", "fifth": "E4"}),
        "/scorecards/1/seats",
    ),
    (
        "a mark at a seat the card does not have",
        _set("/scorecards/1/deals/0/marks/row/fifth", 0),
        "/scorecards/1/deals/0/marks/row/fifth",
    ),
    (
        "a row without East's mark",
        _set("/scorecards/1/deals/0/marks/row", {"north": -60, "west": 180, "south": -120}),
        "/scorecards/1/deals/0/marks/row",
    ),
    (
        "a partner at four players",
        _set("/scorecards/1/deals/0/marks/partner", "north"),
        "/scorecards/1/deals/0/marks/partner",
    ),
    ("a bilan at a seat not there", _set("/scorecards/1/totals/fifth", 0), "/scorecards/1/totals/fifth"),
    ("a deal with nothing", _set("/scorecards/1/deals/0", {}), "/scorecards/1/deals/0"),
    (
        "a summary and a deal not played",
        _set("/scorecards/0/deals/0/not_played", {"reason": "void"}),
        "/scorecards/0/deals/0",
    ),
    (
        "a summary for five players at a table of four",
        _set("/scorecards/0/deals/0/summary/players", 5),
        "/scorecards/0/deals/0",
    ),
    (
        "a summary's points off the grid",
        _set("/scorecards/0/deals/0/summary/points", 49.25),
        "/scorecards/0/deals/0/summary/points",
    ),
    ("pousse written", _set("/scorecards/0/deals/0/marks/contract", "pousse"), "/scorecards/0/deals/0/marks/contract"),
    ("a dealer beyond the table", _set("/scorecards/0/deals/0/dealer", 4), "/scorecards/0/deals/0/dealer"),
    (
        "deals on a card not returned",
        _set("/scorecards/1/returned", False),
        "/scorecards/1/deals",
    ),
    ("a seated player who is not in players", _set("/seating/1/seats/east", "Z1"), "/seating/1/seats/east"),
    (
        "an adjustment for nobody",
        _set("/adjustments", [{"player": "Z1", "position": 1, "points": -10}]),
        "/adjustments/0/player",
    ),
    ("one table seated twice", lambda b: b["seating"].append(copy.deepcopy(b["seating"][0])), "/seating/2/table"),
    ("position 0", _set("/scorecards/0/position", 0), "/scorecards/0/position"),
    ("an unknown tie-break", _set("/tie_break", "coin"), "/tie_break"),
]


@pytest.mark.parametrize(("what", "change", "pointer"), REFUSED, ids=[r[0] for r in REFUSED])
def test_16_2_a_request_that_is_no_tournament_is_refused_where_it_is_wrong(
    client: FlaskClient, what: str, change: Any, pointer: str
) -> None:
    body = two_tables()
    change(body)
    answer = client.post(PATH, json=body)
    assert answer.status_code == 422, what
    assert pointer in [e["pointer"] for e in answer.get_json()["errors"]], answer.get_json()["errors"]


# ---- over HTTP --------------------------------------------------------------------------------------


def test_16_the_operation_answers_its_examples(client: FlaskClient) -> None:
    for name, example in STANDINGS.examples.items():
        answer = client.post(PATH, json=example.request)
        assert answer.status_code == 200 and answer.get_json() == example.answer, name
    worked = client.post(PATH, json=WORKED).get_json()
    assert [(r["player"], r["total"]) for r in worked["standings"]] == [
        ("E3", 192),
        ("W3", 136),
        ("N3", 72),
        ("S3", -400),
    ]
    assert [s["bilan"] for s in worked["tables"][0]["seats"]] == [72, 136, -400, 192]


def test_16_a_french_answer_says_its_scored_errors_in_french(client: FlaskClient) -> None:
    answer = client.post(PATH, json=ERRORS, headers={"Accept-Language": "fr"})
    assert answer.headers["Content-Language"] == "fr"
    messages = [a["message"] for a in answer.get_json()["anomalies"]]
    assert messages[1] == "Position 1, table 1\u00a0: le bilan de Est est écrit +255, mais ses marques font +265."
    assert messages[2].startswith("Position 1, table sans numéro\u00a0:")


def test_16_a_large_tournament_fits_in_one_request(client: FlaskClient) -> None:
    # 200 players, 7 positions of 3 deals: 350 cards, over the 64 KiB most operations take.
    body = random_tournament(random.Random(200), 200, 7, 3, seating=True)
    answer = client.post(PATH, json=body)
    assert answer.status_code == 200 and answer.get_json()["anomalies"] == []
    assert len(answer.get_data()) > 64 * 1024


# ---- the standings as a spreadsheet file ---------------------------------------------------------

NAMES = ["=SUM(A1:A2)", "+1", "-2", "@x", "Hélène; Dupont, « é »"]
SHOWN = ["'=SUM(A1:A2)", "'+1", "'-2", "'@x", "Hélène; Dupont, « é »"]


def _named() -> dict[str, Any]:
    body = two_tables()
    for player, name in zip(body["players"], NAMES, strict=False):
        player["name"] = name
    body["players"][0]["team"] = "=HYPERLINK(1)"
    return body


def _file(client: FlaskClient, language: str, body: dict[str, Any]) -> Any:
    answer = client.post(PATH, json=body, headers={"Accept": "text/csv", "Accept-Language": language})
    assert answer.status_code == 200
    return answer


@pytest.mark.parametrize(("language", "separator"), [("en", ","), ("fr", ";")])
def test_16_4_the_standings_as_a_spreadsheet_file(client: FlaskClient, language: str, separator: str) -> None:
    body = _named()
    answer = _file(client, language, body)
    assert answer.headers["Content-Type"] == "text/csv; charset=utf-8; header=present"
    kind, options = parse_options_header(answer.headers["Content-Disposition"])
    stem = {"en": "tournament-standings", "fr": "classement-du-tournoi"}[language]
    assert kind == "attachment" and options["filename"] == f"{stem}.csv"
    assert {"Accept", "Accept-Language"} <= {v.strip() for h in answer.headers.getlist("Vary") for v in h.split(",")}
    assert answer.get_data().startswith(BOM.encode())
    table = list(csv.reader(io.StringIO(answer.get_data().decode("utf-8-sig"), newline=""), delimiter=separator))
    header = {
        "en": ["Rank", "Number", "Name", "Team", *(f"Position {p}" for p in range(1, 6)), "Adjustments", "Total"],
        "fr": ["Rang", "Numéro", "Nom", "Équipe", *(f"Position {p}" for p in range(1, 6)), "Ajustements", "Total"],
    }[language]
    assert table[0] == header
    json_rows = client.post(PATH, json=body).get_json()["standings"]
    assert len(table) == 1 + len(json_rows)
    for line, row in zip(table[1:], json_rows, strict=True):
        assert line[0] == str(row["rank"]) and line[1] == row["player"] and line[-1] == str(row["total"])
        assert line[4] == str(row["positions"][0]["bilan"]) and line[5:9] == ["", "", "", ""]
    names = {line[1]: line[2] for line in table[1:]}
    assert [names[p["id"]] for p in body["players"][:5]] == SHOWN
    assert next(line[3] for line in table[1:] if line[1] == "N3") == "'=HYPERLINK(1)"


def test_16_4_the_standings_file_opens_in_columns_in_libreoffice(client: FlaskClient, tmp_path: Path) -> None:
    """Each language's file opened as its users' spreadsheets read it: every name a text cell
    showing its text, never a formula; the bilans and totals numbers."""
    need_spreadsheet()
    body = _named()
    rows = client.post(PATH, json=body).get_json()["standings"]
    assert any(r["total"] < 0 for r in rows)  # negative totals, to be read as numbers
    french = _file(client, "fr", body).get_data()
    raw = french.replace(b"\"'", b'"')  # the control: without the apostrophes, formulas run
    opened = open_csv({"fr": french, "raw": raw}, csv_filter((SEMICOLON,), FRENCH), tmp_path / "fr")
    opened |= open_csv({"en": _file(client, "en", body).get_data()}, csv_filter((COMMA,), ENGLISH_US), tmp_path / "en")
    for language, first in (("en", "Rank"), ("fr", "Rang")):
        table = opened[language]
        assert len(table[0]) == 11, [c.text for c in table[0]]  # in columns, not one
        assert table[0][0].text == first  # the byte-order mark read as one, not shown
        by_player = {line[1].text: line for line in table[1:]}
        for player, shown in zip(body["players"][:5], SHOWN, strict=True):
            cell = by_player[player["id"]][2]
            assert cell.kind == "string" and cell.formula is None and cell.text == shown
        for line, row in zip(table[1:], rows, strict=True):
            assert line[0].kind == "float" and int(line[0].text) == row["rank"]
            total = line[10]
            assert total.kind == "float" and total.formula is None and int(total.text) == row["total"]
    assert any(cell.formula is not None for line in opened["raw"] for cell in line)
