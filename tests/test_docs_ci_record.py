"""docs/ci.md's sample record: the claims it shows are what the service says of the deal it
describes (a garde taken by seat 2 at four players, 43.5 card points with 2 oudlers)."""

from __future__ import annotations

import json
import re

from service.contract.scoring import SCORE

from .serving import ROOT


def test_the_sample_records_claimed_scores_are_its_summarys_scores() -> None:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith('{"id": "game-1042"'))

    def field(name: str) -> object:
        found = re.search(rf'"{name}": (\[[^\]…]*\]|[^,}}]+)', line)
        assert found, name
        return json.loads(found.group(1))

    summary = {name: field(name) for name in ("players", "contract", "taker", "points", "oudlers")}
    assert SCORE.respond(summary).answer["scores"] == field("scores")
