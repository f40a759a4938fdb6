"""rules.md §6, said to a player: the legal-cards message is true of the hand it answers.

A mobile app shows ``message`` beside the hand. Over every position (any hand, any trick so far,
the five-player opening ban or not), in both languages: the sentence offers the Excuse only to a
hand holding it, names the called card as a card to lead only to a hand holding it, says "any
card" only when every card of the hand is legal, and the suit to follow or the trump to beat it
names is the one the legal cards are drawn from.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.messages import CardName, Message, Term
from service.rules.cards import (
    BIT,
    EXCUSE,
    EXCUSE_BIT,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TRUMPS,
    TRUMPS_ABOVE,
    format_card,
    mask_of,
)
from service.rules.play import highest_trump, led_suit, legal_cards, legal_message
from service.rules.verdicts import LegalReason
from service.texts import render

EXCUSE_WORD = {"en": "Excuse", "fr": "Excuse"}
"""How each language names the Excuse in a legal-cards message."""
OFFERING_THE_EXCUSE = {LegalReason.FOLLOW, LegalReason.TRUMP, LegalReason.OVERTRUMP, LegalReason.UNDERTRUMP}
"""The rules whose message offers the Excuse beside the cards they ask for (§6.1)."""


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, list[int], int | None]:
    """A hand, the cards of the trick so far and, now and then, a five-player opening ban; hands
    often small, since small hands are where a message most easily says too much."""
    deck = draw(st.permutations(range(78)))
    trick_len = draw(st.integers(0, 4))
    hand_len = draw(st.integers(1, 24) | st.integers(1, 3))
    trick = list(deck[:trick_len])
    hand = mask_of(deck[trick_len : trick_len + hand_len])
    called = draw(st.none() | st.sampled_from([c for c in range(56) if RANK_OF[c] > 10 and c not in trick]))
    return hand, trick, called


def args(message: Message) -> dict[str, Any]:
    return dict(message.args)


def check_true_of_hand(message: Message, hand: int, trick: list[int], banned: int | None) -> None:
    """The core's message for the position, read for what it asserts about the hand."""
    result = legal_cards(hand, trick, banned_lead=banned)
    legal, key, said = result.cards, message.key, args(message)
    plain_legal = legal & ~EXCUSE_BIT
    # The Excuse is offered exactly to a hand holding it (always legal then: §6.1).
    assert key.endswith(".excuse") == bool(hand & EXCUSE_BIT) or key in {
        "legal.lead",
        "legal.discard",
        "legal.discard.trump_lead",
        "legal.called_suit_ban",
        "legal.called_suit_ban.not_held",
    }, key
    suit, top = led_suit(trick), highest_trump(trick)
    base = key.removesuffix(".excuse")
    if base in {"legal.lead", "legal.discard", "legal.discard.trump_lead"}:
        assert legal == hand, f"{key} says any card, legal {legal:x} of {hand:x}"
    elif base == "legal.follow":
        assert suit is not None and said["suit"] == Term("suit", suit.name.lower())
        assert plain_legal == hand & SUIT_MASKS[suit] != 0
    elif base == "legal.trump":
        assert suit is not None and said["suit"] == Term("suit", suit.name.lower())
        assert not hand & SUIT_MASKS[suit] and plain_legal == hand & TRUMPS != 0
    elif base == "legal.overtrump":
        assert top is not None and said["top"] == CardName(top)
        assert plain_legal == hand & TRUMPS_ABOVE[top] != 0
    elif base == "legal.undertrump":
        assert top is not None and said["top"] == CardName(top)
        assert not hand & TRUMPS_ABOVE[top] and plain_legal == hand & TRUMPS != 0
    else:
        assert banned is not None and said["called"] == CardName(banned)
        # "except the called card itself" only to the hand that can lead it.
        assert (base == "legal.called_suit_ban") == bool(hand & BIT[banned]), key
        called_suit = SUIT_OF[banned]
        assert called_suit is not None
        assert not legal & SUIT_MASKS[called_suit] & ~BIT[banned]
    assert result.reason in LegalReason


@settings(max_examples=400, deadline=None)
@given(positions())
def test_6_every_legal_cards_message_is_true_of_its_hand(position: tuple[int, list[int], int | None]) -> None:
    hand, trick, called = position
    banned = called if not trick or trick == [EXCUSE] else None
    result = legal_cards(hand, trick, banned_lead=banned)
    check_true_of_hand(legal_message(result.reason, trick, banned, hand), hand, trick, banned)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(positions(), st.sampled_from(["en", "fr"]))
def test_6_the_service_says_the_message_of_the_hand_in_either_language(
    client: FlaskClient, position: tuple[int, list[int], int | None], language: str
) -> None:
    hand, trick, called = position
    players = 5 if called is not None else 4
    trick = trick[: players - 1]
    cards = [format_card(c) for c in range(78) if hand >> c & 1][: 24 if players == 3 else 18 if players == 4 else 15]
    hand = mask_of(c for c in range(78) if format_card(c) in cards)
    body: dict[str, Any] = {"players": players, "hand": cards, "trick": [format_card(c) for c in trick]}
    banned = None
    if called is not None:
        body |= {"called_card": format_card(called), "first_trick": True}
        banned = called
    answer = client.post("/v1/tricks/legal-cards", json=body, headers={"Accept-Language": language}).get_json()
    result = legal_cards(hand, trick, banned_lead=banned)
    message = legal_message(result.reason, trick, banned, hand)
    check_true_of_hand(message, hand, trick, banned)
    assert answer["message"] == render(message, language)
    offers_excuse = bool(hand & EXCUSE_BIT) and result.reason in OFFERING_THE_EXCUSE
    assert (EXCUSE_WORD[language] in answer["message"]) == offers_excuse, answer["message"]
