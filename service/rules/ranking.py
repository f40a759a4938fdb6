"""Ranking a tournament's players and teams (rules.md §16.4): what every tournament form shares.

A rank is one more than the number of rows strictly better; equal rows share it (1, 2, 2, 4). A
team's total is its players' sum. The free-deal control table ranks by total and an optional
tie-break; a duplicate tournament ranks by its own percentages with the same pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .frozen import copied_by_constructor


class TieBreak(StrEnum):
    """How equal totals are told apart (§16.4, a reading: the texts name none)."""

    NONE = "none"
    """Equal totals share a rank."""
    BEST_POSITION = "best_position"
    """The better best position bilan, then the better second best, and so on."""
    POSITIVE_POSITIONS = "positive_positions"
    """More positions with a positive bilan."""


def tie_key(results: Sequence[int], tie_break: TieBreak) -> tuple[int, ...]:
    """What tells two equal totals apart, from each position's result (a bilan)."""
    if tie_break is TieBreak.BEST_POSITION:
        return tuple(sorted(results, reverse=True))
    if tie_break is TieBreak.POSITIVE_POSITIONS:
        return (sum(r > 0 for r in results),)
    return ()


def ranks(keys: Sequence[tuple[int, tuple[int, ...]]]) -> list[int]:
    """1 + the number of keys strictly better: equal keys share a rank (§16.4)."""
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass(frozen=True, slots=True)
class TeamStanding:
    rank: int
    team: str
    players: tuple[str, ...]
    total: int


def team_standings(members: dict[str, list[str]], totals: dict[str, int]) -> tuple[TeamStanding, ...] | None:
    """Each team's total, its members' sum (§16.4), best first (equal totals in the order of
    ``members``); None when there is no team."""
    if not members:
        return None
    sums = [sum(totals[p] for p in players) for players in members.values()]
    ranked = ranks([(total, ()) for total in sums])
    teams = [
        TeamStanding(rank, team, tuple(players), total)
        for rank, (team, players), total in zip(ranked, members.items(), sums, strict=True)
    ]
    teams.sort(key=lambda team: team.rank)
    return tuple(teams)


copied_by_constructor(TeamStanding)
