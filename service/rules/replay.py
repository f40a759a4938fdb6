"""The play of a deal (rules.md §2, §6, §7): every card checked as it falls, trick by trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import BIT, EXCUSE, EXCUSE_BIT, SUIT_OF, Card, CardMask, Suit
from .frozen import copied_by_constructor
from .play import Trick, best_card, clause, legal_cards, opening_ban, violation_message
from .record import DealContext, DealRecord
from .table import TABLES
from .variants import FirstLead
from .verdicts import CardName, Message, ViolationCode, msg

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

    A first reading keeps no account of faults and stops at the first one; only then is the
    play read again, with :class:`_Roots` telling root faults from their consequences
    (rules.md §12), so that a legal deal pays nothing for that bookkeeping.
    """
    played = _replay(deal, hands, taker, attack, None)
    if played is None:
        played = _replay(deal, hands, taker, attack, _Roots(deal))
        assert played is not None
    return played


_HAND_FAULTS = frozenset(
    {
        ViolationCode.HAND_SIZE,
        ViolationCode.DUPLICATE_CARD,
        ViolationCode.DISCARD_SIZE,
        ViolationCode.DISCARD_NOT_HELD,
        ViolationCode.DISCARD_KING_OR_BOUT,
        ViolationCode.DISCARD_TRUMP,
    }
)
"""Faults found before the play that leave a seat holding other cards than it plays from."""


class _Roots:
    """Which faults of the play are roots and which follow from one (rules.md §12).

    A seat's hand is *out of true* from the root fault that first touched it: a fault of its
    own (a card it does not hold, a card it may not play: it then holds a card it should have
    played, or lacks one it played), another seat playing one of its cards, or for the taker
    a fault of the deal or the discard. A fault follows from a root when the seat's hand is
    out of true, or when the seat answered, in the same trick, a lead out of turn or a card of
    a seat whose hand is out of true (the card it had to follow or beat may not belong
    there); any other fault is a root. A lead out of turn after the opening trick follows from
    the latest root that put a hand out of true, which may have changed who won a trick.
    """

    __slots__ = ("deal", "last", "led", "out")

    def __init__(self, deal: DealContext) -> None:
        self.deal = deal
        self.out: list[int | None] = [None] * deal.record.players
        """For each seat, the root fault that put its hand out of true, if any."""
        self.last: int | None = None
        """The latest root that put a hand out of true: a lead out of turn follows from it."""
        self.led: tuple[int, int] | None = None
        """The trick last led out of turn, and the root of that lead."""
        for i, v in enumerate(deal.violations):
            if v.code in _HAND_FAULTS and v.caused_by is None:
                self.last = i
                if v.seat is not None and self.out[v.seat] is None:
                    self.out[v.seat] = i

    def play_fault(
        self,
        code: ViolationCode,
        message: Message,
        trick: int,
        seat: int,
        card: Card,
        before: Sequence[int],
        legal: CardMask | None = None,
        owner: int | None = None,
    ) -> None:
        """Report a fault of ``seat``'s play, ``before`` the seats that played earlier to the
        trick; ``owner``, another seat, still holds the card played."""
        index = len(self.deal.violations)
        root = self.out[seat]
        if root is None and self.led is not None and self.led[0] == trick:
            root = self.led[1]
        if root is None and legal is not None:  # a card the seat holds, judged on what it answered
            root = next((self.out[s] for s in before if self.out[s] is not None), None)
        self.deal.report(code, message, trick=trick, seat=seat, card=card, legal=legal, caused_by=root)
        if root is None:
            root = self.last = index
        if self.out[seat] is None:
            self.out[seat] = root
        if owner is not None and self.out[owner] is None:
            self.out[owner] = root

    def lead_fault(self, trick: int, seat: int, card: Card, due: int) -> None:
        """Report ``seat`` leading ``trick`` in ``due``'s turn."""
        cause = self.last if trick else None
        index = len(self.deal.violations)
        self.deal.report(
            ViolationCode.WRONG_LEADER,
            msg("violation.wrong_leader", seat=seat, trick=trick, leader=due),
            trick=trick,
            seat=seat,
            card=card,
            caused_by=cause,
        )
        if cause is None:
            cause = self.last = index
        self.led = (trick, cause)
        if trick:
            # The trick before was not played as recorded: the card of the seat it makes the
            # winner, or of the seat that leads instead, is not what the record shows.
            for s in (seat, due):
                if self.out[s] is None:
                    self.out[s] = cause


def _leader_of(hands: list[CardMask], cards: Sequence[Card], due: int, n: int) -> int:
    """The seat from which the most cards of the trick are played by seats holding them;
    ``due`` on a tie (rules.md §12)."""

    def held(leader: int) -> int:
        return sum(hands[seat] >> card & 1 for seat, card in zip(_SEATS_FROM[n][leader], cards, strict=False))

    return max(_SEATS_FROM[n][due], key=held)


def _replay(
    deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int], roots: _Roots | None
) -> tuple[list[Trick], list[CardMask], NextPlay | None] | None:
    """:func:`replay`; with ``roots`` ``None``, ``None`` at the first fault."""
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
        # Once the play is faulty, each trick is read from the seat that makes the most of its
        # cards held by the seats playing them, the seat due on a tie (§12).
        if roots is not None and hands_known:
            holder = _leader_of(hands, cards, leader, n)
            if holder != leader:
                roots.lead_fault(index, holder, cards[0], leader)
                leader = holder
        in_trick = 0
        for seat, card in zip(_SEATS_FROM[n][leader], cards, strict=False):  # a trick in progress is short
            hand = hands[seat]
            bit = BIT[card]
            held = hand & bit
            if played & bit or not held:
                if roots is None:
                    return None
                code = (
                    ViolationCode.DUPLICATE_CARD if played & bit and not hands_known else ViolationCode.CARD_NOT_IN_HAND
                )
                played_twice = code is ViolationCode.DUPLICATE_CARD
                text = msg(
                    "violation.duplicate_card.played" if played_twice else "violation.card_not_in_hand",
                    seat=seat,
                    card=CardName(card),
                )
                # The seat still holding the card loses it: it can no longer play it.
                owner = next((s for s in range(n) if hands[s] & bit), None)
                before = _SEATS_FROM[n][leader][: in_trick.bit_count()]
                roots.play_fault(code, text, index, seat, card, before, owner=owner)
                if owner is not None:
                    hands[owner] &= ~bit
            # Until a suit is led any card may be played, but for the five-player opening ban:
            # such a lead is not put to clause(), which would say so at a call per lead.
            elif (suit is not None or ban is not None) and (
                broken := (rule := clause(hand, suit, top, ban, card)).breaks[card]
            ):
                if roots is None:
                    return None
                legal = hand & rule.cards
                before = _SEATS_FROM[n][leader][: in_trick.bit_count()]
                message = violation_message(broken, seat, card, legal, suit, top, ban)
                roots.play_fault(broken, message, index, seat, card, before, legal)
            hands[seat] = hand ^ bit if held else hand  # the card leaves the hand that held it
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


copied_by_constructor(NextPlay)
