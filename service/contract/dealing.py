"""The deal of the cards (rules.md §2.1), from a deck given or shuffled from a seed (§2.2)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from service.messages import msg
from service.rules.cards import CARD_CODES, DECK_SIZE, FULL_DECK, iter_cards, mask_of
from service.rules.dealing import FFT_PACKETS, PACKETS, DogFault, deal_deck, dog_faults, packet_fits
from service.rules.shuffle import SEED_MAX_LENGTH, shuffled_deck, utf8_writable
from service.rules.table import PLAYER_COUNTS, TABLES
from service.rules.verdicts import RedealReason
from service.texts import render

from .cards import codes, codes_of
from .common import (
    IF_LOADED,
    AnswerSchema,
    Errors,
    StrictSchema,
    card_list,
    players_field,
    rules_field,
    seat_error,
    seat_field,
)
from .declaration import Answered, Operation
from .fields import BoundedList, EnumField, Length, Range, StrictBoolean, StrictInteger, StrictString
from .problems import Coded


def _seed_text(seed: str) -> bool:
    # The length is Length's to say; this refuses what UTF-8 cannot write (a lone surrogate, which JSON allows).
    if not utf8_writable(seed):
        raise ValidationError(Coded("invalid", msg("error.seed_unicode")))
    return True


def packets_accepted(players: Any) -> tuple[int, ...]:
    """The packets a request's table deals its hands whole with (§2.1); every one while its
    player count is not known."""
    if type(players) is not int or players not in PLAYER_COUNTS:
        return PACKETS
    return tuple(packet for packet in PACKETS if packet_fits(TABLES[players], packet))


class DealRequest(StrictSchema):
    players = players_field()
    dealer = seat_field("The dealer's seat: the seat after it gets the deck's first card.", required=True)
    deck = card_list(
        "The 78 cards in the order they are dealt (after the cut), the first card first: each card once. "
        "Give this or `seed`.",
        allow_none=True,
        load_default=None,
        validate=Length(equal=DECK_SIZE),
    )
    seed = StrictString(
        allow_none=True,
        load_default=None,
        validate=[Length(min=1, max=SEED_MAX_LENGTH), _seed_text],
        metadata={
            "description": "Any text (its UTF-8 bytes, not normalised) from which the deck is shuffled by the "
            "algorithm of rules.md §2.2: the same seed gives the same deck in every language. Give this or `deck`."
        },
    )
    packet = EnumField(
        "Packet",
        lambda data: packets_accepted(data.get("players")),
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Cards given to a seat at a time (§2.1): 3 (the FFT's at four and five players), 4 (the "
            "FFT's at three players, and only there) or 1 (the FFT Code text). Absent: the FFT's for the table."
        },
    )
    dog_positions = BoundedList(
        StrictInteger(validate=Range(min=0, max=DECK_SIZE - 1)),
        allow_none=True,
        load_default=None,
        validate=Length(max=DECK_SIZE),
        metadata={
            "uniqueItems": True,
            "description": "The deck positions (0 for the first card … 77 for the last) of the cards put aside "
            "in the dog, one per dog card (6, or 3 at five players), any order: never the first or last card, "
            "never inside a packet (the hand cards before each one are a whole number of packets). Absent: "
            "spread evenly between the packets (§2.1).",
        },
    )
    rules = rules_field()

    def check(self, data: dict[str, Any]) -> None:
        errors = Errors()
        with IF_LOADED:
            seat_error(errors, ("dealer",), data["dealer"], data["players"])
        with IF_LOADED:
            deck, seed = data["deck"], data["seed"]
            if deck is None and seed is None:
                for name in ("deck", "seed"):
                    errors.add((name,), "required", msg("error.required.deck_or_seed"))
            elif deck is not None and seed is not None:
                errors.add(("seed",), "deck_and_seed", msg("error.deck_and_seed"))
        with IF_LOADED:
            deck = data["deck"]
            if deck is not None:
                missing = FULL_DECK & ~errors.duplicates("deck", deck)
                if missing:
                    cards = ", ".join(CARD_CODES[card] for card in iter_cards(missing))
                    errors.add(("deck",), "missing_card", msg("error.missing_card", missing.bit_count(), cards=cards))
        with IF_LOADED:
            players, packet = data["players"], data["packet"]
            table = TABLES[players]
            if packet is not None and not packet_fits(table, packet):
                errors.add(
                    ("packet",),
                    "packet_size",
                    msg("error.packet_size", packet=packet, hand=table.hand_size, players=players),
                )
                packet = None  # the positions are not checked against a packet the table refuses
            positions = data["dog_positions"]
            if positions is not None:
                self._check_positions(errors, positions, table.dog_size, players, packet or FFT_PACKETS[players])
        errors.raise_any()

    @staticmethod
    def _check_positions(errors: Errors, positions: list[int], dog_size: int, players: int, packet: int) -> None:
        whole = len(positions) == dog_size
        if not whole:
            errors.add(
                ("dog_positions",), "dog_positions_count", msg("error.dog_positions_count", dog_size, players=players)
            )
        seen: set[int] = set()
        for index, position in enumerate(positions):
            if position in seen:
                whole = False
                errors.add(
                    ("dog_positions", index), "duplicate_position", msg("error.duplicate_position", position=position)
                )
            seen.add(position)
        for index, fault in dog_faults(packet, positions):
            if fault is DogFault.FIRST_OR_LAST_CARD:
                errors.add(("dog_positions", index), fault.value, msg("error.dog_first_or_last_card"))
            elif whole:  # where the packets fall is known only once the positions are the dog's, each once
                message = msg("error.dog_inside_packet", position=positions[index], packet=packet)
                errors.add(("dog_positions", index), fault.value, message)


class SetAsideSchema(AnswerSchema):
    position = StrictInteger(
        required=True, metadata={"description": "Its position in the deck (0 for the first card)."}
    )
    card = EnumField("Card", required=True)


class DealResponse(AnswerSchema):
    packet = StrictInteger(required=True, metadata={"description": "Cards given to a seat at a time."})
    deck = card_list("The 78 cards in the order dealt, the first card first.", required=True)
    hands = fields.List(
        card_list("A seat's cards, in canonical deck order."),
        required=True,
        metadata={"description": "Every seat's hand, seat 0 first."},
    )
    dog = card_list("The dog (chien), in canonical deck order.", required=True)
    set_aside = fields.List(
        fields.Nested(SetAsideSchema),
        required=True,
        metadata={"description": "The dog's cards as the dealer put them aside, in the order of the deal."},
    )
    redeal = StrictBoolean(
        required=True, metadata={"description": "The deal must begin again: a seat was dealt a petit sec (§3.1)."}
    )
    redeal_reason = EnumField("RedealReason", required=True, allow_none=True)
    redeal_seat = StrictInteger(
        required=True, allow_none=True, metadata={"description": "The seat dealt the petit sec; null without redeal."}
    )
    redeal_message = StrictString(
        required=True,
        allow_none=True,
        metadata={"description": "Why the cards are dealt again, for people; null without redeal."},
    )


def answer_deal(req: dict[str, Any], language: str) -> Answered:
    """The deal of a loaded request's deck (rules.md §2.1), or of the deck its seed shuffles (§2.2)."""
    deck = req["deck"] if req["deck"] is not None else shuffled_deck(req["seed"])
    dealt = deal_deck(deck, TABLES[req["players"]], req["dealer"], req["packet"], req["dog_positions"], req["rules"])
    seat = dealt.petit_sec_seat
    message = None if seat is None else render(msg("redeal.petit_sec", seat=seat), language)
    return Answered(
        {
            "packet": dealt.packet,
            "deck": codes(dealt.deck),
            "hands": [codes(sorted(hand)) for hand in dealt.hands],
            "dog": codes_of(mask_of(dealt.dog)),
            "set_aside": [
                {"position": position, "card": CARD_CODES[card]}
                for position, card in zip(dealt.dog_positions, dealt.dog, strict=True)
            ],
            "redeal": seat is not None,
            "redeal_reason": None if seat is None else RedealReason.PETIT_SEC,
            "redeal_seat": seat,
            "redeal_message": message,
        }
    )


DEAL_CARDS = Operation("dealCards", "/v1/deals/deal", "deal", DealRequest(), DealResponse(), answer_deal)
