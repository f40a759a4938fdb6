"""Schema pieces shared by every operation: the rule flags, card lists, seat checks."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from contextlib import suppress
from enum import StrEnum
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields
from marshmallow.validate import Validator

from service.messages import Message, msg
from service.rules.cards import CARD_CODES, Card, CardMask, mask_of
from service.rules.table import MAX_PLAYERS, PLAYER_COUNTS
from service.rules.variants import FFT, Rules

from .fields import (
    SEAT_FORM,
    CalledCardField,
    CardList,
    EnumField,
    EnumRefusal,
    StrictBoolean,
    StrictInteger,
    StrictNested,
    object_form,
)
from .hints import field_hint
from .problems import Coded, Hint


class StrictSchema(Schema):
    """Unknown fields are refused: a misspelt flag must not pass silently.

    Rules across fields go in :meth:`check` and the making of the loaded value in
    :meth:`build`, not in marshmallow hooks: :meth:`load` runs them itself, and the load plans
    (:mod:`service.contract.plans`) run them exactly as a load does. A request whose fields do
    not all load still has its rules across fields checked on the fields that did (each rule
    whose inputs all loaded, see :class:`Loaded`), so that one answer names every fault.
    """

    class Meta:
        unknown = RAISE

    error_messages = {  # noqa: RUF012 (marshmallow's own class attribute)
        "unknown": Coded("unknown_field", msg("error.unknown_field")),
        "type": Coded("type", msg("error.type.object")),
    }

    def load(self, data: Any, *, many: bool | None = None, **kwargs: Any) -> Any:
        """marshmallow's load of the fields, then :meth:`check` and :meth:`build`; a refusal
        says, where it helps, what was meant (:func:`explain`)."""
        if many if many is not None else self.many:
            return _load_many(self, data, **kwargs)
        if not isinstance(data, Mapping):
            # What it should be instead: the object's fields (and its own hint, where it has one).
            hint = getattr(self.error_messages.get("type"), "hint", None)
            said = msg("error.type.expected", expected=object_form(self))
            raise ValidationError({"_schema": [Coded("type", said, hint)]})
        try:
            loaded = super().load(data, many=False, **kwargs)
        except ValidationError as exc:
            if isinstance(exc.messages, dict):
                if isinstance(exc.valid_data, dict) and "_schema" not in exc.messages:
                    self._check_loaded(exc.valid_data, exc.messages)
                explain(self, data, exc.messages)
            raise
        try:
            self.check(loaded)
        except ValidationError as exc:
            if isinstance(exc.messages, dict):
                explain(self, data, exc.messages)
            raise
        return self.build(loaded)

    def _check_loaded(self, valid: dict[str, Any], messages: dict[str | int, Any]) -> None:
        """Add to ``messages`` the faults :meth:`check` finds among the fields that loaded."""
        failed = {
            field.attribute or name for name, field in self.load_fields.items() if (field.data_key or name) in messages
        }
        loaded = Loaded({key: value for key, value in valid.items() if key not in failed}, failed)
        try:
            self.check(loaded)
        except ValidationError as exc:
            if isinstance(exc.messages, dict):
                _merge(messages, exc.messages)

    def check(self, data: dict[str, Any]) -> None:
        """Rules across fields: raise a ValidationError (see :class:`Errors`) locating every
        fault. Each rule reads its fields inside ``with IF_LOADED:``, so that it is skipped when
        one of them failed to load (``data`` is then a :class:`Loaded`) and the others run."""

    def build(self, data: dict[str, Any]) -> Any:
        """The loaded value made of the valid ``data``: ``data`` itself unless a schema says."""
        return data


def _load_many(schema: StrictSchema, data: Any, **kwargs: Any) -> list[Any]:
    if not isinstance(data, list):
        raise ValidationError({"_schema": [Coded("type", msg("error.type.array"))]})
    out, errors = [], {}
    for index, item in enumerate(data):
        try:
            out.append(schema.load(item, many=False, **kwargs))
        except ValidationError as exc:
            errors[index] = exc.messages
    if errors:
        raise ValidationError(errors)
    return out


class UnloadedError(Exception):
    """A rule across fields read a field that failed to load."""


class Loaded(dict[str, Any]):
    """The fields of an object that loaded, when others did not: reading one that did not
    (by ``[]`` or ``get``) raises :class:`UnloadedError`, which skips the rule that needed it."""

    def __init__(self, valid: dict[str, Any], failed: set[str]) -> None:
        super().__init__(valid)
        self.failed = failed

    def __missing__(self, key: str) -> Any:
        raise UnloadedError(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.failed:
            raise UnloadedError(key)
        return super().get(key, default)


IF_LOADED = suppress(UnloadedError)
"""``with IF_LOADED:`` around one rule across fields: skipped when a field it reads failed to
load (a fault of its own already), the next rules checked all the same."""


def players_field() -> EnumField:
    return EnumField("Players", required=True, metadata={"description": "Number of players at the table: 3, 4 or 5."})


def seat_message(players: int) -> Message:
    return msg("error.seat_out_of_range", last=players - 1, players=players)


LARGEST_TABLE_SEATS = msg("error.seat_out_of_range.largest", last=MAX_PLAYERS - 1, players=MAX_PLAYERS)
"""The range of seats said where the table's own is not known: its player count is invalid."""


