"""A refused value is told what the field takes: every field of every operation's request (walked
from the contract's schemas, nested objects and list items included), sent a value of the wrong
type or a null, gets a message that states what is accepted (an enum's values, an object's
fields, a list's items, a number's bounds); an enum's refusal lists exactly the values this
request takes (``pousse`` only under ``rules.pousse_alias``, rules.md §11; the packets of the
request's table, §2.1) and suggests no other; in English and in French, the French without a
word of English."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import fields, validate

from service.contract.common import SeatRange
from service.contract.components import COMPONENTS
from service.contract.duplicate_request import DecimalNumber
from service.contract.fields import (
    CalledCardField,
    CardField,
    EnumField,
    HalfPoints,
    StrictBoolean,
    StrictInteger,
    StrictString,
)
from service.contract.operations import OPERATIONS
from service.randomdeals import random_deal
from service.rules.dealing import PACKETS, packet_fits
from service.rules.table import TABLES

BATCH = "/v1/deals/evaluate-batch"
GAME = "/v1/games/score"
STANDINGS = "/v1/tournaments/standings"
SUMMARY = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
FULL_SUMMARY = {
    **SUMMARY,
    "partner": None,
    "petit_au_bout": None,
    "poignees": [{"side": "attack", "size": "simple"}],
    "chelem": {"announced": False, "made_by": None},
    "rules": {},
}
DEAL = {**random_deal(4, 4), "poignees": [{"seat": 0, "cards": ["1T"] * 10}], "claims": {}, "rules": {}}
ENTRY = {"dealer": 0, "summary": {k: v for k, v in FULL_SUMMARY.items() if k != "players"}}
FOUR = {"north": "N", "west": "W", "south": "S", "east": "E"}
FOUR_2 = {"north": "N2", "west": "W2", "south": "S2", "east": "E2"}
DUPLICATE = "/v1/tournaments/duplicate/standings"
CARD_ENTRY = {
    **ENTRY,
    "marks": {"row": {"north": 147, "west": -49, "south": -49, "east": -49}, "taker": "north", "contract": "garde"},
}
SOUND: dict[str, dict[str, Any]] = {
    # Each operation's request with every object and list it can hold, so that each field's
    # pointer lands in the request (a missing parent is made, see `planted`).
    "/v1/tricks/legal-cards": {
        "players": 5, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"], "first_trick": False, "called_card": "KH",
        "rules": {},
    },
    "/v1/tricks/winner": {"players": 4, "leader": 0, "cards": ["KS"]},
    "/v1/deals/deal": {"players": 4, "dealer": 0, "seed": "x", "packet": 3, "dog_positions": [1], "rules": {}},
    "/v1/deals/score": FULL_SUMMARY,
    "/v1/deals/evaluate": DEAL,
    BATCH: {"deals": [DEAL]},
    GAME: {
        "players": 4, "names": ["N", "E", "S", "W"], "table": "1", "draw": ["10H", "10C", "5T", "KS"],
        "deals": [ENTRY], "claims": {"net": [0, 0, 0, 0], "rows": [[0, 0, 0, 0]]},
    },
    STANDINGS: {
        "players": [{"id": p, "name": p, "team": None} for p in "NWSE"], "plan": {"positions": 5, "deals": 4},
        "tie_break": "none",
        "scorecards": [{"position": 1, "table": 1, "seats": FOUR, "deals": [CARD_ENTRY], "totals": {"north": 147},
                        "returned": True}],
        "seating": [{"position": 1, "table": 1, "seats": FOUR}],
        "adjustments": [{"player": "N", "position": 1, "points": -10, "reason": "late"}],
    },
    "/v1/tournaments/seating": {
        "players": ["A", "B", "C", "D"], "positions": 2,
        "played": [{"position": 1, "table": 1, "seats": {"north": "A", "west": "B", "south": "C", "east": "D"}}],
        "seat": "next",
        "forbidden": [["A", "E"]], "fixed": [{"player": "A", "table": 1}], "tables_of_five": False, "seed": "x",
    },
    "/v1/tournaments/duplicate/movement": {
        "tables": 3, "positions": 3, "etuis_per_position": 1, "seed": "x",
        "players": {o: [f"{o}{t}" for t in range(3)] for o in ("north", "west", "south", "east")},
        "sittings": [{"position": 1, "table": 1, "players": {"north": "north0", "west": "west0", "south": "south0",
                                                             "east": "east0"}, "etuis": [1]}],
        "etuis": [{"number": 1, "taker": "north", "dealer": "north"}],
    },
    DUPLICATE: {
        "form": "individual",
        "sessions": [{
            "etuis": [
                {"number": 1, "taker": "north", "dealer": "north"}, {"number": 2, "taker": "west", "dealer": "west"},
            ],
            "plays": [
                {"position": 1, "table": 1, "etui": 1, "players": FOUR, "score": 56},
                {"position": 1, "table": 2, "etui": 2, "players": FOUR_2, "summary": FULL_SUMMARY},
                {"position": 2, "table": 1, "etui": 2, "players": FOUR, "score": 62, "summary": None},
                {"position": 2, "table": 2, "etui": 1, "players": FOUR_2, "score": -52},
            ],
            "coefficient": 1.5,
            "adjustments": {
                "annulled": [{"etui": 2, "reason": "a card missing"}],
                "marks": [{"entrant": "N", "etui": 1, "grade": 60, "reason": "late"}],
                "penalties": [{"entrant": "W", "points": 2.5, "reason": "slow"}],
            },
            "sittings": [
                {"position": 1, "table": 1, "players": FOUR, "etuis": [1]},
                {"position": 1, "table": 2, "players": FOUR_2, "etuis": [2]},
                {"position": 2, "table": 1, "players": FOUR, "etuis": [2]},
                {"position": 2, "table": 2, "players": FOUR_2, "etuis": [1]},
            ],
        }],
    },
}  # fmt: skip
ENTRIES = {"record": {"record": DEAL}, "not_played": {"dealer": 0, "not_played": {"reason": "redeal"}}}
"""The sheet's other kinds of entry, for the fields inside them."""


