"""The committed openapi.yaml is exactly what the schemas generate, and a valid spec."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from openapi_spec_validator import validate

from service.api.meta.spec import spec_dict, spec_yaml
from service.contract.errorcodes import FieldErrorCode
from service.contract.fields import ERROR_CODES
from service.rules.verdicts import LegalReason, RedealReason, ViolationCode

COMMITTED = Path(__file__).parent.parent / "openapi.yaml"


def test_committed_spec_matches_the_schemas(app: Flask) -> None:
    assert COMMITTED.read_text(encoding="utf-8") == spec_yaml(app), "run `make spec` and commit openapi.yaml"


def test_spec_is_valid(app: Flask) -> None:
    validate(yaml.safe_load(COMMITTED.read_text(encoding="utf-8")))


def test_served_spec_is_the_committed_one(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/openapi.json").get_json() == spec_dict(app)
    assert client.get("/openapi.yaml").get_data(as_text=True) == COMMITTED.read_text(encoding="utf-8")


def test_verdict_codes_are_named_enums_with_their_meanings() -> None:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    for verdict in (LegalReason, ViolationCode, RedealReason):
        schema = schemas[verdict.__name__]
        assert schema["enum"] == [code.value for code in verdict]
        assert schema["x-enum-descriptions"] == [code.description for code in verdict]
        assert all(code.description and f"`{code.value}`" in schema["description"] for code in verdict)
    text = COMMITTED.read_text(encoding="utf-8")
    for name in ("ViolationCode", "RedealReason", "LegalReason"):
        assert f"$ref: '#/components/schemas/{name}'" in text, f"{name} is referenced where it is answered"


def test_operations_have_stable_unique_ids_and_the_contract_says_where_and_how() -> None:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    ids = {path: op["operationId"] for path, item in spec["paths"].items() for op in item.values()}
    assert ids == {
        "/": "describeService",
        "/livez": "checkLiveness",
        "/readyz": "checkReadiness",
        "/v1/tricks/legal-cards": "listLegalCards",
        "/v1/tricks/winner": "findTrickWinner",
        "/v1/deals/deal": "dealCards",
        "/v1/deals/score": "scoreDeal",
        "/v1/deals/evaluate": "evaluateDeal",
        "/v1/deals/evaluate-batch": "evaluateDealBatch",
        "/v1/games/score": "scoreGame",
        "/v1/tournaments/standings": "tournamentStandings",
        "/v1/tournaments/seating": "seatTournament",
        "/v1/tournaments/duplicate/movement": "duplicateMovement",
        "/v1/tournaments/duplicate/standings": "duplicateStandings",
    }, "operation ids are part of the contract: never rename one"
    assert spec["servers"] and spec["security"] == [] and spec["info"]["license"]["name"]


def test_every_operation_declares_the_refusal_for_load_with_its_retry_after() -> None:
    # Any worker may refuse any operation for load, whatever its body: a generated client that
    # meets an undeclared status throws instead of waiting and retrying.
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    operations = [(path, op) for path, item in spec["paths"].items() if path.startswith("/v1/") for op in item.values()]
    assert operations
    for path, op in operations:
        refusal = op["responses"]["503"]
        assert refusal["content"]["application/problem+json"]["schema"] == {"$ref": "#/components/schemas/Problem"}
        assert refusal["headers"]["Retry-After"] == {"$ref": "#/components/headers/RetryAfter"}, path
        assert "`overloaded`" in refusal["description"] and "`Retry-After`" in refusal["description"]
    assert spec["components"]["headers"]["RetryAfter"]["schema"] == {"type": "integer", "minimum": 0}


def _request_examples() -> list[tuple[str, str, dict[str, Any]]]:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    out = []
    for path, item in spec["paths"].items():
        for op in item.values():
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            out += [(path, name, example["value"]) for name, example in content.get("examples", {}).items()]
    return out


EXAMPLES = _request_examples()


def test_every_v1_operation_has_request_examples() -> None:
    assert {path for path, _, _ in EXAMPLES} == {
        "/v1/tricks/legal-cards",
        "/v1/tricks/winner",
        "/v1/deals/deal",
        "/v1/deals/score",
        "/v1/deals/evaluate",
        "/v1/deals/evaluate-batch",
        "/v1/games/score",
        "/v1/tournaments/standings",
        "/v1/tournaments/seating",
        "/v1/tournaments/duplicate/movement",
        "/v1/tournaments/duplicate/standings",
    }


def test_answering_leaves_the_request_as_sent() -> None:
    # The contract's answers are used as a library (the command line, the kit's generator, the
    # spec's example answers): an answer that changed its caller's request would change the next.
    import copy

    from service.contract.operations import OPERATIONS

    for op in OPERATIONS.values():
        for name, example in op.examples.items():
            sent = copy.deepcopy(example.request)
            op.respond(example.request)
            assert example.request == sent, f"{op.operation_id} {name}"


@pytest.mark.parametrize(("path", "name", "body"), EXAMPLES, ids=[f"{p}:{n}" for p, n, _ in EXAMPLES])
def test_every_request_example_answers_200(app: Flask, path: str, name: str, body: dict[str, Any]) -> None:
    answer = app.test_client().post(path, json=body)
    assert answer.status_code == 200, answer.get_json()
    if path == "/v1/deals/evaluate":
        # Every example deal is valid but the one that shows a ruling (rules.md §14).
        assert answer.get_json()["valid"] is (name != "defenderRenounces")
        assert (answer.get_json()["ruling"] is not None) is (name == "defenderRenounces")


def _optional_fields(path: str) -> list[str]:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    ref = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return [name for name in schema["properties"] if name not in schema.get("required", [])]


# Each optional field an example leaves out: sent as null, it must mean the same. (A field an
# example relies on, such as a deal's contract, is information: nulling it changes the request.)
NULLED = [(path, name, field) for path, name, body in EXAMPLES for field in _optional_fields(path) if field not in body]


# Optional fields that other fields make necessary: a deal's contract and taker (unless bids
# are given), the called card once someone took at five players or on a five-player first trick,
# the deck or the seed a deal of the cards is dealt from; the part a duplicate tournament's form reads.
CONDITIONAL = {"contract", "taker", "called_card", "deck", "seed", "sessions", "quadrettes", "team_match"}
PRESENT = [
    (path, name, field)
    for path, name, body in EXAMPLES
    for field in _optional_fields(path)
    if field in body and field not in CONDITIONAL
]


@pytest.mark.parametrize(("path", "name", "field"), PRESENT, ids=[f"{p}:{n}:{f}" for p, n, f in PRESENT])
def test_null_for_a_given_optional_field_still_answers_200(app: Flask, path: str, name: str, field: str) -> None:
    # null is "absent": the default applies (hands inferred from a complete deal, no
    # poignées, an empty trick...), and the request stays valid.
    body = next(b for p, n, b in EXAMPLES if (p, n) == (path, name))
    nulled = app.test_client().post(path, json={**body, field: None})
    assert nulled.status_code == 200, nulled.get_json()


@pytest.mark.parametrize(("path", "name", "field"), NULLED, ids=[f"{p}:{n}:{f}" for p, n, f in NULLED])
def test_null_stands_for_an_absent_optional_field(app: Flask, path: str, name: str, field: str) -> None:
    # Serializers that send null for every unset field get the same answer as without it.
    body = next(b for p, n, b in EXAMPLES if (p, n) == (path, name))
    client = app.test_client()
    nulled = client.post(path, json={**body, field: None})
    assert nulled.status_code == 200, nulled.get_json()
    assert nulled.get_json() == client.post(path, json=body).get_json()


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/tricks/legal-cards", {"players": 4, "hand": ["KS", "2S"]}, "trick"),
        ("/v1/tricks/legal-cards", {"players": 4, "hand": ["KS", "2S"]}, "rules"),
        ("/v1/tricks/winner", {"players": 4, "cards": ["KS", "1T"]}, "leader"),
        ("/v1/deals/score", {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}, "poignees"),
        ("/v1/deals/score", {"players": 4, "contract": "garde", "taker": 0, "points": 49, "oudlers": 2}, "chelem"),
    ],
)
def test_null_for_fields_that_used_to_refuse_it(app: Flask, path: str, body: dict[str, Any], field: str) -> None:
    client = app.test_client()
    nulled = client.post(path, json={**body, field: None})
    assert nulled.status_code == 200, nulled.get_json()
    assert nulled.get_json() == client.post(path, json=body).get_json()


def test_every_enum_is_a_named_schema_written_once() -> None:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    places: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if "enum" in node:
                places.append(path)
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{path}/{index}")

    walk(spec, "")
    named = {f"/components/schemas/{name}" for name in spec["components"]["schemas"]}
    assert places and set(places) <= named, sorted(set(places) - named)
    assert {"Players", "Contract", "Bid", "Side", "PoigneeSize", "Suit", "ViolationCode"} <= {
        p.rsplit("/")[-1] for p in places
    }


def test_card_codes_have_identifier_names_for_generated_code() -> None:
    card = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))["components"]["schemas"]["Card"]
    names = dict(zip(card["enum"], card["x-enum-varnames"], strict=True))
    assert len(set(names.values())) == 78 and all(n.isidentifier() and not n[0].isdigit() for n in names.values())
    assert (names["10H"], names["NC"], names["1T"], names["EX"]) == (
        "TEN_OF_HEARTS",
        "KNIGHT_OF_CLUBS",
        "TRUMP_1",
        "EXCUSE",
    )


def test_the_readme_examples_name_files_that_exist_and_bodies_that_answer_200(app: Flask) -> None:
    readme = (COMMITTED.parent / "README.md").read_text(encoding="utf-8")
    files = re.findall(r"-d @(\S+)", readme)
    assert files, "the README posts a file"
    for name in files:
        path = COMMITTED.parent / name
        assert path.is_file(), name
        endpoint = re.search(r"localhost:8000(\S+) [^\n]*-d @" + re.escape(name), readme)
        assert endpoint is not None
        answer = app.test_client().post(endpoint.group(1), data=path.read_bytes(), content_type="application/json")
        assert answer.status_code == 200, answer.get_json()


def test_every_field_error_code_the_service_writes_is_in_the_contract() -> None:
    # Codes written as literals where errors are made (the bad-input corpus checks the answers).
    makers = {"add": 1, "Coded": 0, "FieldError": 1, "fail": 0, "_stop": 3}
    written = set()
    for path in (COMMITTED.parent / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(receiver, ast.Attribute) and receiver.attr == "headers":
                continue  # response.headers.add(name, value): a header, not an error
            index = makers.get(name)
            if index is not None and len(node.args) > index and isinstance(node.args[index], ast.Constant):
                written.add(node.args[index].value)
    written |= set(ERROR_CODES.values())
    assert written - {c.value for c in FieldErrorCode} == set()


def test_the_response_examples_are_what_the_service_answers(app: Flask) -> None:
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    client = app.test_client()
    checked = 0
    for path, item in spec["paths"].items():
        operation = item.get("post")
        if operation is None:
            continue
        requests = operation["requestBody"]["content"]["application/json"]["examples"]
        answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
        assert set(answers) == set(requests), path
        for name, example in requests.items():
            live = client.post(path, json=example["value"]).get_json()
            assert live == answers[name]["value"], f"{path} {name}: run `make spec`"
            checked += 1
    assert checked == 30
