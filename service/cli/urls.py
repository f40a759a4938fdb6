"""The base URL of a service speaking this one's API, as the commands take it (``--url``)."""

from __future__ import annotations

import argparse
import http.client
from typing import NamedTuple
from urllib.parse import urlsplit

from .words import say


class ServiceUrl(NamedTuple):
    url: str
    """As given, for messages."""
    https: bool
    host: str
    port: int | None
    prefix: str
    """The base URL's path without its final ``/``: an operation's path is appended to it."""

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        """A new (unopened) connection to the service."""
        kind = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=timeout)


def service_url(text: str) -> ServiceUrl:
    """``text`` as a service's base URL; :class:`ValueError` saying why it is not one."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(say("url.bad", url=text))
    if parts.query or parts.fragment:
        raise ValueError(say("url.extras", url=text))
    try:
        port = parts.port
    except ValueError:
        raise ValueError(say("url.bad", url=text)) from None
    return ServiceUrl(text, parts.scheme == "https", parts.hostname, port, parts.path.rstrip("/"))


def url_argument(text: str) -> ServiceUrl:
    """:func:`service_url` as an argparse type."""
    try:
        return service_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