def walk(schema: Any, pointer: str = "") -> Iterator[tuple[str, fields.Field[Any]]]:
    """Every field a request of ``schema`` can hold, by its pointer (a list's first item stands
    for every item), nested objects and lists of lists included."""
    for name, field in schema.load_fields.items():
        at = f"{pointer}/{field.data_key or name}"
        yield from _walk_field(at, field)


def _walk_field(at: str, field: fields.Field[Any]) -> Iterator[tuple[str, fields.Field[Any]]]:
    yield at, field
    if isinstance(field, fields.Nested):
        yield from walk(field.schema, at)
    elif isinstance(field, fields.List):
        yield from _walk_field(f"{at}/0", field.inner)


SHEET_TABLE = ("/deals/0/summary/players", "/deals/0/record/players")
"""A sheet entry's own player count takes one value, the sheet's: another is ``table_size``."""
CARD = "/scorecards/0/deals/0"
"""A scorecard's first deal: its entries are a sheet's, for the card's table."""
FIELDS = [
    (path, pointer, field)
    for op in OPERATIONS.values()
    for path in [op.path]
    for pointer, field in walk(op.request_schema)
    if not (path == GAME and pointer in SHEET_TABLE)
    and not (path == STANDINGS and pointer in tuple(CARD + p.removeprefix("/deals/0") for p in SHEET_TABLE))
]


def planted(body: Any, pointer: str, value: Any) -> Any:
    """A copy of ``body`` with ``value`` at ``pointer``, the objects and lists on the way made
    where missing."""
    out = copy.deepcopy(body)
    *path, last = pointer[1:].split("/")
    parent = out
    for token, following in zip(path, [*path[1:], last][: len(path)], strict=True):
        if isinstance(parent, list):
            index = int(token)
            while len(parent) <= index:
                parent.append([] if following.isdigit() else {})
            if not isinstance(parent[index], list | dict):
                parent[index] = [] if following.isdigit() else {}
            parent = parent[index]
        else:
            if not isinstance(parent.get(token), list | dict):
                parent[token] = [] if following.isdigit() else {}
            parent = parent[token]
    if isinstance(parent, list):
        index = int(last)
        while len(parent) <= index:
            parent.append(None)
        parent[index] = value
    else:
        parent[last] = value
    return out


