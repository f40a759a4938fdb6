"""A duplicate tournament's two operations (rules.md §17): CPU per request, by size.

    python bench/duplicate.py [--rounds N] [--json FILE]

Every request goes through the contract in process as a worker serves it: the body parsed by the
strict JSON reader, loaded by the operation's plan, answered, and the answer written as JSON. The
core is this tree's as it loads (compiled when ``make compile`` has built it; the first line says
which). Each request is made twice to warm up, then ``rounds`` times; the figure is the median of
``time.process_time`` per request, with the fastest and slowest round.

The sizes: the movement of 30 tables and 30 étuis (30 positions, one étui each) with and without
the seed's cards, of 30 tables with 30 étuis a position (900 étuis), and its check form; the control
table of a long evening at 30 tables (7 positions of 3 étuis) and of 30 tables × 30 étuis (900
plays), with the movement's sittings and without. It fails (exit 1) when the compiled core takes
more than 100 ms for the movement of 30 tables and 30 étuis.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import service.rules  # noqa: E402
from service.contract.duplicate_movement import DUPLICATE_MOVEMENT  # noqa: E402
from service.contract.duplicate_standings import DUPLICATE_STANDINGS  # noqa: E402
from service.contract.jsonio import dumps, parse_body  # noqa: E402

LIMIT_S = 0.100
"""The bound for the movement of 30 tables and 30 étuis on the compiled core (the issue's)."""
FIGURES = (56, 62, 50, -52, -56, 70, -90, 106, 46, -66)
"""Figures a Garde gives (§17.3), drawn for the plays."""


def served(operation: Any, body: bytes) -> bytes:
    """One request as a worker serves it, without the web framework."""
    return dumps(operation.respond(parse_body(body)).answer)


def timed(operation: Any, body: bytes, rounds: int) -> dict[str, float]:
    for _ in range(2):
        served(operation, body)
    times = []
    for _ in range(rounds):
        started = time.process_time()
        served(operation, body)
        times.append(time.process_time() - started)
    return {"median_ms": statistics.median(times) * 1000, "min_ms": min(times) * 1000, "max_ms": max(times) * 1000}


def movement(request: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(served(DUPLICATE_MOVEMENT, json.dumps(request).encode()))
    return answer


def evening(tables: int, positions: int, etuis: int, sittings: bool) -> bytes:
    """A control table's request: the movement's plays, each with a figure drawn from a fixed seed."""
    made = movement({"tables": tables, "positions": positions, "etuis_per_position": etuis})
    rng = random.Random(17)
    plays = [
        {"position": s["position"], "table": s["table"], "etui": e, "players": s["players"]}
        | {"score": rng.choice(FIGURES)}
        for s in made["sittings"]
        for e in s["etuis"]
    ]
    labels = [{"number": e["number"], "taker": e["taker"], "dealer": e["dealer"]} for e in made["etuis"]]
    session: dict[str, Any] = {"etuis": labels, "plays": plays}
    if sittings:
        session["sittings"] = made["sittings"]
    return json.dumps({"form": "individual", "sessions": [session]}).encode()


def cases() -> list[tuple[str, Any, bytes]]:
    made = movement({"tables": 30})
    check = {"tables": 30, "sittings": made["sittings"]}
    return [
        ("movement: 30 tables, 30 étuis, cards from a seed", DUPLICATE_MOVEMENT, b'{"tables": 30, "seed": "club"}'),
        ("movement: 30 tables, 30 étuis", DUPLICATE_MOVEMENT, b'{"tables": 30}'),
        (
            "movement: 30 tables, 30 étuis a position (900), cards from a seed",
            DUPLICATE_MOVEMENT,
            b'{"tables": 30, "etuis_per_position": 30, "seed": "club"}',
        ),
        ("movement's check form: 30 tables, 30 positions", DUPLICATE_MOVEMENT, json.dumps(check).encode()),
        ("standings: 30 tables, 7 positions of 3 étuis, with sittings", DUPLICATE_STANDINGS, evening(30, 7, 3, True)),
        ("standings: 30 tables × 30 étuis (900 plays), with sittings", DUPLICATE_STANDINGS, evening(30, 30, 1, True)),
        ("standings: 30 tables × 30 étuis (900 plays)", DUPLICATE_STANDINGS, evening(30, 30, 1, False)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    core = service.rules.CORE
    print(f"rules core: {core}; {args.rounds} rounds after 2 warm-ups; CPU per request, median (min–max)")
    rows: list[dict[str, Any]] = []
    for name, operation, body in cases():
        figures = timed(operation, body, args.rounds)
        rows.append({"case": name, "request_bytes": len(body), **figures})
        print(f"{name:<70} {figures['median_ms']:7.1f} ms ({figures['min_ms']:.1f}–{figures['max_ms']:.1f})")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"core": core, "rounds": args.rounds, "rows": rows}, indent=2) + "\n")
    bounded = float(rows[0]["median_ms"]) / 1000
    if core == "compiled" and bounded > LIMIT_S:
        print(f"the movement of 30 tables and 30 étuis took {bounded * 1000:.0f} ms, over {LIMIT_S * 1000:.0f} ms")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
