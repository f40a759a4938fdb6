"""A duplicate tournament's movement (rules.md §17.1–17.2): ``POST /v1/tournaments/duplicate/movement``.

The request gives the tournament's shape: its ``tables``, its ``positions``, the étuis a table
plays at each position, the players by orientation and, when the étuis are to be dealt here, a
``seed``. The answer seats every player at every position (players change tables, never
orientation), sends the étuis round (each set to the next lower table), labels every étui
(taker, dealer, leader), lists each player's schedule and every repeat, and with a seed deals
every étui's cards. With ``sittings`` (the check form) nothing is made: the sittings given, a
movement made by hand or by another program, are held to the rules, each fault located by its
JSON pointer. An answer's ``sittings`` sent back in the check form pass it, with the same repeats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from marshmallow import fields

from service.messages import msg
from service.rules.duplicate_etuis import deal_etuis, leader
from service.rules.duplicate_movement import MAX_ETUIS, MAX_TABLES, MIN_TABLES, MovementRequest, make_movement
from service.rules.duplicate_movement_check import (
    EtuiRepeat,
    PlayerRepeat,
    check_movement,
)
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui, Sitting
from service.rules.shuffle import SEED_MAX_LENGTH

from .cards import codes
from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema
from .declaration import Answered, Operation
from .duplicate_request import EtuiLabelSchema
from .fields import BoundedList, EnumField, Length, Range, StrictBoolean, StrictInteger, StrictNested, StrictString
from .movement_faults import FaultLocator
from .tournament_tables import RepeatSchema, player_id, table_number, writable

MOVEMENT_MAX_BYTES = 1024 * 1024
"""Largest request body: the check form of 40 tables over 40 positions, 30 étuis a table and
ids of 40 characters, is some 900 KiB of JSON."""
MAX_SITTINGS = MAX_TABLES * MAX_TABLES
"""The most sittings the check form takes: every table of the largest movement at every position."""
MAX_ETUI_NUMBER = MAX_TABLES * MAX_ETUIS
"""The largest étui number: the largest movement's last étui."""


def _line(orientation: str) -> BoundedList:
    return BoundedList(
        player_id("A player's id (his tournament number, « N3 », or any other)."),
        required=True,
        validate=Length(min=1, max=MAX_TABLES),
        metadata={
            "uniqueItems": True,
            "description": f"The players who sit {orientation} all tournament (rules.md §17.1), one per table: "
            f"player `i` starts at table `i`.",
        },
    )


class MovementPlayersSchema(StrictSchema):
    """The tournament's players by orientation: four lines of one player per table (§17.1)."""

    north = _line("north")
    west = _line("west")
    south = _line("south")
    east = _line("east")


def _seat(orientation: str) -> StrictString:
    return player_id(f"The player at {orientation}. Absent: the seat is empty (`missing_player`).")


class SittingPlayersSchema(StrictSchema):
    """A sitting's four players by orientation, in playing order (§17.1)."""

    north = _seat("north")
    west = _seat("west")
    south = _seat("south")
    east = _seat("east")


class SittingSchema(StrictSchema):
    """One table at one position: who sits there and which étuis it plays (§17.1)."""

    position = StrictInteger(
        required=True,
        validate=Range(min=1, max=MAX_TABLES),
        metadata={"description": "The position's number, from 1."},
    )
    table = table_number(required=True)
    players = StrictNested(
        SittingPlayersSchema,
        required=True,
        metadata={"description": "Its four players by orientation: `north`, `west`, `south`, `east`."},
    )
    etuis = BoundedList(
        StrictInteger(validate=Range(min=1, max=MAX_ETUI_NUMBER)),
        required=True,
        validate=Length(max=MAX_ETUIS),
        metadata={"description": "The numbers of the étuis the table plays at this position, in order."},
    )


