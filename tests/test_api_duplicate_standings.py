"""rules.md §17.3–17.9 through POST /v1/tournaments/duplicate/standings: the rulebook's topage
(p. 18) and points de match (p. 23), every refusal the core would raise caught first as a 422 at
its pointer (never a 500), each fault of a fiche ambulante reported once at its play, the
adjustments, and the spreadsheet files.
"""

from __future__ import annotations

import copy
import csv
import io
import random
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.contract.duplicate_standings import DUPLICATE_STANDINGS
from service.contract.spreadsheet import BOM
from service.rules.duplicate_movement import MovementRequest, make_movement
from service.rules.verdicts import DuplicateFault
from tests.badinputs import duplicate_body

PATH = "/v1/tournaments/duplicate/standings"
ORIENTATIONS = ("north", "west", "south", "east")
TOPAGE = DUPLICATE_STANDINGS.examples["rulebookTopage"].request
QUADRETTES = DUPLICATE_STANDINGS.examples["quadrettes"].request
TEAM = DUPLICATE_STANDINGS.examples["teamMatch"].request


def post(client: FlaskClient, body: Any, language: str = "en", **kw: Any) -> Any:
    return client.post(PATH, json=body, headers={"Accept-Language": language}, **kw)


def ok(client: FlaskClient, body: Any, language: str = "en") -> dict[str, Any]:
    r = post(client, body, language)
    assert r.status_code == 200, r.get_json()
    answer: dict[str, Any] = r.get_json()
    return answer


def seats(*ids: str) -> dict[str, str]:
    return dict(zip(ORIENTATIONS, ids, strict=True))


def two_tables() -> dict[str, Any]:
    """Étuis 1 (taker north) and 2 (taker west), each played at two tables over two positions:
    the bad-input corpus's sound request."""
    return duplicate_body()


