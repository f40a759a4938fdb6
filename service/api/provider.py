"""Flask's JSON in and out through the contract's strict parser and orjson."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

from service.contract.jsonio import parse_body


class OrjsonProvider(JSONProvider):
    """Flask's JSON provider backed by orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_body(s.encode() if isinstance(s, str) else s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(orjson.dumps(obj), mimetype="application/json")
