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

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.contract.claims import true_claims_of
from service.contract.evaluate import EVALUATE, ID_MAX_LENGTH, dump_evaluation, record_of
from service.contract.jsonio import PLAIN_MAX_CONTAINERS, BodyError, NotPlainError, parse_body, plain_items
from service.randomdeals import random_deal
from service.rules.deal import evaluate_deal

from .test_api_batch import ANSWER, _validator, post_lines, true_claims
from .test_api_plans import _nodes

DIGEST = _validator("DealDigest")

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
IDS = st.none() | st.text(max_size=12) | st.just("x" * (ID_MAX_LENGTH + 1)) | st.integers(-(2**53), 2**53)


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


def digest_of(full: dict[str, Any]) -> dict[str, Any]:
    """The digest (``detail=summary``) as the full answer states it: the reference."""
    violations = full["violations"]
    return {
        "id": full["id"],
        "status": full["status"],
        "valid": full["valid"],
        "violations": [
            {**v, "index": i, "consequences": sum(w["caused_by"] == i for w in violations)}
            for i, v in enumerate(violations)
            if v["caused_by"] is None
        ],
        "violation_count": len(violations),
        "scores": None if full["score"] is None else full["score"]["scores"],
        "claims": full["claims"],
        "ruling": full["ruling"],
        "unchecked": full["unchecked"],
    }


def single_item(client: FlaskClient, index: int, body: bytes, record: Any, summary: bool = False) -> dict[str, Any]:
    """The batch item the single evaluation of ``body`` stands for (its digest, with ``summary``)."""
    answer = client.post("/v1/deals/evaluate", data=body, content_type="application/json")
    document = answer.get_json()
    if answer.status_code == 200:
        if summary:
            return {"index": index, "id": document["id"], "digest": digest_of(document)}
        return {"index": index, "id": document["id"], "result": document}
    assert answer.status_code in (400, 422), document
    document.pop("instance")
    document["detail"] = BATCH_DETAILS[document["type"].rsplit("/", 1)[-1]]
    return {"index": index, "id": _id_echoed(record), "problem": document}


def expected_summary(items: list[dict[str, Any]]) -> dict[str, Any]:
    results = [item.get("result") or item["digest"] for item in items if "problem" not in item]
    claims = [r["claims"] for r in results if r["claims"] is not None]
    return {
        "deals": len(items),
        "valid": sum(r["valid"] for r in results),
        "in_progress": sum(r["valid"] and r["status"] == "in_progress" for r in results),
        "faulty": sum(not r["valid"] for r in results),
        "malformed": len(items) - len(results),
        "claims_checked": len(claims),
        "claims_disagree": sum(not c["agree"] for c in claims),
        "complete": True,
        "unevaluated_from": None,
    }


DETAIL = st.sampled_from([None, "full", "summary"])


def _query(detail: str | None) -> str:
    return "" if detail is None else f"?detail={detail}"


@SETTINGS
@given(records=batches(), detail=DETAIL)
def test_every_item_of_a_json_batch_is_the_single_answer(app: Flask, records: list[Any], detail: str | None) -> None:
    client = app.test_client()
    summary = detail == "summary"
    expected = [single_item(client, i, json.dumps(r).encode(), r, summary) for i, r in enumerate(records)]
    answer = client.post("/v1/deals/evaluate-batch" + _query(detail), json={"deals": records})
    assert answer.status_code == 200
    body = answer.get_json()
    ANSWER.validate(body)
    for item, single in zip(body["results"], expected, strict=True):
        assert item == single, f"item {single['index']}"
    assert body["summary"] == expected_summary(expected)


# Lines that are not JSON at all: a record cut short, words, a stray bracket.
BROKEN_LINES = st.sampled_from([b'{"players": 4,', b"not json", b"]", b'{"players": 4}}', b"\xff\xfe"])


@SETTINGS
@given(records=batches(), broken=st.lists(st.tuples(st.integers(0, 6), BROKEN_LINES), max_size=2), detail=DETAIL)
def test_every_line_of_an_ndjson_batch_is_the_single_answer(
    app: Flask, records: list[Any], broken: list[tuple[int, bytes]], detail: str | None
) -> None:
    client = app.test_client()
    lines: list[tuple[bytes, Any]] = [(json.dumps(r).encode(), r) for r in records]
    for where, line in broken:
        lines.insert(min(where, len(lines)), (line, None))
    brief = detail == "summary"
    expected = [single_item(client, i, line, record, brief) for i, (line, record) in enumerate(lines)]
    body = b"".join(line + b"\n" for line, _ in lines)
    items, summary = post_lines(client, body, query_string={} if detail is None else {"detail": detail})
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


@SETTINGS
@given(record=valid_records())
def test_a_single_digest_is_the_full_answer_reduced(app: Flask, record: dict[str, Any]) -> None:
    client = app.test_client()
    full = client.post("/v1/deals/evaluate", json=record).get_json()
    answer = client.post("/v1/deals/evaluate?detail=summary", json=record)
    assert answer.status_code == 200
    assert answer.mimetype == "application/vnd.tarot.deal-digest+json"
    digest = json.loads(answer.data)
    DIGEST.validate(digest)
    assert digest == digest_of(full)


