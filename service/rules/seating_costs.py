"""What a seating plan costs (rules.md §16.5): rules 3 to 6 as one number, each rule weighing
more than everything below it, for the search (:mod:`.seating_search`) to lower."""

from __future__ import annotations

from typing import Final

MAX_MEETINGS: Final = 32
"""More than two players can meet in the most positions a request has, with those played."""

# Rules 3 to 6 as one cost, each rule's weight above all that the rules below it add up to in
# any plan a request can ask for (200 players, 15 positions: some 4,500 meetings in all).
W_FIXED: Final = 1
W_FAIR: Final = 10**5
W_REPEAT: Final = 10**9
"""Each meeting of two players who had met already."""
W_PILED: Final = 10**14
"""A pair's meetings past the second, weighed by the square of their number: above the count of
repeats, so that no pair meets k + 1 times where a plan has none past k, and one pair meeting 4
times weighs more than two meeting 3 times (rule 4: the repeats spread)."""
W_FAIR_FIRST: Final = 10**18
"""Rule 5's weight while the search first looks among evenly spread odd tables: above repeats."""
W_FORBIDDEN: Final = 10**20


def repeat_cost(meetings: int) -> int:
    """The cost of two players meeting ``meetings`` times (rule 4): convex, so that meetings
    spread over many pairs cost less than piled on a few."""
    piled = max(0, meetings - 2)
    return W_REPEAT * max(0, meetings - 1) + W_PILED * piled * piled


class Pairs:
    """What two players' meeting costs besides its repeats (rule 6 and the forbidden pairs)."""

    def __init__(self, n: int, forbidden: list[tuple[int, int]], fixed: list[int]) -> None:
        self.cost = [0] * (n * n)
        self.apart = [0] * (n * n)
        for a, b in forbidden:
            self.cost[a * n + b] += W_FORBIDDEN
            self.cost[b * n + a] += W_FORBIDDEN
            self.apart[a * n + b] = self.apart[b * n + a] = 1
        # A fixed player's table is a number given after the search, so rule 6 is between two
        # players: fixed to different tables, they sit apart; to one table, together.
        self.together: list[list[int]] = [[] for _ in range(n)]
        self.together_count = 0
        for i in range(n):
            for j in range(n):
                if i != j and fixed[i] and fixed[j]:
                    if fixed[i] == fixed[j]:
                        self.cost[i * n + j] -= W_FIXED
                        self.together[i].append(j)
                        self.together_count += 1
                    else:
                        self.cost[i * n + j] += W_FIXED
                        self.apart[i * n + j] = 1


def fair_shares(n: int, positions: int, odd_seats: int, before: int) -> tuple[list[int], list[int]]:
    """Rule 5: after each position, the least and the most times a player may have sat at an
    odd table, the seats at odd tables shared as evenly as they can be."""
    low, high = [0] * positions, [0] * positions
    total = before
    for p in range(positions):
        total += odd_seats
        low[p] = total // n
        high[p] = -(-total // n)
    return low, high
