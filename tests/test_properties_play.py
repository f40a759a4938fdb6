"""Hypothesis properties of §6 and §7 on arbitrary hands and tricks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.cards import EXCUSE, EXCUSE_BIT, RANK_OF, SUIT_MASKS, SUIT_OF, TRUMPS, Suit, iter_cards, mask_of
from service.rules.play import (
    LegalReason,
    card_violation,
    clause,
    highest_trump,
    led_suit,
    legal_cards,
    legal_for,
    trick_winner,
)
from service.rules.verdicts import ViolationCode


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, list[int], int | None]:
    players = draw(st.sampled_from([3, 4, 5]))
    deck = draw(st.permutations(range(78)))
    trick_len = draw(st.integers(0, players - 1))
    hand_len = draw(st.integers(1, 24))
    trick = list(deck[:trick_len])
    hand = mask_of(deck[trick_len : trick_len + hand_len])
    banned = draw(st.none() | st.sampled_from([c for c in range(56) if RANK_OF[c] > 10]))
    return hand, trick, banned


@st.composite
def opening_leads(draw: st.DrawFn) -> tuple[int, list[int], int | None]:
    """Five-player opening leads from hands mostly of the called suit: where §5.3's ban lifts.

    Hands drawn from the whole deck almost never hold one suit alone; these do, with or
    without the called card, the Excuse or one other card.
    """
    banned = draw(st.sampled_from([c for c in range(56) if RANK_OF[c] > 10]))
    suit = SUIT_OF[banned]
    assert suit is not None
    of_suit = [c for c in iter_cards(SUIT_MASKS[suit])]
    hand = mask_of(draw(st.lists(st.sampled_from(of_suit), min_size=1, max_size=6, unique=True)))
    extra = draw(st.sampled_from([None, EXCUSE, *[c for c in range(78) if SUIT_OF[c] is not suit]]))
    if extra is not None:
        hand |= 1 << extra
    trick = draw(st.sampled_from([[], [EXCUSE]])) if not hand & EXCUSE_BIT else []
    return hand, trick, banned


@given(positions())
def test_legal_set_is_a_non_empty_subset_of_the_hand(pos: tuple[int, list[int], int | None]) -> None:
    hand, trick, banned = pos
    result = legal_cards(hand, trick, banned_lead=banned)
    assert result.cards
    assert result.cards & ~hand == 0


@given(positions())
def test_the_excuse_is_always_legal(pos: tuple[int, list[int], int | None]) -> None:
    hand, trick, _ = pos
    if hand & EXCUSE_BIT:
        assert legal_cards(hand, trick).cards & EXCUSE_BIT


@given(positions())
def test_following_suit_is_forced_when_possible(pos: tuple[int, list[int], int | None]) -> None:
    hand, trick, _ = pos
    suit = led_suit(trick)
    result = legal_cards(hand, trick).cards & ~EXCUSE_BIT
    if suit is not None and hand & SUIT_MASKS[suit]:
        assert result & ~SUIT_MASKS[suit] == 0
    elif suit is not None and hand & TRUMPS:
        assert result & ~TRUMPS == 0


@given(st.integers(1, 5).flatmap(lambda n: st.permutations(range(78)).map(lambda d: list(d[:n]))))
def test_winner_is_highest_trump_else_highest_of_led_suit(trick: list[int]) -> None:
    index = trick_winner(trick)
    real = [c for c in trick if c != EXCUSE]
    if not real:
        assert index is None
        return
    assert index is not None
    winner = trick[index]
    assert winner != EXCUSE, "the Excuse never wins a trick here"
    trumps = [c for c in real if SUIT_OF[c] is Suit.TRUMPS]
    if trumps:
        assert winner == max(trumps)
    else:
        suit = led_suit(trick)
        assert winner == max(c for c in real if SUIT_OF[c] is suit)


@settings(max_examples=500)
@given(positions())
def test_card_violation_agrees_with_the_legal_set(pos: tuple[int, list[int], int | None]) -> None:
    # §6 for one card must give the answer of the whole legal set, card by card, and name the
    # rule the set's reason states. The two read one clause, but the fault check lets the card
    # played show what the hand holds: this holds that shortcut to the whole hand's answer.
    agree_card_by_card(*pos)


@given(opening_leads())
def test_card_violation_agrees_with_the_legal_set_on_opening_leads(pos: tuple[int, list[int], int | None]) -> None:
    agree_card_by_card(*pos)


def agree_card_by_card(hand: int, trick: list[int], banned: int | None) -> None:
    suit, top = led_suit(trick), highest_trump(trick)
    legal = legal_for(hand, suit, top, banned)
    for card in iter_cards(hand):
        fault = card_violation(hand, card, suit, top, banned)
        assert (fault is None) == bool(legal.cards >> card & 1), card
        if fault is not None:
            assert fault is expected_fault(legal.reason, card, suit), (card, legal.reason)


def expected_fault(reason: LegalReason, card: int, suit: Suit | None) -> ViolationCode:
    """The violation a card outside the legal set commits, from the reason that decided the set."""
    if reason is LegalReason.CALLED_SUIT_BAN:
        return ViolationCode.CALLED_SUIT_LEAD
    if reason is LegalReason.FOLLOW:
        return ViolationCode.RENOUNCE
    if SUIT_OF[card] is Suit.TRUMPS:
        assert reason is LegalReason.OVERTRUMP
        return ViolationCode.MUST_OVERTRUMP
    return ViolationCode.RENOUNCE if suit is Suit.TRUMPS else ViolationCode.MUST_TRUMP


def reference(hand: int, trick: list[int], banned: int | None) -> tuple[set[int], str, dict[int, ViolationCode]]:
    """§6 (and §5.3) read literally, card by card, as a player would: the legal cards, the
    reason, and the fault of each card of the hand that is not legal."""
    cards = set(iter_cards(hand))
    excuse = cards & {EXCUSE}
    real = [c for c in trick if c != EXCUSE]
    led = SUIT_OF[real[0]] if real else None
    if led is None:  # 6.2
        if banned is not None:
            called = {c for c in cards if SUIT_OF[c] is SUIT_OF[banned]}
            barred = called - {banned}
            if barred and cards - called:  # something else to lead, the Excuse included
                return cards - barred, "called_suit_ban", dict.fromkeys(barred, ViolationCode.CALLED_SUIT_LEAD)
        return cards, "lead", {}
    of_led = {c for c in cards if SUIT_OF[c] is led}
    if led is not Suit.TRUMPS and of_led:  # 6.3
        return of_led | excuse, "follow", dict.fromkeys(cards - of_led - excuse, ViolationCode.RENOUNCE)
    mine = {c for c in cards if SUIT_OF[c] is Suit.TRUMPS}
    if not mine:  # 6.5
        return cards, "discard", {}
    # 6.4: a card other than a trump is a renounce on a trump lead, a failure to trump otherwise
    others = dict.fromkeys(
        cards - mine - excuse, ViolationCode.RENOUNCE if led is Suit.TRUMPS else ViolationCode.MUST_TRUMP
    )
    down = [c for c in trick if SUIT_OF[c] is Suit.TRUMPS]
    if not down:
        return mine | excuse, "trump", others
    higher = {c for c in mine if c > max(down)}
    if higher:
        return higher | excuse, "overtrump", others | dict.fromkeys(mine - higher, ViolationCode.MUST_OVERTRUMP)
    return mine | excuse, "undertrump", others


@settings(max_examples=500)
@given(positions())
def test_legal_cards_and_faults_read_6_as_written(pos: tuple[int, list[int], int | None]) -> None:
    # The generator and the fault check, against a literal reading of the rulebook.
    hold_to_reference(*pos)


@given(opening_leads())
def test_legal_cards_and_faults_read_5_3_as_written(pos: tuple[int, list[int], int | None]) -> None:
    hold_to_reference(*pos)


def hold_to_reference(hand: int, trick: list[int], banned: int | None) -> None:
    legal, reason, faults = reference(hand, trick, banned)
    got = legal_cards(hand, trick, banned_lead=banned)
    assert (set(iter_cards(got.cards)), got.reason.value) == (legal, reason)
    suit, top = led_suit(trick), highest_trump(trick)
    for card in iter_cards(hand):
        assert card_violation(hand, card, suit, top, banned) == faults.get(card), card
        # The replay's question: the clause, told the card played (it shows its suit).
        assert clause(hand, suit, top, banned, card).breaks[card] == faults.get(card), card
