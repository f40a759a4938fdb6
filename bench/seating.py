"""The seating of a tournament (rules.md §16.5): its quality and its CPU cost by player count.

    python bench/seating.py [--rounds N] [--counts 16-120] [--json FILE]

Every request goes through the contract in process (``seatTournament``: the JSON loaded, the
plan, the answer written), as a worker serves it; its cost is the CPU time of the process
(``time.process_time``) around it. Each tournament is first seated once, which is the warm-up
and gives the seatings whose quality is counted (the check form holds every one to the rules);
then ``rounds`` more times, request for request, for the times: per request, the median of the
rounds, and the spread (slowest round over fastest) of the slowest request.

Scenarios, each by player count:

- **by position**: 5 positions seated one at a time, each request carrying the positions played,
  as a club's program sends them; the service goes on with its own plan;
- **constraints**: the same with couples who never meet (one forbidden pair per 8 players) and
  two players fixed to tables 1 and 2 (from 17 players: at 16 every pair meets once in 5
  positions, so any forbidden pair forces a repeat);
- **replanned**: the tight counts with a first position drawn elsewhere (another seed's), so
  each request plans twice (its own plan, which the position played is not the start of, then
  the positions left around it);
- **at once**: every position in one request; and 16 players over 7 positions, more than the
  bound of 5, whose repeats are unavoidable;
- **the most work**: more positions than the bound allows (so that no plan can show itself
  best and every search runs to its cap) after two positions drawn elsewhere, so that the
  request makes its three plans: the cost the cap bounds.

The figures are those of the compiled core when it is built (``make compile``; ``make bench``
builds it): the line above the tables says which.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.contract.seating import SEAT_TOURNAMENT  # noqa: E402
from service.rules import CORE  # noqa: E402
from service.rules.seating_tables import bound, composition  # noqa: E402

POSITIONS = 5
LIMIT_S = 2.0
"""No request may cost more CPU than this (the tight counts are the hardest)."""
AT_ONCE_LIMIT_S = 1.0
"""120 players' 5 positions in one request."""


