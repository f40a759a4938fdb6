"""A club's tournament in free deals at the control table (rules.md §16.1–16.4): the plan of its
positions, each table's scorecard as North wrote it, the scored errors found on the cards, and
the standings.

The control table reports; it never corrects. A card is counted as it was written: a deal's
marks as the card gives them (or, where only the deal itself was given, as the deal scores),
each player's total the sum of his marks, plus the referee's adjustments. What is wrong on a card
is an :class:`Anomaly` at its place in the request, with the players of its table, who answer for
the card together (*FFT Code*), and a suggested sanction; a card put right is a new request.

Nothing here scores a deal: the contract turns each deal given as a summary or a record into
its row of marks by the single-deal rules (§9, §14, §15.3) before the card comes here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..messages import Message, Signed, msg
from .cards_and_seating import CardMatch, Misplaced, SeatedView, SeatNote, match, unreturned
from .frozen import copied_by_constructor
from .ranking import TeamStanding, TieBreak, ranks, team_standings, tie_key
from .scoring import Contract
from .seating_tables import SeatedTable
from .verdicts import Anomaly

FFT_SHAPES: Final = ((5, 4), (6, 4), (7, 3))
"""The *FFT Code*'s tournaments: 5 positions of 4 played deals, 6 of 4, or 7 of 3 (§16.1)."""
MINUTES: Final = {3: 35, 4: 45}
"""The time a position is allowed by its number of deals (*FFT Code*, §16.1)."""

PlayerId = str
Path = tuple[str | int, ...]
"""Where a part of the request is: the keys from its root, as a JSON pointer names them."""


class Sanction(StrEnum):
    """What the control table suggests for a scored error (§16.3): the referee decides."""

    WARNING = "warning"
    """The table's first scored error."""
    PENALTY = "penalty"
    """A later one at the same table: its amount is the referee's (an adjustment)."""


class Source(StrEnum):
    """The text a scored error comes from (§16.3)."""

    FFT_CODE = "fft_code"
    """The *FFT Code*'s own list of scored errors."""
    RULEBOOK = "rulebook"
    """The service's rulebook, §16.3, from what the texts say of the scorecard and the ranking."""


SOURCES: Final = {
    Anomaly.DEAL_NOT_ZERO_SUM: Source.FFT_CODE,
    Anomaly.TABLE_MISSING: Source.FFT_CODE,
    Anomaly.PLAYER_MISSING: Source.FFT_CODE,
    Anomaly.CARD_NOT_RETURNED: Source.FFT_CODE,
}
"""The scored errors the *FFT Code* lists itself; every other comes from §16.3."""
RULE_SECTIONS: Final = {
    Anomaly.IMPOSSIBLE_MARKS: "9.3",
    Anomaly.DEAL_COUNT: "16.1",
    Anomaly.POSITION_NOT_IN_PLAN: "16.1",
    Anomaly.TEAMMATES_TOGETHER: "16.4",
}
"""The section of rules.md that says what a scored error breaks, where it is not §16.3 (which lists them all)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The tournament's positions and the deals played in each (§16.1)."""

    positions: int
    deals: int

    @property
    def minutes(self) -> int | None:
        """The time allowed a position, when the texts give one for its number of deals."""
        return MINUTES.get(self.deals)

    @property
    def fft_shape(self) -> bool:
        """One of the *FFT Code*'s three shapes."""
        return (self.positions, self.deals) in FFT_SHAPES


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: his tournament number (``id``), name and team."""

    id: PlayerId
    name: str
    team: str | None = None


@dataclass(frozen=True, slots=True)
class CardDeal:
    """One deal on a card: the row its summary or record scores, the row written, or both."""

    scored: tuple[int, ...] | None
    """The marks the deal gives by the rules, seat by seat (§9.3); None when only written."""
    written: tuple[int, ...] | None
    """The marks as written on the card; None when the deal was given without them."""
    played: bool = True
    """A played deal (§16.1): not a deal dealt again after every seat passed, or a fault of the deal."""
    taker: int | None = None
    """The taker's seat as written with the marks."""
    partner: int | None = None
    """Five players: the partner's seat as written (the taker's own seat when he played alone)."""
    contract: Contract | None = None
    """The contract as written with the marks."""
    scored_taker: int | None = None
    scored_partner: int | None = None
    scored_contract: Contract | None = None

    @property
    def counted(self) -> tuple[int, ...]:
        """The row the standings count: the card's own, else the deal's."""
        row = self.written if self.written is not None else self.scored
        assert row is not None, "a deal is given, or written, or both"
        return row


