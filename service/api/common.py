"""Schema pieces shared by every operation: the rule flags, card lists, seat checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate, validates_schema

from service.rules.cards import CARD_CODES, Card, CardMask, mask_of
from service.rules.table import PLAYER_COUNTS
from service.rules.variants import FFT, ExcuseLastTrick, FirstLead, Rules

from .fields import CalledCardField, CardList, StrictBoolean, StrictInteger, StrictString
from .problems import Coded


class StrictSchema(Schema):
    """Unknown fields are refused: a misspelt flag must not pass silently.

    Rules across fields go in :meth:`check` and the making of the loaded value in
    :meth:`build`, not in marshmallow hooks of their own, so that the load plans
    (:mod:`service.api.plans`) run them exactly as a load does.
    """

    class Meta:
        unknown = RAISE

    def check(self, data: dict[str, Any]) -> None:
        """Rules across fields, once each field is valid: raise a ValidationError (see
        :class:`Errors`) locating every fault."""

    def build(self, data: dict[str, Any]) -> Any:
        """The loaded value made of the valid ``data``: ``data`` itself unless a schema says."""
        return data

    @validates_schema
    def _check(self, data: dict[str, Any], **kwargs: Any) -> None:
        self.check(data)

    @post_load
    def _build(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return self.build(data)


def players_field() -> StrictInteger:
    return StrictInteger(
        required=True,
        validate=validate.OneOf(PLAYER_COUNTS),
        metadata={"description": "Number of players at the table: 3, 4 or 5."},
    )


def card_list(description: str, **kwargs: Any) -> fields.List[Any]:
    return CardList(metadata={"uniqueItems": True, "description": description}, **kwargs)


def called_card_field(description: str) -> CalledCardField:
    return CalledCardField(allow_none=True, load_default=None, metadata={"description": description})


class RulesSchema(StrictSchema):
    """Rule variants (rules.md §11). Every flag defaults to the FFT rule."""

    excuse_last_trick = StrictString(
        load_default=ExcuseLastTrick.CHANGES_SIDE.value,
        validate=validate.OneOf([v.value for v in ExcuseLastTrick]),
        metadata={
            "description": "An Excuse played to the last trick outside the chelem case: "
            "`changes_side` (FFT) or goes to the `trick_winner`'s side."
        },
    )
    first_lead = StrictString(
        load_default=FirstLead.AFTER_DEALER.value,
        validate=validate.OneOf([v.value for v in FirstLead]),
        metadata={"description": "Who leads the first trick: the seat `after_dealer` (FFT) or `after_taker`."},
    )
    excuse_chelem_requires_announce = StrictBoolean(
        load_default=False,
        metadata={"description": "The Excuse wins the last trick only for an announced chelem."},
    )
    petit_sec_ignores_excuse = StrictBoolean(
        load_default=False,
        metadata={"description": "The Petit alone among trumps is sec even with the Excuse in hand."},
    )
    pousse_alias = StrictBoolean(
        load_default=False, metadata={"description": "Accept `pousse` as another name for `garde`."}
    )
    called_suit_lead_ban = StrictBoolean(
        load_default=True,
        metadata={"description": "Five players: the opening lead may not be in the called card's suit."},
    )

    def build(self, data: dict[str, Any]) -> Rules:
        return Rules(
            excuse_last_trick=ExcuseLastTrick(data["excuse_last_trick"]),
            first_lead=FirstLead(data["first_lead"]),
            excuse_chelem_requires_announce=data["excuse_chelem_requires_announce"],
            petit_sec_ignores_excuse=data["petit_sec_ignores_excuse"],
            pousse_alias=data["pousse_alias"],
            called_suit_lead_ban=data["called_suit_lead_ban"],
        )


def _fft() -> Rules:
    return FFT  # immutable: every request without variants shares it


def rules_field() -> fields.Nested:
    return fields.Nested(
        RulesSchema, load_default=_fft, metadata={"description": "Rule variants; omit for the FFT rules."}
    )


class Errors:
    """Collects located faults found across fields, then raises them together."""

    def __init__(self) -> None:
        self.messages: dict[str | int, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        # Nested dicts all the way down; a fault about the node itself goes under
        # "_schema", as marshmallow does, so a list can carry both kinds.
        node = self.messages
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_schema", []).append(Coded(code, message))

    def duplicates(self, name: str, cards: Sequence[Card]) -> CardMask:
        """Flag every card of ``cards`` that repeats an earlier one; the cards, as a mask."""
        mask = mask_of(cards)
        if mask.bit_count() != len(cards):  # some card repeats: find which, in order
            seen = 0
            for index, card in enumerate(cards):
                if seen >> card & 1:
                    self.add((name, index), "duplicate_card", f"{CARD_CODES[card]} appears more than once.")
                seen |= 1 << card
        return mask

    def raise_any(self) -> None:
        if self.messages:
            raise ValidationError(self.messages)


def seat_error(errors: Errors, path: Sequence[str | int], seat: int | None, players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        errors.add(path, "seat_out_of_range", f"Seats run from 0 to {players - 1} at {players} players.")


def fail(code: str, message: str) -> bool:
    """Raise a coded validation error (for one-line validators)."""
    raise ValidationError(Coded(code, message))
