"""Writes service/rules/duplicate_movement_tables.py: the offsets of the duplicate movement for
the table counts a linear movement cannot make perfect (rules.md §17.1).

For each count T of tables that shares a factor with 6, from 3 to 40: four injections
π_N, π_W, π_S, π_E of the positions 0 … T − 1 into Z_T (player i of line L sits at table
i + π_L(p) − p at position p, the étuis at −p: no player plays an étui twice), found by simulated
annealing on the collisions Σ C(c_v, 2) of the six differences π_L − π_M (c_v: the positions
where the difference is v). The positions are then ordered so that those in a collision come
last (the one in the most collisions first to go), so that the first positions of the table are
a good movement for fewer positions too. Run once, offline; the module it writes is the data.

    python bench/duplicate_movement_tables.py > service/rules/duplicate_movement_tables.py
"""

from __future__ import annotations

import math
import random
import sys

PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
COUNTS = [t for t in range(3, 41) if math.gcd(t, 6) != 1]
ITERATIONS = 400_000


def collisions(rows: list[list[int]], t: int) -> list[tuple[int, int]]:
    found = []
    for a, b in PAIRS:
        seen: dict[int, list[int]] = {}
        for p in range(len(rows[0])):
            seen.setdefault((rows[a][p] - rows[b][p]) % t, []).append(p)
        for where in seen.values():
            found += [(where[i], where[j]) for i in range(len(where)) for j in range(i + 1, len(where))]
    return found


def anneal(t: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    rows = [list(range(t))] + [rng.sample(range(t), t) for _ in range(3)]
    count = {ab: [0] * t for ab in PAIRS}
    for a, b in PAIRS:
        for p in range(t):
            count[(a, b)][(rows[a][p] - rows[b][p]) % t] += 1
    cost = sum(k * (k - 1) // 2 for ab in PAIRS for k in count[ab])
    best, kept = cost, [r[:] for r in rows]
    for it in range(ITERATIONS):
        if best == 0:
            break
        temp = 0.6 * (1 - it / ITERATIONS) + 0.01
        a, p, q = 1 + rng.randrange(3), rng.randrange(t), rng.randrange(t)
        if p == q:
            continue
        moves = ((p, rows[a][q]), (q, rows[a][p]))
        delta = 0
        for b in range(4):
            if b != a:
                ab, sign = ((a, b), 1) if a < b else ((b, a), -1)
                c = count[ab]
                for pp, nv in moves:
                    old, new = (sign * (rows[a][pp] - rows[b][pp])) % t, (sign * (nv - rows[b][pp])) % t
                    c[old] -= 1
                    delta += c[new] - c[old]
                    c[new] += 1
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            for pp, nv in moves:
                rows[a][pp] = nv
            cost += delta
            if cost < best:
                best, kept = cost, [r[:] for r in rows]
        else:
            for b in range(4):
                if b != a:
                    ab, sign = ((a, b), 1) if a < b else ((b, a), -1)
                    c = count[ab]
                    for pp, nv in reversed(moves):
                        old, new = (sign * (rows[a][pp] - rows[b][pp])) % t, (sign * (nv - rows[b][pp])) % t
                        c[new] -= 1
                        c[old] += 1
    return kept


def ordered(rows: list[list[int]], t: int) -> list[list[int]]:
    """The positions in a collision last: the one in the most collisions goes first."""
    edges = collisions(rows, t)
    last: list[int] = []
    while edges:
        degree = [0] * t
        for p, q in edges:
            degree[p] += 1
            degree[q] += 1
        worst = max(range(t), key=lambda p: (degree[p], p))
        last.insert(0, worst)
        edges = [(p, q) for p, q in edges if worst not in (p, q)]
    order = [p for p in range(t) if p not in last] + last
    return [[row[p] for p in order] for row in rows]


def write(offsets: dict[int, list[list[int]]]) -> str:
    """The module's text: each row wrapped at 100 characters, as ``ruff format`` leaves it."""
    out = ['"""The offsets of the duplicate movement where no linear one is perfect (rules.md §17.1).\n\n']
    out.append("Written by ``bench/duplicate_movement_tables.py`` (simulated annealing, run once): for each\n")
    out.append("count of tables T sharing a factor with 6, the injections π_N, π_W, π_S, π_E of the T positions\n")
    out.append("into Z_T, the positions in a collision last. Data only.\n")
    out.append('"""\n\nfrom __future__ import annotations\n\nfrom typing import Final\n\n')
    out.append("# fmt: off\nOFFSETS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {\n")
    for t, rows in offsets.items():
        out.append(f"    {t}: (\n")
        for row in rows:
            line = "        ("
            for value in row:
                if len(line) + len(str(value)) + 2 > 100:
                    out.append(line.rstrip() + "\n")
                    line = "         "
                line += f"{value}, "
            out.append(line.rstrip().rstrip(",") + "),\n")
        out.append("    ),\n")
    out.append("}\n# fmt: on\n")
    return "".join(out)


def main() -> None:
    offsets = {}
    for t in COUNTS:
        best = min((anneal(t, seed) for seed in range(3)), key=lambda r: len(collisions(r, t)))
        offsets[t] = ordered(best, t)
        print(t, len(collisions(offsets[t], t)), file=sys.stderr, flush=True)
    sys.stdout.write(write(offsets))


if __name__ == "__main__":
    main()