@dataclass(frozen=True, slots=True)
class Scorecard:
    """A table's scorecard for one position, as North brought it to the control table (§16.2)."""

    position: int
    table: int | None
    """The table's number; None when the card has none."""
    seats: tuple[str, ...]
    """Its seats' orientations, in playing order (a subsequence of :data:`.seating_tables.ORIENTATIONS`)."""
    players: tuple[PlayerId | None, ...]
    """The player at each seat, as written; None for a seat with no name or number."""
    deals: tuple[CardDeal, ...] = ()
    totals: tuple[int | None, ...] = ()
    """Each seat's bilan as written; None where none is written (or no totals at all: ``()``)."""
    returned: bool = True


@dataclass(frozen=True, slots=True)
class Adjustment:
    """The referee's penalty (negative) or bonus for a player in a position."""

    player: PlayerId
    position: int
    points: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """The whole tournament so far, as the control table holds it."""

    entrants: tuple[Entrant, ...]
    cards: tuple[Scorecard, ...]
    plan: Plan | None = None
    seating: tuple[SeatedTable, ...] = ()
    """The tables seated, each with its ``position``: a card is due from each."""
    adjustments: tuple[Adjustment, ...] = ()
    tie_break: TieBreak = TieBreak.NONE


@dataclass(frozen=True, slots=True)
class Found:
    """A scored error: where it is, the table's players, what it is, and the sanction suggested."""

    code: Anomaly
    path: Path
    """Where it is in the request (``scorecards`` and ``seating`` are indexed in request order)."""
    position: int
    table: int | None
    players: tuple[PlayerId, ...]
    """The players of the table, who answer for its card together (*FFT Code*): every seat's
    player as written, a seat with no name or number aside."""
    message: Message
    source: Source
    sanction: Sanction


@dataclass(frozen=True, slots=True)
class TableBilans:
    """A card added up: each seat's bilan, computed from the marks it counts."""

    card: int
    """The card's index in the request."""
    bilans: tuple[int, ...]
    """Seat by seat, the sum of the counted rows; zeros for a card not returned."""
    played: int
    """The played deals on it (§16.1)."""


@dataclass(frozen=True, slots=True)
class Sitting:
    """Where a player sat in one position, and what he brought back from it."""

    position: int
    table: int | None
    table_size: int
    bilan: int | None
    """His bilan at that table; None when its card was not returned."""
    card: int | None
    """The card's index in the request; None for a table of the seating whose card is missing."""


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: PlayerId
    marks: int
    """The sum of his marks on every card."""
    adjustments: int
    """The sum of the referee's adjustments."""
    total: int
    sittings: tuple[Sitting, ...]
    """By position, in the order of the cards."""

    @property
    def other_table_sizes(self) -> bool:
        """Whether he sat at a table of three or five (summed as played, §16.4)."""
        return any(s.table_size != 4 for s in self.sittings)


@dataclass(frozen=True, slots=True)
class Control:
    """What the control table makes of the tournament."""

    standings: tuple[Standing, ...]
    """Best first; equal totals in the order of ``players``."""
    teams: tuple[TeamStanding, ...] | None
    """None when no player has a team."""
    tables: tuple[TableBilans, ...]
    anomalies: tuple[Found, ...]


# ---- a deal's row --------------------------------------------------------------------------------


def marks_shapes(row: Sequence[int]) -> list[tuple[int, int | None]]:
    """The (taker, partner) a zero-sum row of marks can come from (§9.3): the defenders' marks all
    −D and the taker's (n − 1)·D; at five, also the taker's 2D and his partner's D (the partner
    ``None`` for a taker alone). A row of zeros fits every seat (a deal not played)."""
    n = len(row)
    out: list[tuple[int, int | None]] = []
    for taker in range(n):
        others = [row[s] for s in range(n) if s != taker]
        if n == 5:
            for partner in range(n):
                if partner == taker:
                    continue
                defence = [row[s] for s in range(n) if s not in (taker, partner)]
                d = row[partner]
                if all(m == -d for m in defence) and row[taker] == 2 * d:
                    out.append((taker, partner))
        if all(m == others[0] for m in others) and row[taker] == -(n - 1) * others[0]:
            out.append((taker, None))
    return out


def fits(row: Sequence[int], taker: int | None, partner: int | None) -> bool:
    """Whether a zero-sum row can be a deal's marks, with the taker (and at five the partner) as
    written when they are: a partner written at the taker's own seat is a taker alone (§5)."""
    for t, p in marks_shapes(row):
        if taker is not None and t != taker:
            continue
        if partner is not None and p != (None if partner == t else partner):
            continue
        return True
    return False


