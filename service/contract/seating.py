"""A tournament's seating (rules.md §16.5): ``POST /v1/tournaments/seating``.

One request holds the tournament as it stands: the players present, the positions played (who
sat at which table, by orientation), the constraints (forbidden pairs, fixed players, tables of
5), how many positions it has and which to seat now, and a seed. The answer seats them, or, in
the check form (``seat: "none"``), only holds the positions played to the rules and lists their
faults. Nothing is stored: the next position is the next request, carrying the positions played
so far, and the service, planning every position left from the seed, goes on with its own plan.

A seated table is one object, as the control table (``POST /v1/tournaments/standings``) takes
it: its ``position``, its ``table`` number and its ``seats`` by orientation (``north``, ``west``,
``south``, ``east``, ``fifth``), a scorecard's own ``seats``. The answer's ``seated`` tables are
what the next request's ``played`` takes, the standings' ``seating`` takes, and each a
scorecard's ``seats``: a client passes them on as it got them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import fields

from service.messages import msg
from service.rules.seating import Seating, SeatingRequest, seat_tournament
from service.rules.seating_check import Fault
from service.rules.seating_tables import (
    MAX_PLAYERS,
    MAX_POSITIONS,
    MIN_PLAYERS,
    ORIENTATIONS,
    Position,
    SeatedTable,
    composition,
)
from service.rules.shuffle import SEED_MAX_LENGTH
from service.rules.verdicts import SeatingFault
from service.texts import render

from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema
from .declaration import Answered, Operation
from .fields import BoundedList, EnumField, Length, Range, StrictBoolean, StrictInteger, StrictNested, StrictString
from .problems import Hint
from .tournament_tables import (
    MAX_SEATED_TABLES,
    RepeatSchema,
    SeatedTableAnswerSchema,
    SeatedTableSchema,
    player_id,
    table_number,
    writable,
)

SEATING_MAX_BYTES = 256 * 1024
"""Largest request body: 200 players' 14 positions played, each seat's id written out, are some
100 KiB of JSON, over the 64 KiB other single requests take."""
MAX_FORBIDDEN = 1000
"""The most forbidden pairs: teams of 5 in a 200-player tournament make 400."""
TEAM_MAX_LENGTH = 80
"""The longest team name, as the standings take it."""

CONSTRAINTS = frozenset({SeatingFault.FORBIDDEN_PAIR, SeatingFault.FIXED_ELSEWHERE})
"""The faults of the request's constraints (rules 3 and 6)."""
SEAT_MODES = {"next": 1, "remaining": -1, "none": 0}
"""The values of ``seat``: the positions each seats (-1: every one left)."""


class TeamSchema(StrictSchema):
    player = player_id("The player's id: one of `players` (or of `left`).", required=True)
    team = StrictString(
        required=True,
        validate=Length(min=1, max=TEAM_MAX_LENGTH),
        metadata={"description": "His team's name: teammates never sit at one table."},
    )


class FixedSchema(StrictSchema):
    player = player_id("The player's id: one of `players`.", required=True)
    table = table_number(required=True)


