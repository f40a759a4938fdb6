"""docs/rules.md, the service's rulebook: every section cited elsewhere exists, every verdict
code is explained."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.rules.verdicts import LegalReason, RedealReason, ViolationCode

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
    assert {str(n) for n in range(1, 14)} <= SECTIONS
    assert {"6.1", "6.2", "6.3", "6.4", "6.5", "8.1", "8.2", "8.3", "8.4", "9.4", "9.5", "9.6"} <= SECTIONS


@pytest.mark.parametrize("path", CITING, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_section_cited_is_in_the_rulebook(path: Path) -> None:
    cited = {m.rstrip(".") for m in re.findall(r"§(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8"))}
    assert cited <= SECTIONS, sorted(cited - SECTIONS)


@pytest.mark.parametrize("code", [*LegalReason, *ViolationCode, *RedealReason], ids=str)
def test_every_verdict_code_is_explained_in_section_13(code: str) -> None:
    verdicts = RULEBOOK[RULEBOOK.index("## 13.") :]
    assert f"`{code}`" in verdicts
