"""The kit's reference model (conformance/generator/oracle.py) held to the rules core.

The model reads the rulebook apart from service/rules, on the wire's card codes; the kit
writes no case the two disagree on. Here Hypothesis draws what the kit draws from, and more:
deals of the one random-deal generator (service/randomdeals.py) under every rule variant the
model knows, given with their hands or without, complete or cut short, made faulty by the
mutations of tests/mutations.py or by any two cards swapped; and hands, tricks, deal
summaries, seeds and decks of its own; and tournaments, clean or with a scored error planted
(tests/tournaments.py). Each time the model's deal of the cards, legal cards (and the rule
deciding them), trick winner, Excuse settlement, count, score, first fault and control table
must be the core's, read through its API (no HTTP; the tournament through its contract).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conformance.generator.cards import Deal
from conformance.generator.oracle import (
    ref_chelem_points,
    ref_deal_answer,
    ref_evaluate,
    ref_first_fault,
    ref_legal,
    ref_score,
    ref_trick_index,
    start_hands,
)
from conformance.generator.standings import standings_pointers, standings_reference
from service.cli.casefiles import resolve
from service.contract.jsonio import dumps
from service.contract.standings import STANDINGS
from service.randomdeals import random_deal, random_record, record, request_of
from service.rules.cards import DECK_SIZE, cards_of, format_card, mask_of, parse_card
from service.rules.deal import Evaluation, Status, evaluate_deal
from service.rules.dealing import FFT_PACKETS, deal_deck, packet_fits
from service.rules.play import legal_cards, trick_winner
from service.rules.scoring import Contract, PoigneeSize, Side, Summary, score
from service.rules.shuffle import is_valid_seed, shuffled_deck
from service.rules.table import TABLES
from service.rules.variants import ExcuseLastTrick, FirstLead, Rules

from .mutations import KINDS
from .tournaments import KINDS as TOURNAMENT_KINDS
from .tournaments import plant, random_tournament

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CODES = [format_card(c) for c in range(DECK_SIZE)]
players = st.sampled_from([3, 4, 5])
seeds = st.integers(0, 2**32)
rules = st.builds(
    Rules,
    excuse_last_trick=st.sampled_from(list(ExcuseLastTrick)),
    first_lead=st.sampled_from(list(FirstLead)),
    excuse_chelem_requires_announce=st.booleans(),
    called_suit_lead_ban=st.booleans(),
    petit_au_bout_to_taker=st.booleans(),
    discard_kings_when_forced=st.booleans(),
)
"""The variants the model reads (petit sec and pousse are the deal's and the auction's, not its)."""

FAULT_KINDS = [
    "swapped_pair",
    "wrong_card_swapped",
    "discard_king_played",
    "discard_king_swapped",
    "discarded_played",
    "leader_rotated",
    "poignee_size",
    "poignee_card",
    "poignee_excuse",
]
"""The mutations whose faults the model knows: the discard, the poignées and the play."""


def core_view(ev: Evaluation, n: int) -> dict[str, Any]:
    """The core's verdicts under the pointers of the evaluate answer, as the model writes them."""
    view: dict[str, Any] = {
        "/status": ev.status.value,
        "/valid": ev.valid,
        "/taker": ev.taker,
        "/contract": None if ev.contract is None else ev.contract.value,
        "/partner": ev.partner,
        "/poignees": [{"seat": p.seat, "side": p.side.value, "size": p.size.value} for p in ev.poignees],
        "/chelem/announced": ev.chelem_announced,
    }
    view |= {f"/unchecked/{i}/code": u.code.value for i, u in enumerate(ev.unchecked)}
    view |= {f"/tricks/{i}/winner": t.winner for i, t in enumerate(ev.tricks) if len(t.cards) == n}
    x = ev.excuse
    if x is None:
        view["/excuse"] = None
    else:
        view["/excuse/outcome"] = x.outcome.value
        view["/excuse/kept_by"] = None if x.kept_by is None else x.kept_by.value
        view["/excuse/exchange"] = None
        if x.exchange is not None:
            view["/excuse/exchange"] = {
                "from_side": x.exchange.from_side.value,
                "to_side": x.exchange.to_side.value,
                "paid_at_trick": x.exchange.paid_at_trick,
                "on_paper": x.exchange.paid_at_trick is None and ev.status is Status.COMPLETE,
            }
    if ev.points_half is not None and ev.oudlers is not None:
        view["/points/attack"], view["/points/defence"] = ev.points_half[0] / 2, ev.points_half[1] / 2
        view["/oudlers/attack"], view["/oudlers/defence"] = ev.oudlers
        view["/petit_au_bout"] = None if ev.petit_au_bout is None else ev.petit_au_bout.value
        view["/chelem/made_by"] = None if ev.chelem_made_by is None else ev.chelem_made_by.value
    if ev.score is not None:
        view |= score_view(ev.score)
    if ev.next is not None:
        view["/next/seat"] = ev.next.seat
        view["/next/legal"] = None if ev.next.legal is None else [format_card(c) for c in cards_of(ev.next.legal)]
    return view


