"""rules.md §9 (counting and scoring) and the FFT worked examples of §10."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.scoring import (
    Contract,
    PoigneeSize,
    Side,
    Summary,
    contract_named,
    margin_of,
    points_bounds_half,
    score,
    threshold_half,
)
from service.rules.variants import Rules
from service.texts import render

from .conftest import golden
from .kitcases import kit_cases

A, D = Side.ATTACK, Side.DEFENCE
SIMPLE = PoigneeSize.SIMPLE


def half(points: float) -> int:
    return int(points * 2)


def summary_of(request: dict[str, Any]) -> Summary:
    """The core's summary of a score request of the kit."""
    chelem = request.get("chelem") or {}

    def side(name: str | None) -> Side | None:
        return None if name is None else Side(name)

    return Summary(
        request["players"],
        contract_named(request["contract"], Rules(**request.get("rules", {}))),
        request["taker"],
        request.get("partner"),
        half(request["points"]),
        request["oudlers"],
        side(request.get("petit_au_bout")),
        tuple((Side(p["side"]), PoigneeSize(p["size"])) for p in request.get("poignees", [])),
        chelem.get("announced", False),
        side(chelem.get("made_by")),
    )


def check(case: dict[str, Any]) -> None:
    """A score case of the kit: every term of D and every mark it states."""
    result = score(summary_of(case["request"]))
    terms = result._asdict() | {"threshold": result.threshold_half / 2, "scores": list(result.scores)}
    for pointer, value in case["expect"].items():
        assert terms[pointer.removeprefix("/")] == value, pointer


@pytest.mark.parametrize("case", kit_cases("score", "fft-examples"))
def test_10_fft_worked_examples(case: dict[str, Any]) -> None:
    """§10, the FFT's own examples at four players, as the kit states them (tests/kitcases.py)."""
    check(case)


@pytest.mark.parametrize("case", kit_cases("score", "thresholds", "half-point"))
def test_9_2_thresholds_and_the_half_point(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("score", "contracts", "pousse", "marks"))
def test_9_3_contracts_and_marks(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("score", "petit-au-bout"))
def test_9_4_petit_au_bout(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("score", "poignee"))
def test_9_5_poignees(case: dict[str, Any]) -> None:
    check(case)


@pytest.mark.parametrize("case", kit_cases("score", "chelem"))
def test_9_6_chelem(case: dict[str, Any]) -> None:
    check(case)


def test_9_thresholds_by_oudlers() -> None:
    assert [threshold_half(k) / 2 for k in range(4)] == [56, 51, 41, 36]


# The extremes of the count; the thresholds themselves are the kit's (above).
@pytest.mark.parametrize(("points", "oudlers", "won", "margin"), [(0, 0, False, 56), (91, 3, True, 55)])
def test_9_half_point_goes_to_the_winning_side(points: float, oudlers: int, won: bool, margin: int) -> None:
    need = threshold_half(oudlers)
    assert (half(points) >= need, margin_of(half(points), need)) == (won, margin)


# Marks the kit does not state (its own are read above).
OWN_CASES = [
    # (case, summary, marks)
    (
        "3p prise lost, taker's poignée goes to the defence",
        Summary(3, Contract.PRISE, 0, None, half(50), 1, None, ((A, SIMPLE),)),
        (-92, 46, 46),
    ),
    (
        "5p alone (called card in the dog): 4D",
        Summary(5, Contract.PRISE, 2, None, half(36), 3),
        (-25, -25, 100, -25, -25),
    ),
    (
        "several poignées add up",
        Summary(4, Contract.GARDE, 0, None, half(60), 1, None, ((A, SIMPLE), (D, PoigneeSize.DOUBLE))),
        (354, -118, -118, -118),
    ),
]


@pytest.mark.parametrize(("case", "summary", "marks"), OWN_CASES, ids=[c[0] for c in OWN_CASES])
def test_9_marks(case: str, summary: Summary, marks: tuple[int, ...]) -> None:
    assert score(summary).scores == marks


def _golden_summary(deal: dict[str, Any]) -> tuple[Summary, dict[str, Any]]:
    exp = deal["expected"]
    n, taker, partner = deal["players"], deal["taker"], exp["partner"]
    attack = {taker} | ({partner} if partner is not None else set())
    winners = set(exp["trick_winners"])
    made_by = A if winners <= attack else D if not winners & attack else None
    b = exp["breakdown"]
    pab = {1: A, -1: D, 0: None}[b["petit_au_bout"]]
    poignees = [
        (A, PoigneeSize(s)) for s in {20: ["simple"], 30: ["double"], 40: ["triple"]}.get(b["poignee_bonus"], [])
    ]
    summary = Summary(
        n, Contract(deal["contract"]), taker, partner, half(exp["attack_points"]), exp["attack_oudlers"], pab,
        tuple(poignees), deal["chelem_announced"], made_by,
    )  # fmt: skip
    return summary, exp


@pytest.mark.parametrize("deal", golden("deals.jsonl"), ids=lambda d: d["id"])
def test_9_golden_deal_scores(deal: dict[str, Any]) -> None:
    summary, exp = _golden_summary(deal)
    result = score(summary)
    b = exp["breakdown"]
    assert (result.won, result.margin, result.multiplier, result.chelem) == (
        b["contract_won"], b["margin"], b["multiplier"], b["chelem_bonus"],
    )  # fmt: skip
    assert result.per_defender == b["per_defender"]
    assert list(result.scores) == exp["scores"]


