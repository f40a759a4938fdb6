"""Errors that say how to put them right (issue 37): each refusal keeps its code and message,
and gains, where the service can tell, a ``hint`` for people (in the language asked for) with
``suggestions`` a program can send instead, and a 413 its ``limit``. One code for a seat out of
range, whatever the seat and the operation, said with the table's own range (rules.md §2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.generator import refusals
from service.app import MAX_BODY_BYTES
from service.contract.batch import NDJSON
from service.contract.hints import nearest_cards, nearest_fields
from service.contract.records import JSON_BATCH_MAX_BYTES, JSON_BATCH_MAX_DEALS
from service.randomdeals import random_deal

NBSP = "\u00a0"
LEGAL = "/v1/tricks/legal-cards"
WINNER = "/v1/tricks/winner"
SCORE = "/v1/deals/score"
EVALUATE = "/v1/deals/evaluate"
BATCH = "/v1/deals/evaluate-batch"
GAME = "/v1/games/score"
LEGAL_BODY = {"players": 4, "hand": ["KS", "1S", "5T", "EX"], "trick": ["QS"]}
SUMMARY = {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}


def error_at(client: FlaskClient, path: str, body: bytes, pointer: str, language: str = "en", **kw: Any) -> Any:
    """The one error the answer to ``body`` has at ``pointer``, the answer checked as a problem."""
    headers = {"Accept-Language": language}
    r = client.post(path, data=body, content_type=kw.pop("content_type", "application/json"), headers=headers)
    assert r.status_code == kw.pop("status", 422), r.get_json()
    assert r.mimetype == "application/problem+json"
    [error] = [e for e in r.get_json()["errors"] if e["pointer"] == pointer]
    return error


def spoilt(body: dict[str, Any], pointer: str, value: Any) -> bytes:
    """``body`` with ``value`` at ``pointer``, as the bytes sent."""
    return json.dumps(refusals.spoilt(body, pointer, value)).encode()


# ---- the hints, table by table -------------------------------------------------------------

HINTS = [
    # name, path, body, pointer, code, suggestions, English hint, French hint
    ("lower_case", LEGAL, spoilt(LEGAL_BODY, "/hand/0", "ks"), "/hand/0", "unknown_card", ["KS"],
     "Did you mean KS?", f"Vouliez-vous dire KS{NBSP}?"),
    ("ace_as_A", LEGAL, spoilt(LEGAL_BODY, "/hand/1", "AS"), "/hand/1", "unknown_card", ["1S"],
     "Did you mean 1S?", f"Vouliez-vous dire 1S{NBSP}?"),
    ("ten_as_T", LEGAL, spoilt(LEGAL_BODY, "/trick/0", "TS"), "/trick/0", "unknown_card", ["10S"],
     "Did you mean 10S?", f"Vouliez-vous dire 10S{NBSP}?"),
    ("suit_letter", WINNER, b'{"players": 4, "cards": ["QX"]}', "/cards/0", "unknown_card", ["QS", "QH", "QD", "QC"],
     "Did you mean QS, QH, QD or QC?", f"Vouliez-vous dire QS, QH, QD ou QC{NBSP}?"),
    ("unknown_field", LEGAL, b'{"players": 4, "hand": ["KS"], "tricks": ["QS"]}', "/tricks", "unknown_field",
     ["trick"], "Did you mean `trick`?", f"Vouliez-vous dire `trick`{NBSP}?"),
    ("nested_field", SCORE, json.dumps({**SUMMARY, "rules": {"firstLead": "dealer_right"}}).encode(),
     "/rules/firstLead", "unknown_field", ["first_lead"], "Did you mean `first_lead`?",
     f"Vouliez-vous dire `first_lead`{NBSP}?"),
    ("enum_case", SCORE, spoilt(SUMMARY, "/contract", "Garde"), "/contract", "enum", ["garde"],
     "Did you mean garde?", f"Vouliez-vous dire garde{NBSP}?"),
    ("enum_spelling", SCORE, spoilt(SUMMARY, "/contract", "garde sans"), "/contract", "enum", ["garde_sans"],
     "Did you mean garde_sans?", f"Vouliez-vous dire garde_sans{NBSP}?"),
    ("enum_french_spelling", SCORE, json.dumps({**SUMMARY, "petit_au_bout": "defense"}).encode(), "/petit_au_bout",
     "enum", ["defence"], "Did you mean defence?", f"Vouliez-vous dire defence{NBSP}?"),
    ("bare_array", BATCH, b"[]", "", "type", ['{"deals": [...]}'], 'Send the records in an object: {"deals": [...]}.',
     f'Envoyez les donnes dans un objet{NBSP}: {{"deals": [...]}}.'),
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(
    ("name", "path", "body", "pointer", "code", "suggestions", "en", "fr"), HINTS, ids=[h[0] for h in HINTS]
)
def test_a_refusal_says_what_was_probably_meant(
    client: FlaskClient, language: str, name: str, path: str, body: bytes, pointer: str, code: str,
    suggestions: list[str], en: str, fr: str,
) -> None:  # fmt: skip
    error = error_at(client, path, body, pointer, language)
    assert error["code"] == code and error["suggestions"] == suggestions
    assert error["hint"] == (en if language == "en" else fr)


def test_without_a_hint_to_give_the_error_is_as_it_was(client: FlaskClient) -> None:
    # Clients read pointer, code and message: a fault nothing is near keeps exactly those.
    error = error_at(client, LEGAL, spoilt(LEGAL_BODY, "/hand/0", "ZZZZ"), "/hand/0")
    assert error == {"pointer": "/hand/0", "code": "unknown_card", "message": "Unknown card code 'ZZZZ'."}


@pytest.mark.parametrize(
    ("language", "said"), [("en", "larger than the 64 KiB this operation"), ("fr", f"dépasse les 64{NBSP}Kio que")]
)
def test_1_the_413_states_the_limit(client: FlaskClient, language: str, said: str) -> None:
    body = b'{"players": 4, "hand": ["KS"], "x": "' + b"a" * MAX_BODY_BYTES + b'"}'
    error = error_at(client, LEGAL, body, "", language, status=413)
    assert error["code"] == "body_too_large" and error["limit"] == MAX_BODY_BYTES and said in error["message"]
    assert "hint" not in error


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_json_batch_over_its_limits_names_ndjson(client: FlaskClient, language: str) -> None:
    records = json.dumps({"deals": [{}] * (JSON_BATCH_MAX_DEALS + 1)}).encode()
    error = error_at(client, BATCH, records, "/deals", language)
    assert error["code"] == "length" and error["suggestions"] == [NDJSON] and f"NDJSON ({NDJSON})" in error["hint"]
    large = b'{"deals": [], "x": "' + b"a" * JSON_BATCH_MAX_BYTES + b'"}'
    error = error_at(client, BATCH, large, "", language, status=413)
    assert error["limit"] == JSON_BATCH_MAX_BYTES and error["suggestions"] == [NDJSON]
    assert ("4 MiB" if language == "en" else f"4{NBSP}Mio") in error["message"]


NDJSON_BODY = b'{"players": 4, "dealer": 0}\n{"players": 4, "dealer": 1}\n'


@pytest.mark.parametrize("language", ["en", "fr"])
def test_ndjson_sent_as_json_is_told_to_say_so(client: FlaskClient, language: str) -> None:
    error = error_at(client, BATCH, NDJSON_BODY, "", language, status=400)
    assert error["code"] == "malformed_json" and error["suggestions"] == [NDJSON] and NDJSON in error["hint"]
    # An operation that takes no NDJSON: one object, and where records one per line go.
    error = error_at(client, LEGAL, NDJSON_BODY, "", language, status=400)
    assert "suggestions" not in error and BATCH in error["hint"] and NDJSON in error["hint"]


def test_extra_data_that_is_not_lines_of_json_gets_no_ndjson_hint(client: FlaskClient) -> None:
    for body in (b'{"players": 4} {"players": 4}', b'{"players": 4}\nnot json\n'):
        assert "hint" not in error_at(client, BATCH, body, "", status=400)


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        (SCORE, b'{"players": 4, "taker": 0, "contract": "garde", "taker": 1}', "/taker"),
        (SCORE, b'{"players": 4, "rules": {"first_lead": "dealer_right", "first_lead": "x"}}', "/rules/first_lead"),
        (WINNER, b'{"players": 4, "cards": [{"a": 1}, {"b": {"c": 1, "c": 2}}]}', "/cards/1/b/c"),
        (BATCH, b'{"deals": [{"id": "x", "players": 4}, {"players": 4, "players": 5}]}', "/deals/1/players"),
        (BATCH, b'  {"deals": [], "deals": []}', "/deals"),
    ],
)
def test_a_duplicate_key_is_located_at_the_key(client: FlaskClient, path: str, body: bytes, pointer: str) -> None:
    assert error_at(client, path, body, pointer, status=400)["code"] == "malformed_json"


def test_a_duplicate_key_in_an_ndjson_line_is_located_in_the_line(client: FlaskClient) -> None:
    r = client.post(BATCH, data=b'{"players": 4, "taker": 1, "taker": 2}\n', content_type=NDJSON)
    [item, _] = [json.loads(line) for line in r.data.splitlines()]
    assert [(e["pointer"], e["code"]) for e in item["problem"]["errors"]] == [("/taker", "malformed_json")]


# ---- seats: one code, the table's range ------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said"), [("en", "Seats run from 0 to 3 at 4 players."), ("fr", "numérotés de 0 à 3.")]
)
@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        (SCORE, spoilt(SUMMARY, "/taker", 5), "/taker"),
        (SCORE, spoilt(SUMMARY, "/taker", 4), "/taker"),
        (WINNER, b'{"players": 4, "leader": 7, "cards": ["KS"]}', "/leader"),
        (WINNER, b'{"players": 4, "leader": -1, "cards": ["KS"]}', "/leader"),
    ],
)
def test_2_a_seat_beyond_the_table_is_one_code_with_its_range(
    client: FlaskClient, language: str, said: str, path: str, body: bytes, pointer: str
) -> None:
    error = error_at(client, path, body, pointer, language)
    assert error["code"] == "seat_out_of_range" and said in error["message"]


def test_2_a_seat_with_an_invalid_player_count_is_said_with_the_largest_table(client: FlaskClient) -> None:
    # No table to say: a seat beyond every table's is refused with the largest's range; one within
    # it waits for a valid player count.
    r = client.post(WINNER, json={"players": 6, "leader": 7, "cards": ["KS"]})
    errors = {e["pointer"]: e for e in r.get_json()["errors"]}
    assert errors["/players"]["code"] == "enum"
    assert errors["/leader"]["code"] == "seat_out_of_range" and "0 to 4" in errors["/leader"]["message"]
    r = client.post(WINNER, json={"players": 6, "leader": 4, "cards": ["KS"]})
    assert [e["pointer"] for e in r.get_json()["errors"]] == ["/players"]


def _seat_requests() -> list[tuple[str, str, int, dict[str, Any], str]]:
    """Every seat a request carries, in every operation: (name, path, players, sound request,
    the pointer of the seat), and, for the batch, the record's own pointer."""
    out: list[tuple[str, str, int, dict[str, Any], str]] = []
    for n in (3, 4, 5):
        deal = random_deal(n, n)
        summary = {"players": n, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}
        poigneed = {**deal, "poignees": [{"seat": 0, "cards": ["1T"] * 10}]}
        claimed = {**deal, "claims": {"partner": 0, "trick_winners": [0], "first_violation": None}}
        faulted = {**deal, "claims": {"first_violation": {"code": "renounce", "trick": 0, "seat": 0}}}
        out += [
            ("winner.leader", WINNER, n, {"players": n, "leader": 0, "cards": ["KS"]}, "/leader"),
            ("score.taker", SCORE, n, summary, "/taker"),
            ("evaluate.dealer", EVALUATE, n, deal, "/dealer"),
            ("evaluate.taker", EVALUATE, n, deal, "/taker"),
            ("evaluate.poignee", EVALUATE, n, poigneed, "/poignees/0/seat"),
            ("evaluate.claims.partner", EVALUATE, n, claimed, "/claims/partner"),
            ("evaluate.claims.trick_winner", EVALUATE, n, claimed, "/claims/trick_winners/0"),
            ("evaluate.claims.first_violation", EVALUATE, n, faulted, "/claims/first_violation/seat"),
            ("batch.taker", BATCH, n, {"deals": [deal]}, "/deals/0/taker"),
            ("sheet.dealer", GAME, n, {"players": n, "deals": [{"dealer": 0, "summary": summary}]}, "/deals/0/dealer"),
            ("sheet.summary.taker", GAME, n, {"players": n, "deals": [{"summary": summary}]}, "/deals/0/summary/taker"),
            ("sheet.record.dealer", GAME, n, {"players": n, "deals": [{"record": deal}]}, "/deals/0/record/dealer"),
        ]
    # A partner is a five-player seat (elsewhere a partner is refused as such).
    partnered = {"players": 5, "contract": "garde", "taker": 0, "partner": 1, "points": 49, "oudlers": 2}
    out.append(("score.partner", SCORE, 5, partnered, "/partner"))
    return out