def at(body: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    """A copy of ``body`` with ``value`` at ``pointer`` (``...`` removes it; ``-`` appends)."""
    out = copy.deepcopy(body)
    *parents, last = [int(k) if k.isdigit() else k for k in pointer.strip("/").split("/")]
    node: Any = out
    for key in parents:
        node = node[key]
    if value is ...:
        del node[last]
    elif last == "-":
        node.append(value)
    else:
        node[last] = value
    return out


# ---- the rulebook's examples ------------------------------------------------------------------------


def test_17_4_the_rulebook_topage_p18(client: FlaskClient) -> None:
    answer = ok(client, TOPAGE)
    [topage] = answer["sessions"][0]["topage"]
    lines = [(x["position"], x["table"], x["score"], x["taker"], x["defenders"]) for x in topage["lines"]]
    assert lines == [
        (1, 1, 56, 75, 25),
        (2, 5, 62, 100, 0),
        (3, 4, -56, 0, 100),
        (4, 3, -52, 25, 75),
        (5, 2, 50, 50, 50),
    ]
    assert topage["played"] == 5 and answer["faults"] == []
    assert {(r["entrant"], r["total"]) for r in answer["general"] if r["entrant"].startswith("N")} == {
        ("N1", 75),
        ("N5", 100),
        ("N4", 0),
        ("N3", 25),
        ("N2", 50),
    }


@pytest.mark.parametrize(
    ("first", "second", "pm"),
    [(82, 66, 4.0), (68, -76, 12.0), (-68, -58, -3.162)],
)
def test_17_8_the_rulebook_points_de_match_p23(client: FlaskClient, first: int, second: int, pm: float) -> None:
    body = {
        "form": "quadrettes",
        "quadrettes": {
            "oppositions": [{"first": "A", "second": "B", "deals": [{"etui": 1, "first": first, "second": second}]}]
        },
    }
    [deal] = ok(client, body)["quadrettes"]["deals"]
    assert (deal["first_pm"], deal["second_pm"]) == (pm, -pm)


def test_17_8_quadrettes_and_a_team_match(client: FlaskClient) -> None:
    rows = ok(client, QUADRETTES)["quadrettes"]["standings"]
    assert [(r["rank"], r["quadrette"], r["total"]) for r in rows] == [
        (1, "A", 12.838),
        (2, "C", 2.162),
        (3, "B", -16.0),
    ]
    match = ok(client, TEAM)["team_match"]
    assert match["quarters"] == [
        {"quarter": 1, "first": 4.0, "second": 3.162},
        {"quarter": 2, "first": 12.0, "second": 0.0},
    ]
    assert match["totals"] == [16.0, 5.162] and match["winner"] == "Lyon"
    even = at(TEAM, "/team_match/teams/1/bonus", 12.838)
    assert ok(client, even)["team_match"]["winner"] is None


# ---- percentages and rankings -----------------------------------------------------------------------


def test_17_4_rounded_and_exact_percentages_rank_by_the_exact(client: FlaskClient) -> None:
    # Three tables: grades 0, 50, 100 and thirds after a mark of 33.3 replaces one.
    body = two_tables()
    answer = ok(client, body)
    for row in answer["general"]:
        assert row["total"] == round(row["total_exact"] + 1e-9, 1)
    ranks = [r["rank"] for r in answer["general"]]
    exacts = [r["total_exact"] for r in answer["general"]]
    assert ranks == [1 + sum(e > x for e in exacts) for x in exacts]
    assert answer["alterne"] is not None and sorted(r["entrant"] for r in answer["alterne"]) == sorted(
        r["entrant"] for r in answer["general"]
    )


def test_17_9_adjustments_are_applied_and_echoed(client: FlaskClient) -> None:
    body = at(two_tables(), "/sessions/0/adjustments", {
        "annulled": [{"etui": 2, "reason": "a card missing"}],
        "marks": [{"entrant": "W2", "etui": 1, "grade": 33.3}],
        "penalties": [{"entrant": "N1", "points": 2.5}],
    })  # fmt: skip
    answer = ok(client, body)
    [_, t2] = answer["sessions"][0]["topage"]
    assert t2["annulled"] and all(x["taker"] is None for x in t2["lines"])
    pct = {p["entrant"]: p for p in answer["sessions"][0]["percentages"]}
    assert pct["W2"]["defence"] == 33.3 and pct["W2"]["defence_exact"] == 33.3
    assert pct["N1"]["global"] == 97.5 and pct["N1"]["penalties"] == 2.5
    feuille = next(f for f in answer["feuilles"] if f["entrant"] == "W2")
    assert [a["kind"] for a in feuille["adjustments"]] == ["annulled", "mark"]
    assert feuille["adjustments"][1]["pointer"] == "/sessions/0/adjustments/marks/0"


def test_17_7_sessions_add_by_coefficient(client: FlaskClient) -> None:
    one = two_tables()
    body = {"form": "individual", "sessions": [one["sessions"][0], {**one["sessions"][0], "coefficient": 1.5}]}
    answer = ok(client, body)
    assert answer["alterne"] is None
    for row in answer["general"]:
        assert row["total_exact"] == pytest.approx(row["sessions_exact"][0] * 2.5)


# ---- every refusal before the core ------------------------------------------------------------------

TRIPLETTES = {
    "form": "triplettes",
    "sessions": [{
        "etuis": [{"number": 1, "taker": "north", "dealer": "north"}],
        "plays": [
            {"position": 1, "table": 1, "etui": 1, "players": seats("A", "B", "A", "B"), "score": 56},
            {"position": 2, "table": 2, "etui": 1, "players": seats("C", "D", "C", "D"), "score": 60},
        ],
    }],
}  # fmt: skip
SOUND = two_tables()
SUMMARY = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
S0 = "/sessions/0"
REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("no session", at(SOUND, "/sessions", []), "/sessions", "length"),
    ("sessions for quadrettes", at(SOUND, "/form", "quadrettes"), "/quadrettes", "required"),
    ("quadrettes in an individual", at(SOUND, "/quadrettes", QUADRETTES["quadrettes"]), "/quadrettes", "not_for_form"),
    ("an étui listed twice", at(SOUND, f"{S0}/etuis/1/number", 1), f"{S0}/etuis/1/number", "etui_listed_twice"),
    ("a taker not an orientation", at(SOUND, f"{S0}/etuis/0/taker", "fifth"), f"{S0}/etuis/0/taker", "enum"),
    ("a play of an étui not listed", at(SOUND, f"{S0}/plays/1/etui", 9), f"{S0}/plays/1/etui", "etui_not_listed"),
    ("neither score nor summary", at(SOUND, f"{S0}/plays/0/score", ...), f"{S0}/plays/0", "figure_or_summary"),
    ("both score and summary", at(SOUND, f"{S0}/plays/0/summary", SUMMARY), f"{S0}/plays/0", "figure_or_summary"),
    ("a player at two orientations", at(SOUND, f"{S0}/plays/0/players/east", "N1"),
     f"{S0}/plays/0/players/east", "duplicate_player"),
    ("a play of three players", at(SOUND, f"{S0}/plays/0/players/east", ...), f"{S0}/plays/0/players/east",
     "required"),
    ("triplette north ≠ south", at(TRIPLETTES, f"{S0}/plays/0/players/south", "C"),
     f"{S0}/plays/0/players/south", "triplette_split"),
    ("triplette east ≠ west", at(TRIPLETTES, f"{S0}/plays/0/players/east", "C"),
     f"{S0}/plays/0/players/east", "triplette_split"),
    ("one triplette on both lines", at(at(TRIPLETTES, f"{S0}/plays/0/players/west", "A"),
                                       f"{S0}/plays/0/players/east", "A"),
     f"{S0}/plays/0/players/west", "duplicate_player"),
    ("a coefficient of 0", at(SOUND, f"{S0}/coefficient", 0), f"{S0}/coefficient", "range"),
    ("a coefficient below 0", at(SOUND, f"{S0}/coefficient", -1), f"{S0}/coefficient", "range"),
    ("a coefficient of four decimals", at(SOUND, f"{S0}/coefficient", 1.0005), f"{S0}/coefficient",
     "decimal_places"),
    ("an étui annulled not played", at(SOUND, f"{S0}/adjustments", {"annulled": [{"etui": 3}]}),
     f"{S0}/adjustments/annulled/0/etui", "adjustment_not_played"),
    ("a mark on an étui he did not play", at(SOUND, f"{S0}/adjustments",
                                             {"marks": [{"entrant": "N1", "etui": 3, "grade": 50}]}),
     f"{S0}/adjustments/marks/0/entrant", "adjustment_not_played"),
    ("a mark by a stranger", at(SOUND, f"{S0}/adjustments", {"marks": [{"entrant": "Z", "etui": 1, "grade": 50}]}),
     f"{S0}/adjustments/marks/0/entrant", "adjustment_not_played"),
    ("a mark above 100", at(SOUND, f"{S0}/adjustments", {"marks": [{"entrant": "N1", "etui": 1, "grade": 101}]}),
     f"{S0}/adjustments/marks/0/grade", "range"),
    ("a mark on an annulled étui", at(SOUND, f"{S0}/adjustments", {
        "annulled": [{"etui": 1}], "marks": [{"entrant": "N1", "etui": 1, "grade": 50}]}),
     f"{S0}/adjustments/marks/0/etui", "mark_on_annulled"),
    ("a penalty for one who played nothing", at(SOUND, f"{S0}/adjustments",
                                                {"penalties": [{"entrant": "Z", "points": 1}]}),
     f"{S0}/adjustments/penalties/0/entrant", "adjustment_not_played"),
    ("a sitting twice", at(SOUND, f"{S0}/sittings/1/table", 1), f"{S0}/sittings/1/table",
     "table_seated_twice"),
    ("a quadrette against itself", at(QUADRETTES, "/quadrettes/oppositions/0/second", "A"),
     "/quadrettes/oppositions/0/second", "same_team"),
    ("a penalty for a quadrette that played nothing", at(QUADRETTES, "/quadrettes/penalties/0/quadrette", "Z"),
     "/quadrettes/penalties/0/quadrette", "unknown_team"),
    ("a team's prise", at(TEAM, "/team_match/quarters/0/deals/0/first/contract", "prise"),
     "/team_match/quarters/0/deals/0/first/contract", "enum"),
    ("five quarters", at(TEAM, "/team_match/quarters", TEAM["team_match"]["quarters"] * 3), "/team_match/quarters",
     "length"),
    ("one team twice", at(TEAM, "/team_match/teams/1/name", "Lyon"), "/team_match/teams/1/name", "same_team"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "body", "pointer", "code"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_17_9_what_the_core_cannot_read_is_refused_at_its_pointer(
    client: FlaskClient, what: str, body: dict[str, Any], pointer: str, code: str
) -> None:
    for language in ("en", "fr"):
        r = post(client, body, language)
        assert r.status_code == 422, (what, r.status_code, r.get_json())
        found = [(e["pointer"], e["code"]) for e in r.get_json()["errors"]]
        assert (pointer, code) in found, found


def test_17_9_the_sound_requests_of_the_refusals_are_answered(client: FlaskClient) -> None:
    for body in (SOUND, TRIPLETTES, QUADRETTES, TEAM):
        ok(client, body)


# ---- the faults of the fiches ambulantes ------------------------------------------------------------

FAULTS: list[tuple[DuplicateFault, str, Any, str]] = [
    (DuplicateFault.IMPOSSIBLE_SCORE, "/sessions/0/plays/1/score", -41, "/sessions/0/plays/1"),
    (DuplicateFault.ETUI_TWICE_FOR_PLAYER, "/sessions/0/plays/-",
     {"position": 2, "table": 3, "etui": 1, "players": seats("N3", "W3", "S3", "N1"), "score": 10},
     "/sessions/0/plays/4"),
    (DuplicateFault.ETUI_TWICE_IN_POSITION, "/sessions/0/plays/3/position", 1, "/sessions/0/plays/3"),
    (DuplicateFault.ETUI_PLAYED_ONCE, "/sessions/0/plays/2/etui", 1, "/sessions/0/plays/1"),
    (DuplicateFault.ORIENTATION_CHANGED, "/sessions/0/plays/2/players", seats("W1", "N1", "S1", "E1"),
     "/sessions/0/plays/2"),
    (DuplicateFault.NOT_IN_MOVEMENT, "/sessions/0/sittings/3", ..., "/sessions/0/plays/3"),
    (DuplicateFault.PLAYERS_NOT_AS_MOVEMENT, "/sessions/0/sittings/3/players/south", "S9", "/sessions/0/plays/3"),
    (DuplicateFault.ETUI_NOT_AS_MOVEMENT, "/sessions/0/sittings/3/etuis", [2], "/sessions/0/plays/3"),
    (DuplicateFault.PLAY_MISSING, "/sessions/0/sittings/0/etuis", [1, 2], "/sessions/0/sittings/0"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "pointer", "value", "where"), FAULTS, ids=[f[0].value for f in FAULTS])
def test_17_9_each_fault_is_reported_at_its_play(
    client: FlaskClient, code: DuplicateFault, pointer: str, value: Any, where: str
) -> None:
    assert ok(client, SOUND)["faults"] == []
    body = at(SOUND, pointer, value)
    for language in ("en", "fr"):
        answer = ok(client, body, language)
        mine = [f for f in answer["faults"] if f["code"] == code.value]
        assert [f["pointer"] for f in mine] == [where], answer["faults"]
        assert mine[0]["message"] and code.value not in mine[0]["message"]


def test_17_9_every_fault_code_is_tried() -> None:
    assert {f[0] for f in FAULTS} == set(DuplicateFault)


# ---- the summary as the imposed Garde, and the answer's exactness -----------------------------------


def test_17_3_a_summary_is_scored_as_the_imposed_garde(client: FlaskClient) -> None:
    five = {"players": 5, "contract": "prise", "taker": 2, "partner": 3, "points": 49, "oudlers": 2}
    body = at(at(SOUND, "/sessions/0/plays/0/score", ...), "/sessions/0/plays/0/summary", five)
    [t1, _] = ok(client, body)["sessions"][0]["topage"]
    # A Garde at four made by 8 with two oudlers: (25 + 8) × 2 = 66, whatever the summary names.
    assert t1["lines"][0]["score"] == 66


def _model_grades(scores: list[int]) -> list[Fraction]:
    """p. 17–18: places from the bottom, ties sharing their places' grades, evenly spaced."""
    order = sorted(scores)
    steps = len(scores) - 1
    out = []
    for s in scores:
        places = [i for i, t in enumerate(order) if t == s]
        out.append(Fraction(100 * sum(places), len(places) * steps))
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scores=st.lists(st.sampled_from([-120, -56, -52, 0, 50, 56, 62, 80]), min_size=2, max_size=9))
def test_17_4_the_topage_of_any_scores(client: FlaskClient, scores: list[int]) -> None:
    plays = [
        {"position": p + 1, "table": p + 1, "etui": 1, "players": seats(f"N{p}", f"W{p}", f"S{p}", f"E{p}"), "score": s}
        for p, s in enumerate(scores)
    ]
    body = {
        "form": "individual",
        "sessions": [{"etuis": [{"number": 1, "taker": "east", "dealer": "north"}], "plays": plays}],
    }
    [topage] = ok(client, body)["sessions"][0]["topage"]
    want = dict(zip(range(len(scores)), _model_grades(scores), strict=True))
    for line in topage["lines"]:
        assert line["taker_exact"] == float(want[line["play"]])
        assert line["defenders_exact"] == float(100 - want[line["play"]])


# ---- the spreadsheet files --------------------------------------------------------------------------


def _rows(text: str, separator: str) -> list[list[str]]:
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text.removeprefix(BOM)), delimiter=separator))


