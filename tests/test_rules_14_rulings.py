"""Rulings on faulty deals (rules.md §14, the Code of Arbitration): the core's decision table.

Deals are built with :mod:`service.randomdeals` (a seat's hand placed where a row needs it)
and made faulty on purpose; each test states by hand what the row rules, and checks the
marks: all 0 when void, the marks as played (a poignée's bonus kept or dropped as the row
says) when counted.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service import randomdeals
from service.randomdeals import random_deal, record
from service.rules.arbitration import SECTION, AtFault
from service.rules.cards import cards_of, format_card, mask_of, parse_card
from service.rules.deal import Evaluation, evaluate_deal
from service.rules.play import legal_cards
from service.rules.table import TABLES
from service.rules.verdicts import Decision, RulingReason, Violation, ViolationCode

from .mutations import KINDS, faulty, mutate, play_hands, roots

Deal = dict[str, Any]
BONUS = {1: 20, 2: 30, 3: 40}
"""A poignée's bonus by tier (simple, double, triple: §9.5), never multiplied."""
PLAIN_LOW = [f"{r}{s}" for s in "SHDC" for r in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")]


def evaluate(d: Deal) -> Evaluation:
    return evaluate_deal(record(d))


def codes(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(mask)]


def built(players: int, seed: str, seat: int, hand: list[str], taker: int, dealer: int) -> Deal:
    """A garde sans (the hands play as dealt) with ``hand`` dealt to ``seat``, the rest at
    random, played out legally."""
    rng = random.Random(seed)
    hands, dog = randomdeals.deal_around(rng, TABLES[players], {seat: [parse_card(c) for c in hand]})
    called = randomdeals.call(rng, hands[taker]) if players == 5 else None
    plays = randomdeals.play_out(rng, hands, (dealer + 1) % players, called)
    return {
        "players": players,
        "dealer": dealer,
        "hands": [codes(h) for h in hands],
        "dog": codes(dog),
        "contract": "garde_sans",
        "taker": taker,
        "called_card": None if called is None else format_card(called),
        "discard": [],
        "chelem_announced": False,
        "poignees": [],
        "plays": [format_card(c) for c in plays],
    }


def poignee_hand(players: int, held: int, excuse: bool = False, kings: bool = False) -> list[str]:
    """Exactly ``held`` trumps (2 upwards), the Excuse if asked, the four kings if asked (the
    taker's call then names this seat partner), low plain cards for the rest."""
    hand = (
        [f"{k}T" for k in range(2, held + 2)] + (["EX"] if excuse else []) + (["KS", "KH", "KD", "KC"] if kings else [])
    )
    return hand + PLAIN_LOW[: TABLES[players].hand_size - len(hand)]


def taker_won(ev: Evaluation) -> bool:
    assert ev.ruling is not None
    return ev.ruling.as_played.won


@dataclass(frozen=True)
class PoigneeRow:
    """A row of the seed's poignée table, as a test states it."""

    name: str
    held: int  # trumps over the smallest tier (0: exactly the tier)
    shown: Callable[[list[str]], list[str]]
    by_taker: bool
    taker_wins: bool | None  # None: either outcome
    reason: RulingReason | None  # None: no fault
    decision: Decision | None
    at_fault: AtFault | None
    bonus: str
    """"kept": as played, its bonus in; "dropped": as played less it; "none": no bonus as played
    nor after; "rectified": none as played, the smallest tier's after (completed, §14.6)."""
    excuse: bool = False
    shown_at: Callable[[int], int] | None = None  # from the owner's position in the opening trick
    shuffled: bool = False
    second: bool = False  # the seat shows the same poignée again
    partner: bool = False  # shown by the taker's partner (five players)


def trumps_of(hand: list[str]) -> list[str]:
    return [c for c in hand if c.endswith("T")]


def _rows() -> list[PoigneeRow]:
    counted, void = Decision.COUNTED, Decision.VOID
    attack, defence = AtFault.ATTACK, AtFault.DEFENCE
    reasons = RulingReason
    every = trumps_of
    short = lambda h: trumps_of(h)[1:]  # noqa: E731
    with_excuse = lambda h: [*trumps_of(h)[1:], "EX"]  # noqa: E731
    twice = lambda h: [*trumps_of(h), trumps_of(h)[0]]  # noqa: E731
    return [
        PoigneeRow("disorderly", 0, every, False, None, None, None, None, "kept", shuffled=True),
        PoigneeRow(
            "incomplete_rectifiable", 0, short, False, None, reasons.POIGNEE_RECTIFIABLE, counted, None, "rectified"
        ),
        PoigneeRow(
            "unrectifiable_by_taker", -1, every, True, None, reasons.POIGNEE_UNRECTIFIABLE, counted, attack, "none"
        ),
        PoigneeRow(
            "unrectifiable_by_defender_taker_won",
            -1,
            every,
            False,
            True,
            reasons.POIGNEE_UNRECTIFIABLE,
            counted,
            defence,
            "none",
        ),
        PoigneeRow(
            "unrectifiable_by_defender_taker_lost",
            -1,
            every,
            False,
            False,
            reasons.POIGNEE_UNRECTIFIABLE,
            void,
            defence,
            "none",
        ),
        PoigneeRow("too_many_by_taker", 1, every, True, None, reasons.POIGNEE_TOO_MANY, counted, attack, "kept"),
        PoigneeRow(
            "too_many_by_defender_taker_won", 1, every, False, True, reasons.POIGNEE_TOO_MANY, counted, defence, "kept"
        ),
        PoigneeRow(
            "too_many_by_defender_taker_lost", 1, every, False, False, reasons.POIGNEE_TOO_MANY, void, defence, "kept"
        ),
        PoigneeRow(
            "before_covered",
            0,
            every,
            False,
            None,
            reasons.POIGNEE_BEFORE_COVERED,
            counted,
            None,
            "kept",
            shown_at=lambda first: first + 1,
        ),
        PoigneeRow(
            "late_by_taker_won",
            0,
            every,
            True,
            True,
            reasons.POIGNEE_LATE,
            counted,
            attack,
            "dropped",
            shown_at=lambda first: first + 6,
        ),
        PoigneeRow(
            "late_by_taker_lost",
            0,
            every,
            True,
            False,
            reasons.POIGNEE_LATE,
            counted,
            attack,
            "kept",
            shown_at=lambda first: first + 6,
        ),
        PoigneeRow(
            "late_by_defender_taker_won",
            0,
            every,
            False,
            True,
            reasons.POIGNEE_LATE,
            counted,
            defence,
            "kept",
            shown_at=lambda first: first + 6,
        ),
        PoigneeRow(
            "late_by_defender_taker_lost",
            0,
            every,
            False,
            False,
            reasons.POIGNEE_LATE,
            void,
            defence,
            "kept",
            shown_at=lambda first: first + 6,
        ),
        PoigneeRow(
            "excuse_side_at_fault_won",
            0,
            with_excuse,
            False,
            False,
            reasons.POIGNEE_EXCUSE,
            void,
            defence,
            "kept",
            excuse=True,
        ),
        PoigneeRow(
            "excuse_side_at_fault_lost",
            0,
            with_excuse,
            False,
            True,
            reasons.POIGNEE_EXCUSE,
            counted,
            defence,
            "kept",
            excuse=True,
        ),
        # The taker's column of the rows above whose ruling does not turn on who won.
        PoigneeRow(
            "incomplete_rectifiable_by_taker",
            0,
            short,
            True,
            None,
            reasons.POIGNEE_RECTIFIABLE,
            counted,
            None,
            "rectified",
        ),
        PoigneeRow(
            "before_covered_by_taker",
            0,
            every,
            True,
            None,
            reasons.POIGNEE_BEFORE_COVERED,
            counted,
            None,
            "kept",
            shown_at=lambda first: first + 1,
        ),
        PoigneeRow(
            "excuse_by_taker_won", 0, with_excuse, True, True, reasons.POIGNEE_EXCUSE, void, attack, "kept", excuse=True
        ),
        PoigneeRow(
            "excuse_by_taker_lost",
            0,
            with_excuse,
            True,
            False,
            reasons.POIGNEE_EXCUSE,
            counted,
            attack,
            "kept",
            excuse=True,
        ),
        # A seat's second poignée, or a card shown twice: counted without it, both columns. The
        # first poignée of a seat showing twice keeps its bonus; one listing a card twice has none.
        PoigneeRow("second_by_taker", 0, every, True, None, reasons.POIGNEE_SECOND, counted, None, "kept", second=True),
        PoigneeRow(
            "second_by_defender", 0, every, False, None, reasons.POIGNEE_SECOND, counted, None, "kept", second=True
        ),
        PoigneeRow("card_twice_by_taker", 0, twice, True, None, reasons.POIGNEE_SECOND, counted, None, "none"),
        PoigneeRow("card_twice_by_defender", 0, twice, False, None, reasons.POIGNEE_SECOND, counted, None, "none"),
    ]


def _partner_rows() -> list[PoigneeRow]:
    """The partner's poignée at five players: the defender's column with the sides exchanged
    (§14.6), void if the attack won, else counted; the rows no side is at fault in, unchanged."""
    out = []
    for row in _rows():
        if row.by_taker:
            continue
        flip = row.at_fault is AtFault.DEFENCE
        swapped = row.name.replace("taker_won", "@").replace("taker_lost", "taker_won").replace("@", "taker_lost")
        out.append(
            replace(
                row,
                name=f"{swapped if flip else row.name}_by_partner".replace("_by_defender", ""),
                taker_wins=None if row.taker_wins is None else row.taker_wins != flip,
                at_fault=AtFault.ATTACK if flip else row.at_fault,
                partner=True,
            )
        )
    return out


ROWS = _rows()
PARTNER_ROWS = _partner_rows()


def poignee_deal(players: int, row: PoigneeRow) -> tuple[Deal, Evaluation]:
    """The first seeded deal where ``row``'s poignée is shown by the seat it names, with the
    outcome it asks for."""
    first_tier = TABLES[players].poignee_sizes[0]
    for i in range(300):
        rng = random.Random(f"{row.name}/{players}/{i}")
        dealer, taker = rng.randrange(players), rng.randrange(players)
        seat = taker if row.by_taker else (taker + 1 + rng.randrange(players - 1)) % players
        hand = poignee_hand(players, first_tier + row.held, row.excuse, row.partner)
        d = built(players, f"{row.name}/{players}/{i}", seat, hand, taker, dealer)
        shown = row.shown(hand)
        if row.shuffled:
            shown = rng.sample(shown, len(shown))
        poignee: dict[str, Any] = {"seat": seat, "cards": shown}
        if row.shown_at is not None:
            poignee["shown_at"] = row.shown_at((seat - dealer - 1) % players)
        d["poignees"] = [poignee, dict(poignee)] if row.second else [poignee]
        ev = evaluate(d)
        if (seat == taker, seat in ev.attack) != (row.by_taker, row.by_taker or row.partner):
            continue  # five players: the seat is the called partner, or is not
        won = ev.score.won if ev.ruling is None and ev.score is not None else taker_won(ev)
        if row.taker_wins is None or won == row.taker_wins:
            return d, ev
    raise AssertionError(f"{row.name} at {players}: no deal")


def marks(ev: Evaluation, base: tuple[int, ...], won: bool, bonus: int) -> tuple[int, ...]:
    """Every seat's mark by §9.3: ``base`` (the deal scored without poignées) and ``bonus``, the
    poignée points counted, which go to the side that wins the deal (§9.5). A defender's share
    is −1; the taker's 2 at three players, 3 at four; at five the taker's 2 and the partner's 1,
    or 4 for a taker alone."""
    assert ev.taker is not None
    n, taker = len(base), ev.taker
    partners = [s for s in ev.attack if s != taker]
    taker_share = {3: 2, 4: 3, 5: 4 if not partners else 2}[n]
    signed = bonus if won else -bonus
    share = [taker_share if s == taker else 1 if s in partners else -1 for s in range(n)]
    return tuple(b + k * signed for b, k in zip(base, share, strict=True))


TABLE_CASES = [(players, row) for players in (4, 5) for row in ROWS] + [(5, row) for row in PARTNER_ROWS]


@pytest.mark.parametrize(("players", "row"), TABLE_CASES, ids=[f"{r.name}-{n}" for n, r in TABLE_CASES])
def test_14_6_poignee_table(players: int, row: PoigneeRow) -> None:
    d, ev = poignee_deal(players, row)
    # The same deal without its poignées is valid (a poignée is its only fault): its marks are
    # the base every seat's mark is stated from.
    plain = evaluate({**d, "poignees": []})
    assert plain.valid and plain.score is not None and plain.attack == ev.attack
    base, won = plain.score.scores, plain.score.won
    if row.reason is None:  # cards listed out of order: no fault, the poignée counted
        assert ev.valid and ev.ruling is None and ev.score is not None
        assert ev.score.scores == marks(ev, base, won, BONUS[1])
        return
    ruling = ev.ruling
    assert ruling is not None
    assert (ruling.reason, ruling.decision, ruling.side_at_fault) == (row.reason, row.decision, row.at_fault)
    assert ruling.faults == tuple(roots(ev))
    assert ruling.as_played.won == won
    # As played, a poignée counts at the tier its cards reach (over a tier: at it), none below
    # the smallest tier or for a seat's second one (§14.1).
    shown_bonus = 0 if row.bonus in ("none", "rectified") else BONUS[1]
    assert ruling.as_played.scores == marks(ev, base, won, shown_bonus)
    if row.decision is Decision.VOID:
        assert ruling.scores == (0,) * players
        return
    ruled_bonus = {"kept": BONUS[1], "none": 0, "dropped": 0, "rectified": BONUS[1]}[row.bonus]
    assert ruling.scores == marks(ev, base, won, ruled_bonus)


# Faults of one seat's play: swap, in a legal deal, a seat's card for a card of its own hand
# that the rules refuse there, played later in its stead.


def one_fault(players: int, code: ViolationCode, seeds: range) -> Iterator[tuple[Deal, Evaluation]]:
    """Legal deals made faulty by one seat's ``code``, the only root fault: at the first place
    where swapping the card played for a refused card of the same hand gives it."""
    for seed in seeds:
        found = _first_swap(random_deal(seed, players), code)
        if found is not None:
            yield found


def _first_swap(d: Deal, code: ViolationCode) -> tuple[Deal, Evaluation] | None:
    n = d["players"]
    ev = evaluate(d)
    plays = [parse_card(c) for c in d["plays"]]
    live = [mask_of(parse_card(c) for c in h) for h in play_hands(d)]
    ban = parse_card(d["called_card"]) if n == 5 and d["called_card"] else None
    for t, trick in enumerate(ev.tricks):
        for pos, card in enumerate(trick.cards):
            seat = (trick.leader + pos) % n
            legal = legal_cards(live[seat], trick.cards[:pos], banned_lead=ban if t == 0 else None).cards
            refused = cards_of(live[seat] & ~legal)
            live[seat] &= ~(1 << card)
            for other in refused:
                i, j = t * n + pos, plays.index(other)
                swapped = list(d["plays"])
                swapped[i], swapped[j] = swapped[j], swapped[i]
                bad = {**d, "plays": swapped}
                got = evaluate(bad)
                rs = roots(got)
                if len(rs) == 1 and got.violations[rs[0]].code is code:
                    return bad, got
    return None


def check_incorrigible(ev: Evaluation, seat: int, reason: RulingReason) -> bool:
    """The side at fault is ``seat``'s; void exactly when it won as played, else counted as
    played. Returns whether that side won."""
    ruling = ev.ruling
    assert ruling is not None and ruling.reason is reason
    attack = seat in ev.attack
    assert ruling.side_at_fault is (AtFault.ATTACK if attack else AtFault.DEFENCE)
    side_won = ruling.as_played.won == attack
    if side_won:
        assert ruling.decision is Decision.VOID and ruling.scores == (0,) * len(ruling.scores)
    else:
        assert ruling.decision is Decision.COUNTED and ruling.scores == ruling.as_played.scores
    return side_won


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("code", [ViolationCode.RENOUNCE, ViolationCode.MUST_TRUMP, ViolationCode.MUST_OVERTRUMP])
def test_14_2_completed_renounce_by_one_seat(players: int, code: ViolationCode) -> None:
    outcomes = set()
    for _, ev in one_fault(players, code, range(40)):
        root = ev.violations[roots(ev)[0]]
        assert root.seat is not None
        outcomes.add(check_incorrigible(ev, root.seat, RulingReason.COMPLETED_RENOUNCE))
        if len(outcomes) == 2:
            break
    assert outcomes == {True, False}  # both the void and the counted ruling were seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_14_4_discard_fault_by_the_taker(players: int) -> None:
    outcomes = set()
    for m, ev in faulty("discard_king_swapped", range(200), players):
        if [ev.violations[i].code for i in roots(ev)] != [ViolationCode.DISCARD_KING_OR_BOUT]:
            continue
        outcomes.add(check_incorrigible(ev, m.deal["taker"], RulingReason.DISCARD_FAULT))
        if len(outcomes) == 2:
            break
    assert outcomes == {True, False}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_14_6_excuse_shown_while_a_trump_is_kept(players: int) -> None:
    outcomes = set()
    # A seat holding the Excuse and a tier's trumps shows the Excuse in place of one.
    for m, ev in faulty("poignee_excuse", range(3000), players):
        if [ev.violations[i].code for i in roots(ev)] != [ViolationCode.POIGNEE_EXCUSE]:
            continue
        ruling = ev.ruling
        assert ruling is not None and ruling.reason is RulingReason.POIGNEE_EXCUSE
        attack = m.seat in ev.attack
        assert ruling.side_at_fault is (AtFault.ATTACK if attack else AtFault.DEFENCE)
        side_won = ruling.as_played.won == attack
        assert ruling.decision is (Decision.VOID if side_won else Decision.COUNTED)
        assert ruling.scores == ((0,) * players if side_won else ruling.as_played.scores)
        outcomes.add(side_won)
        if len(outcomes) == 2:
            break
    # Three players rarely deal a tier's 13 trumps and the Excuse together: one outcome there.
    assert outcomes == {True, False} if players > 3 else outcomes


@pytest.mark.parametrize("players", [3, 4, 5])
def test_14_3_opening_lead_out_of_turn_covered_is_no_fault(players: int) -> None:
    found = 0
    for seed in range(200):
        d = random_deal(seed, players)
        if d["chelem_announced"]:
            continue
        ev = evaluate(d)
        first = ev.tricks[0]
        led, answer = first.cards[0], first.cards[1]
        other_side = (first.leader in ev.attack) != ((first.leader + 1) % players in ev.attack)
        same_suit = format_card(led)[-1] == format_card(answer)[-1] and format_card(led)[-1] in "SHDC"
        if not (other_side and same_suit and format_card(led) != "EX" and format_card(answer) != "EX"):
            continue
        # The record names the dealer one seat earlier: the seat after the one due led.
        moved = evaluate({**d, "dealer": (d["dealer"] - 1) % players})
        assert [v.code for v in moved.violations] == [ViolationCode.WRONG_LEADER]
        ruling = moved.ruling
        assert ruling is not None
        assert (ruling.reason, ruling.decision, ruling.side_at_fault) == (
            RulingReason.COVERED_LEAD,
            Decision.COUNTED,
            None,
        )
        assert ruling.scores == ruling.as_played.scores
        found += 1
        if found == 3:
            break
    assert found == 3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_14_valid_deals_and_deals_in_progress_carry_no_ruling(players: int) -> None:
    for seed in range(10):
        d = random_deal(seed, players)
        ev = evaluate(d)
        assert ev.valid and ev.ruling is None and ev.score is not None
        partial = evaluate({**d, "plays": d["plays"][: len(d["plays"]) // 2]})
        assert partial.ruling is None
    for m, _ in faulty("swapped_pair", range(60), players):
        cut = evaluate({**m.deal, "plays": m.deal["plays"][: len(m.deal["plays"]) - 1]})
        if not cut.valid:
            assert cut.ruling is None  # faulty but not complete: no ruling yet
            return
    pytest.fail("no faulty deal in progress")


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POIGNEE_CODES = {
    ViolationCode.POIGNEE_SIZE,
    ViolationCode.POIGNEE_CARD,
    ViolationCode.POIGNEE_EXCUSE,
    ViolationCode.POIGNEE_DUPLICATE,
    ViolationCode.POIGNEE_LATE,
}
PLAY_FAULTS = {
    ViolationCode.RENOUNCE,
    ViolationCode.MUST_TRUMP,
    ViolationCode.MUST_OVERTRUMP,
    ViolationCode.CALLED_SUIT_LEAD,
    ViolationCode.CARD_NOT_IN_HAND,
}
AUCTION_FAULTS = {ViolationCode.BID_ORDER, ViolationCode.BID_NOT_HIGHER, ViolationCode.BAD_CALL}
DISCARD_FAULTS = {
    ViolationCode.DISCARD_SIZE,
    ViolationCode.DISCARD_NOT_HELD,
    ViolationCode.DISCARD_KING_OR_BOUT,
    ViolationCode.DISCARD_TRUMP,
}
WON_DECIDES = {
    RulingReason.COMPLETED_RENOUNCE,
    RulingReason.WRONG_CARD_COUNT,
    RulingReason.AUCTION_FAULT,
    RulingReason.DISCARD_FAULT,
    RulingReason.EXPOSED_IMPORTANT_CARD,
}
"""The rows of §14.2-§14.4 whose decision turns on who won: void if the side at fault did."""
BOTH = {AtFault.ATTACK, AtFault.DEFENCE}
ON_TOP = ("discard_king_played", "poignee_size", "poignee_card", "poignee_excuse", "poignee_late")
"""Mutations that leave the plays alone, so that they still apply to a deal already made faulty."""


def dealing_fault(v: Violation) -> bool:
    """A fault of the deal itself (§14.5): a hand's size, a card dealt (not played) twice, a
    petit sec played."""
    dealt_twice = v.code is ViolationCode.DUPLICATE_CARD and v.trick is None
    return v.code in (ViolationCode.HAND_SIZE, ViolationCode.PETIT_SEC) or dealt_twice


def sides_at_fault(ev: Evaluation, v: Violation) -> set[AtFault] | None:
    """The sides a root fault puts at fault by its row of §14.2-§14.4 and §14.6, for the codes
    whose row the code alone decides; None for the others (a lead out of turn may be covered,
    a poignée rectified) and for the faults of the deal (nobody's)."""
    side = None if v.seat is None else AtFault.ATTACK if v.seat in ev.attack else AtFault.DEFENCE
    if v.code in PLAY_FAULTS or v.code is ViolationCode.POIGNEE_EXCUSE:
        return {side} if side is not None else None
    if v.code in AUCTION_FAULTS:
        return {side or AtFault.ATTACK}  # no seat named: the taker's contract
    if v.code in DISCARD_FAULTS:
        return {AtFault.ATTACK}
    if v.code is ViolationCode.PLAYS_LENGTH or (v.code is ViolationCode.DUPLICATE_CARD and v.trick is not None):
        return {side} if side is not None else set(BOTH)  # no seat to hold to it: both
    return None


def dealt_wrong(d: Deal, how: str | None) -> Deal:
    """``d`` with a fault of the deal put into it: a card moved from one hand to the next
    (two hands of the wrong size), or a card of one hand dealt again in place of one of the
    next hand's."""
    if how is None:
        return d
    hands = [list(h) for h in d["hands"]]
    card = hands[0][0]
    if how == "hand_size":
        hands[0], hands[1] = hands[0][1:], [*hands[1], card]
    else:
        hands[1] = [card, *hands[1][1:]]
    return {**d, "hands": hands}


@SETTINGS
@given(
    kind=st.sampled_from(sorted(KINDS)),
    seed=st.integers(0, 10_000),
    players=st.sampled_from([3, 4, 5]),
    cut=st.sampled_from([0, 0, 0, 1, 7]),
    also=st.sampled_from([None, None, *ON_TOP]),
    dealt=st.sampled_from([None, None, None, None, "hand_size", "dealt_twice"]),
)
def test_14_ruling_properties_over_mutated_deals(
    kind: str, seed: int, players: int, cut: int, also: str | None, dealt: str | None
) -> None:
    m = mutate(kind, seed, players)
    assume(m is not None)
    assert m is not None
    d = m.deal
    if also is not None:  # a second fault, often of another seat or side: several roots
        d = getattr(KINDS[also](d, random.Random(f"{also}/{seed}")), "deal", d)
    d = dealt_wrong(d if not cut else {**d, "plays": d["plays"][:-cut]}, dealt)
    ev = evaluate(d)
    complete = ev.status.value == "complete"
    assert (ev.ruling is not None) == (complete and not ev.valid)
    if ev.ruling is None:
        return
    ruling = ev.ruling
    assert sum(ruling.scores) == 0 and sum(ruling.as_played.scores) == 0
    assert ruling.faults == tuple(roots(ev))
    if ruling.decision in (Decision.VOID, Decision.REDEAL):
        assert ruling.scores == (0,) * players
    root_faults = [ev.violations[i] for i in ruling.faults]
    root_codes = {v.code for v in root_faults}
    if ruling.decision is Decision.COUNTED and not root_codes & POIGNEE_CODES:
        assert ruling.scores == ruling.as_played.scores

    # §14.1: a fault of the deal anywhere makes the ruling a new deal, and only one does.
    dealing = any(dealing_fault(v) for v in root_faults)
    assert (ruling.decision is Decision.REDEAL) == dealing
    if dealing:
        assert (ruling.reason, ruling.side_at_fault) == (RulingReason.DEALING_FAULT, None)
        return
    assert ruling.reason is not RulingReason.DEALING_FAULT

    # §14.1: roots on both sides make the deal void, whichever side won: the sides each root
    # puts at fault (where its code decides it) are among the ruling's.
    stated = [sides_at_fault(ev, v) for v in root_faults]
    known: set[AtFault] = set().union(*(x for x in stated if x is not None))
    held = BOTH if ruling.side_at_fault is AtFault.BOTH else {ruling.side_at_fault} - {None}
    assert known <= held
    if held == BOTH:
        assert ruling.decision is Decision.VOID
        # A fault no seat can be held to is a row of its own (§14.2: wrong_card_count, both).
        seatless = any(x == BOTH for x in stated)
        assert ruling.reason is (RulingReason.WRONG_CARD_COUNT if seatless else RulingReason.BOTH_SIDES_AT_FAULT)
    if ruling.reason is RulingReason.BOTH_SIDES_AT_FAULT:
        assert held == BOTH

    # §14.2-§14.4: the side at fault must not profit: void exactly when it won as played, else
    # counted as played (a poignée's row may still drop its bonus).
    if ruling.reason in WON_DECIDES and held != BOTH:
        assert ruling.side_at_fault in BOTH
        side_won = ruling.as_played.won == (ruling.side_at_fault is AtFault.ATTACK)
        assert ruling.decision is (Decision.VOID if side_won else Decision.COUNTED)
        if not side_won and not root_codes & POIGNEE_CODES:
            assert ruling.scores == ruling.as_played.scores


def test_14_6_a_late_poignee_is_ruled_late_whatever_else_is_wrong_with_it() -> None:
    # Shown late and of the wrong size: the late rule, never a rectification that keeps its bonus.
    from service.randomdeals import random_deal, record
    from service.rules.arbitration import RulingReason
    from service.rules.deal import evaluate_deal
    from service.rules.verdicts import ViolationCode

    for seed in range(60):
        deal = random_deal(seed, 5)
        first = evaluate_deal(record(deal))
        if first.taker is None or not first.valid:
            continue
        trumps = [c for c in deal["plays"] if c.endswith("T")][:7]
        late = {**deal, "poignees": [{"seat": first.taker, "cards": trumps, "shown_at": 60}]}
        ev = evaluate_deal(record(late))
        codes = [v.code for v in ev.violations if v.caused_by is None]
        assert codes == [ViolationCode.POIGNEE_LATE]
        assert ev.ruling is not None and ev.ruling.reason is RulingReason.POIGNEE_LATE
        return
    raise AssertionError("no deal to try")


def test_14_every_row_names_the_section_that_states_it() -> None:
    assert set(SECTION) == set(RulingReason)
    for reason, section in SECTION.items():
        assert f"({section})" in reason.description, reason