class SeatRange(Validator):
    """A seat of some table: beyond the largest table's, ``seat_out_of_range``. Said with the
    largest table's range here, where the field stands alone; the object that knows the
    number of players says its own instead (:func:`explain`), and :func:`seat_error` refuses
    the seats within the largest table that are beyond the request's own."""

    error = None
    form = SEAT_FORM
    """What a seat is, said to a value of another type."""

    def __call__(self, value: int) -> int:
        if not 0 <= value < MAX_PLAYERS:
            raise ValidationError(Coded("seat_out_of_range", LARGEST_TABLE_SEATS))
        return value


SEAT_RANGE = SeatRange()


def seat_field(description: str, **kwargs: Any) -> StrictInteger:
    """A seat: from 0 to ``players`` − 1, anything else refused as ``seat_out_of_range`` with the
    table's range (the contract states the largest table's bounds)."""
    return StrictInteger(
        validate=SEAT_RANGE,
        metadata={
            "minimum": 0,
            "maximum": MAX_PLAYERS - 1,
            "description": f"{description} From 0 to `players` − 1; any other seat is refused as `seat_out_of_range`.",
        },
        **kwargs,
    )


def card_list(description: str, **kwargs: Any) -> fields.List[Any]:
    return CardList(metadata={"uniqueItems": True, "description": description}, **kwargs)


def called_card_field(description: str) -> CalledCardField:
    return CalledCardField(allow_none=True, load_default=None, metadata={"description": description})


def _variant_field(variant: dataclasses.Field[Any]) -> fields.Field[Any]:
    """The request flag of one field of the core's :class:`Rules`: its type, default and meaning."""
    default = getattr(FFT, variant.name)
    description = variant.metadata["description"]
    if isinstance(default, StrEnum):
        return EnumField(type(default).__name__, load_default=default.value, metadata={"description": description})
    return StrictBoolean(load_default=default, metadata={"description": description})


class AnswerSchema(StrictSchema):
    """An object of an answer. Within ``/v1`` the service may give it new fields (the README's
    version policy), so the document says ``additionalProperties: true`` for it (the
    HTTP layer writes the document): generated clients then keep the fields they know and
    let the others be. Loading one here still refuses a field it does not
    name, which keeps the service's own answers exact in its tests."""


class _RulesBase(StrictSchema):
    def build(self, data: dict[str, Any]) -> Rules:
        values = {}
        for variant in dataclasses.fields(Rules):
            kind = type(getattr(FFT, variant.name))
            values[variant.name] = data[variant.name] if kind is bool else kind(data[variant.name])
        return Rules(**values)


# The flags are the core's Rules, field by field: a variant and its default are stated once.
RulesSchema = type(
    "RulesSchema",
    (_RulesBase,),
    {
        "__doc__": "Rule variants (rules.md §11). Every flag defaults to the FFT rule.",
        **{variant.name: _variant_field(variant) for variant in dataclasses.fields(Rules)},
    },
)


def _fft() -> Rules:
    return FFT  # immutable: every request without variants shares it


def rules_field() -> fields.Nested:
    return StrictNested(
        RulesSchema, load_default=_fft, metadata={"description": "Rule variants; omit for the FFT rules."}
    )


