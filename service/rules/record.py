"""A deal record as a client sends it, and the working state of its evaluation."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message
from .cards import Card, CardMask
from .frozen import copied_by_constructor
from .scoring import Contract
from .table import Table
from .variants import FFT, Rules
from .verdicts import NotChecked, Violation, ViolationCode


@dataclass(frozen=True, slots=True)
class PoigneeShown:
    """A poignée as declared: the seat, the cards it showed, and when."""

    seat: int
    cards: tuple[Card, ...]
    shown_at: int | None = None
    """How many cards of the deal had been played when it was shown; ``None``: before its
    owner's first card, as §9.5 asks."""


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A serialized deal, as a client sends it (cards already parsed)."""

    players: int
    dealer: int
    plays: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None
    """Each seat's hand as dealt; ``None`` to infer the hands from a complete deal's plays."""
    dog: tuple[Card, ...] | None = None
    contract: Contract | None = None
    taker: int | None = None
    bids: tuple[Contract | None, ...] | None = None
    """One bid per seat in speaking order from the dealer's right; ``None`` is a pass."""
    called_card: Card | None = None
    discard: tuple[Card, ...] | None = None
    chelem_announced: bool | None = False
    """``None``: the record does not say (read from the first lead: rules.md §12)."""
    poignees: tuple[PoigneeShown, ...] = ()
    rules: Rules = FFT


@dataclass
class DealContext:
    """Working state of one evaluation: the record, its table, the violations found so far."""

    record: DealRecord
    table: Table
    violations: list[Violation] = field(default_factory=list)
    unchecked: list[NotChecked] = field(default_factory=list)
    """What the record leaves out that the evaluation needed (rules.md §12)."""
    known: list[bool] = field(default_factory=list)
    """For each seat, whether its hand as play begins is known exactly (set with the hands)."""

    def report(
        self,
        code: ViolationCode,
        message: Message,
        *,
        trick: int | None = None,
        seat: int | None = None,
        card: Card | None = None,
        legal: CardMask | None = None,
        caused_by: int | None = None,
    ) -> None:
        self.violations.append(Violation(code, message, trick, seat, card, legal, caused_by))


copied_by_constructor(PoigneeShown, DealRecord)