def sound_for(path: str, pointer: str) -> dict[str, Any]:
    body = SOUND[path]
    for kind, entry in ENTRIES.items():
        if path == GAME and pointer.startswith(f"/deals/0/{kind}"):
            return {**body, "deals": [entry]}
        if path == STANDINGS and pointer.startswith(f"{CARD}/{kind}"):
            return {**body, "scorecards": [{**body["scorecards"][0], "deals": [entry], "totals": None}]}
    return body


def errors_at(client: FlaskClient, path: str, body: Any, pointer: str, language: str) -> list[dict[str, Any]]:
    """The errors of the answer to ``body`` at ``pointer`` (a batch's record: its item's)."""
    r = client.post(path, data=json.dumps(body), content_type="application/json", headers={"Accept-Language": language})
    if path == BATCH and pointer.startswith("/deals/0"):
        assert r.status_code == 200, r.get_json()
        errors: list[dict[str, Any]] = r.get_json()["results"][0]["problem"]["errors"]
        pointer = pointer.removeprefix("/deals/0")
    else:
        assert r.status_code == 422, r.get_json()
        errors = r.get_json()["errors"]
    return [e for e in errors if e["pointer"] == pointer]


def wrong_type(field: fields.Field[Any]) -> Any:
    """A value of another JSON type than ``field`` takes."""
    if isinstance(field, EnumField):
        return "x" if COMPONENTS[field.component]["type"] == "integer" else True
    if isinstance(field, fields.Nested | fields.List | CardField | StrictString):
        return 7
    return "x"


def accepted_values(field: EnumField, request: dict[str, Any]) -> list[str]:
    """The values of an enum this request takes, as the rules say (§11, §2.1), null included
    where the field takes it."""
    values = list(COMPONENTS[field.component]["enum"])
    if field.component in ("Contract", "Bid") and request.get("rules", {}).get("pousse_alias") is not True:
        values.remove("pousse")
    if field.component == "Packet":
        values = [p for p in PACKETS if packet_fits(TABLES[request["players"]], p)]
    return [str(v) for v in values] + (["null"] if field.allow_none else [])


def said_values(message: str) -> list[str]:
    """The values a refusal lists: after its last colon, up to the full stop."""
    return message.rsplit(":", 1)[1].strip().rstrip(".").split(", ")


def holding(path: str, pointer: str, body: dict[str, Any]) -> dict[str, Any]:
    """The object that holds the field at ``pointer`` (for its table and rules): the request, or
    the record or summary it is in."""
    if path == BATCH and pointer.startswith("/deals/0/"):
        return dict(body["deals"][0])
    if path == GAME and "/summary/" in pointer:
        return {"players": body["players"], **body["deals"][0]["summary"]}
    if path == GAME and "/record/" in pointer:
        return dict(body["deals"][0]["record"])
    if path == STANDINGS and pointer.startswith(f"{CARD}/summary/"):
        return {"players": 4, **body["scorecards"][0]["deals"][0]["summary"]}
    if path == STANDINGS and pointer.startswith(f"{CARD}/record/"):
        return dict(body["scorecards"][0]["deals"][0]["record"])
    if path == STANDINGS:
        return {}  # (no object of a tournament names a player count: a card's seats say its table)
    return body


def holder(pointer: str) -> str:
    """The pointer of the object that holds the field at ``pointer`` (a list item's: the list's)."""
    parent, last = pointer.rsplit("/", 1)
    return parent.rsplit("/", 1)[0] if last.isdigit() else parent