class Errors:
    """Collects located faults found across fields, then raises them together."""

    def __init__(self) -> None:
        self.messages: dict[str | int, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: Message, hint: Hint | None = None) -> None:
        # Nested dicts all the way down; a fault about the node itself goes under
        # "_schema", as marshmallow does, so a list can carry both kinds.
        node = self.messages
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_schema", []).append(Coded(code, message, hint))

    def nest(self, path: Sequence[str | int], messages: Any) -> None:
        """Add marshmallow's own messages for a part of the request loaded on its own, found at ``path``."""
        node = self.messages
        for key in path:
            node = node.setdefault(key, {})
        _merge(node, messages if isinstance(messages, dict) else {"_schema": messages})

    def duplicates(self, name: str, cards: Sequence[Card]) -> CardMask:
        """Flag every card of ``cards`` that repeats an earlier one; the cards, as a mask."""
        mask = mask_of(cards)
        if mask.bit_count() != len(cards):  # some card repeats: find which, in order
            seen = 0
            for index, card in enumerate(cards):
                if seen >> card & 1:
                    self.add((name, index), "duplicate_card", msg("error.duplicate_card", card=CARD_CODES[card]))
                seen |= 1 << card
        return mask

    def raise_any(self) -> None:
        if self.messages:
            raise ValidationError(self.messages)


def _merge(into: dict[str | int, Any], messages: dict[str | int, Any]) -> None:
    for key, value in messages.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        elif isinstance(value, list) and isinstance(into.get(key), list):
            into[key] = [*into[key], *value]
        else:
            into[key] = value


def seat_error(errors: Errors, path: Sequence[str | int], seat: int | None, players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        errors.add(path, "seat_out_of_range", seat_message(players))


def explain(schema: Schema, data: Mapping[str, Any], messages: dict[str | int, Any]) -> None:
    """Make the refusals of ``data`` by ``schema`` say more, in place: an unknown field the
    nearest field it was probably meant to be; an enum's refusal the values this request takes
    (its rules, its table: :meth:`EnumRefusal.within`); a seat beyond the largest table, or a
    seat of the wrong type, wherever it is inside ``data``, the range of ``data``'s own table
    when ``data`` says its player count."""
    declared = [field.data_key or name for name, field in schema.load_fields.items()]
    not_given = [name for name in declared if name not in data]
    for key, found in messages.items():
        if isinstance(key, str) and key not in declared and isinstance(found, list):
            messages[key] = [_with_field_hint(m, key, not_given) for m in found]
        elif key in declared:
            _within(found, data)
    players = data.get("players")
    if type(players) is int and players in PLAYER_COUNTS and "players" in declared:
        _say_table(messages, seat_message(players), msg("form.seat", last=players - 1))


def _within(messages: Any, data: Mapping[str, Any]) -> None:
    """The enum refusals of one field of ``data`` (a list's items too), said for ``data``."""
    if isinstance(messages, list):
        for i, message in enumerate(messages):
            if isinstance(message, EnumRefusal):
                messages[i] = message.within(data)
    elif isinstance(messages, dict):
        for key, value in messages.items():
            if isinstance(key, int):
                _within(value, data)


def _with_field_hint(message: Any, key: str, names: list[str]) -> Any:
    if isinstance(message, Coded) and message.code == "unknown_field" and message.hint is None:
        return Coded(message.code, message.message, field_hint(key, names))
    return message


def _say_table(messages: Any, table: Message, seat: Message) -> None:
    """Every seat refused with the largest table's range in ``messages``, said with ``table``'s;
    every seat of the wrong type told the table's seats (``seat``)."""
    if isinstance(messages, dict):
        for value in messages.values():
            _say_table(value, table, seat)
    elif isinstance(messages, list):
        for i, message in enumerate(messages):
            if isinstance(message, Coded) and message.message == LARGEST_TABLE_SEATS:
                messages[i] = Coded(message.code, table)
            elif isinstance(message, Coded) and _holds(message.message, SEAT_FORM):
                messages[i] = Coded(message.code, _replaced(message.message, SEAT_FORM, seat), message.hint)
            else:
                _say_table(message, table, seat)


def _holds(message: Message, part: Message) -> bool:
    return message == part or any(isinstance(arg, Message) and _holds(arg, part) for _, arg in message.args)


def _replaced(message: Message, part: Message, by: Message) -> Message:
    if message == part:
        return by
    args = tuple((name, _replaced(arg, part, by) if isinstance(arg, Message) else arg) for name, arg in message.args)
    return Message(message.key, args, message.count)


def fail(code: str, message: Message) -> bool:
    """Raise a coded validation error (for one-line validators)."""
    raise ValidationError(Coded(code, message))
