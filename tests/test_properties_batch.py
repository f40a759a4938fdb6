"""A batch item is the single evaluation's answer (rules.md §2–§9, batch evaluation).

Whatever the records of a batch — all valid, all refused, not objects at all, not JSON, mixed
or none — each item, in either form of ``POST /v1/deals/evaluate-batch``, is what
``POST /v1/deals/evaluate`` answers for that record alone: its answer as ``result``, or its
problem as ``problem`` (without ``instance``, its ``detail`` speaking of a record or line).

This pins a class of fault rather than one example: the JSON form once refused every valid
record while the NDJSON form and any batch holding one bad record were answered correctly,
because the two forms reached the records through different loaders.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api.operations.evaluate import ID_MAX_LENGTH

from .dealgen import random_deal
from .test_api_batch import ANSWER, post_lines

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The batch's own wording of a problem's detail: about a record (JSON) or a line (NDJSON).
BATCH_DETAILS = {
    "invalid-request": "The record is well-formed JSON but not a valid deal record.",
    "malformed-json": "The line is not valid JSON.",
}

ODD_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 100) | st.sampled_from(["", "x", "KS", "EX", "garde", "attack"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["seat", "cards", "x"]), inner),
    max_leaves=5,
)
NOT_OBJECTS = st.sampled_from([None, 3, 2.5, True, "deal", [], [1, 2], [{"players": 4}]])
IDS = st.none() | st.text(max_size=12) | st.just("x" * (ID_MAX_LENGTH + 1)) | st.integers()


@st.composite
def valid_records(draw: st.DrawFn) -> dict[str, Any]:
    """A legally played deal, or one with two plays swapped (a faulty deal is a valid request),
    complete or cut short, with an id and claims or without."""
    deal = random_deal(draw(st.integers(0, 10_000)), draw(st.sampled_from([3, 4, 5])))
    plays = list(deal["plays"])
    if draw(st.booleans()):
        i, j = draw(st.lists(st.integers(0, len(plays) - 1), min_size=2, max_size=2, unique=True))
        plays[i], plays[j] = plays[j], plays[i]
    deal["plays"] = plays[: draw(st.sampled_from([len(plays), len(plays), len(plays) // 2, 0]))]
    if draw(st.booleans()):
        deal["id"] = draw(st.text(max_size=ID_MAX_LENGTH))
    if draw(st.booleans()):
        deal["claims"] = {"valid": draw(st.booleans())}
    return deal


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        out += [p for key, item in value.items() for p in _nodes(item, (*path, key))]
    elif isinstance(value, list):
        out += [p for i, item in enumerate(value) for p in _nodes(item, (*path, i))]
    return out


@st.composite
def refused_records(draw: st.DrawFn) -> Any:
    """A valid record with one place replaced, removed or added to: refused, usually."""
    record = copy.deepcopy(draw(valid_records()))
    where = draw(st.sampled_from(_nodes(record)[1:]))
    parent = record
    for key in where[:-1]:
        parent = parent[key]
    action = draw(st.sampled_from(["replace", "delete", "extra", "id"]))
    if action == "replace":
        parent[where[-1]] = draw(ODD_VALUES)
    elif action == "delete":
        del parent[where[-1]]
    elif action == "id":
        record["id"] = draw(IDS)
    elif isinstance(parent, dict):
        parent["unknown_field"] = draw(ODD_VALUES)
    return record


RECORDS = {"valid": valid_records(), "refused": refused_records(), "not_object": NOT_OBJECTS}


@st.composite
def batches(draw: st.DrawFn) -> list[Any]:
    """Records all of one kind, mixed, or none."""
    kind = draw(st.sampled_from(["valid", "refused", "not_object", "mixed", "empty"]))
    if kind == "empty":
        return []
    one = st.one_of(*RECORDS.values()) if kind == "mixed" else RECORDS[kind]
    return draw(st.lists(one, min_size=1, max_size=6))


def _id_echoed(record: Any) -> Any:
    value = record.get("id") if isinstance(record, dict) else None
    return value if isinstance(value, str) and len(value) <= ID_MAX_LENGTH else None


def single_item(client: FlaskClient, index: int, body: bytes, record: Any) -> dict[str, Any]:
    """The batch item the single evaluation of ``body`` stands for."""
    answer = client.post("/v1/deals/evaluate", data=body, content_type="application/json")
    document = answer.get_json()
    if answer.status_code == 200:
        return {"index": index, "id": document["id"], "result": document}
    assert answer.status_code in (400, 422), document
    document.pop("instance")
    document["detail"] = BATCH_DETAILS[document["type"].rsplit("/", 1)[-1]]
    return {"index": index, "id": _id_echoed(record), "problem": document}


def expected_summary(items: list[dict[str, Any]]) -> dict[str, Any]:
    results = [item["result"] for item in items if "result" in item]
    claims = [r["claims"] for r in results if r["claims"] is not None]
    return {
        "deals": len(items),
        "valid": sum(r["valid"] for r in results),
        "faulty": sum(not r["valid"] for r in results),
        "malformed": len(items) - len(results),
        "claims_checked": len(claims),
        "claims_disagree": sum(not c["agree"] for c in claims),
        "complete": True,
        "unevaluated_from": None,
    }


@SETTINGS
@given(records=batches())
def test_every_item_of_a_json_batch_is_the_single_answer(app: Flask, records: list[Any]) -> None:
    client = app.test_client()
    expected = [single_item(client, i, json.dumps(r).encode(), r) for i, r in enumerate(records)]
    answer = client.post("/v1/deals/evaluate-batch", json={"deals": records})
    assert answer.status_code == 200
    body = answer.get_json()
    ANSWER.validate(body)
    for item, single in zip(body["results"], expected, strict=True):
        assert item == single, f"item {single['index']}"
    assert body["summary"] == expected_summary(expected)


# Lines that are not JSON at all: a record cut short, words, a stray bracket.
BROKEN_LINES = st.sampled_from([b'{"players": 4,', b"not json", b"]", b'{"players": 4}}', b"\xff\xfe"])


@SETTINGS
@given(records=batches(), broken=st.lists(st.tuples(st.integers(0, 6), BROKEN_LINES), max_size=2))
def test_every_line_of_an_ndjson_batch_is_the_single_answer(
    app: Flask, records: list[Any], broken: list[tuple[int, bytes]]
) -> None:
    client = app.test_client()
    lines: list[tuple[bytes, Any]] = [(json.dumps(r).encode(), r) for r in records]
    for where, line in broken:
        lines.insert(min(where, len(lines)), (line, None))
    expected = [single_item(client, i, line, record) for i, (line, record) in enumerate(lines)]
    items, summary = post_lines(client, b"".join(line + b"\n" for line, _ in lines))
    for item, single in zip(items, expected, strict=True):
        assert item == single, f"line {single['index']}"
    assert summary == expected_summary(expected)


def test_an_all_valid_json_batch_of_every_table_size_is_evaluated(client: FlaskClient) -> None:
    # The defect's own shape, named: every record valid, so no record sends the batch down
    # another path.
    records = [random_deal(seed, players) for seed in range(3) for players in (3, 4, 5)]
    body = client.post("/v1/deals/evaluate-batch", json={"deals": records}).get_json()
    assert [("result" in item) for item in body["results"]] == [True] * len(records)
    items, _ = post_lines(client, b"".join(json.dumps(r).encode() + b"\n" for r in records))
    assert body["results"] == items
