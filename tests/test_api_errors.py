"""Malformed requests: every one is a 4xx problem document, never a 5xx."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from service.app import MAX_BODY_BYTES

PATH = "/v1/tricks/legal-cards"


def problem(r: object) -> dict[str, object]:
    assert r.mimetype == "application/problem+json"  # type: ignore[attr-defined]
    body = r.get_json()  # type: ignore[attr-defined]
    assert {"type", "title", "status", "detail", "errors"} <= set(body)
    assert body["status"] == r.status_code  # type: ignore[attr-defined]
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "data",
    [
        b"{",
        b'{"players": 4,',
        b"",
        b"   ",
        b"[" * 1000 + b"]" * 1000,
        b"[" * 60_000,
        b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        b'{"players": NaN, "hand": ["KS"]}',
        b'{"players": Infinity, "hand": ["KS"]}',
        b'{"players": 4, "players": 4, "hand": ["KS"]}',
        b'{"players": 1e999, "hand": ["KS"]}',
        b'{"players": ' + b"9" * 5000 + b', "hand": ["KS"]}',
        b'{"players": 4, "hand": ["\xff\xfe"]}',
        b"\xef\xbb\xbf{}",
        b"null garbage",
    ],
    ids=lambda d: d[:20].decode("utf-8", "replace"),
)
def test_malformed_json_is_400(client: FlaskClient, data: bytes) -> None:
    r = client.post(PATH, data=data, content_type="application/json")
    assert r.status_code == 400
    assert problem(r)["errors"]


@pytest.mark.parametrize("data", [b"[]", b"null", b"4", b'"KS"', b"true"])
def test_json_that_is_not_an_object_is_422(client: FlaskClient, data: bytes) -> None:
    r = client.post(PATH, data=data, content_type="application/json")
    assert r.status_code == 422
    # What it should be instead: an object, its fields named, the required ones said.
    said = (
        "Wrong type: expected an object with the fields `players`, `hand`, `trick`, `first_trick`, `called_card`, "
        "`rules` (`players`, `hand` required)."
    )
    assert problem(r)["errors"] == [{"pointer": "", "code": "type", "message": said}]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None, "application/xml"])
def test_not_json_is_415(client: FlaskClient, content_type: str | None) -> None:
    r = client.post(PATH, data=b'{"players": 4, "hand": ["KS"]}', content_type=content_type)
    assert r.status_code == 415
    problem(r)


def test_body_over_the_limit_is_413(client: FlaskClient) -> None:
    body = b'{"players": 4, "hand": ["KS"], "x": "' + b"a" * MAX_BODY_BYTES + b'"}'
    r = client.post(PATH, data=body, content_type="application/json")
    assert r.status_code == 413
    problem(r)


def test_body_just_under_the_limit_is_read(client: FlaskClient) -> None:
    head = b'{"players": 4, "hand": ["KS"]}'
    body = head + b" " * (MAX_BODY_BYTES - len(head))
    r = client.post(PATH, data=body, content_type="application/json")
    assert r.status_code == 200


def test_unknown_path_is_404(client: FlaskClient) -> None:
    r = client.get("/v1/nothing")
    assert r.status_code == 404
    problem(r)


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    r = client.get(PATH)
    assert r.status_code == 405
    assert "POST" in r.headers["Allow"]
    problem(r)


def test_a_failure_inside_a_view_is_a_500_problem_without_trace(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service.contract import tricks

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(tricks, "legal_cards", boom)
    r = client.post(PATH, json={"players": 4, "hand": ["KS"]})
    assert r.status_code == 500
    assert b"secret" not in r.data and b"Traceback" not in r.data
    problem(r)


def test_ops_endpoints(client: FlaskClient) -> None:
    assert client.get("/").get_json()["liveness"] == "/livez"
    assert client.get("/livez").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ok"}
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/openapi.yaml").mimetype == "application/yaml"


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        (PATH, {"players": 4, "hand": ["ZZ"] * 12_000, "trick": []}, "/hand"),
        ("/v1/tricks/winner", {"players": 4, "cards": [7] * 12_000}, "/cards"),
        ("/v1/deals/evaluate", {"players": 4, "dealer": 0, "contract": "garde", "taker": 0, "plays": ["ZZ"] * 12_000},
         "/plays"),
        ("/v1/deals/evaluate", {"players": 4, "dealer": 0, "bids": ["bad"] * 8000}, "/bids"),
        ("/v1/deals/score", {"players": 4, "contract": "garde", "taker": 0, "points": 50, "oudlers": 2,
                             "poignees": [{"side": "x", "size": "y"}] * 2000}, "/poignees"),
    ],
    ids=["hand", "winner-cards", "plays", "bids", "poignees"],
)  # fmt: skip
def test_a_list_over_its_limit_is_one_error_not_one_per_item(
    client: FlaskClient, path: str, body: dict[str, object], pointer: str
) -> None:
    # Items past the limit are not looked at: a 60 KB body of bad items costs no more than
    # any other, and its answer is one located error, not thousands.
    body = problem(client.post(path, json=body))
    length_errors = [e for e in body["errors"] if e["pointer"] == pointer]  # type: ignore[union-attr]
    assert [e["code"] for e in length_errors] == ["length"]
    assert not [e for e in body["errors"] if e["pointer"].startswith(pointer + "/")]  # type: ignore[union-attr]


def test_field_error_codes_follow_the_kind_of_error_not_its_wording(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reworded marshmallow messages (a new release) leave the codes as they were, and the
    # messages too: they come from the service's catalogs, never from marshmallow's wording.
    from marshmallow import fields, validate

    from service.contract.common import StrictSchema
    from service.contract.fields import CardList, Length, OneOf, StrictBoolean, StrictInteger
    from service.contract.problems import errors_from_messages
    from service.texts import render

    monkeypatch.setitem(fields.Field.default_error_messages, "required", "Champ obligatoire.")
    monkeypatch.setitem(fields.Boolean.default_error_messages, "invalid", "Pas un booléen.")
    monkeypatch.setattr(validate.Length, "message_all", "Entre {min} et {max}.")
    monkeypatch.setattr(validate.OneOf, "default_message", "Valeur inconnue.")
    schema = StrictSchema.from_dict(
        {
            "players": StrictInteger(required=True, validate=OneOf([3, 4, 5])),
            "hand": CardList(validate=Length(min=1, max=24)),
            "first_trick": StrictBoolean(),
            "dealer": StrictInteger(required=True),
        }
    )()
    with pytest.raises(ValidationError) as caught:
        schema.load({"players": 6, "hand": ["KS"] * 30, "first_trick": "yes", "colour": 1})
    errors = {e.pointer: (e.code, render(e.message, "en")) for e in errors_from_messages(caught.value.messages)}
    assert errors == {
        "/players": ("enum", "Must be one of: 3, 4, 5."),
        "/hand": ("length", "Give from 1 to 24 items."),
        "/first_trick": ("type", "Wrong type: expected true or false."),
        "/dealer": ("required", "Missing data for a required field."),
        "/colour": ("unknown_field", "Unknown field."),
    }


@pytest.mark.parametrize(
    ("path", "body", "pointer"),
    [
        (PATH, {"players": 4.0, "hand": ["KS"]}, "/players"),
        ("/v1/tricks/winner", {"players": 4, "leader": 1.0, "cards": ["KS"]}, "/leader"),
    ],
)
def test_integers_are_json_integers(client: FlaskClient, path: str, body: dict[str, object], pointer: str) -> None:
    # A decided reading: 4.0 is a number, not an integer, here (README, Conventions). Card
    # points are numbers, and 49.0 is 49.
    errors = problem(client.post(path, json=body))["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [(pointer, "type")]  # type: ignore[index]
    score = {"players": 4, "contract": "garde", "taker": 0, "points": 49.0, "oudlers": 2}
    assert client.post("/v1/deals/score", json=score).status_code == 200
