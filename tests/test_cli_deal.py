"""``tarot-rules deal``: random deals, the same for the same seed, every one valid and complete.

The deals are made by the command (in process, ``main([...])``, and as the installed script),
then judged by the service itself: through the Flask test client one by one, and with their
claims by ``tarot-rules replay``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import randomdeals
from service.cli import main
from service.cli.deal_command import deal_lines, request_of
from service.contract.evaluate import EvaluateRequest
from service.randomdeals import random_record
from service.rules.cards import (
    EXCUSE_BIT,
    KING,
    KINGS,
    OUDLERS,
    RANK_OF,
    SUIT_OF,
    TRUMPS,
    count,
    mask_of,
    parse_card,
    suit_card,
)
from service.rules.cards import PLAIN_SUITS as SUITS
from service.rules.dealing import deal_deck
from service.rules.scoring import Contract
from service.rules.shuffle import shuffled_deck
from service.rules.table import TABLES
from service.rules.variants import ExcuseLastTrick, FirstLead, Rules

SCRIPT = Path(sys.executable).parent / "tarot-rules"
SEEDS = 100
CONTRACTS = [c.value for c in Contract]


# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


def deal_output(capsysbinary: pytest.CaptureFixture[bytes], *args: str) -> bytes:
    status = main(["deal", *args])
    out, err = capsysbinary.readouterr()
    assert status == 0, err
    assert err == b""
    return out


def records(out: bytes) -> list[dict[str, Any]]:
    assert out.endswith(b"\n")
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def generated() -> dict[int, list[dict[str, Any]]]:
    """SEEDS deals at each table, from seed 0: the lines the command prints (``run`` writes these)."""
    return {players: records(b"".join(deal_lines(players, 0, SEEDS, None, False))) for players in TABLES}


def test_the_same_seed_gives_the_same_bytes(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    args = ("--players", "5", "--seed", "1234", "--count", "20", "--id-prefix", "run-", "--claims")
    first = deal_output(capsysbinary, *args)
    assert deal_output(capsysbinary, *args) == first
    assert len(first.splitlines()) == 20
    # Two fresh processes, their string hashes salted differently: nothing may hang on set or dict order.
    runs = [
        subprocess.Popen(
            [str(SCRIPT), "deal", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONHASHSEED": salt},
        )
        for salt in ("1", "2")
    ]
    for run in runs:
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0, err
        assert out == first


def test_the_global_random_state_is_left_alone() -> None:
    random.seed(99)
    state = random.getstate()
    first = random_record(7, 4)
    assert random.getstate() == state
    random.seed(1)  # and it is not read either
    assert random_record(7, 4) == first


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_cards_are_the_deal_of_the_seed_as_text(client: FlaskClient, players: int) -> None:
    # rules.md §2.1, §2.2: the hands and dog are POST /v1/deals/deal's from the seed's decimal
    # text and the deal's dealer, or from SEED/1, SEED/2… after a petit sec.
    for seed in range(12):
        record = request_of(random_record(seed, players))
        for redeal in range(5):
            text = randomdeals.seed_text(seed, redeal)
            dealt = client.post("/v1/deals/deal", json={"players": players, "dealer": record["dealer"], "seed": text})
            if not dealt.get_json()["redeal"]:
                break
        assert (text == str(seed)) is (redeal == 0)
        assert (dealt.get_json()["hands"], dealt.get_json()["dog"]) == (record["hands"], record["dog"])


def test_a_petit_sec_is_dealt_again_from_the_next_seed_text() -> None:
    assert [randomdeals.seed_text(17, n) for n in range(3)] == ["17", "17/1", "17/2"]
    # Seed 129 at four players, dealer 0: the deck of "129" deals a petit sec (found by search),
    # so the same dealer deals the deck of "129/1".
    table = TABLES[4]
    assert deal_deck(shuffled_deck("129"), table, 0).petit_sec_seat is not None
    again = deal_deck(shuffled_deck("129/1"), table, 0)
    assert again.petit_sec_seat is None
    assert randomdeals.dealt_cards(129, table, 0) == ([mask_of(h) for h in again.hands], mask_of(again.dog))


def test_different_seeds_give_different_deals(generated: dict[int, list[dict[str, Any]]]) -> None:
    for deals in generated.values():
        assert len({json.dumps(d) for d in deals}) == SEEDS
        assert len({json.dumps(d["hands"]) for d in deals}) == SEEDS


def test_count_is_one_deal_per_seed_in_turn(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    many = deal_output(capsysbinary, "--players", "3", "--seed", "41", "--count", "3", "--id-prefix", "p")
    one_by_one = [
        deal_output(capsysbinary, "--players", "3", "--seed", str(s), "--id-prefix", "p") for s in (41, 42, 43)
    ]
    assert many == b"".join(one_by_one)
    assert [r["id"] for r in records(many)] == ["p41", "p42", "p43"]


def test_keys_come_in_the_request_order(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    order = list(EvaluateRequest().fields)
    for players in TABLES:
        (record,) = records(deal_output(capsysbinary, "--players", str(players), "--seed", "5", "--id-prefix", "x-"))
        assert list(record) == [k for k in order if k in record]
        assert "rules" not in record and "claims" not in record  # the FFT rules: left out


def check_bids(deal: dict[str, Any]) -> None:
    """One bid per seat from the dealer's right, each contract above the last; the last one takes."""
    n = deal["players"]
    assert len(deal["bids"]) == n
    named = [(i, CONTRACTS.index(b)) for i, b in enumerate(deal["bids"]) if b != "pass"]
    assert named, "nobody took"
    ranks = [rank for _, rank in named]
    assert ranks == sorted(set(ranks))
    last, rank = named[-1]
    assert deal["taker"] == (deal["dealer"] + 1 + last) % n
    assert deal["contract"] == CONTRACTS[rank]


