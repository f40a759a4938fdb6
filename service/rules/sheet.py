"""A game's score sheet (feuille de marque): the draw for the first deal, the deals in turn,
the totals and each seat's bilan (rules.md §15).

The sheet adds up what the single-deal rules give; it decides nothing of a deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import EXCUSE, RANK_OF, SUIT_OF, Card, Suit
from .deal import Evaluation, Status
from .frozen import copied_by_constructor

# For the draw, equal ranks are told apart by suit, clubs lowest (§15.1).
_DRAW_SUIT_ORDER: Final = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


def draw_rank(card: Card) -> int:
    """How low ``card`` draws (§15.1): the plain cards by rank, ace lowest, equal ranks by suit
    (clubs, diamonds, hearts, spades); every trump above them, by number. The Excuse has no rank."""
    suit = SUIT_OF[card]
    assert suit is not None, "the Excuse is drawn again"
    if suit is Suit.TRUMPS:
        return 100 + RANK_OF[card]
    return RANK_OF[card] * 4 + _DRAW_SUIT_ORDER[suit]


@dataclass(frozen=True, slots=True)
class Draw:
    """The draw for the first deal: the seat that deals, or the seats that draw again."""

    first_dealer: int | None
    """The seat that drew the lowest card; ``None`` while a seat must draw again."""
    redraw: tuple[int, ...]
    """The seats that drew the Excuse, which has no rank: they draw again."""


def draw_for_deal(cards: Sequence[Card]) -> Draw:
    """The first dealer from the card each seat drew, seat 0 first (§15.1): the lowest card deals."""
    redraw = tuple(seat for seat, card in enumerate(cards) if card == EXCUSE)
    if redraw:
        return Draw(None, redraw)
    return Draw(min(range(len(cards)), key=lambda seat: draw_rank(cards[seat])), ())


def marks_of(evaluation: Evaluation, players: int) -> tuple[int, ...] | None:
    """A deal record's row of marks, seat 0 first (§15.3): zeros for a deal dealt again by
    every seat passing, the ruling's for a complete faulty deal (§14), the score's for a valid
    one; None for a record with no marks (unfinished, or faulty before its end)."""
    if evaluation.status is Status.REDEAL:
        return (0,) * players
    if evaluation.ruling is not None:
        return evaluation.ruling.scores
    return None if evaluation.score is None else evaluation.score.scores


def dealers_due(first_dealer: int, dealt_again: Sequence[bool], players: int) -> list[int]:
    """The seat due to deal each row of the sheet (§15.2): the deal passes to the next seat in
    playing order, except after a deal dealt again, which the same dealer deals again (§14.5)."""
    due, out = first_dealer, []
    for again in dealt_again:
        out.append(due)
        if not again:
            due = (due + 1) % players
    return out


@dataclass(frozen=True, slots=True)
class Bilan:
    """A seat's account at the end of the sheet."""

    seat: int
    plus: int
    """The sum of its gains (the sheet's plus column)."""
    minus: int
    """The sum of its losses, as a positive number (the minus column)."""
    net: int
    """Plus less minus: the bilan."""
    rank: int
    """1 for the highest net; seats with equal nets share a rank."""


def totals(rows: Sequence[Sequence[int]], players: int) -> list[list[int]]:
    """The running totals after each row."""
    running = [0] * players
    out = []
    for row in rows:
        running = [t + m for t, m in zip(running, row, strict=True)]
        out.append(running)
    return out


def bilans(rows: Sequence[Sequence[int]], players: int) -> tuple[Bilan, ...]:
    """Each seat's plus, minus, net and rank over the rows (§15.3)."""
    plus = [sum(row[s] for row in rows if row[s] > 0) for s in range(players)]
    minus = [-sum(row[s] for row in rows if row[s] < 0) for s in range(players)]
    net = [p - m for p, m in zip(plus, minus, strict=True)]
    return tuple(Bilan(s, plus[s], minus[s], net[s], 1 + sum(other > net[s] for other in net)) for s in range(players))


copied_by_constructor(Draw, Bilan)
