"""Rules core, in process, side by side with an independent peer engine.

    python bench/core.py [--repeat N]

The peer is magmacrunch-tarot's ``tarot.rules`` (pure Python, four players, its own card
objects), installed only in the benchmark environment (.venv-bench). Each engine gets the
same positions in its own native form, converted before timing: the figures compare the
rules work, not parsing. Times are per call, the best of ``repeat`` rounds of the whole
input set (the least disturbed by other work on the machine), ours and the peer's rounds
alternating so that a busy minute hits both; ratios are peer / ours (above 1: ours is
faster).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.randomdeals import random_deal, record  # noqa: E402
from service.rules.cards import mask_of, parse_card  # noqa: E402
from service.rules.deal import evaluate_deal  # noqa: E402
from service.rules.play import legal_cards, trick_winner  # noqa: E402
from service.rules.scoring import Contract, Side, Summary, score  # noqa: E402

try:
    from tarot import rules as peer
except ImportError:  # outside .venv-bench
    peer = None


def per_call_us(fns: Sequence[Callable[[], Any]], calls: int, repeat: int) -> list[float]:
    """Best time of one call of each of ``fns``, in µs, over ``repeat`` alternating rounds."""
    for fn in fns:
        fn()  # warm-up
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start = time.perf_counter_ns()
            fn()
            best[i] = min(best[i], (time.perf_counter_ns() - start) / calls / 1000)
    return best


def timed(ours: Callable[[], Any], peer: Callable[[], Any] | None, calls: int, repeat: int) -> dict[str, Any]:
    if peer is None:
        return {"ours_us": per_call_us([ours], calls, repeat)[0]}
    ours_us, peer_us = per_call_us([ours, peer], calls, repeat)
    return {"ours_us": ours_us, "peer_us": peer_us}


# Positions: the golden legal-card positions (3 to 5 players; the peer's functions do not
# depend on the table size).
def positions() -> list[dict[str, Any]]:
    with (ROOT / "tests" / "golden" / "legal_positions.jsonl").open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    # The peer knows no five-player opening ban: positions under it are left out.
    return [p for p in rows if not p["first_trick"] or p["called_card"] is None]


def peer_card(code: str) -> Any:
    assert peer is not None
    if code == "EX":
        return peer.Card(peer.EXCUSE, number=peer.EXCUSE_NUMBER)
    if code.endswith("T"):
        return peer.Card(peer.TRUMP, number=int(code[:-1]))
    rank, suit = code[:-1], code[-1]
    ranks = {"1": "1", "J": "V", "N": "C", "Q": "D", "K": "R"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return peer.Card(peer.SUITED, suits[suit], ranks.get(rank, rank))


def peer_trick(codes: Sequence[str]) -> Any:
    """The peer's Trick, filled the way its game loop fills it."""
    assert peer is not None
    trick = peer.Trick()
    for seat, code in enumerate(codes):
        card = peer_card(code)
        trick.cards.append((card, seat))
        if card.type == peer.EXCUSE:
            continue
        if not trick.led_suit and not trick.led_trump:
            if card.type == peer.TRUMP:
                trick.led_trump = True
            else:
                trick.led_suit = card.suit
        if card.type == peer.TRUMP:
            trick.highest_trump = max(trick.highest_trump, card.number)
    return trick


def bench_legal(repeat: int) -> dict[str, Any]:
    pos = positions()
    ours = [(mask_of(parse_card(c) for c in p["hand"]), [parse_card(c) for c in p["trick"]]) for p in pos]

    def run_ours() -> None:
        for hand, trick in ours:
            legal_cards(hand, trick)

    if peer is None:
        return timed(run_ours, None, len(ours), repeat)
    theirs = [([peer_card(c) for c in p["hand"]], peer_trick(p["trick"])) for p in pos]

    def run_peer() -> None:
        for hand, trick in theirs:
            peer.legal_plays(hand, trick)

    row = timed(run_ours, run_peer, len(ours), repeat)
    # Same answers? (the peer lets a player void in trumps and the suit play anything)
    agree = sum(
        {peer_card(c).id for c in p["legal"]} == set(peer.legal_plays(h, t))
        for p, (h, t) in zip(pos, theirs, strict=True)
    )
    row["agreement"] = f"{agree}/{len(pos)}"
    return row


