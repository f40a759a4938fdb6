"""§15.5: a change of players starts a new sheet, its totals from zero.

The French Tarot rules page resets the points counter when players leave or join; the FFT writes one sheet per
table. A request is one sheet: a deal for another number of players is refused (422, located at
the deal), saying that a new sheet starts, and the next sheet's totals start from zero.
"""

from __future__ import annotations

from flask.testing import FlaskClient

PATH = "/v1/games/score"
FOUR = {"players": 4, "contract": "garde", "taker": 0, "points": 51, "oudlers": 2}
FIVE = {"players": 5, "contract": "garde", "taker": 0, "partner": 1, "points": 51, "oudlers": 2}


def test_a_deal_for_another_table_is_refused_and_says_a_new_sheet_starts(client: FlaskClient) -> None:
    body = {"players": 4, "deals": [{"summary": FOUR}, {"summary": FIVE}]}
    for language, words in (("en", "a change of players starts a new sheet"), ("fr", "ouvre une nouvelle feuille")):
        r = client.post(PATH, json=body, headers={"Accept-Language": language})
        assert r.status_code == 422
        [error] = r.get_json()["errors"]
        assert (error["pointer"], error["code"]) == ("/deals/1", "table_size")
        assert words in error["message"]


def test_the_new_table_s_sheet_starts_from_zero(client: FlaskClient) -> None:
    # The reset holds because each request is its own sheet and the service keeps nothing between
    # two: the second table's first totals are its first marks, whatever the first table made.
    first = client.post(PATH, json={"players": 4, "deals": [{"summary": FOUR}] * 2}).get_json()
    second = client.post(PATH, json={"players": 5, "deals": [{"summary": FIVE}]}).get_json()
    assert first["deals"][-1]["totals"] == [420, -140, -140, -140]
    assert second["deals"][0]["totals"] == second["deals"][0]["scores"] == [140, 70, -70, -70, -70]