def score_view(s: Any, prefix: str = "/score") -> dict[str, Any]:
    return {
        f"{prefix}/won": s.won,
        f"{prefix}/threshold": s.threshold_half / 2,
        f"{prefix}/margin": s.margin,
        f"{prefix}/multiplier": s.multiplier,
        f"{prefix}/contract_points": s.contract_points,
        f"{prefix}/petit_au_bout": s.petit_au_bout,
        f"{prefix}/poignees": s.poignees,
        f"{prefix}/chelem": s.chelem,
        f"{prefix}/per_defender": s.per_defender,
        f"{prefix}/scores": list(s.scores),
    }


def same_reading(model: dict[str, Any], core: dict[str, Any]) -> None:
    """Every verdict of the model is the core's (the poignées and legal cards as multisets)."""
    for pointer, value in model.items():
        assert pointer in core, f"the core says nothing at {pointer}"
        got, want = core[pointer], value
        if pointer in ("/poignees", "/next/legal") and want is not None and got is not None:
            want, got = sorted(want, key=repr), sorted(got, key=repr)
        assert got == want, f"{pointer}: the model says {value!r}, the core {core[pointer]!r}"


LEFT_OUT = st.sets(st.sampled_from(["hands", "dog", "discard", "chelem_announced"]))
"""The parts of a record a client may leave out and the model reads (§12, "What a record leaves out")."""


def deal_of(seed: int, n: int, variant: Rules, hidden: set[str], cut: float | None) -> Deal:
    """A generated deal as a request: some of its parts left out (§12), cut short or not."""
    d = request_of(random_record(seed, n, variant))
    d = {k: v for k, v in d.items() if k not in hidden}
    if cut is not None:
        d["plays"] = d["plays"][: int(cut * len(d["plays"]))]
    return d


@SETTINGS
@given(seeds, players, rules, LEFT_OUT, st.none() | st.floats(0, 1, exclude_max=True))
def test_the_model_reads_generated_deals_as_the_core_does(
    seed: int, n: int, variant: Rules, hidden: set[str], cut: float | None
) -> None:
    """Trick winners, the Excuse, count, score, or who plays next and what: §6–§9, §12. A chelem
    announced, then left out with the hands: the core reads the seat due leading, and where that
    reading shows faults, the taker leading (§12); the model finds no faults, so it cannot make
    the second reading, and such a record is not put to it."""
    full = request_of(random_record(seed, n, variant))
    assume(not ({"chelem_announced", "hands"} <= hidden and full.get("chelem_announced")))
    d = deal_of(seed, n, variant, hidden, cut)
    ev = evaluate_deal(record(d))
    assert ev.valid, ev.violations
    same_reading(ref_evaluate(d).answer, core_view(ev, n))


@SETTINGS
@given(seeds, players, rules)
def test_the_model_finds_the_legal_cards_of_every_position_as_the_core_does(seed: int, n: int, variant: Rules) -> None:
    """§5.3, §6: every card of a generated deal, from the hand its seat held then."""
    d = request_of(random_record(seed, n, variant))
    ev = evaluate_deal(record(d))
    hands = start_hands(d, d["taker"], d["contract"])
    banned = d["called_card"] if n == 5 and variant.called_suit_lead_ban else None
    for t, trick in enumerate(ev.tricks):
        for pos, card in enumerate(trick.cards):
            seat = (trick.leader + pos) % n
            before = [format_card(c) for c in trick.cards[:pos]]
            ban = banned if t == 0 else None
            core = legal_cards(
                mask_of(map(parse_card, hands[seat])),
                trick.cards[:pos],
                banned_lead=None if ban is None else parse_card(ban),
            )
            legal, reason = ref_legal(hands[seat], before, ban)
            assert (legal, reason) == ([format_card(c) for c in cards_of(core.cards)], core.reason.value)
            hands[seat].remove(format_card(card))


