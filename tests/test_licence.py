"""The licence: Apache-2.0 for the code, the contract and the conformance kit, said everywhere a
user or a tool looks for it (the LICENSE file, the package's metadata, the contract's ``info``,
the image's label; the image itself is checked in tests/test_image.py)."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPDX = "Apache-2.0"


def test_the_license_file_is_the_apache_license_2_0() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text


def test_the_package_declares_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert (project["license"], project["license-files"]) == (SPDX, ["LICENSE"])
    assert importlib.metadata.metadata("tarot-rules-service")["License-Expression"] == SPDX


def test_the_contract_declares_it() -> None:
    info = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["info"]
    assert info["license"] == {"name": SPDX, "identifier": SPDX}


def test_the_image_is_labelled_with_it() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r'org\.opencontainers\.image\.licenses="Apache-2\.0"', dockerfile)
