"""POST /v1/deals/deal (rules.md §2.1, §2.2) through the Flask test client."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules.cards import CARD_CODES
from service.rules.shuffle import SEED_MAX_LENGTH, is_valid_seed

PATH = "/v1/deals/deal"
CANONICAL = list(CARD_CODES)


def post(client: FlaskClient, body: dict[str, Any], language: str | None = None) -> tuple[int, Any]:
    headers = {} if language is None else {"Accept-Language": language}
    r = client.post(PATH, json=body, headers=headers)
    return r.status_code, r.get_json()


def pointers(problem: dict[str, Any]) -> dict[str, str]:
    return {e["pointer"]: e["code"] for e in problem["errors"]}


def test_the_same_seed_deals_the_same_cards(client: FlaskClient) -> None:
    body = {"players": 4, "dealer": 2, "seed": "same seed"}
    first, again = post(client, body), post(client, body)
    assert first == again and first[0] == 200
    assert post(client, {**body, "seed": "other seed"})[1]["deck"] != first[1]["deck"]


@pytest.mark.parametrize(("players", "hand", "dog"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_hand_and_dog_sizes_every_card_once(client: FlaskClient, players: int, hand: int, dog: int) -> None:
    status, answer = post(client, {"players": players, "dealer": 0, "seed": f"sizes {players}"})
    assert status == 200
    assert [len(h) for h in answer["hands"]] == [hand] * players and len(answer["dog"]) == dog
    cards = [c for h in answer["hands"] for c in h] + answer["dog"]
    assert sorted(cards) == sorted(CARD_CODES) == sorted(answer["deck"])
    assert answer["packet"] == (4 if players == 3 else 3)
    # Lists of cards in answers are in canonical deck order; the deck is in the order dealt.
    assert all(h == sorted(h, key=CANONICAL.index) for h in [*answer["hands"], answer["dog"]])
    assert [a["card"] for a in answer["set_aside"]] == [answer["deck"][a["position"]] for a in answer["set_aside"]]
    assert sorted(a["card"] for a in answer["set_aside"]) == sorted(answer["dog"])


@pytest.mark.parametrize(
    ("packet", "dealer", "seat_first", "first_cards"),
    [(3, 1, 2, ["1S", "2S", "3S"]), (1, 3, 0, ["1S", "5S", "9S"])],
)
def test_a_given_deck_first_card_to_the_seat_after_the_dealer(
    client: FlaskClient, packet: int, dealer: int, seat_first: int, first_cards: list[str]
) -> None:
    body = {
        "players": 4,
        "dealer": dealer,
        "deck": CANONICAL,
        "packet": packet,
        "dog_positions": [30, 40, 50, 60, 70, 74],
    }
    status, answer = post(client, body)
    assert status == 200
    assert answer["deck"] == CANONICAL
    assert set(first_cards) <= set(answer["hands"][seat_first])
    assert answer["set_aside"] == [{"position": p, "card": CANONICAL[p]} for p in body["dog_positions"]]


def test_a_petit_sec_says_deal_again(client: FlaskClient) -> None:
    # The contract's example: seed "redeal-8" gives seat 2 the Petit sec at four players.
    status, answer = post(client, {"players": 4, "dealer": 1, "seed": "redeal-8"}, "fr")
    assert status == 200
    assert (answer["redeal"], answer["redeal_reason"], answer["redeal_seat"]) == (True, "petit_sec", 2)
    assert answer["redeal_message"] == "Le joueur 2 a le Petit sec\u00a0: on redistribue."
    trumps = [c for c in answer["hands"][2] if c.endswith("T")]
    assert trumps == ["1T"] and "EX" not in answer["hands"][2]
    status, plain = post(client, {"players": 4, "dealer": 0, "seed": "tarot"})
    assert (plain["redeal"], plain["redeal_reason"], plain["redeal_seat"], plain["redeal_message"]) == (
        False,
        None,
        None,
        None,
    )


def test_a_petit_sec_beside_the_excuse_under_the_variant(client: FlaskClient) -> None:
    # Seat 1 (after dealer 0) gets the Petit, the Excuse and plain cards: sec only when
    # petit_sec_ignores_excuse is on (§3.1, §11).
    body = {"players": 4, "dealer": 0, "deck": _deck_for_seat_1(excuse=True), "packet": 1, "dog_positions": DOG_LATE}
    default = post(client, body)[1]
    variant = post(client, {**body, "rules": {"petit_sec_ignores_excuse": True}})[1]
    assert [c for c in default["hands"][1] if c.endswith("T")] == ["1T"] and "EX" in default["hands"][1]
    assert default["redeal"] is False
    assert (variant["redeal"], variant["redeal_seat"]) == (True, 1)
    alone = post(client, {**body, "deck": _deck_for_seat_1(excuse=False)})[1]
    assert (alone["redeal"], alone["redeal_seat"]) == (True, 1)


DOG_LATE = [71, 72, 73, 74, 75, 76]


def _deck_for_seat_1(*, excuse: bool) -> list[str]:
    """Packets of one, dealer 0, the dog at 71–76: seat 1 gets the cards at positions 0, 4, 8 … 68."""
    seat_1 = [4 * k for k in range(18)]
    plain = [c for c in CANONICAL if not c.endswith("T") and c != "EX"]
    mine = ["1T", "EX" if excuse else plain.pop(), *plain[:16]]
    rest = iter(c for c in CANONICAL if c not in mine)
    by_position = dict(zip(seat_1, mine, strict=True))
    return [by_position[p] if p in by_position else next(rest) for p in range(78)]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"seed": None}, {"/deck": "required", "/seed": "required"}),
        ({"deck": CANONICAL}, {"/seed": "deck_and_seed"}),
        ({"seed": ""}, {"/seed": "length"}),
        ({"seed": "s" * (SEED_MAX_LENGTH + 1)}, {"/seed": "length"}),
        ({"seed": 7}, {"/seed": "type"}),
        ({"packet": 2}, {"/packet": "enum"}),
        ({"packet": 4}, {"/packet": "packet_size"}),
        ({"dealer": 4}, {"/dealer": "seat_out_of_range"}),
        ({"dog_positions": [9, 19, 32, 42, 55]}, {"/dog_positions": "dog_positions_count"}),
        ({"dog_positions": [0, 19, 32, 42, 55, 65]}, {"/dog_positions/0": "dog_first_or_last_card"}),
        ({"dog_positions": [9, 19, 32, 42, 55, 77]}, {"/dog_positions/5": "dog_first_or_last_card"}),
        ({"dog_positions": [9, 19, 32, 42, 55, 78]}, {"/dog_positions/5": "range"}),
        ({"dog_positions": [9, 19, 32, 42, 19, 65]}, {"/dog_positions/4": "duplicate_position"}),
        ({"dog_positions": [9, 20, 32, 42, 55, 65]}, {"/dog_positions/1": "dog_inside_packet"}),
        ({"rules": {"petit_sec_ignores_excuse": 1}}, {"/rules/petit_sec_ignores_excuse": "type"}),
    ],
)
def test_refusals_are_located(client: FlaskClient, change: dict[str, Any], where: dict[str, str]) -> None:
    status, problem = post(client, {"players": 4, "dealer": 3, "seed": "refused"} | change)
    assert status == 422
    assert pointers(problem) == where


def test_a_bad_deck_is_located_at_the_duplicate_and_the_missing_card(client: FlaskClient) -> None:
    deck = [*CANONICAL[:-1], "KS"]  # the Excuse missing, the king of spades twice
    status, problem = post(client, {"players": 5, "dealer": 0, "deck": deck})
    assert status == 422
    assert pointers(problem) == {"/deck/77": "duplicate_card", "/deck": "missing_card"}
    assert "EX" in next(e["message"] for e in problem["errors"] if e["pointer"] == "/deck")
    status, problem = post(client, {"players": 5, "dealer": 0, "deck": CANONICAL[:-1]})
    assert (status, pointers(problem)) == (422, {"/deck": "length"})
    status, problem = post(client, {"players": 5, "dealer": 0, "deck": [*CANONICAL[:-1], "XX"]})
    assert (status, pointers(problem)) == (422, {"/deck/77": "unknown_card"})


def test_refusals_in_french(client: FlaskClient) -> None:
    body = {"players": 4, "dealer": 3, "seed": "s", "dog_positions": [0, 20, 32, 42, 55, 65]}
    status, problem = post(client, body, "fr")
    assert status == 422
    messages = {e["pointer"]: e["message"] for e in problem["errors"]}
    assert messages["/dog_positions/0"] == "La première et la dernière carte du paquet ne vont jamais au chien."
    assert "lot de 3 cartes\u00a0:" in messages["/dog_positions/1"]
    # JSON may escape a lone surrogate, which no UTF-8 text holds: sent as the raw bytes.
    raw = b'{"players": 4, "dealer": 3, "seed": "a\\ud800"}'
    r = client.post(PATH, data=raw, headers={"Content-Type": "application/json", "Accept-Language": "fr"})
    assert (r.status_code, pointers(r.get_json())) == (422, {"/seed": "invalid"})
    assert "UTF-8" in r.get_json()["errors"][0]["message"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.text(min_size=1, max_size=20).filter(is_valid_seed),
    packet=st.sampled_from([None, 1, 3]),
)
def test_the_dog_never_takes_the_first_or_last_card_over_http(
    client: FlaskClient, players: int, seed: str, packet: int | None
) -> None:
    body: dict[str, Any] = {"players": players, "dealer": players - 1, "seed": seed}
    if packet is not None:
        body["packet"] = packet
    status, answer = post(client, body)
    assert status == 200
    positions = [a["position"] for a in answer["set_aside"]]
    assert 0 not in positions and 77 not in positions
    assert answer["deck"][0] in answer["hands"][0]
    # The answer's own positions, sent back with its deck, deal the same cards.
    again = {"players": players, "dealer": players - 1, "deck": answer["deck"], "dog_positions": positions}
    if packet is not None:
        again["packet"] = packet
    assert post(client, again)[1] == answer
