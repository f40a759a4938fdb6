"""The control table of a duplicate session (rules.md §17.9): what its *fiches ambulantes* get
wrong, each reported at its play and never corrected.

A figure no Garde at four gives, a player meeting an étui twice, an étui at two tables of one
position, an étui played once (no topage), a player off his orientation; and, when the movement
is given, every play held to its sittings. The topage counts each play as written (p. 15: a
crossing-out goes to the referee, who decides): these faults are the referee's to weigh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .duplicate_scores import is_garde_score
from .duplicate_sittings import DUPLICATE_ORIENTATIONS, Sitting
from .duplicate_topage import Form, Play
from .frozen import copied_by_constructor
from .verdicts import DuplicateFault


@dataclass(frozen=True, slots=True)
class PlayFault:
    """One fault, where it is: the session, the play's index in it (None for a play missing), its
    position, table and étui, and the players it is about."""

    code: DuplicateFault
    session: int
    play: int | None
    position: int
    table: int
    etui: int
    players: tuple[str, ...]


def control(
    form: Form,
    session: int,
    plays: Sequence[Play],
    figures: Sequence[int],
    sittings: Sequence[Sitting] | None = None,
) -> tuple[PlayFault, ...]:
    """Every fault of a session's plays (``figures`` theirs, :func:`figures_of`): play by play in
    request order, each play's in the order of :class:`DuplicateFault`; then the plays the movement
    expects and nobody wrote."""
    found: list[PlayFault] = []
    counts: dict[int, int] = {}
    for play in plays:
        counts[play.etui] = counts.get(play.etui, 0) + 1
    met: dict[tuple[str, int], int] = {}
    tables: dict[tuple[int, int], int] = {}
    lines: dict[str, str] = {}
    seated = {(s.position, s.table): s for s in sittings} if sittings is not None else None
    for index, play in enumerate(plays):
        entrants = tuple(dict.fromkeys(play.players))
        codes: list[tuple[DuplicateFault, tuple[str, ...]]] = []
        if not is_garde_score(figures[index]):
            codes.append((DuplicateFault.IMPOSSIBLE_SCORE, entrants))
        again = tuple(e for e in entrants if (e, play.etui) in met)
        if again:
            codes.append((DuplicateFault.ETUI_TWICE_FOR_PLAYER, again))
        if (play.position, play.etui) in tables:
            codes.append((DuplicateFault.ETUI_TWICE_IN_POSITION, entrants))
        if counts[play.etui] == 1:
            codes.append((DuplicateFault.ETUI_PLAYED_ONCE, entrants))
        if form is Form.INDIVIDUAL:
            moved = tuple(
                p
                for p, orientation in zip(play.players, DUPLICATE_ORIENTATIONS, strict=True)
                if lines.setdefault(p, orientation) != orientation
            )
            if moved:
                codes.append((DuplicateFault.ORIENTATION_CHANGED, moved))
        if seated is not None:
            codes.extend(_against_movement(play, seated.get((play.position, play.table)), entrants))
        found.extend(
            PlayFault(code, session, index, play.position, play.table, play.etui, players) for code, players in codes
        )
        for entrant in entrants:
            met.setdefault((entrant, play.etui), index)
        tables.setdefault((play.position, play.etui), index)
    if sittings is not None:
        found.extend(_missing(session, plays, sittings))
    return tuple(found)


def _against_movement(
    play: Play, sitting: Sitting | None, entrants: tuple[str, ...]
) -> list[tuple[DuplicateFault, tuple[str, ...]]]:
    """A play held to the sitting the movement gives its position and table."""
    if sitting is None:
        return [(DuplicateFault.NOT_IN_MOVEMENT, entrants)]
    out = []
    if sitting.players != play.players:
        out.append((DuplicateFault.PLAYERS_NOT_AS_MOVEMENT, entrants))
    if play.etui not in sitting.etuis:
        out.append((DuplicateFault.ETUI_NOT_AS_MOVEMENT, entrants))
    return out


def _missing(session: int, plays: Sequence[Play], sittings: Sequence[Sitting]) -> list[PlayFault]:
    """The étuis the movement gives a table that no play of that table and position writes."""
    written = {(p.position, p.table, p.etui) for p in plays}
    return [
        PlayFault(
            DuplicateFault.PLAY_MISSING,
            session,
            None,
            sitting.position,
            sitting.table,
            etui,
            tuple(dict.fromkeys(sitting.players)),
        )
        for sitting in sittings
        for etui in sitting.etuis
        if (sitting.position, sitting.table, etui) not in written
    ]


copied_by_constructor(PlayFault)
