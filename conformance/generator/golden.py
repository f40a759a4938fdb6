"""Golden cases: tests/golden's deals and positions, cross-checked with independent engines."""

from __future__ import annotations

import json

from .assembly import ROOT, Kit
from .cards import PLAYER_WORD, Deal, Json
from .oracle import ref_legal
from .verdicts import LEGAL_RULES, LEGAL_TAG

GOLDEN = ROOT / "tests" / "golden"
"""The golden files, read as data (the tests read them too)."""
DEAL_FIELDS = (
    "players", "dealer", "hands", "dog", "contract", "taker",
    "called_card", "discard", "chelem_announced", "poignees", "plays",
)  # fmt: skip


def golden(name: str) -> list[dict[str, Json]]:
    """The rows of a golden JSON-lines file."""
    with (GOLDEN / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def deal_request(deal: dict[str, Json]) -> Deal:
    """The evaluate request of a golden deal: its record fields only."""
    return {k: deal[k] for k in DEAL_FIELDS}


GOLDEN_EXCUSE = {
    "excuse-exchanged": "returned",
    "excuse-last-own-side-won": "changed_side",
    "excuse-last-other-side-won": "changed_side",
    "excuse-led-last-in-chelem": "took_last_trick",
}
"""The golden notes that name what became of the Excuse (the last matching note wins)."""


def golden_cases(kit: Kit) -> None:
    deals = golden("deals.jsonl")
    with_hands = kit.topic(
        "evaluate",
        "golden",
        "Golden deals (tests/golden/deals.jsonl), their figures from "
        "independent engines: winners, points, oudlers, partner, Excuse, marks.",
    )
    inferred = kit.topic(
        "evaluate",
        "golden-inferred",
        "The golden deals given without hands and dog, which are "
        "inferred from the plays (rules.md §12); the same figures.",
    )
    for deal in deals:
        exp, b = deal["expected"], deal["expected"]["breakdown"]
        notes = [n.strip() for n in deal["notes"].split(";")]
        # example-3p-161 is 3161: the golden id, unique across table sizes.
        players = deal["players"]
        number = players * 1000 + int(deal["id"].rsplit("-", 1)[1])
        want: dict[str, Json] = {"/status": "complete", "/valid": True, "/partner": exp["partner"]}
        want |= {f"/tricks/{i}/winner": w for i, w in enumerate(exp["trick_winners"])}
        want |= {"/points/attack": exp["attack_points"], "/points/defence": 91 - exp["attack_points"]}
        want |= {"/oudlers/attack": exp["attack_oudlers"], "/oudlers/defence": 3 - exp["attack_oudlers"]}
        want["/petit_au_bout"] = {1: "attack", -1: "defence", 0: None}[b["petit_au_bout"]]
        outcome = [GOLDEN_EXCUSE[n] for n in notes if n in GOLDEN_EXCUSE]
        if outcome:
            want["/excuse/outcome"] = outcome[-1]
        if "excuse-card-never-paid" in notes:
            want |= {"/excuse/exchange/paid_at_trick": None, "/excuse/exchange/on_paper": True}
        s = 1 if b["contract_won"] else -1
        want |= {
            "/score/won": b["contract_won"],
            "/score/margin": b["margin"],
            "/score/multiplier": b["multiplier"],
            "/score/petit_au_bout": b["petit_au_bout"] * 10 * b["multiplier"],
            "/score/poignees": s * b["poignee_bonus"],
            "/score/chelem": b["chelem_bonus"],
            "/score/per_defender": b["per_defender"],
            "/score/scores": exp["scores"],
        }
        rules = ["6", "7", "8", "9.1", "9.2", "9.3"]
        rules += ["9.4"] * bool(b["petit_au_bout"]) + ["9.5"] * bool(b["poignee_bonus"])
        rules += ["9.6"] * (bool(b["chelem_bonus"]) or deal["chelem_announced"]) + ["5.2"] * (players == 5)
        tags = {"golden", "trick-winner", "scoring", "excuse"}
        tags |= {"petit-au-bout"} if b["petit_au_bout"] else set()
        tags |= {"poignee"} if b["poignee_bonus"] else set()
        tags |= {"chelem"} if b["chelem_bonus"] or deal["chelem_announced"] else set()
        tags |= {"half-point"} if exp["attack_points"] % 1 else set()
        tags |= {"called-card"} if players == 5 else set()
        request = deal_request(deal)
        summary = f"{players} players, {deal['contract']} ({', '.join(notes)})"
        kit.add(
            with_hands, number, f"Golden deal {deal['id']}: {summary}.", rules, tags, request, want=want, only_want=True
        )
        request = {k: v for k, v in request.items() if k not in ("hands", "dog")}
        kit.add(
            inferred,
            number,
            f"Golden deal {deal['id']} without hands or dog: {summary}.",
            [*rules, "12"],
            tags,
            request,
            want=want,
            only_want=True,
        )

    t = kit.topic(
        "legal-cards",
        "golden",
        "Golden positions (tests/golden/legal_positions.jsonl), their legal cards from independent engines.",
    )
    for line, row in enumerate(golden("legal_positions.jsonl"), start=1):
        request = {"players": row["players"], "hand": row["hand"], "trick": row["trick"]}
        ban = row["players"] == 5 and row["first_trick"] and row["called_card"]
        if row["players"] == 5:
            request |= {"first_trick": row["first_trick"], "called_card": row["called_card"]}
        where = "leading" if not row["trick"] else f"after {' '.join(row['trick'])}"
        what = f"first trick, {row['called_card']} called, " if ban else ""
        # Sections and tags from the reference model's reading; the expectation is the file's alone.
        reason = ref_legal(row["hand"], row["trick"], row["called_card"] if ban else None)[1]
        rules = LEGAL_RULES[reason] + ["6.1"] * ("EX" in row["hand"])
        tags = {"golden", LEGAL_TAG.get(reason, "golden")} | ({"excuse"} if "EX" in row["hand"] else set())
        tags |= {"called-card", "first-lead-ban"} if ban else set()
        description = f"Golden position {line}: {PLAYER_WORD[row['players']]} players, {what}{where}."
        kit.add(
            t,
            line,
            description,
            rules,
            tags,
            request,
            want={"/legal": row["legal"]},
            only_want=True,
        )
