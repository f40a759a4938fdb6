"""The play of a deal (rules.md §2, §6, §7): every card checked as it falls, trick by trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import EXCUSE, EXCUSE_BIT, SUIT_OF, Card, CardMask, Suit
from .play import Trick, best_card, card_violation, legal_cards, legal_for, opening_ban
from .record import DealContext, DealRecord
from .table import TABLES
from .variants import FirstLead
from .verdicts import Arg, CardCodes, CardName, Term, ViolationCode, msg

TRUMP_SUIT = Suit.TRUMPS  # one global lookup in the replay's inner loop, not two

_SEATS_FROM: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in TABLES
}
"""For each table size and leader, the seats in the order they play to the trick."""


@dataclass(frozen=True, slots=True)
class NextPlay:
    seat: int
    legal: CardMask | None
    """``None`` when the hands are not known."""


def first_leader(r: DealRecord, taker: int) -> int:
    if r.chelem_announced:
        return taker
    if r.rules.first_lead is FirstLead.AFTER_TAKER:
        return (taker + 1) % r.players
    return (r.dealer + 1) % r.players


def replay(
    deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int]
) -> tuple[list[Trick], list[CardMask], NextPlay | None]:
    """Play the cards trick by trick, checking each against the seat's hand (§2, §5, §6, §7).

    Returns the tricks, the cards of each as a mask (for the count), and who plays next.
    """
    r, table, n = deal.record, deal.table, deal.record.players
    hands = list(hands)
    hands_known = r.hands is not None
    plays = r.plays
    limit = n * table.tricks
    extra = len(plays) - limit
    plays = plays[:limit]
    played = 0
    tricks: list[Trick] = []
    trick_masks: list[CardMask] = []
    leader = first_leader(r, taker)
    side_won = [False, False]  # attack, defence: has won a trick so far
    opening = opening_ban(r.called_card, r.rules, first_trick=True)
    last_trick = table.tricks - 1
    for t in range(0, len(plays), n):
        index = t // n
        cards = plays[t : t + n]
        ban = opening if index == 0 else None
        suit: Suit | None = None  # the led suit and highest trump so far, kept as cards fall
        top: Card | None = None
        # The opening lead is the one lead the record does not fix by itself (later leaders
        # are the previous winners): a card led there by another seat is that seat leading
        # out of turn. At a later trick the record says whose turn it was, and a card that
        # seat does not hold is found below as card_not_in_hand, the rest of the deal unmoved.
        if index == 0 and hands_known and not hands[leader] >> cards[0] & 1:
            holder = next((s for s in range(n) if hands[s] >> cards[0] & 1), None)
            if holder is not None and holder != leader:
                deal.report(
                    ViolationCode.WRONG_LEADER,
                    msg("violation.wrong_leader", seat=holder, trick=index, leader=leader),
                    trick=index,
                    seat=holder,
                    card=cards[0],
                )
                leader = holder
        in_trick = 0
        for seat, card in zip(_SEATS_FROM[n][leader], cards, strict=False):  # a trick in progress is short
            hand = hands[seat]
            bit = 1 << card
            if played & bit or not hand & bit:
                code = (
                    ViolationCode.DUPLICATE_CARD if played & bit and not hands_known else ViolationCode.CARD_NOT_IN_HAND
                )
                played_twice = code is ViolationCode.DUPLICATE_CARD
                text = msg(
                    "violation.duplicate_card.played" if played_twice else "violation.card_not_in_hand",
                    seat=seat,
                    card=CardName(card),
                )
                deal.report(code, text, trick=index, seat=seat, card=card)
            # Until a suit is led any card may be played, but for the five-player opening ban.
            elif (suit is not None or ban is not None) and (broken := card_violation(hand, card, suit, top, ban)):
                legal = legal_for(hand, suit, top, ban).cards
                _illegal_card(deal, broken, index, seat, card, suit, top, ban, legal)
            hands[seat] = hand & ~bit
            played |= bit
            in_trick |= bit
            card_suit = SUIT_OF[card]
            if suit is None:
                suit = card_suit  # None again for the Excuse: the next card sets the suit
            if card_suit is TRUMP_SUIT and (top is None or card > top):
                top = card
        best = best_card(in_trick, suit)
        winner = None if best is None else (leader + cards.index(best)) % n
        if index == last_trick and in_trick & EXCUSE_BIT and len(cards) == n:
            winner = _last_trick_winner(r, cards, leader, attack, side_won, winner)
        tricks.append(Trick(leader, tuple(cards), winner))
        trick_masks.append(in_trick)
        if winner is not None and len(cards) == n:
            side_won[0 if winner in attack else 1] = True
            leader = winner
    if extra > 0:
        # Located after the last trick, so reported after the faults of the tricks.
        deal.report(
            ViolationCode.PLAYS_LENGTH, msg("violation.plays_length", limit + extra, limit=limit), trick=table.tricks
        )
    next_play = None
    if len(plays) < limit:
        current = list(tricks[-1].cards) if tricks and len(tricks[-1].cards) < n else []
        first = tricks[-1].leader if current else leader
        seat = (first + len(current)) % n
        legal_mask = None
        if hands_known:
            opening = len(tricks) <= 1 and (not tricks or len(tricks[0].cards) < n)
            ban = opening_ban(r.called_card, r.rules, first_trick=opening)
            legal_mask = legal_cards(hands[seat], current, banned_lead=ban).cards
        next_play = NextPlay(seat, legal_mask)
    return tricks, trick_masks, next_play


def _illegal_card(
    deal: DealContext,
    code: ViolationCode,
    trick: int,
    seat: int,
    card: Card,
    suit: Suit | None,
    top: Card | None,
    ban: Card | None,
    legal: CardMask,
) -> None:
    """Report ``card``, which breaks the rule ``code``: the led suit, the trump to beat or the
    called card are the specifics a player needs to see the fault."""
    said: dict[str, Arg] = {"seat": seat, "card": CardName(card), "legal": CardCodes(legal)}
    if code is ViolationCode.CALLED_SUIT_LEAD and ban is not None:
        message = msg("violation.called_suit_lead", called=CardName(ban), **said)
    elif code is ViolationCode.MUST_OVERTRUMP and top is not None:
        message = msg("violation.must_overtrump", top=CardName(top), **said)
    elif suit is Suit.TRUMPS:
        message = msg("violation.renounce.trump_lead", **said)
    else:
        assert suit is not None  # a plain suit was led: renounce or must_trump
        key = "violation.must_trump" if code is ViolationCode.MUST_TRUMP else "violation.renounce"
        message = msg(key, suit=Term("suit", suit.name.lower()), **said)
    deal.report(code, message, trick=trick, seat=seat, card=card, legal=legal)


def _last_trick_winner(
    r: DealRecord,
    cards: Sequence[Card],
    leader: int,
    attack: Sequence[int],
    side_won: list[bool],
    winner: int | None,
) -> int | None:
    """The last trick, with the Excuse in it: the chelem exception of §7. The Excuse takes
    the trick when its side won every other trick (announced, under that variant);
    otherwise ``winner``, the seat of the best card, takes it."""
    n = r.players
    seat = (leader + cards.index(EXCUSE)) % n
    own = 0 if seat in attack else 1
    swept = side_won[own] and not side_won[1 - own]
    allowed = not r.rules.excuse_chelem_requires_announce or (r.chelem_announced and own == 0)
    return seat if swept and allowed else winner
