"""JSON in and out: a strict request-body parser and a fast serializer.

Requests are parsed with the standard library, because it lets us refuse what JSON
permits but no client means (duplicate keys, NaN and Infinity literals, numbers that
overflow to infinity) and turns deep nesting into a clean error. Answers are written
with orjson.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import orjson

from service.messages import Message, msg

from .problems import pointer


class BodyError(ValueError):
    """The request body is not acceptable JSON; :attr:`message` says why, for people,
    :attr:`pointer` where (a duplicate key: the key's own pointer; otherwise the whole body),
    and :attr:`lines` whether the body looks like JSON values one per line (NDJSON)."""

    def __init__(self, message: Message, *, pointer: str = "", lines: bool = False) -> None:
        super().__init__(message.key)
        self.message = message
        self.pointer = pointer
        self.lines = lines


# The JSON decoder's reasons, each with its catalog keys (a body's, and a line's, which says no
# line); another reason gets the general ones.
_DECODE_REASONS = {
    "Expecting value": ("error.malformed_json.value", "error.malformed_json.value.in_line"),
    "Expecting ',' delimiter": ("error.malformed_json.comma", "error.malformed_json.comma.in_line"),
    "Expecting ':' delimiter": ("error.malformed_json.colon", "error.malformed_json.colon.in_line"),
    "Expecting property name enclosed in double quotes": (
        "error.malformed_json.name",
        "error.malformed_json.name.in_line",
    ),
    "Extra data": ("error.malformed_json.extra", "error.malformed_json.extra.in_line"),
    "Unterminated string starting at": ("error.malformed_json.string", "error.malformed_json.string.in_line"),
    "Invalid control character at": ("error.malformed_json.control", "error.malformed_json.control.in_line"),
    "Invalid \\escape": ("error.malformed_json.escape", "error.malformed_json.escape.in_line"),
    "Invalid \\uXXXX escape": ("error.malformed_json.escape", "error.malformed_json.escape.in_line"),
}
_SYNTAX = ("error.malformed_json.syntax", "error.malformed_json.syntax.in_line")


DUPLICATE_KEY = "error.malformed_json.duplicate_key"


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BodyError(msg(DUPLICATE_KEY, key=repr(key[:40])))
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise BodyError(msg("error.malformed_json.constant", name=name))


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BodyError(msg("error.malformed_json.out_of_range", number=text[:40]))
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant, parse_float=_finite_float)


class _Duplicate:
    """Where an object with a duplicate key sits, in place of the object (see :func:`_duplicate_at`)."""

    __slots__ = ("path",)

    def __init__(self, path: tuple[str | int, ...]) -> None:
        self.path = path


def _within(value: Any) -> tuple[str | int, ...] | None:
    """The path to the duplicate under ``value``, when there is one (objects are already marks)."""
    if isinstance(value, _Duplicate):
        return value.path
    if isinstance(value, list):
        for index, item in enumerate(value):
            inner = _within(item)
            if inner is not None:
                return (index, *inner)
    return None


def _locating_pairs(pairs: list[tuple[str, Any]]) -> Any:
    # The parser builds objects from the innermost out, so the strict pass refused the first
    # object to be completed with a duplicate: one within a value of this object before its own.
    for key, value in pairs:
        inner = _within(value)
        if inner is not None:
            return _Duplicate((key, *inner))
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Duplicate((key,))
        seen.add(key)
    return dict(pairs)


_LOCATING = json.JSONDecoder(object_pairs_hook=_locating_pairs)


def _duplicate_at(text: str) -> str:
    """The pointer to the first duplicate key of ``text``, a body the strict parser refused for
    one: parsed again, each object that holds one replaced by where it is. (Only on this error:
    the strict parser does not track where it is.)"""
    try:
        found = _within(_LOCATING.raw_decode(text, len(text) - len(text.lstrip(" \t\n\r")))[0])
    except (ValueError, RecursionError):
        return ""
    return "" if found is None else pointer(found)


def _looks_like_lines(text: str) -> bool:
    """Whether ``text`` is JSON values one per line, as NDJSON is (its first lines tell)."""
    lines = [line for line in text.splitlines() if line.strip()][:3]
    if len(lines) < 2:
        return False
    try:
        for line in lines:
            json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def parse_body(data: bytes, *, one_line: bool = False) -> Any:
    """Parse a request body; :class:`BodyError` with a reason when it is not strict JSON.

    ``one_line``: ``data`` is one line of a file of records, and where it fails is said by its
    column alone (the decoder's "line 1" would read false beside the line's own place in its file)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(msg("error.malformed_json.utf8", byte=exc.start)) from None
    if text.startswith("\ufeff"):
        raise BodyError(msg("error.malformed_json.bom"))
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        key, in_line = _DECODE_REASONS.get(exc.msg, _SYNTAX)
        if one_line:
            raise BodyError(msg(in_line, column=exc.colno)) from None
        lines = exc.msg == "Extra data" and _looks_like_lines(text)
        raise BodyError(msg(key, line=exc.lineno, column=exc.colno), lines=lines) from None
    except RecursionError:
        raise BodyError(msg("error.malformed_json.depth")) from None
    except BodyError as exc:
        if exc.message.key == DUPLICATE_KEY:
            raise BodyError(exc.message, pointer=_duplicate_at(text)) from None
        raise
    except ValueError:  # int() beyond the interpreter's digit limit
        raise BodyError(msg("error.malformed_json.long_number")) from None


PLAIN_MAX_CONTAINERS = 64
"""Most arrays and objects in one item that :func:`plain_items` reads alone."""


class NotPlainError(Exception):
    """The body is not in the plain shape :func:`plain_items` reads: read it whole instead."""


_WS = "[ \t\n\r]*"  # JSON's whitespace, exactly
_BETWEEN = re.compile(f"{_WS},{_WS}")
_CLOSE = re.compile(f"{_WS}\\]{_WS}}}{_WS}\\Z")


def plain_items(data: bytes, key: str, limit: int) -> Iterator[Any]:
    """The items of a body ``{"<key>": [item, ...]}``, parsed one at a time by the same strict
    parser as :func:`parse_body`, when the body is plainly that: UTF-8, that one key spelt
    plainly, at most ``limit`` items, valid JSON throughout. Otherwise :class:`NotPlainError` is
    raised, maybe after some items were given: the caller then reads the body whole, which
    answers it exactly (its items, or why not).

    Parsed whole, a body of a thousand records holds all of them at once, and each costs
    about twice what it does parsed alone (docs/performance.md).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotPlainError from None
    opening = re.compile(f"{_WS}{{{_WS}{re.escape(json.dumps(key))}{_WS}:{_WS}\\[{_WS}").match(text)
    if opening is None:
        raise NotPlainError
    at = opening.end()
    if _CLOSE.match(text, at):
        return
    for _ in range(limit):
        start = at
        try:
            item, at = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):  # JSONDecodeError, BodyError and the others
            raise NotPlainError from None
        # Parsed whole, an item sits two levels deeper: one nested close to the parser's depth
        # limit could pass alone and not there. A deal record holds a dozen arrays and objects.
        if text.count("[", start, at) + text.count("{", start, at) > PLAIN_MAX_CONTAINERS:
            raise NotPlainError
        yield item
        if _CLOSE.match(text, at):
            return
        between = _BETWEEN.match(text, at)
        if between is None:
            raise NotPlainError
        at = between.end()
    raise NotPlainError  # more items than the limit


def dumps(obj: Any) -> bytes:
    try:
        return orjson.dumps(obj)
    except orjson.JSONEncodeError:
        # A string that is not Unicode text (a lone surrogate escaped in a request, echoed back
        # as an id or a field name): JSON can say it only as an escape, which orjson does not write.
        return json.dumps(obj, separators=(",", ":")).encode()
