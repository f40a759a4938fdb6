"""One fault put into a legal deal, where it is known by construction (rules.md §12).

Each kind of mutation takes a legal deal from :func:`service.randomdeals.random_deal` and changes
one thing a recorder could get wrong: the order of one seat's cards, a card given to the
wrong seat, the discard, the opening lead, a poignée (its cards, or when it was shown). A
:class:`Mutation` says where the fault was put (trick and seat, ``trick`` ``None`` for the
discard), so that tests can hold the first root fault of the evaluation to that place.

    python -m tests.mutations [--deals N]

prints, per kind, the violations and root faults the core reports for such deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from service.randomdeals import random_deal, record
from service.rules.deal import Evaluation, evaluate_deal

Deal = dict[str, Any]

KINGS_AND_OUDLERS = {"KS", "KH", "KD", "KC", "1T", "21T", "EX"}


@dataclass(frozen=True)
class Mutation:
    kind: str
    deal: Deal
    trick: int | None
    """The trick where the fault was put; ``None`` for a fault of the discard."""
    seat: int


def seats_of_plays(d: Deal) -> list[int]:
    """The seat that played each card of the legal deal ``d``."""
    ev = evaluate_deal(record(d))
    return [(t.leader + i) % d["players"] for t in ev.tricks for i in range(len(t.cards))]


def _swapped_pair(d: Deal, rng: random.Random) -> Mutation | None:
    """Two cards of one seat played in each other's trick."""
    n, seats = d["players"], seats_of_plays(d)
    seat = rng.randrange(n)
    mine = [i for i, s in enumerate(seats) if s == seat]
    i, j = sorted(rng.sample(mine, 2))
    plays = list(d["plays"])
    plays[i], plays[j] = plays[j], plays[i]
    return Mutation("swapped_pair", {**d, "plays": plays}, i // n, seat)


def _wrong_card_replaced(d: Deal, rng: random.Random) -> Mutation | None:
    """A card replaced by a card another seat plays (so that card is played twice)."""
    n, seats = d["players"], seats_of_plays(d)
    i = rng.randrange(len(seats))
    j = rng.choice([k for k, s in enumerate(seats) if s != seats[i]])
    plays = list(d["plays"])
    plays[i] = plays[j]
    return Mutation("wrong_card_replaced", {**d, "plays": plays}, i // n, seats[i])


def _wrong_card_swapped(d: Deal, rng: random.Random) -> Mutation | None:
    """Two cards of two seats swapped, anywhere in the deal."""
    n, seats = d["players"], seats_of_plays(d)
    i = rng.randrange(len(seats))
    j = rng.choice([k for k, s in enumerate(seats) if s != seats[i]])
    i, j = min(i, j), max(i, j)
    plays = list(d["plays"])
    plays[i], plays[j] = plays[j], plays[i]
    return Mutation("wrong_card_swapped", {**d, "plays": plays}, i // n, seats[i])


def _held_kings_or_oudlers(d: Deal) -> list[str]:
    taker = d["taker"]
    return [c for c in d["hands"][taker] + d["dog"] if c in KINGS_AND_OUDLERS and c not in d["discard"]]


def _discard_king_played(d: Deal, rng: random.Random) -> Mutation | None:
    """A king or an oudler listed in the discard, and still played."""
    if d["contract"] not in ("prise", "garde") or not (held := _held_kings_or_oudlers(d)):
        return None
    discard = list(d["discard"])
    discard[rng.randrange(len(discard))] = rng.choice(held)
    return Mutation("discard_king_played", {**d, "discard": discard}, None, d["taker"])


def _discard_king_swapped(d: Deal, rng: random.Random) -> Mutation | None:
    """A king or an oudler discarded, a discarded card played in its place."""
    if d["contract"] not in ("prise", "garde") or not (held := _held_kings_or_oudlers(d)):
        return None
    discard, plays = list(d["discard"]), list(d["plays"])
    k, king = rng.randrange(len(discard)), rng.choice(held)
    plays[plays.index(king)], discard[k] = discard[k], king
    return Mutation("discard_king_swapped", {**d, "discard": discard, "plays": plays}, None, d["taker"])


def _discarded_played(d: Deal, rng: random.Random) -> Mutation | None:
    """A card of the discard played by the taker in place of one of his cards."""
    if d["contract"] not in ("prise", "garde"):
        return None
    n, seats, taker = d["players"], seats_of_plays(d), d["taker"]
    i = rng.choice([k for k, s in enumerate(seats) if s == taker])
    plays = list(d["plays"])
    plays[i] = rng.choice(d["discard"])
    return Mutation("discarded_played", {**d, "plays": plays}, i // n, taker)


def _leader_rotated(d: Deal, rng: random.Random) -> Mutation | None:
    """The opening trick played from another seat than the one due to lead."""
    n, seats = d["players"], seats_of_plays(d)
    r = rng.randrange(1, n)
    plays = list(d["plays"])
    plays[:n] = plays[r:n] + plays[:r]
    return Mutation("leader_rotated", {**d, "plays": plays}, 0, seats[r])


def _dealer_changed(d: Deal, rng: random.Random) -> Mutation | None:
    """The record names another dealer, so another seat was due to lead the whole deal."""
    if d["chelem_announced"]:
        return None
    dealer = rng.choice([s for s in range(d["players"]) if s != d["dealer"]])
    return Mutation("dealer_changed", {**d, "dealer": dealer}, 0, seats_of_plays(d)[0])


def play_hands(d: Deal) -> list[list[str]]:
    """Each seat's hand as play starts (the taker's after the dog and the discard)."""
    hands = [list(h) for h in d["hands"]]
    if d["contract"] in ("prise", "garde"):
        taker = d["taker"]
        hands[taker] = [c for c in hands[taker] + d["dog"] if c not in d["discard"]]
    return hands


def _poignee_size(d: Deal, rng: random.Random) -> Mutation | None:
    """A seat shows every trump it holds, a number that is no tier's."""
    sizes = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}[d["players"]]
    hands = play_hands(d)
    fits = [s for s, h in enumerate(hands) if 0 < sum(c.endswith("T") for c in h) not in sizes]
    if not fits:
        return None
    seat = rng.choice(fits)
    shown = {"seat": seat, "cards": [c for c in hands[seat] if c.endswith("T")]}
    poignees = [p for p in d["poignees"] if p["seat"] != seat] + [shown]
    return Mutation("poignee_size", {**d, "poignees": poignees}, 0, seat)


def _poignee_card(d: Deal, rng: random.Random) -> Mutation | None:
    """A seat shows a simple poignée with a trump it does not hold among its own."""
    size = {3: 13, 4: 10, 5: 8}[d["players"]]
    hands = play_hands(d)
    seat = rng.randrange(d["players"])
    mine = [c for c in hands[seat] if c.endswith("T")]
    if seat == d["taker"]:
        mine += [c for c in d["discard"] if c.endswith("T")]
    others = [f"{k}T" for k in range(1, 22) if f"{k}T" not in mine]
    mine = rng.sample(mine, min(len(mine), size - 1))
    shown = {"seat": seat, "cards": mine + rng.sample(others, size - len(mine))}
    poignees = [p for p in d["poignees"] if p["seat"] != seat] + [shown]
    return Mutation("poignee_card", {**d, "poignees": poignees}, 0, seat)


def _poignee_excuse(d: Deal, rng: random.Random) -> Mutation | None:
    """The Excuse shown in a poignée while a trump stays hidden."""
    size = {3: 13, 4: 10, 5: 8}[d["players"]]
    hands = play_hands(d)
    fits = [s for s, h in enumerate(hands) if "EX" in h and sum(c.endswith("T") for c in h) >= size]
    if not fits:
        return None
    seat = rng.choice(fits)
    trumps = [c for c in hands[seat] if c.endswith("T")]
    shown = {"seat": seat, "cards": [*rng.sample(trumps, size - 1), "EX"]}
    poignees = [p for p in d["poignees"] if p["seat"] != seat] + [shown]
    return Mutation("poignee_excuse", {**d, "poignees": poignees}, 0, seat)


def _poignee_late(d: Deal, rng: random.Random) -> Mutation | None:
    """A simple poignée shown after its owner's first card (``shown_at``), at a moment drawn
    from the rest of the deal."""
    size = {3: 13, 4: 10, 5: 8}[d["players"]]
    hands = play_hands(d)
    if d["contract"] in ("prise", "garde"):  # the taker may show again the trumps he discarded
        hands[d["taker"]] += [c for c in d["discard"] if c.endswith("T")]
    fits = [s for s, h in enumerate(hands) if sum(c.endswith("T") for c in h) >= size]
    if not fits:
        return None
    seat = rng.choice(fits)
    first = seats_of_plays(d).index(seat)
    shown = {
        "seat": seat,
        "cards": rng.sample([c for c in hands[seat] if c.endswith("T")], size),
        "shown_at": rng.randrange(first + 1, len(d["plays"]) + 1),
    }
    poignees = [p for p in d["poignees"] if p["seat"] != seat] + [shown]
    return Mutation("poignee_late", {**d, "poignees": poignees}, 0, seat)


KINDS: dict[str, Callable[[Deal, random.Random], Mutation | None]] = {
    "swapped_pair": _swapped_pair,
    "wrong_card_replaced": _wrong_card_replaced,
    "wrong_card_swapped": _wrong_card_swapped,
    "discard_king_played": _discard_king_played,
    "discard_king_swapped": _discard_king_swapped,
    "discarded_played": _discarded_played,
    "leader_rotated": _leader_rotated,
    "dealer_changed": _dealer_changed,
    "poignee_size": _poignee_size,
    "poignee_card": _poignee_card,
    "poignee_excuse": _poignee_excuse,
    "poignee_late": _poignee_late,
}


def mutate(kind: str, seed: int, players: int) -> Mutation | None:
    """The mutation ``kind`` of the legal deal ``random_deal(seed, players)``, when it has one."""
    return KINDS[kind](random_deal(seed, players), random.Random(f"{kind}/{seed}/{players}"))


def faulty(kind: str, seeds: range, players: int) -> Iterator[tuple[Mutation, Evaluation]]:
    """The mutations of ``kind`` over ``seeds`` that make the deal faulty, with their verdicts."""
    for seed in seeds:
        m = mutate(kind, seed, players)
        if m is not None:
            ev = evaluate_deal(record(m.deal))
            if not ev.valid:
                yield m, ev


def roots(ev: Evaluation) -> list[int]:
    """The indexes of the root faults among the violations."""
    return [i for i, v in enumerate(ev.violations) if v.caused_by is None]


def first_root_at(m: Mutation, ev: Evaluation) -> bool:
    first = ev.violations[roots(ev)[0]]
    return (first.trick, first.seat) == (m.trick, m.seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="legal deals per table size (default 200)")
    args = parser.parse_args()
    print(f"{'kind':<22}{'deals':>6}  violations med/max  roots med/max  first root at the fault")
    for kind in KINDS:
        found = [(m, ev) for players in (3, 4, 5) for m, ev in faulty(kind, range(args.deals), players)]
        if not found:
            continue
        counts = [len(ev.violations) for _, ev in found]
        root_counts = [len(roots(ev)) for _, ev in found]
        at = sum(first_root_at(m, ev) for m, ev in found) / len(found)
        print(
            f"{kind:<22}{len(found):>6}  {statistics.median(counts):>10g} / {max(counts):<6}"
            f"{statistics.median(root_counts):>5g} / {max(root_counts):<6}  {at:>6.0%}"
        )


if __name__ == "__main__":
    main()