def tokens(field: fields.Field[Any], players: int) -> list[str]:
    """What a statement of what ``field`` takes must name: the enum's values, the object's
    fields, the list's items, the bounds, the two booleans."""
    if isinstance(field, EnumField):
        return []  # checked value by value
    if isinstance(field, CalledCardField | CardField):
        return ["KS"]
    if isinstance(field, fields.Nested):
        return [f"`{f.data_key or name}`" for name, f in field.schema.load_fields.items()]
    if isinstance(field, fields.List):
        bounds = [str(v.max) for v in field.validators if isinstance(v, validate.Length) and v.max is not None]
        return bounds + tokens(field.inner, players)
    if isinstance(field, StrictBoolean):
        return ["true", "false"]
    if isinstance(field, HalfPoints):
        return ["91"]
    if isinstance(field, StrictInteger):
        if any(isinstance(v, SeatRange) for v in field.validators):
            return ["0", str(players - 1)]
        ranges = [v for v in field.validators if isinstance(v, validate.Range)]
        return [str(b) for v in ranges for b in (v.min, v.max) if b is not None]
    if isinstance(field, DecimalNumber):
        return [str(b) for v in field.validators if isinstance(v, validate.Range) for b in (v.min, v.max)]
    if isinstance(field, StrictString):
        return [str(v.max) for v in field.validators if isinstance(v, validate.Length) and v.max is not None]
    raise AssertionError(f"a field of a kind the test does not know: {field!r}")


ENGLISH = re.compile(
    r"\b(must|expected|wrong|one of|object|fields?|list|items?|each|string|integer|characters|or|from|at most|"
    r"at least|required|such as|number|steps|seat|null here|may not)\b"
)


def english_left(message: str, said: list[str]) -> list[str]:
    """English words in a French message, once its codes, field names and values are set aside."""
    text = re.sub(r"`[^`]*`", " ", message)
    for value in said:
        text = text.replace(value, " ")
    return ENGLISH.findall(text.replace("true", " ").replace("false", " ").replace("null", " "))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("path", "pointer", "field"), FIELDS, ids=[f"{p}{q}" for p, q, _ in FIELDS])
def test_a_value_of_the_wrong_type_is_told_what_is_accepted(
    client: FlaskClient, language: str, path: str, pointer: str, field: fields.Field[Any]
) -> None:
    sound = sound_for(path, pointer)
    # A batch's record is loaded on its own: a null one is a record of the wrong type.
    nulls = [] if field.allow_none else [(None, "type" if (path, pointer) == (BATCH, "/deals/0") else "null")]
    for value, code in [(wrong_type(field), "type"), *nulls]:
        body = planted(sound, pointer, value)
        errors = errors_at(client, path, body, pointer, language)
        assert [e["code"] for e in errors] == [code], (value, errors)
        message = re.sub(r"(?<=\d)[,\u00a0\u202f](?=\d{3})", "", errors[0]["message"])  # 1,000: 1000
        if isinstance(field, EnumField):
            values = accepted_values(field, holding(path, pointer, body))
            assert said_values(message) == values, message
            assert set(errors[0].get("suggestions", ())) <= set(values)
            said = values
        else:
            said = tokens(field, holding(path, pointer, body).get("players", 5))
            assert all(token in message for token in said), (said, message)
        assert message.startswith(
            {"en": ("Wrong type: expected", "May not be null: expected"), "fr": ("Type de valeur", "Ne peut pas")}[
                language
            ]
        ), message
        if language == "fr":
            assert not english_left(message, said), message


ENUMS = [(path, pointer, field) for path, pointer, field in FIELDS if isinstance(field, EnumField)]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("path", "pointer", "field"), ENUMS, ids=[f"{p}{q}" for p, q, _ in ENUMS])
def test_an_enum_refusal_lists_exactly_what_the_request_takes(
    client: FlaskClient, language: str, path: str, pointer: str, field: EnumField
) -> None:
    integer = COMPONENTS[field.component]["type"] == "integer"
    sound = sound_for(path, pointer)
    for rules in ({}, {"pousse_alias": True}, {"pousse_alias": False}):
        for players in (3, 4, 5) if field.component == "Packet" else (None,):
            body = planted(sound, pointer, 99 if integer else "Zzz")
            within = holding(path, pointer, body)
            if "rules" in within:
                body = planted(body, f"{holder(pointer)}/rules", rules)
            if players is not None:
                body = {**body, "players": players}
            errors = errors_at(client, path, body, pointer, language)
            assert [e["code"] for e in errors] == ["enum"], errors
            values = accepted_values(field, holding(path, pointer, body))
            assert said_values(errors[0]["message"]) == values, (values, errors[0])
            assert "suggestions" not in errors[0]
            if language == "fr":
                assert not english_left(errors[0]["message"], values), errors[0]


