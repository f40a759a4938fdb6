"""Marshmallow fields for the wire vocabulary: cards, seats, strict JSON scalars.

Each field parses with one dictionary or type check and documents itself in the
OpenAPI spec (enums of codes), so the schemas stay the single source of the contract.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from marshmallow import ValidationError, fields, missing, validate

from service.messages import Message, msg
from service.rules.arbitration import AtFault
from service.rules.cards import (
    CARD_BY_CODE,
    CARD_CODES,
    RANK_OF,
    SUIT_OF,
    Card,
    CardMask,
    Suit,
    format_card,
    iter_cards,
    parse_card,
)
from service.rules.deal import Status
from service.rules.dealing import PACKETS
from service.rules.excuse import ExcuseOutcome
from service.rules.ranking import TieBreak
from service.rules.scoring import POUSSE, Contract, PoigneeSize, Side
from service.rules.seating_tables import ORIENTATIONS
from service.rules.table import PLAYER_COUNTS
from service.rules.tournament import Sanction, Source
from service.rules.variants import DealErrors, ExcuseLastTrick, FirstLead
from service.rules.verdicts import (
    Anomaly,
    Decision,
    LegalReason,
    RedealReason,
    RulingReason,
    SeatingFault,
    Unchecked,
    Verdict,
    ViolationCode,
)
from service.texts import LANGUAGES

from .errorcodes import FieldErrorCode
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


def code(card: Card | None) -> str | None:
    """A card's wire code (``None`` passes through), for answers built ready to send."""
    return None if card is None else CARD_CODES[card]


def codes(cards: Iterable[Card]) -> list[str]:
    """The wire codes of ``cards``, in their order."""
    return [CARD_CODES[card] for card in cards]


def codes_of(mask: CardMask | None) -> list[str] | None:
    """The wire codes of a card set, in canonical deck order (``None`` passes through)."""
    return None if mask is None else [CARD_CODES[card] for card in iter_cards(mask)]


CALLABLE: frozenset[Card] = frozenset(c for c in range(56) if RANK_OF[c] > 10)
"""Kings, queens, knights and jacks of the four suits."""

_RANK_NAMES = ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
               "JACK", "KNIGHT", "QUEEN", "KING")  # fmt: skip


def card_name(card: Card) -> str:
    """A name for generated code (``x-enum-varnames``): KING_OF_SPADES, TRUMP_21, EXCUSE.

    The codes themselves (``10H``, ``1T``) start with digits, which no language takes as an
    identifier: generators would otherwise name them ``VALUE_56``.
    """
    suit = SUIT_OF[card]
    if suit is None:
        return "EXCUSE"
    if suit is Suit.TRUMPS:
        return f"TRUMP_{RANK_OF[card]}"
    return f"{_RANK_NAMES[RANK_OF[card] - 1]}_OF_{suit.name}"


CARD_COMPONENTS: dict[str, dict[str, Any]] = {
    "Card": {
        "type": "string",
        "enum": list(CARD_CODES),
        "x-enum-varnames": [card_name(c) for c in range(len(CARD_CODES))],
        "description": "A card code (rules.md §1): rank then suit for suit cards (ranks 1–10, J, N, Q, K; "
        "suits S, H, D, C), number then T for trumps, EX for the Excuse.",
    },
    "CalledCard": {
        "type": "string",
        "enum": [CARD_CODES[c] for c in sorted(CALLABLE)],
        "x-enum-varnames": [card_name(c) for c in sorted(CALLABLE)],
        "description": "A king, queen, knight or jack: the cards a taker may call at five players.",
    },
}


OPEN_VERDICTS: frozenset[type[Verdict]] = frozenset(
    {LegalReason, ViolationCode, RedealReason, RulingReason, FieldErrorCode, Unchecked, Anomaly, SeatingFault}
)
"""The verdict enums a later ``1.x`` may add codes to (the README's version policy): a new rule
checked, a new row of the Code of Arbitration, a new way a request can be wrong. The others
(decisions, sides, cards, contracts…) are closed within ``/v1``."""

OPEN_ENUM_NOTE = (
    "**Open enum**: a later 1.x version of the contract may add codes to it. A client that meets a code it "
    "does not know keeps the answer and shows its `message`, which is always there."
)


def verdict_component(verdict: type[Verdict]) -> dict[str, Any]:
    """The named schema of a verdict enum: its codes, each with its meaning (rules.md §13), and
    whether it is open to new codes (``x-open-enum``)."""
    lines = "\n".join(f"- `{code.value}`: {code.description}" for code in verdict)
    is_open = verdict in OPEN_VERDICTS
    return {
        "type": "string",
        "enum": [code.value for code in verdict],
        "description": f"{verdict.__doc__}\n\n{lines}" + (f"\n\n{OPEN_ENUM_NOTE}" if is_open else ""),
        "x-enum-descriptions": [code.description for code in verdict],
        "x-open-enum": is_open,
    }


def _named(values: Iterable[Any], description: str, kind: str = "string") -> dict[str, Any]:
    return {"type": kind, "enum": list(values), "description": description}


FFT_CONTRACTS = tuple(c.value for c in Contract)
CONTRACT_NAMES = [*FFT_CONTRACTS, POUSSE]