# ---- the checks ----------------------------------------------------------------------------------


SEATS: Final = {
    "north": msg("anomaly.seat.north"),
    "west": msg("anomaly.seat.west"),
    "south": msg("anomaly.seat.south"),
    "east": msg("anomaly.seat.east"),
    "fifth": msg("anomaly.seat.fifth"),
}
"""Each orientation in words."""
IMPOSSIBLE: Final = {
    3: "anomaly.impossible_marks.three",
    4: "anomaly.impossible_marks.four",
    5: "anomaly.impossible_marks.five",
}
"""What a deal's marks must be at each table size, said when they are not."""


def _where(position: int, table: int | None) -> Message:
    if table is None:
        return msg("anomaly.where.no_table", position=position)
    return msg("anomaly.where", position=position, table=table)


class _Finder:
    """Collects the anomalies in the request's order, each with its table's sanction."""

    def __init__(self) -> None:
        self.found: list[Found] = []
        self.per_table: dict[tuple[str, int], int] = {}

    def add(
        self,
        table_key: tuple[str, int],
        code: Anomaly,
        path: Path,
        position: int,
        table: int | None,
        players: Iterable[PlayerId | None],
        message: Message,
    ) -> None:
        seen = self.per_table.get(table_key, 0)
        self.per_table[table_key] = seen + 1
        sanction = Sanction.WARNING if seen == 0 else Sanction.PENALTY
        named = tuple(p for p in players if p is not None)
        source = SOURCES.get(code, Source.RULEBOOK)
        self.found.append(Found(code, path, position, table, named, message, source, sanction))


def _check_card(
    t: Tournament,
    index: int,
    card: Scorecard,
    known: dict[PlayerId, Entrant],
    sat: set[tuple[int, PlayerId]],
    tables: set[tuple[int, int]],
    find: _Finder,
    matched: CardMatch | None,
) -> None:
    """A card's scored errors, in the order §16.3 lists them: its table number, its position, its
    seats, whether it came back, its deals, their count, its bilans. ``sat`` and ``tables`` are
    the players seated and the tables numbered by the cards before it; ``matched``, the card
    against the seating when there is one (cards_and_seating)."""
    base: Path = ("scorecards", index)
    key = ("card", index)
    where = _where(card.position, card.table)

    def add(code: Anomaly, path: Path, message: Message) -> None:
        find.add(key, code, path, card.position, card.table, card.players, message)

    # Against the seating, a card counts as the table it is the card of: a card numbered
    # otherwise is that, not a second card of the table it names.
    number = card.table if matched is None else matched.number
    if card.table is None:
        add(Anomaly.TABLE_MISSING, (*base, "table"), msg("anomaly.table_missing", where=where))
    elif matched is not None and matched.wrong_number and matched.number is not None:
        said = msg("anomaly.wrong_table_number", where=where, seated=matched.number, table=card.table)
        add(Anomaly.WRONG_TABLE_NUMBER, (*base, "table"), said)
    if number is not None:
        if (card.position, number) in tables:
            add(Anomaly.DUPLICATE_TABLE, (*base, "table"), msg("anomaly.duplicate_table", where=where))
        tables.add((card.position, number))
    if t.plan is not None and card.position > t.plan.positions:
        said = msg("anomaly.position_not_in_plan", t.plan.positions, where=where)
        add(Anomaly.POSITION_NOT_IN_PLAN, (*base, "position"), said)
    notes = {note.seat: note for note in matched.notes} if matched is not None else {}
    _check_seats(card, base, where, known, sat, notes, add)
    if matched is not None:
        for absent in matched.absent:
            seated = t.seating[absent.seated]
            at = seated.orientation(absent.seat) or "north"
            said = msg("anomaly.seated_absent", where=_where(seated.position, seated.table), player=absent.player)
            add(Anomaly.SEATED_ABSENT, ("seating", absent.seated, "seats", at), said)
    if not card.returned:
        add(Anomaly.CARD_NOT_RETURNED, (*base, "returned"), msg("anomaly.card_not_returned", where=where))
        return
    for d, deal in enumerate(card.deals):
        _check_deal(card, deal, (*base, "deals", d), where, d, add)
    if t.plan is not None:
        played = sum(deal.played for deal in card.deals)
        if played != t.plan.deals:
            said = msg("anomaly.deal_count", played, where=where, plan=t.plan.deals)
            add(Anomaly.DEAL_COUNT, (*base, "deals"), said)
    if card.totals:
        sums = [sum(deal.counted[s] for deal in card.deals) for s in range(len(card.seats))]
        for orientation, written, right in zip(card.seats, card.totals, sums, strict=True):
            if written is not None and written != right:
                seat = SEATS[orientation]
                said = msg("anomaly.bilan_mismatch", where=where, seat=seat, claimed=_mark(written), sum=_mark(right))
                add(Anomaly.BILAN_MISMATCH, (*base, "totals", orientation), said)


