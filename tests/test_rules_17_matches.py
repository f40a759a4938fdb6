"""Points de match, quadrettes and team matches (rules.md §17.8; rulebook pp. 22–26)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.duplicate_matches import (
    QuadretteDeal,
    QuadrettePenalty,
    TeamDeal,
    points_de_match,
    quadrette_standings,
    team_match,
)
from service.rules.scoring import Contract


def model_pm(ecart: int) -> Decimal:
    """The grid's rule computed apart: a 50-digit square root, rounded half-up to 3 decimals."""
    with localcontext() as ctx:
        ctx.prec = 50
        root = Decimal(abs(ecart)).sqrt().quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    return -root if ecart < 0 else root


@pytest.mark.parametrize("ecart", range(0, 699, 2))
def test_17_8_every_grid_value(ecart: int) -> None:
    assert points_de_match(ecart) == model_pm(ecart)
    assert points_de_match(ecart).as_tuple().exponent == -3


# Rows of the p. 24 grid as printed (decimal comma).
GRID = {
    0: "0,000",
    2: "1,414",
    10: "3,162",
    16: "4,000",
    66: "8,124",
    82: "9,055",
    144: "12,000",
    196: "14,000",
    398: "19,950",
    576: "24,000",
    698: "26,420",
    484: "22,000",
    266: "16,310",
}


@pytest.mark.parametrize(("ecart", "printed"), GRID.items())
def test_17_8_grid_as_printed(ecart: int, printed: str) -> None:
    assert points_de_match(ecart) == Decimal(printed.replace(",", "."))


@given(st.integers(-2000, 2000))
def test_17_8_pm_antisymmetric_and_rounded(ecart: int) -> None:
    assert points_de_match(-ecart) == -points_de_match(ecart)
    assert points_de_match(ecart) == model_pm(ecart)


@pytest.mark.parametrize(
    ("ours", "theirs", "pm"),
    [(82, 66, Decimal("4.000")), (68, -76, Decimal("12.000")), (-68, -58, Decimal("-3.162"))],
)
def test_17_8_golden_p23(ours: int, theirs: int, pm: Decimal) -> None:
    standings = quadrette_standings([QuadretteDeal(1, "A", "B", ours, theirs)])
    assert standings.deals[0].first_pm == pm
    totals = {row.quadrette: row.total for row in standings.rows}
    assert totals == {"A": pm, "B": -pm}


def test_17_8_quadrette_total_is_won_less_lost_and_penalty() -> None:
    deals = [
        QuadretteDeal(1, "A", "B", 82, 66),  # A +4
        QuadretteDeal(2, "A", "B", -68, -58),  # A -3.162
        QuadretteDeal(1, "C", "A", 50, 60),  # A +3.162
        QuadretteDeal(2, "C", "B", 60, 60),  # 0
    ]
    standings = quadrette_standings(deals, [QuadrettePenalty("C", Decimal("1.5"), "late")])
    rows = {row.quadrette: row for row in standings.rows}
    assert rows["A"].won == Decimal("7.162") and rows["A"].lost == Decimal("3.162")
    assert rows["A"].total == Decimal("4.000")
    assert rows["B"].total == Decimal("-0.838")
    assert rows["C"].total == Decimal("-3.162") - Decimal("1.5")
    assert [row.quadrette for row in standings.rows] == ["A", "B", "C"]
    assert [row.rank for row in standings.rows] == [1, 2, 3]


def test_17_8_quadrettes_tied_share_a_rank() -> None:
    standings = quadrette_standings([QuadretteDeal(1, "A", "B", 50, 50), QuadretteDeal(1, "C", "D", 52, 50)])
    assert [(row.quadrette, row.rank) for row in standings.rows] == [("C", 1), ("A", 2), ("B", 2), ("D", 4)]


@given(
    st.lists(
        st.tuples(
            st.sampled_from("ABCDE"),
            st.sampled_from("ABCDE"),
            st.integers(-300, 300).map(lambda x: 2 * x),
            st.integers(-300, 300).map(lambda x: 2 * x),
        ),
        max_size=20,
    )
)
def test_17_8_quadrette_totals_sum_to_zero(raw: list[tuple[str, str, int, int]]) -> None:
    deals = [QuadretteDeal(i, a, b, x, y) for i, (a, b, x, y) in enumerate(raw) if a != b]
    standings = quadrette_standings(deals)
    assert sum((row.total for row in standings.rows), Decimal(0)) == 0
    model: dict[str, Decimal] = {}
    for deal in deals:
        model[deal.first] = model.get(deal.first, Decimal(0)) + model_pm(deal.first_score - deal.second_score)
        model[deal.second] = model.get(deal.second, Decimal(0)) - model_pm(deal.first_score - deal.second_score)
    assert {row.quadrette: row.total for row in standings.rows} == model


def test_17_8_team_match() -> None:
    g, s, c = Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE
    deals = [
        TeamDeal(1, 1, g, 82, g, 66),  # first +4
        TeamDeal(2, 2, s, 120, g, 264),  # second +12
        TeamDeal(3, 3, c, 60, c, 60),  # none
        TeamDeal(4, 4, g, -58, g, -68),  # first +3.162
    ]
    match = team_match(deals, (Decimal("2"), Decimal("0")))
    assert [(d.first_pm, d.second_pm) for d in match.deals] == [
        (Decimal("4.000"), Decimal("0.000")),
        (Decimal("0.000"), Decimal("12.000")),
        (Decimal("0.000"), Decimal("0.000")),
        (Decimal("3.162"), Decimal("0.000")),
    ]
    assert match.totals == (Decimal("9.162"), Decimal("12.000"))
    assert match.winner == 1
    assert len(match.quarters) == 4


def test_17_8_team_match_even_and_refusals() -> None:
    assert team_match([TeamDeal(1, 1, Contract.GARDE, 50, Contract.GARDE, 50)]).winner is None
    with pytest.raises(ValueError):
        team_match([TeamDeal(1, 1, Contract.PRISE, 50, Contract.GARDE, 50)])
    with pytest.raises(ValueError):
        team_match([TeamDeal(5, 1, Contract.GARDE, 50, Contract.GARDE, 50)])
