"""Counting and scoring a deal (rules.md §9), from its summary.

Amounts are computed per defender, as ``D``, positive when the taker's side gains:

    D = s·(25 + margin)·M + p·10·M + s·P + C

and turned into marks: each defender −D; the taker 2D at three players, 3D at four; at five
the taker 2D and the partner D, or the taker 4D alone. Card points are handled in half
points throughout, so nothing is rounded before the half-point rule applies.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from ..messages import Message, Points, Signed, SignedList, Term, msg
from .table import TABLES
from .variants import FFT, Rules


class Contract(StrEnum):
    """The four FFT contracts, lowest to highest (rules.md §3)."""

    PRISE = "prise"
    """La prise (petite): ×1."""
    GARDE = "garde"
    """La garde: ×2."""
    GARDE_SANS = "garde_sans"
    """Garde sans le chien: ×4; the unseen dog counts for the taker."""
    GARDE_CONTRE = "garde_contre"
    """Garde contre le chien: ×6; the unseen dog counts for the defence."""

    @property
    def multiplier(self) -> int:
        return MULTIPLIERS[self]

    @property
    def rank(self) -> int:
        return list(Contract).index(self)

    @property
    def dog_to_taker(self) -> bool:
        """Prise and garde: the dog is shown, taken into the hand, and a discard (écart) made."""
        return self in (Contract.PRISE, Contract.GARDE)


POUSSE: Final = "pousse"
"""Not an FFT contract: another name for garde, accepted only under ``Rules.pousse_alias``."""


def contract_named(name: str, rules: Rules = FFT) -> Contract:
    """The contract a bid names (§3); :class:`ValueError` for "pousse" unless the variant allows it."""
    contract = _CONTRACTS.get(name)  # a dict lookup: calling the enum costs ten times more
    if contract is not None:
        return contract
    if name == POUSSE:
        if rules.pousse_alias:
            return Contract.GARDE
        raise ValueError("`pousse` is not an FFT contract; set rules.pousse_alias to accept it.")
    raise ValueError(f"{name!r} is not a contract.")


_CONTRACTS: Final = {c.value: c for c in Contract}


MULTIPLIERS: Final = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}

THRESHOLDS_HALF: Final = (112, 102, 82, 72)
"""Half points the taker's side needs with 0, 1, 2, 3 oudlers: 56, 51, 41, 36."""

TOTAL_HALF: Final = 182
"""The deck's 91 points, in half points."""


class Side(StrEnum):
    ATTACK = "attack"
    """The taker (preneur) and, at five players, the partner."""
    DEFENCE = "defence"

    @property
    def other(self) -> Side:
        return Side.DEFENCE if self is Side.ATTACK else Side.ATTACK


class PoigneeSize(StrEnum):
    """Poignée tiers (handful of trumps shown) and their bonus, never multiplied."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def bonus(self) -> int:
        return {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30, PoigneeSize.TRIPLE: 40}[self]

    def trumps(self, players: int) -> int:
        """How many trumps this tier shows at ``players`` players."""
        return TABLES[players].poignee_sizes[list(PoigneeSize).index(self)]


class Summary(NamedTuple):
    """What scoring needs to know of a deal. A named tuple, as :class:`Score`: one is made for
    every deal scored, and a frozen dataclass costs twice as much to make."""

    players: int
    contract: Contract
    taker: int
    partner: int | None
    """Five players: the partner's seat; ``None`` (or the taker) when the taker plays alone."""
    points_half: int
    """The taker's side's card points after the Excuse settlement, in half points."""
    oudlers: int
    petit_au_bout: Side | None = None
    poignees: tuple[tuple[Side, PoigneeSize], ...] = ()
    """Each poignée shown: the side that showed it and its tier."""
    chelem_announced: bool = False
    chelem_made_by: Side | None = None
    petit_au_bout_to_taker: bool = False
    """The variant of §9.4: the Petit au bout counts for the taker's side whoever took it."""


class Score(NamedTuple):
    """The score of a deal: each term of ``D`` and every seat's mark.

    Immutable like the other results; a named tuple rather than a frozen dataclass because it
    is built on every scoring, and a frozen dataclass's field-by-field set costs more than
    the arithmetic.
    """

    won: bool
    threshold_half: int
    margin: int
    """Points over or under the threshold, after the half-point rule."""
    multiplier: int
    contract_points: int
    """s·(25 + margin)·M."""
    petit_au_bout: int
    """p·10·M."""
    poignees: int
    """s·P: the poignées go to the side that wins the deal."""
    chelem: int
    """C, from the taker's side."""
    per_defender: int
    """D: what each defender pays (negative: receives)."""
    scores: tuple[int, ...]
    """Every seat's mark; they sum to zero."""
    summary: Summary
    """What was scored."""

    @property
    def explanation(self) -> tuple[Message, ...]:
        """The computation in words, for people (to render with :mod:`service.texts`). Made on
        demand: scoring itself is arithmetic."""
        return explain(self)


