"""Marshmallow fields for the wire vocabulary: cards, enums, strict JSON scalars, and what each
takes said in words to a request that sent something else.

Each field parses with one dictionary or type check and documents itself in the OpenAPI spec
by reference to its named schema (:mod:`.components`), so the schemas stay the single source
of the contract.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from marshmallow import ValidationError, fields, missing, validate

from service.messages import Message, msg
from service.rules.cards import (
    CARD_BY_CODE,
    CARD_CODES,
    Card,
    format_card,
    parse_card,
)
from service.rules.table import PLAYER_COUNTS

from .cards import CALLABLE
from .components import COMPONENTS
from .hints import card_hint, enum_hint
from .problems import Coded, Hint

ERROR_CODES: dict[str, str] = {
    "required": "required",
    "null": "null",
    "invalid": "type",
    "type": "type",
    "special": "type",
    "invalid_utf8": "type",
    "too_large": "range",
    "validator_failed": "invalid",
}
"""The field-error code of each of marshmallow's error keys: codes follow the kind of error,
never the wording of its message."""


class CodedErrors:
    """Field mixin: every error a field makes carries the code of its error key, and an
    optional field takes ``null`` as absent.

    Many client serializers (Jackson, Gson, kotlinx.serialization, Go without ``omitempty``)
    send ``null`` for every field left unset: for a field with a default, ``null`` means that
    default, and the contract says the field is nullable.
    """

    required: bool
    load_default: Any
    allow_none: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.null_is_absent:
            self.allow_none = True

    @property
    def null_is_absent(self) -> bool:
        return not self.required and self.load_default is not missing

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if value is None and self.null_is_absent:
            value = missing
        return super().deserialize(value, attr, data, **kwargs)  # type: ignore[misc]

    def make_error(self, key: str, **kwargs: Any) -> ValidationError:
        # marshmallow's own English messages are replaced by catalog messages of the same kind;
        # a value of the wrong type, or a null, is told what the field takes.
        code = ERROR_CODES.get(key, "invalid")
        if code == "type":
            message = msg("error.type.expected", expected=accepted(self))  # type: ignore[arg-type]
        elif code == "null":
            message = msg("error.null.expected", expected=accepted(self))  # type: ignore[arg-type]
        elif code == "range":
            message = msg("error.range.too_large")
        else:
            message = Message(f"error.{code}")
        return ValidationError(Coded(code, message))


class Length(validate.Length):
    """marshmallow's length validator, its messages coded ``length``; ``hint`` says what to do
    instead (a JSON batch over its limit: NDJSON)."""

    def __init__(self, *args: Any, hint: Hint | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hint = hint

    def _format_error(self, value: Any, message: str) -> str:
        # A string counts characters, a list items.
        chars = isinstance(value, str)
        if self.equal is not None:
            said = msg("error.length.equal.chars" if chars else "error.length.equal", self.equal)
        elif self.max is None:
            said = msg("error.length.min.chars" if chars else "error.length.min", self.min)
        elif self.min is None:
            said = msg("error.length.max.chars" if chars else "error.length.max", self.max)
        else:
            said = msg("error.length.between.chars" if chars else "error.length.between", self.max, min=self.min)
        return Coded("length", said, self.hint)


class Range(validate.Range):
    """marshmallow's range validator (bounds included), its messages coded ``range``."""

    def _format_error(self, value: Any, message: str) -> str:
        if self.max is None:
            return Coded("range", msg("error.range.min", min=self.min))
        if self.min is None:
            return Coded("range", msg("error.range.max", max=self.max))
        return Coded("range", msg("error.range.between", min=self.min, max=self.max))


class OneOf(validate.OneOf):
    """marshmallow's choice validator, its messages coded ``enum``."""

    def _format_error(self, value: Any) -> str:
        return enum_error(value, self.choices)


def enum_error(value: Any, choices: Iterable[Any], nullable: bool = False, enum: str | None = None) -> Coded:
    """A value outside its enum (named ``enum`` in the contract): the values it may take (null
    too, when the field takes it), and the one it was probably meant to be."""
    choices = tuple(choices)
    said = msg("error.enum", choices=said_choices(choices, nullable))
    return Coded("enum", said, enum_hint(value, choices, enum))


def said_choices(choices: Iterable[Any], nullable: bool = False) -> str:
    """An enum's values as a refusal lists them: ``attack, defence, null``."""
    return ", ".join([*map(str, choices), *(["null"] if nullable else [])])


