"""Schemathesis against the app's own spec: every operation, every check, a fixed seed."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from schemathesis.config import SchemathesisConfig

from service.app import create_app
from tests import schemathesis_hooks  # noqa: F401 (registers the NDJSON serializer)

CONFIG = SchemathesisConfig.from_path(Path(__file__).parent.parent / "schemathesis.toml")
schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(), config=CONFIG)


@schema.parametrize()
def test_api_conforms_to_its_spec(case: schemathesis.Case) -> None:
    case.call_and_validate()
