"""§9.6 and §12: the card points and oudlers a chelem leaves, held to deals the core evaluates.

A summary whose chelem cannot go with its points or oudlers is refused at ``/v1/deals/score``
(the bounds of ``chelem_points_bounds_half``). Here a sweep builds chelem deals of every kind
(3, 4 and 5 players, each contract, a chelem by either side, the Excuse with the chelem side,
with the other side, or in the unseen dog, piles of low, high and oudler cards), plays them out
legally, evaluates them with the core, and holds each one's points and oudlers to what the
``/points`` check accepts: the very request the deal's summary makes must load. The sweep also
reaches every oudler count the bounds allow.
"""

from __future__ import annotations

import itertools
import random

import pytest
from flask.testing import FlaskClient

from service.contract.scoring import SCORE
from service.randomdeals import Turn, play_out
from service.rules.cards import (
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    MONDE,
    PETIT,
    RANK_OF,
    SUIT_OF,
    TRUMPS,
    Card,
    CardMask,
    cards_of,
    mask_of,
)
from service.rules.deal import evaluate_deal
from service.rules.record import DealRecord
from service.rules.scoring import Contract, Side, chelem_oudlers_bounds, chelem_points_bounds_half
from service.rules.table import TABLES
from service.rules.variants import ExcuseLastTrick, Rules

PATH = "/v1/deals/score"
EXCUSE_PLACES = ("chelem_side", "other_seat", "pile")
PILE_STYLES = ("random", "low", "high", "oudlers")


def _pile(rng: random.Random, contract: Contract, size: int, style: str, excuse_in_pile: bool) -> CardMask:
    """The cards no trick holds: the taker's discard (prise, garde: no king, oudler or trump,
    §4.2) or the unseen dog (any card)."""
    deck = [c for c in range(78) if c != EXCUSE]
    allowed = [c for c in deck if not (KINGS | TRUMPS) >> c & 1] if contract.dog_to_taker else deck
    if style == "low":
        allowed = [c for c in allowed if HALF_POINTS[c] == 1] or allowed
    elif style == "high":
        allowed = sorted(allowed, key=lambda c: -HALF_POINTS[c])[:8]
    chosen: list[Card] = []
    if not contract.dog_to_taker:
        if excuse_in_pile:
            chosen.append(EXCUSE)
        if style == "oudlers":
            chosen += [PETIT, MONDE]
            allowed = sorted(allowed, key=lambda c: -HALF_POINTS[c])[:8]
    chosen += rng.sample([c for c in allowed if c not in chosen], size - len(chosen))
    return mask_of(chosen[:size])


