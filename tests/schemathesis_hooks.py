"""Schemathesis hooks of the project: how to send a body of the NDJSON media type.

The batch operation's NDJSON form is declared as bytes (OpenAPI 3.1 has no schema for a
sequence of JSON texts): the fuzzer's bytes go out as they are, which exercises the line
reader with whatever comes (garbage, empty lines, invalid UTF-8). Well-formed NDJSON
batches are the subject of tests/test_api_batch.py. Loaded by tests/test_schemathesis.py,
and by scripts/fuzz through SCHEMATHESIS_HOOKS.
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx: schemathesis.SerializationContext, value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    items = value if isinstance(value, list) else [value]
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)