class SeatingRequestSchema(StrictSchema):
    players = BoundedList(
        player_id("A player's id (his tournament number, « N3 », or any other)."),
        required=True,
        validate=Length(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={
            "uniqueItems": True,
            "description": "The players present, by their ids, each once (3 at least: one table of 3); in the check "
            "form (`seat: none`), every player of the tournament.",
        },
    )
    positions = StrictInteger(
        required=True,
        validate=Range(min=1, max=MAX_POSITIONS),
        metadata={"description": "How many positions the tournament has in all (the *FFT Code*'s shapes: 5, 6 or 7)."},
    )
    played = BoundedList(
        StrictNested(SeatedTableSchema),
        load_default=None,
        validate=Length(max=MAX_SEATED_TABLES),
        metadata={
            "description": "The tables of the positions played, from position 1 on: as the answers' `seated` gave "
            "them, or as they were played (the standings' `seating` takes the same list). Absent: none."
        },
    )
    seat = EnumField(
        "SeatPositions",
        load_default="next",
        metadata={
            "description": "Which positions to seat: the `next` one, every one `remaining` (to print the whole "
            "movement before the start), or `none`: the check form, which only holds the positions played to the "
            "rules."
        },
    )
    forbidden = BoundedList(
        BoundedList(player_id("A player's id."), validate=Length(equal=2)),
        load_default=None,
        validate=Length(max=MAX_FORBIDDEN),
        metadata={"description": "Pairs of players who never sit at one table (teammates), each two ids."},
    )
    teams = BoundedList(
        StrictNested(TeamSchema),
        load_default=None,
        validate=Length(max=MAX_PLAYERS),
        metadata={
            "description": "Each player's team, as the standings take it (a player listed once): teammates never sit "
            "at one table, as if each two of a team were a `forbidden` pair."
        },
    )
    left = BoundedList(
        player_id("A player's id."),
        load_default=None,
        validate=Length(max=MAX_PLAYERS),
        metadata={
            "uniqueItems": True,
            "description": "Players who played positions and are no longer present. A seat of `played` holds a "
            "player present or one who left; any other id is no player (`unknown_player`).",
        },
    )
    fixed = BoundedList(
        StrictNested(FixedSchema),
        load_default=None,
        validate=Length(max=MAX_PLAYERS),
        metadata={"description": "Players who stay at one table all tournament (a player who cannot move)."},
    )
    tables_of_five = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Seat at tables of 5, not of 3, the players a count of 4 leaves over (a small "
            "tournament the federation does not approve)."
        },
    )
    seed = StrictString(
        load_default=None,
        validate=[Length(min=1, max=SEED_MAX_LENGTH), writable],
        metadata={
            "description": "Any text the draw comes from: the same request and seed, the same seating, on any "
            "machine; another seed, another draw. Needed to seat; not read by the check form."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            self._check_players(errors, data["players"])
        with IF_LOADED:
            if data["seat"] != "none" and composition(len(set(data["players"])), data["tables_of_five"]) is None:
                count = len(set(data["players"]))
                five = not data["tables_of_five"] and count == 5
                hint = Hint(msg("error.no_tables.hint"), ("tables_of_five",)) if five else None
                errors.add(("players",), "no_tables", msg("error.no_tables", count), hint)
        with IF_LOADED:
            self._check_played(errors, data["played"] or [], data["positions"], data["seat"])
        with IF_LOADED:
            if data["seat"] != "none" and data["seed"] is None:
                errors.add(("seed",), "required", msg("error.required.seed"))
        with IF_LOADED:
            for i, pair in enumerate(data["forbidden"] or []):
                if len(pair) == 2 and pair[0] == pair[1]:
                    errors.add(("forbidden", i), "same_player", msg("error.same_player", player=pair[0]))
        with IF_LOADED:
            self._check_listed(errors, "fixed", data["fixed"] or [], set(data["players"]))
        with IF_LOADED:
            self._check_left(errors, data["players"], data["left"] or [])
        with IF_LOADED:
            known = set(data["players"]) | set(data["left"] or [])
            self._check_listed(errors, "teams", data["teams"] or [], known)
        with IF_LOADED:
            tables = composition(len(set(data["players"])), data["tables_of_five"])
            if data["seat"] != "none" and tables is not None:
                count = tables.fours + tables.threes + tables.fives
                for i, entry in enumerate(data["fixed"] or []):
                    if entry["table"] > count:
                        said = msg("error.fixed_table", count, table=entry["table"])
                        errors.add(("fixed", i, "table"), "fixed_table", said)
        errors.raise_any()

    @staticmethod
    def _check_players(errors: Errors, players: list[str]) -> None:
        seen: set[str] = set()
        for i, pid in enumerate(players):
            if pid in seen:
                errors.add(("players", i), "duplicate_player", msg("error.player_listed_twice", player=pid))
            seen.add(pid)

    @staticmethod
    def _check_played(errors: Errors, played: list[Any], positions: int, seat: str) -> None:
        numbers = [table.position for table in played]
        for i, number in enumerate(numbers):
            if number > positions:
                said = msg("error.positions_played.beyond", position=number, positions=positions)
                errors.add(("played", i, "position"), "positions_played", said)
        last = max(numbers, default=0)
        gaps = [number for number in range(1, min(last, positions)) if number not in numbers]
        if gaps:
            errors.add(("played",), "positions_played", msg("error.positions_played.gap", position=gaps[0]))
        elif seat != "none" and last == positions:
            errors.add(("seat",), "positions_played", msg("error.positions_played.all", positions))

    @staticmethod
    def _check_listed(errors: Errors, field: str, entries: list[dict[str, Any]], known: set[str]) -> None:
        """Each entry's ``player`` one of ``known``, and listed once."""
        seen: set[str] = set()
        for i, entry in enumerate(entries):
            pid = entry["player"]
            if pid not in known:
                errors.add((field, i, "player"), "not_a_player", msg("error.not_a_player", player=pid))
            elif pid in seen:
                errors.add((field, i, "player"), "duplicate_player", msg("error.player_listed_twice", player=pid))
            seen.add(pid)

    @staticmethod
    def _check_left(errors: Errors, players: list[str], left: list[str]) -> None:
        present = set(players)
        for i, pid in enumerate(left):
            if pid in present or pid in left[:i]:
                errors.add(("left", i), "duplicate_player", msg("error.player_listed_twice", player=pid))

    def build(self, data: dict[str, Any]) -> SeatingQuery:
        given: list[SeatedTable] = data["played"] or []
        count = max((table.position for table in given), default=0)
        where: list[list[int]] = [[] for _ in range(count)]
        for i, table in enumerate(given):
            where[table.position - 1].append(i)
        played = tuple(tuple(given[i] for i in indexes) for indexes in where)
        mode = SEAT_MODES[data["seat"]]
        tournament = SeatingRequest(
            players=tuple(data["players"]),
            positions=data["positions"],
            played=played,
            seat=data["positions"] - len(played) if mode < 0 else mode,
            forbidden=tuple((a, b) for a, b in data["forbidden"] or ()) + teammates(data["teams"] or []),
            fixed=tuple((entry["player"], entry["table"]) for entry in data["fixed"] or ()),
            fives=data["tables_of_five"],
            seed=data["seed"] or "",
            left=tuple(data["left"] or ()),
        )
        return SeatingQuery(tournament, tuple(tuple(indexes) for indexes in where))


def teammates(teams: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    """Each two players of one team: a forbidden pair."""
    members: dict[str, list[str]] = {}
    for entry in teams:
        members.setdefault(entry["team"], []).append(entry["player"])
    return tuple((a, b) for players in members.values() for i, a in enumerate(players) for b in players[i + 1 :])


@dataclass(frozen=True, slots=True)
class SeatingQuery:
    """A loaded request: the tournament, and where each table of its positions played is in the
    request's ``played`` (``where[p][k]``: the index of table ``k`` of position ``p + 1``)."""

    tournament: SeatingRequest
    where: tuple[tuple[int, ...], ...]


# ---- the answer ---------------------------------------------------------------------------------


class TableSizesSchema(AnswerSchema):
    fours = StrictInteger(required=True)
    threes = StrictInteger(required=True)
    fives = StrictInteger(required=True)


class SeatingIssueSchema(AnswerSchema):
    code = EnumField("SeatingFault", required=True)
    pointer = StrictString(
        required=True,
        metadata={
            "description": "Where: a JSON pointer into the request (`faults`: `/played/5/seats/east`) or into this "
            "answer (`shortfalls`: `/seated/2/seats`); a fault of a whole position points at its first table's "
            "`position`."
        },
    )
    position = StrictInteger(required=True, metadata={"description": "The position's number, from 1."})
    table = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The table's number; null for a whole position."}
    )
    players = fields.List(StrictString(), required=True, metadata={"description": "The players it concerns."})
    message = StrictString(required=True, metadata={"description": "The fault for people, in the language asked for."})


class SeatingResponse(AnswerSchema):
    seated = fields.List(
        fields.Nested(SeatedTableAnswerSchema),
        required=True,
        metadata={
            "description": "The tables of the positions seated now, position by position, table by table (none in "
            "the check form): what the next request's `played` and the standings' `seating` take."
        },
    )
    table_sizes = fields.Nested(
        TableSizesSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The tables of a position of the players present: of 4, with the fewest of 3 (or of 5); "
            "null when no tables seat them."
        },
    )
    bound = StrictInteger(
        required=True,
        metadata={
            "description": "The most positions this many players can play without a repeated meeting, by counting "
            "(an upper bound; rules.md §16.5)."
        },
    )
    repeats = fields.List(
        fields.Nested(RepeatSchema),
        required=True,
        metadata={"description": "Every two players who meet more than once, over the positions played and seated."},
    )
    without_repeats = StrictBoolean(required=True, metadata={"description": "No two players meet twice."})
    repeat_free = StrictInteger(
        required=True,
        metadata={
            "description": "How many positions, from the first, are played and seated before any two players meet "
            "a second time."
        },
    )
    meets_bound = StrictBoolean(
        required=True,
        metadata={
            "description": "The seating reaches the bound: no two players meet twice within the first `bound` "
            "positions (all of them when the tournament has fewer), of those played and seated. Beyond the bound "
            "repeats are certain, and `repeats` lists them."
        },
    )
    faults = fields.List(
        fields.Nested(SeatingIssueSchema),
        required=True,
        metadata={"description": "What the positions played break of the rules, each located in the request."},
    )
    shortfalls = fields.List(
        fields.Nested(SeatingIssueSchema),
        required=True,
        metadata={
            "description": "What the positions seated could not keep of the rules besides repeats (which `repeats` "
            "lists), each located in this answer: a rule given way to one before it."
        },
    )
    replanned = StrictBoolean(
        required=True,
        metadata={
            "description": "The positions played are not the first of the plan this seed draws for these players: "
            "the positions left were planned anew around them."
        },
    )
    seed = StrictString(required=True, allow_none=True, metadata={"description": "The seed of the draw."})
    work = StrictInteger(
        required=True, metadata={"description": "The search's work (swaps weighed): what bounds the request's cost."}
    )
    capped = StrictBoolean(
        required=True,
        metadata={"description": "The search stopped at its cap: the best seating found, its repeats listed."},
    )
    constraints_met = StrictBoolean(
        required=True,
        metadata={
            "description": "No forbidden pair (nor two teammates) at one table and every fixed player at his table: "
            "in the positions seated, or in the check form in the positions played. When false, `shortfalls` (or "
            "`faults`) say where."
        },
    )


def _pointer(fault: Fault, root: str, where: tuple[tuple[int, ...], ...], position: Position) -> str:
    """Where ``fault`` is: a seat, a table's seats (or its number), or a whole position, at its
    first table's number."""
    indexes = where[fault.position]
    if fault.table is None:
        return f"/{root}/{indexes[0]}/position" if indexes else f"/{root}"
    path = f"/{root}/{indexes[fault.table]}"
    if fault.code is SeatingFault.DUPLICATE_TABLE:
        return f"{path}/table"
    orientation = None if fault.seat is None else position[fault.table].orientation(fault.seat)
    return f"{path}/seats" if orientation is None else f"{path}/seats/{orientation}"


def _dump_fault(
    fault: Fault,
    root: str,
    where: tuple[tuple[int, ...], ...],
    positions: tuple[Position, ...],
    first: int,
    language: str,
) -> dict[str, Any]:
    position = positions[fault.position]
    return {
        "code": fault.code,
        "pointer": _pointer(fault, root, where, position),
        "position": first + fault.position,
        "table": None if fault.table is None else position[fault.table].table,
        "players": list(fault.players),
        "message": render(fault.message, language),
    }


def _seats(table: SeatedTable) -> dict[str, str]:
    return {table.orientation(k) or ORIENTATIONS[-1]: pid for k, pid in enumerate(table.seats)}


def dump_seating(seating: Seating, query: SeatingQuery, language: str) -> dict[str, Any]:
    """The answer's JSON: positions numbered from 1, faults located by pointers."""
    req = query.tournament
    first = len(req.played) + 1
    sizes = seating.tables
    # A pair's second meeting (positions counted from 0) is the first position with a repeat.
    free = min((r.positions[1] for r in seating.repeats), default=len(req.played) + len(seating.seated))
    seated: list[dict[str, Any]] = []
    placed: list[tuple[int, ...]] = []
    for i, position in enumerate(seating.seated):
        placed.append(tuple(range(len(seated), len(seated) + len(position))))
        seated += [{"position": first + i, "table": table.table, "seats": _seats(table)} for table in position]
    return {
        "seated": seated,
        "table_sizes": None if sizes is None else {"fours": sizes.fours, "threes": sizes.threes, "fives": sizes.fives},
        "bound": seating.bound,
        "repeats": [
            {"players": list(r.players), "meetings": len(r.positions), "positions": [p + 1 for p in r.positions]}
            for r in seating.repeats
        ],
        "without_repeats": not seating.repeats,
        "repeat_free": free,
        "meets_bound": free >= min(seating.bound, len(req.played) + len(seating.seated)),
        "faults": [_dump_fault(f, "played", query.where, req.played, 1, language) for f in seating.faults],
        "shortfalls": [
            _dump_fault(f, "seated", tuple(placed), seating.seated, first, language) for f in seating.shortfalls
        ],
        "replanned": seating.replanned,
        "seed": req.seed or None,
        "work": seating.work,
        "capped": seating.capped,
        "constraints_met": not any(
            f.code in CONSTRAINTS for f in (seating.faults if query.tournament.seat <= 0 else seating.shortfalls)
        ),
    }


def answer_seating(query: SeatingQuery, language: str) -> Answered:
    """The seating of a loaded request (rules.md §16.5), or the check of its positions played."""
    return Answered(dump_seating(seat_tournament(query.tournament), query, language))


SEAT_TOURNAMENT = Operation(
    "seatTournament", "/v1/tournaments/seating", "seating", SeatingRequestSchema(), SeatingResponse(), answer_seating
)
