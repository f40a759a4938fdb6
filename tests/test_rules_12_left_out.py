"""rules.md §12, "What a record leaves out": missing data is never a fault.

A record may leave out every optional part: the hands, the dog, the discard, the bids (giving
the contract and taker), the chelem announcement, the poignées, the plays. Whatever the record
proves is checked as if it had been given; nothing else is charged to anyone, and ``unchecked``
says what could not be checked. The properties run over random legally played deals at three,
four and five players, complete or cut short anywhere, with any set of parts left out, through
the service as a client calls it.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.contract.verdicts import UNCHECKED_POINTER
from service.randomdeals import random_record, request_of
from service.rules.replay import opening_leader
from service.rules.verdicts import Unchecked

from .mutations import faulty

ROOT = Path(__file__).parent.parent
REPLAY = ROOT / "docs" / "examples" / "replay.ndjson"

PARTS = ("hands", "dog", "discard", "bids", "contract_and_taker", "chelem_announced", "poignees", "plays")
"""The optional parts of a record, as a client may leave them out (``contract_and_taker`` only
where the bids are given, which then name them)."""


def left_out(request: dict[str, Any], parts: frozenset[str]) -> dict[str, Any]:
    out = dict(request)
    for part in parts:
        if part == "contract_and_taker":
            del out["contract"], out["taker"]
        else:
            out.pop(part, None)
    return out


def evaluate(client: FlaskClient, body: dict[str, Any], language: str = "en") -> dict[str, Any]:
    answer = client.post("/v1/deals/evaluate", json=body, headers={"Accept-Language": language})
    assert answer.status_code == 200, answer.get_json()
    document: dict[str, Any] = answer.get_json()
    return document


@cache
def announcing_seeds(players: int) -> list[int]:
    """Seeds whose random deal has a chelem announced: rare (§9.6), so drawn from on purpose;
    it is where leaving out the announcement or the hands changes who led."""
    return [seed for seed in range(600) if random_record(seed, players).chelem_announced]


@st.composite
def records_left_out(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], frozenset[str]]:
    """A legal deal (complete or cut short anywhere), and the same with some of its parts left out."""
    players = draw(st.sampled_from([3, 4, 5]))
    auction = draw(st.booleans())
    seed = draw(st.integers(0, 2**32) | st.sampled_from(announcing_seeds(players)))
    full = request_of(random_record(seed, players, auction=auction))
    cut = draw(st.just(len(full["plays"])) | st.integers(0, len(full["plays"])))
    full["plays"] = full["plays"][:cut]
    candidates = [p for p in PARTS if p != "contract_and_taker" or auction]
    parts = frozenset(draw(st.sets(st.sampled_from(candidates), min_size=1)))
    if "bids" in parts:
        parts -= {"contract_and_taker"}  # one of the two must name the taker
    return full, left_out(full, parts), parts


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(records_left_out())
def test_12_no_part_left_out_is_judged_a_fault(
    client: FlaskClient, case: tuple[dict[str, Any], dict[str, Any], frozenset[str]]
) -> None:
    full, partial, parts = case
    whole = evaluate(client, full)
    assert whole["valid"], whole["violations"]
    answer = evaluate(client, partial)
    assert answer["valid"], (sorted(parts), answer["violations"], answer["unchecked"])
    assert answer["violations"] == [] and answer["ruling"] is None
    complete = whole["status"] == "complete" and "plays" not in parts
    assert answer["status"] == ("complete" if complete else "in_progress")
    # Each part said not checked is one the record left out, pointed at where it would be.
    codes = {u["code"] for u in answer["unchecked"]}
    for u in answer["unchecked"]:
        assert u["pointer"].lstrip("/") not in partial, (u, sorted(parts))
    assert ("dealt_hands" in codes) == ("hands" in parts)
    assert ("auction" in codes) == ("bids" not in partial)
    if "hands" not in parts:
        # Whole hands prove the dog: it is told, never listed.
        assert "dog" not in codes
    if complete and "hands" not in parts:
        # A complete deal proves its discard: told and checked, and the deal read as played.
        assert "discard" not in codes
        assert [t["winner"] for t in answer["tricks"]] == [t["winner"] for t in whole["tricks"]]
        assert answer["points"] == whole["points"]
        if not parts & {"poignees", "chelem_announced"}:
            assert answer["score"] == whole["score"]


READ = {
    "hands": "dealt_hands",
    "dog": "dog",
    "discard": "discard",
    "bids": "auction",
    "chelem_announced": "chelem_announcement",
}
"""The parts whose absence the service reads (§12), and the ``unchecked`` code that says so. The
others are what the record says: no ``poignees`` is none shown, no ``plays`` a deal not yet
played, the bids name the contract and taker."""


def verdict(answer: dict[str, Any]) -> tuple[Any, ...]:
    return answer["valid"], [v["code"] for v in answer["violations"]], answer["ruling"], answer["score"]


@SETTINGS
@given(records_left_out())
def test_12_a_part_left_out_that_changes_the_verdict_or_score_is_named(
    client: FlaskClient, case: tuple[dict[str, Any], dict[str, Any], frozenset[str]]
) -> None:
    # Given back alone, a part left out must give the same verdict and score, or the answer
    # without it names it: a reading of what is missing is never silent.
    full, partial, parts = case
    answer = evaluate(client, partial)
    codes = {u["code"] for u in answer["unchecked"]}
    for part in sorted(parts & READ.keys()):
        with_it = evaluate(client, left_out(full, parts - {part}))
        if verdict(with_it) != verdict(answer):
            assert READ[part] in codes, (part, sorted(parts), answer["unchecked"], with_it["score"], answer["score"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_12_a_chelem_announcement_left_out_is_read_from_the_first_lead(
    client: FlaskClient, data: st.DataObject
) -> None:
    players = data.draw(st.sampled_from([3, 4, 5]))
    seed = data.draw(st.integers(0, 2**32) | st.sampled_from(announcing_seeds(players)))
    record = random_record(seed, players)
    assert record.taker is not None
    full = request_of(record)
    whole, answer = evaluate(client, full), evaluate(client, left_out(full, frozenset({"chelem_announced"})))
    assert answer["valid"], answer["violations"]
    due = opening_leader(record.dealer, record.taker, players, False, record.rules)
    read_as_announced = bool(record.chelem_announced) and due != record.taker
    assert answer["chelem"]["announced"] is read_as_announced
    # Said whenever it was read from the lead, and whenever the lead cannot tell (the taker is
    # due to lead either way), each time with how it was read.
    said = [u["message"] for u in answer["unchecked"] if u["code"] == "chelem_announcement"]
    assert len(said) == (read_as_announced or due == record.taker)
    assert all(("read as announced" in m) is read_as_announced for m in said)
    assert all(("read as not announced" in m) is not read_as_announced for m in said)
    if read_as_announced or not record.chelem_announced:
        assert answer["score"] == whole["score"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_12_without_hands_or_announcement_the_reading_free_of_faults_is_taken(
    client: FlaskClient, data: st.DataObject
) -> None:
    # Without hands, who led the first trick shows nowhere but in what the seats then show
    # (poignées): read with the seat due leading, an announced chelem's record may show faults
    # that read with the taker leading it does not.
    players = data.draw(st.sampled_from([3, 4, 5]))
    record = random_record(data.draw(st.sampled_from(announcing_seeds(players))), players)
    answer = evaluate(client, left_out(request_of(record), frozenset({"hands", "chelem_announced"})))
    assert answer["valid"], answer["violations"]
    # However it is read, it is said: nothing in the record shows who led.
    [said] = [u["message"] for u in answer["unchecked"] if u["code"] == "chelem_announcement"]
    assert ("read as announced" in said) is answer["chelem"]["announced"]


# -- The cases a client met -------------------------------------------------------------------


def game_1() -> dict[str, Any]:
    """A complete, valid garde with a chelem announced and made, the taker leading."""
    record: dict[str, Any] = json.loads(REPLAY.read_text(encoding="utf-8").splitlines()[0])
    record.pop("claims")
    return record


@pytest.mark.parametrize(
    "parts",
    [frozenset(c) for k in (1, 2, 3) for c in combinations(("dog", "discard", "chelem_announced", "poignees"), k)],
    ids=lambda parts: "+".join(sorted(parts)),
)
def test_12_the_example_deal_without_its_parts_is_valid_and_scored(client: FlaskClient, parts: frozenset[str]) -> None:
    whole = evaluate(client, game_1())
    answer = evaluate(client, left_out(game_1(), parts))
    assert answer["valid"] and answer["violations"] == [] and answer["ruling"] is None
    assert answer["points"] == whole["points"] and answer["tricks"] == whole["tricks"]
    if "poignees" not in parts:
        assert answer["score"] == whole["score"]  # the taker led: the chelem read as announced


def test_12_a_record_without_its_dog_answers_as_with_it(client: FlaskClient) -> None:
    assert evaluate(client, left_out(game_1(), frozenset({"dog"}))) == evaluate(client, game_1())


def test_12_an_empty_dog_is_what_the_record_says_not_a_part_left_out(client: FlaskClient) -> None:
    # `dog: []` says the dog was empty: six cards dealt to nobody, a fault of the deal (§14.5).
    answer = evaluate(client, {**game_1(), "dog": []})
    assert not answer["valid"] and answer["ruling"]["decision"] == "redeal"


def test_12_without_its_discard_the_taker_is_held_to_the_cards_he_plays(client: FlaskClient) -> None:
    # In progress, the discard not given: any card of the taker's hand and dog he has not played
    # may be in it, so none is held against him, and his legal cards are not known.
    record = left_out(game_1(), frozenset({"discard"}))
    for cut in range(0, 72, 4):
        answer = evaluate(client, {**record, "plays": record["plays"][:cut]})
        assert answer["valid"], (cut, answer["violations"])
        assert [u["code"] for u in answer["unchecked"]] == ["auction", "discard"]
        if answer["next"]["seat"] == record["taker"]:
            assert answer["next"]["legal"] is None
        else:
            assert answer["next"]["legal"] is not None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_12_a_discard_the_complete_deal_proves_is_checked(client: FlaskClient, players: int) -> None:
    # A king discarded and a discarded card played in its place: with the discard left out, the
    # cards the complete deal left unplayed are the discard, and the king among them is the
    # taker's fault as if he had written it (§4.2); so is every other fault the record proves.
    checked = 0
    for mutation, full in faulty("discard_king_swapped", range(40), players):
        partial = left_out(mutation.deal, frozenset({"discard"}))
        answer = evaluate(client, partial)
        assert [v["code"] for v in answer["violations"]][:1] == ["discard_king_or_bout"], answer["violations"]
        assert answer["violations"][0]["seat"] == mutation.seat == full.taker
        assert "discard" not in {u["code"] for u in answer["unchecked"]}
        checked += 1
    assert checked


@pytest.mark.parametrize("language", ["en", "fr"])
def test_12_every_part_left_out_is_said_in_both_languages(client: FlaskClient, language: str) -> None:
    record = left_out(game_1(), frozenset({"hands", "discard", "chelem_announced"}))
    answer = evaluate(client, {**record, "plays": record["plays"][:9]}, language)
    codes = ["dealt_hands", "auction", "discard", "chelem_announcement"]
    assert [u["code"] for u in answer["unchecked"]] == codes
    assert [u["pointer"] for u in answer["unchecked"]] == ["/hands", "/bids", "/discard", "/chelem_announced"]
    assert all(u["message"] for u in answer["unchecked"])


def test_12_every_unchecked_code_has_its_pointer() -> None:
    assert set(UNCHECKED_POINTER) == set(Unchecked)
