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

A plan knows the hooks of :class:`~service.api.wire.common.StrictSchema` (``check`` and ``build``)
and refuses, when it is made, a schema with any other marshmallow hook, so that no rule is
ever skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Validator

from service.rules.cards import CARD_BY_CODE

from ..wire.common import StrictSchema
from ..wire.fields import BoundedList, CardList, CodedErrors


class FaultError(Exception):
    """The request is not plainly valid: marshmallow takes it from the start."""


Step = Callable[[Any, dict[str, Any]], Any]
"""Loads one field's raw value (``missing`` when absent) from the object it is in."""

_ALLOWED_HOOKS = {"_check", "_build"}  # StrictSchema's own, which a plan runs itself


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
        if hooks - _ALLOWED_HOOKS:
            raise TypeError(f"{type(schema).__name__} has hooks a plan cannot run: {sorted(hooks - _ALLOWED_HOOKS)}")
        self.schema = schema
        self._keys = frozenset(f.data_key or name for name, f in schema.load_fields.items())
        self._steps = [
            (field.data_key or name, field.attribute or name, _step(field))
            for name, field in schema.load_fields.items()
        ]

    def load(self, data: Any) -> Any:
        """What ``schema.load(data)`` returns, or the ValidationError it raises."""
        try:
            return self.load_valid(data)
        except (FaultError, ma.ValidationError):
            return self.schema.load(data)

    def load_valid(self, data: Any) -> Any:
        """The direct pass; raises :class:`FaultError` or ValidationError at the first fault."""
        if type(data) is not dict or not self._keys.issuperset(data):  # not an object, or unknown fields
            raise FaultError
        out = {}
        for key, attribute, step in self._steps:
            value = step(data.get(key, ma.missing), data)
            if value is not ma.missing:
                out[attribute] = value
        schema = self.schema
        schema.check(out)
        return schema.build(out)


_WALKED_LISTS = (fields.List._deserialize, BoundedList._deserialize)
"""The list loadings a plan restates by walking the items: marshmallow's own, and the one that
only checks the length first (its validators run after, as the plan runs them)."""


def _step(field: fields.Field[Any]) -> Step:
    if field.pre_load:
        raise TypeError(f"{field!r}: field-level pre_load functions are not planned")
    name = field.data_key or field.name
    # A container is walked only when it loads as the plan restates it. One with a loading of
    # its own (a list kept raw for a later, item-by-item load) runs that loading instead:
    # walking its documented item schema would load what the field means to leave alone.
    loads = type(field)._deserialize
    if isinstance(field, fields.Nested) and loads is fields.Nested._deserialize:
        nested = LoadPlan(field.schema).load_valid
        if field.many:
            return _guarded(field, name, lambda value, attr, data: [nested(item) for item in _items(value)])
        return _guarded(field, name, lambda value, attr, data: nested(value))
    if isinstance(field, fields.List) and loads in _WALKED_LISTS:
        inner = _step(field.inner)
        return _guarded(field, name, lambda value, attr, data: [inner(item, data) for item in _items(value)])
    if loads is CardList._deserialize:
        # Its conversion alone: the length it checks first (for a refused list's sake) is
        # checked by its validators, which the step runs after.
        return _guarded(field, name, _cards)
    # Scalars and card lists: the field's own conversion (the method every custom field
    # overrides), with the guard that Field.deserialize puts around it.
    return _guarded(field, name, field._deserialize)


def _cards(value: Any, attr: str | None, data: Any) -> list[Any]:
    """A card list's codes as the core's cards, as :meth:`CardList._deserialize` converts a valid one."""
    if type(value) is not list:
        raise FaultError
    try:
        cards = list(map(CARD_BY_CODE.get, value))  # only string keys: anything else is None
    except TypeError:  # an unhashable item
        raise FaultError from None
    if None in cards:
        raise FaultError
    return cards


def _items(value: Any) -> list[Any]:
    if type(value) is not list:
        raise FaultError
    return value


def _guarded(field: fields.Field[Any], name: str | None, convert: Callable[[Any, str | None, Any], Any]) -> Step:
    """``convert`` (called as ``Field._deserialize`` is) with what ``Field.deserialize`` does
    around it: absent and null values, the default, then the field's validators."""
    # As marshmallow's And: a Validator fails by raising, a plain function also by returning False.
    validators = tuple(v for v in field.validators if isinstance(v, Validator))
    functions = tuple(v for v in field.validators if not isinstance(v, Validator))
    default = field.load_default
    null_is_absent = isinstance(field, CodedErrors) and field.null_is_absent

    def step(value: Any, data: dict[str, Any]) -> Any:
        if value is ma.missing or (value is None and null_is_absent):
            if field.required:
                raise FaultError
            return default() if callable(default) else default
        if value is None:
            if field.allow_none:
                return None
            raise FaultError
        loaded = convert(value, name, data)
        for validator in validators:
            validator(loaded)
        for function in functions:
            if function(loaded) is False:
                raise FaultError
        return loaded

    return step