def contracts_accepted(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The contracts a request takes: ``pousse`` too when its rules, as sent, say ``pousse_alias`` (§11)."""
    rules = data.get("rules")
    alias = rules.get("pousse_alias") if isinstance(rules, Mapping) else None
    return (*FFT_CONTRACTS, POUSSE) if alias is True else FFT_CONTRACTS


def bids_accepted(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The bids a request takes: ``pass`` and its contracts."""
    return ("pass", *contracts_accepted(data))


DETAILS = FULL, SUMMARY = ("full", "summary")
"""The values of the ``detail`` query parameter of the deal evaluations, the default first."""

ENUM_COMPONENTS: dict[str, dict[str, Any]] = {
    "Players": _named(PLAYER_COUNTS, "Number of players at the table (§2).", "integer"),
    "Packet": _named(PACKETS, "Cards dealt to a seat at a time (§2.1).", "integer"),
    "Contract": _named(
        CONTRACT_NAMES,
        "A contract (§3.2), lowest first: prise ×1, garde ×2, garde_sans ×4, garde_contre ×6. `pousse`, "
        "another name for garde, only under the `pousse_alias` variant; answers say `garde`.",
    ),
    "Bid": _named(["pass", *CONTRACT_NAMES], "A seat's bid (§3.3): `pass` or a contract."),
    "Side": _named([s.value for s in Side], "The taker's side (`attack`: taker and partner) or the `defence`."),
    "PoigneeSize": _named(
        [p.value for p in PoigneeSize], "A poignée's tier (§9.5): simple 20, double 30, triple 40 (never multiplied)."
    ),
    "Suit": _named([s.code for s in Suit], "A suit: spades, hearts, diamonds, clubs, or T for the trumps."),
    "DealStatus": _named(
        [s.value for s in Status], "Where a deal stands: complete, in progress, or to be dealt again."
    ),
    "NotPlayed": _named(["redeal", "void"], "A deal on a game's sheet that was not played: dealt again, or void."),
    "GameEntryKind": _named(["summary", "record", "not_played"], "What a row of a game's sheet was given as."),
    "AtFault": _named(
        [a.value for a in AtFault], "The side a ruling holds at fault: the attack, the defence, or both (§14)."
    ),
    "ExcuseOutcome": _named([o.value for o in ExcuseOutcome], "What became of the Excuse (§7, §8)."),
    "ExcuseLastTrick": _named(
        [v.value for v in ExcuseLastTrick], "Where an Excuse played to the last trick goes outside a chelem (§8.3)."
    ),
    "FirstLead": _named([v.value for v in FirstLead], "Who leads the first trick when no chelem is announced (§2)."),
    "DealErrors": _named(
        [v.value for v in DealErrors],
        "What a fault of the deal itself found in a complete record does: the deal is dealt again, or disregarded "
        "and scored as played (§14.5).",
    ),
    "Language": _named(list(LANGUAGES), "A language the service writes its texts for people in: English or French."),
    "SeatPositions": _named(
        ["next", "remaining", "none"],
        "The positions a seating request seats (rules.md §16.5): the next one, every one left, or none (the check "
        "form: the positions played held to the rules).",
    ),
    "Detail": _named(
        list(DETAILS),
        "How much of a deal's evaluation to answer: all of it, or the digest a pipeline acts on.",
    ),
    "Orientation": _named(
        list(ORIENTATIONS),
        "A seat of a tournament's table, in playing order (§16.2): north, west, south, east, and at a table of "
        "five `fifth`, who plays after east. A table of three has three of the first four.",
    ),
    "TieBreak": _named(
        [t.value for t in TieBreak],
        "How equal totals are told apart (§16.4, a reading: the texts name none): `none`, they share a rank; "
        "`best_position`, the better best position bilan, then the next best…; `positive_positions`, more "
        "positions with a positive bilan. Still equal, they share a rank.",
    ),
    "Sanction": _named(
        [s.value for s in Sanction],
        "The sanction the control table suggests for a scored error (§16.3): a `warning` for a table's first, "
        "a `penalty` for each after it. The referee decides; the amounts are the referee's (`adjustments`).",
    ),
    "AnomalySource": _named(
        [s.value for s in Source],
        "The text a scored error comes from: `fft_code`, the *FFT Code*'s own list (a total not zero, no table "
        "number, no names and numbers, a card not returned); `rulebook`, the service's rulebook (§16.3).",
    ),
    "CardDealKind": _named(
        ["summary", "record", "not_played", "marks"],
        "What a deal of a scorecard was given as: a summary, a record, a deal not played (each as a game's "
        "sheet takes it), or only the marks written on the card.",
    ),
}
"""The wire's enums, each a named schema that every field carrying it references."""


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


COMPONENTS: dict[str, dict[str, Any]] = {
    **CARD_COMPONENTS,
    **ENUM_COMPONENTS,
    **{
        verdict.__name__: verdict_component(verdict)
        for verdict in (
            LegalReason,
            ViolationCode,
            RedealReason,
            Decision,
            RulingReason,
            FieldErrorCode,
            Unchecked,
            Anomaly,
            SeatingFault,
        )
    },
}
"""Named schemas of the wire vocabulary, referenced by the fields that carry them."""


def component_reference(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: card and verdict fields are references to their components."""
    component = getattr(field, "component", None)
    if component is None:
        return {}
    ref = {"$ref": f"#/components/schemas/{component}"}
    return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref


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
