"""POST /v1/deals/evaluate-batch and claims, through the Flask test client.

The deals: the golden ones (cross-checked with other engines; their claims are those
engines' figures), random legal deals, and faulty ones made from them by swapping two plays.
Claims that agree must agree; a claim made false must disagree at exactly its pointer.
"""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.operations import batch
from service.app import create_app
from service.connection import DRAINING
from service.contract.records import LINE_MAX_BYTES
from service.randomdeals import random_deal
from tests.conftest import deal_request, golden, golden_claims
from tests.serving import ROOT

NDJSON = "application/x-ndjson"
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def _validator(component: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": SPEC["components"]}
    )


LINE = _validator("BatchLine")
ANSWER = _validator("BatchResponse")


def ndjson(records: list[Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def post_lines(client: FlaskClient, body: bytes, **kwargs: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The items and the summary of an NDJSON batch; every line checked against the contract."""
    answer = client.post("/v1/deals/evaluate-batch", data=body, content_type=NDJSON, **kwargs)
    assert answer.status_code == 200, answer.data[:300]
    assert answer.mimetype == NDJSON
    lines = [json.loads(line) for line in answer.data.splitlines()]
    for line in lines:
        LINE.validate(line)
    *items, last = lines
    assert set(last) == {"summary"}
    return items, last["summary"]


def true_claims(answer: dict[str, Any], players: int) -> dict[str, Any]:
    """Every claim, as the service's own single-deal answer has it."""
    first = answer["violations"][0] if answer["violations"] else None
    ruling = answer.get("ruling")
    scores = ruling["scores"] if ruling else None if answer["score"] is None else answer["score"]["scores"]
    return {
        "valid": answer["valid"],
        "trick_winners": [t["winner"] for t in answer["tricks"] if len(t["cards"]) == players],
        "points": None if answer["points"] is None else answer["points"]["attack"],
        "oudlers": None if answer["oudlers"] is None else answer["oudlers"]["attack"],
        "partner": answer["partner"],
        # A complete faulty deal scores by its ruling (rules.md §14): what a sheet writes.
        "scores": scores,
        "first_violation": None if first is None else {k: first[k] for k in ("code", "trick", "seat")},
        "ruling": None if not ruling else {k: ruling[k] for k in ("decision", "side_at_fault")},
    }


def faulty(deal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The deal with two of its plays swapped: nearly always a revoke or a card out of turn."""
    plays = list(deal["plays"])
    i, j = sorted(rng.sample(range(len(plays)), 2))
    plays[i], plays[j] = plays[j], plays[i]
    return {**deal, "plays": plays}


@pytest.fixture(scope="module")
def records(app: Flask) -> list[dict[str, Any]]:
    """Several hundred deals with their true claims: golden, random legal, random faulty."""
    client = app.test_client()
    rng = random.Random(20261123)
    out = [
        {"id": f"golden-{i}", **deal_request(d), "claims": golden_claims(d)}
        for i, d in enumerate(golden("deals.jsonl"))
    ]
    deals = [random_deal(seed, 3 + seed % 3) for seed in range(300)]
    deals += [faulty(random_deal(seed, 3 + seed % 3), rng) for seed in range(1000, 1200)]
    for i, deal in enumerate(deals):
        answer = client.post("/v1/deals/evaluate", json=deal).get_json()
        out.append({"id": f"random-{i}", **deal, "claims": true_claims(answer, deal["players"])})
    assert sum(not r["claims"]["valid"] for r in out) > 150, "the faulty deals are faulty"
    return out


def falsify(record: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """The record with one of its claims made false, and the pointer of that claim."""
    claims = dict(record["claims"])
    choices = ["valid", "trick_winners", "partner", "first_violation"]
    if claims["points"] is not None:
        choices += ["points", "oudlers"]
    if claims["scores"] is not None:
        choices.append("scores")
    name = rng.choice(choices)
    pointer = f"/claims/{name}"
    players = record["players"]
    if name == "valid":
        claims["valid"] = not claims["valid"]
    elif name == "trick_winners":
        k = rng.randrange(len(claims["trick_winners"]))
        winners = list(claims["trick_winners"])
        winners[k] = (winners[k] + 1) % players
        claims["trick_winners"] = winners
        pointer += f"/{k}"
    elif name == "partner":
        claims["partner"] = 0 if claims["partner"] is None else None
    elif name == "first_violation":
        first = claims["first_violation"]
        if first is None:
            claims["first_violation"] = {"code": "renounce", "trick": 3, "seat": 1}
        else:
            claims["first_violation"] = {**first, "seat": 0 if first["seat"] is None else (first["seat"] + 1) % players}
            pointer += "/seat"
    elif name == "points":
        claims["points"] = claims["points"] + 1 if claims["points"] < 90 else 10
    elif name == "oudlers":
        claims["oudlers"] = (claims["oudlers"] + 1) % 4
    else:
        k = rng.randrange(players)
        scores = list(claims["scores"])
        scores[k] += 10
        claims["scores"] = scores
        pointer += f"/{k}"
    return {**record, "claims": claims}, pointer


def test_true_claims_all_agree(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    items, summary = post_lines(client, ndjson(records))
    assert [item["index"] for item in items] == list(range(len(records)))
    assert [item["id"] for item in items] == [r["id"] for r in records]
    disagreeing = [(item["id"], item["result"]["claims"]) for item in items if not item["result"]["claims"]["agree"]]
    assert disagreeing == []
    faulty_count = sum(not r["claims"]["valid"] for r in records)
    assert summary == {
        "deals": len(records),
        "valid": len(records) - faulty_count,
        "in_progress": 0,
        "faulty": faulty_count,
        "malformed": 0,
        "claims_checked": len(records),
        "claims_disagree": 0,
        "complete": True,
        "unevaluated_from": None,
    }


def test_one_false_claim_each_disagrees_at_exactly_its_pointer(
    client: FlaskClient, records: list[dict[str, Any]]
) -> None:
    rng = random.Random(7)
    falsified = [falsify(r, rng) for r in records]
    items, summary = post_lines(client, ndjson([r for r, _ in falsified]))
    for item, (record, pointer) in zip(items, falsified, strict=True):
        claims = item["result"]["claims"]
        assert claims["agree"] is False, (record["id"], pointer)
        assert [m["pointer"] for m in claims["mismatches"]] == [pointer], record["id"]
        [mismatch] = claims["mismatches"]
        assert mismatch["message"]
        assert mismatch["claimed"] != mismatch["correct"]
    assert summary["claims_disagree"] == summary["claims_checked"] == len(records)
    assert {p.split("/")[2] for _, p in falsified} == {
        "valid", "trick_winners", "partner", "first_violation", "points", "oudlers", "scores",
    }  # fmt: skip


def test_malformed_lines_get_problems_and_the_lines_around_them_results(
    client: FlaskClient, records: list[dict[str, Any]]
) -> None:
    lines = [json.dumps(r).encode() for r in records[:40]]
    lines[17] = b'{"players": 4, "dealer": 0, "plays": ['  # cut in the middle
    lines[23] = json.dumps({**records[23], "dealer": "north"}).encode()
    items, summary = post_lines(client, b"\n".join(lines) + b"\n")
    assert len(items) == 40
    problems = {item["index"]: item for item in items if "problem" in item}
    assert set(problems) == {17, 23}
    assert problems[17]["problem"]["status"] == 400
    assert problems[17]["problem"]["errors"][0]["code"] == "malformed_json"
    assert problems[17]["id"] is None
    # The pointer points into the record itself; its id is echoed even beside a problem.
    assert problems[23]["id"] == records[23]["id"]
    assert problems[23]["problem"]["status"] == 422
    assert [(e["pointer"], e["code"]) for e in problems[23]["problem"]["errors"]] == [("/dealer", "type")]
    assert all("result" in item for item in items if item["index"] not in problems)
    assert (summary["deals"], summary["malformed"]) == (40, 2)


def test_the_json_form_answers_the_same_items(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    rng = random.Random(11)
    chosen = [falsify(r, rng)[0] if i % 3 == 0 else r for i, r in enumerate(records[:200])]
    chosen[50] = {"players": 4, "dealer": 0, "contract": "garde"}  # no taker
    chosen[51] = ["not", "an", "object"]
    items, summary = post_lines(client, ndjson(chosen))
    answer = client.post("/v1/deals/evaluate-batch", json={"deals": chosen})
    assert answer.status_code == 200
    body = answer.get_json()
    ANSWER.validate(body)
    assert body == {"results": items, "summary": summary}
    assert body["results"][51]["problem"]["errors"][0]["code"] == "type"


def test_a_single_evaluation_echoes_its_id_and_checks_its_claims(
    client: FlaskClient, records: list[dict[str, Any]]
) -> None:
    record = records[0]
    answer = client.post("/v1/deals/evaluate", json=record).get_json()
    assert answer["id"] == record["id"]
    assert answer["claims"] == {"agree": True, "mismatches": []}
    false, pointer = falsify(record, random.Random(3))
    answer = client.post("/v1/deals/evaluate", json=false).get_json()
    assert [m["pointer"] for m in answer["claims"]["mismatches"]] == [pointer]
    plain = client.post("/v1/deals/evaluate", json=deal_request(golden("deals.jsonl")[0])).get_json()
    assert plain["id"] is None and plain["claims"] is None


@pytest.mark.parametrize(
    ("claims", "pointers"),
    [
        ({}, []),
        ({"trick_winners": []}, ["/claims/trick_winners"]),  # none claimed, all complete
        ({"points": None}, ["/claims/points"]),  # a complete deal has points
        ({"scores": None}, ["/claims/scores"]),
        ({"scores": [0, 0, 0]}, ["/claims/scores"]),  # three marks for four seats
        ({"first_violation": {"code": "renounce", "trick": None, "seat": None}}, ["/claims/first_violation"]),
    ],
)
def test_claims_in_odd_shapes_are_located(
    client: FlaskClient, records: list[dict[str, Any]], claims: dict[str, Any], pointers: list[str]
) -> None:
    four = next(r for r in records if r["players"] == 4 and r["claims"]["valid"])
    answer = client.post("/v1/deals/evaluate", json={**four, "claims": claims}).get_json()
    assert [m["pointer"] for m in answer["claims"]["mismatches"]] == pointers
    assert answer["claims"]["agree"] is (not pointers)


def test_claims_of_a_deal_in_progress(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    deal = next(r for r in records if r["players"] == 4 and r["claims"]["valid"])
    started = {**deal, "plays": deal["plays"][:10]}  # two tricks and two cards
    answer = client.post("/v1/deals/evaluate", json={**started, "claims": {}}).get_json()
    assert answer["claims"] == {"agree": True, "mismatches": []}  # no claim: nothing to disagree with
    claims = {
        "valid": True,
        "trick_winners": deal["claims"]["trick_winners"][:2],
        "points": None,
        "scores": None,
        "first_violation": None,
    }
    answer = client.post("/v1/deals/evaluate", json={**started, "claims": claims}).get_json()
    assert answer["status"] == "in_progress"
    assert answer["claims"] == {"agree": True, "mismatches": []}


def test_claims_are_validated_like_the_rest_of_the_record(client: FlaskClient) -> None:
    deal = deal_request(golden("deals.jsonl")[0])
    bad = {"points": 40.25, "oudlers": 4, "trick_winners": [0, 9], "first_violation": {"code": "nope"}, "x": 1}
    answer = client.post("/v1/deals/evaluate", json={**deal, "claims": bad})
    assert answer.status_code == 422
    found = {(e["pointer"], e["code"]) for e in answer.get_json()["errors"]}
    assert found == {
        ("/claims/points", "half_point_grid"),
        ("/claims/oudlers", "range"),
        ("/claims/trick_winners/1", "seat_out_of_range"),
        ("/claims/first_violation/code", "enum"),
        ("/claims/first_violation/trick", "required"),
        ("/claims/first_violation/seat", "required"),
        ("/claims/x", "unknown_field"),
    }


# The body's edges: the bad-input corpus (tests/badinputs.py) sends these over real HTTP too.


def test_empty_lines_each_get_a_problem(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    body = b"\n" * 3000 + json.dumps(records[0]).encode() + b"\r\n" + b"  \n"
    items, summary = post_lines(client, body)
    assert len(items) == 3002
    assert {item["problem"]["errors"][0]["code"] for item in items[:3000]} == {"empty_line"}
    assert items[3000]["result"]["claims"]["agree"] is True  # CRLF endings are fine
    assert items[3001]["problem"]["errors"][0]["code"] == "empty_line"
    assert (summary["malformed"], summary["valid"]) == (3001, 1)


def test_a_huge_line_is_refused_alone(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    huge = b'{"id": "' + b"x" * 200_000 + b'"}'
    body = ndjson(records[:2]) + huge + b"\n" + ndjson(records[2:4])
    items, _ = post_lines(client, body)
    assert ["result" in item for item in items] == [True, True, False, True, True]
    assert items[2]["problem"]["status"] == 413
    assert items[2]["problem"]["errors"][0]["code"] == "line_too_long"
    assert [item["id"] for item in items] == [
        records[0]["id"],
        records[1]["id"],
        None,
        records[2]["id"],
        records[3]["id"],
    ]


def test_invalid_utf8_mid_stream_fails_its_line_only(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    body = ndjson(records[:2]) + b'{"id": "\xff\xfe"}\n' + ndjson(records[2:3])
    items, _ = post_lines(client, body)
    assert ["result" in item for item in items] == [True, True, False, True]
    assert "UTF-8" in items[2]["problem"]["errors"][0]["message"]


def test_a_body_cut_short_ends_the_stream_with_a_located_problem(
    client: FlaskClient, records: list[dict[str, Any]]
) -> None:
    body = ndjson(records[:3])
    cut = body[: len(body) - 100]  # the third line arrives in part
    items, summary = post_lines(client, cut, environ_overrides={"CONTENT_LENGTH": str(len(body))})
    assert ["result" in item for item in items] == [True, True, False]
    assert items[2]["problem"]["errors"][0]["code"] == "truncated_body"
    assert (summary["complete"], summary["unevaluated_from"], summary["deals"]) == (False, 2, 2)


def test_lines_past_the_limit_are_answered_as_not_evaluated(
    client: FlaskClient, records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "BATCH_MAX_LINES", 3)
    items, summary = post_lines(client, ndjson(records[:5]))
    assert [("result" in item) for item in items] == [True, True, True, False]
    assert items[3]["problem"]["errors"][0]["code"] == "too_many_lines"
    assert (summary["complete"], summary["unevaluated_from"]) == (False, 3)


def test_a_draining_instance_stops_at_a_line_boundary(records: list[dict[str, Any]]) -> None:
    app = create_app({"TESTING": True})
    app.config[DRAINING] = True
    items, summary = post_lines(app.test_client(), ndjson(records[:3]))
    assert [item["problem"]["errors"][0]["code"] for item in items] == ["draining"]
    assert items[0]["problem"]["status"] == 503
    assert (summary["complete"], summary["unevaluated_from"], summary["deals"]) == (False, 0, 0)


def test_an_empty_body_is_an_empty_batch(client: FlaskClient) -> None:
    _, summary = post_lines(client, b"")
    assert summary["deals"] == 0 and summary["complete"] is True
    bare = client.post("/v1/deals/evaluate-batch")
    assert bare.status_code == 200
    assert bare.get_json()["results"] == []


@pytest.mark.parametrize(
    ("body", "status", "pointer", "code"),
    [
        ({}, 422, "/deals", "required"),
        ({"deals": {}}, 422, "/deals", "type"),
        ({"deals": [{}] * 1001}, 422, "/deals", "length"),
        ({"deals": [], "extra": 1}, 422, "/extra", "unknown_field"),
    ],
)
def test_the_json_form_is_refused_whole_only_when_it_is_not_a_batch(
    client: FlaskClient, body: dict[str, Any], status: int, pointer: str, code: str
) -> None:
    answer = client.post("/v1/deals/evaluate-batch", json=body)
    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    assert [(e["pointer"], e["code"]) for e in answer.get_json()["errors"]] == [(pointer, code)]


def test_the_json_form_has_its_own_size_limit(client: FlaskClient, records: list[dict[str, Any]]) -> None:
    big = json.dumps({"deals": records[:500]}, indent=4).encode()
    assert 64 * 1024 < len(big) < 4 * 1024 * 1024
    assert client.post("/v1/deals/evaluate-batch", data=big, content_type="application/json").status_code == 200
    too_big = b'{"deals": [' + b" " * (4 * 1024 * 1024) + b"]}"
    answer = client.post("/v1/deals/evaluate-batch", data=too_big, content_type="application/json")
    assert answer.status_code == 413
    # The other operations keep their own limit.
    answer = client.post("/v1/deals/evaluate", data=big, content_type="application/json")
    assert answer.status_code == 413


def test_another_media_type_is_refused_naming_both(client: FlaskClient) -> None:
    answer = client.post("/v1/deals/evaluate-batch", data=b"x", content_type="text/csv")
    assert answer.status_code == 415
    assert answer.headers["Accept-Post"] == "application/json, application/x-ndjson"


def test_metrics_count_each_deal_and_each_record(records: list[dict[str, Any]]) -> None:
    app = create_app({"TESTING": True})
    client = app.test_client()
    post_lines(client, ndjson([*records[:5], {"players": 9}]))
    metrics = client.get("/metrics").get_data(as_text=True)
    evaluated = sum(
        float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("tarot_deal_evaluations_total{")
    )
    assert evaluated == 5
    assert 'tarot_batch_records_total{outcome="malformed"} 1.0' in metrics
    assert 'tarot_claims_checked_total{agree="true"} 5.0' in metrics


def test_the_readme_replay_example_answers_as_it_says(client: FlaskClient) -> None:
    body = (ROOT / "docs" / "examples" / "replay.ndjson").read_bytes()
    items, summary = post_lines(client, body)
    assert [item["id"] for item in items] == ["game-1", "game-2", "game-3", "game-4"]
    assert items[1]["result"]["claims"]["mismatches"][0]["pointer"] == "/claims/points"
    assert items[3]["result"]["violations"][0]["code"] == "renounce"
    assert (summary["valid"], summary["faulty"], summary["malformed"], summary["claims_disagree"]) == (2, 1, 1, 1)


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_a_record_of_exactly_the_line_limit_fits_whatever_its_line_ending(
    client: FlaskClient, records: list[dict[str, Any]], end: bytes
) -> None:
    record = json.dumps(records[0]).encode()
    exact = record[:-1] + b" " * (LINE_MAX_BYTES - len(record)) + b"}"
    over = exact[:-1] + b" }"
    assert len(exact) == LINE_MAX_BYTES
    items, _ = post_lines(client, exact + end + over + end)
    assert "result" in items[0]
    assert items[1]["problem"]["errors"][0]["code"] == "line_too_long"


def test_a_partner_not_known_yet_is_not_held_against_a_claim(client: FlaskClient) -> None:
    # Five players, no hands, the called card not played yet: who the partner is cannot be told.
    five = next(d for d in (random_deal(seed, 5) for seed in range(50)) if d["called_card"] not in d["plays"][:5])
    started = {k: v for k, v in five.items() if k not in ("hands", "dog", "discard")} | {"plays": five["plays"][:5]}
    answer = client.post("/v1/deals/evaluate", json={**started, "claims": {"partner": 3}}).get_json()
    assert answer["status"] == "in_progress" and answer["partner"] is None
    assert answer["claims"] == {"agree": True, "mismatches": []}


def test_a_complete_faulty_deal_is_claimed_by_its_ruling(client: FlaskClient) -> None:
    # rules.md §14: a complete faulty deal's score is its ruling's, what a score sheet writes.
    from service.contract.evaluate import EVALUATE

    deal = EVALUATE.examples["defenderRenounces"].request  # a defender renounces: the deal void
    ruling = client.post("/v1/deals/evaluate", json=deal).get_json()["ruling"]
    assert (ruling["decision"], ruling["side_at_fault"]) == ("void", "defence")
    assert ruling["scores"] != ruling["as_played_scores"]

    def claims(claimed: dict[str, Any], language: str = "en") -> dict[str, Any]:
        answer = client.post(
            "/v1/deals/evaluate", json={**deal, "claims": claimed}, headers={"Accept-Language": language}
        )
        checked: dict[str, Any] = answer.get_json()["claims"]
        return checked

    ruled = {"scores": ruling["scores"], "ruling": {"decision": "void", "side_at_fault": "defence"}}
    assert claims(ruled) == {"agree": True, "mismatches": []}
    # The marks as played: located at the scores, the ruling named.
    [mismatch] = claims({"scores": ruling["as_played_scores"]})["mismatches"]
    assert (mismatch["pointer"], mismatch["claimed"], mismatch["correct"]) == (
        "/claims/scores",
        ruling["as_played_scores"],
        ruling["scores"],
    )
    assert "marks as played" in mismatch["message"] and "the deal void" in mismatch["message"]
    [french] = claims({"scores": ruling["as_played_scores"]}, "fr")["mismatches"]
    assert "telles que jouées" in french["message"] and "donne annulée" in french["message"]
    # A ruling claimed wrong: each part at its pointer; none claimed where there is one.
    wrong = claims({"ruling": {"decision": "counted", "side_at_fault": "attack"}})["mismatches"]
    assert [m["pointer"] for m in wrong] == ["/claims/ruling/decision", "/claims/ruling/side_at_fault"]
    assert [m["pointer"] for m in claims({"ruling": None})["mismatches"]] == ["/claims/ruling"]


def test_a_valid_deal_has_no_ruling_to_claim(client: FlaskClient) -> None:
    deal = deal_request(golden("deals.jsonl")[0])
    answer = client.post(
        "/v1/deals/evaluate", json={**deal, "claims": {"ruling": {"decision": "void", "side_at_fault": None}}}
    )
    [mismatch] = answer.get_json()["claims"]["mismatches"]
    assert (mismatch["pointer"], mismatch["correct"]) == ("/claims/ruling", None)
    agreeing = client.post("/v1/deals/evaluate", json={**deal, "claims": {"ruling": None}})
    assert agreeing.get_json()["claims"]["agree"] is True


@settings(max_examples=20, deadline=None)
@given(
    deals=st.integers(0, 3), before=st.integers(0, 3), after=st.integers(0, 2), language=st.sampled_from(["en", "fr"])
)
def test_a_json_batch_sent_as_a_line_is_told_to_go_as_json(
    app: Flask, deals: int, before: int, after: int, language: str
) -> None:
    # The body of the JSON form, {"deals": [...]}, sent as NDJSON (one line): its "deals" is the
    # batch's, not a misspelt "dealer"; the line's problem says first to send it as application/json
    # (the record's other faults, no players, no dealer, follow from it).
    batch = {"deals": [random_deal(seed, 4) for seed in range(deals)]}
    lines = [random_deal(seed, 3) for seed in range(before)] + [batch] + [random_deal(seed, 5) for seed in range(after)]
    with app.test_client() as client:
        items, summary = post_lines(client, ndjson(lines), headers={"Accept-Language": language})
    problems = [item for item in items if "problem" in item]
    assert [item["index"] for item in problems] == [before]
    said = problems[0]["problem"]["errors"][0]
    assert (
        said["pointer"] == "/deals" and said["code"] == "unknown_field" and said["suggestions"] == ["application/json"]
    )
    assert '{"deals": [...]}' in said["hint"] and "application/json" in said["hint"]
    assert (summary["deals"], summary["malformed"]) == (before + 1 + after, 1)


def test_a_misspelt_dealer_is_still_told_so(client: FlaskClient) -> None:
    record = {k: v for k, v in random_deal(3, 4).items() if k != "dealer"}
    items, _ = post_lines(client, ndjson([{**record, "deals": 0}]))
    [said] = [e for e in items[0]["problem"]["errors"] if e["pointer"] == "/deals"]
    assert said["suggestions"] == ["dealer"]
