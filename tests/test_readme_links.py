"""The README and the docs it leads to: every relative link resolves, and the README stays short.

A relative Markdown link must name a file or folder of the repository, and, when it has a
``#fragment``, a heading of that Markdown file as GitHub anchors it (lower case, punctuation
dropped, spaces as hyphens, ``-1``, ``-2``… for repeated headings). Links inside code are text,
not links. The README is read in five minutes: at most 350 lines, a first curl on its first screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.readme import README, ROOT

PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "conformance" / "README.md", ROOT / "CHANGELOG.md"]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else re.sub(r"(`+).*?\1", "", line))
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").replace("*", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = anchor(heading.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def relative_links(page: Path) -> list[str]:
    return [
        target
        for line in prose(page.read_text(encoding="utf-8"))
        for target in LINK.findall(line)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)  # http:, https:, mailto:…
    ]


def test_anchors_are_made_as_github_makes_them() -> None:
    assert anchor("A game's score sheet") == "a-games-score-sheet"
    assert anchor("CI: check an engine every build") == "ci-check-an-engine-every-build"
    assert anchor("Legal cards — `POST /v1/tricks/legal-cards`") == "legal-cards--post-v1trickslegal-cards"
    assert anchor("Versions: what /v1 guarantees") == "versions-what-v1-guarantees"
    assert anchor("`tarot-rules replay`") == "tarot-rules-replay"


def test_links_in_code_are_not_links() -> None:
    assert LINK.findall("see [the rules](docs/rules.md#1-cards) and [x](y.md)") == ["docs/rules.md#1-cards", "y.md"]
    assert prose("`[a](b)` [c](d)\n```\n[e](f)\n```") == [" [c](d)", "", "", ""]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in relative_links(page):
        path, _, fragment = target.partition("#")
        into = (page.parent / path).resolve() if path else page
        if not into.exists() or ROOT not in (into, *into.parents):
            broken.append(f"{target}: no such file in the repository")
        elif fragment and (into.suffix != ".md" or fragment not in anchors(into)):
            broken.append(f"{target}: no heading #{fragment} in {into.relative_to(ROOT)}")
    assert broken == []


def test_the_readme_leads_to_every_page_of_the_docs() -> None:
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in relative_links(README)}
    pages = {*(ROOT / "docs").glob("*.md"), ROOT / "conformance" / "README.md", ROOT / "CHANGELOG.md"}
    assert {p.relative_to(ROOT) for p in pages - linked} == set()
    assert {ROOT / "openapi.yaml", ROOT / "LICENSE"} <= linked


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 350
    assert any(line.lstrip().startswith("curl ") for line in lines[:60]), "a quick start on the first screen"
    table = [line for line in lines if line.startswith("| POST ") or line.startswith("| GET ")]
    assert len(table) >= 6, "a table of operations"