positions = st.lists(st.sampled_from(CODES), min_size=1, max_size=30, unique=True)


@SETTINGS
@given(positions, st.integers(0, 4), st.sampled_from(CODES[:56]), st.booleans())
def test_the_model_finds_the_legal_cards_of_any_position_as_the_core_does(
    cards: list[str], before: int, called: str, first_trick: bool
) -> None:
    """§5.3, §6 on positions no deal needs to reach: a hand, a trick of other cards, a ban."""
    trick, hand = cards[: min(before, len(cards) - 1)], cards[min(before, len(cards) - 1) :]
    ban = called if first_trick else None
    core = legal_cards(
        mask_of(map(parse_card, hand)),
        [parse_card(c) for c in trick],
        banned_lead=None if ban is None else parse_card(ban),
    )
    legal, reason = ref_legal(hand, trick, ban)
    assert (sorted(legal), reason) == (sorted(format_card(c) for c in cards_of(core.cards)), core.reason.value)


@SETTINGS
@given(st.lists(st.sampled_from(CODES), min_size=1, max_size=5, unique=True))
def test_the_model_names_the_trick_winner_as_the_core_does(cards: list[str]) -> None:
    """§7: the highest trump, else the highest card of the suit led; the Excuse never."""
    assert ref_trick_index(cards) == trick_winner([parse_card(c) for c in cards])


@SETTINGS
@given(
    players,
    st.sampled_from(list(Contract)),
    st.integers(0, 4),
    st.integers(0, 182),
    st.integers(0, 3),
    st.sampled_from([None, Side.ATTACK, Side.DEFENCE]),
    st.lists(st.tuples(st.sampled_from(list(Side)), st.sampled_from(list(PoigneeSize))), max_size=2),
    st.booleans(),
    st.sampled_from([None, Side.ATTACK, Side.DEFENCE]),
)
def test_the_model_scores_a_summary_as_the_core_does(
    n: int,
    contract: Contract,
    partner: int,
    halves: int,
    oudlers: int,
    petit: Side | None,
    poignees: list[tuple[Side, PoigneeSize]],
    announced: bool,
    made_by: Side | None,
) -> None:
    """§9.2–9.6: each term of D and the marks (the taker is seat 0, a partner any seat at five)."""
    mate = partner if n == 5 else None
    core = score(Summary(n, contract, 0, mate, halves, oudlers, petit, tuple(poignees), announced, made_by))
    model = ref_score(
        n,
        contract.value,
        0,
        mate,
        halves / 2,
        oudlers,
        None if petit is None else petit.value,
        [size.value for _, size in poignees],
        announced,
        None if made_by is None else made_by.value,
    )
    same_reading({"/score" + k: v for k, v in model.items()}, score_view(core))


@SETTINGS
@given(seeds, players, st.sampled_from(FAULT_KINDS))
def test_the_model_finds_the_first_fault_of_a_mutated_deal_as_the_core_does(seed: int, n: int, kind: str) -> None:
    """§4.2, §9.5, §6, §12: the first fault of the discard, the poignées and the play."""
    mutation = KINDS[kind](random_deal(seed, n), random.Random(seed))
    assume(mutation is not None)
    assert mutation is not None
    held_to_core(mutation.deal)


@SETTINGS
@given(seeds, players, st.data())
def test_the_model_finds_the_first_fault_of_any_two_cards_swapped_as_the_core_does(
    seed: int, n: int, data: st.DataObject
) -> None:
    """The kit's own faulty deals: two cards of the play swapped, whoever played them."""
    d = request_of(random_record(seed, n))
    i = data.draw(st.integers(0, len(d["plays"]) - 2))
    j = data.draw(st.integers(i + 1, len(d["plays"]) - 1))
    plays = list(d["plays"])
    plays[i], plays[j] = plays[j], plays[i]
    held_to_core({**d, "plays": plays})


