"""JSON in and out: a strict request-body parser and a fast serializer.

Requests are parsed with the standard library, because it lets us refuse what JSON
permits but no client means (duplicate keys, NaN and Infinity literals, numbers that
overflow to infinity) and turns deep nesting into a clean error. Answers are written
with orjson.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider


class BodyError(ValueError):
    """The request body is not acceptable JSON; the message says why."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BodyError(f"duplicate key {key!r} in a JSON object")
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise BodyError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BodyError(f"number {text[:40]} is out of range")
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant, parse_float=_finite_float)


def parse_body(data: bytes) -> Any:
    """Parse a request body; :class:`BodyError` with a reason when it is not strict JSON."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"the body is not valid UTF-8 (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        raise BodyError("the body starts with a byte order mark")
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise BodyError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise BodyError("the JSON is nested too deeply") from None
    except ValueError as exc:  # int() beyond the interpreter's digit limit
        if isinstance(exc, BodyError):
            raise
        raise BodyError("a number in the body is too long") from None


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj)


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider backed by orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_body(s.encode() if isinstance(s, str) else s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(orjson.dumps(obj), mimetype="application/json")