class MovementRequestSchema(StrictSchema):
    tables = StrictInteger(
        required=True,
        validate=Range(min=MIN_TABLES, max=MAX_TABLES),
        metadata={"description": "The count of tables `T`, four players each (rules.md §17.1): `4T` players."},
    )
    positions = StrictInteger(
        load_default=None,
        validate=Range(min=1, max=MAX_TABLES),
        metadata={
            "description": "The count of positions `P`, 1 to `tables` (an étui set meets each table once at most); "
            "absent: as many as tables. Not read by the check form."
        },
    )
    etuis_per_position = StrictInteger(
        load_default=1,
        validate=Range(min=1, max=MAX_ETUIS),
        metadata={
            "description": "The étuis `E` a table plays at each position (§17.1): `T × E` étuis in all, set `j` "
            "holding étuis `jE + 1` … `jE + E`. Not read by the check form."
        },
    )
    players = StrictNested(
        MovementPlayersSchema,
        load_default=None,
        metadata={
            "description": "The players by orientation, `tables` ids each, every id once. Absent: `N1` … `N{T}`, "
            "`W1` …, `S1` …, `E1` … (§17.1). In the check form, the tournament's players: each must then sit at "
            "his own orientation at every position, and nobody else may sit; absent, a player's orientation is "
            "the one he first sits at."
        },
    )
    seed = StrictString(
        load_default=None,
        validate=[Length(min=1, max=SEED_MAX_LENGTH), writable],
        metadata={
            "description": "Any text every étui's cards are dealt from (§17.2: étui `n` from `{seed}#{n}`): the "
            "same seed, the same cards, on any machine. Absent: no cards are dealt. Not read by the check form."
        },
    )
    sittings = BoundedList(
        StrictNested(SittingSchema),
        load_default=None,
        validate=Length(min=1, max=MAX_SITTINGS),
        metadata={
            "description": "The check form: a movement made elsewhere, as its sittings (each `position`, `table`, "
            "`players` by orientation and `etuis`), as an answer's `sittings` gives them. Given, nothing is made: "
            "the sittings are held to the rules (§17.1) and their faults listed, never corrected."
        },
    )
    etuis = BoundedList(
        StrictNested(EtuiLabelSchema),
        load_default=None,
        validate=Length(max=MAX_ETUI_NUMBER),
        metadata={
            "description": "The check form: the étuis' labels (§17.2). Given, each étui played must have one, and "
            "each label name orientations. Read by the check form only."
        },
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            positions, tables = data["positions"], data["tables"]
            if positions is not None and positions > tables and data["sittings"] is None:
                said = msg("error.movement.positions", positions=positions, tables=tables)
                errors.add(("positions",), "range", said)
        with IF_LOADED:
            if data["players"] is not None:
                self._check_players(errors, data["players"], data["tables"])
        errors.raise_any()

    @staticmethod
    def _check_players(errors: Errors, players: dict[str, list[str]], tables: int) -> None:
        seen: set[str] = set()
        for orientation in DUPLICATE_ORIENTATIONS:
            line = players[orientation]
            if len(line) != tables:
                errors.add(("players", orientation), "length", msg("error.length.equal", tables))
            for i, pid in enumerate(line):
                if pid in seen:
                    errors.add(
                        ("players", orientation, i), "duplicate_player", msg("error.player_listed_twice", player=pid)
                    )
                seen.add(pid)

    def build(self, data: dict[str, Any]) -> MovementQuery:
        given = data["players"]
        players = () if given is None else tuple(tuple(given[o]) for o in DUPLICATE_ORIENTATIONS)
        if data["sittings"] is None:
            asked = MovementRequest(data["tables"], data["positions"] or 0, data["etuis_per_position"], players)
            return MovementQuery(asked, data["seed"], players, (), None)
        sittings = tuple(
            Sitting(
                s["position"],
                s["table"],
                tuple(s["players"].get(o, "") for o in DUPLICATE_ORIENTATIONS),
                tuple(s["etuis"]),
            )
            for s in data["sittings"]
        )
        labels = None
        if data["etuis"] is not None:
            labels = tuple(data["etuis"])  # built as the core's Etui by the label schema
        return MovementQuery(None, None, players, sittings, labels)


@dataclass(frozen=True, slots=True)
class MovementQuery:
    """A loaded request: the movement to make (None: the check form), the seed its étuis are
    dealt from, the players by orientation (empty: not given), and the check form's sittings and
    labels (None: none given)."""

    asked: MovementRequest | None
    seed: str | None
    players: tuple[tuple[str, ...], ...]
    sittings: tuple[Sitting, ...]
    labels: tuple[Etui, ...] | None


# ---- the answer ---------------------------------------------------------------------------------


class SeatsByOrientationSchema(AnswerSchema):
    north = StrictString(required=True)
    west = StrictString(required=True)
    south = StrictString(required=True)
    east = StrictString(required=True)


class SittingAnswerSchema(AnswerSchema):
    position = StrictInteger(required=True, metadata={"description": "The position's number, from 1."})
    table = StrictInteger(required=True, metadata={"description": "The table's number, from 1."})
    players = fields.Nested(
        SeatsByOrientationSchema, required=True, metadata={"description": "Its four players by orientation."}
    )
    etuis = fields.List(
        StrictInteger(), required=True, metadata={"description": "The numbers of the étuis it plays, in order."}
    )


class EtuiAnswerSchema(AnswerSchema):
    number = StrictInteger(required=True, metadata={"description": "The étui's number, from 1."})
    taker = EnumField(
        "DuplicateOrientation", required=True, metadata={"description": "Its taker's orientation (§17.2)."}
    )
    dealer = EnumField(
        "DuplicateOrientation", required=True, metadata={"description": "Its dealer's orientation (§17.2)."}
    )
    leader = EnumField(
        "DuplicateOrientation",
        required=True,
        metadata={"description": "Who leads the first card: the player on the dealer's right (p. 14)."},
    )


class PlaceSchema(AnswerSchema):
    position = StrictInteger(required=True, metadata={"description": "The position's number, from 1."})
    table = StrictInteger(required=True, metadata={"description": "The table he sits at."})
    etuis = fields.List(StrictInteger(), required=True, metadata={"description": "The étuis he plays there."})


class ScheduleSchema(AnswerSchema):
    player = StrictString(required=True, metadata={"description": "The player's id."})
    orientation = EnumField(
        "DuplicateOrientation",
        required=True,
        metadata={
            "description": "His orientation, all tournament (in the check form: given, or the first he sits at)."
        },
    )
    places = fields.List(
        fields.Nested(PlaceSchema),
        required=True,
        metadata={"description": "Where he sits, position by position (his route card)."},
    )


class EtuiRepeatSchema(AnswerSchema):
    player = StrictString(required=True, metadata={"description": "The player."})
    etui = StrictInteger(required=True, metadata={"description": "The étui he plays more than once."})
    positions = fields.List(
        StrictInteger(), required=True, metadata={"description": "The numbers of the positions where he plays it."}
    )


class MovementFaultSchema(AnswerSchema):
    code = EnumField("DuplicateMovementFault", required=True)
    pointer = StrictString(
        required=True,
        metadata={
            "description": "Where: a JSON pointer into the request (`/sittings/5/players/east`, "
            "`/sittings/2/etuis/1`, `/players/west/3`, `/etuis/7`)."
        },
    )
    position = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The position's number; null for a label's fault."}
    )
    table = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The table's number; null for a whole position."}
    )
    players = fields.List(StrictString(), required=True, metadata={"description": "The players it concerns."})
    etuis = fields.List(StrictInteger(), required=True, metadata={"description": "The étuis it concerns."})
    message = StrictString(required=True, metadata={"description": "The fault for people, in the language asked for."})