SEATS = _seat_requests()


def _answer_errors(r: Any, path: str, pointer: str) -> tuple[list[dict[str, Any]], str]:
    """A refusal's errors and the seat's pointer in them: a batch's record is answered by its item."""
    if path == BATCH:
        assert r.status_code == 200
        return r.get_json()["results"][0]["problem"]["errors"], pointer.removeprefix("/deals/0")
    assert r.status_code == 422, r.get_json()
    return r.get_json()["errors"], pointer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    case=st.sampled_from(SEATS),
    beyond=st.integers(min_value=0, max_value=2**53),
    below=st.booleans(),
    language=st.sampled_from(["en", "fr"]),
)
def test_2_any_seat_beyond_the_table_is_seat_out_of_range(
    client: FlaskClient, case: tuple[str, str, int, dict[str, Any], str], beyond: int, below: bool, language: str
) -> None:
    name, path, players, sound, pointer = case
    seat = -1 - beyond if below else players + beyond
    r = client.post(path, data=spoilt(sound, pointer, seat), content_type="application/json",
                    headers={"Accept-Language": language})  # fmt: skip
    errors, at = _answer_errors(r, path, pointer)
    assert {e["code"] for e in errors if e["pointer"] == at} == {"seat_out_of_range"}, (name, errors)
    assert "range" not in {e["code"] for e in errors}, (name, errors)
    [message] = [e["message"] for e in errors if e["pointer"] == at]
    last = f"0 to {players - 1}" if language == "en" else f"0 à {players - 1}"
    assert last in message, (name, message)


