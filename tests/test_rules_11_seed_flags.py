"""§11: the seeds' last readings as flags, each changing exactly what its rule says.

- ``discard_kings_when_forced`` (the FFT Code text, §4.2): kings in the discard of a hand of kings and
  trumps only;
- ``petit_au_bout_to_taker`` (the French Tarot rules page, §9.4): the Petit au bout's bonus to the taker's side;
- ``deal_errors_after_contract: disregarded`` (the FFT Code text, §14.5): a fault of the deal scored as
  played.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from flask.testing import FlaskClient

from service.randomdeals import play_out, random_record, request_of
from service.rules.cards import EXCUSE, KINGS, PETIT, TRUMPS, Card, cards_of, mask_of, trump
from service.rules.deal import Evaluation, evaluate_deal
from service.rules.record import DealRecord
from service.rules.scoring import Contract, Side
from service.rules.table import TABLES
from service.rules.variants import DealErrors, Rules
from service.rules.verdicts import Decision, RulingReason, ViolationCode

KINGS_FLAG = Rules(discard_kings_when_forced=True)
PETIT_FLAG = Rules(petit_au_bout_to_taker=True)
DISREGARDED = Rules(deal_errors_after_contract=DealErrors.DISREGARDED)


def kings_and_trumps_deal(players: int, discard: list[Card], rules: Rules) -> DealRecord:
    """A garde whose taker (seat 0) holds, with the dog, only kings and trumps: the four kings
    and the highest trumps; the Petit is another seat's, beside the Excuse (no petit sec)."""
    table = TABLES[players]
    rng = random.Random(players)
    trumps = sorted(cards_of(TRUMPS & ~(1 << PETIT)), reverse=True)
    taker_cards = [*cards_of(KINGS), *trumps][: table.hand_size + table.dog_size]
    if players == 3:
        pytest.skip("at three players hand and dog (30 cards) cannot all be kings and trumps (26)")
    rest = [c for c in range(78) if c not in taker_cards]
    rng.shuffle(rest)
    rest.remove(PETIT)
    rest.remove(EXCUSE)
    rest[:0] = [PETIT, EXCUSE]  # the same seat holds both
    others = [rest[i * table.hand_size : (i + 1) * table.hand_size] for i in range(players - 1)]
    assert not rest[(players - 1) * table.hand_size :]
    dog = taker_cards[: table.dog_size]
    hands = [taker_cards[table.dog_size :], *others]
    play_hands = [mask_of(h) for h in hands]
    play_hands[0] = (play_hands[0] | mask_of(dog)) & ~mask_of(discard)
    called = next(iter(cards_of(KINGS))) if players == 5 else None
    plays = play_out(rng, play_hands, 1, called, rules)
    return DealRecord(
        players=players,
        dealer=0,
        plays=tuple(plays),
        hands=tuple(tuple(sorted(h)) for h in hands),
        dog=tuple(dog),
        contract=Contract.GARDE,
        taker=0,
        called_card=called,
        discard=tuple(discard),
        rules=rules,
    )


@pytest.mark.parametrize("players", [4, 5])
def test_4_2_kings_discarded_from_kings_and_trumps_only(players: int) -> None:
    size = TABLES[players].dog_size
    discard = [*cards_of(KINGS), trump(2), trump(3)][:size]
    fft = evaluate_deal(kings_and_trumps_deal(players, discard, Rules()))
    assert {v.code for v in fft.violations} == {ViolationCode.DISCARD_KING_OR_BOUT}
    assert [v.card for v in fft.violations] == [c for c in discard if KINGS >> c & 1]
    seed_004 = evaluate_deal(kings_and_trumps_deal(players, discard, KINGS_FLAG))
    assert (seed_004.valid, seed_004.status.value) == (True, "complete"), seed_004.violations