HINTS = [
    # path, pointer, value sent, the rules, the value meant
    ("/v1/deals/score", "/contract", "petite", {}, "prise"),
    ("/v1/deals/score", "/contract", "Petite", {}, "prise"),
    ("/v1/deals/score", "/contract", "Pousse", {}, "garde"),
    ("/v1/deals/score", "/contract", "Pousse", {"pousse_alias": True}, "pousse"),
    ("/v1/deals/score", "/contract", "guard against", {}, "garde_contre"),
    ("/v1/deals/evaluate", "/bids/0", "passe", {}, "pass"),
    ("/v1/deals/evaluate", "/contract", "petite", {}, "prise"),
    ("/v1/deals/score", "/poignees/0/size", "single", {}, "simple"),
    ("/v1/deals/score", "/petit_au_bout", "Défense", {}, "defence"),
    ("/v1/deals/score", "/chelem/made_by", "attaque", {}, "attack"),
    ("/v1/games/score", "/deals/0/not_played/reason", "redonne", {}, "redeal"),
    ("/v1/deals/deal", "/packet", "3", {}, 3),
    ("/v1/deals/deal", "/packet", "trois", {}, 3),
    ("/v1/deals/score", "/rules/first_lead", "taker", {}, "after_taker"),
    ("/v1/tournaments/seating", "/seat", "all", {}, "remaining"),
    ("/v1/tournaments/standings", "/tie_break", "best", {}, "best_position"),
    ("/v1/tournaments/standings", "/scorecards/0/deals/0/marks/taker", "est", {}, "east"),
    ("/v1/tournaments/standings", "/scorecards/0/deals/0/marks/taker", "Ouest", {}, "west"),
]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("path", "pointer", "value", "rules", "meant"), HINTS, ids=[f"{h[1]}={h[2]}" for h in HINTS])
def test_another_name_of_a_value_is_hinted(
    client: FlaskClient, language: str, path: str, pointer: str, value: str, rules: dict[str, Any], meant: str | int
) -> None:
    sound = sound_for(path, pointer)
    body = planted({**sound, "rules": rules} if "rules" in sound else sound, pointer, value)
    [error] = errors_at(client, path, body, pointer, language)
    if isinstance(meant, int):
        # A number is hinted as one: a suggestion would be the string just refused.
        assert "suggestions" not in error
        said = f"{meant}, as a number" if language == "en" else f"{meant}, en nombre"
        assert said in error["hint"], error
        return
    assert error["suggestions"] == [meant]
    assert error["hint"] == (f"Did you mean {meant}?" if language == "en" else f"Vouliez-vous dire {meant}\u00a0?")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_pousse_without_its_variant_is_hinted_garde(client: FlaskClient, language: str) -> None:
    [error] = errors_at(client, "/v1/deals/score", {**SUMMARY, "contract": "pousse"}, "/contract", language)
    assert error["code"] == "pousse_not_enabled" and error["suggestions"] == ["garde"]


@pytest.mark.parametrize(("language", "said"), [("en", "the game's 4 players"), ("fr", "les 4 joueurs")])
@pytest.mark.parametrize("pointer", SHEET_TABLE)
def test_a_sheet_entry_for_another_table_is_told_the_sheets(
    client: FlaskClient, language: str, said: str, pointer: str
) -> None:
    for value in (3, "4", True, None):
        body = planted(sound_for(GAME, pointer), pointer, value)
        [error] = errors_at(client, GAME, body, "/deals/0", language)
        assert error["code"] == "table_size" and said in error["message"], error


def test_the_walk_reaches_every_kind_of_field() -> None:
    # Enums, nested objects, lists of objects and of lists, cards, seats, points: the property
    # above covers each kind in every operation that has it.
    kinds = {type(field).__name__ for _, _, field in FIELDS}
    assert {
        "EnumField",
        "StrictNested",
        "EntryBody",
        "BoundedList",
        "CardList",
        "CardField",
        "CalledCardField",
    } <= kinds
    assert {"StrictInteger", "StrictBoolean", "StrictString", "HalfPoints", "RecordList"} <= kinds
    assert {path for path, _, _ in FIELDS} == {op.path for op in OPERATIONS.values()}
    assert ("/v1/games/score", "/deals/0/record/claims/first_violation/seat") in {(p, q) for p, q, _ in FIELDS}
