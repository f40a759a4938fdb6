"""The named schemas of the wire vocabulary: the wire's enums, the core's verdict codes and the
cards, each a component that every field carrying it references.

Which values a request takes of an enum that depends on the request (``pousse`` under its
variant) is said here too, beside the enum.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from marshmallow import fields

from service.rules.arbitration import AtFault
from service.rules.cards import Suit
from service.rules.deal import Status
from service.rules.dealing import PACKETS
from service.rules.duplicate_sittings import DUPLICATE_ORIENTATIONS
from service.rules.excuse import ExcuseOutcome
from service.rules.ranking import TieBreak
from service.rules.scoring import POUSSE, Contract, PoigneeSize, Side
from service.rules.seating_tables import ORIENTATIONS
from service.rules.table import PLAYER_COUNTS
from service.rules.tournament import Sanction, Source
from service.rules.variants import DealErrors, ExcuseLastTrick, FirstLead
from service.rules.verdicts import (
    Anomaly,
    Decision,
    DuplicateFault,
    DuplicateMovementFault,
    LegalReason,
    RedealReason,
    RulingReason,
    SeatingFault,
    Unchecked,
    Verdict,
    ViolationCode,
)
from service.texts import LANGUAGES

from .cards import CARD_COMPONENTS
from .errorcodes import FieldErrorCode

VERDICTS: tuple[type[Verdict], ...] = (
    LegalReason,
    ViolationCode,
    RedealReason,
    Decision,
    RulingReason,
    FieldErrorCode,
    Unchecked,
    Anomaly,
    SeatingFault,
    DuplicateMovementFault,
    DuplicateFault,
)
"""Every verdict enum the wire carries, each a named component, in the contract's order."""

OPEN_VERDICTS: frozenset[type[Verdict]] = frozenset(VERDICTS) - {Decision}
"""The verdict enums a later ``1.x`` may add codes to (the README's version policy): a new rule
checked, a new row of the Code of Arbitration, a new way a request can be wrong. The others
(decisions, sides, cards, contracts…) are closed within ``/v1``."""

OPEN_ENUM_NOTE = (
    "**Open enum**: a later 1.x version of the contract may add codes to it. A client that meets a code it "
    "does not know keeps the answer and shows its `message`, which is always there."
)


def verdict_component(verdict: type[Verdict]) -> dict[str, Any]:
    """The named schema of a verdict enum: its codes, each with its meaning (rules.md §13), and
    whether it is open to new codes (``x-open-enum``)."""
    lines = "\n".join(f"- `{code.value}`: {code.description}" for code in verdict)
    is_open = verdict in OPEN_VERDICTS
    return {
        "type": "string",
        "enum": [code.value for code in verdict],
        "description": f"{verdict.__doc__}\n\n{lines}" + (f"\n\n{OPEN_ENUM_NOTE}" if is_open else ""),
        "x-enum-descriptions": [code.description for code in verdict],
        "x-open-enum": is_open,
    }


def _named(values: Iterable[Any], description: str, kind: str = "string") -> dict[str, Any]:
    return {"type": kind, "enum": list(values), "description": description}


FFT_CONTRACTS = tuple(c.value for c in Contract)
CONTRACT_NAMES = [*FFT_CONTRACTS, POUSSE]