@pytest.mark.parametrize(("language", "separator", "decimal"), [("en", ",", "."), ("fr", ";", ",")])
def test_17_6_the_rankings_as_spreadsheet_files(
    client: FlaskClient, language: str, separator: str, decimal: str
) -> None:
    body = at(two_tables(), "/sessions/0/adjustments", {"marks": [{"entrant": "W2", "etui": 1, "grade": 33.3}]})
    answer = ok(client, body, language)
    headers = {"Accept": "text/csv", "Accept-Language": language}
    for sheet, count in (("general", 8), ("alterne", 8), ("feuilles", 16)):
        r = client.post(PATH, json=body, headers=headers, query_string={"sheet": sheet})
        assert r.status_code == 200 and r.mimetype == "text/csv"
        assert "attachment" in r.headers["Content-Disposition"]
        rows = _rows(r.get_data(as_text=True), separator)
        assert len(rows) == count + 1
    r = client.post(PATH, json=body, headers=headers)
    rows = _rows(r.get_data(as_text=True), separator)
    assert [row[1] for row in rows[1:]] == [g["entrant"] for g in answer["general"]]
    w2 = next(row for row in rows if row[1] == "W2")
    assert w2[-1] == f"{next(g['total'] for g in answer['general'] if g['entrant'] == 'W2')}".replace(".", decimal)
    bad = client.post(PATH, json=body, headers=headers, query_string={"sheet": "route"})
    assert bad.status_code == 400


