"""The trick operations: legal cards (rules.md §5, §6) and the trick winner (§7)."""

from __future__ import annotations

from typing import Any

from service.messages import msg
from service.rules.cards import is_trump, mask_of
from service.rules.play import led_suit, legal_cards, legal_message, opening_ban, trick_winner
from service.rules.table import LARGEST_HAND, MAX_PLAYERS, TABLES
from service.texts import render

from .cards import code, codes_of
from .common import (
    IF_LOADED,
    AnswerSchema,
    Errors,
    StrictSchema,
    called_card_field,
    card_list,
    players_field,
    rules_field,
    seat_error,
    seat_field,
)
from .declaration import Answered, Decided, Operation
from .fields import CardField, EnumField, Length, StrictBoolean, StrictInteger, StrictString


class LegalCardsRequest(StrictSchema):
    players = players_field()
    hand = card_list(
        "The cards of the seat to play (1 to a full hand), any order.",
        required=True,
        validate=Length(min=1, max=LARGEST_HAND),
    )
    trick = card_list(
        "Cards already in the current trick, in play order (at most players − 1).",
        load_default=list,
        validate=Length(max=MAX_PLAYERS - 1),
    )
    first_trick = StrictBoolean(
        load_default=False, metadata={"description": "Whether this is the deal's first trick (five-player lead ban)."}
    )
    called_card = called_card_field(
        "Five players: the called card. Needed for the first trick's lead ban (rules.md §5); "
        "refused at three and four players."
    )
    rules = rules_field()

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            hand_size = TABLES[data["players"]].hand_size
            if len(data["hand"]) > hand_size:
                message = msg("error.hand_too_large", hand_size, players=data["players"])
                errors.add(("hand",), "hand_too_large", message)
        with IF_LOADED:
            if len(data["trick"]) >= data["players"]:
                errors.add(("trick",), "trick_full", msg("error.trick_full", data["players"]))
        in_hand = None
        with IF_LOADED:
            in_hand = errors.duplicates("hand", data["hand"])
        with IF_LOADED:
            errors.duplicates("trick", data["trick"])
            for index, card in enumerate(data["trick"]):
                if in_hand is not None and in_hand >> card & 1:
                    errors.add(("trick", index), "card_in_hand_and_trick", msg("error.card_in_hand_and_trick"))
        with IF_LOADED:
            called, players = data["called_card"], data["players"]
            if called is not None and players != 5:
                errors.add(("called_card",), "called_card_not_allowed", msg("error.called_card_not_allowed"))
            if called is None and players == 5 and data["first_trick"] and data["rules"].called_suit_lead_ban:
                errors.add(("called_card",), "required", msg("error.required.called_card_first_trick"))
        errors.raise_any()


class LegalCardsResponse(AnswerSchema):
    legal = card_list("The legal cards, in canonical deck order.", required=True)
    reason = EnumField("LegalReason", required=True)
    message = StrictString(
        required=True,
        metadata={
            "description": "The same, for people, with what to follow or beat, in the language asked for "
            "(`Accept-Language`)."
        },
    )


def answer_legal_cards(req: dict[str, Any], language: str) -> Answered:
    """The legal cards of a loaded request (rules.md §5, §6), its message in ``language``."""
    banned = opening_ban(req["called_card"], req["rules"], first_trick=req["first_trick"])
    hand = mask_of(req["hand"])
    result = legal_cards(hand, req["trick"], banned_lead=banned)
    # reason is a StrEnum, which orjson writes as its value.
    message = render(legal_message(result.reason, req["trick"], banned, hand), language)
    answer = {"legal": codes_of(result.cards), "reason": result.reason, "message": message}
    return Answered(answer, Decided(legal_reason=result.reason))


class WinnerRequest(StrictSchema):
    players = players_field()
    leader = seat_field("Seat that led the trick (seats in playing order).", load_default=0)
    cards = card_list(
        "The cards of the trick in play order: 1 to `players` cards.",
        required=True,
        validate=Length(min=1, max=MAX_PLAYERS),
    )

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            seat_error(errors, ("leader",), data["leader"], data["players"])
        with IF_LOADED:
            if len(data["cards"]) > data["players"]:
                errors.add(("cards",), "trick_too_long", msg("error.trick_too_long", data["players"]))
        with IF_LOADED:
            errors.duplicates("cards", data["cards"])
        errors.raise_any()


class WinnerResponse(AnswerSchema):
    winner = StrictInteger(
        required=True,
        allow_none=True,
        metadata={"description": "Seat winning so far; null while only the Excuse is played."},
    )
    winner_index = StrictInteger(
        required=True, allow_none=True, metadata={"description": "Index of that card in `cards`."}
    )
    winning_card = CardField(required=True, allow_none=True)
    led_suit = EnumField(
        "Suit",
        required=True,
        allow_none=True,
        metadata={"description": "S, H, D, C or T (trumps); null when only the Excuse is played."},
    )
    trumped = StrictBoolean(required=True, metadata={"description": "A trump is in the trick, so a trump wins it."})
    complete = StrictBoolean(required=True, metadata={"description": "Every player has played to the trick."})


def answer_winner(req: dict[str, Any], language: str) -> Answered:
    """Who wins a loaded trick, or is winning it so far (rules.md §7); no texts, whatever the language."""
    cards, players = req["cards"], req["players"]
    index = trick_winner(cards)
    suit = led_suit(cards)
    return Answered(
        {
            "winner": None if index is None else (req["leader"] + index) % players,
            "winner_index": index,
            "winning_card": None if index is None else code(cards[index]),
            "led_suit": None if suit is None else suit.code,
            "trumped": any(is_trump(c) for c in cards),
            "complete": len(cards) == players,
        }
    )


LEGAL_CARDS = Operation(
    "listLegalCards",
    "/v1/tricks/legal-cards",
    "legal-cards",
    LegalCardsRequest(),
    LegalCardsResponse(),
    answer_legal_cards,
)
WINNER = Operation("findTrickWinner", "/v1/tricks/winner", "winner", WinnerRequest(), WinnerResponse(), answer_winner)
