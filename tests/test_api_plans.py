"""Load plans (service.contract.plans) load exactly as marshmallow does, or hand over to it.

A plan must return what ``schema.load`` returns for every request marshmallow accepts that
the plan takes, and must never accept a request that marshmallow refuses. The plans tested
are the ones served, for every operation there is: a new operation is covered, or this fails.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import marshmallow as ma
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, pre_load, validates

from service.contract.common import StrictSchema
from service.contract.components import ENUM_COMPONENTS
from service.contract.operations import OPERATIONS
from service.contract.plans import FaultError, LoadPlan
from service.randomdeals import random_deal
from service.rules.cards import CARD_CODES

from .badinputs import corpus, valid_bodies
from .conftest import deal_request, golden
from .serving import ROOT

BIDS = ENUM_COMPONENTS["Bid"]["enum"]

_SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
PATHS = {item["post"]["operationId"]: path for path, item in _SPEC["paths"].items() if "post" in item}
SCHEMAS: dict[str, ma.Schema] = {PATHS[name]: op.request_schema for name, op in OPERATIONS.items()}
PLANS = {PATHS[name]: op.plan for name, op in OPERATIONS.items()}

BATCH = "/v1/deals/evaluate-batch"
BODIES = {**valid_bodies(), BATCH: {"deals": [random_deal(1, 3), {**random_deal(2, 5), "id": "b"}]}}
"""A valid body for every operation."""


def outcome(load: Callable[[Any], Any], data: Any) -> tuple[bool, Any]:
    """(accepted, loaded value) of one load."""
    try:
        return True, load(copy.deepcopy(data))
    except (ValidationError, FaultError):
        return False, None


def assert_same(path: str, data: Any) -> bool:
    """The plan takes ``data`` only if marshmallow does, and to the same value; whether it did."""
    accepted, loaded = outcome(SCHEMAS[path].load, data)
    planned, value = outcome(PLANS[path].load_valid, data)
    assert not planned or accepted, f"the plan accepted what marshmallow refuses: {data!r}"
    if planned:
        assert value == loaded
    # And the plan's load, whichever way it goes, is marshmallow's.
    if accepted:
        assert PLANS[path].load(copy.deepcopy(data)) == loaded
    else:
        with pytest.raises(ValidationError):
            PLANS[path].load(copy.deepcopy(data))
    return planned


def test_every_operation_has_a_valid_body_and_a_served_plan() -> None:
    assert set(BODIES) == {PATHS[name] for name in OPERATIONS}
    assert all(plan.schema is SCHEMAS[path] for path, plan in PLANS.items())


def valid_requests() -> list[tuple[str, dict[str, Any]]]:
    out = list(BODIES.items())
    # Every operation's documented request examples: valid, by the contract's word.
    out += [(PATHS[name], example.request) for name, op in OPERATIONS.items() for example in op.examples.values()]
    # Batches whose every record is valid: no record sends the batch to marshmallow's load.
    out += [(BATCH, {"deals": [random_deal(seed, n) for n in (3, 4, 5)]}) for seed in range(3)]
    out += [(BATCH, {"deals": []})]
    out += [("/v1/deals/evaluate", deal_request(d)) for d in golden("deals.jsonl")]
    out += [
        ("/v1/tricks/legal-cards", {k: row[k] for k in ("players", "hand", "trick", "first_trick", "called_card")})
        for row in golden("legal_positions.jsonl")
    ]
    out += [("/v1/deals/evaluate", random_deal(seed, n)) for seed in range(10) for n in (3, 4, 5)]
    rules = {"excuse_last_trick": "trick_winner", "first_lead": "after_taker", "pousse_alias": True}
    with_rules = [path for path, schema in SCHEMAS.items() if "rules" in schema.fields]
    out += [(path, {**BODIES[path], "rules": rules}) for path in with_rules]
    summary = valid_bodies()["/v1/deals/score"]
    out.append(("/v1/deals/score", {**summary, "poignees": [{"side": "attack", "size": "simple"}]}))
    out.append(("/v1/deals/score", {**summary, "chelem": {"announced": True}}))
    return out


@pytest.mark.parametrize(("path", "body"), valid_requests())
def test_valid_requests_take_the_plan_to_marshmallows_value(path: str, body: dict[str, Any]) -> None:
    assert assert_same(path, body), "a valid request should not need the full load"


@pytest.mark.parametrize("case", [c for c in corpus() if c.path in SCHEMAS], ids=lambda c: c.id)
def test_the_bad_input_corpus_is_refused_by_both(case: Any) -> None:
    try:
        data = json.loads(case.body)
    except (ValueError, RecursionError):
        return  # not JSON, or nested too deeply: refused before any schema
    assert_same(case.path, data)


# Values a fuzzer or a careless client puts anywhere in a request.
ODD_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([*CARD_CODES[:3], "EX", "21T", "KH", *BIDS, "attack", "defence", "simple", "", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["seat", "cards", "x"]), inner),
    max_leaves=6,
)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        out += [p for key, item in value.items() for p in _nodes(item, (*path, key))]
    elif isinstance(value, list):
        out += [p for i, item in enumerate(value) for p in _nodes(item, (*path, i))]
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SCHEMAS)), st.data())
def test_mutated_requests_are_never_taken_wrongly(path: str, data: st.DataObject) -> None:
    body = copy.deepcopy(BODIES[path])
    for _ in range(data.draw(st.integers(1, 3))):
        nodes = _nodes(body)[1:]
        if not nodes:
            break
        where = data.draw(st.sampled_from(nodes))
        parent = body
        for key in where[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "null", "extra"]))
        last = where[-1]
        if action == "replace":
            parent[last] = data.draw(ODD_VALUES)
        elif action == "delete":
            del parent[last]
        elif action == "null":
            parent[last] = None
        elif isinstance(parent, dict):
            parent["unknown_field"] = data.draw(ODD_VALUES)
    assert_same(path, body)


def test_a_plan_refuses_schemas_it_cannot_run() -> None:
    class PlainSchema(Schema):
        x = fields.Integer()

    class FieldHook(StrictSchema):
        x = fields.Integer()

        @validates("x")
        def positive(self, value: int, **kwargs: Any) -> None:
            if value < 0:
                raise ValidationError("negative")

    class PreLoad(StrictSchema):
        x = fields.Integer()

        @pre_load
        def strip(self, data: Any, **kwargs: Any) -> Any:
            return data

    for schema in (PlainSchema(), FieldHook(), PreLoad()):
        with pytest.raises(TypeError):
            LoadPlan(schema)
    nested = StrictSchema.from_dict({"inner": fields.Nested(FieldHook)})
    with pytest.raises(TypeError):
        LoadPlan(nested())