@pytest.mark.parametrize("query", ["?detail=brief", "?detail=", "?detail=FULL", "?detail=full&detail=summary"])
@pytest.mark.parametrize(
    ("path", "kind"),
    [("/v1/deals/evaluate", "json"), ("/v1/deals/evaluate-batch", "json"), ("/v1/deals/evaluate-batch", "ndjson")],
)
def test_a_detail_not_offered_is_refused_naming_the_parameter(
    client: FlaskClient, path: str, kind: str, query: str
) -> None:
    deal = random_deal(7, 4)
    if kind == "ndjson":
        answer = client.post(path + query, data=json.dumps(deal) + "\n", content_type="application/x-ndjson")
    else:
        answer = client.post(path + query, json={"deals": [deal]} if path.endswith("batch") else deal)
    assert answer.status_code == 400
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["type"] == "/problems/invalid-parameter"
    [error] = problem["errors"]
    # A value said otherwise is hinted the one it names (`brief`: summary); a value given twice, none.
    meant = {"?detail=brief": "summary", "?detail=FULL": "full"}.get(query)
    assert error.pop("suggestions", None) == (None if meant is None else [meant])
    hint = error.pop("hint", None)
    assert (hint is None) is (meant is None) and (meant is None or meant in hint)
    assert error == {
        "pointer": "",
        "parameter": "detail",
        "code": "invalid_parameter",
        "message": "The query parameter detail takes one of: full, summary.",
    }


@SETTINGS
@given(record=valid_records())
def test_the_claims_read_from_the_evaluation_are_those_of_the_answer(record: dict[str, Any]) -> None:
    # The digest checks claims from the evaluation itself; the full answer's reading is the reference.
    req = EVALUATE.plan.load(record)
    evaluation = evaluate_deal(record_of(req))
    full = dump_evaluation(evaluation)
    assert true_claims_of(evaluation, record["players"]) == true_claims(full, record["players"])


@st.composite
def batch_bodies(draw: st.DrawFn) -> tuple[bytes, int | None]:
    """A JSON batch body as a client might write it (any spacing), often damaged after; with its
    number of records when it was left whole."""
    records = draw(st.lists(ODD_VALUES | st.dictionaries(st.sampled_from(["a", "b"]), ODD_VALUES), max_size=5))
    indent = draw(st.sampled_from([None, 0, 2]))
    separators = draw(st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " :\t")]))
    text = json.dumps({"deals": records}, indent=indent, separators=separators)
    damage = draw(st.sampled_from(["none", "none", "cut", "insert", "key", "twice", "bom", "escape"]))
    if damage == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from([",", "]", "}", " ", "NaN", '"x"', "{", "\n"])) + text[at:]
    elif damage == "key":
        text = text.rstrip()[:-1] + ', "other": 1}'
    elif damage == "twice":
        text = text.rstrip()[:-1] + ', "deals": []}'
    elif damage == "bom":
        text = "\ufeff" + text
    elif damage == "escape":
        text = text.replace('"deals"', '"\\u0064eals"', 1)
    return text.encode(), len(records) if damage == "none" else None


@settings(max_examples=400, deadline=None)
@given(drawn=batch_bodies(), limit=st.integers(0, 6))
def test_records_read_one_at_a_time_are_the_body_read_whole(drawn: tuple[bytes, int | None], limit: int) -> None:
    body, whole_count = drawn
    # The JSON form reads a plain batch record by record; anything else it reads whole. Read
    # record by record, a body must give exactly what reading it whole gives, or give way.
    try:
        whole: Any = parse_body(body)
    except BodyError:
        whole = None
    items: list[Any] = []
    try:
        for item in plain_items(body, "deals", limit):
            items.append(item)
        plain = True
    except NotPlainError:
        plain = False
    if whole_count is not None and whole_count <= limit:
        assert plain, "a batch plainly written, within the limit, is read record by record"
    if plain:
        assert isinstance(whole, dict) and list(whole) == ["deals"]
        assert whole["deals"] == items and len(items) <= limit
    elif isinstance(whole, dict) and isinstance(whole.get("deals"), list):
        assert items == whole["deals"][: len(items)]  # what was given before giving way


LONE_SURROGATES = st.sampled_from(["\ud800", "x\udfff", "\udc00\ud800", "ok"])


@settings(max_examples=60, deadline=None)
@given(record=valid_records(), text=LONE_SURROGATES, where=st.sampled_from(["id", "key", "card"]))
def test_text_that_is_not_unicode_is_answered_never_a_500(
    app: Flask, record: dict[str, Any], text: str, where: str
) -> None:
    # JSON can escape a lone surrogate (\ud800); a client's id or field name holding one is
    # echoed as such, in every form, never a failure to write the answer.
    if where == "id":
        record = {**record, "id": text}
    elif where == "key":
        record = {**record, text: 1}
    else:
        record = {**record, "plays": [text, *record["plays"][1:]]}
    client = app.test_client()
    body = json.dumps(record)
    single = client.post("/v1/deals/evaluate", data=body, content_type="application/json")
    assert single.status_code in (200, 422), single.data[:200]
    expected = single_item(client, 0, body.encode(), record)
    answer = client.post("/v1/deals/evaluate-batch", data='{"deals":[' + body + "]}", content_type="application/json")
    assert answer.get_json()["results"] == [expected]
    items, _ = post_lines(client, body.encode() + b"\n")
    assert items == [expected]


def test_an_item_nested_deeper_than_a_record_is_read_with_the_whole_body() -> None:
    # Alone, an item nested near the parser's depth limit could pass where, two levels deeper
    # in the whole body, it fails: such an item gives way to the whole body's reading.
    nested = "[" * (PLAIN_MAX_CONTAINERS + 1) + "]" * (PLAIN_MAX_CONTAINERS + 1)
    with pytest.raises(NotPlainError):
        list(plain_items(f'{{"deals": [{nested}]}}'.encode(), "deals", 5))
    within = "[" * PLAIN_MAX_CONTAINERS + "]" * PLAIN_MAX_CONTAINERS
    assert len(list(plain_items(f'{{"deals": [{within}]}}'.encode(), "deals", 5))) == 1
