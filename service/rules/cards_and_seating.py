"""The control table's cards held to the seating (rules.md §16.3, "Against the seating").

When the organiser gives the seating, each card is first matched to the seated table it is the
card of: the table of its position where the seating put most of its players (its own number
first among equals; a card whose players sat nowhere stands for the table of its number). What
a card then gets wrong against the seating is one scored error named for what it is:

- a card numbered otherwise than the table its players were seated at: ``wrong_table_number``
  (never a card not returned, nor the other table's duplicate);
- two players each at the other's table: ``players_swapped``, once for the pair;
- a player on a card whose table the seating did not put him at: ``not_seated_here``, saying
  where the seating put him and whose place he took;
- a player the seating put at a table and who is on no card of that position:
  ``seated_absent``, unless his card's seat has no name (``player_missing``), a number that is
  no player (``unknown_player``) or a player written twice, on this card or on his own card too
  (``player_twice``),
  which says it already.

Nothing here corrects a card; the cards are counted as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from .frozen import copied_by_constructor

PlayerId = str


class Misplaced(Enum):
    """What is wrong with one seat of a card against the seating."""

    SWAPPED = "swapped"
    ELSEWHERE = "elsewhere"
    """The seating put the player at another table of the position."""
    NOWHERE = "nowhere"
    """The seating seated the player at no table of the position."""


@dataclass(frozen=True, slots=True)
class SeatNote:
    """A seat of a card whose player the seating did not put at the card's table."""

    seat: int
    kind: Misplaced
    player: PlayerId
    seated_at: int | None
    """The table the seating put him at; None when it did not seat him."""
    instead_of: PlayerId | None = None
    """The player the seating put at this table whose place he took (for a swap: the other)."""


@dataclass(frozen=True, slots=True)
class Absent:
    """A player the seating put at a table who is on no card of the position."""

    seated: int
    """The seated table's index in the seating."""
    seat: int
    """His seat's index in the seated table's players."""
    player: PlayerId


@dataclass(frozen=True, slots=True)
class CardMatch:
    """A card against the seating."""

    seated: int | None
    """The index in the seating of the table it is the card of; None when it stands for none."""
    number: int | None
    """The table number it counts as: the seated table's, else its own."""
    wrong_number: bool
    notes: tuple[SeatNote, ...] = ()
    absent: tuple[Absent, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatedView:
    """What :func:`match` needs of a card and of a seated table."""

    position: int
    table: int | None
    players: tuple[PlayerId | None, ...]


@dataclass(slots=True)
class _Seat:
    card: int
    seat: int
    player: PlayerId
    seated_at: int | None
    kind: Misplaced
    done: bool = field(default=False)


def match(cards: Sequence[SeatedView], seating: Sequence[SeatedView], known: frozenset[PlayerId]) -> list[CardMatch]:
    """Each card against the seating (see the module); ``known``: the tournament's players."""
    out: list[CardMatch] = []
    best: list[int | None] = []
    for card in cards:
        best.append(_best_table(card, seating))
    where: dict[tuple[int, PlayerId], int] = {}
    for index, seated in enumerate(seating):
        for player in seated.players:
            if player is not None:
                where.setdefault((seated.position, player), index)
    on_a_card = {(card.position, p) for card in cards for p in card.players if p is not None}
    on_own_card = {
        (card.position, p)
        for i, card in enumerate(cards)
        for p in card.players
        if p is not None and best[i] == where.get((card.position, p))
    }
    extras: list[list[_Seat]] = [[] for _ in cards]
    copies = [0] * len(cards)
    for i, card in enumerate(cards):
        k = best[i]
        if k is None:
            continue
        for s, player in enumerate(card.players):
            if player is None or player not in known:
                continue
            at = where.get((card.position, player))
            if at != k and (card.position, player) in on_own_card:
                copies[i] += 1  # also on his own table's card: player_twice says it
            elif at != k:
                kind = Misplaced.NOWHERE if at is None else Misplaced.ELSEWHERE
                extras[i].append(_Seat(i, s, player, None if at is None else seating[at].table, kind))
    # A swap: x on the card of table A seated at B, z on the card of B seated at A.
    by_table: dict[int, list[_Seat]] = {}
    for i, seats in enumerate(extras):
        k = best[i]
        if k is not None:
            by_table.setdefault(k, []).extend(seats)
    notes: list[list[SeatNote]] = [[] for _ in cards]
    for i, seats in enumerate(extras):
        k = best[i]
        for x in seats:
            if x.done or x.kind is not Misplaced.ELSEWHERE or k is None:
                continue
            at = where[(cards[i].position, x.player)]
            for z in by_table.get(at, []):
                if not z.done and z.kind is Misplaced.ELSEWHERE and where[(cards[z.card].position, z.player)] == k:
                    x.done = z.done = True
                    notes[i].append(SeatNote(x.seat, Misplaced.SWAPPED, x.player, x.seated_at, z.player))
                    break
    for i, card in enumerate(cards):
        k = best[i]
        if k is None:
            out.append(CardMatch(None, card.table, False))
            continue
        absent = [
            Absent(k, s, p)
            for s, p in enumerate(seating[k].players)
            if p is not None and (card.position, p) not in on_a_card
        ]
        # A seat with no name, or a number that is no player, is taken as the absent player's:
        # its own scored error says it.
        named = [p for p in card.players if p is not None and p in known]
        unnamed = copies[i] + len(card.players) - len(set(named))
        absent = absent[unnamed:]
        for x in extras[i]:
            if x.done:
                continue
            instead = absent.pop(0).player if absent else None
            notes[i].append(SeatNote(x.seat, x.kind, x.player, x.seated_at, instead))
        notes[i].sort(key=lambda note: note.seat)
        number = seating[k].table
        wrong = card.table is not None and card.table != number
        out.append(CardMatch(k, number, wrong, tuple(notes[i]), tuple(absent)))
    return out


def _best_table(card: SeatedView, seating: Sequence[SeatedView]) -> int | None:
    """The seated table of the card's position where most of its players were seated, its own
    number first among equals; with none of them seated, the table of its number."""
    named = {p for p in card.players if p is not None}
    best: int | None = None
    most = 0
    for k, seated in enumerate(seating):
        if seated.position != card.position:
            continue
        shared = len(named & set(seated.players))
        own = seated.table == card.table
        if (shared or own) and (best is None or shared > most or (shared == most and own)):
            best, most = k, shared
    return best


def unreturned(matches: Sequence[CardMatch], seating: Sequence[SeatedView]) -> list[int]:
    """The seated tables no card stands for: cards not returned."""
    taken = {m.seated for m in matches if m.seated is not None}
    return [k for k in range(len(seating)) if k not in taken]


copied_by_constructor(SeatNote, Absent, CardMatch, SeatedView)