def chelem_deal(seed: int, players: int, contract: Contract, made_by: Side, excuse: str, style: str) -> DealRecord:
    """A deal in which one seat of ``made_by`` (the leader) takes every trick: it holds the top
    trumps in play, more than any other seat can play (the Excuse counted, which may delay a
    trump), and the top cards of the plain suits; it leads its trumps down, then its plain
    cards down, then the Excuse if it holds it (the last trick, §7)."""
    rng = random.Random(f"{seed}-{players}-{contract}-{made_by}-{excuse}-{style}")
    table = TABLES[players]
    taker = rng.randrange(players)
    leader = taker if made_by is Side.ATTACK else rng.choice([s for s in range(players) if s != taker])
    pile = _pile(rng, contract, table.dog_size, style, excuse == "pile" and not contract.dog_to_taker)
    rest = [c for c in range(78) if not pile >> c & 1]
    leader_excuse = excuse == "chelem_side"
    trumps = sorted((c for c in rest if TRUMPS >> c & 1), reverse=True)
    room = table.hand_size - leader_excuse
    many = rng.randint(min(len(trumps), room) // 2 + 1, min(len(trumps), room))
    hand = trumps[:many] + ([EXCUSE] if leader_excuse else [])
    plain = {s: sorted((c for c in rest if SUIT_OF[c] is s), key=lambda c: -RANK_OF[c]) for s in set(SUIT_OF)}
    plain.pop(None, None)
    plain.pop(SUIT_OF[trumps[0]], None)
    while len(hand) < table.hand_size:
        suit = rng.choice([s for s, cards in plain.items() if cards])
        hand.append(plain[suit].pop(0))
    others = [c for c in rest if c not in hand]
    rng.shuffle(others)
    hands: list[list[Card]] = []
    for seat in range(players):
        if seat == leader:
            hands.append(sorted(hand))
        else:
            hands.append(sorted(others[: table.hand_size]))
            others = others[table.hand_size :]
    assert not others
    discard = dog = None
    play_hands = [mask_of(h) for h in hands]
    if contract.dog_to_taker:
        # The taker took the dog and set the pile aside: the dog, any cards of hand and pile.
        union = cards_of(play_hands[taker] | pile)
        dog_cards = rng.sample(union, table.dog_size)
        hands[taker] = sorted(c for c in union if c not in dog_cards)
        dog, discard = tuple(sorted(dog_cards)), tuple(cards_of(pile))
    else:
        dog = tuple(cards_of(pile))
    called = None
    if players == 5:
        kings = [k for k in cards_of(KINGS) if made_by is Side.ATTACK or not play_hands[leader] >> k & 1]
        called = rng.choice(kings) if kings else None
    for seat, h in enumerate(play_hands):
        # Every other seat runs out of trumps while the leader still leads them.
        if seat != leader and (h & TRUMPS).bit_count() + (h & EXCUSE_BIT).bit_count() > many:
            raise _UnfitError
    if called is None and players == 5:
        raise _UnfitError

    def policy(turn: Turn) -> Card | None:
        if turn.seat != leader:
            return None
        assert not turn.trick, "the leader leads every trick"
        mine = cards_of(turn.hand)
        trumps_held = [c for c in mine if TRUMPS >> c & 1]
        if trumps_held:
            return max(trumps_held)
        plains = [c for c in mine if c != EXCUSE]
        return max(plains, key=lambda c: RANK_OF[c]) if plains else EXCUSE

    rules = Rules(excuse_last_trick=rng.choice(list(ExcuseLastTrick)))
    plays = play_out(rng, play_hands, leader, called, rules, policy)
    return DealRecord(
        players=players,
        dealer=(leader - 1) % players,
        plays=tuple(plays),
        hands=tuple(tuple(h) for h in hands),
        dog=dog,
        contract=contract,
        taker=taker,
        called_card=called,
        discard=discard,
        rules=rules,
    )


class _UnfitError(Exception):
    """The draw did not give the leader enough trumps to draw every other seat's."""


def _summary(record: DealRecord, points_half: int, oudlers: int, made_by: Side) -> dict[str, object]:
    assert record.contract is not None and record.taker is not None
    return {
        "players": record.players,
        "contract": record.contract.value,
        "taker": record.taker,
        "points": points_half / 2,
        "oudlers": oudlers,
        "chelem": {"announced": False, "made_by": made_by.value},
    }


def test_every_chelem_the_core_evaluates_is_within_the_bounds_the_points_check_accepts() -> None:
    seen: dict[tuple[int, Contract, Side, int], set[int]] = {}
    for players, contract, made_by, excuse, style in itertools.product(
        TABLES, Contract, Side, EXCUSE_PLACES, PILE_STYLES
    ):
        for seed in range(3):
            try:
                record = chelem_deal(seed, players, contract, made_by, excuse, style)
            except _UnfitError:
                continue
            ev = evaluate_deal(record)
            if not ev.valid:  # a petit sec dealt to a seat: a deal the cards go back from
                assert {v.code.value for v in ev.violations} == {"petit_sec"}
                continue
            assert ev.chelem_made_by is made_by, (players, contract, made_by, excuse, style, seed)
            assert ev.points_half is not None and ev.oudlers is not None
            points, oudlers = ev.points_half[0], ev.oudlers[0]
            bounds = chelem_points_bounds_half(players, contract, made_by, oudlers)
            assert bounds is not None and bounds[0] <= points <= bounds[1], (players, contract, made_by, oudlers)
            SCORE.plan.load(_summary(record, points, oudlers, made_by))  # the /points check accepts it
            seen.setdefault((players, contract, made_by, oudlers), set()).add(points)
    # The sweep meets every oudler count a chelem allows, and the bounds that are one value.
    for players, contract, made_by in itertools.product(TABLES, Contract, Side):
        low, high = chelem_oudlers_bounds(players, contract, made_by)
        for k in range(low, high + 1):
            assert (players, contract, made_by, k) in seen, (players, contract, made_by, k)
            bounds = chelem_points_bounds_half(players, contract, made_by, k)
            assert bounds is not None
            if bounds[0] == bounds[1]:
                assert seen[players, contract, made_by, k] == {bounds[0]}, (players, contract, made_by, k)


def _half(points: float) -> int:
    return round(points * 2)


@pytest.mark.parametrize(
    ("players", "contract", "made_by", "oudlers", "low", "high"),
    [
        # The attack's chelem at prise, garde, garde sans: the defence keeps at most its Excuse, 4.
        (4, "garde", "attack", 2, 87, 87),
        (4, "garde", "attack", 3, 91, 91),
        (3, "prise", "attack", 3, 91, 91),
        (5, "garde_sans", "attack", 2, 87, 87),
        # Garde contre: the dog is the defence's, 6 cards (3 at five players), with any oudlers.
        (4, "garde_contre", "attack", 3, 66, 88),
        (4, "garde_contre", "attack", 2, 62, 84),
        (4, "garde_contre", "attack", 1, 61, 80),
        (4, "garde_contre", "attack", 0, 60, 76),
        (5, "garde_contre", "attack", 3, 77.5, 89.5),
        (5, "garde_contre", "attack", 0, 73.5, 77.5),
        # The defence's chelem: the attack keeps its discard, the dog at garde sans, its Excuse.
        (4, "garde", "defence", 0, 3, 19),
        (4, "garde", "defence", 1, 7, 23),
        (5, "prise", "defence", 0, 1.5, 10.5),
        (4, "garde_sans", "defence", 3, 15, 31),
        (4, "garde_sans", "defence", 0, 3, 25),
        (4, "garde_contre", "defence", 0, 0, 0),
        (4, "garde_contre", "defence", 1, 4, 4),
    ],
)
def test_the_bounds_derived(players: int, contract: str, made_by: str, oudlers: int, low: float, high: float) -> None:
    bounds = chelem_points_bounds_half(players, Contract(contract), Side(made_by), oudlers)
    assert bounds == (_half(low), _half(high))


def test_kings_in_a_discard_raise_a_defence_chelem_s_bound_only_under_their_flag() -> None:
    fft = chelem_points_bounds_half(5, Contract.GARDE, Side.DEFENCE, 0)
    seed_004 = chelem_points_bounds_half(5, Contract.GARDE, Side.DEFENCE, 0, Rules(discard_kings_when_forced=True))
    assert fft == (3, 21)  # three queens
    assert seed_004 == (3, 27)  # three kings


@pytest.mark.parametrize(
    ("points", "oudlers", "status", "pointer", "code"),
    [
        (58, 2, 422, "/points", "points_chelem_mismatch"),
        (87, 2, 200, None, None),
        (91, 3, 200, None, None),
        (90, 3, 422, "/points", "points_chelem_mismatch"),
        (60, 1, 422, "/oudlers", "oudlers_chelem_mismatch"),
    ],
)
def test_a_garde_chelem_summary_over_http(
    client: FlaskClient, points: float, oudlers: int, status: int, pointer: str | None, code: str | None
) -> None:
    body = {"players": 4, "contract": "garde", "taker": 0, "points": points, "oudlers": oudlers}
    body["chelem"] = {"announced": True, "made_by": "attack"}
    r = client.post(PATH, json=body)
    assert r.status_code == status
    if status == 422:
        [error] = r.get_json()["errors"]
        assert (error["pointer"], error["code"]) == (pointer, code)


def test_the_refusal_gives_the_range_in_both_languages(client: FlaskClient) -> None:
    body = {"players": 4, "contract": "garde_contre", "taker": 0, "points": 50, "oudlers": 1}
    body["chelem"] = {"announced": False, "made_by": "attack"}
    en = client.post(PATH, json=body, headers={"Accept-Language": "en"}).get_json()["errors"][0]["message"]
    fr = client.post(PATH, json=body, headers={"Accept-Language": "fr"}).get_json()["errors"][0]["message"]
    assert "between 61 and 80 points" in en
    assert "entre 61 et 80 points" in fr
    body |= {"contract": "garde", "points": 58, "oudlers": 2}
    en = client.post(PATH, json=body, headers={"Accept-Language": "en"}).get_json()["errors"][0]["message"]
    fr = client.post(PATH, json=body, headers={"Accept-Language": "fr"}).get_json()["errors"][0]["message"]
    assert "holds 87 points" in en
    assert "a 87 points" in fr
