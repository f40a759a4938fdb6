"""One version for the package and the contract, raised when the contract changes (README,
"Versions"), each release in CHANGELOG.md; and what /v1 promises, held in the contract."""

from __future__ import annotations

import copy
import importlib.metadata
import json
import re
import subprocess
from typing import Any

import pytest
import yaml

from service import __version__
from service.spec import (
    CHANGELOG_FILE,
    RELEASES_FILE,
    UNRELEASED,
    changelog_entries,
    contract_digest,
    dated_versions,
    precedence,
    release_problems,
)
from tests.serving import ROOT, VENV_BIN

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
CHANGELOG = CHANGELOG_FILE.read_text(encoding="utf-8")
RELEASES: dict[str, str] = json.loads(RELEASES_FILE.read_text(encoding="utf-8"))["releases"]


def test_the_package_and_the_contract_carry_one_semantic_version() -> None:
    precedence(__version__)  # MAJOR.MINOR.PATCH
    assert SPEC["info"]["version"] == __version__
    assert importlib.metadata.version("tarot-rules-service") == __version__


def test_the_command_says_its_version() -> None:
    done = subprocess.run(
        [str(VENV_BIN / "tarot-rules"), "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.startswith(f"tarot-rules {__version__} (")


def test_the_version_holds_for_the_contract_as_it_stands() -> None:
    assert release_problems(SPEC, __version__, CHANGELOG, RELEASES) == []


def test_the_changelog_lists_every_release_newest_first_and_the_next_on_top() -> None:
    entries = changelog_entries(CHANGELOG)
    assert entries[0][0] == __version__
    assert all(date != UNRELEASED for _, date in entries[1:]), "only the next release may be undated"
    # Newest first: by precedence, then (builds of one version) by date.
    keys = [(precedence(version), date) for version, date in entries[1:]]
    assert keys == sorted(keys, reverse=True)
    assert precedence(entries[0][0]) > keys[0][0]
    assert len({version for version, _ in entries}) == len(entries)
    # Keep a Changelog's kinds of change, and nothing else under a release.
    kinds = set(re.findall(r"^### (.+)$", CHANGELOG, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_every_released_contract_is_recorded_and_every_record_released() -> None:
    dated = dated_versions(CHANGELOG)
    builds = {version for version in dated if "+" in version}  # the releases before 1.1.0, all "1.0.0"
    assert set(RELEASES) == dated - builds
    assert all(digest.startswith("sha256:") for digest in RELEASES.values())


def test_the_readme_the_image_and_the_manifests_name_this_version() -> None:
    # The image commands (docs/operations.md) left the README. The CI workflow (docs/ci.md) names
    # no version: it fetches a branch or a commit of the repository (tests/test_readme_ci.py).
    pages = [(ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "docs/operations.md", "docs/ci.md")]
    assert set(re.findall(r"tarot-rules:([0-9][^ \n]*)", "\n".join(pages))) == {__version__}
    for kustomization in ("k8s/base/kustomization.yaml", "k8s/overlays/example/kustomization.yaml"):
        tags = re.findall(r'newTag: "([^"]+)"', (ROOT / kustomization).read_text(encoding="utf-8"))
        assert tags == [__version__], kustomization


# -- The check fails when it should -----------------------------------------------------------


def released(version: str) -> tuple[str, dict[str, str]]:
    """A changelog and a record in which ``version`` is released with the contract as it stands."""
    changelog = re.sub(
        rf"^## \[{re.escape(__version__)}\] - .*$", f"## [{version}] - 2026-11-24", CHANGELOG, flags=re.M
    )
    return changelog, {**RELEASES, version: contract_digest(SPEC)}


def changed(spec: dict[str, Any]) -> dict[str, Any]:
    other = copy.deepcopy(spec)
    other["components"]["schemas"]["Violation"]["properties"]["hint"] = {"type": "string"}  # a new answer field
    return other


def test_a_changed_contract_under_a_released_version_fails() -> None:
    changelog, releases = released(__version__)
    assert release_problems(SPEC, __version__, changelog, releases) == []
    [problem] = release_problems(changed(SPEC), __version__, changelog, releases)
    assert "the contract changed" in problem


def test_the_digest_ignores_layout_and_the_version_alone() -> None:
    reordered = json.loads(json.dumps(SPEC, sort_keys=True))
    assert contract_digest(reordered) == contract_digest(SPEC)
    renumbered = copy.deepcopy(SPEC)
    renumbered["info"]["version"] = "9.9.9"
    assert contract_digest(renumbered) == contract_digest(SPEC)
    assert contract_digest(changed(SPEC)) != contract_digest(SPEC)


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("1.0.0", "is not above the released"),  # lower than a release
        ("9.0.0", "does not begin with version 9.0.0"),  # not in the changelog
    ],
)
def test_a_version_out_of_line_fails(version: str, expected: str) -> None:
    changelog, releases = released(__version__)
    spec = copy.deepcopy(SPEC)
    spec["info"]["version"] = version
    problems = release_problems(spec, version, changelog, releases)
    assert any(expected in problem for problem in problems), problems


def test_a_dated_but_unrecorded_version_fails() -> None:
    changelog, _ = released(__version__)
    problems = release_problems(SPEC, __version__, changelog, {k: v for k, v in RELEASES.items() if k != __version__})
    assert any("not recorded" in problem for problem in problems), problems


def test_make_spec_refuses_to_rewrite_a_released_contract(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from service import spec as spec_module

    changelog, releases = released(__version__)
    releases[__version__] = "sha256:" + "0" * 64  # what another contract was released as
    (tmp_path / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
    (tmp_path / "releases.json").write_text(json.dumps({"releases": releases}), encoding="utf-8")
    monkeypatch.setattr(spec_module, "CHANGELOG_FILE", tmp_path / "CHANGELOG.md")
    monkeypatch.setattr(spec_module, "RELEASES_FILE", tmp_path / "releases.json")
    assert spec_module.main(["--record"]) == 1
    # A version the changelog dates and nobody recorded yet is recorded, once.
    del releases[__version__]
    (tmp_path / "releases.json").write_text(json.dumps({"releases": releases}), encoding="utf-8")
    assert spec_module.main(["--record"]) == 0
    recorded = json.loads((tmp_path / "releases.json").read_text(encoding="utf-8"))["releases"]
    assert recorded[__version__] == contract_digest(SPEC)


# -- What /v1 promises, in the contract -------------------------------------------------------


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def _closure(names: set[str]) -> set[str]:
    schemas = SPEC["components"]["schemas"]
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo.extend(_refs(schemas[name]))
    return seen


def test_answer_objects_may_grow_and_request_objects_refuse_what_they_do_not_know() -> None:
    operations = [op for item in SPEC["paths"].values() for op in item.values()]
    asked = _closure(set().union(*(_refs(op.get("requestBody")) | _refs(op.get("parameters")) for op in operations)))
    answered = _closure(set().union(*(_refs(op.get("responses")) for op in operations)))
    objects = {name for name, schema in SPEC["components"]["schemas"].items() if "properties" in schema}
    assert not asked & answered & objects, "an object both sent and answered could not both refuse and grow"
    for name in objects:
        assert SPEC["components"]["schemas"][name]["additionalProperties"] is (name in answered), name


def test_open_enums_are_marked_and_say_so() -> None:
    schemas = SPEC["components"]["schemas"]
    marked = {name for name, schema in schemas.items() if schema.get("x-open-enum") is True}
    assert marked == {
        "LegalReason",
        "ViolationCode",
        "RedealReason",
        "RulingReason",
        "FieldErrorCode",
        "Unchecked",
        "Anomaly",
        "SeatingFault",
        "DuplicateMovementFault",
        "DuplicateFault",
    }
    for name in marked:
        assert "Open enum" in schemas[name]["description"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme.split("## Versions", 1)[1].split("\n## ", 1)[0] for name in marked)


def test_the_message_catalogs_name_this_version() -> None:
    catalogs = sorted((ROOT / "service" / "texts" / "locales").glob("*/LC_MESSAGES/*.po"))
    assert catalogs
    for catalog in catalogs:
        assert f'"Project-Id-Version: tarot-rules-service {__version__}\\n"' in catalog.read_text(encoding="utf-8")