def threshold_half(oudlers: int) -> int:
    """Half points the taker's side needs with ``oudlers`` oudlers."""
    return THRESHOLDS_HALF[oudlers]


def margin_of(points_half: int, need_half: int) -> int:
    """``ceil(|points − threshold|)``: a leftover half point goes to the winning side."""
    return (abs(points_half - need_half) + 1) // 2


def chelem_term(announced: bool, made_by: Side | None) -> int:
    """C of §9, from the taker's side."""
    if made_by is Side.ATTACK:
        return 400 if announced else 200
    term = -200 if announced else 0
    if made_by is Side.DEFENCE:
        term -= 200
    return term


def marks(players: int, taker: int, partner: int | None, per_defender: int) -> tuple[int, ...]:
    """Every seat's mark for a per-defender amount ``D`` (rules.md §9)."""
    out = [-per_defender] * players
    if partner is None or partner == taker or players != 5:
        out[taker] = (players - 1) * per_defender
    else:
        out[taker] = 2 * per_defender
        out[partner] = per_defender
    return tuple(out)


def score(summary: Summary) -> Score:
    """Score a deal from its summary (rules.md §9)."""
    s = summary
    m = MULTIPLIERS[s.contract]
    need = threshold_half(s.oudlers)
    won = s.points_half >= need
    sign = 1 if won else -1
    margin = margin_of(s.points_half, need)
    contract_points = sign * (25 + margin) * m
    pab = s.petit_au_bout
    petit = 0 if pab is None else (10 * m if pab is Side.ATTACK or s.petit_au_bout_to_taker else -10 * m)
    poignees = sign * sum([size.bonus for _, size in s.poignees]) if s.poignees else 0
    chelem = chelem_term(s.chelem_announced, s.chelem_made_by) if s.chelem_announced or s.chelem_made_by else 0
    d = contract_points + petit + poignees + chelem
    seats = marks(s.players, s.taker, s.partner, d)
    # Made as a plain tuple of the fields, in order: the named-tuple constructor's keyword
    # handling would cost a third of the scoring.
    return tuple.__new__(Score, (won, need, margin, m, contract_points, petit, poignees, chelem, d, seats, s))


def explain(result: Score) -> tuple[Message, ...]:
    """The lines of :attr:`Score.explanation`: one per term of §9, then the marks."""
    s, r = result.summary, result
    won, m = r.won, r.multiplier
    contract = Term("contract", s.contract.value)
    lines = [
        msg(
            "score.result.won" if won else "score.result.lost",
            r.margin,
            contract=contract,
            points=msg("unit.points", Points(s.points_half), points=Points(s.points_half)),
            oudlers=msg("unit.oudlers", s.oudlers),
            need=Points(r.threshold_half),
        ),
        msg(
            "score.contract.won" if won else "score.contract.lost",
            margin=r.margin,
            m=m,
            value=Signed(r.contract_points),
        ),
    ]
    if s.petit_au_bout is not None:
        # Under the variant a defence's Petit au bout still counts for the taker: said as such.
        to_taker = s.petit_au_bout is Side.DEFENCE and s.petit_au_bout_to_taker
        lines.append(
            msg(
                "score.petit_au_bout.to_taker" if to_taker else "score.petit_au_bout",
                side=Term("side", s.petit_au_bout.value),
                m=m,
                value=Signed(r.petit_au_bout),
            )
        )
    winner = Term("side", (Side.ATTACK if won else Side.DEFENCE).value)
    for side, size in s.poignees:
        lines.append(
            msg(
                "score.poignee",
                size.bonus,
                size=Term("poignee", size.value),
                side=Term("side", side.value),
                winner=winner,
            )
        )
    if r.chelem:
        lines.append(msg(_CHELEM_KEYS[s.chelem_announced, s.chelem_made_by], value=Signed(r.chelem)))
    lines.append(msg("score.marks", per_defender=Signed(r.per_defender), marks=SignedList(r.scores)))
    return tuple(lines)


