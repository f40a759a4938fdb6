"""Load plans: request schemas loaded in one direct pass when the request is valid.

marshmallow loads each field through a dozen generic steps (partial loading, getter closures,
error stores, validator composition, hook lookups): about 20 µs for a legal-cards request
and 45 µs for a whole deal, as much as the rules work. A :class:`LoadPlan` is made once per
request schema from the schema's own fields. On a valid request it walks them directly (each
field's own ``deserialize`` and validators, nested schemas by their own plans, then the
schema's ``check`` and ``build``) and returns what ``schema.load`` returns. At the first
fault of any kind it stops and hands the request to ``schema.load``, which reports every
fault with its location. The schemas stay the one definition of the contract, and error
answers are marshmallow's.

A plan runs the steps of :class:`~service.contract.common.StrictSchema` (``check`` and ``build``,
which its ``load`` runs itself, not as marshmallow hooks) and refuses, when it is made, a
schema with any marshmallow hook, so that no rule is ever skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow.validate import Validator

from service.rules.cards import CARD_BY_CODE

from .common import StrictSchema
from .fields import BoundedList, CardList, CodedErrors, Length, Range, StrictNested


class FaultError(Exception):
    """The request is not plainly valid: marshmallow takes it from the start."""


Step = Callable[[Any, dict[str, Any]], Any]
Convert = Callable[[Any, str | None, Any], Any]
"""A field's conversion, called as ``Field._deserialize`` is: (value, name, enclosing object)."""
"""Loads one field's raw value (``missing`` when absent) from the object it is in."""


class LoadPlan:
    """The direct pass over one schema; :meth:`load` is ``schema.load`` for every input."""

    def __init__(self, schema: ma.Schema) -> None:
        if not isinstance(schema, StrictSchema):
            raise TypeError(f"{type(schema).__name__}: load plans follow StrictSchema's conventions")
        hooks = {
            name
            for name in dir(type(schema))
            if getattr(getattr(type(schema), name, None), "__marshmallow_hook__", None)
        }
        if hooks:
            raise TypeError(f"{type(schema).__name__} has hooks a plan cannot run: {sorted(hooks)}")
        self.schema = schema
        self.load_valid: Callable[[Any], Any] = _generated(schema)
        """The direct pass; raises :class:`FaultError` or ValidationError at the first fault."""

    def load(self, data: Any) -> Any:
        """What ``schema.load(data)`` returns, or the ValidationError it raises."""
        try:
            return self.load_valid(data)
        except (FaultError, ma.ValidationError):
            return self.schema.load(data)


def _generated(schema: StrictSchema) -> Callable[[Any], Any]:
    """The direct pass over ``schema`` as one function, written out field by field.

    What each field needs (absent, null, its conversion, its checks) is decided once, here;
    the function only runs it, without a call per field for the deciding: for a whole deal
    that was a fifth of its load. The source is kept on the function (``__source__``).
    """
    names: dict[str, Any] = {"FaultError": FaultError, "MISSING": ma.missing, "check": schema.check}
    names["build"] = schema.build
    names["KEYS"] = frozenset(f.data_key or name for name, f in schema.load_fields.items())
    lines = [
        "def load_valid(data):",
        "    if type(data) is not dict or not KEYS.issuperset(data):  # not an object, or unknown fields",
        "        raise FaultError",
        "    get = data.get",
        "    out = {}",
    ]
    for i, (name, field) in enumerate(schema.load_fields.items()):
        plan = _field_plan(field)
        key, attribute = field.data_key or name, field.attribute or name
        names[f"convert_{i}"] = plan.convert
        for j, check in enumerate(plan.checks):
            names[f"check_{i}_{j}"] = check
        if plan.required:
            absent = ["raise FaultError"]
        elif plan.default is ma.missing:
            absent = ["pass"]
        elif plan.make_default is not None:
            names[f"default_{i}"] = plan.make_default
            absent = [f"out[{attribute!r}] = default_{i}()"]
        else:
            names[f"default_{i}"] = plan.default
            absent = [f"out[{attribute!r}] = default_{i}"]
        null = absent if plan.null_is_absent else [f"out[{attribute!r}] = None"] if plan.allow_none else absent[:0]
        lines += [f"    value = get({key!r}, MISSING)", "    if value is MISSING:"]
        lines += [f"        {line}" for line in absent]
        lines += ["    elif value is None:"]
        lines += [f"        {line}" for line in null or ["raise FaultError"]]
        lines += ["    else:", f"        loaded = convert_{i}(value, {plan.name!r}, data)"]
        lines += [f"        check_{i}_{j}(loaded)" for j in range(len(plan.checks))]
        lines += [f"        out[{attribute!r}] = loaded"]
    lines += ["    check(out)", "    return build(out)"]
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<load plan of {type(schema).__name__}>", "exec"), names)
    load_valid: Callable[[Any], Any] = names["load_valid"]
    load_valid.__source__ = source  # type: ignore[attr-defined]
    return load_valid


_WALKED_LISTS = (fields.List._deserialize, BoundedList._deserialize)
"""The list loadings a plan restates by walking the items: marshmallow's own, and the one that
only checks the length first (its validators run after, as the plan runs them)."""