def check_call(deal: dict[str, Any]) -> None:
    if deal["players"] != 5:
        assert deal["called_card"] is None
        return
    called = parse_card(deal["called_card"])
    hand = {parse_card(c) for c in deal["hands"][deal["taker"]]}
    assert SUIT_OF[called] in SUITS
    # A king, unless the taker holds all four: then lower, one rank per full set held.
    full_ranks = 0
    while full_ranks < 3 and all(suit_card(s, KING - full_ranks) in hand for s in SUITS):
        full_ranks += 1
    assert RANK_OF[called] == KING - full_ranks


def test_every_deal_is_valid_and_complete(client: FlaskClient, generated: dict[int, list[dict[str, Any]]]) -> None:
    seen: dict[str, int] = {name: 0 for name in ("overbid", "chelem", "alone", "garde_sans_contre")}
    contracts: set[str] = set()
    poignees = 0
    for players, deals in generated.items():
        for deal in deals:
            answer = client.post("/v1/deals/evaluate", json=deal).get_json()
            assert answer["violations"] == [], deal
            assert (answer["valid"], answer["status"]) == (True, "complete")
            assert answer["score"] is not None and sum(answer["score"]["scores"]) == 0
            check_bids(deal)
            check_call(deal)
            if deal["contract"] in ("prise", "garde"):
                assert len(deal["discard"]) == TABLES[players].dog_size
            else:
                assert deal["discard"] == []  # the dog stays unseen: nothing is discarded
                seen["garde_sans_contre"] += 1
            # Every poignée shown is accepted, at its tier, for its seat.
            assert [p["seat"] for p in answer["poignees"]] == [p["seat"] for p in deal["poignees"]]
            for shown, counted in zip(deal["poignees"], answer["poignees"], strict=True):
                tier = TABLES[players].poignee_sizes.index(len(shown["cards"]))
                assert counted["size"] == ("simple", "double", "triple")[tier]
            poignees += len(deal["poignees"])
            contracts.add(deal["contract"])
            seen["overbid"] += sum(b != "pass" for b in deal["bids"]) > 1
            seen["chelem"] += deal["chelem_announced"]
            seen["alone"] += players == 5 and answer["partner"] is None
    # What the sample covers: every contract, and each of the rarer cases at least once.
    assert contracts == set(CONTRACTS)
    assert poignees > 0
    assert all(seen.values()), seen