def _check_seats(
    card: Scorecard,
    base: Path,
    where: Message,
    known: dict[PlayerId, Entrant],
    sat: set[tuple[int, PlayerId]],
    notes: dict[int, SeatNote],
    add: Callable[[Anomaly, Path, Message], None],
) -> None:
    """A card's seats, each in turn: a player missing, unknown, seated twice in the position,
    beside his teammate; and where the seating put him (``notes``, by seat)."""
    teams: dict[str, PlayerId] = {}
    for s, (orientation, player) in enumerate(zip(card.seats, card.players, strict=True)):
        seat_path: Path = (*base, "seats", orientation)
        seat = SEATS[orientation]
        if player is None:
            add(Anomaly.PLAYER_MISSING, seat_path, msg("anomaly.player_missing", where=where, seat=seat))
            continue
        if player not in known:
            add(Anomaly.UNKNOWN_PLAYER, seat_path, msg("anomaly.unknown_player", where=where, player=player))
        if (card.position, player) in sat:
            said = msg("anomaly.player_twice", where=where, player=player)
            add(Anomaly.PLAYER_TWICE, seat_path, said)
        sat.add((card.position, player))
        team = known[player].team if player in known else None
        if team is not None:
            # A player written twice is one player, not his own teammate: player_twice says it.
            if team in teams and teams[team] != player:
                said = msg("anomaly.teammates_together", where=where, player=player, teammate=teams[team], team=team)
                add(Anomaly.TEAMMATES_TOGETHER, seat_path, said)
            else:
                teams.setdefault(team, player)
        if s in notes:
            code, said = _misplaced(notes[s], where)
            add(code, seat_path, said)


_NOT_SEATED_HERE: Final = {
    (True, False): "anomaly.not_seated_here.elsewhere",
    (True, True): "anomaly.not_seated_here.elsewhere.instead",
    (False, False): "anomaly.not_seated_here.nowhere",
    (False, True): "anomaly.not_seated_here.nowhere.instead",
}
"""A player on a card whom the seating put (at another table, or nowhere), and whether he took
the place of a player it put there."""


def _misplaced(note: SeatNote, where: Message) -> tuple[Anomaly, Message]:
    """A seat whose player the seating put elsewhere, in words."""
    named: dict[str, str | int] = {"player": note.player}
    if note.seated_at is not None:
        named["seated"] = note.seated_at
    if note.instead_of is not None:
        named["absent"] = note.instead_of
    if note.kind is Misplaced.SWAPPED:
        return Anomaly.PLAYERS_SWAPPED, msg("anomaly.players_swapped", where=where, player=note.player,
                                            other=named["absent"], other_table=named["seated"])  # fmt: skip
    key = _NOT_SEATED_HERE[(note.kind is Misplaced.ELSEWHERE, note.instead_of is not None)]
    return Anomaly.NOT_SEATED_HERE, msg(key, where=where, **named)


def _mark(value: int) -> Signed | int:
    # Signed as a card writes marks (+42, −126); a nought is no gain: 0, not +0.
    return Signed(value) if value else 0


