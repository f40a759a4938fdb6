"""Frozen values of the core, copied and pickled through their constructors.

The core's results are frozen dataclasses. Compiled (see ``service/rules/__init__.py``), such a
class cannot be rebuilt the way ``copy`` and ``pickle`` rebuild a plain one (by setting its
fields one by one on an empty instance, which a frozen class refuses), so each module declares
its frozen classes here: they are then rebuilt by calling the class with their fields, in
order, compiled or not. Library users copy and pickle the core's results; marshmallow deep-copies
the messages its fields carry.
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any


def _rebuilt(value: Any) -> tuple[type, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


def copied_by_constructor(*classes: type) -> None:
    """Have ``copy`` and ``pickle`` rebuild instances of ``classes`` through their constructors."""
    for cls in classes:
        copyreg.pickle(cls, _rebuilt)
