"""The play of a deal (rules.md §2, §6, §7): every card checked as it falls, trick by trick.

:func:`replay` reads the play with a :class:`_Play`, in a few steps, each a method: the
set-up (the hands as play begins, the seat due to lead), each trick in turn (``trick``: who
led it, each card checked against its seat's hand and §6), the trick's winner
(``close_trick``, with the last trick's Excuse exception of §7), and the close (cards beyond
the deal, who plays next). A play with faults is read again, :class:`_Roots` attributing
them (rules.md §12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..messages import CardName, Message, msg
from .cards import BIT, EXCUSE, EXCUSE_BIT, SUIT_OF, Card, CardMask, Suit
from .frozen import copied_by_constructor
from .play import Trick, best_card, clause, legal_cards, opening_ban, violation_message
from .record import DealContext, DealRecord
from .table import TABLES
from .variants import FirstLead, Rules
from .verdicts import ViolationCode

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


Played = tuple[list[Trick], list[CardMask], NextPlay | None]
"""The play as read: the tricks, the cards of each as a mask (for the count), who plays next."""


def opening_leader(dealer: int, taker: int, players: int, chelem_announced: bool, rules: Rules) -> int:
    """Who leads the first trick (§2, §9.6): the taker after a chelem announced, else the seat
    the rules name (the dealer's next, or the taker's under a variant)."""
    if chelem_announced:
        return taker
    if rules.first_lead is FirstLead.AFTER_TAKER:
        return (taker + 1) % players
    return (dealer + 1) % players


def first_leader(r: DealRecord, taker: int) -> int:
    """Who leads the first trick of the deal ``r`` taken by ``taker``."""
    return opening_leader(r.dealer, taker, r.players, bool(r.chelem_announced), r.rules)


def replay(deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int]) -> Played:
    """Play the cards trick by trick, checking each against the seat's hand (§2, §5, §6, §7).

    Returns the tricks, the cards of each as a mask (for the count), and who plays next.

    A first reading keeps no account of faults and stops at the first one; only then is the
    play read again, with :class:`_Roots` telling root faults from their consequences
    (rules.md §12), so that a legal deal pays nothing for that bookkeeping.
    """
    played = _Play(deal, hands, taker, attack, None).read()
    if played is None:
        played = _Play(deal, hands, taker, attack, _Roots(deal)).read()
        assert played is not None
    return played


class _Play:
    """One reading of the play: what each trick hands on to the next.

    With ``roots`` ``None`` (the first reading) it stops at the first fault; else every fault
    is reported, and attributed by ``roots``.
    """

    __slots__ = (
        "attack",
        "deal",
        "hands",
        "hands_known",
        "last_trick",
        "leader",
        "n",
        "played",
        "roots",
        "side_won",
        "trick_masks",
        "tricks",
    )

    def __init__(
        self, deal: DealContext, hands: list[CardMask], taker: int, attack: Sequence[int], roots: _Roots | None
    ) -> None:
        """The set-up: the hands as play begins, and the seat due to lead (§2)."""
        self.deal = deal
        self.n = deal.record.players
        self.hands = list(hands)
        """Each seat's cards not played yet."""
        self.hands_known = deal.record.hands is not None
        self.attack = attack
        self.roots = roots
        self.last_trick = deal.table.tricks - 1
        self.leader = first_leader(deal.record, taker)
        """The seat leading the trick being read, then the next one."""
        self.played: CardMask = 0
        self.side_won = [False, False]
        """Attack, defence: whether the side has won a trick so far (for §7's Excuse exception)."""
        self.tricks: list[Trick] = []
        self.trick_masks: list[CardMask] = []

    def read(self) -> Played | None:
        """Every trick in turn, then the close; ``None`` at the first fault of a first reading."""
        r, n = self.deal.record, self.n
        plays = r.plays[: n * self.deal.table.tricks]
        opening = opening_ban(r.called_card, r.rules, first_trick=True)
        for t in range(0, len(plays), n):
            if not self.trick(t // n, plays[t : t + n], opening if t == 0 else None):
                return None
        return self.close()

    def trick(self, index: int, cards: tuple[Card, ...], ban: Card | None) -> bool:
        """Read trick ``index`` (short when in progress): who led it, each card checked against
        its seat's hand (§2) and §6 (``ban``: §5.3's, on the first trick), then its winner.
        ``False`` at a fault of a first reading."""
        roots, hands, played = self.roots, self.hands, self.played
        if roots is not None and self.hands_known:
            self.leader = roots.leader(hands, cards, self.leader, index)
        seats = _SEATS_FROM[self.n][self.leader]
        suit: Suit | None = None  # the led suit and highest trump so far, kept as cards fall
        top: Card | None = None
        in_trick = 0
        # By position, not zip(): compiled, a loop over enumerate() of a tuple runs natively, one
        # over zip(..., strict=False) through the interpreter's iterators (some 15 % of a deal).
        for i, card in enumerate(cards):  # a trick in progress is short
            seat = seats[i]
            hand = hands[seat]
            bit = BIT[card]
            held = hand & bit
            if played & bit or not held:
                if roots is None:
                    return False
                roots.card_not_held(index, seat, card, hands, twice=bool(played & bit) and not self.hands_known)
            # Until a suit is led any card may be played, but for the five-player opening ban:
            # such a lead is not put to clause(), which would say so at a call per lead.
            elif (suit is not None or ban is not None) and (
                broken := (rule := clause(hand, suit, top, ban, card)).breaks[card]
            ):
                if roots is None:
                    return False
                answered = seats[: in_trick.bit_count()]
                roots.illegal_card(broken, index, seat, card, answered, hand & rule.cards, suit, top, ban)
            hands[seat] = hand ^ bit if held else hand  # the card leaves the hand that held it
            played |= bit
            in_trick |= bit
            card_suit = SUIT_OF[card]
            if suit is None:
                suit = card_suit  # None again for the Excuse: the next card sets the suit
            if card_suit is TRUMP_SUIT and (top is None or card > top):
                top = card
        self.played = played
        self.close_trick(index, cards, in_trick, suit)
        return True

    def close_trick(self, index: int, cards: tuple[Card, ...], in_trick: CardMask, suit: Suit | None) -> None:
        """Trick ``index`` read: its winner (§7) takes it and, once it is complete, leads the next."""
        n, leader = self.n, self.leader
        best = best_card(in_trick, suit)
        winner = None if best is None else (leader + cards.index(best)) % n
        complete = len(cards) == n
        if complete and index == self.last_trick and in_trick & EXCUSE_BIT:
            winner = self.last_trick_winner(cards, winner)
        self.tricks.append(Trick(leader, cards, winner))
        self.trick_masks.append(in_trick)
        if winner is not None and complete:
            self.side_won[0 if winner in self.attack else 1] = True
            self.leader = winner

    def last_trick_winner(self, cards: tuple[Card, ...], winner: int | None) -> int | None:
        """The last trick, with the Excuse in it: the chelem exception of §7. The Excuse takes
        the trick when its side won every other trick (announced, under that variant);
        otherwise ``winner``, the seat of the best card, takes it."""
        r, side_won = self.deal.record, self.side_won
        seat = (self.leader + cards.index(EXCUSE)) % self.n
        own = 0 if seat in self.attack else 1
        swept = side_won[own] and not side_won[1 - own]
        allowed = not r.rules.excuse_chelem_requires_announce or (r.chelem_announced and own == 0)
        return seat if swept and allowed else winner

    def close(self) -> Played:
        """The play read: cards beyond the deal's (reported after the faults of the tricks, being
        located after them), or in a deal in progress who plays next."""
        r, tricks = self.deal.record, self.deal.table.tricks
        limit = self.n * tricks
        if len(r.plays) > limit:
            self.deal.report(
                ViolationCode.PLAYS_LENGTH, msg("violation.plays_length", len(r.plays), limit=limit), trick=tricks
            )
        return self.tricks, self.trick_masks, self.next_play() if len(r.plays) < limit else None

    def next_play(self) -> NextPlay:
        """In a deal in progress, the seat to play next and, hands known, its legal cards (§6;
        on the first trick, §5.3's ban)."""
        n, tricks = self.n, self.tricks
        current = list(tricks[-1].cards) if tricks and len(tricks[-1].cards) < n else []
        first = tricks[-1].leader if current else self.leader
        seat = (first + len(current)) % n
        legal_mask = None
        if self.deal.known[seat]:
            r = self.deal.record
            opening = len(tricks) <= 1 and (not tricks or len(tricks[0].cards) < n)
            ban = opening_ban(r.called_card, r.rules, first_trick=opening)
            legal_mask = legal_cards(self.hands[seat], current, banned_lead=ban).cards
        return NextPlay(seat, legal_mask)


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

    def leader(self, hands: list[CardMask], cards: Sequence[Card], due: int, trick: int) -> int:
        """The seat ``trick`` is read from: the one from which the most of its cards are played
        by seats holding them, ``due`` on a tie. If that is not ``due``, it led out of turn."""
        order = _SEATS_FROM[self.deal.record.players]

        def held(leader: int) -> int:
            return sum(hands[seat] >> card & 1 for seat, card in zip(order[leader], cards, strict=False))

        holder = max(order[due], key=held)
        if holder != due:
            self.lead_fault(trick, holder, cards[0], due)
        return holder

    def card_not_held(self, trick: int, seat: int, card: Card, hands: list[CardMask], *, twice: bool) -> None:
        """Report ``seat`` playing ``card``, which it does not hold (``twice``: a card played
        again, told so when the hands are not known). The seat still holding it loses it: it
        can no longer play it."""
        code = ViolationCode.DUPLICATE_CARD if twice else ViolationCode.CARD_NOT_IN_HAND
        key = "violation.duplicate_card.played" if twice else "violation.card_not_in_hand"
        bit = BIT[card]
        owner = next((s for s in range(self.deal.record.players) if hands[s] & bit), None)
        self.play_fault(code, msg(key, seat=seat, card=CardName(card)), trick, seat, card, owner=owner)
        if owner is not None:
            hands[owner] &= ~bit

    def illegal_card(
        self,
        code: ViolationCode,
        trick: int,
        seat: int,
        card: Card,
        answered: Sequence[int],
        legal: CardMask,
        suit: Suit | None,
        top: Card | None,
        ban: Card | None,
    ) -> None:
        """Report ``card``, held but breaking the rule ``code`` of §6 (or §5.3), in answer to the
        cards of the seats ``answered``; ``legal``, the cards the seat could play."""
        message = violation_message(code, seat, card, legal, suit, top, ban)
        self.play_fault(code, message, trick, seat, card, answered, legal)

    def play_fault(
        self,
        code: ViolationCode,
        message: Message,
        trick: int,
        seat: int,
        card: Card,
        answered: Sequence[int] = (),
        legal: CardMask | None = None,
        owner: int | None = None,
    ) -> None:
        """Report a fault of ``seat``'s play, which puts its hand out of true, and that of
        ``owner``, another seat still holding the card played."""
        root = self.cause(trick, seat, answered)
        index = len(self.deal.violations)
        self.deal.report(code, message, trick=trick, seat=seat, card=card, legal=legal, caused_by=root)
        if root is None:
            root = self.last = index
        if self.out[seat] is None:
            self.out[seat] = root
        if owner is not None and self.out[owner] is None:
            self.out[owner] = root

    def cause(self, trick: int, seat: int, answered: Sequence[int]) -> int | None:
        """The root a fault of ``seat`` in ``trick`` follows from; ``None`` when it is a root.

        The root that put the seat's hand out of true; else, in a trick led out of turn, that
        lead's root; else, for a card judged on what it answered (``answered``: the seats that
        played before it), the root of the first of them whose hand is out of true."""
        root = self.out[seat]
        if root is None and self.led is not None and self.led[0] == trick:
            root = self.led[1]
        if root is None:
            root = next((self.out[s] for s in answered if self.out[s] is not None), None)
        return root

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


copied_by_constructor(NextPlay)
