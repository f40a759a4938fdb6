"""The kit's own error, in a module of its own: every builder raises it, whatever it imports."""

from __future__ import annotations


class KitError(Exception):
    """The service disagrees with the rulebook, the golden data or the reference model."""
