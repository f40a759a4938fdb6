"""Points de match: quadrettes and team matches (rules.md §17.8; rulebook pp. 22–26).

Two sides play the same deals, each attacking the other's defence; per deal the *écart* between
the two attackers' figures (the single defender's X, §17.3) becomes √|écart| points de match,
to three decimals as the rulebook's grid gives them (p. 24). Arithmetic is exact: an integer
square root decides each grid value, and the totals add those values as :class:`~decimal.Decimal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from math import isqrt
from typing import Final

from .frozen import copied_by_constructor
from .scoring import Contract

PM_PLACES: Final = 3
"""The grid's decimals (p. 24: 10 → 3,162)."""
_SCALE: Final = 10**PM_PLACES
ZERO: Final = Decimal(0).scaleb(-PM_PLACES)
TEAM_CONTRACTS: Final = (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
"""What a team's attacker may choose; he may not pass (p. 26)."""


def points_de_match(ecart: int) -> Decimal:
    """sign(écart) × √|écart|, rounded half-up to three decimals (p. 23–24).

    With r = ⌊1000·√e⌋ (an integer square root), the root is nearer r + 1 when
    1000·√e ≥ r + ½, that is 4·e·10⁶ ≥ (2r + 1)²; the two sides are never equal (one is odd),
    so half-up and half-even agree and no float decides a grid value.
    """
    size = abs(ecart)
    scaled = size * _SCALE * _SCALE
    root = isqrt(scaled)
    if 4 * scaled >= (2 * root + 1) ** 2:
        root += 1
    value = Decimal(root).scaleb(-PM_PLACES)
    return -value if ecart < 0 else value


@dataclass(frozen=True, slots=True)
class QuadretteDeal:
    """One deal of one opposition (p. 23): each quadrette's attacker's figure against the other's
    defence, on the same étui."""

    etui: int
    first: str
    second: str
    first_score: int
    """The first quadrette's attacker's figure, against the second's defence."""
    second_score: int
    """The second quadrette's attacker's figure, against the first's defence."""


@dataclass(frozen=True, slots=True)
class QuadretteDealResult:
    deal: QuadretteDeal
    ecart: int
    """first_score − second_score."""
    first_pm: Decimal
    """The first quadrette's PM; the second's is its opposite."""


@dataclass(frozen=True, slots=True)
class QuadrettePenalty:
    """The referee's penalty, in PM off a quadrette's result (p. 23; §17.9)."""

    quadrette: str
    pm: Decimal
    reason: str = ""


@dataclass(frozen=True, slots=True)
class QuadretteRow:
    rank: int
    quadrette: str
    won: Decimal
    """The PM of its deals with a positive écart."""
    lost: Decimal
    """The PM of its deals with a negative écart, as a positive amount."""
    penalties: Decimal
    total: Decimal
    """won − lost − penalties (p. 23: PM won less PM lost, over every deal)."""


@dataclass(frozen=True, slots=True)
class QuadretteStandings:
    deals: tuple[QuadretteDealResult, ...]
    rows: tuple[QuadretteRow, ...]
    """Best first; equal totals share a rank, in order of first appearance."""
    penalties: tuple[QuadrettePenalty, ...]


def quadrette_standings(
    deals: Sequence[QuadretteDeal], penalties: Sequence[QuadrettePenalty] = ()
) -> QuadretteStandings:
    """Each quadrette's final result and the classement général by it (p. 23): only the grand total
    counts, never an opposition's own result. The totals add the grid's values (a reading, §17.8)."""
    won: dict[str, Decimal] = {}
    lost: dict[str, Decimal] = {}
    results = []
    for deal in deals:
        if deal.first == deal.second:
            raise ValueError(f"Étui {deal.etui}: a quadrette cannot meet itself.")
        pm = points_de_match(deal.first_score - deal.second_score)
        results.append(QuadretteDealResult(deal, deal.first_score - deal.second_score, pm))
        for name, signed in ((deal.first, pm), (deal.second, -pm)):
            won[name] = won.get(name, ZERO) + max(signed, ZERO)
            lost[name] = lost.get(name, ZERO) + max(-signed, ZERO)
    off: dict[str, Decimal] = {}
    for penalty in penalties:
        if penalty.quadrette not in won:
            raise ValueError(f"A penalty names {penalty.quadrette!r}, who played no deal.")
        off[penalty.quadrette] = off.get(penalty.quadrette, ZERO) + penalty.pm
    totals = {name: won[name] - lost[name] - off.get(name, ZERO) for name in won}
    rows = [
        QuadretteRow(
            1 + sum(other > totals[name] for other in totals.values()),
            name,
            won[name],
            lost[name],
            off.get(name, ZERO),
            totals[name],
        )
        for name in won
    ]
    rows.sort(key=_by_rank)
    return QuadretteStandings(tuple(results), tuple(rows), tuple(penalties))


def _by_rank(row: QuadretteRow) -> int:
    return row.rank


@dataclass(frozen=True, slots=True)
class TeamDeal:
    """One deal of a quarter (p. 25): each team's attacker's contract and figure on the same étui,
    against the other team's defence."""

    quarter: int
    """1 to 4."""
    etui: int
    first_contract: Contract
    first_score: int
    second_contract: Contract
    second_score: int


@dataclass(frozen=True, slots=True)
class TeamDealResult:
    deal: TeamDeal
    ecart: int
    """first_score − second_score."""
    first_pm: Decimal
    """√|écart| when the first team's attacker scored higher, else 0 (p. 26)."""
    second_pm: Decimal


@dataclass(frozen=True, slots=True)
class TeamMatch:
    deals: tuple[TeamDealResult, ...]
    quarters: tuple[tuple[Decimal, Decimal], ...]
    """Each quarter played, in order: the two teams' PM."""
    bonus: tuple[Decimal, Decimal]
    """The PM each team was given before the match (p. 26's remark; its amount is the caller's)."""
    totals: tuple[Decimal, Decimal]
    winner: int | None
    """0 or 1, the team with more PM; None when equal (a reading: the text names no tie-break)."""


def team_match(deals: Sequence[TeamDeal], bonus: tuple[Decimal, Decimal] = (ZERO, ZERO)) -> TeamMatch:
    """A match between two teams over four quarters (pp. 25–26): per deal the team whose attacker
    scored higher takes the PM of the écart and the other nothing; the sum over the quarters, plus
    each team's bonus, decides."""
    results = []
    quarters: dict[int, tuple[Decimal, Decimal]] = {}
    for deal in deals:
        for contract in (deal.first_contract, deal.second_contract):
            if contract not in TEAM_CONTRACTS:
                raise ValueError(f"Étui {deal.etui}: a team's attacker plays a garde, garde sans or garde contre.")
        if not 1 <= deal.quarter <= 4:
            raise ValueError(f"Étui {deal.etui}: a match has quarters 1 to 4.")
        ecart = deal.first_score - deal.second_score
        pm = points_de_match(ecart)
        first, second = max(pm, ZERO), max(-pm, ZERO)
        results.append(TeamDealResult(deal, ecart, first, second))
        before = quarters.get(deal.quarter, (ZERO, ZERO))
        quarters[deal.quarter] = (before[0] + first, before[1] + second)
    ordered = tuple(quarters[q] for q in sorted(quarters))
    totals = (
        bonus[0] + sum((q[0] for q in ordered), ZERO),
        bonus[1] + sum((q[1] for q in ordered), ZERO),
    )
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return TeamMatch(tuple(results), ordered, bonus, totals, winner)


copied_by_constructor(
    QuadretteDeal,
    QuadretteDealResult,
    QuadrettePenalty,
    QuadretteRow,
    QuadretteStandings,
    TeamDeal,
    TeamDealResult,
    TeamMatch,
)