class DealtHandsSchema(AnswerSchema):
    north = fields.List(EnumField("Card"), required=True)
    west = fields.List(EnumField("Card"), required=True)
    south = fields.List(EnumField("Card"), required=True)
    east = fields.List(EnumField("Card"), required=True)


class DealtEtuiSchema(AnswerSchema):
    number = StrictInteger(required=True, metadata={"description": "The étui's number."})
    seed = StrictString(
        required=True,
        metadata={
            "description": "The seed text whose shuffle dealt it: `{seed}#{n}`, `{seed}#{n}/{k}` after a petit sec."
        },
    )
    hands = fields.Nested(
        DealtHandsSchema,
        required=True,
        metadata={"description": "The 18 cards of each orientation's pocket, in canonical deck order."},
    )
    dog = fields.List(EnumField("Card"), required=True, metadata={"description": "The dog's 6 cards."})


class MovementResponse(AnswerSchema):
    tables = StrictInteger(required=True, allow_none=True, metadata={"description": "`T`; null in the check form."})
    positions = StrictInteger(required=True, allow_none=True, metadata={"description": "`P`; null in the check form."})
    etuis_per_position = StrictInteger(
        required=True, allow_none=True, metadata={"description": "`E`; null in the check form."}
    )
    sittings = fields.List(
        fields.Nested(SittingAnswerSchema),
        required=True,
        metadata={
            "description": "Position by position, table by table: its players by orientation and its étuis (none in "
            "the check form). What the check form's `sittings` takes as it is."
        },
    )
    etuis = fields.List(
        fields.Nested(EtuiAnswerSchema),
        required=True,
        metadata={"description": "Every étui's label, by number (§17.2; none in the check form)."},
    )
    schedules = fields.List(
        fields.Nested(ScheduleSchema),
        required=True,
        metadata={
            "description": "Each player's places, north's line first (in the check form, of the sittings given)."
        },
    )
    repeats = fields.List(
        fields.Nested(RepeatSchema),
        required=True,
        metadata={
            "description": "Every two players who meet more than once (§17.1): not faults, the organiser's call."
        },
    )
    etui_repeats = fields.List(
        fields.Nested(EtuiRepeatSchema),
        required=True,
        metadata={"description": "Every player who plays an étui more than once (each an `etui_replayed` fault too)."},
    )
    perfect = StrictBoolean(
        required=True,
        metadata={"description": "No fault, no two players meeting twice, nobody playing an étui twice."},
    )
    faults = fields.List(
        fields.Nested(MovementFaultSchema),
        required=True,
        metadata={"description": "The check form: what the sittings break of the rules, each located in the request."},
    )
    dealt = fields.List(
        fields.Nested(DealtEtuiSchema),
        required=True,
        metadata={"description": "With a `seed`, every étui's cards, by number (§17.2); else none."},
    )


