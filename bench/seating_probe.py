"""One side of bench/seating.py: seat each tournament it reads, in process through the contract,
with the ``service`` package first on ``sys.path`` (this tree's, or a release's).

    python bench/seating_probe.py TREE ROUNDS < shapes.json > results.ndjson

Reads a JSON list of requests (each a ``seatTournament`` body); for each, writes one JSON line:
the rules core that served it, its repeated pairs, the position of the first repeat (null
without one), the most meetings of one pair, the shortfalls, whether the search was capped, its
work, and its CPU time (``time.process_time``): the median of ``ROUNDS`` requests after the
first, which is the warm-up and gives the answer counted, and the spread (slowest over fastest).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any


def main() -> int:
    tree, rounds = sys.argv[1], int(sys.argv[2])
    sys.path.insert(0, tree)
    from service.contract.seating import SEAT_TOURNAMENT
    from service.rules import CORE

    for body in json.load(sys.stdin):
        answer: dict[str, Any] = SEAT_TOURNAMENT.respond(body).answer
        times = []
        for _ in range(rounds):
            start = time.process_time()
            SEAT_TOURNAMENT.respond(body)
            times.append(time.process_time() - start)
        repeats = answer["repeats"]
        first = min((r["positions"][1] for r in repeats), default=None)
        row = {
            "core": CORE,
            "players": len(body["players"]),
            "positions": body["positions"],
            "played": len({t["position"] for t in body.get("played") or []}),
            "repeats": len(repeats),
            "first_repeat": first,
            "most_meetings": max((r["meetings"] for r in repeats), default=1),
            "shortfalls": len(answer["shortfalls"]),
            "capped": answer["capped"],
            "work": answer["work"],
            "cpu_s": statistics.median(times),
            "spread": max(times) / min(times) if min(times) > 0 else 1.0,
        }
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
