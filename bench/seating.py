"""The seating of a tournament (rules.md §16.5) by shape and player count: its quality and its CPU
per request, this tree's compiled and pure cores beside the last release's.

    python bench/seating.py [--rounds N] [--counts 16-120] [--baseline REV | --no-baseline] [--json FILE]

Every request goes through the contract in process (``seatTournament``: the JSON loaded, the
plan, the answer written), as a worker serves it, in a process of its own for each side
(bench/seating_probe.py): this tree compiled (when ``make compile`` has built it), this tree pure,
and the release ``REV`` (1.3.0 by default) taken from git and compiled the same way where the
build tools are (``.venv-build``), else pure. Each request is made once (the warm-up, and the
answer counted), then ``rounds`` times for its CPU (``time.process_time``, the median; the spread
is the slowest round over the fastest).

The shapes: every count over the *FFT Code*'s 5, 6 and 7 positions, every position at once; the
designs (16 × 5, 24 × 7, 28 × 9, 32 × 10, 40 × 13, 64 × 15), where no pair need meet twice; the
shapes whose repeats are forced (12 × 5, 16 × 6, 16 × 10, 20 × 6), to see them come late and
spread; tables of 5; and the most work a request does: more positions than the count can play
clean, after two positions drawn elsewhere, so that the request makes its three plans.

Per shape: the repeated pairs, the position of the first repeat, the most meetings of one pair,
the CPU per request. It fails (exit 1) when a design's shape repeats a pair, or a request costs
more than 1 s of CPU on the compiled core or 5 s on the pure one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "seating_probe.py"
BASELINE = "4d4ea55"
"""1.3.0 as it landed: the release the issue measured."""
LIMIT_COMPILED_S = 1.0
LIMIT_PURE_S = 5.0
DESIGNS = ((16, 5), (24, 7), (28, 9), (32, 10), (40, 13), (64, 15))
FORCED = ((12, 5), (16, 6), (16, 10), (20, 6))
FIVES = (17, 21, 25, 30)
MOST_WORK = ((17, 7), (19, 7), (20, 7), (22, 7), (32, 12), (60, 15))

Body = dict[str, Any]


def players(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


def at_once(n: int, positions: int, **more: Any) -> Body:
    return {"players": players(n), "positions": positions, "seat": "remaining", "seed": f"bench-{n}", **more}


def drawn_elsewhere(n: int, count: int) -> list[Body]:
    """``count`` positions seated at random here (tables of 4 and the fewest of 3), as a club's
    own draw would be: the service has to plan around them."""
    rng = random.Random(f"elsewhere-{n}")
    threes = (4 - n % 4) % 4
    sizes = [4] * ((n - 3 * threes) // 4) + [3] * threes
    played = []
    for position in range(1, count + 1):
        order = rng.sample(players(n), n)
        for table, size in enumerate(sizes, start=1):
            seats = ("north", "west", "south", "east") if size == 4 else ("north", "south", "east")
            played.append({"position": position, "table": table, "seats": dict(zip(seats, order[:size], strict=True))})
            order = order[size:]
    return played


def shapes(counts: Iterable[int]) -> list[tuple[str, Body]]:
    out = [("sweep", at_once(n, p)) for p in (5, 6, 7) for n in counts]
    out += [("design", at_once(n, p)) for n, p in DESIGNS]
    out += [("forced", at_once(n, p)) for n, p in FORCED]
    out += [("fives", at_once(n, 5, tables_of_five=True)) for n in FIVES]
    out += [
        ("most work", {"players": players(n), "positions": p, "seed": f"bench-{n}", "played": drawn_elsewhere(n, 2)})
        for n, p in MOST_WORK
    ]
    return out


def probe(tree: Path, pure: bool, bodies: list[Body], rounds: int) -> list[dict[str, Any]]:
    env = {**os.environ, "TAROT_RULES_PURE": "1"} if pure else {k: v for k, v in os.environ.items()
                                                                   if k != "TAROT_RULES_PURE"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(PROBE), str(tree), str(rounds)],
        input=json.dumps(bodies),
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def release_tree(rev: str, into: Path) -> Path:
    """The release ``rev`` from git, its rules core compiled where the build tools are."""
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    # Its message catalogs, which an install compiles.
    for po in (into / "service" / "texts" / "locales").glob("*/LC_MESSAGES/*.po"):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parts[-3])
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)
    build = ROOT / ".venv-build" / "bin" / "python"
    if build.exists():
        print(f"compiling {rev}'s rules core (a minute or two)…", file=sys.stderr, flush=True)
        subprocess.run(
            [str(build), "setup.py", "--quiet", "build_ext", "--inplace"],
            cwd=into,
            env={**os.environ, "TAROT_RULES_COMPILE": "1"},
            capture_output=True,
            check=False,
        )
    return into


def _quality(row: dict[str, Any] | None) -> str:
    if row is None:
        return "| | | |"
    first = row["first_repeat"] or "–"
    return f"| {row['repeats']} | {first} | {row['most_meetings']} |"


def _ms(row: dict[str, Any] | None) -> str:
    if row is None:
        return "–"
    capped = "*" if row["capped"] else ""
    return f"{row['cpu_s'] * 1000:.0f}{capped}"


def table(kinds: list[str], bodies: list[Body], sides: dict[str, list[dict[str, Any]]], quiet: bool) -> list[str]:
    """The rows worth reading: every shape but the sweep's, and the sweep's where either side
    repeats a pair, or a search was capped."""
    names = list(sides)
    lines = [
        "| shape | players × positions | before: repeats | first | most | ms | now: repeats | first | most | "
        + " | ".join(f"ms {name}" for name in names if name != "before")
        + " |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * (len(names) - 1),
    ]
    now = names[1] if len(names) > 1 else names[0]
    for i, (kind, body) in enumerate(zip(kinds, bodies, strict=True)):
        rows = {name: sides[name][i] for name in names}
        before = rows.get("before")
        mine = rows[now]
        if quiet and kind == "sweep" and not any(r["repeats"] or r["capped"] for r in rows.values()):
            continue
        played = f" after {mine['played']}" if mine["played"] else ""
        shape = f"{body_players(body)} × {body['positions']}{played}"
        lines.append(
            f"| {kind} | {shape} {_quality(before)} {_ms(before)} {_quality(mine)} "
            + " | ".join(_ms(rows[name]) for name in names if name != "before")
            + " |"
        )
    return lines


def body_players(body: Body) -> str:
    fives = " (5s)" if body.get("tables_of_five") else ""
    return f"{len(body['players'])}{fives}"


def parse_counts(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--counts", default="16-120", help="the sweep's player counts, as 16-120 or 16,17,20")
    parser.add_argument("--baseline", default=BASELINE, help="the release beside this tree (a git revision)")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    listed = shapes(parse_counts(args.counts))
    kinds = [kind for kind, _ in listed]
    bodies = [body for _, body in listed]
    sides: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        if not args.no_baseline:
            sides["before"] = probe(release_tree(args.baseline, Path(scratch)), False, bodies, args.rounds)
        compiled = probe(ROOT, False, bodies, args.rounds)
        if compiled[0]["core"] == "compiled":
            sides["compiled"] = compiled
        sides["pure"] = probe(ROOT, True, bodies, args.rounds)
    before = f"{args.baseline}, {sides['before'][0]['core']}" if "before" in sides else "none"
    now_sides = ", ".join(name for name in sides if name != "before")
    print(f"\nSeating by shape — Python {platform.python_version()}; before: {before}; now: {now_sides}\n")
    print("\n".join(table(kinds, bodies, sides, quiet=True)))
    print("\n(* the search stopped at its cap; the sweep's rows shown only where a side repeats or is capped)\n")
    now = sides.get("compiled", sides["pure"])
    design_repeats = [
        (b["players"], b["positions"]) for k, b in zip(kinds, now, strict=True) if k == "design" and b["repeats"]
    ]
    for name, limit in (("compiled", LIMIT_COMPILED_S), ("pure", LIMIT_PURE_S)):
        if name in sides:
            worst = max(sides[name], key=lambda r: r["cpu_s"])
            spread = max(r["spread"] for r in sides[name])
            print(
                f"{name}: the costliest request {worst['cpu_s'] * 1000:.0f} ms ({worst['players']} × "
                f"{worst['positions']}), the limit {limit * 1000:.0f} ms; the largest spread {spread:.2f}"
            )
    for name, rows in sides.items():
        sweep = [r for k, r in zip(kinds, rows, strict=True) if k == "sweep"]
        print(f"{name}: the sweep's shapes with a repeat {sum(1 for r in sweep if r['repeats'])} of {len(sweep)}, "
              f"capped {sum(1 for r in sweep if r['capped'])}")  # fmt: skip
    print(f"designs repeating a pair: {design_repeats or 'none'}")
    over = [
        name
        for name, limit in (("compiled", LIMIT_COMPILED_S), ("pure", LIMIT_PURE_S))
        if name in sides and max(r["cpu_s"] for r in sides[name]) > limit
    ]
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        rows = [{"kind": k, **{name: sides[name][i] for name in sides}} for i, k in enumerate(kinds)]
        args.json.write_text(json.dumps({"baseline": args.baseline, "rows": rows}, indent=1) + "\n", encoding="utf-8")
    return 1 if design_repeats or over else 0


if __name__ == "__main__":
    sys.exit(main())