def _check_deal(
    card: Scorecard, deal: CardDeal, path: Path, where: Message, d: int, add: Callable[[Anomaly, Path, Message], None]
) -> None:
    """A deal's one anomaly, the first of: marks that do not sum to zero, marks no deal gives,
    marks (or taker, or contract) that differ from the deal's summary or record (§16.3)."""
    row = deal.written
    if row is None:
        return
    number = d + 1
    if sum(row) != 0:
        said = msg("anomaly.deal_not_zero_sum", where=where, deal=number, sum=_mark(sum(row)))
        add(Anomaly.DEAL_NOT_ZERO_SUM, (*path, "marks", "row"), said)
        return
    if not fits(row, deal.taker, deal.partner):
        if deal.taker is None:
            said = msg(IMPOSSIBLE[len(row)], where=where, deal=number)
        else:
            said = msg("anomaly.impossible_marks.taker", where=where, deal=number, seat=SEATS[card.seats[deal.taker]])
        add(Anomaly.IMPOSSIBLE_MARKS, (*path, "marks", "row"), said)
        return
    if deal.scored is None:
        return
    differ = deal.scored != row
    if deal.taker is not None and deal.scored_taker is not None and deal.taker != deal.scored_taker:
        differ = True
    if deal.partner is not None and deal.scored_taker is not None:
        taker = deal.scored_taker if deal.taker is None else deal.taker
        written = None if deal.partner == taker else deal.partner
        scored = None if deal.scored_partner == deal.scored_taker else deal.scored_partner
        differ = differ or written != scored
    if deal.contract is not None and deal.scored_contract is not None and deal.contract != deal.scored_contract:
        differ = True
    if differ:
        said = msg("anomaly.marks_contradict_deal", where=where, deal=number)
        add(Anomaly.MARKS_CONTRADICT_DEAL, (*path, "marks"), said)


# ---- the standings -------------------------------------------------------------------------------


def _bilans(sittings: Sequence[Sitting]) -> list[int]:
    return [s.bilan for s in sittings if s.bilan is not None]


def control(t: Tournament) -> Control:
    """The control table's work on a tournament (§16.2–16.4): each card added up, the scored
    errors found, the players and teams ranked."""
    known = {e.id: e for e in t.entrants}
    find = _Finder()
    sat: set[tuple[int, PlayerId]] = set()
    numbered: set[tuple[int, int]] = set()
    tables: list[TableBilans] = []
    sittings: dict[PlayerId, list[Sitting]] = {e.id: [] for e in t.entrants}
    matches: list[CardMatch | None] = [None] * len(t.cards)
    if t.seating:
        views = [SeatedView(c.position, c.table, c.players) for c in t.cards]
        seated_views = [SeatedView(s.position, s.table, s.seats) for s in t.seating]
        matches = list(match(views, seated_views, frozenset(known)))
    for index, card in enumerate(t.cards):
        _check_card(t, index, card, known, sat, numbered, find, matches[index])
        n = len(card.seats)
        bilans = tuple(sum(deal.counted[s] for deal in card.deals) for s in range(n))
        tables.append(TableBilans(index, bilans, sum(deal.played for deal in card.deals)))
        for seat, player in enumerate(card.players):
            if player in sittings:
                bilan = bilans[seat] if card.returned else None
                sittings[player].append(Sitting(card.position, card.table, n, bilan, index))
    returned = [m for m in matches if m is not None]
    for j in unreturned(returned, [SeatedView(s.position, s.table, s.seats) for s in t.seating]):
        seated = t.seating[j]
        where = _where(seated.position, seated.table)
        said = msg("anomaly.card_not_returned.seated", where=where)
        find.add(("seated", j), Anomaly.CARD_NOT_RETURNED, ("seating", j), seated.position, seated.table,
                 seated.seats, said)  # fmt: skip
        for player in seated.seats:
            if player in sittings:
                sittings[player].append(Sitting(seated.position, seated.table, len(seated.seats), None, None))
    adjusted: dict[PlayerId, int] = {e.id: 0 for e in t.entrants}
    for adjustment in t.adjustments:
        adjusted[adjustment.player] += adjustment.points
    rows = []
    for e in t.entrants:
        mine = sorted(sittings[e.id], key=lambda s: s.position)
        marks = sum(s.bilan for s in mine if s.bilan is not None)
        rows.append((e.id, marks, adjusted[e.id], tuple(mine)))
    keys = [
        (marks + adj, tie_key([s.bilan for s in mine if s.bilan is not None], t.tie_break))
        for _, marks, adj, mine in rows
    ]
    ranked = ranks(keys)
    standings = [
        Standing(rank, player, marks, adj, marks + adj, mine)
        for rank, (player, marks, adj, mine) in zip(ranked, rows, strict=True)
    ]
    standings.sort(key=lambda s: s.rank)  # stable: equal ranks keep the order of the players
    members: dict[str, list[PlayerId]] = {}
    for e in t.entrants:
        if e.team is not None:
            members.setdefault(e.team, []).append(e.id)
    teams = team_standings(members, {s.player: s.total for s in standings})
    return Control(tuple(standings), teams, tuple(tables), tuple(find.found))


copied_by_constructor(
    Plan, Entrant, CardDeal, Scorecard, Adjustment, Tournament, Found, TableBilans, Sitting, Standing,
    Control,
)  # fmt: skip
