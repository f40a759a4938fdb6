"""Shared fixtures: the app, its test client, the golden data files."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app

GOLDEN = Path(__file__).parent / "golden"

pytest_plugins = ["tests.image"]  # the image fixture, for the tests that run the image


def golden(name: str) -> list[dict[str, Any]]:
    """Rows of a golden JSON-lines file (deals and positions cross-checked by other engines)."""
    with (GOLDEN / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


DEAL_FIELDS = (
    "players", "dealer", "hands", "dog", "contract", "taker",
    "called_card", "discard", "chelem_announced", "poignees", "plays",
)  # fmt: skip


def deal_request(deal: dict[str, Any]) -> dict[str, Any]:
    """The evaluate request of a golden or generated deal (its record fields only)."""
    return {k: deal[k] for k in DEAL_FIELDS}


def golden_claims(deal: dict[str, Any]) -> dict[str, Any]:
    """The claims of a golden deal, from the figures of the engines it was checked with."""
    expected = deal["expected"]
    return {
        "valid": True,
        "trick_winners": expected["trick_winners"],
        "points": expected["attack_points"],
        "oudlers": expected["attack_oudlers"],
        "partner": expected["partner"],
        "scores": expected["scores"],
        "first_violation": None,
    }


@pytest.fixture(scope="session")
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANG")


@pytest.fixture
def locale(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Sets the user's locale (LANG alone), which the command line speaks: English (C.UTF-8)
    unless a test says otherwise, whatever the locale the tests run in."""

    def set_locale(lang: str) -> None:
        for name in LOCALE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", lang)

    set_locale("C.UTF-8")
    return set_locale