@pytest.mark.parametrize("players", [4, 5])
def test_4_2_the_flag_never_lets_an_oudler_go(players: int) -> None:
    size = TABLES[players].dog_size
    discard = [trump(21), *cards_of(KINGS)][:size]
    if size > 5:
        discard += [trump(2)]
    seed_004 = evaluate_deal(kings_and_trumps_deal(players, discard, KINGS_FLAG))
    assert [(v.code, v.card) for v in seed_004.violations if v.caused_by is None] == [
        (ViolationCode.DISCARD_KING_OR_BOUT, trump(21))
    ]


def test_4_2_the_flag_needs_a_hand_of_kings_and_trumps_only() -> None:
    """A taker with one plain card beside kings and trumps may not discard a king, flag or not."""
    for seed in range(200):
        record = random_record(seed, 4)
        if record.contract in (Contract.PRISE, Contract.GARDE):
            break
    assert record.discard is not None and record.hands is not None and record.dog is not None
    available = mask_of(record.hands[record.taker or 0]) | mask_of(record.dog)
    king = next((k for k in cards_of(KINGS) if available >> k & 1), None)
    if king is None:
        pytest.skip("no king in hand and dog")
    discard = (*record.discard[1:], king)
    flagged = evaluate_deal(dataclasses.replace(record, discard=discard, rules=KINGS_FLAG))
    assert ViolationCode.DISCARD_KING_OR_BOUT in {v.code for v in flagged.violations}


def _petit_au_bout_to_defence(players: int) -> tuple[DealRecord, Evaluation]:
    for seed in range(3000):
        record = random_record(seed, players)
        ev = evaluate_deal(record)
        if ev.petit_au_bout is Side.DEFENCE and ev.score is not None:
            return record, ev
    raise AssertionError("no Petit au bout to the defence in the sample")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_9_4_a_defence_petit_au_bout_counts_for_the_taker_under_the_flag(players: int) -> None:
    record, fft = _petit_au_bout_to_defence(players)
    seed_003 = evaluate_deal(dataclasses.replace(record, rules=PETIT_FLAG))
    assert fft.score is not None and seed_003.score is not None and fft.contract is not None
    m = fft.contract.multiplier
    assert (fft.score.petit_au_bout, seed_003.score.petit_au_bout) == (-10 * m, 10 * m)
    assert seed_003.score.per_defender - fft.score.per_defender == 20 * m
    assert seed_003.petit_au_bout is Side.DEFENCE  # the side that took it, as before
    assert sum(seed_003.score.scores) == 0


def test_9_4_a_defence_petit_au_bout_at_garde_moves_d_by_40_over_http(client: FlaskClient) -> None:
    body = {"players": 4, "contract": "garde", "taker": 0, "points": 50, "oudlers": 2, "petit_au_bout": "defence"}
    fft = client.post("/v1/deals/score", json=body).get_json()
    flagged = client.post("/v1/deals/score", json=body | {"rules": {"petit_au_bout_to_taker": True}}).get_json()
    assert (fft["petit_au_bout"], flagged["petit_au_bout"]) == (-20, 20)
    assert flagged["per_defender"] - fft["per_defender"] == 40
    assert "counted for the taker's side" in flagged["explanation"][2]
    attack = client.post("/v1/deals/score", json=body | {"petit_au_bout": "attack"}).get_json()
    assert attack["per_defender"] == flagged["per_defender"]


def _defenders(record: DealRecord) -> tuple[int, int]:
    """Two seats of the defence: a fault of the taker's dealt hand would also show in his
    discard, a fault of its own (§14.4)."""
    assert record.hands is not None
    seats = [s for s in range(record.players) if s != record.taker and record.called_card not in record.hands[s]]
    return seats[0], seats[1]


def _dealt_twice(players: int, seed: int) -> DealRecord:
    """A defender's card dealt to another defender too (in place of one of its own)."""
    record = random_record(seed, players)
    assert record.hands is not None
    a, b = _defenders(record)
    hands = [list(h) for h in record.hands]
    hands[b][0] = hands[a][0]
    return dataclasses.replace(record, hands=tuple(tuple(h) for h in hands))


