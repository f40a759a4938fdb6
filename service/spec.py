"""The contract written out, for `make spec`.

``python -m service.spec`` prints the OpenAPI document (openapi.yaml); ``python -m service.spec
--answers`` first rewrites the answers in the examples' files (``service/contract/examples/``:
each example's summary and request are written by hand, its answer by this command), which the
document carries as the operation's 200 examples. The answers come from the contract itself,
the same functions that serve each operation; tests/test_openapi.py requires that the service
still answers every example exactly so.

``--record`` keeps the contract's versions honest (the README's version policy): a version that
``CHANGELOG.md`` dates is released, and the digest of its document is recorded in
:data:`RELEASES_FILE` the first time; a released version's document never changes after, so
the document is not printed and the exit status is 1 until the version is raised.
tests/test_versions.py checks the same with :func:`release_problems`.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).parent.parent
EXAMPLES_DIR = Path(__file__).parent / "contract" / "examples"
CHANGELOG_FILE = ROOT / "CHANGELOG.md"
RELEASES_FILE = ROOT / "docs" / "contract-releases.json"

UNRELEASED = "Unreleased"
SEMVER = re.compile(
    r"(?P<major>0|[1-9][0-9]*)\.(?P<minor>0|[1-9][0-9]*)\.(?P<patch>0|[1-9][0-9]*)"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+(?P<build>[0-9A-Za-z.-]+))?"
)
_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2}|" + UNRELEASED + r")$", re.M)


def contract_digest(document: dict[str, Any]) -> str:
    """The digest of an OpenAPI document's content, whatever its layout, ``info.version`` aside
    (that is what it is checked against)."""
    content = copy.deepcopy(document)
    content.get("info", {}).pop("version", None)
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def precedence(version: str) -> tuple[int, int, int]:
    """A release version's precedence (SemVer 2.0.0, section 11; build metadata is ignored)."""
    match = SEMVER.fullmatch(version)
    if match is None or match["pre"]:
        raise ValueError(f"{version!r} is not a release version (MAJOR.MINOR.PATCH)")
    return int(match["major"]), int(match["minor"]), int(match["patch"])


def changelog_entries(text: str) -> list[tuple[str, str]]:
    """The ``## [version] - date`` headings of a changelog, top first: (version, date or
    ``Unreleased``)."""
    return [(m["version"], m["date"]) for m in _HEADING.finditer(text)]


def dated_versions(changelog: str) -> set[str]:
    """The versions a changelog dates: the released ones."""
    return {version for version, date in changelog_entries(changelog) if date != UNRELEASED}


def contract_changed(document: dict[str, Any], version: str, releases: dict[str, str]) -> bool:
    """Whether ``version`` is released with another contract than ``document``."""
    return version in releases and releases[version] != contract_digest(document)


def release_problems(document: dict[str, Any], version: str, changelog: str, releases: dict[str, str]) -> list[str]:
    """What is wrong with ``version`` for the contract ``document``, given the changelog and the
    recorded digests of released versions; nothing when all holds."""
    problems = []
    said = document.get("info", {}).get("version")
    if said != version:
        problems.append(f"openapi.yaml says version {said}, the package {version}: run make spec")
    entries = changelog_entries(changelog)
    if not entries or entries[0][0] != version:
        problems.append(f"CHANGELOG.md does not begin with version {version}: add its entry (## [{version}] - date)")
    dated = dated_versions(changelog)
    if contract_changed(document, version, releases):
        problems.append(
            f"the contract changed, and {version} is released with another: raise the version in "
            "service/__init__.py (README, Versions: patch, minor or, beside /v1, major), add it to "
            "CHANGELOG.md, then run make spec"
        )
    if version not in releases and version in dated:
        problems.append(f"{version} is dated in CHANGELOG.md but not recorded: run make spec")
    released = [v for v in releases if v != version]
    if released and precedence(version) <= max(precedence(v) for v in released):
        problems.append(f"{version} is not above the released {max(released, key=precedence)}")
    problems.extend(
        f"{recorded} is recorded as released but CHANGELOG.md gives it no date" for recorded in releases.keys() - dated
    )
    return problems


def record_release(document: dict[str, Any], version: str) -> tuple[bool, list[str]]:
    """Record the digest of a version ``CHANGELOG.md`` dates, once. Whether the document may be
    written (not when it changes a released version's contract), and what still is wrong."""
    changelog = CHANGELOG_FILE.read_text(encoding="utf-8")
    record = json.loads(RELEASES_FILE.read_text(encoding="utf-8"))
    releases: dict[str, str] = record["releases"]
    if version not in releases and version in dated_versions(changelog):
        releases[version] = contract_digest(document)
        RELEASES_FILE.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return not contract_changed(document, version, releases), release_problems(document, version, changelog, releases)


def example_file(examples: dict[str, Any]) -> str:
    """An operation's examples as their file holds them: JSON, objects and lists of objects one
    member a line, lists of plain values on one line (a hand, a trick)."""

    def text(value: Any, indent: int) -> str:
        inner, outer = " " * (indent + 2), " " * indent
        if isinstance(value, dict) and value:
            members = ",\n".join(
                f"{inner}{json.dumps(k, ensure_ascii=False)}: {text(v, indent + 2)}" for k, v in value.items()
            )
            return "{\n" + members + "\n" + outer + "}"
        if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
            return "[\n" + ",\n".join(inner + text(v, indent + 2) for v in value) + "\n" + outer + "]"
        return json.dumps(value, ensure_ascii=False)

    return text(examples, 0) + "\n"


def write_example_answers() -> None:
    """Each example's answer, as the service gives it in English, written into its operation's file."""
    from service.contract.jsonio import dumps
    from service.contract.operations import OPERATIONS

    for op_id, op in OPERATIONS.items():
        examples = {
            name: {
                "summary": example.summary,
                "request": example.request,
                # As sent: through JSON, which writes the core's enums as their values.
                "answer": json.loads(dumps(op.respond(example.request).answer)),
            }
            for name, example in op.examples.items()
        }
        (EXAMPLES_DIR / f"{op_id}.json").write_text(example_file(examples), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.spec", description=__doc__.splitlines()[0])
    parser.add_argument("--answers", action="store_true", help="rewrite the example answers, then print the spec")
    parser.add_argument(
        "--record", action="store_true", help="record a version the changelog dates; refuse to change a released one"
    )
    args = parser.parse_args(argv)
    if args.answers:
        write_example_answers()
    # Read only now: the document's 200 examples are the answers just written.
    from service import __version__
    from service.api.meta.spec import spec_yaml
    from service.app import create_app

    text = spec_yaml(create_app())
    if args.record:
        writable, problems = record_release(yaml.safe_load(text), __version__)
        # Only a changed release stops the writing: the rest is said, and make test fails on it.
        for problem in problems:
            print(f"make spec: {problem}", file=sys.stderr)
        if not writable:
            return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