summaries = st.builds(
    lambda players, contract, taker, partner, oudlers, points, pab, poignees, announced, made_by: Summary(
        players, contract, taker % players, (partner % players) if players == 5 and partner is not None else None,
        points, oudlers, pab, tuple(poignees), announced, made_by,
    ),
    st.sampled_from([3, 4, 5]), st.sampled_from(list(Contract)), st.integers(0, 4), st.none() | st.integers(0, 4),
    st.integers(0, 3), st.integers(0, 182), st.none() | st.sampled_from(list(Side)),
    st.lists(st.tuples(st.sampled_from(list(Side)), st.sampled_from(list(PoigneeSize))), max_size=2),
    st.booleans(), st.none() | st.sampled_from(list(Side)),
)  # fmt: skip


@given(summaries)
def test_9_marks_sum_to_zero(summary: Summary) -> None:
    assert sum(score(summary).scores) == 0


@given(summaries)
def test_9_a_won_contract_costs_the_defence_unless_a_defence_bonus_outweighs(summary: Summary) -> None:
    result = score(summary)
    if result.won and result.petit_au_bout >= 0 and result.chelem >= 0:
        assert result.per_defender > 0
        defenders = [m for seat, m in enumerate(result.scores) if seat not in {summary.taker, summary.partner}]
        assert all(m < 0 for m in defenders)


@given(summaries)
def test_9_the_multiplier_scales_only_the_contract_and_the_petit(summary: Summary) -> None:
    base = score(Summary(**{**_fields(summary), "contract": Contract.PRISE}))
    result = score(summary)
    m = summary.contract.multiplier
    assert result.contract_points == m * base.contract_points
    assert result.petit_au_bout == m * base.petit_au_bout
    assert (result.poignees, result.chelem) == (base.poignees, base.chelem)
    assert result.per_defender == result.contract_points + result.petit_au_bout + result.poignees + result.chelem


def _fields(summary: Summary) -> dict[str, Any]:
    return summary._asdict()


@pytest.mark.parametrize("oudlers", range(4))
def test_9_points_bounds(oudlers: int) -> None:
    low, high = points_bounds_half(oudlers)
    assert low == max(0, 9 * oudlers - 1)
    assert high == 182 - max(0, 9 * (3 - oudlers) - 1)


def test_3_pousse_is_garde_only_under_its_variant() -> None:
    assert contract_named("garde_sans") is Contract.GARDE_SANS
    assert contract_named("pousse", Rules(pousse_alias=True)) is Contract.GARDE
    with pytest.raises(ValueError, match="pousse"):
        contract_named("pousse")


def test_9_explanation_states_every_term() -> None:
    summary = Summary(
        players=5,
        contract=Contract.PRISE,
        taker=1,
        partner=3,
        points_half=72,
        oudlers=2,
        petit_au_bout=Side.ATTACK,
        poignees=((Side.DEFENCE, PoigneeSize.DOUBLE),),
        chelem_announced=True,
        chelem_made_by=Side.ATTACK,
    )
    lines = score(summary).explanation
    assert [render(line, "en") for line in lines] == [
        "Prise: 36 points with 2 oudlers, 41 needed: lost by 5 points.",
        "Contract: -(25 + 5) × 1 = -30.",
        "Petit au bout to the attack: 10 × 1 = +10.",
        "Poignée double shown by the defence: 30 points to the side that wins the deal (the defence).",
        "Chelem announced and made: +400.",
        "Per defender: +350; marks by seat: -350, +700, -350, +350, -350.",
    ]
    nbsp = "\u00a0"
    assert [render(line, "fr") for line in lines] == [
        f"Prise{nbsp}: 36 points avec 2 bouts, 41 nécessaires{nbsp}: chutée de 5 points.",
        f"Contrat{nbsp}: -(25 + 5) × 1 = -30.",
        f"Petit au bout pour l'attaque{nbsp}: 10 × 1 = +10.",
        f"Poignée double montrée par la défense{nbsp}: 30 points au camp qui gagne la donne (la défense).",
        f"Chelem annoncé et réalisé{nbsp}: +400.",
        f"Par défenseur{nbsp}: +350{nbsp}; marques par joueur{nbsp}: -350, +700, -350, +350, -350.",
    ]


def test_9_explanation_writes_points_as_each_language_does() -> None:
    summary = Summary(players=4, contract=Contract.GARDE, taker=0, partner=None, points_half=81, oudlers=2)
    [first, *_] = score(summary).explanation
    assert render(first, "en") == "Garde: 40.5 points with 2 oudlers, 41 needed: lost by 1 point."
    assert render(first, "fr") == "Garde\u00a0: 40,5 points avec 2 bouts, 41 nécessaires\u00a0: chutée de 1 point."
    one = Summary(players=3, contract=Contract.GARDE_CONTRE, taker=0, partner=None, points_half=3, oudlers=0)
    [first, *_] = score(one).explanation
    assert render(first, "en").startswith("Garde contre: 1.5 points with 0 oudlers, 56 needed")
    assert render(first, "fr").startswith("Garde contre\u00a0: 1,5 point avec 0 bout, 56 nécessaires")