def players(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


def constraints(n: int) -> dict[str, Any]:
    ids = players(n)
    couples = [[ids[2 * k], ids[2 * k + 1]] for k in range(n // 8)]
    return {"forbidden": couples, "fixed": [{"player": ids[-1], "table": 1}, {"player": ids[-2], "table": 2}]}


def respond(body: dict[str, Any]) -> tuple[dict[str, Any], float]:
    start = time.process_time()
    answer = SEAT_TOURNAMENT.respond(body).answer
    return answer, time.process_time() - start


def by_position(
    base: dict[str, Any], first: list[dict[str, Any]] | None = None
) -> tuple[list[dict[str, Any]], list[float], list[dict[str, Any]]]:
    """Seat ``base``'s positions one request at a time (after ``first``, played elsewhere): the
    requests, each one's CPU time, and the answers."""
    played = list(first or [])
    requests, times, answers = [], [], []
    while max((t["position"] for t in played), default=0) < base["positions"]:
        body = {**base, "played": list(played), "seat": "next"}
        answer, spent = respond(body)
        requests.append(body)
        times.append(spent)
        answers.append(answer)
        played += answer["seated"]
    return requests, times, answers


def quality(base: dict[str, Any], played: list[dict[str, Any]]) -> dict[str, Any]:
    """The seating held to the rules by the check form: its faults by code, its repeats, the most
    meetings of one pair, and whether every position has the fewest tables of 3."""
    check = SEAT_TOURNAMENT.respond({**base, "played": played, "seat": "none"}).answer
    n = len(base["players"])
    least = composition(n, base.get("tables_of_five", False))
    assert least is not None
    threes = Counter(t["position"] for t in played if len(t["seats"]) == 3)
    positions = {t["position"] for t in played}
    threes_ok = all(threes[p] == least.threes for p in positions)
    return {
        "faults": dict(Counter(f["code"] for f in check["faults"])),
        "repeats": len(check["repeats"]),
        "most_meetings": max((r["meetings"] for r in check["repeats"]), default=1),
        "fewest_threes": threes_ok,
    }


def timed_rounds(requests: list[dict[str, Any]], rounds: int) -> tuple[float, float]:
    """The slowest request's median CPU time over ``rounds``, and its spread (slowest/fastest round)."""
    per_request: list[list[float]] = [[] for _ in requests]
    for _ in range(rounds):
        for i, body in enumerate(requests):
            per_request[i].append(respond(body)[1])
    medians = [statistics.median(times) for times in per_request]
    worst = max(range(len(requests)), key=lambda i: medians[i])
    fastest = min(per_request[worst])
    return medians[worst], (max(per_request[worst]) / fastest if fastest else 1.0)


def scenario(
    name: str, counts: list[int], rounds: int, constrained: bool = False, foreign: bool = False
) -> list[dict[str, Any]]:
    """Each count's tournament seated position by position, its quality and its slowest request."""
    rows = []
    for n in counts:
        base = {"players": players(n), "positions": POSITIONS, "seed": f"bench-{n}"}
        if constrained:
            base.update(constraints(n))
        first = None
        if foreign:
            drawn, _ = respond({**base, "seed": f"elsewhere-{n}"})
            first = drawn["seated"]
        requests, times, answers = by_position(base, first)
        played = list(first or []) + [t for a in answers for t in a["seated"]]
        assert {t["position"] for t in played} == set(range(1, POSITIONS + 1)), "every position seated"
        worst, spread = timed_rounds(requests, rounds)
        rows.append(
            {
                "scenario": name,
                "players": n,
                "bound": bound(n),
                "tables": composition(n),
                **quality(base, played),
                "replanned": sum(a["replanned"] for a in answers),
                "capped": sum(a["capped"] for a in answers),
                "work": max(a["work"] for a in answers),
                "first_s": max(times),
                "worst_s": worst,
                "spread": spread,
            }
        )
        print(_row(rows[-1]), flush=True)
    return rows


def _row(row: dict[str, Any]) -> str:
    tables = row["tables"]
    sizes = f"{tables.fours}×4" + (f" {tables.threes}×3" if tables.threes else "")
    faults = ", ".join(f"{code} {count}" for code, count in sorted(row["faults"].items())) or "none"
    return (
        f"| {row['scenario']} | {row['players']} | {sizes} | {row['bound']} | {row['repeats']} "
        f"| {row['most_meetings']} | {'yes' if row['fewest_threes'] else 'NO'} | {faults} | {row['replanned']} "
        f"| {row['capped']} "
        f"| {row['work']:,} | {row['worst_s'] * 1000:.1f} | {row['spread']:.2f} |"
    )


def parse_counts(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--counts", default="16-120", help="player counts, as 16-120 or 16,17,20")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    counts = parse_counts(args.counts)
    print(f"\nSeating, in process through the contract — Python {platform.python_version()}, {CORE} core\n")
    print(
        "| scenario | players | tables | bound | repeats | most meetings | fewest 3s | faults | replanned "
        "| capped | work | slowest request ms | spread |"
    )
    print("|---|---:|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|")
    rows = scenario("by position", counts, args.rounds)
    rows += scenario("constraints", [n for n in counts if n >= 17], args.rounds, constrained=True)
    rows += scenario("replanned", [n for n in counts if n <= 24], args.rounds, foreign=True)
    # Every position at once: 120 players over 5 positions; 16 players over 7.
    at_once = []
    for n, positions in ((120, 5), (16, 7)):
        body = {"players": players(n), "positions": positions, "seed": f"bench-{n}", "seat": "remaining"}
        answer, _ = respond(body)
        played = answer["seated"]
        cost, spread = timed_rounds([body], args.rounds)
        meetings = max((r["meetings"] for r in answer["repeats"]), default=1)
        at_once.append(
            {"players": n, "positions": positions, "bound": bound(n), "repeats": len(answer["repeats"]),
             "most_meetings": meetings, "faults": quality({**body, "positions": positions}, played)["faults"],
             "capped": answer["capped"], "work": answer["work"], "cpu_s": cost, "spread": spread}
        )  # fmt: skip
        print(
            f"\nAt once: {n} players × {positions} positions (bound {bound(n)}): {len(answer['repeats'])} repeated "
            f"pairs, none meeting more than {meetings} times; work {answer['work']:,}"
            f"{' (capped)' if answer['capped'] else ''}; {cost * 1000:.1f} ms CPU (spread {spread:.2f})"
        )
    # The most work a request does: three plans, each to its cap.
    most = []
    for n, positions in ((17, 7), (19, 7), (20, 7), (32, 12), (60, 15)):
        base = {"players": players(n), "positions": positions, "seed": f"bench-{n}"}
        played = [
            {**table, "position": k + 1}
            for k in range(2)
            for table in respond({**base, "seed": f"elsewhere-{k}"})[0]["seated"]
        ]
        body = {**base, "played": played}
        answer, _ = respond(body)
        cost, spread = timed_rounds([body], args.rounds)
        most.append({"players": n, "positions": positions, "work": answer["work"], "cpu_s": cost, "spread": spread})
        print(
            f"The most work, {n} players × {positions} positions after two positions drawn elsewhere: "
            f"work {answer['work']:,}{' (capped)' if answer['capped'] else ''}, {cost * 1000:.0f} ms CPU "
            f"(spread {spread:.2f})"
        )
    failing = [
        (r["scenario"], r["players"])
        for r in rows
        if r["scenario"] != "replanned"
        and (r["repeats"] or not r["fewest_threes"] or set(r["faults"]) - {"uneven_threes"})
    ]
    uneven = [(r["scenario"], r["players"]) for r in rows if "uneven_threes" in r["faults"]]
    slowest = max(rows, key=lambda r: r["worst_s"])
    costliest = max(most, key=lambda r: r["cpu_s"])
    print(
        f"\nSlowest request seating 5 positions: {slowest['worst_s'] * 1000:.0f} ms ({slowest['scenario']}, "
        f"{slowest['players']} players); with the most work: {costliest['cpu_s'] * 1000:.0f} ms "
        f"({costliest['players']} players); the limit: {LIMIT_S * 1000:.0f} ms"
    )
    print(f"A repeat, a forbidden pair, a fixed player elsewhere or more tables of 3 than needed: {failing or 'none'}")
    print(f"Tables of 3 unevenly spread (rule 5 giving way to rule 4): {uneven or 'none'}")
    over = max(slowest["worst_s"], costliest["cpu_s"]) > LIMIT_S or at_once[0]["cpu_s"] > AT_ONCE_LIMIT_S
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        for r in rows:
            t = r.pop("tables")
            r["tables"] = {"fours": t.fours, "threes": t.threes}
        args.json.write_text(
            json.dumps({"core": CORE, "rows": rows, "at_once": at_once}, indent=2) + "\n", encoding="utf-8"
        )
    return 1 if failing or over else 0


if __name__ == "__main__":
    sys.exit(main())
