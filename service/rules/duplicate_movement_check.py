"""The check of a duplicate tournament's movement made by hand (rules.md §17.1–17.2).

The rulebook (p. 13) asks two things of a movement: players change tables but **never their
orientation**, and **deals and players never meet twice**. A movement written by hand (or by
another program) is checked here: its faults are located and listed, never corrected. Two players
meeting more than once are listed apart, as repeats: a movement of an even count of tables
cannot avoid them all (§17.1), so whether they are acceptable is the organiser's call. A player
playing an étui twice is a fault: the scores of an étui are compared between tables, and a
player who knows the cards has no place in that comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from .frozen import copied_by_constructor
from .verdicts import DuplicateMovementFault


@dataclass(frozen=True, slots=True)
class MovementFault:
    """A rule the sittings break, and where: the position as written (0 when none applies), the
    table number, and the players and étuis concerned."""

    code: DuplicateMovementFault
    position: int
    table: int | None = None
    players: tuple[str, ...] = ()
    etuis: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerRepeat:
    """Two players who meet more than once, and the positions (from 1) where they meet."""

    players: tuple[str, str]
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EtuiRepeat:
    """A player who plays one étui more than once, and the positions (from 1) where he plays it."""

    player: str
    etui: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MovementCheck:
    """What the check finds: the faults, then the repeats (not faults, see the module)."""

    faults: tuple[MovementFault, ...]
    repeats: tuple[PlayerRepeat, ...]
    etui_repeats: tuple[EtuiRepeat, ...]
    """The same as the :attr:`DuplicateMovementFault.ETUI_REPLAYED` faults, with their positions."""


copied_by_constructor(MovementFault, PlayerRepeat, EtuiRepeat, MovementCheck)


def player_repeats(sittings: Sequence[Sitting]) -> tuple[PlayerRepeat, ...]:
    """Every two players who sit at one table in more than one position, in the order of the
    positions where they meet, then of the players."""
    met: dict[tuple[str, str], list[int]] = {}
    for sitting in sittings:
        players = sorted({p for p in sitting.players if p})
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                met.setdefault((players[a], players[b]), []).append(sitting.position)
    found = [PlayerRepeat(pair, tuple(sorted(where))) for pair, where in met.items() if len(where) > 1]
    found.sort(key=lambda r: (r.positions, r.players))
    return tuple(found)


def etui_repeats(sittings: Sequence[Sitting]) -> tuple[EtuiRepeat, ...]:
    """Every player who plays an étui at more than one position (an étui twice at one table of one
    position is :attr:`DuplicateMovementFault.ETUI_TWICE`, not a replay)."""
    played: dict[tuple[str, int], set[int]] = {}
    for sitting in sittings:
        for player in {p for p in sitting.players if p}:
            for etui in set(sitting.etuis):
                played.setdefault((player, etui), set()).add(sitting.position)
    found = [EtuiRepeat(player, etui, tuple(sorted(at))) for (player, etui), at in played.items() if len(at) > 1]
    found.sort(key=lambda r: (r.positions, r.player, r.etui))
    return tuple(found)


def check_movement(
    sittings: Sequence[Sitting],
    players: Sequence[Sequence[str]] | None = None,
    labels: Sequence[Etui] | None = None,
) -> MovementCheck:
    """The faults and repeats of ``sittings``. ``players`` gives the tournament's players by
    orientation (:data:`DUPLICATE_ORIENTATIONS` order): each must then sit at his own orientation
    at every position, and nobody else may sit. Without it, the players are those seated, and each
    player's orientation is the one he first sits at. ``labels`` gives the étuis' labels: each
    étui played must then have one, and each label must name orientations."""
    faults = _position_faults(sittings)
    own = _orientations(sittings, players)
    for number in sorted({s.position for s in sittings}):
        at = [s for s in sittings if s.position == number]
        faults += _table_faults(at, own, players is not None)
        faults += _seat_faults(at, own)
        faults += _etui_faults(at, labels)
    if labels is not None:
        faults += _label_faults(labels)
    replays = etui_repeats(sittings)
    for replay in replays:
        faults.append(
            MovementFault(
                DuplicateMovementFault.ETUI_REPLAYED, replay.positions[-1], None, (replay.player,), (replay.etui,)
            )
        )
    return MovementCheck(tuple(faults), player_repeats(sittings), replays)


def _position_faults(sittings: Sequence[Sitting]) -> list[MovementFault]:
    """The positions must be 1 … P: a fault at every number written outside 1 … (the count of
    positions written), so that a gap is found at the numbers past it."""
    numbers = sorted({s.position for s in sittings})
    wrong = [n for n in numbers if not 1 <= n <= len(numbers)]
    return [MovementFault(DuplicateMovementFault.POSITION_NUMBERS, n) for n in wrong]


def _orientations(sittings: Sequence[Sitting], players: Sequence[Sequence[str]] | None) -> dict[str, str]:
    """Each player's orientation: the one the tournament gives him, else the first he sits at."""
    own: dict[str, str] = {}
    if players is not None:
        for orientation, line in zip(DUPLICATE_ORIENTATIONS, players, strict=False):
            for player in line:
                own.setdefault(player, orientation)
        return own
    for sitting in sorted(sittings, key=lambda s: (s.position, s.table)):
        for orientation, player in zip(DUPLICATE_ORIENTATIONS, sitting.players, strict=False):
            if player:
                own.setdefault(player, orientation)
    return own


