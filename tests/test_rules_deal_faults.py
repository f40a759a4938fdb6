"""One fault per deal (rules.md §2–§6, §9.5), on the core: each must be the first violation,
at the trick and seat where it happened.

Each case starts from a legally played random deal (service/randomdeals.py) and injects one fault
whose location is known by construction.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.randomdeals import random_deal, record
from service.rules.cards import TRUMPS, cards_of, format_card, mask_of, parse_card
from service.rules.deal import Evaluation, Status, evaluate_deal
from service.rules.play import LegalReason, legal_cards, trick_winner
from service.rules.scoring import PoigneeSize
from service.rules.table import TABLES
from service.rules.verdicts import Violation

Deal = dict[str, Any]


def evaluate(deal: Deal) -> Evaluation:
    """The core's verdict on a deal given in the request shape."""
    return evaluate_deal(record(deal))


def answer_of(client: FlaskClient, deal: Deal) -> dict[str, Any]:
    r = client.post("/v1/deals/evaluate", json=deal)
    assert r.status_code == 200, r.get_json()
    return r.get_json()  # type: ignore[no-any-return]


def positions(deal: Deal) -> list[tuple[int, int, int, int, list[int]]]:
    """(trick, position, seat, hand mask before playing, trick so far) for every card played."""
    n = deal["players"]
    hands = [mask_of(parse_card(c) for c in h) for h in deal["hands"]]
    taker = deal["taker"]
    if deal["contract"] in ("prise", "garde"):
        hands[taker] |= mask_of(parse_card(c) for c in deal["dog"])
        hands[taker] &= ~mask_of(parse_card(c) for c in deal["discard"])
    leader = taker if deal["chelem_announced"] else (deal["dealer"] + 1) % n
    out = []
    plays = [parse_card(c) for c in deal["plays"]]
    for t in range(len(plays) // n):
        cards = plays[t * n : (t + 1) * n]
        for pos, card in enumerate(cards):
            seat = (leader + pos) % n
            out.append((t, pos, seat, hands[seat], cards[:pos]))
            hands[seat] &= ~(1 << card)
        leader = (leader + (trick_winner(cards) or 0)) % n
    return out


def winners(plays: list[int], n: int) -> list[int | None]:
    return [trick_winner(plays[t : t + n]) for t in range(0, len(plays), n)]


def inject_illegal(
    deal: Deal, reasons: set[LegalReason], pick: Callable[[int, list[int], int], int], *, keep_winners: bool
) -> tuple[Deal, int, int] | None:
    """Play, at the first position ruled by one of ``reasons``, an illegal card from the hand;
    the card it replaces is played later in its place, so every hand stays consistent.

    Without hands, seats follow from the trick winners, so a fault that changes a winner
    reattributes later cards; ``keep_winners`` picks only faults that change none."""
    n = deal["players"]
    plays = [parse_card(c) for c in deal["plays"]]
    called = parse_card(deal["called_card"]) if deal["called_card"] else None
    for i, (t, _pos, seat, hand, before) in enumerate(positions(deal)):
        legal = legal_cards(hand, before, banned_lead=called if n == 5 and t == 0 else None)
        if legal.reason not in reasons:
            continue
        illegal = hand & ~legal.cards
        choice = pick(illegal, before, legal.cards)
        if choice < 0:
            continue
        j = plays.index(choice)
        swapped = list(plays)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        if keep_winners and winners(swapped, n) != winners(plays, n):
            continue
        mutated = copy.deepcopy(deal)
        mutated["plays"] = [format_card(c) for c in swapped]
        return mutated, t, seat
    return None


def any_of(mask: int) -> int:
    return next(iter(cards_of(mask)), -1)


def non_trump(mask: int, before: list[int], legal: int) -> int:
    return any_of(mask & ~TRUMPS)


def lower_trump(mask: int, before: list[int], legal: int) -> int:
    return any_of(mask & TRUMPS)


PLAY_FAULTS = [
    ("renounce", {LegalReason.FOLLOW}, non_trump),
    ("must_trump", {LegalReason.TRUMP}, non_trump),
    ("must_overtrump", {LegalReason.OVERTRUMP}, lower_trump),
    ("called_suit_lead", {LegalReason.CALLED_SUIT_BAN}, lambda m, b, legal: any_of(m)),
]


PLAY_CASES = [
    pytest.param(code, reasons, pick, players, id=f"{code}-{players}p")
    for code, reasons, pick in PLAY_FAULTS
    for players in (3, 4, 5)
    if code != "called_suit_lead" or players == 5  # the ban is a five-player rule
]


@pytest.mark.parametrize(("code", "reasons", "pick", "players"), PLAY_CASES)
@pytest.mark.parametrize("with_hands", [True, False], ids=["hands", "inferred"])
def test_illegal_card_is_the_first_violation(
    code: str, reasons: set[LegalReason], pick: Any, players: int, with_hands: bool
) -> None:
    found = 0
    for seed in range(60):
        injected = inject_illegal(random_deal(seed, players), reasons, pick, keep_winners=not with_hands)
        if injected is None:
            continue
        deal, trick, seat = injected
        if not with_hands:
            del deal["hands"], deal["dog"]
        answer = evaluate(deal)
        assert not answer.valid
        assert answer.score is None
        first = answer.violations[0]
        assert (first.code, first.trick, first.seat) == (code, trick, seat), answer.violations[:2]
        assert first.legal and first.card is not None and not first.legal >> first.card & 1
        found += 1
        if found == 5:
            break
    assert found, "no deal offered this fault"


def _first_with(players: int, cond: Callable[[Deal], bool]) -> Deal:
    for seed in range(500):
        deal = random_deal(seed, players)
        if cond(deal):
            return deal
    raise AssertionError("no such deal")


@pytest.mark.parametrize("players", [3, 4, 5])
class TestStructuralFaults:
    def first(self, deal: Deal) -> Violation:
        answer = evaluate(deal)
        assert not answer.valid
        assert answer.score is None
        return answer.violations[0]

    def test_hand_size(self, players: int) -> None:
        deal = random_deal(1, players)
        deal["hands"][1].append(deal["hands"][0].pop())
        deal["plays"] = []
        v = self.first(deal)
        assert (v.code, v.seat, v.trick) == ("hand_size", 0, None)

    def test_duplicate_card(self, players: int) -> None:
        deal = random_deal(2, players)
        deal["hands"][1][0] = deal["hands"][0][0]
        v = self.first(deal)
        assert (v.code, v.seat) == ("duplicate_card", 1)

    def test_card_not_in_hand(self, players: int) -> None:
        deal = _first_with(players, lambda d: d["contract"] in ("prise", "garde"))
        i = len(deal["plays"]) // 2 + 1
        t, _pos, seat, _, _ = positions(deal)[i]
        deal["plays"][i] = deal["discard"][0]
        v = self.first(deal)
        assert (v.code, v.trick, v.seat) == ("card_not_in_hand", t, seat)

    def test_2_wrong_leader_on_the_opening_lead(self, players: int) -> None:
        deal = random_deal(3, players)
        n = players
        trick = deal["plays"][:n]
        deal["plays"][:n] = trick[1:] + trick[:1]
        leader = positions(deal)[0][2]
        v = self.first(deal)
        assert (v.code, v.trick, v.seat) == ("wrong_leader", 0, (leader + 1) % n)

    def test_2_a_later_lead_with_another_seats_card_is_card_not_in_hand(self, players: int) -> None:
        # After the first trick the record fixes every turn (§2: the winner leads): the card
        # is played by the seat whose turn it was, which does not hold it.
        deal = random_deal(3, players)
        n, k = players, 4
        leader = positions(deal)[k * n][2]
        other = (leader + 1) % n
        card = next(c for c in deal["hands"][other] if c in deal["plays"][(k + 1) * n :])
        j = deal["plays"].index(card)
        deal["plays"][k * n], deal["plays"][j] = deal["plays"][j], deal["plays"][k * n]
        v = self.first(deal)
        assert (v.code, v.trick, v.seat, v.card) == ("card_not_in_hand", k, leader, parse_card(card))

    def test_plays_length(self, players: int) -> None:
        deal = random_deal(4, players)
        deal["plays"].append(deal["plays"][0])
        v = self.first(deal)
        assert v.code == "plays_length"

    def test_discard_king_or_bout(self, players: int) -> None:
        deal = _first_with(
            players, lambda d: d["contract"] in ("prise", "garde") and any(c[0] == "K" for c in d["hands"][d["taker"]])
        )
        king = next(c for c in deal["hands"][deal["taker"]] if c.startswith("K"))
        old = deal["discard"][0]
        deal["discard"][0] = king
        deal["plays"][deal["plays"].index(king)] = old
        v = self.first(deal)
        assert (v.code, v.seat, v.card) == ("discard_king_or_bout", deal["taker"], parse_card(king))

    def test_discard_size(self, players: int) -> None:
        deal = _first_with(players, lambda d: d["contract"] in ("prise", "garde"))
        deal["discard"].pop()
        v = self.first(deal)
        assert (v.code, v.seat) == ("discard_size", deal["taker"])

    def test_discard_not_held(self, players: int) -> None:
        deal = _first_with(players, lambda d: d["contract"] in ("prise", "garde"))
        other = (deal["taker"] + 1) % players
        card = next(c for c in deal["hands"][other] if not c.startswith("K") and not c.endswith("T") and c != "EX")
        deal["discard"][0] = card
        v = self.first(deal)
        assert (v.code, v.card) == ("discard_not_held", parse_card(card))

    def test_discard_trump(self, players: int) -> None:
        def fits(d: Deal) -> bool:
            taker = d["hands"][d["taker"]] + d["dog"]
            return (
                d["contract"] in ("prise", "garde")
                and not any(c.endswith("T") for c in d["discard"])
                and any(c.endswith("T") and c not in ("1T", "21T") for c in taker)
            )

        deal = _first_with(players, fits)
        full = deal["hands"][deal["taker"]] + deal["dog"]
        trump = next(c for c in full if c.endswith("T") and c not in ("1T", "21T"))
        old = deal["discard"][0]
        deal["discard"][0] = trump
        deal["plays"][deal["plays"].index(trump)] = old
        v = self.first(deal)
        assert (v.code, v.card) == ("discard_trump", parse_card(trump))

    def test_poignee_size(self, players: int) -> None:
        deal = _first_with(players, lambda d: bool(d["poignees"]))
        p = deal["poignees"][0]
        p["cards"] = p["cards"][:-1]
        v = self.first(deal)
        assert (v.code, v.seat) == ("poignee_size", p["seat"])

    def test_poignee_card(self, players: int) -> None:
        deal = _first_with(players, lambda d: bool(d["poignees"]))
        p = deal["poignees"][0]
        held = {c for i, h in enumerate(deal["hands"]) if i == p["seat"] for c in h}
        p["cards"][0] = next(f"{k}T" for k in range(1, 22) if f"{k}T" not in held and f"{k}T" not in deal["dog"])
        v = self.first(deal)
        assert (v.code, v.seat) == ("poignee_card", p["seat"])

    def test_poignee_duplicate(self, players: int) -> None:
        deal = _first_with(players, lambda d: bool(d["poignees"]))
        deal["poignees"].append(copy.deepcopy(deal["poignees"][0]))
        v = self.first(deal)
        assert (v.code, v.seat) == ("poignee_duplicate", deal["poignees"][0]["seat"])


def test_poignee_excuse_only_without_another_trump() -> None:
    deck = [format_card(c) for c in range(78)]
    trumps = [f"{k}T" for k in range(1, 22)]
    seat1 = ["EX", *trumps[:11], *deck[:6]]
    rest = [c for c in deck if c not in seat1]
    hands = [rest[:18], seat1, rest[18:36], rest[36:54]]
    deal = {
        "players": 4,
        "dealer": 3,
        "hands": hands,
        "dog": rest[54:],
        "contract": "garde_sans",
        "taker": 0,
        "plays": [],
    }
    # Ten cards with the Excuse while two trumps stay hidden: the Excuse may not stand in.
    shown = {"seat": 1, "cards": [*trumps[:9], "EX"]}
    v = evaluate({**deal, "poignees": [shown]}).violations[0]
    assert (v.code, v.seat) == ("poignee_excuse", 1)
    answer = evaluate({**deal, "poignees": [{"seat": 1, "cards": trumps[:10]}]})
    assert answer.valid and [(p.seat, p.side, p.size) for p in answer.poignees] == [(1, "defence", "simple")]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_3_petit_sec_deal_is_redealt(players: int) -> None:
    table = TABLES[players]
    deck = [format_card(c) for c in range(78)]

    def deal_with(seat0: list[str]) -> dict[str, Any]:
        rest = [c for c in deck if c not in seat0]
        size = table.hand_size
        hands = [seat0] + [rest[i * size : (i + 1) * size] for i in range(players - 1)]
        base = {
            "players": players,
            "dealer": players - 1,
            "hands": hands,
            "dog": rest[(players - 1) * size :],
            "plays": [],
        }
        return base | ({"called_card": "KC"} if players == 5 else {})

    base = deal_with(["1T", *deck[: table.hand_size - 1]])
    answer = evaluate({**base, "bids": ["pass"] * players})
    assert (answer.status, answer.redeal_reason, answer.valid) == ("redeal", "petit_sec", True)
    answer = evaluate({**base, "contract": "garde_sans", "taker": 1})
    v = answer.violations[0]
    assert (v.code, v.seat, v.trick) == ("petit_sec", 0, None)
    # With the Excuse beside it the Petit is not sec, unless the variant says so.
    base = deal_with(["1T", "EX", *deck[: table.hand_size - 2]])
    assert evaluate({**base, "contract": "garde_sans", "taker": 1}).valid
    flagged = evaluate({**base, "contract": "garde_sans", "taker": 1, "rules": {"petit_sec_ignores_excuse": True}})
    assert flagged.violations[0].code == "petit_sec"


@pytest.mark.parametrize(
    ("bids", "code", "seat"),
    [
        (["garde", "prise", "pass", "pass"], "bid_not_higher", 2),
        (["prise", "prise", "pass", "pass"], "bid_not_higher", 2),
        (["prise", "pass", "pass"], "bid_order", None),
    ],
)
def test_3_bidding(bids: list[str], code: str, seat: int | None) -> None:
    deal = random_deal(6, 4)
    deal["dealer"] = 0
    body = {**deal, "bids": bids, "contract": None, "taker": None, "plays": [], "discard": None, "poignees": []}
    v = evaluate(body).violations[0]
    assert (v.code, v.seat) == (code, seat)


def test_3_bids_decide_taker_and_contract() -> None:
    deal = random_deal(6, 4)
    deal["dealer"] = 3
    body = {
        **deal,
        "bids": ["pass", "prise", "pass", "garde_sans"],
        "contract": None,
        "taker": None,
        "plays": [],
        "discard": [],
        "poignees": [],
    }
    answer = evaluate(body)
    assert (answer.taker, answer.contract, answer.status) == (3, "garde_sans", "in_progress")
    assert evaluate({**body, "bids": ["pass"] * 4}).status == "redeal"


def test_5_bad_call() -> None:
    deal = _first_with(5, lambda d: sum(c.startswith("K") for c in d["hands"][d["taker"]]) < 4)
    deal["called_card"] = "Q" + deal["called_card"][1:]
    v = evaluate(deal).violations[0]
    assert (v.code, v.seat) == ("bad_call", deal["taker"])


def test_3_five_players_all_passing_is_a_redeal_without_a_call(client: FlaskClient) -> None:
    # Only a taker calls a card (§5): when every seat passes there is none to call. Over HTTP
    # too: the request without a called card was refused with a 422.
    deal = random_deal(5, 5)
    body = {**deal, "contract": None, "taker": None, "called_card": None, "bids": ["pass"] * 5, "plays": []}
    body.pop("discard")
    result = evaluate(body)
    assert (result.status, result.redeal_reason, result.valid) == (Status.REDEAL, "all_passed", True)
    answer = answer_of(client, body)
    assert (answer["status"], answer["redeal_reason"], answer["valid"]) == ("redeal", "all_passed", True)


def test_9_poignee_with_the_excuse_after_a_forced_trump_discard() -> None:
    """The taker holds four kings; hand and dog have four plain cards for a discard of six,
    so two trumps go to the discard. A trump discarded is no longer held: showing the Excuse
    with every trump still held is a poignée, and a discarded trump may be shown again."""
    kings = ["KS", "KH", "KD", "KC"]
    trumps = [f"{k}T" for k in range(1, 22)]
    taker = [*kings, *trumps[:13], "EX"]  # 18 cards
    dog = ["14T", "15T", "1S", "2S", "3S", "4S"]
    rest = [format_card(c) for c in range(78) if format_card(c) not in taker + dog]
    deal = {
        "players": 4, "dealer": 3, "hands": [taker, rest[:18], rest[18:36], rest[36:54]], "dog": dog,
        "contract": "garde", "taker": 0, "called_card": None, "chelem_announced": False,
        "discard": ["1S", "2S", "3S", "4S", "14T", "15T"], "plays": [],
    }  # fmt: skip
    # Double (13): the twelve lowest trumps and the Excuse would hide 13T, still held: refused.
    double = {"seat": 0, "cards": [*trumps[:12], "EX"]}
    assert [v.code for v in evaluate({**deal, "poignees": [double]}).violations] == ["poignee_excuse"]
    # Triple (15): every trump held, the Excuse, and 14T shown again; 15T, discarded, may stay hidden.
    triple = {"seat": 0, "cards": [*trumps[:13], "EX", "14T"]}
    result = evaluate({**deal, "poignees": [triple]})
    assert result.valid, result.violations
    assert [(p.seat, p.size) for p in result.poignees] == [(0, PoigneeSize.TRIPLE)]
    # Without the Excuse, the fifteen trumps of hand and discard make the same triple.
    plain = {"seat": 0, "cards": trumps[:15]}
    assert evaluate({**deal, "poignees": [plain]}).valid


def test_9_5_poignee_in_a_deal_in_progress_without_hands_is_counted_not_judged() -> None:
    # Without hands, an unfinished deal shows only the cards played so far: a poignée can be
    # neither confirmed nor refuted, so it is counted and no violation is made up.
    deal = _first_with(4, lambda d: bool(d["poignees"]))
    partial = {**deal, "plays": deal["plays"][:8], "hands": None, "dog": None}
    result = evaluate(partial)
    assert result.status is Status.IN_PROGRESS and result.valid, result.violations
    assert [p.seat for p in result.poignees] == [p["seat"] for p in deal["poignees"]]
