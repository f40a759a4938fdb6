"""What a taker can write on the *fiche ambulante* of a duplicate étui (rules.md §17.3).

The contract is imposed, a Garde at four players (rulebook pp. 15–16), and the figure written
"tel quel" is the single defender's, X, not the taker's 3X (pp. 15, 18, 23). Everything else is
scored as in a free tournament (p. 15): the margin, the poignées, the Petit au bout and the
chelem. So the figures a table can write are a fixed set, found once here by scoring every
summary the service would accept with :func:`~service.rules.scoring.score` itself: the control
table flags a figure outside it (§17.9), the topage counts it all the same.
"""

from __future__ import annotations

from typing import Final

from .scoring import (
    Contract,
    PoigneeSize,
    Side,
    Summary,
    chelem_points_bounds_half,
    points_bounds_half,
    score,
)

DUPLICATE_PLAYERS: Final = 4
"""Duplicate is played at four only: 18-card hands, four orientations (rulebook p. 14)."""
TRUMPS: Final = 22
"""The 21 trumps and the Excuse: what every poignée shown at a table draws from."""

_POIGNEES: Final[tuple[tuple[PoigneeSize, ...], ...]] = tuple(
    shown
    for shown in ((), *((size,) for size in PoigneeSize), *((a, b) for a in PoigneeSize for b in PoigneeSize))
    if sum(size.trumps(DUPLICATE_PLAYERS) for size in shown) <= TRUMPS
)
"""The poignées one deal can show at four (10, 13 or 15 trumps each, 22 in all): none, one of
any tier, or two simples. Their bonus goes to the side that wins, whoever showed them, so only
their tiers matter."""

_CHELEMS: Final[tuple[tuple[bool, Side | None], ...]] = (
    (False, None),
    (True, None),
    (False, Side.ATTACK),
    (True, Side.ATTACK),
    (False, Side.DEFENCE),
    (True, Side.DEFENCE),
)
"""Announced or not, made by the attack, the defence or neither."""


def garde_summary(summary: Summary) -> Summary:
    """``summary`` as a duplicate table plays it: a Garde at four, the taker alone (his seat does
    not change the single defender's figure)."""
    return summary._replace(players=DUPLICATE_PLAYERS, contract=Contract.GARDE, taker=0, partner=None)


def garde_score(summary: Summary) -> int:
    """The figure the table writes for this deal: the single defender's X, signed from the taker's
    side (positive when the taker made his Garde), scored as the imposed Garde (§17.3)."""
    return score(garde_summary(summary)).per_defender


def _petits(oudlers: int, chelem_by: Side | None) -> tuple[Side | None, ...]:
    """The Petit au bout's possible winners: a side takes it only holding the Petit, so the attack
    needs an oudler and the defence leaves the attack at most two; and never the side that took no
    trick (a reading of §9.4 and §9.6)."""
    out: list[Side | None] = [None]
    if oudlers >= 1 and chelem_by is not Side.DEFENCE:
        out.append(Side.ATTACK)
    if oudlers <= 2 and chelem_by is not Side.ATTACK:
        out.append(Side.DEFENCE)
    return tuple(out)


def _points(oudlers: int, chelem_by: Side | None) -> range:
    """The taker's card points (half points) with ``oudlers``: any the cards allow, or, after a
    chelem, what the side that took no trick can still hold (the service's own bounds, §12)."""
    if chelem_by is None:
        low, high = points_bounds_half(oudlers)
        return range(low, high + 1)
    bounds = chelem_points_bounds_half(DUPLICATE_PLAYERS, Contract.GARDE, chelem_by, oudlers)
    return range(0) if bounds is None else range(bounds[0], bounds[1] + 1)


def _reachable() -> frozenset[int]:
    found: set[int] = set()
    for oudlers in range(4):
        for announced, chelem_by in _CHELEMS:
            for points in _points(oudlers, chelem_by):
                for petit in _petits(oudlers, chelem_by):
                    for shown in _POIGNEES:
                        summary = Summary(
                            DUPLICATE_PLAYERS,
                            Contract.GARDE,
                            0,
                            None,
                            points,
                            oudlers,
                            petit,
                            tuple((Side.ATTACK, size) for size in shown),
                            announced,
                            chelem_by,
                        )
                        found.add(score(summary).per_defender)
    return frozenset(found)


_FOUND: Final[list[frozenset[int]]] = []
"""The set once found: on the first figure checked, not when the service or the command starts."""


def garde_scores() -> frozenset[int]:
    """Every single-defender figure a Garde at four can give (§17.3), found once."""
    if not _FOUND:
        _FOUND.append(_reachable())
    return _FOUND[0]


def is_garde_score(figure: int) -> bool:
    """Whether some Garde at four gives ``figure`` (an odd figure never does: every term is even)."""
    return figure in garde_scores()
