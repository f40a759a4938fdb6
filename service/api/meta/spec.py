"""The OpenAPI document, generated from the marshmallow schemas."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml
from flask import Flask, Response, current_app
from flask_smorest import Api


def spec_dict(app: Flask) -> dict[str, Any]:
    api: Api = app.extensions["tarot_api"]
    return api.spec.to_dict()  # type: ignore[no-any-return]


@cache
def spec_yaml(app: Flask) -> str:
    """The spec as YAML: exactly what `openapi.yaml` at the top of the repository holds."""
    return yaml.safe_dump(spec_dict(app), sort_keys=False, allow_unicode=True, width=100)


def openapi_yaml() -> Response:
    """The OpenAPI document, as committed in openapi.yaml."""
    return Response(spec_yaml(current_app), mimetype="application/yaml")