def test_deals_under_other_rules_follow_them(client: FlaskClient) -> None:
    rules = Rules(
        excuse_last_trick=ExcuseLastTrick.TRICK_WINNER,
        first_lead=FirstLead.AFTER_TAKER,
        petit_sec_ignores_excuse=True,
        called_suit_lead_ban=False,
    )
    for players in TABLES:
        for seed in range(10):
            request = request_of(random_record(seed, players, rules))
            assert request["rules"]["first_lead"] == "after_taker"
            answer = client.post("/v1/deals/evaluate", json=request).get_json()
            assert (answer["valid"], answer["status"]) == (True, "complete"), answer["violations"]


def test_claims_replay_and_agree(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    files = []
    for players in TABLES:
        out = deal_output(capsysbinary, "--players", str(players), "--seed", "500", "--count", "30", "--claims")
        for record in records(out):
            claims = record["claims"]
            assert list(claims) == [
                "valid",
                "trick_winners",
                "points",
                "oudlers",
                "partner",
                "scores",
                "first_violation",
                "ruling",
            ]
            assert claims["valid"] is True and claims["first_violation"] is None and claims["ruling"] is None
            assert len(claims["trick_winners"]) == TABLES[players].tricks
            assert (claims["partner"] is None) or players == 5
        path = tmp_path / f"deals_{players}p.ndjson"
        path.write_bytes(out)
        files.append(path)
    status = main(["replay", *map(str, files), "--jobs", "1", "--quiet"])
    out, _ = capsysbinary.readouterr()
    assert status == 0, out
    assert re.search(rb"^claims disagreeing +0$", out, re.M) and re.search(rb"^claims checked +90$", out, re.M)

    # The claims are checked, not waved through: one made false fails the replay.
    lines = files[0].read_bytes().splitlines()
    wrong = json.loads(lines[3])
    wrong["claims"]["scores"][0] += 1
    lines[3] = json.dumps(wrong).encode()
    files[0].write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", str(files[0]), "--jobs", "1", "--quiet"]) == 1
    capsysbinary.readouterr()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--players", "6", "--seed", "1"], b"invalid choice: 6"),
        (["--players", "4"], b"the following arguments are required: --seed"),
        (["--seed", "1"], b"the following arguments are required: --players"),
        (["--players", "4", "--seed", "-1"], b"not a whole number from 0: -1"),
        (["--players", "4", "--seed", "one"], b"not a whole number from 0: one"),
        (["--players", "4", "--seed", "1", "--count", "0"], b"not a whole number from 1: 0"),
    ],
)
def test_bad_arguments_exit_2_with_the_usage(
    capsysbinary: pytest.CaptureFixture[bytes], args: list[str], says: bytes
) -> None:
    assert main(["deal", *args]) == 2
    out, err = capsysbinary.readouterr()
    assert out == b""
    assert err.startswith(b"usage: tarot-rules deal") and says in err


def test_an_id_too_long_is_refused(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["deal", "--players", "3", "--seed", "9", "--count", "2", "--id-prefix", "x" * 199]) == 2
    out, err = capsysbinary.readouterr()
    assert out == b"" and b"--id-prefix" in err and b"200" in err


def test_the_core_refuses_what_it_cannot_deal() -> None:
    with pytest.raises(ValueError, match="No table of 6 players"):
        random_record(1, 6)
    with pytest.raises(ValueError, match="from 0"):
        random_record(-1, 4)  # random.Random(-1) would deal seed 1 again


def test_a_discard_takes_trumps_only_when_forced() -> None:
    # Random hands almost never force trumps into the discard (§4.2), so the case is set up here.
    rng = random.Random(3)
    plain = mask_of([suit_card(SUITS[0], 2), suit_card(SUITS[1], 5)])
    available = TRUMPS | EXCUSE_BIT | plain | (KINGS & ~(1 << suit_card(SUITS[3], KING)))  # 21 + 1 + 2 + 3 = 27
    for _ in range(20):
        discard = randomdeals.discard(rng, available, 6)
        assert count(discard) == 6 and discard & ~available == 0
        assert discard & plain == plain  # both plain cards, then four trumps: no king, no oudler
        assert count(discard & TRUMPS) == 4 and not discard & (KINGS | OUDLERS)
    roomy = available | mask_of([suit_card(SUITS[2], r) for r in range(1, 6)])
    assert not randomdeals.discard(rng, roomy, 6) & TRUMPS