def contracts_accepted(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The contracts a request takes: ``pousse`` too when its rules, as sent, say ``pousse_alias`` (§11)."""
    rules = data.get("rules")
    alias = rules.get("pousse_alias") if isinstance(rules, Mapping) else None
    return (*FFT_CONTRACTS, POUSSE) if alias is True else FFT_CONTRACTS


def bids_accepted(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The bids a request takes: ``pass`` and its contracts."""
    return ("pass", *contracts_accepted(data))


DETAILS = FULL, SUMMARY = ("full", "summary")
DUPLICATE_SHEETS = ("general", "alterne", "feuilles")
"""The values of the ``sheet`` query parameter of a duplicate tournament's spreadsheet file, the default first."""
"""The values of the ``detail`` query parameter of the deal evaluations, the default first."""

ENUM_COMPONENTS: dict[str, dict[str, Any]] = {
    "Players": _named(PLAYER_COUNTS, "Number of players at the table (§2).", "integer"),
    "Packet": _named(PACKETS, "Cards dealt to a seat at a time (§2.1).", "integer"),
    "Contract": _named(
        CONTRACT_NAMES,
        "A contract (§3.2), lowest first: prise ×1, garde ×2, garde_sans ×4, garde_contre ×6. `pousse`, "
        "another name for garde, only under the `pousse_alias` variant; answers say `garde`.",
    ),
    "Bid": _named(["pass", *CONTRACT_NAMES], "A seat's bid (§3.3): `pass` or a contract."),
    "Side": _named([s.value for s in Side], "The taker's side (`attack`: taker and partner) or the `defence`."),
    "PoigneeSize": _named(
        [p.value for p in PoigneeSize], "A poignée's tier (§9.5): simple 20, double 30, triple 40 (never multiplied)."
    ),
    "Suit": _named([s.code for s in Suit], "A suit: spades, hearts, diamonds, clubs, or T for the trumps."),
    "DealStatus": _named(
        [s.value for s in Status], "Where a deal stands: complete, in progress, or to be dealt again."
    ),
    "NotPlayed": _named(["redeal", "void"], "A deal on a game's sheet that was not played: dealt again, or void."),
    "GameEntryKind": _named(["summary", "record", "not_played"], "What a row of a game's sheet was given as."),
    "AtFault": _named(
        [a.value for a in AtFault], "The side a ruling holds at fault: the attack, the defence, or both (§14)."
    ),
    "ExcuseOutcome": _named([o.value for o in ExcuseOutcome], "What became of the Excuse (§7, §8)."),
    "ExcuseLastTrick": _named(
        [v.value for v in ExcuseLastTrick], "Where an Excuse played to the last trick goes outside a chelem (§8.3)."
    ),
    "FirstLead": _named([v.value for v in FirstLead], "Who leads the first trick when no chelem is announced (§2)."),
    "DealErrors": _named(
        [v.value for v in DealErrors],
        "What a fault of the deal itself found in a complete record does: the deal is dealt again, or disregarded "
        "and scored as played (§14.5).",
    ),
    "Language": _named(list(LANGUAGES), "A language the service writes its texts for people in: English or French."),
    "SeatPositions": _named(
        ["next", "remaining", "none"],
        "The positions a seating request seats (rules.md §16.5): the next one, every one left, or none (the check "
        "form: the positions played held to the rules).",
    ),
    "Detail": _named(
        list(DETAILS),
        "How much of a deal's evaluation to answer: all of it, or the digest a pipeline acts on.",
    ),
    "Orientation": _named(
        list(ORIENTATIONS),
        "A seat of a tournament's table, in playing order (§16.2): north, west, south, east, and at a table of "
        "five `fifth`, who plays after east. A table of three has three of the first four.",
    ),
    "TieBreak": _named(
        [t.value for t in TieBreak],
        "How equal totals are told apart (§16.4, a reading: the texts name none): `none`, they share a rank; "
        "`best_position`, the better best position bilan, then the next best…; `positive_positions`, more "
        "positions with a positive bilan. Still equal, they share a rank.",
    ),
    "Sanction": _named(
        [s.value for s in Sanction],
        "The sanction the control table suggests for a scored error (§16.3): a `warning` for a table's first, "
        "a `penalty` for each after it. The referee decides; the amounts are the referee's (`adjustments`).",
    ),
    "AnomalySource": _named(
        [s.value for s in Source],
        "The text a scored error comes from: `fft_code`, the *FFT Code*'s own list (a total not zero, no table "
        "number, no names and numbers, a card not returned); `rulebook`, the service's rulebook (§16.3).",
    ),
    "DuplicateForm": _named(
        ["individual", "triplettes", "quadrettes", "team_match"],
        "A duplicate tournament's form (§17): the individual, teams of three, teams of four, a match of two teams.",
    ),
    "DuplicateOrientation": _named(
        list(DUPLICATE_ORIENTATIONS),
        "An orientation of a duplicate table, in playing order (§17.1): a player keeps his all tournament.",
    ),
    "TeamContract": _named(
        ["garde", "garde_sans", "garde_contre"],
        "What a team's attacker plays in a team match (§17.8): never a prise, never a pass.",
    ),
    "DuplicateAdjustment": _named(
        ["annulled", "mark", "penalty"],
        "A referee's adjustment of a duplicate session (§17.9): an étui annulled, an adjusted mark, a penalty.",
    ),
    "DuplicateSheet": _named(
        list(DUPLICATE_SHEETS),
        "Which ranking a duplicate tournament's spreadsheet file gives (§17.6): the général, the alterné, or "
        "the feuilles de route.",
    ),
    "CardDealKind": _named(
        ["summary", "record", "not_played", "marks"],
        "What a deal of a scorecard was given as: a summary, a record, a deal not played (each as a game's "
        "sheet takes it), or only the marks written on the card.",
    ),
}
"""The wire's enums, each a named schema that every field carrying it references."""


COMPONENTS: dict[str, dict[str, Any]] = {
    **CARD_COMPONENTS,
    **ENUM_COMPONENTS,
    **{verdict.__name__: verdict_component(verdict) for verdict in VERDICTS},
}
"""Named schemas of the wire vocabulary, referenced by the fields that carry them."""


def component_reference(self: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: card and verdict fields are references to their components."""
    component = getattr(field, "component", None)
    if component is None:
        return {}
    ref = {"$ref": f"#/components/schemas/{component}"}
    return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref
