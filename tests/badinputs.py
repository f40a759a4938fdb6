"""The bad-input corpus: malformed requests for every operation, each with its expected status.

Whatever a client in any language can get wrong, from the bytes on the wire to a field's
value. Every answer must be a 4xx ``application/problem+json`` document whose ``errors``
locate the fault with a JSON pointer (``""``: the request as a whole). Replayed in process
(tests/test_bad_inputs.py) and against gunicorn over raw sockets, where the framing cases
(chunked bodies, lying Content-Length, broken HTTP) mean something.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import MAX_BODY_BYTES
from service.contract.duplicate_movement import MOVEMENT_MAX_BYTES
from service.contract.duplicate_standings import DUPLICATE_MAX_BYTES
from service.contract.seating import SEATING_MAX_BYTES
from service.contract.standings import STANDINGS_MAX_BYTES
from service.rules.cards import CARD_CODES
from tests.conftest import deal_request, golden

ROOT = Path(__file__).parent.parent
JSON = "application/json"


@dataclass(frozen=True)
class BadRequest:
    name: str
    path: str
    body: bytes
    status: int
    content_type: str | None = JSON
    chunked: bool = False
    """Sent with ``Transfer-Encoding: chunked`` and no Content-Length."""
    pointer: str | None = None
    """A pointer the answer's errors must contain (None: only that there is one)."""
    method: str = "POST"

    @property
    def id(self) -> str:
        return f"{self.path.removeprefix('/v1/').replace('/', '-')}:{self.name}"

    def send(self, client: FlaskClient, headers: dict[str, str] | None = None) -> TestResponse:
        """This request through the Flask test client, with ``headers`` added."""
        headers = dict(headers or {})
        if self.content_type is not None:
            headers["Content-Type"] = self.content_type
        if self.chunked:
            # What a server that decodes a chunked body hands the app: a stream of unknown length.
            return client.open(
                self.path,
                method=self.method,
                input_stream=io.BytesIO(self.body),
                headers=headers,
                environ_overrides={"wsgi.input_terminated": True},
            )
        return client.open(self.path, method=self.method, data=self.body, headers=headers)


# A valid request of every operation, the base every case breaks in one way.
VALID: dict[str, dict[str, Any]] = {
    "/v1/tricks/legal-cards": {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]},
    "/v1/tricks/winner": {"players": 4, "leader": 1, "cards": ["KS", "1T", "QS"]},
    "/v1/deals/score": {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2},
    "/v1/deals/deal": {"players": 4, "dealer": 1, "deck": list(CARD_CODES)},
}


@cache
def valid_bodies() -> dict[str, dict[str, Any]]:
    four = next(d for d in golden("deals.jsonl") if d["players"] == 4)
    game = {
        "players": 4,
        "draw": ["10H", "10C", "5T", "KS"],
        "deals": [
            {"summary": VALID["/v1/deals/score"]},
            {"not_played": {"reason": "redeal"}},
            {"record": deal_request(four)},
        ],
    }
    seats = {"north": "N1", "west": "W1", "south": "S1", "east": "E1"}
    tournament = {
        "players": [{"id": p, "name": f"Player {p}"} for p in seats.values()],
        "plan": {"positions": 5, "deals": 2},
        "scorecards": [
            {
                "position": 1,
                "table": 1,
                "seats": seats,
                "deals": [
                    {"summary": {k: v for k, v in VALID["/v1/deals/score"].items() if k != "players"}},
                    {"marks": {"row": {"north": 42, "west": 42, "south": -126, "east": 42}, "taker": "south"}},
                ],
            }
        ],
    }
    return {
        **VALID,
        "/v1/deals/evaluate": deal_request(four),
        "/v1/games/score": game,
        "/v1/tournaments/standings": tournament,
        SEATING: seating_body(),
        MOVEMENT: movement_body(),
        DUPLICATE: duplicate_body(),
    }


SEATING = "/v1/tournaments/seating"
MOVEMENT = "/v1/tournaments/duplicate/movement"
DUPLICATE = "/v1/tournaments/duplicate/standings"
BODY_LIMITS = {
    "/v1/tournaments/standings": STANDINGS_MAX_BYTES,
    SEATING: SEATING_MAX_BYTES,
    MOVEMENT: MOVEMENT_MAX_BYTES,
    DUPLICATE: DUPLICATE_MAX_BYTES,
}
"""The operations that take a larger body than the application's limit, and theirs."""

SIXTEEN = [f"{seat}{table}" for table in range(1, 5) for seat in "NSEW"]


def seating_body() -> dict[str, Any]:
    """A tournament of 16 players, its first position played (each table of one orientation)."""
    played = [
        {"position": 1, "table": t, "seats": {o: f"{o[0].upper()}{t}" for o in ("north", "west", "south", "east")}}
        for t in range(1, 5)
    ]
    return {
        "players": SIXTEEN,
        "positions": 5,
        "played": played,
        "forbidden": [["N1", "N2"]],
        "fixed": [{"player": "E3", "table": 2}],
        "seed": "club-night",
    }


def movement_body() -> dict[str, Any]:
    """A duplicate tournament of 5 tables over 5 positions, 2 étuis a table, its players named
    and its étuis dealt from a seed."""
    players = {o: [f"{o[0].upper()}{t}" for t in range(1, 6)] for o in ("north", "west", "south", "east")}
    return {"tables": 5, "positions": 5, "etuis_per_position": 2, "players": players, "seed": "club-duplicate"}


def duplicate_body() -> dict[str, Any]:
    """A duplicate session: étuis 1 and 2, each played at two tables over two positions."""
    a = {"north": "N1", "west": "W1", "south": "S1", "east": "E1"}
    b = {"north": "N2", "west": "W2", "south": "S2", "east": "E2"}
    where = [(1, 1, 1, a), (1, 2, 2, b), (2, 1, 2, a), (2, 2, 1, b)]
    return {
        "form": "individual",
        "sessions": [
            {
                "etuis": [
                    {"number": 1, "taker": "north", "dealer": "north"},
                    {"number": 2, "taker": "west", "dealer": "west"},
                ],
                "plays": [
                    {"position": p, "table": t, "etui": e, "players": dict(at), "score": score}
                    for (p, t, e, at), score in zip(where, [56, -40, 62, -52], strict=True)
                ],
                "sittings": [{"position": p, "table": t, "players": dict(at), "etuis": [e]} for p, t, e, at in where],
            }
        ],
    }


@cache
def required_fields() -> dict[str, list[str]]:
    """Required top-level fields of each operation, as the committed spec states them."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    out = {}
    for path in valid_bodies():
        ref = spec["paths"][path]["post"]["requestBody"]["content"][JSON]["schema"]["$ref"]
        out[path] = schemas[ref.rsplit("/", 1)[-1]].get("required", [])
    return out


def encode(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def padded(obj: dict[str, Any], size: int) -> bytes:
    """``obj`` as JSON, padded with insignificant whitespace to exactly ``size`` bytes."""
    raw = encode(obj)
    return raw[:-1] + b" " * (size - len(raw)) + b"}"


def _list_field(path: str) -> str:
    return {
        "/v1/tricks/legal-cards": "hand",
        "/v1/tricks/winner": "cards",
        "/v1/deals/deal": "deck",
        "/v1/deals/evaluate": "plays",
        "/v1/games/score": "deals",
        "/v1/tournaments/standings": "scorecards",
    }.get(path, "poignees")


def _seat_field(path: str) -> str:
    # ("players": no seat at the request's top; a tournament's cards' seats are tested below.)
    return {
        "/v1/tricks/winner": "leader",
        "/v1/tricks/legal-cards": "players",
        "/v1/deals/deal": "dealer",
        "/v1/tournaments/standings": "players",
    }.get(path, "taker")


def cases_for(path: str) -> list[BadRequest]:
    base = valid_bodies()[path]
    raw = encode(base)
    c: list[BadRequest] = []

    def add(name: str, body: bytes, status: int, **kw: Any) -> None:
        c.append(BadRequest(name, path, body, status, **kw))

    # Not JSON, or not the JSON asked for.
    add("invalid_json_unclosed", b'{"players": 4,', 400, pointer="")
    add("invalid_json_bare_keys", b"{players: 4}", 400, pointer="")
    add("invalid_json_single_quotes", b"{'players': 4}", 400, pointer="")
    add("invalid_json_trailing_garbage", raw + b" x", 400, pointer="")
    add("invalid_json_trailing_comma", raw[:-1] + b",}", 400, pointer="")
    add("truncated_half", raw[: len(raw) // 2], 400, pointer="")
    add("truncated_last_byte", raw[:-1], 400, pointer="")
    add("empty_body", b"", 400, pointer="")
    add("whitespace_body", b" \r\n\t ", 400, pointer="")
    add("not_an_object_array", b"[]", 422, pointer="")
    add("not_an_object_string", b'"players"', 422, pointer="")
    add("not_an_object_number", b"42", 422, pointer="")
    add("not_an_object_null", b"null", 422, pointer="")
    add("not_an_object_true", b"true", 422, pointer="")
    add("array_of_the_request", b"[" + raw + b"]", 422, pointer="")
    for depth in (1_000, 10_000):
        add(f"nested_arrays_{depth}", b"[" * depth + b"]" * depth, 400, pointer="")
        add(f"nested_objects_{depth}", b'{"a":' * depth + b"1" + b"}" * depth, 400, pointer="")
        add(f"nested_in_field_{depth}", b'{"players":' + b"[" * depth + b"]" * depth + b"}", 400, pointer="")
    limit = BODY_LIMITS.get(path, MAX_BODY_BYTES)
    # Too deep, and too large where the operation's limit is under 200 KB.
    add("nested_arrays_100000", b"[" * 100_000 + b"]" * 100_000, 413 if limit < 200_000 else 400, pointer="")
    add("nested_unclosed_100000", b"[" * 100_000, 413 if limit < 100_000 else 400, pointer="")
    add("nan_literal", raw[:-1] + b',"x":NaN}', 400, pointer="")
    add("infinity_literal", b'{"players":Infinity}', 400, pointer="")
    add("minus_infinity_literal", b'{"players":-Infinity}', 400, pointer="")
    add("number_overflowing_to_infinity", b'{"players":1e400}', 400, pointer="")
    add("integer_of_5000_digits", b'{"players":' + b"9" * 5000 + b"}", 400, pointer="")
    add("duplicate_keys", b'{"players":4,"players":3}', 400, pointer="/players")
    add("invalid_utf8", raw[:-1] + b',"x":"\xff\xfe"}', 400, pointer="")
    add("utf8_bom", b"\xef\xbb\xbf" + raw, 400, pointer="")
    add("utf16_body", json.dumps(base).encode("utf-16"), 400, pointer="")
    add("lone_surrogate_escape", raw[:-1] + b',"x":"\\ud800"}', 422)

    # Media types.
    add("content_type_text_plain", raw, 415, content_type="text/plain", pointer="")
    add("content_type_form", raw, 415, content_type="application/x-www-form-urlencoded", pointer="")
    add("content_type_multipart", raw, 415, content_type="multipart/form-data; boundary=x", pointer="")
    add("content_type_missing", raw, 415, content_type=None, pointer="")
    add("content_type_garbage", raw, 415, content_type="not a media type", pointer="")

    # Sizes, with and without Content-Length.
    add("just_under_the_limit", padded(base, limit), 200)
    add("just_over_the_limit", padded(base, limit + 1), 413, pointer="")
    add("just_under_the_limit_chunked", padded(base, limit), 200, chunked=True)
    add("just_over_the_limit_chunked", padded(base, limit + 1), 413, chunked=True, pointer="")
    far = b"[" + b"0," * max(200_000, limit) + b"0]"
    add("far_over_the_limit", far, 413, pointer="")
    add("far_over_the_limit_chunked", far, 413, chunked=True, pointer="")
    add("small_chunked_invalid", raw[:-2], 400, chunked=True, pointer="")

    # Types and values.
    add("players_huge_integer", encode({**base, "players": 10**30}), 422, pointer="/players")
    add("players_float", encode({**base, "players": 4.0}), 422, pointer="/players")
    add("players_string", encode({**base, "players": "4"}), 422, pointer="/players")
    add("players_boolean", encode({**base, "players": True}), 422, pointer="/players")
    if path != MOVEMENT:  # its players are optional: null is their default
        add("players_null", encode({**base, "players": None}), 422, pointer="/players")
    add("players_negative", encode({**base, "players": -3}), 422, pointer="/players")
    add("players_out_of_range", encode({**base, "players": 6}), 422, pointer="/players")
    add("unknown_field", encode({**base, "extra": 1}), 422, pointer="/extra")
    if path not in (
        "/v1/tricks/winner",
        "/v1/games/score",
        "/v1/tournaments/standings",
        SEATING,
        MOVEMENT,
        DUPLICATE,
    ):  # no rules, or each deal's own
        add("rules_not_an_object", encode({**base, "rules": []}), 422, pointer="/rules")
        add("rules_unknown_flag", encode({**base, "rules": {"no_such_flag": True}}), 422, pointer="/rules/no_such_flag")
        add("rules_flag_string", encode({**base, "rules": {"pousse_alias": "yes"}}), 422, pointer="/rules/pousse_alias")

    seat = _seat_field(path)
    if seat != "players":
        add("seat_out_of_range", encode({**base, seat: 7}), 422, pointer=f"/{seat}")
        add("seat_negative", encode({**base, seat: -1}), 422, pointer=f"/{seat}")
        add("seat_beyond_the_table", encode({**base, seat: 4}), 422, pointer=f"/{seat}")

    field = _list_field(path)
    if field != "poignees":
        add("string_instead_of_list", encode({**base, field: "KS"}), 422, pointer=f"/{field}")
        add("object_instead_of_list", encode({**base, field: {"0": "KS"}}), 422, pointer=f"/{field}")
        add("list_of_10000_cards", encode({**base, field: ["KS"] * 10_000}), 422, pointer=f"/{field}")
        add("lower_case_card", encode({**base, field: ["ks", *base[field][1:]]}), 422, pointer=f"/{field}/0")
        add("unknown_card", encode({**base, field: ["ZZ", *base[field][1:]]}), 422, pointer=f"/{field}/0")
        add("card_as_integer", encode({**base, field: [13, *base[field][1:]]}), 422, pointer=f"/{field}/0")
        add("card_with_spaces", encode({**base, field: [" KS", *base[field][1:]]}), 422, pointer=f"/{field}/0")
        add("card_null", encode({**base, field: [None, *base[field][1:]]}), 422, pointer=f"/{field}/0")
        surrogate = encode({**base, field: ["@@", *base[field][1:]]}).replace(b'"@@"', b'"\\ud800"')
        add("card_lone_surrogate", surrogate, 422, pointer=f"/{field}/0")
        add("card_trump_22", encode({**base, field: ["22T", *base[field][1:]]}), 422, pointer=f"/{field}/0")
        add("card_nested_list", encode({**base, field: [["KS"], *base[field][1:]]}), 422, pointer=f"/{field}/0")
    else:
        add("string_instead_of_list", encode({**base, field: "KS"}), 422, pointer=f"/{field}")
        add("points_string", encode({**base, "points": "49"}), 422, pointer="/points")
        add("points_over_91", encode({**base, "points": 92}), 422, pointer="/points")
        add("points_off_grid", encode({**base, "points": 49.25}), 422, pointer="/points")
        add("oudlers_4", encode({**base, "oudlers": 4}), 422, pointer="/oudlers")
        add("contract_unknown", encode({**base, "contract": "grande"}), 422, pointer="/contract")
        add("contract_upper_case", encode({**base, "contract": "GARDE"}), 422, pointer="/contract")

    if path == "/v1/deals/evaluate":
        # When a poignée was shown: a count of the deal's cards played by then, 0 to 78.
        shown = {"seat": 0, "cards": ["21T", "20T", "19T", "18T", "17T", "16T", "15T", "14T", "13T", "12T"]}
        for name, at in (("negative", -1), ("over_78", 79), ("string", "5"), ("float", 5.5), ("boolean", True)):
            body = encode({**base, "poignees": [{**shown, "shown_at": at}]})
            add(f"poignee_shown_at_{name}", body, 422, pointer="/poignees/0/shown_at")

    if path == "/v1/deals/deal":
        # The deal of the cards (§2.1, §2.2): a deck or a seed, and where the dog goes.
        seedless = {k: v for k, v in base.items() if k != "deck"}
        add("deal_neither_deck_nor_seed", encode(seedless), 422, pointer="/seed")
        add("deal_deck_and_seed", encode({**base, "seed": "s"}), 422, pointer="/seed")
        add("deal_seed_empty", encode({**seedless, "seed": ""}), 422, pointer="/seed")
        add("deal_seed_too_long", encode({**seedless, "seed": "s" * 257}), 422, pointer="/seed")
        add("deal_seed_integer", encode({**seedless, "seed": 7}), 422, pointer="/seed")
        surrogate = encode({**seedless, "seed": "@@"}).replace(b'"@@"', b'"\\ud800"')
        add("deal_seed_lone_surrogate", surrogate, 422, pointer="/seed")
        add("deal_card_twice", encode({**base, "deck": [*base["deck"][:-1], "KS"]}), 422, pointer="/deck/77")
        add("deal_packet_2", encode({**base, "packet": 2}), 422, pointer="/packet")
        add("deal_packet_4_at_four", encode({**base, "packet": 4}), 422, pointer="/packet")
        dog = [9, 19, 32, 42, 55, 65]
        add("deal_dog_first_card", encode({**base, "dog_positions": [0, *dog[1:]]}), 422, pointer="/dog_positions/0")
        add("deal_dog_last_card", encode({**base, "dog_positions": [*dog[:-1], 77]}), 422, pointer="/dog_positions/5")
        add("deal_dog_beyond", encode({**base, "dog_positions": [*dog[:-1], 78]}), 422, pointer="/dog_positions/5")
        add("deal_dog_count", encode({**base, "dog_positions": dog[:3]}), 422, pointer="/dog_positions")
        add("deal_dog_in_a_packet", encode({**base, "dog_positions": [10, *dog[1:]]}), 422, pointer="/dog_positions/0")
        add("deal_dog_twice", encode({**base, "dog_positions": [*dog[:-1], 9]}), 422, pointer="/dog_positions/5")

    if path == "/v1/games/score":
        # A game's sheet: each entry loaded for the game's table, each fault located in it.
        deals = base["deals"]
        five = {**VALID["/v1/deals/score"], "players": 5, "partner": 1}
        add(
            "game_entry_for_five_players",
            encode({**base, "deals": [deals[0], {"summary": five}]}),
            422,
            pointer="/deals/1",
        )
        bad_points = {**deals[0]["summary"], "points": 49.25}
        add(
            "game_summary_points",
            encode({**base, "deals": [{"summary": bad_points}]}),
            422,
            pointer="/deals/0/summary/points",
        )
        both = {**deals[0], "not_played": {"reason": "void"}}
        add("game_entry_two_kinds", encode({**base, "deals": [both]}), 422, pointer="/deals/0")
        add("game_entry_empty", encode({**base, "deals": [{}]}), 422, pointer="/deals/0")
        add("game_entry_not_an_object", encode({**base, "deals": [[]]}), 422, pointer="/deals/0")
        add("game_summary_not_an_object", encode({**base, "deals": [{"summary": []}]}), 422, pointer="/deals/0/summary")
        add(
            "game_not_played_reason",
            encode({**base, "deals": [{"not_played": {"reason": "lost"}}]}),
            422,
            pointer="/deals/0/not_played/reason",
        )
        add("game_draw_three_cards", encode({**base, "draw": ["10H", "10C", "5T"]}), 422, pointer="/draw")
        add("game_draw_same_card_twice", encode({**base, "draw": ["10H", "10H", "5T", "KS"]}), 422, pointer="/draw/1")
        add("game_names_count", encode({**base, "names": ["N", "E"]}), 422, pointer="/names")
        add(
            "game_dealer_beyond_the_table",
            encode({**base, "deals": [{**deals[0], "dealer": 4}]}),
            422,
            pointer="/deals/0/dealer",
        )
        add("game_claims_net_length", encode({**base, "claims": {"net": [0, 0]}}), 422, pointer="/claims/net")

    if path == "/v1/tournaments/standings":
        # A tournament: its players, each card's seats, deals, marks and bilans, the seating.
        card = base["scorecards"][0]
        entry, written = card["deals"]

        def with_card(**changes: Any) -> bytes:
            return encode({**base, "scorecards": [{**card, **changes}]})

        add("tournament_players_empty", encode({**base, "players": []}), 422, pointer="/players")
        twice = [*base["players"], {"id": "N1", "name": "Again"}]
        add("tournament_player_twice", encode({**base, "players": twice}), 422, pointer="/players/4/id")
        add("tournament_player_id_empty", encode({**base, "players": [{"id": "", "name": "x"}]}), 422,
            pointer="/players/0/id")  # fmt: skip
        add(
            "tournament_table_of_two",
            with_card(seats={"north": "N1", "south": "S1"}),
            422,
            pointer="/scorecards/0/seats",
        )
        fifth = {**card["seats"], "fifth": "X"}
        del fifth["east"]
        add("tournament_fifth_at_four", with_card(seats=fifth), 422, pointer="/scorecards/0/seats")
        add("tournament_seat_unknown", with_card(seats={**card["seats"], "centre": "X"}), 422,
            pointer="/scorecards/0/seats/centre")  # fmt: skip
        add("tournament_position_zero", with_card(position=0), 422, pointer="/scorecards/0/position")
        add("tournament_table_string", with_card(table="3"), 422, pointer="/scorecards/0/table")
        row = {**written["marks"]["row"], "fifth": 0}
        add("tournament_mark_at_no_seat", with_card(deals=[entry, {"marks": {"row": row}}]), 422,
            pointer="/scorecards/0/deals/1/marks/row/fifth")  # fmt: skip
        add("tournament_mark_float", with_card(deals=[{"marks": {"row": {**row, "fifth": 1.5}}}]), 422,
            pointer="/scorecards/0/deals/0/marks/row/fifth")  # fmt: skip
        add("tournament_deal_empty", with_card(deals=[{}]), 422, pointer="/scorecards/0/deals/0")
        five = {"summary": {**entry["summary"], "players": 5}}
        add("tournament_summary_for_five", with_card(deals=[five]), 422, pointer="/scorecards/0/deals/0")
        add("tournament_not_returned_with_deals", with_card(returned=False), 422, pointer="/scorecards/0/deals")
        add("tournament_deals_100", with_card(deals=[entry] * 100), 422, pointer="/scorecards/0/deals")
        seating = [{"position": 1, "table": 1, "seats": {**card["seats"], "east": "Z9"}}]
        add("tournament_seated_stranger", encode({**base, "seating": seating}), 422, pointer="/seating/0/seats/east")
        adjustment = [{"player": "N1", "position": 1, "points": "ten"}]
        add("tournament_adjustment_points", encode({**base, "adjustments": adjustment}), 422,
            pointer="/adjustments/0/points")  # fmt: skip
        add("tournament_plan_zero", encode({**base, "plan": {"positions": 0, "deals": 4}}), 422,
            pointer="/plan/positions")  # fmt: skip
        add("tournament_tie_break", encode({**base, "tie_break": "coin"}), 422, pointer="/tie_break")
    if path == SEATING:
        c += _seating_cases(base)
    if path == MOVEMENT:
        c += _movement_cases(base)
    if path == DUPLICATE:
        c += _duplicate_cases(base)

    for name in required_fields()[path]:
        add(f"missing_{name}", encode({k: v for k, v in base.items() if k != name}), 422, pointer=f"/{name}")
    return c


def _seating_cases(base: dict[str, Any]) -> list[BadRequest]:
    """A tournament's seating (rules.md §16.5): each field's own faults, and the rules across them."""
    table = base["played"][0]
    seats = table["seats"]
    second = [{**t, "position": 2} for t in base["played"]]
    cases = {
        "players_one_string": ({**base, "players": "N1"}, "/players"),
        "player_twice": ({**base, "players": [*SIXTEEN, "N1"]}, "/players/16"),
        "player_empty_id": ({**base, "players": ["", *SIXTEEN[1:]]}, "/players/0"),
        "player_id_too_long": ({**base, "players": ["x" * 41, *SIXTEEN[1:]]}, "/players/0"),
        "player_id_integer": ({**base, "players": [1, *SIXTEEN[1:]]}, "/players/0"),
        "five_players_without_tables_of_five": (
            {**base, "players": SIXTEEN[:5], "played": [], "fixed": []},
            "/players",
        ),
        "positions_zero": ({**base, "positions": 0}, "/positions"),
        "positions_sixteen": ({**base, "positions": 16}, "/positions"),
        "played_beyond_positions": ({**base, "positions": 1, "played": base["played"] + second}, "/played/4/position"),
        "played_with_a_gap": ({**base, "played": [{**t, "position": 3} for t in base["played"]]}, "/played"),
        "every_position_played": ({**base, "positions": 1}, "/seat"),
        "seat_unknown": ({**base, "seat": "all"}, "/seat"),
        "seed_missing_to_seat": ({k: v for k, v in base.items() if k != "seed"}, "/seed"),
        "seed_empty": ({**base, "seed": ""}, "/seed"),
        "table_not_an_object": ({**base, "played": [[table]]}, "/played/0"),
        "table_seats_a_list": ({**base, "played": [{**table, "seats": list(seats.values())}]}, "/played/0/seats"),
        "position_zero": ({**base, "played": [{**table, "position": 0}]}, "/played/0/position"),
        "position_missing": ({**base, "played": [{"table": 1, "seats": seats}]}, "/played/0/position"),
        "table_zero": ({**base, "played": [{**table, "table": 0}]}, "/played/0/table"),
        "table_two_seats": (
            {**base, "played": [{**table, "seats": {"north": "N1", "south": "S1"}}]},
            "/played/0/seats",
        ),
        "table_fifth_without_west": (
            {
                **base,
                "played": [{**table, "seats": {**{k: v for k, v in seats.items() if k != "west"}, "fifth": "W1"}}],
            },
            "/played/0/seats",
        ),
        "table_no_seats": ({**base, "played": [{**table, "seats": {}}]}, "/played/0/seats"),
        "seat_unknown_orientation": (
            {**base, "played": [{**table, "seats": {**seats, "centre": "N2"}}]},
            "/played/0/seats/centre",
        ),
        "seat_null": ({**base, "played": [{**table, "seats": {**seats, "east": None}}]}, "/played/0/seats/east"),
        "table_unknown_field": ({**base, "played": [{**table, "orientation": "N"}]}, "/played/0/orientation"),
        "forbidden_three_players": ({**base, "forbidden": [["N1", "N2", "N3"]]}, "/forbidden/0"),
        "forbidden_same_player": ({**base, "forbidden": [["N1", "N1"]]}, "/forbidden/0"),
        "fixed_not_a_player": ({**base, "fixed": [{"player": "Z9", "table": 1}]}, "/fixed/0/player"),
        "fixed_twice": (
            {**base, "fixed": [{"player": "E3", "table": 2}, {"player": "E3", "table": 3}]},
            "/fixed/1/player",
        ),
        "fixed_beyond_the_tables": ({**base, "fixed": [{"player": "E3", "table": 5}]}, "/fixed/0/table"),
        "tables_of_five_string": ({**base, "tables_of_five": "yes"}, "/tables_of_five"),
    }
    out = [BadRequest(f"seating_{name}", SEATING, encode(body), 422, pointer=at) for name, (body, at) in cases.items()]
    surrogate = encode({**base, "players": ["@@", *SIXTEEN[1:]]}).replace(b'"@@"', b'"\\ud800"')
    out.append(BadRequest("seating_player_lone_surrogate", SEATING, surrogate, 422, pointer="/players/0"))
    return out


def _movement_cases(base: dict[str, Any]) -> list[BadRequest]:
    """A duplicate tournament's movement (rules.md §17.1–17.2): each field's own faults, and the
    rules across them."""
    players = base["players"]
    sitting = {"position": 1, "table": 1, "players": {o: line[0] for o, line in players.items()}, "etuis": [1, 2]}
    check = {"tables": 5, "sittings": [sitting]}
    cases = {
        "tables_two": ({**base, "tables": 2}, "/tables"),
        "tables_forty_one": ({**base, "tables": 41}, "/tables"),
        "tables_string": ({**base, "tables": "5"}, "/tables"),
        "positions_zero": ({**base, "positions": 0}, "/positions"),
        "positions_beyond_tables": ({**base, "positions": 6}, "/positions"),
        "etuis_zero": ({**base, "etuis_per_position": 0}, "/etuis_per_position"),
        "etuis_thirty_one": ({**base, "etuis_per_position": 31}, "/etuis_per_position"),
        "players_a_list": ({**base, "players": [*players["north"]]}, "/players"),
        "players_line_short": ({**base, "players": {**players, "west": players["west"][:4]}}, "/players/west"),
        "players_line_missing": (
            {**base, "players": {k: v for k, v in players.items() if k != "east"}},
            "/players/east",
        ),
        "players_fifth_line": ({**base, "players": {**players, "fifth": ["F1"]}}, "/players/fifth"),
        "player_twice_in_a_line": (
            {**base, "players": {**players, "north": ["N1", "N1", "N3", "N4", "N5"]}},
            "/players/north/1",
        ),
        "player_in_two_lines": (
            {**base, "players": {**players, "south": ["S1", "S2", "N3", "S4", "S5"]}},
            "/players/south/2",
        ),
        "player_empty_id": ({**base, "players": {**players, "north": ["", *players["north"][1:]]}}, "/players/north/0"),
        "player_id_too_long": (
            {**base, "players": {**players, "north": ["x" * 41, *players["north"][1:]]}},
            "/players/north/0",
        ),
        "seed_empty": ({**base, "seed": ""}, "/seed"),
        "seed_too_long": ({**base, "seed": "x" * 257}, "/seed"),
        "seed_integer": ({**base, "seed": 7}, "/seed"),
        "sittings_empty": ({**check, "sittings": []}, "/sittings"),
        "sitting_not_an_object": ({**check, "sittings": [[sitting]]}, "/sittings/0"),
        "sitting_position_zero": ({**check, "sittings": [{**sitting, "position": 0}]}, "/sittings/0/position"),
        "sitting_table_missing": (
            {**check, "sittings": [{k: v for k, v in sitting.items() if k != "table"}]},
            "/sittings/0/table",
        ),
        "sitting_players_a_list": (
            {**check, "sittings": [{**sitting, "players": list(sitting["players"].values())}]},
            "/sittings/0/players",
        ),
        "sitting_fifth_player": (
            {**check, "sittings": [{**sitting, "players": {**sitting["players"], "fifth": "F1"}}]},
            "/sittings/0/players/fifth",
        ),
        "sitting_etui_zero": ({**check, "sittings": [{**sitting, "etuis": [0]}]}, "/sittings/0/etuis/0"),
        "sitting_etuis_thirty_one": (
            {**check, "sittings": [{**sitting, "etuis": list(range(1, 32))}]},
            "/sittings/0/etuis",
        ),
        "label_taker_unknown": (
            {**check, "etuis": [{"number": 1, "taker": "nord", "dealer": "north"}]},
            "/etuis/0/taker",
        ),
        "label_number_missing": ({**check, "etuis": [{"taker": "north", "dealer": "north"}]}, "/etuis/0/number"),
    }
    return [
        BadRequest(f"movement_{name}", MOVEMENT, encode(body), 422, pointer=at) for name, (body, at) in cases.items()
    ]


def _duplicate_cases(base: dict[str, Any]) -> list[BadRequest]:
    """A duplicate tournament (rules.md §17.3–17.9): each field's own faults, and every refusal the
    core would otherwise raise, at its pointer."""
    session = base["sessions"][0]
    play = session["plays"][0]

    def with_session(**changes: Any) -> dict[str, Any]:
        return {**base, "sessions": [{**session, **changes}]}

    def with_play(**changes: Any) -> dict[str, Any]:
        return with_session(plays=[{**play, **changes}, *session["plays"][1:]])

    summary = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
    no_score = {k: v for k, v in play.items() if k != "score"}
    cases = {
        "form_unknown": ({**base, "form": "pairs"}, "/form"),
        "form_missing_sessions": ({**base, "form": "quadrettes"}, "/quadrettes"),
        "sessions_empty": ({**base, "sessions": []}, "/sessions"),
        "sessions_null_for_its_form": ({**base, "sessions": None}, "/sessions"),
        "etui_listed_twice": (with_session(etuis=[session["etuis"][0]] * 2), "/sessions/0/etuis/1/number"),
        "etui_taker_fifth": (
            with_session(etuis=[{**session["etuis"][0], "taker": "fifth"}, session["etuis"][1]]),
            "/sessions/0/etuis/0/taker",
        ),
        "etui_number_zero": (with_session(etuis=[{**session["etuis"][0], "number": 0}]), "/sessions/0/etuis/0/number"),
        "play_of_an_etui_not_listed": (with_play(etui=9), "/sessions/0/plays/0/etui"),
        "play_neither_score_nor_summary": (with_session(plays=[no_score]), "/sessions/0/plays/0"),
        "play_score_and_summary": (with_play(summary=summary), "/sessions/0/plays/0"),
        "play_score_float": (with_play(score=56.0), "/sessions/0/plays/0/score"),
        "play_summary_off_grid": (
            with_session(plays=[{**no_score, "summary": {**summary, "points": 49.25}}]),
            "/sessions/0/plays/0/summary/points",
        ),
        "play_player_twice": (with_play(players={**play["players"], "east": "N1"}), "/sessions/0/plays/0/players/east"),
        "play_three_players": (
            with_play(players={k: v for k, v in play["players"].items() if k != "east"}),
            "/sessions/0/plays/0/players/east",
        ),
        "play_fifth_seat": (with_play(players={**play["players"], "fifth": "X"}), "/sessions/0/plays/0/players/fifth"),
        "triplette_split": (
            {**base, "form": "triplettes", "sessions": [{**session, "plays": [{**play, "players": {
                "north": "A", "west": "B", "south": "C", "east": "B"}}]}]},
            "/sessions/0/plays/0/players/south",
        ),
        "coefficient_zero": (with_session(coefficient=0), "/sessions/0/coefficient"),
        "coefficient_string": (with_session(coefficient="1.5"), "/sessions/0/coefficient"),
        "coefficient_four_decimals": (with_session(coefficient=1.0005), "/sessions/0/coefficient"),
        "annulled_not_played": (
            with_session(adjustments={"annulled": [{"etui": 5}]}),
            "/sessions/0/adjustments/annulled/0/etui",
        ),
        "mark_not_played": (
            with_session(adjustments={"marks": [{"entrant": "N2", "etui": 3, "grade": 50}]}),
            "/sessions/0/adjustments/marks/0/entrant",
        ),
        "mark_over_100": (
            with_session(adjustments={"marks": [{"entrant": "N1", "etui": 1, "grade": 100.5}]}),
            "/sessions/0/adjustments/marks/0/grade",
        ),
        "mark_on_annulled": (
            with_session(adjustments={"annulled": [{"etui": 1}], "marks": [{"entrant": "N1", "etui": 1, "grade": 50}]}),
            "/sessions/0/adjustments/marks/0/etui",
        ),
        "penalty_for_a_stranger": (
            with_session(adjustments={"penalties": [{"entrant": "Z9", "points": 1}]}),
            "/sessions/0/adjustments/penalties/0/entrant",
        ),
        "sitting_twice": (with_session(sittings=[session["sittings"][0]] * 2), "/sessions/0/sittings/1/table"),
        "quadrette_against_itself": (
            {"form": "quadrettes", "quadrettes": {"oppositions": [
                {"first": "A", "second": "A", "deals": [{"etui": 1, "first": 82, "second": 66}]}]}},
            "/quadrettes/oppositions/0/second",
        ),
        "team_prise": (
            {"form": "team_match", "team_match": {"teams": [{"name": "A"}, {"name": "B"}], "quarters": [{"deals": [
                {"etui": 1, "first": {"contract": "prise", "score": 20},
                 "second": {"contract": "garde", "score": 4}}]}]}},
            "/team_match/quarters/0/deals/0/first/contract",
        ),
    }  # fmt: skip
    return [
        BadRequest(f"duplicate_{name}", DUPLICATE, encode(body), 422, pointer=at) for name, (body, at) in cases.items()
    ]


def corpus() -> list[BadRequest]:
    """Every case of every operation, plus the ones about paths and methods."""
    out = [case for path in valid_bodies() for case in cases_for(path)]
    out += [
        BadRequest("get_on_a_post_operation", "/v1/tricks/winner", b"", 405, content_type=None, method="GET"),
        BadRequest("put_on_a_post_operation", "/v1/deals/score", b"{}", 405, method="PUT"),
        BadRequest("unknown_path", "/v1/tricks/loser", b"{}", 404),
        BadRequest("unknown_version", "/v2/tricks/winner", b"{}", 404),
        BadRequest("post_on_livez", "/livez", b"{}", 405),
    ]
    return out


# Requests gunicorn itself cannot parse (not valid HTTP): sent as raw bytes to a server.
_HEAD = b"POST /v1/tricks/winner HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
_BODY = encode(VALID["/v1/tricks/winner"])
RAW_HTTP: list[tuple[str, bytes, int]] = [
    ("garbage_request_line", b"GARBAGE\r\n\r\n", 400),
    ("bad_http_version", b"GET /livez HTTP/9.9\r\nHost: t\r\n\r\n", 400),
    ("bad_method_token", b"G@T /livez HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("transfer_coding_gzip", _HEAD + b"Transfer-Encoding: gzip\r\n\r\n" + _BODY, 400),
    ("bad_chunk_size", _HEAD + b"Transfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n", 400),
    ("chunk_without_terminator", _HEAD + b"Transfer-Encoding: chunked\r\n\r\n5\r\nabcdeXX0\r\n\r\n", 400),
    ("content_length_not_a_number", _HEAD + b"Content-Length: abc\r\n\r\n" + _BODY, 400),
    ("content_length_negative", _HEAD + b"Content-Length: -1\r\n\r\n" + _BODY, 400),
    ("content_length_and_chunked", _HEAD + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("content_length_twice", _HEAD + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\n" + _BODY, 400),
    ("content_length_longer_than_body", _HEAD + b"Content-Length: %d\r\n\r\n" % (len(_BODY) + 50) + _BODY, 400),
    ("nul_in_header", _HEAD + b"X-A: a\x00b\r\nContent-Length: %d\r\n\r\n" % len(_BODY) + _BODY, 400),
    ("header_line_too_long", b"GET /livez HTTP/1.1\r\nHost: t\r\nX-A: " + b"a" * 9000 + b"\r\n\r\n", 431),
    ("too_many_headers", b"GET /livez HTTP/1.1\r\nHost: t\r\n" + b"X-N: a\r\n" * 200 + b"\r\n", 431),
    ("request_line_too_long", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    ("unknown_expectation", _HEAD + b"Expect: 100-banana\r\nContent-Length: %d\r\n\r\n" % len(_BODY) + _BODY, 417),
    ("two_host_headers", b"GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    ("bare_lf_line_ends", b"GET /livez HTTP/1.1\nHost: t\n\n", 400),
    ("space_before_header_colon", b"GET /livez HTTP/1.1\r\nHost : t\r\n\r\n", 400),
    ("non_ascii_path", "GET /v1/tricks/é HTTP/1.1\r\nHost: t\r\n\r\n".encode(), 400),
    ("chunked_twice", _HEAD + b"Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
    ("content_length_of_20_digits", _HEAD + b"Content-Length: 99999999999999999999\r\n\r\n" + _BODY, 413),
    (
        "http10_post_without_length",
        b"POST /v1/tricks/winner HTTP/1.0\r\nContent-Type: application/json\r\n\r\n" + _BODY,
        400,
    ),
    ("gzip_content_coding", _HEAD + b"Content-Encoding: gzip\r\nContent-Length: 5\r\n\r\n\x1f\x8b\x08\x00\x00", 400),
]


# The batch operation. Its JSON form is refused whole only when it is not a batch at all;
# the faults of its records, and every fault of an NDJSON body, are answered line by line.
BATCH = "/v1/deals/evaluate-batch"


@cache
def batch_requests() -> list[BadRequest]:
    deal = valid_bodies()["/v1/deals/evaluate"]
    return [
        BadRequest("batch_not_an_object", BATCH, b"[]", 422, pointer=""),
        BadRequest("batch_without_deals", BATCH, b"{}", 422, pointer="/deals"),
        BadRequest("batch_deals_not_a_list", BATCH, b'{"deals": {}}', 422, pointer="/deals"),
        BadRequest("batch_of_1001_deals", BATCH, encode({"deals": [{}] * 1001}), 422, pointer="/deals"),
        BadRequest("batch_json_over_4_mib", BATCH, padded({"deals": [deal]}, 4 * 1024 * 1024 + 10), 413),
        BadRequest("batch_json_empty", BATCH, b"", 400),
        BadRequest("batch_json_malformed", BATCH, b'{"deals": [', 400),
        BadRequest("batch_as_csv", BATCH, b"players,dealer\n4,0\n", 415, content_type="text/csv"),
        BadRequest("batch_as_form", BATCH, b"deals=1", 415, content_type="application/x-www-form-urlencoded"),
    ]


@dataclass(frozen=True)
class BadBatch:
    """An NDJSON batch with faulty lines: a 200 answer whose items say what each line got."""

    name: str
    body: bytes
    items: tuple[str, ...]
    """Per line: ``result``, or the code of the first error of its problem."""
    unevaluated_from: int | None = None
    chunked: bool = False
    declared_length: int | None = None
    """A Content-Length longer than the body: the body is cut short."""


@cache
def bad_batches() -> list[BadBatch]:
    line = encode(valid_bodies()["/v1/deals/evaluate"])
    ok = line + b"\n"
    two = ok + ok
    r, empty, malformed = "result", "empty_line", "malformed_json"
    winner = encode(VALID["/v1/tricks/winner"]) + b"\n"
    cut = len(two) + len(line)
    return [
        BadBatch("huge_line", ok + b'{"id": "' + b"x" * 1_000_000 + b'"}\n' + ok, (r, "line_too_long", r)),
        BadBatch("huge_line_chunked", ok + b"x" * 300_000 + b"\n" + ok, (r, "line_too_long", r), chunked=True),
        BadBatch("thousands_of_empty_lines", b"\n" * 5000 + ok, (empty,) * 5000 + (r,)),
        BadBatch("crlf_and_blank_lines", ok.replace(b"\n", b"\r\n") + b"\r\n \t\n" + ok, (r, empty, empty, r)),
        BadBatch("invalid_utf8_mid_stream", ok + b'{"id": "\xc3\x28"}\n' + ok, (r, malformed, r)),
        BadBatch("byte_order_mark", b"\xef\xbb\xbf" + ok + ok, (malformed, r)),
        BadBatch("nul_bytes", ok + b"\x00\x00\x00\n" + ok, (r, malformed, r)),
        BadBatch("not_objects", b'[]\n42\n"deal"\nnull\n' + ok, ("type", "type", "type", "type", r)),
        BadBatch("nested_too_deeply", b"[" * 50_000 + b"\n" + ok, (malformed, r)),
        BadBatch("duplicate_keys", b'{"players": 4, "players": 4}\n' + ok, (malformed, r)),
        BadBatch("nan_literal", b'{"players": NaN}\n' + ok, (malformed, r)),
        BadBatch("a_record_of_another_operation", winner + ok, ("required", r)),
        BadBatch("last_line_without_newline", ok + line, (r, r)),
        BadBatch("last_line_cut", ok + line[:40], (r, malformed)),
        BadBatch("body_cut_short", two + line[:40], (r, r, "truncated_body"), 2, declared_length=cut),
        BadBatch("body_cut_at_a_line_end", two, (r, r, "truncated_body"), 2, declared_length=len(two) + 500),
        BadBatch("chunked", two + ok, (r, r, r), chunked=True),
    ]
