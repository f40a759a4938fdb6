"""The rankings of a duplicate tournament and each entrant's *feuille de route* (rules.md §17.6–17.7;
rulebook pp. 18–19, 21).

The classement général orders the entrants by global percentage (over several sessions, by the
sum of their session globals, each times its coefficient); the classement alterné interleaves
the lines' own rankings: the line winners first, then the seconds, and so on (p. 18). Equal
percentages share a rank: the values compared are exact, never the rounded ones shown.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .duplicate_topage import AdjustedMark, Adjustment, EtuiAnnulled, Penalty, Percentages, Role
from .frozen import copied_by_constructor


@dataclass(frozen=True, slots=True)
class GeneralRow:
    rank: int | None
    """1 + the number of entrants with a strictly higher total; None without a grade (listed last)."""
    entrant: str
    line: str
    total: Fraction | None
    sessions: tuple[Fraction | None, ...]
    """Each session's global (before its coefficient); None where the entrant has none."""


@dataclass(frozen=True, slots=True)
class AlterneRow:
    place: int
    tier: int
    """1 for the line winners, 2 for the seconds…"""
    line: str
    line_rank: int
    """His rank within his line; equal globals share it."""
    entrant: str
    overall: Fraction


@dataclass(frozen=True, slots=True)
class RouteLine:
    """One play on a feuille de route (p. 19): the étui, where he sat, the score and his grade."""

    session: int
    play: int
    etui: int
    position: int
    table: int
    orientation: str
    role: Role
    score: int
    grade: Fraction | None
    adjusted: AdjustedMark | None
    """The referee's mark, when it replaced the topage's grade."""
    annulled: EtuiAnnulled | None


@dataclass(frozen=True, slots=True)
class FeuilleDeRoute:
    """An entrant's *feuille de route récapitulative* (p. 19)."""

    entrant: str
    lines: tuple[RouteLine, ...]
    sessions: tuple[Percentages | None, ...]
    """His percentages in each session (None where he did not play)."""
    penalties: tuple[Penalty, ...]
    adjustments: tuple[Adjustment, ...]
    """Every adjustment that touched him: his penalties and marks, and the étuis annulled that he played."""
    total: Fraction | None


def shared_ranks(values: Sequence[Fraction]) -> list[int]:
    """1 + the number of values strictly higher: equal values share a rank (1, 2, 2, 4). Counted
    by bisection in the sorted values: an evening of 200 players is not 40 000 comparisons."""
    ascending = sorted(values)
    return [1 + len(ascending) - bisect_right(ascending, value) for value in values]


def total(sessions: Sequence[Fraction | None], coefficients: Sequence[Fraction]) -> Fraction | None:
    """Σ coefficient × session global over the sessions he has one in (p. 19); None in none."""
    played = [c * g for g, c in zip(sessions, coefficients, strict=True) if g is not None]
    return sum(played, Fraction(0)) if played else None


def general(
    rows: Sequence[tuple[str, str, tuple[Fraction | None, ...]]], coefficients: Sequence[Fraction]
) -> tuple[GeneralRow, ...]:
    """The classement général (p. 18): (entrant, line, session globals) ranked by total, highest
    first, equal totals sharing a rank in the order given; those without a grade last, unranked."""
    totals = [total(sessions, coefficients) for _, _, sessions in rows]
    ranked = [t for t in totals if t is not None]
    ranks = dict(zip(ranked, shared_ranks(ranked), strict=True))
    out = [
        GeneralRow(None if t is None else ranks[t], entrant, line, t, sessions)
        for (entrant, line, sessions), t in zip(rows, totals, strict=True)
    ]
    out.sort(key=_general_order)
    return tuple(out)


def _general_order(row: GeneralRow) -> tuple[bool, int]:
    return row.rank is None, row.rank or 0


def alterne(entries: Sequence[tuple[str, str, Fraction]], lines: Sequence[str]) -> tuple[AlterneRow, ...]:
    """The classement alterné (p. 18, p. 21) of (entrant, line, global): each line ranked, then tier
    by tier (the k-th of every line that has one) sorted by global, taking the next places. Equal
    globals share a place within a tier; equal globals within a line take successive tiers in the
    order given (readings, §17.6)."""
    by_line: dict[str, list[tuple[str, Fraction]]] = {line: [] for line in lines}
    for entrant, line, overall in entries:
        by_line.setdefault(line, []).append((entrant, overall))
    ranked: list[list[tuple[str, Fraction, int]]] = []
    for line_entries in by_line.values():
        order = sorted(line_entries, key=_by_global)
        line_ranks = shared_ranks([overall for _, overall in order])
        ranked.append([(entrant, overall, r) for (entrant, overall), r in zip(order, line_ranks, strict=True)])
    line_names = list(by_line)
    out: list[AlterneRow] = []
    tiers = max((len(line) for line in ranked), default=0)
    for tier in range(tiers):
        members = [(line_names[i], ranked[i][tier]) for i in range(len(ranked)) if tier < len(ranked[i])]
        members.sort(key=_member_by_global)
        places = shared_ranks([member[1][1] for member in members])
        offset = len(out)
        out.extend(
            AlterneRow(offset + place, tier + 1, line, line_rank, entrant, overall)
            for place, (line, (entrant, overall, line_rank)) in zip(places, members, strict=True)
        )
    return tuple(out)


def _by_global(entry: tuple[str, Fraction]) -> Fraction:
    return -entry[1]


def _member_by_global(member: tuple[str, tuple[str, Fraction, int]]) -> Fraction:
    return -member[1][1]


copied_by_constructor(GeneralRow, AlterneRow, RouteLine, FeuilleDeRoute)