_CHELEM_KEYS: Final = {
    (True, Side.ATTACK): "score.chelem.announced_made",
    (False, Side.ATTACK): "score.chelem.made",
    (True, Side.DEFENCE): "score.chelem.announced_defence",
    (False, Side.DEFENCE): "score.chelem.defence",
    (True, None): "score.chelem.announced_failed",
}


def points_bounds_half(oudlers: int) -> tuple[int, int]:
    """The card points (half points) the taker's side can end with, holding ``oudlers``.

    Each oudler is worth 4.5; the Excuse may be worth 4 to a side that paid its half-point
    exchange (§8). So the side holds at least 4.5·k − 0.5 and leaves the other side at least
    4.5·(3 − k) − 0.5.
    """
    low = max(0, 9 * oudlers - 1)
    high = TOTAL_HALF - max(0, 9 * (3 - oudlers) - 1)
    return low, high


# The cards that are no oudler, in half points, highest first: 4 kings, 4 queens, 4 knights,
# 4 jacks, then 59 cards of 0.5 (the 40 other plain cards and the trumps 2–20).
_NON_OUDLERS: Final[tuple[int, ...]] = (9,) * 4 + (7,) * 4 + (5,) * 4 + (3,) * 4 + (1,) * 59
_NO_KINGS: Final[tuple[int, ...]] = _NON_OUDLERS[4:]
"""What a discard may hold (§4.2): neither king nor oudler."""
_KINGS_AND_TRUMPS: Final[tuple[int, ...]] = (9,) * 4 + (1,) * 19
"""A discard under ``discard_kings_when_forced``, when it holds kings: only kings and trumps 2–20."""
_EXCUSE_ON_PAPER: Final = 8
"""4 points: a side that takes no trick and played its Excuse before the last keeps it, less the
half point it owes (§8.2)."""


def chelem_points_bounds_half(
    players: int, contract: Contract, made_by: Side, oudlers: int, rules: Rules = FFT
) -> tuple[int, int] | None:
    """The card points (half points) of the taker's side when ``made_by`` took every trick and the
    taker's side holds ``oudlers``; None when no deal gives a chelem with that many (§9.6, §12).

    The side that took no trick holds only what lies outside the tricks and goes to it (the
    discard, §4.1, or the unseen dog, §4.3: ``m`` cards, or none), and, if it played its own
    Excuse before the last trick, that Excuse less the half point it owes (4 points, §8.2).
    Every other card is the chelem side's: its Excuse on the last trick takes it (§7), and the
    other side's Excuse on the last trick goes to it (§8.3). With ``j`` oudlers on the side that
    took no trick, ``e`` of them the Excuse on paper and the rest in its pile, it holds between
    ``8e + 9(j − e) + (m − j + e)`` half points (the other cards of 0.5) and that with the best
    cards the pile may hold.
    """
    other = made_by.other
    if other is Side.ATTACK:
        pile = 0 if contract is Contract.GARDE_CONTRE else TABLES[players].dog_size
        kinds = [_NON_OUDLERS] if contract is Contract.GARDE_SANS else [_NO_KINGS]
        if contract.dog_to_taker and rules.discard_kings_when_forced:
            kinds.append(_KINGS_AND_TRUMPS)
        oudlers_in_pile = 3 if contract is Contract.GARDE_SANS else 0  # no oudler in a discard
        held = oudlers
    else:
        pile = TABLES[players].dog_size if contract is Contract.GARDE_CONTRE else 0
        kinds = [_NON_OUDLERS]
        oudlers_in_pile = 3
        held = 3 - oudlers
    lows, highs = [], []
    for paper in (0, 1):
        in_pile = held - paper
        # The pile holds no oudler (a discard), or any of them but the Excuse when it was played.
        if in_pile < 0 or in_pile > min(pile, max(0, oudlers_in_pile - paper)):
            continue
        rest = pile - in_pile
        base = _EXCUSE_ON_PAPER * paper + 9 * in_pile
        lows.append(base + rest)
        highs.append(base + max(sum(values[:rest]) for values in kinds))
    if not lows:
        return None
    low, high = min(lows), max(highs)
    return (low, high) if other is Side.ATTACK else (TOTAL_HALF - high, TOTAL_HALF - low)


def chelem_oudlers_bounds(players: int, contract: Contract, made_by: Side, rules: Rules = FFT) -> tuple[int, int]:
    """The fewest and the most oudlers the taker's side can hold when ``made_by`` took every trick."""
    possible = [k for k in range(4) if chelem_points_bounds_half(players, contract, made_by, k, rules) is not None]
    return possible[0], possible[-1]