class CardField(CodedErrors, fields.Field[Card]):
    """A card as its canonical wire code (rules.md §1), loaded to the core's int.

    In the spec it is a reference to the ``Card`` component (the 78 codes).
    """

    component = "Card"

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Card:
        if not isinstance(value, str):
            raise ValidationError(Coded("type", msg("error.type.expected", expected=accepted(self))))
        try:
            return parse_card(value)
        except KeyError:
            said = msg("error.unknown_card", value=repr(value[:12]))
            raise ValidationError(Coded("unknown_card", said, card_hint(value))) from None

    def _serialize(self, value: Card | None, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else format_card(value)


class CalledCardField(CardField):
    """A card a taker may call: a king, queen, knight or jack (rules.md §5)."""

    component = "CalledCard"

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Card:
        card = super()._deserialize(value, attr, data, **kwargs)
        if card not in CALLABLE:
            raise ValidationError(Coded("not_callable", msg("error.not_callable")))
        return card


class BoundedList(CodedErrors, fields.List[Any]):
    """A list whose length limit is checked before its items.

    marshmallow validates every item first and the length after: a 60 KB body of 12 000
    bad items then costs a worker some 100 ms and answers 12 000 errors. Over its limit,
    the list gets one error, at the list, and its items are not looked at.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> list[Any]:
        self.check_length(value)
        return super()._deserialize(value, attr, data, **kwargs)

    def check_length(self, value: Any) -> None:
        """Raise marshmallow's own length error when ``value`` is a list over the limit."""
        if isinstance(value, list):
            for validator in self.validators:
                if isinstance(validator, validate.Length) and validator.max is not None and len(value) > validator.max:
                    validator(value)


class CardList(BoundedList):
    """A list of card codes, loaded to a tuple of the core's ints with one dictionary lookup
    per card (a tuple: what the core's records hold, so nothing is copied again).

    A deal carries some 150 cards; through ``List(CardField())`` each would pay for a full
    field call. Documented, validated and reported exactly as that list: a bad item is
    handed to the inner :class:`CardField` for its located error.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(CardField(), **kwargs)

    # A tuple where marshmallow's List makes a list: the core's records hold tuples.
    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> tuple[Any, ...]:
        if not isinstance(value, list):
            return tuple(super()._deserialize(value, attr, data, **kwargs))
        self.check_length(value)
        try:
            cards = tuple(map(CARD_BY_CODE.get, value))  # only string keys: anything else is None
        except TypeError:  # an unhashable item (a list, an object)
            cards = (None,)
        if None in cards:
            return tuple(super()._deserialize(value, attr, data, **kwargs))  # slow path: the errors
        return cards

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[Any] | None:
        return None if value is None else [CARD_CODES[card] for card in value]


Accepted = Callable[[Mapping[str, Any]], tuple[Any, ...]]
"""The values of an enum that a request takes, from the object that holds the field (its rules,
its table), as it was sent."""


class EnumField(CodedErrors, fields.Field[Any]):
    """A value of one of the named enums of :data:`COMPONENTS` (the wire's enums and the core's
    verdict codes), referenced by name.

    ``accepted``, for an enum some of whose values a request may refuse (``pousse`` without its
    variant, a packet another table deals), says which values a request takes: a refusal lists
    those only (the FFT's, until :meth:`EnumRefusal.within` says them for the request).
    """

    def __init__(self, component: str, accepted: Accepted | None = None, **kwargs: Any) -> None:
        schema = COMPONENTS[component]
        self.component = component
        self._choices = tuple(schema["enum"])
        self._kind = int if schema["type"] == "integer" else str
        self.accepted = accepted
        super().__init__(**kwargs)

    def accepted_in(self, data: Mapping[str, Any]) -> tuple[Any, ...]:
        """The values a request whose object holding this field is ``data`` takes."""
        return self._choices if self.accepted is None else self.accepted(data)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if type(value) is not self._kind or value not in self._choices:  # exactly: neither true for 1 nor 4.0 for 4
            raise ValidationError(EnumRefusal.of(self, value, {}))
        return value

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class EnumRefusal(Coded):
    """An enum field's refusal (``type`` or ``enum``), said with the values the request takes."""

    field: EnumField
    value: Any

    @classmethod
    def of(cls, field: EnumField, value: Any, data: Mapping[str, Any]) -> EnumRefusal:
        choices = field.accepted_in(data)
        nullable = field.allow_none
        if type(value) is not field._kind:
            form = msg("form.enum", choices=said_choices(choices, nullable))
            said = cls("type", msg("error.type.expected", expected=form), enum_hint(value, choices, field.component))
        else:
            error = enum_error(value, choices, nullable, field.component)
            said = cls(error.code, error.message, error.hint)
        said.field, said.value = field, value
        return said

    def within(self, data: Mapping[str, Any]) -> EnumRefusal:
        """The same refusal, said for the request whose object holding the field is ``data``."""
        if self.field.accepted is None:
            return self
        return EnumRefusal.of(self.field, self.value, data)


class StrictInteger(CodedErrors, fields.Integer):
    """A JSON integer: no strings, floats or booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid")
        return value


class StrictBoolean(CodedErrors, fields.Boolean):
    """A JSON boolean: ``true`` or ``false`` only."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictString(CodedErrors, fields.String):
    """A JSON string, never coerced from another type."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class HalfPoints(CodedErrors, fields.Number[float]):
    """Card points on the wire (0–91, in steps of 0.5), loaded as int half points."""

    num_type = float

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        doubled = value * 2
        if not math.isfinite(doubled):  # 1e308 doubles to infinity, which int() refuses
            raise ValidationError(Coded("range", msg("error.range.points")))
        if doubled != int(doubled):
            raise ValidationError(Coded("half_point_grid", msg("error.half_point_grid")))
        return int(doubled)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else value / 2


class StrictNested(CodedErrors, fields.Nested):
    """A nested object, its errors coded: a value that is no object is told the object's fields."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, partial: Any = None, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, partial, **kwargs)


def default_in_words(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a request field's default, said in its description.

    As the ``default`` keyword, code generators (openapi-typescript's defaults among them)
    make the field required in the request type; said in words, the field stays optional.
    """
    default = field.load_default
    if default is missing or callable(default):
        return {}
    described = field.metadata.get("description", "")
    value = json.dumps(field._serialize(default, None, None))
    return {"description": f"{described} Default: `{value}`.".lstrip()}


# ---- what a field takes, said to a request that sent something else ----------------------------


def accepted(field: fields.Field[Any]) -> Message:
    """What ``field`` takes, in words (a catalog message): the form its refusals of a value of
    the wrong type, or of a null, state (``an integer from 0 to 91``, ``one of: attack,
    defence, null``, ``an object with the fields …``)."""
    form = _form(field)
    if field.allow_none and not isinstance(field, EnumField):
        return msg("form.or_null", form=form)
    return form


def _form(field: fields.Field[Any]) -> Message:
    said = getattr(field, "form", None)  # a field that says its own (a decimal's)
    if isinstance(said, Message):
        return said
    if isinstance(field, EnumField):
        return msg("form.enum", choices=said_choices(field.accepted_in({}), field.allow_none))
    if isinstance(field, CalledCardField):
        return msg("form.called_card")
    if isinstance(field, CardField):
        return msg("form.card")
    if isinstance(field, fields.Nested):
        return object_form(field.schema)
    if isinstance(field, fields.List):
        return _sized(field, "list", item=_form(field.inner))
    if isinstance(field, fields.Boolean):
        return msg("form.boolean")
    if isinstance(field, HalfPoints):
        return msg("form.points")
    if isinstance(field, fields.Integer):
        return _integer(field)
    if isinstance(field, fields.String):
        return _sized(field, "string")
    return msg("form.value")


def object_form(schema: Any) -> Message:
    """An object of ``schema``'s fields, the required ones named."""
    loaded = schema.load_fields.items()
    names = ", ".join(f"`{f.data_key or name}`" for name, f in loaded)
    required = ", ".join(f"`{f.data_key or name}`" for name, f in loaded if f.required)
    if required:
        return msg("form.object.required", fields=names, required=required)
    return msg("form.object", fields=names)


def _bounds(field: fields.Field[Any], kind: type[validate.Validator]) -> tuple[Any, Any]:
    """The lowest and highest bounds ``field``'s validators of ``kind`` set (None: none)."""
    low = high = None
    for validator in field.validators:
        if isinstance(validator, kind):
            low = validator.min if validator.min is not None else low  # type: ignore[attr-defined]
            high = validator.max if validator.max is not None else high  # type: ignore[attr-defined]
            if isinstance(validator, validate.Length) and validator.equal is not None:
                low = high = validator.equal
    return low, high


def _integer(field: fields.Field[Any]) -> Message:
    for validator in field.validators:
        said = getattr(validator, "form", None)  # a validator that says its own (a seat's)
        if isinstance(said, Message):
            return said
    low, high = _bounds(field, validate.Range)
    low = field.metadata.get("minimum", low)
    high = field.metadata.get("maximum", high)
    if low is not None and high is not None:
        return msg("form.integer.between", min=low, max=high)
    if low is not None:
        return msg("form.integer.min", min=low)
    if high is not None:
        return msg("form.integer.max", max=high)
    return msg("form.integer")


_SIZED = {
    "list": ("form.list", "form.list.equal", "form.list.between", "form.list.max", "form.list.min"),
    "string": ("form.string", "form.string.equal", "form.string.between", "form.string.max", "form.string.min"),
}


def _sized(field: fields.Field[Any], kind: str, **args: Message) -> Message:
    """A list (``item``: what each item is) or a string, with the length it must have."""
    bare, equal, between, most, least = _SIZED[kind]
    low, high = _bounds(field, validate.Length)
    if low is not None and low == high:
        return Message(equal, tuple(args.items()), low)
    if low is not None and high is not None:
        return Message(between, (("min", low), *args.items()), high)
    if high is not None:
        return Message(most, tuple(args.items()), high)
    if low is not None:
        return Message(least, tuple(args.items()), low)
    return Message(bare, tuple(args.items()))


SEAT_FORM = msg("form.seat", last=max(PLAYER_COUNTS) - 1)
"""A seat, said with the largest table's: the object that knows its table says its own."""
