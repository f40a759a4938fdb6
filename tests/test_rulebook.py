"""docs/rules.md, the service's rulebook: every section cited elsewhere exists, every verdict
code is explained."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.rules.verdicts import Anomaly, LegalReason, RedealReason, Unchecked, ViolationCode

ROOT = Path(__file__).parent.parent
RULEBOOK = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"^#+ (\d+(?:\.\d+)?)[. ]", RULEBOOK, flags=re.MULTILINE)) | set(
    re.findall(r"^- \*\*(\d+\.\d+)[ .*]", RULEBOOK, flags=re.MULTILINE)
)
CITING = [
    ROOT / "openapi.yaml",
    ROOT / "README.md",
    *[ROOT / "docs" / f"{name}.md" for name in ("architecture", "ci", "clients", "operations")],
    *sorted((ROOT / "service").rglob("*.py")),
]


def test_the_rulebook_has_its_sections() -> None:
    assert {str(n) for n in range(1, 17)} <= SECTIONS
    assert {"16.1", "16.2", "16.3", "16.4"} <= SECTIONS
    assert {"6.1", "6.2", "6.3", "6.4", "6.5", "8.1", "8.2", "8.3", "8.4", "9.4", "9.5", "9.6"} <= SECTIONS


@pytest.mark.parametrize("path", CITING, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_section_cited_is_in_the_rulebook(path: Path) -> None:
    cited = {m.rstrip(".") for m in re.findall(r"§(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8"))}
    assert cited <= SECTIONS, sorted(cited - SECTIONS)


@pytest.mark.parametrize("code", [*LegalReason, *ViolationCode, *RedealReason, *Unchecked], ids=str)
def test_every_verdict_code_is_explained_in_section_13(code: str) -> None:
    verdicts = RULEBOOK[RULEBOOK.index("## 13.") :]
    assert f"`{code}`" in verdicts


@pytest.mark.parametrize("code", list(Anomaly), ids=str)
def test_every_scored_error_is_explained_in_section_16_3(code: str) -> None:
    scored_errors = RULEBOOK[RULEBOOK.index("### 16.3") : RULEBOOK.index("### 16.4")]
    assert f"| `{code}` |" in scored_errors


def test_the_texts_behind_the_rules_are_cited_by_what_they_are() -> None:
    # A reader cannot open a file name of our machines: each text is named by its title (rules.md's
    # opening list), and no tracked file names one by a file name.
    import subprocess

    root = Path(__file__).resolve().parent.parent
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    pattern = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b|\bseed 00\d\b", re.IGNORECASE)
    named = [
        path
        for path in tracked
        if path.endswith((".md", ".py", ".po", ".json", ".yaml"))
        and (root / path).is_file()
        and pattern.search((root / path).read_text(encoding="utf-8", errors="replace"))
    ]
    assert named == []
    rulebook = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    for title in (
        "*Card by card*",
        "*Main Phase*",
        "*Like Belote*",
        "*The rules*",
        "*FFT Code*",
        "*Règlement officiel*",
    ):
        assert f"- {title}: " in rulebook, title
