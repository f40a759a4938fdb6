"""Rule variants: the FFT reading by default, the seed documents' readings as opt-in flags.

rules.md §11 lists where the source documents differ from the FFT; each difference the
service can apply is one field of :class:`Rules`. The default value of every field is the
FFT rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .frozen import copied_by_constructor


class ExcuseLastTrick(StrEnum):
    """What becomes of an Excuse played to the last trick outside the chelem case (§8.3)."""

    CHANGES_SIDE = "changes_side"
    """FFT: it goes to the side opposite its owner ("elle change de camp")."""
    TRICK_WINNER = "trick_winner"
    """The *Card by card* page: it goes to whichever side wins the last trick."""


class DealErrors(StrEnum):
    """What a fault of the deal itself, found once the contract is made, does to the deal (§14.5)."""

    REDEAL = "redeal"
    """FFT: the same dealer deals again, every seat scores 0."""
    DISREGARDED = "disregarded"
    """The FFT Code text: the error is disregarded, the deal is played on and scored as played."""


class FirstLead(StrEnum):
    """Who leads the first trick when no chelem was announced (§2)."""

    AFTER_DEALER = "after_dealer"
    """FFT: the seat after the dealer (the dealer's right)."""
    AFTER_TAKER = "after_taker"
    """Seeds 001 and 003: the seat after the taker."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set a request is checked against. ``Rules()`` is the FFT rule set.

    Each field is one variant of §11; its default is the FFT rule, and its description is
    what the contract says of the request flag of the same name.
    """

    excuse_last_trick: ExcuseLastTrick = field(
        default=ExcuseLastTrick.CHANGES_SIDE,
        metadata={
            "description": "An Excuse played to the last trick outside the chelem case: `changes_side` (FFT) "
            "or goes to the `trick_winner`'s side (§8.3)."
        },
    )
    first_lead: FirstLead = field(
        default=FirstLead.AFTER_DEALER,
        metadata={"description": "Who leads the first trick: the seat `after_dealer` (FFT) or `after_taker` (§2)."},
    )
    excuse_chelem_requires_announce: bool = field(
        default=False,
        metadata={"description": "The Excuse wins the last trick only for an announced chelem (§7)."},
    )
    petit_sec_ignores_excuse: bool = field(
        default=False,
        metadata={"description": "The Petit alone among trumps is sec even with the Excuse in hand (§3.1)."},
    )
    pousse_alias: bool = field(
        default=False,
        metadata={"description": "Accept `pousse` as another name for `garde` (§3.4)."},
    )
    discard_kings_when_forced: bool = field(
        default=False,
        metadata={
            "description": "A taker whose hand and dog hold only kings and trumps (and the Excuse) may discard "
            "kings as well as trumps 2–20, declaring them; never an oudler (§4.2)."
        },
    )
    petit_au_bout_to_taker: bool = field(
        default=False,
        metadata={
            "description": "The Petit au bout's bonus counts for the taker's side whichever side took the last "
            "trick with the Petit (§9.4)."
        },
    )
    deal_errors_after_contract: DealErrors = field(
        default=DealErrors.REDEAL,
        metadata={
            "description": "A fault of the deal itself (a hand of the wrong size, a card dealt twice) in a complete "
            "record: the deal is dealt again, `redeal` (FFT), or scored as played, `disregarded` (§14.5)."
        },
    )
    called_suit_lead_ban: bool = field(
        default=True,
        metadata={"description": "Five players: the opening lead may not be in the called card's suit (§5.3)."},
    )


FFT: Final = Rules()
"""The official rule set (the default)."""

copied_by_constructor(Rules)
