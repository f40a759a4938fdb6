"""An event loop gevent accepts that is not one of its libev loops (for tests/test_serving_gevent_pin.py)."""

from gevent.libev.corecext import loop as _libev


class loop(_libev):  # type: ignore[misc]  # noqa: N801 (gevent looks for the name ``loop``)
    """libev's loop under another module's name: what the worker cannot tell from libuv's."""