def _misdealt(players: int, seed: int) -> DealRecord:
    """A defender's card dealt to another defender: a hand short, a hand over."""
    record = random_record(seed, players)
    assert record.hands is not None
    a, b = _defenders(record)
    hands = [list(h) for h in record.hands]
    hands[b].append(hands[a].pop())
    return dataclasses.replace(record, hands=tuple(tuple(h) for h in hands))


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("fault", [_dealt_twice, _misdealt])
def test_14_5_a_fault_of_the_deal_disregarded_is_scored_as_played(players: int, fault: object) -> None:
    assert callable(fault)
    for seed in range(5):
        record = fault(players, seed)
        fft = evaluate_deal(record)
        assert fft.ruling is not None
        assert (fft.ruling.decision, fft.ruling.reason) == (Decision.REDEAL, RulingReason.DEALING_FAULT)
        assert fft.dealt_again
        seed_004 = evaluate_deal(dataclasses.replace(record, rules=DISREGARDED))
        ruling = seed_004.ruling
        assert ruling is not None
        assert seed_004.violations == fft.violations  # the faults are still told
        assert (ruling.decision, ruling.reason, ruling.side_at_fault) == (
            Decision.COUNTED,
            RulingReason.DEALING_ERROR_DISREGARDED,
            None,
        )
        assert ruling.scores == ruling.as_played.scores != (0,) * players
        assert not seed_004.dealt_again  # the deal passes on (§15.2)


def test_14_5_a_petit_sec_still_sends_the_cards_back_when_errors_are_disregarded() -> None:
    """A petit sec is no error of the dealer: the variant leaves it to the redeal."""
    table = TABLES[4]
    seat0 = [PETIT, *range(table.hand_size - 1)]  # the Petit and plain cards
    rest = [c for c in range(78) if c not in seat0]
    hands = [seat0, *(rest[i * table.hand_size : (i + 1) * table.hand_size] for i in range(3))]
    dog = rest[3 * table.hand_size :]
    plays = play_out(random.Random(0), [mask_of(h) for h in hands], 0)
    record = DealRecord(4, 3, tuple(plays), tuple(map(tuple, hands)), tuple(dog), Contract.GARDE_SANS, 1)
    for rules in (Rules(), DISREGARDED):
        ev = evaluate_deal(dataclasses.replace(record, rules=rules))
        assert ev.ruling is not None
        assert (ev.ruling.decision, ev.ruling.reason) == (Decision.REDEAL, RulingReason.DEALING_FAULT)


def test_14_5_the_ruling_says_so_in_both_languages(client: FlaskClient) -> None:
    request = request_of(_dealt_twice(4, 0)) | {"rules": {"deal_errors_after_contract": "disregarded"}}
    en = client.post("/v1/deals/evaluate", json=request, headers={"Accept-Language": "en"}).get_json()
    fr = client.post("/v1/deals/evaluate", json=request, headers={"Accept-Language": "fr"}).get_json()
    assert (en["ruling"]["decision"], en["ruling"]["reason"]) == ("counted", "dealing_error_disregarded")
    assert en["ruling"]["section"] == "§14.5"
    assert "scored as it was played" in en["ruling"]["message"]
    assert "comptée telle qu'elle a été jouée" in fr["ruling"]["message"]


def test_11_the_three_flags_are_request_fields(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    rules = spec["components"]["schemas"]["Rules"]["properties"]
    assert "Default: `false`" in rules["discard_kings_when_forced"]["description"]
    assert "Default: `false`" in rules["petit_au_bout_to_taker"]["description"]
    assert 'Default: `"redeal"`' in rules["deal_errors_after_contract"]["description"]
    bad = client.post(
        "/v1/deals/score",
        json={"players": 4, "contract": "garde", "taker": 0, "points": 50, "oudlers": 2, "rules": {
            "deal_errors_after_contract": "ignored"}},
    )  # fmt: skip
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["pointer"] == "/rules/deal_errors_after_contract"