def _table_faults(at: list[Sitting], own: dict[str, str], known: bool) -> list[MovementFault]:
    """One position's tables: numbers once each, four players each, known players, none absent."""
    faults: list[MovementFault] = []
    position = at[0].position
    numbers: set[int] = set()
    seated: set[str] = set()
    for sitting in at:
        if sitting.table in numbers:
            faults.append(MovementFault(DuplicateMovementFault.TABLE_TWICE, position, sitting.table))
        numbers.add(sitting.table)
        if len(sitting.players) != len(DUPLICATE_ORIENTATIONS) or not all(sitting.players):
            faults.append(MovementFault(DuplicateMovementFault.MISSING_PLAYER, position, sitting.table))
        for player in sitting.players:
            if player and player not in own:
                faults.append(MovementFault(DuplicateMovementFault.UNKNOWN_PLAYER, position, sitting.table, (player,)))
            seated.add(player)
    if known:
        absent = sorted(p for p in own if p not in seated)
        faults += [MovementFault(DuplicateMovementFault.ABSENT_PLAYER, position, None, (p,)) for p in absent]
    return faults


def _seat_faults(at: list[Sitting], own: dict[str, str]) -> list[MovementFault]:
    """One position's seats: each player once, at his own orientation."""
    faults: list[MovementFault] = []
    first: dict[str, int] = {}
    for sitting in at:
        for orientation, player in zip(DUPLICATE_ORIENTATIONS, sitting.players, strict=False):
            if not player:
                continue
            if player in first:
                faults.append(
                    MovementFault(DuplicateMovementFault.PLAYER_TWICE, sitting.position, sitting.table, (player,))
                )
            first.setdefault(player, sitting.table)
            if own.get(player, orientation) != orientation:
                faults.append(
                    MovementFault(
                        DuplicateMovementFault.ORIENTATION_CHANGED, sitting.position, sitting.table, (player,)
                    )
                )
    return faults


def _etui_faults(at: list[Sitting], labels: Sequence[Etui] | None) -> list[MovementFault]:
    """One position's étuis: at least one per table, each at one table once, each labelled."""
    faults: list[MovementFault] = []
    labelled = None if labels is None else {label.number for label in labels}
    seen: set[int] = set()
    for sitting in at:
        if not sitting.etuis:
            faults.append(MovementFault(DuplicateMovementFault.NO_ETUI, sitting.position, sitting.table))
        for etui in sitting.etuis:
            if etui in seen:
                faults.append(
                    MovementFault(DuplicateMovementFault.ETUI_TWICE, sitting.position, sitting.table, (), (etui,))
                )
            seen.add(etui)
            if labelled is not None and etui not in labelled:
                faults.append(
                    MovementFault(DuplicateMovementFault.UNKNOWN_ETUI, sitting.position, sitting.table, (), (etui,))
                )
    return faults


def _label_faults(labels: Sequence[Etui]) -> list[MovementFault]:
    """Each label: one per number, its taker and its dealer orientations."""
    faults: list[MovementFault] = []
    numbers: set[int] = set()
    for label in labels:
        named = label.taker in DUPLICATE_ORIENTATIONS and label.dealer in DUPLICATE_ORIENTATIONS
        if label.number in numbers or not named:
            faults.append(MovementFault(DuplicateMovementFault.BAD_LABEL, 0, None, (), (label.number,)))
        numbers.add(label.number)
    return faults
