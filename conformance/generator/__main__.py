"""``python -m conformance.generator [--check]``: write the kit's case files, or check them.

With ``--check`` nothing is written: the exit status is 1 when a file would change, or a
file would be added or removed.
"""

from __future__ import annotations

import argparse
import sys

from .assembly import CASES_DIR, HELD_BACK, ROOT, Kit
from .auction import bids_cases, petit_sec_cases
from .bonuses import chelem_cases, petit_au_bout_cases, poignee_cases
from .calling import called_card_cases
from .dealing import deal_cases
from .discard import discard_cases
from .duplicate import duplicate_cases
from .duplicate_movement import duplicate_movement_cases
from .errors import KitError
from .excuse import excuse_cases
from .games import game_cases
from .generated import generated_cases
from .golden import golden_cases
from .leftout import left_out_cases
from .legal import legal_cases
from .playing import first_lead_cases, play_fault_cases
from .progress import in_progress_cases
from .refusals import refusal_cases
from .rulings import ruling_cases
from .score import score_cases
from .seating import seating_cases
from .service import ServiceError
from .standings import standings_cases
from .winner import winner_cases


def evaluate_cases(kit: Kit) -> None:
    """The curated deals, chapter by chapter of the rulebook."""
    bids_cases(kit)
    petit_sec_cases(kit)
    discard_cases(kit)
    called_card_cases(kit)
    play_fault_cases(kit)
    excuse_cases(kit)
    chelem_cases(kit)
    petit_au_bout_cases(kit)
    poignee_cases(kit)
    first_lead_cases(kit)
    in_progress_cases(kit)
    left_out_cases(kit)
    ruling_cases(kit)


def build() -> Kit:
    kit = Kit()
    legal_cases(kit)
    winner_cases(kit)
    deal_cases(kit)
    score_cases(kit)
    evaluate_cases(kit)
    golden_cases(kit)
    generated_cases(kit)
    game_cases(kit)
    refusal_cases(kit)
    standings_cases(kit)
    seating_cases(kit)
    duplicate_movement_cases(kit)
    duplicate_cases(kit)
    return kit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.generator", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a case file would change")
    args = parser.parse_args(argv)
    try:
        kit = build()
    except (KitError, ServiceError) as e:
        print(f"conformance generator: {e}", file=sys.stderr)
        return 2
    for case_id in kit.held_back:
        print(f"conformance generator: held back {case_id}: {HELD_BACK[case_id]}", file=sys.stderr)
    files = kit.files()
    existing = set(CASES_DIR.rglob("*.json")) if CASES_DIR.exists() else set()
    stale = sorted(existing - set(files))
    changed = sorted(p for p, text in files.items() if not p.exists() or p.read_bytes() != text.encode("utf-8"))
    if args.check:
        for p in changed:
            print(f"would change: {p.relative_to(ROOT)}", file=sys.stderr)
        for p in stale:
            print(f"would remove: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if changed or stale else 0
    for p in stale:
        p.unlink()
    for p in changed:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(files[p].encode("utf-8"))
    total = sum(len(topic.cases) for topic in kit.topics.values())
    print(f"{len(files)} case files, {total} cases; {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
