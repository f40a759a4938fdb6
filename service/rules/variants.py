"""Rule variants: the FFT reading by default, the seed documents' readings as opt-in flags.

rules.md §11 lists where the source documents differ from the FFT; each difference the
service can apply is one field of :class:`Rules`. The default value of every field is the
FFT rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class ExcuseLastTrick(StrEnum):
    """What becomes of an Excuse played to the last trick outside the chelem case (§8.3)."""

    CHANGES_SIDE = "changes_side"
    """FFT: it goes to the side opposite its owner ("elle change de camp")."""
    TRICK_WINNER = "trick_winner"
    """Seed 000: it goes to whichever side wins the last trick."""


class FirstLead(StrEnum):
    """Who leads the first trick when no chelem was announced (§2)."""

    AFTER_DEALER = "after_dealer"
    """FFT: the seat after the dealer (the dealer's right)."""
    AFTER_TAKER = "after_taker"
    """Seeds 001 and 003: the seat after the taker."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set a request is checked against. ``Rules()`` is the FFT rule set."""

    excuse_last_trick: ExcuseLastTrick = ExcuseLastTrick.CHANGES_SIDE
    first_lead: FirstLead = FirstLead.AFTER_DEALER
    excuse_chelem_requires_announce: bool = False
    """Seed 002: the Excuse wins the last trick only when the chelem was announced."""
    petit_sec_ignores_excuse: bool = False
    """Seed 003: the Petit alone among trumps is "sec" even with the Excuse in hand."""
    pousse_alias: bool = False
    """Seed 003: accept "pousse" as another name for garde."""
    called_suit_lead_ban: bool = True
    """§5: at five players the opening lead may not be in the called card's suit."""


FFT: Final = Rules()
"""The official rule set (the default)."""
