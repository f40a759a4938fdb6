"""The image on a Docker engine, for the tests that run it (tests/test_image*.py).

The engine and the image are had once per test session (``scripts/image``: an engine of our
own started where none answers, a local Debian base where no registry can be reached). Where
no engine can be had, the tests are skipped saying why, unless ``REQUIRE_IMAGE=1`` (set by
``.ci/run``): then they fail, so that a CI run never passes without having run the image.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NoReturn

import pytest

from load.deployed import EngineError, build, engine, stop_engine

REQUIRED = os.environ.get("REQUIRE_IMAGE") == "1"
MARK = pytest.mark.image
"""Every test of the image is marked: ``make test`` runs them apart, after the others."""


@dataclass(frozen=True)
class Image:
    host: str
    """The engine's DOCKER_HOST."""
    tag: str


def _unavailable(reason: str) -> NoReturn:
    if REQUIRED:
        pytest.fail(f"REQUIRE_IMAGE=1 and the image cannot be run: {reason}", pytrace=False)
    pytest.skip(f"the image cannot be run here: {reason}")


@pytest.fixture(scope="session")
def image() -> Iterator[Image]:
    try:
        host, started = engine()
    except (EngineError, OSError, subprocess.TimeoutExpired) as exc:
        _unavailable(str(exc))
    try:
        tag = build(host)
    except (EngineError, OSError, subprocess.TimeoutExpired) as exc:
        if started:
            stop_engine()
        pytest.fail(f"the image does not build: {exc}", pytrace=False)
    try:
        yield Image(host, tag)
    finally:
        if started:
            stop_engine()