def test_17_6_a_formula_in_a_name_is_not_run(client: FlaskClient) -> None:
    body = copy.deepcopy(TOPAGE)
    body["sessions"][0]["plays"][0]["players"]["north"] = "=SUM(A1)"
    r = client.post(PATH, json=body, headers={"Accept": "text/csv"})
    assert "'=SUM(A1)" in r.get_data(as_text=True)


def test_17_8_quadrettes_and_team_match_as_files(client: FlaskClient) -> None:
    r = client.post(PATH, json=QUADRETTES, headers={"Accept": "text/csv", "Accept-Language": "fr"})
    rows = _rows(r.get_data(as_text=True), ";")
    assert rows[1] == ["1", "A", "16,000", "3,162", "0,000", "12,838"]
    r = client.post(PATH, json=TEAM, headers={"Accept": "text/csv"})
    assert _rows(r.get_data(as_text=True), ",")[1] == ["Lyon", "4.000", "12.000", "0.000", "16.000"]


FIGURES = (56, 62, 50, -52, -56, 70, -90, 106, 46, -66, 40, 40)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=st.integers(3, 6), positions=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_17_6_the_spreadsheet_files_say_what_the_json_says(
    client: FlaskClient, tables: int, positions: int, seed: int
) -> None:
    # The two forms of one answer: every row of the général and of the feuilles de route as the
    # JSON gives them, in the same order (a random evening, its figures drawn with ties).
    made = make_movement(MovementRequest(tables, min(positions, tables), 1))
    rng = random.Random(seed)
    orientations = ("north", "west", "south", "east")
    plays = [
        {
            "position": s.position,
            "table": s.table,
            "etui": e,
            "players": dict(zip(orientations, s.players, strict=True)),
        }
        | {"score": rng.choice(FIGURES)}
        for s in made.sittings
        for e in s.etuis
    ]
    labels = [{"number": e.number, "taker": e.taker, "dealer": e.dealer} for e in made.etuis]
    body = {"form": "individual", "sessions": [{"etuis": labels, "plays": plays}]}
    answer = ok(client, body)
    headers = {"Accept": "text/csv"}
    general = _rows(client.post(PATH, json=body, headers=headers).get_data(as_text=True), ",")[1:]
    assert [(row[0], row[1], row[-1]) for row in general] == [
        ("" if g["rank"] is None else str(g["rank"]), g["entrant"], "" if g["total"] is None else f"{g['total']:.1f}")
        for g in answer["general"]
    ]
    feuilles = _rows(
        client.post(PATH, json=body, headers=headers, query_string={"sheet": "feuilles"}).get_data(as_text=True), ","
    )[1:]
    lines = [(f["entrant"], line) for f in answer["feuilles"] for line in f["lines"]]
    assert [(row[0], row[2], row[7], row[8]) for row in feuilles] == [
        (entrant, str(line["etui"]), str(line["score"]), "" if line["grade"] is None else f"{line['grade']:.1f}")
        for entrant, line in lines
    ]