_WALKED_OBJECTS = (fields.Nested._deserialize, StrictNested._deserialize)
"""The nested loadings a plan restates by the nested schema's own plan: marshmallow's, and the one
that only refuses a value that is no object first (which the nested plan refuses too)."""


def _step(field: fields.Field[Any]) -> Step:
    """One field's load as a function of its raw value (a list's items are loaded by these)."""
    return _guarded(_field_plan(field))


def _field_plan(field: fields.Field[Any]) -> FieldPlan:
    if field.pre_load:
        raise TypeError(f"{field!r}: field-level pre_load functions are not planned")
    name = field.data_key or field.name
    # A container is walked only when it loads as the plan restates it. One with a loading of
    # its own (a list kept raw for a later, item-by-item load) runs that loading instead:
    # walking its documented item schema would load what the field means to leave alone.
    loads = type(field)._deserialize
    if isinstance(field, fields.Nested) and loads in _WALKED_OBJECTS:
        nested = LoadPlan(field.schema).load_valid
        if field.many:
            return FieldPlan.of(field, name, lambda value, attr, data: [nested(item) for item in _items(value)])
        return FieldPlan.of(field, name, lambda value, attr, data: nested(value))
    if isinstance(field, fields.List) and loads in _WALKED_LISTS:
        inner = _step(field.inner)
        return FieldPlan.of(field, name, lambda value, attr, data: [inner(item, data) for item in _items(value)])
    if loads is CardList._deserialize:
        # Its conversion alone: the length it checks first (for a refused list's sake) is
        # checked by its validators, which the step runs after.
        return FieldPlan.of(field, name, _cards)
    # Scalars: the field's own conversion (the method every custom field overrides), with the
    # guard that Field.deserialize puts around it.
    return FieldPlan.of(field, name, field._deserialize)


def _cards(value: Any, attr: str | None, data: Any) -> tuple[Any, ...]:
    """A card list's codes as the core's cards, as :meth:`CardList._deserialize` converts a valid one."""
    if type(value) is not list:
        raise FaultError
    try:
        if len(value) > 1:
            cards: tuple[Any, ...] = itemgetter(*value)(CARD_BY_CODE)  # the whole list in one call
            return cards
        return tuple(CARD_BY_CODE[code] for code in value)
    except (KeyError, TypeError):  # not a card code, or not even hashable
        raise FaultError from None


def _items(value: Any) -> list[Any]:
    if type(value) is not list:
        raise FaultError
    return value


def _check(validator: Callable[[Any], Any]) -> Callable[[Any], None]:
    """``validator`` as a check that raises at a fault: marshmallow's length and range
    validators by their bounds (no call into marshmallow on a valid value), another Validator
    as it is, and a plain function, which may also fail by returning False (as marshmallow's
    And reads it)."""
    if type(validator) in (validate.Length, Length) and validator.equal is None:  # type: ignore[attr-defined]
        low, high = validator.min, validator.max  # type: ignore[attr-defined]

        def length(value: Any) -> None:
            size = len(value)
            if (low is not None and size < low) or (high is not None and size > high):
                raise FaultError

        return length
    if type(validator) in (validate.Range, Range) and validator.min_inclusive and validator.max_inclusive:  # type: ignore[attr-defined]
        lowest, highest = validator.min, validator.max  # type: ignore[attr-defined]

        def bounds(value: Any) -> None:
            if (lowest is not None and value < lowest) or (highest is not None and value > highest):
                raise FaultError

        return bounds
    if isinstance(validator, Validator):
        return validator

    def function(value: Any) -> None:
        if validator(value) is False:
            raise FaultError

    return function


@dataclass(frozen=True)
class FieldPlan:
    """What ``Field.deserialize`` does around a field's conversion, decided once: absent and
    null values, the default, then the field's validators as checks."""

    name: str | None
    convert: Convert
    checks: tuple[Callable[[Any], None], ...]
    required: bool
    allow_none: bool
    null_is_absent: bool
    default: Any
    make_default: Callable[[], Any] | None

    @classmethod
    def of(cls, field: fields.Field[Any], name: str | None, convert: Convert) -> FieldPlan:
        default = field.load_default
        return cls(
            name=name,
            convert=convert,
            checks=tuple(_check(v) for v in field.validators),
            required=field.required,
            allow_none=field.allow_none,
            null_is_absent=isinstance(field, CodedErrors) and field.null_is_absent,
            default=default,
            make_default=default if callable(default) else None,
        )


def _guarded(plan: FieldPlan) -> Step:
    """A field's plan as one function of its raw value (``missing`` when absent)."""
    missing, convert, name, checks = ma.missing, plan.convert, plan.name, plan.checks
    default, make_default = plan.default, plan.make_default

    def absent() -> Any:
        if plan.required:
            raise FaultError
        return default if make_default is None else make_default()

    def step(value: Any, data: dict[str, Any]) -> Any:
        if value is missing:
            return absent()
        if value is None:
            if plan.null_is_absent:
                return absent()
            if plan.allow_none:
                return None
            raise FaultError
        loaded = convert(value, name, data)
        for check in checks:
            check(loaded)
        return loaded

    return step