def held_to_core(d: Deal) -> None:
    ev = evaluate_deal(record(d))
    first = ev.violations[0] if ev.violations else None
    core = None if first is None else (first.code.value, first.trick, first.seat)
    assert ref_first_fault(d) == core, ev.violations


@SETTINGS
@given(
    players,
    st.integers(0, 4),
    st.one_of(st.text(min_size=1, max_size=30).filter(is_valid_seed), st.permutations(CODES)),
    st.sampled_from([None, 1, 3, 4]),
    st.booleans(),
)
def test_the_model_deals_the_cards_as_the_core_does(
    n: int, dealer: int, source: str | list[str], packet: int | None, ignores_excuse: bool
) -> None:
    table = TABLES[n]
    assume(packet is None or packet_fits(table, packet))
    dealer %= n
    request: dict[str, Any] = {"players": n, "dealer": dealer, "packet": packet}
    request["seed" if isinstance(source, str) else "deck"] = source
    if ignores_excuse:
        request["rules"] = {"petit_sec_ignores_excuse": True}
    deck = shuffled_deck(source) if isinstance(source, str) else tuple(parse_card(c) for c in source)
    dealt = deal_deck(deck, table, dealer, packet, None, Rules(petit_sec_ignores_excuse=ignores_excuse))
    model = ref_deal_answer(request)
    assert model["/packet"] == (packet or FFT_PACKETS[n])
    assert model["/deck"] == [format_card(c) for c in deck]
    assert [model[f"/hands/{seat}"] for seat in range(n)] == [
        [format_card(c) for c in cards_of(mask_of(hand))] for hand in dealt.hands
    ]
    assert model["/set_aside"] == [
        {"position": p, "card": format_card(c)} for p, c in zip(dealt.dog_positions, dealt.dog, strict=True)
    ]
    assert model["/redeal_seat"] == dealt.petit_sec_seat


def test_the_model_bounds_a_chelem_s_points_as_the_core_does() -> None:
    # §9.6: every table, contract, side, oudler count, with and without the kings in the discard.
    from service.rules.scoring import chelem_points_bounds_half

    compared = 0
    for players in TABLES:
        for contract in Contract:
            for made_by in Side:
                for oudlers in range(4):
                    for kings in (False, True):
                        flags = {"discard_kings_when_forced": True} if kings else None
                        mine = ref_chelem_points(players, contract.value, made_by.value, oudlers, flags)
                        core = chelem_points_bounds_half(
                            players, contract, made_by, oudlers, Rules(discard_kings_when_forced=kings)
                        )
                        assert mine == (None if core is None else (core[0] / 2, core[1] / 2)), (
                            players,
                            contract,
                            made_by,
                            oudlers,
                            kings,
                        )
                        compared += core is not None
    assert compared > 50


@SETTINGS
@given(st.randoms(use_true_random=False), st.sampled_from([None, *TOURNAMENT_KINDS]), st.integers(12, 21))
def test_the_model_adds_up_a_tournament_as_the_core_does(rng: random.Random, kind: str | None, count: int) -> None:
    """§16: random tournaments at tables of 3, 4 and 5, clean or with a scored error planted, any
    tie-break: the control table's bilans, scored errors, standings and teams, the model's and the
    core's (through the contract, which scores each summary by the core's rules)."""
    fives = count % 4 != 0 and 5 * (count % 4) <= count and rng.random() < 0.3
    body = random_tournament(rng, count, rng.randint(1, 4), rng.choice([3, 4]), fives=fives, teams=rng.random() < 0.4)
    body["tie_break"] = rng.choice(["none", "best_position", "positive_positions"])
    if kind is not None:
        planted = plant(body, kind, rng)
        assume(planted is not None)
        assert planted is not None
        body = planted.request
    answer = json.loads(dumps(STANDINGS.respond(body).answer))
    for pointer, value in standings_reference(body, answer).items():
        assert resolve(answer, pointer) == value, pointer
    assert set(standings_pointers(body, answer)) == set(standings_reference(body, answer))