def tricks() -> list[list[str]]:
    """Complete four-card tricks from random legal deals: every case of §7 occurs."""
    out = []
    for seed in range(60):
        plays = random_deal(seed, 4)["plays"]
        out += [plays[i : i + 4] for i in range(0, len(plays), 4)]
    return out


def bench_winner(repeat: int) -> dict[str, Any]:
    all_tricks = tricks()
    ours = [[parse_card(c) for c in t] for t in all_tricks]

    def run_ours() -> None:
        for t in ours:
            trick_winner(t)

    if peer is None:
        return timed(run_ours, None, len(ours), repeat)
    theirs = [peer_trick(t).cards for t in all_tricks]

    def run_peer() -> None:
        for t in theirs:
            peer.trick_winner(t)

    row = timed(run_ours, run_peer, len(ours), repeat)
    agree = sum(trick_winner(o) == peer.trick_winner(t) for o, t in zip(ours, theirs, strict=True))
    row["agreement"] = f"{agree}/{len(ours)}"
    return row


def summaries() -> list[tuple[Contract, int, int, Side | None]]:
    rng = random.Random(7)
    contracts = list(Contract)
    return [
        (
            rng.choice(contracts),
            rng.randrange(0, 183),
            rng.randrange(0, 4),
            rng.choice([None, Side.ATTACK, Side.DEFENCE]),
        )
        for _ in range(500)
    ]


def bench_score(repeat: int) -> dict[str, Any]:
    cases = summaries()
    ours = [Summary(4, c, 0, None, p, o, petit_au_bout=pab) for c, p, o, pab in cases]

    def run_ours() -> None:
        for s in ours:
            score(s)

    if peer is None:
        return timed(run_ours, None, len(ours), repeat)
    mult = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
    need = {0: 112, 1: 102, 2: 82, 3: 72}
    theirs = [
        (
            p >= need[o],
            (p - need[o]) / 2,
            mult[c],
            None if pab is None else "taker" if pab is Side.ATTACK else "def",
        )
        for c, p, o, pab in cases
    ]

    def run_peer() -> None:
        for made, diff, m, pab in theirs:
            peer.distribute(0, peer.hand_score(made, diff, m, pab, None))

    return timed(run_ours, run_peer, len(ours), repeat)


def bench_deal(players: int, repeat: int) -> dict[str, Any]:
    records = [record(random_deal(seed, players)) for seed in range(40)]

    def run() -> None:
        for r in records:
            evaluate_deal(r)

    return timed(run, None, len(records), repeat)


def bench_playout(repeat: int) -> dict[str, Any]:
    # Deals and plays a whole random 4-player deal: dealing, discard, legal cards at each play.
    seeds = list(range(20))

    def run() -> None:
        for s in seeds:
            random_deal(s, 4)

    return timed(run, None, len(seeds), repeat)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    r = args.repeat
    rows = {
        f"legal cards ({len(positions())} golden positions)": bench_legal(r * 20),
        "trick winner (4-card tricks)": bench_winner(r * 5),
        "score a summary (4 players)": bench_score(r * 2),
        "evaluate a complete deal, 3 players": bench_deal(3, r),
        "evaluate a complete deal, 4 players": bench_deal(4, r),
        "evaluate a complete deal, 5 players": bench_deal(5, r),
        "random legal playout, 4 players": bench_playout(r),
    }
    peer_version = "not installed (run make bench)"
    if peer is not None:
        from importlib.metadata import version

        peer_version = f"magmacrunch-tarot {version('magmacrunch-tarot')}"
    print(f"\nRules core in process — Python {platform.python_version()}, peer: {peer_version}\n")
    print("| operation | ours µs | peer µs | peer/ours | same answers |")
    print("|---|---:|---:|---:|---:|")
    for name, row in rows.items():
        p = row.get("peer_us")
        ratio = f"{p / row['ours_us']:.1f}×" if p else "—"
        peer_cell = f"{p:.2f}" if p else "—"
        print(f"| {name} | {row['ours_us']:.2f} | {peer_cell} | {ratio} | {row.get('agreement', '—')} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"peer": peer_version, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
