"""A tournament's seated table and its limits (rules.md §16.2, §16.5), one schema for both
tournament operations: the seating's ``played`` and ``seated``, the standings' ``seating``.

A seated table is its ``position``, its ``table`` number and its ``seats`` by orientation, a
scorecard's own ``seats``: what the seating answers goes as it is into the next request and into
the control table. Both operations take one set of limits, the seating's: a tournament of 3 to
200 players over at most 15 positions.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from service.messages import msg
from service.rules.seating_tables import MAX_PLAYERS, MAX_POSITIONS, ORIENTATIONS, SeatedTable
from service.rules.shuffle import utf8_writable

from .common import IF_LOADED, AnswerSchema, Errors, StrictSchema
from .fields import Length, Range, StrictInteger, StrictNested, StrictString
from .problems import Coded

ID_MAX_LENGTH = 40
"""The longest player id: a tournament number (« N3 ») or a licence number, with room."""
MAX_TABLE_NUMBER = MAX_PLAYERS
"""The largest table number: more than a tournament's tables, for a room numbered its own way."""
MAX_SEATED_TABLES = MAX_POSITIONS * MAX_PLAYERS // 3
"""The most seated tables (and scorecards) a request lists: every position of the largest
tournament at tables of 3."""


def writable(value: str) -> bool:
    # JSON allows a lone surrogate, which UTF-8, and so the answer, cannot write.
    if not utf8_writable(value):
        raise ValidationError(Coded("invalid", msg("error.text_unicode")))
    return True


def player_id(description: str, **kwargs: Any) -> StrictString:
    """A player's id, as both tournament operations take it."""
    return StrictString(
        validate=[Length(min=1, max=ID_MAX_LENGTH), writable],
        metadata={"description": description},
        **kwargs,
    )


def seat_order(seats: dict[str, Any], errors: Errors) -> tuple[str, ...] | None:
    """A table's orientations in playing order; None, and a fault, when it has not 3, 4 or 5
    seats or a fifth seat without the four orientations."""
    order = tuple(o for o in ORIENTATIONS if o in seats)
    if not 3 <= len(order) <= 5 or ("fifth" in order and len(order) != 5):
        errors.add(("seats",), "seats_count", msg("error.seats_count"))
        return None
    return order


def position_number(**kwargs: Any) -> StrictInteger:
    return StrictInteger(
        validate=Range(min=1, max=MAX_POSITIONS), metadata={"description": "The position's number, from 1."}, **kwargs
    )


def table_number(**kwargs: Any) -> StrictInteger:
    return StrictInteger(
        validate=Range(min=1, max=MAX_TABLE_NUMBER), metadata={"description": "The table's number, from 1."}, **kwargs
    )


class SeatsSchema(StrictSchema):
    """A table's players by orientation, as a scorecard's ``seats`` (rules.md §16.2): 3, 4 or 5 of
    them, a fifth only beside the four."""

    north = player_id("The player at north.")
    west = player_id("The player at west.")
    south = player_id("The player at south.")
    east = player_id("The player at east.")
    fifth = player_id("The fifth player (a table of five only), who plays after east.")


class SeatedTableSchema(StrictSchema):
    """A table seated in a position: the seating's ``played``, the standings' ``seating``."""

    position = position_number(required=True)
    table = table_number(required=True)
    seats = StrictNested(
        SeatsSchema,
        required=True,
        metadata={"description": "Its players by orientation: the scorecard's `seats`."},
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            seat_order(data["seats"], errors)
        errors.raise_any()

    def build(self, data: dict[str, Any]) -> SeatedTable:
        at = tuple(o for o in ORIENTATIONS if o in data["seats"])
        return SeatedTable(data["table"], tuple(data["seats"][o] for o in at), at, data["position"])


class SeatedSeatsSchema(AnswerSchema):
    north = StrictString(required=True)
    west = StrictString(metadata={"description": "Not at a table of 3 (a reading: West stays empty)."})
    south = StrictString(required=True)
    east = StrictString(required=True)
    fifth = StrictString(metadata={"description": "At a table of 5 only."})


class SeatedTableAnswerSchema(AnswerSchema):
    """A table the seating seats: what the next request's ``played`` and the standings'
    ``seating`` take as it is."""

    position = StrictInteger(required=True, metadata={"description": "The position's number, from 1."})
    table = StrictInteger(required=True, metadata={"description": "The table's number, from 1."})
    seats = fields.Nested(
        SeatedSeatsSchema,
        required=True,
        metadata={"description": "Its players by orientation, as a scorecard's `seats` takes them."},
    )


class RepeatSchema(AnswerSchema):
    """Two players who meet more than once: the seating's repeats and the duplicate movement's."""

    players = fields.List(StrictString(), required=True, metadata={"description": "The two players."})
    meetings = StrictInteger(required=True, metadata={"description": "How many times they meet: 2 or more."})
    positions = fields.List(
        StrictInteger(), required=True, metadata={"description": "The numbers of the positions where they meet."}
    )