def test_2_the_seats_of_the_property_are_sound_as_they_are(client: FlaskClient) -> None:
    # Each request the property spoils is valid but for the seat it puts in (so the fault it finds
    # is that seat's): nothing at its seat's pointer before.
    for name, path, _players, sound, pointer in SEATS:
        r = client.post(path, json=sound)
        answer = r.get_json()
        errors = answer.get("errors") or (answer.get("results") or [{}])[0].get("problem", {}).get("errors", [])
        assert not [e for e in errors if e["pointer"].endswith(pointer.removeprefix("/deals/0"))], (name, errors)


# ---- the suggesters themselves ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("ks", ("KS",)),
        (" 10h ", ("10H",)),
        ("AS", ("1S",)),
        ("ah", ("1H",)),
        ("TS", ("10S",)),
        ("tc", ("10C",)),
        ("SK", ("KS",)),
        ("H10", ("10H",)),
        ("KX", ("KS", "KH", "KD", "KC")),
        ("CS", ("NS",)),
        ("KnH", ("NH",)),
        ("RP", ("KS",)),
        ("king of spades", ("KS",)),
        ("dame de cœur", ("QH",)),
        ("T21", ("21T",)),
        ("TT", ("10T",)),
        ("AT", ("1T",)),
        ("21", ("21T",)),
        ("21a", ("21T",)),
        ("trump 14", ("14T",)),
        ("petit", ("1T",)),
        ("Excuse", ("EX",)),
        ("ex", ("EX",)),
        ("", ()),
        ("ZZZZ", ()),
    ],
)
def test_1_5_the_nearest_card_codes(written: str, meant: tuple[str, ...]) -> None:
    assert nearest_cards(written) == meant


@given(st.text(max_size=30))
@settings(max_examples=200, deadline=None)
def test_1_5_every_suggestion_is_a_card_code(written: str) -> None:
    from service.rules.cards import CARD_BY_CODE

    found = nearest_cards(written)
    assert len(found) <= 4 and all(code in CARD_BY_CODE for code in found)
    assert found == nearest_cards(written)  # the same refusal, the same hint


@pytest.mark.parametrize(
    ("key", "names", "meant"),
    [
        ("tricks", ["players", "hand", "trick", "first_trick"], ("trick",)),
        ("firstTrick", ["players", "hand", "trick", "first_trick"], ("first_trick",)),
        ("PLAYERS", ["players", "hand"], ("players",)),
        ("colour", ["players", "hand"], ()),
    ],
)
def test_the_nearest_field_names(key: str, names: list[str], meant: tuple[str, ...]) -> None:
    assert nearest_fields(key, names) == meant
