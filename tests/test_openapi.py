"""The committed openapi.yaml is exactly what the schemas generate, and a valid spec."""

from __future__ import annotations

from pathlib import Path

import yaml
from flask import Flask
from openapi_spec_validator import validate

from service.api.spec import spec_dict, spec_yaml

COMMITTED = Path(__file__).parent.parent / "openapi.yaml"


def test_committed_spec_matches_the_schemas(app: Flask) -> None:
    assert COMMITTED.read_text(encoding="utf-8") == spec_yaml(app), "run `make spec` and commit openapi.yaml"


def test_spec_is_valid(app: Flask) -> None:
    validate(yaml.safe_load(COMMITTED.read_text(encoding="utf-8")))


def test_served_spec_is_the_committed_one(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/openapi.json").get_json() == spec_dict(app)
    assert client.get("/openapi.yaml").get_data(as_text=True) == COMMITTED.read_text(encoding="utf-8")