def _seats(players: Sequence[str]) -> dict[str, str]:
    return dict(zip(DUPLICATE_ORIENTATIONS, players, strict=True))


def _repeats(repeats: Sequence[PlayerRepeat], replays: Sequence[EtuiRepeat]) -> dict[str, Any]:
    return {
        "repeats": [
            {"players": list(r.players), "meetings": len(r.positions), "positions": list(r.positions)} for r in repeats
        ],
        "etui_repeats": [{"player": r.player, "etui": r.etui, "positions": list(r.positions)} for r in replays],
    }


def schedules(sittings: Sequence[Sitting], players: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """Each player's places, north's players first, then west's, south's, east's: each line as
    given, then any other seated at that orientation in the order they first sit (so the check
    form of a movement made here lists them as it did); a player's orientation is his own (given,
    or the first he sits at)."""
    own: dict[str, str] = {}
    for orientation, line in zip(DUPLICATE_ORIENTATIONS, players, strict=False):
        for pid in line:
            own.setdefault(pid, orientation)
    places: dict[str, list[dict[str, Any]]] = {pid: [] for pid in own}
    for s in sorted(sittings, key=lambda s: (s.position, s.table)):
        for orientation, pid in zip(DUPLICATE_ORIENTATIONS, s.players, strict=False):
            if pid:
                own.setdefault(pid, orientation)
                places.setdefault(pid, []).append({"position": s.position, "table": s.table, "etuis": list(s.etuis)})
    order = sorted(places, key=lambda pid: DUPLICATE_ORIENTATIONS.index(own[pid]))  # stable: lines in order
    return [{"player": pid, "orientation": own[pid], "places": places[pid]} for pid in order]


def dump_movement(query: MovementQuery) -> dict[str, Any]:
    """The generating form's answer: the movement, its labels, schedules, repeats, cards."""
    assert query.asked is not None
    movement = make_movement(query.asked)
    dealt = deal_etuis(query.seed, movement.etuis) if query.seed is not None else ()
    return {
        "tables": movement.tables,
        "positions": movement.positions,
        "etuis_per_position": movement.etuis_per_position,
        "sittings": [
            {"position": s.position, "table": s.table, "players": _seats(s.players), "etuis": list(s.etuis)}
            for s in movement.sittings
        ],
        "etuis": [
            {"number": e.number, "taker": e.taker, "dealer": e.dealer, "leader": leader(e)} for e in movement.etuis
        ],
        "schedules": schedules(movement.sittings, movement.players),
        **_repeats(movement.repeats, movement.etui_repeats),
        "perfect": movement.perfect,
        "faults": [],
        "dealt": [
            {
                "number": d.label.number,
                "seed": d.seed,
                "hands": {o: codes(hand) for o, hand in zip(DUPLICATE_ORIENTATIONS, d.hands, strict=True)},
                "dog": codes(d.dog),
            }
            for d in dealt
        ],
    }


def dump_check(query: MovementQuery, language: str) -> dict[str, Any]:
    """The check form's answer: the faults located, the repeats, the schedules of the sittings."""
    found = check_movement(query.sittings, query.players or None, query.labels)
    locate = FaultLocator(query.sittings, query.players, query.labels)
    return {
        "tables": None,
        "positions": None,
        "etuis_per_position": None,
        "sittings": [],
        "etuis": [],
        "schedules": schedules(query.sittings, query.players),
        **_repeats(found.repeats, found.etui_repeats),
        "perfect": not found.faults and not found.repeats and not found.etui_repeats,
        "faults": [locate.dump(fault, language) for fault in found.faults],
        "dealt": [],
    }


def answer_movement(query: MovementQuery, language: str) -> Answered:
    """The movement a loaded request asks for (rules.md §17.1–17.2), or the check of its sittings."""
    return Answered(dump_movement(query) if query.asked is not None else dump_check(query, language))


DUPLICATE_MOVEMENT = Operation(
    "duplicateMovement",
    "/v1/tournaments/duplicate/movement",
    "duplicate-movement",
    MovementRequestSchema(),
    MovementResponse(),
    answer_movement,
)
