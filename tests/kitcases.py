"""The conformance kit's curated cases (conformance/v1/cases), read by the rule tests that
would otherwise restate them: one table of positions and verdicts, the kit's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CASES = Path(__file__).resolve().parent.parent / "conformance" / "v1" / "cases"


def kit_cases(operation: str, *topics: str) -> list[Any]:
    """The cases of ``topics`` (file names under ``operation``), each a pytest param named by its id."""
    found = []
    for topic in topics:
        with (CASES / operation / f"{topic}.json").open(encoding="utf-8") as f:
            found += json.load(f)["cases"]
    assert found, f"no case in {operation}/{topics}"
    return [pytest.param(case, id=case["id"]) for case in found]
