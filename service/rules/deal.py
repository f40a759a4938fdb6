"""Evaluating a whole deal: validation, tricks, the Excuse settlement, points and score.

:func:`evaluate_deal` replays a deal record (complete or in progress) against rules.md and
reports every fault it finds, in deal order, with the trick and seat where it happened. When
the record has no hands, they are inferred from the plays: a seat's hand at any trick is the
cards it plays from then on, so a revoke (a seat that failed to follow and later shows a card
of that suit) is found exactly as with the hands given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from .cards import (
    EXCUSE,
    EXCUSE_BIT,
    FULL_DECK,
    JACK,
    KING,
    KINGS,
    OUDLERS,
    PETIT,
    RANK_OF,
    SUIT_OF,
    TRUMPS,
    Card,
    CardMask,
    Suit,
    count,
    format_card,
    half_points_of,
    iter_cards,
    mask_of,
    suit_card,
)
from .cards import PLAIN_SUITS as SUITS
from .play import best_card, card_fault, legal_cards, legal_for, opening_ban, trick_winner
from .scoring import Contract, PoigneeSize, Score, Side, Summary, score
from .table import TABLES, Table
from .variants import FFT, ExcuseLastTrick, FirstLead, Rules
from .verdicts import RedealReason, ViolationCode

TRUMP_SUIT = Suit.TRUMPS  # one global lookup in the replay's inner loop, not two

_SEATS_FROM: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in TABLES
}
"""For each table size and leader, the seats in the order they play to the trick."""


class Status(StrEnum):
    COMPLETE = "complete"
    IN_PROGRESS = "in_progress"
    REDEAL = "redeal"
    """Every seat passed, or a petit sec was dealt: the cards are dealt again."""


class ExcuseOutcome(StrEnum):
    """What became of the Excuse (rules.md §7, §8)."""

    RETURNED = "returned"
    """Played before the last trick: it goes back to its owner's side."""
    CHANGED_SIDE = "changed_side"
    """Played to the last trick outside the chelem case: it goes to the other side."""
    KEPT_IN_LAST_TRICK = "kept_in_last_trick"
    """Variant ``excuse_last_trick = trick_winner``: its own side won the last trick."""
    TOOK_LAST_TRICK = "took_last_trick"
    """Played to the last trick by a side that won every earlier trick: it wins that trick."""
    IN_DOG = "in_dog"
    IN_DISCARD = "in_discard"
    NOT_PLAYED = "not_played"


@dataclass(frozen=True, slots=True)
class Violation:
    """One fault of a deal record, located at a trick and seat where that applies."""

    code: ViolationCode
    message: str
    trick: int | None = None
    seat: int | None = None
    card: Card | None = None
    legal: CardMask | None = None
    """For a card played illegally: the cards that seat could legally play."""


@dataclass(frozen=True, slots=True)
class PoigneeShown:
    """A poignée as declared: the seat and the cards it showed."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A serialized deal, as a client sends it (cards already parsed)."""

    players: int
    dealer: int
    plays: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None
    """Each seat's hand as dealt; ``None`` to infer the hands from a complete deal's plays."""
    dog: tuple[Card, ...] | None = None
    contract: Contract | None = None
    taker: int | None = None
    bids: tuple[Contract | None, ...] | None = None
    """One bid per seat in speaking order from the dealer's right; ``None`` is a pass."""
    called_card: Card | None = None
    discard: tuple[Card, ...] | None = None
    chelem_announced: bool = False
    poignees: tuple[PoigneeShown, ...] = ()
    rules: Rules = FFT


class Trick(NamedTuple):
    """A trick as played (une levée). A named tuple: the replay makes one per trick, and a
    tuple is made several times faster than a frozen dataclass."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    """``None`` until a card other than the Excuse is played."""

    def seat_of(self, card: Card, players: int) -> int:
        """The seat that played ``card`` to this trick."""
        return (self.leader + self.cards.index(card)) % players


@dataclass(frozen=True, slots=True)
class ExcuseExchange:
    """The half point owed for an Excuse returned from a trick the other side won (§8.1–2)."""

    from_side: Side
    to_side: Side
    paid_at_trick: int | None
    """The trick at which the owner's side paid with a 0.5-point card; ``None`` if it never
    won a trick and the debt was settled on paper (the Excuse then counts 4 for it)."""


@dataclass(frozen=True, slots=True)
class ExcuseSettlement:
    outcome: ExcuseOutcome
    played_by: int | None = None
    trick: int | None = None
    kept_by: Side | None = None
    exchange: ExcuseExchange | None = None


@dataclass(frozen=True, slots=True)
class PoigneeResult:
    seat: int
    side: Side
    size: PoigneeSize


@dataclass(frozen=True, slots=True)
class NextPlay:
    seat: int
    legal: CardMask | None
    """``None`` when the hands are not known."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The verdict on a deal. A redeal fills only the first four fields and ``redeal_reason``."""

    status: Status
    valid: bool
    violations: tuple[Violation, ...]
    chelem_announced: bool
    taker: int | None = None
    contract: Contract | None = None
    partner: int | None = None
    attack: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    excuse: ExcuseSettlement | None = None
    points_half: tuple[int, int] | None = None
    """Card points of the attack and the defence after the Excuse settlement (complete deals)."""
    oudlers: tuple[int, int] | None = None
    petit_au_bout: Side | None = None
    chelem_made_by: Side | None = None
    poignees: tuple[PoigneeResult, ...] = ()
    score: Score | None = None
    next: NextPlay | None = None
    redeal_reason: RedealReason | None = None


@dataclass
class _Deal:
    """Working state of one evaluation."""

    record: DealRecord
    table: Table
    violations: list[Violation] = field(default_factory=list)

    def fault(
        self,
        code: ViolationCode,
        message: str,
        *,
        trick: int | None = None,
        seat: int | None = None,
        card: Card | None = None,
        legal: CardMask | None = None,
    ) -> None:
        self.violations.append(Violation(code, message, trick, seat, card, legal))


def _codes(mask: CardMask) -> str:
    return " ".join(format_card(c) for c in iter_cards(mask))


def evaluate_deal(record: DealRecord) -> Evaluation:
    """Evaluate a deal record against the rules (rules.md §2–§9)."""
    n = record.players
    table = TABLES[n]
    deal = _Deal(record, table)

    dealt = _check_dealt_hands(deal)
    petit_sec = _petit_sec_seat(deal, dealt)
    after_deal = len(deal.violations)
    contract, taker = _contract_and_taker(deal)
    if contract is None or taker is None:
        return _redeal(deal, RedealReason.ALL_PASSED if petit_sec is None else RedealReason.PETIT_SEC)
    if petit_sec is not None:
        # The deal went on although it had to be dealt again: a fault of the deal itself.
        deal.violations.insert(
            after_deal,
            Violation(
                ViolationCode.PETIT_SEC,
                f"Seat {petit_sec} was dealt a petit sec: the deal had to be dealt again.",
                None,
                petit_sec,
            ),
        )

    hands = _play_hands(deal, dealt, contract, taker)
    partner = _partner(deal, dealt or hands, taker)
    attack = (taker,) if partner is None else tuple(sorted({taker, partner}))
    _check_call(deal, dealt, taker)
    discard = _check_discard(deal, dealt, hands, contract, taker)
    poignees = _check_poignees(deal, hands, taker, attack)

    tricks, trick_masks, next_play = _replay(deal, hands, taker, attack)
    complete = len(tricks) == table.tricks and len(tricks[-1].cards) == n
    status = Status.COMPLETE if complete else Status.IN_PROGRESS
    valid = not deal.violations
    chelem_made_by: Side | None = None
    excuse = None
    points = oudlers = None
    petit_au_bout = None
    result = None
    side_of = [Side.ATTACK if s in attack else Side.DEFENCE for s in range(n)]
    if complete:
        winners = [side_of[t.winner] for t in tricks if t.winner is not None]
        if len(set(winners)) == 1 and len(winners) == table.tricks:
            chelem_made_by = winners[0]
        excuse, points, oudlers = _count(deal, tricks, trick_masks, side_of, contract, discard)
        petit_au_bout = petit_au_bout_side(tricks, side_of, excuse)
        if valid:
            result = score(
                Summary(
                    players=n,
                    contract=contract,
                    taker=taker,
                    partner=partner,
                    points_half=points[0],
                    oudlers=oudlers[0],
                    petit_au_bout=petit_au_bout,
                    poignees=tuple((p.side, p.size) for p in poignees),
                    chelem_announced=record.chelem_announced,
                    chelem_made_by=chelem_made_by,
                )
            )
    elif tricks:
        excuse = _excuse_so_far(tricks, side_of, record.rules, table.tricks - 1)
    return Evaluation(
        status=status,
        valid=valid,
        violations=tuple(deal.violations),
        taker=taker,
        contract=contract,
        partner=partner,
        attack=attack,
        tricks=tuple(tricks),
        excuse=excuse,
        points_half=points,
        oudlers=oudlers,
        petit_au_bout=petit_au_bout,
        chelem_announced=record.chelem_announced,
        chelem_made_by=chelem_made_by,
        poignees=tuple(poignees),
        score=result,
        next=None if complete else next_play,
    )


def _redeal(deal: _Deal, reason: RedealReason) -> Evaluation:
    r = deal.record
    if r.plays:
        deal.fault(ViolationCode.PLAYS_LENGTH, "Cards were played in a deal that had to be dealt again.", trick=0)
    return Evaluation(
        status=Status.REDEAL,
        valid=not deal.violations,
        violations=tuple(deal.violations),
        chelem_announced=r.chelem_announced,
        redeal_reason=reason,
    )


# --- the deal and the auction -------------------------------------------------------------


def _check_dealt_hands(deal: _Deal) -> list[CardMask] | None:
    """The dealt hands as masks, after checking sizes and that no card is dealt twice."""
    r, table = deal.record, deal.table
    if r.hands is None:
        return None
    seen = 0
    masks = []
    for seat, hand in enumerate(r.hands):
        if len(hand) != table.hand_size:
            deal.fault(
                ViolationCode.HAND_SIZE, f"Seat {seat} was dealt {len(hand)} cards, not {table.hand_size}.", seat=seat
            )
        mask = mask_of(hand)
        if mask & seen or mask.bit_count() != len(hand):  # some card dealt twice: say which
            for card in hand:
                if seen >> card & 1:
                    deal.fault(
                        ViolationCode.DUPLICATE_CARD, f"{format_card(card)} is dealt twice.", seat=seat, card=card
                    )
                seen |= 1 << card
        seen |= mask
        masks.append(mask)
    if r.dog is not None:
        if len(r.dog) != table.dog_size:
            deal.fault(ViolationCode.HAND_SIZE, f"The dog holds {len(r.dog)} cards, not {table.dog_size}.")
        for card in r.dog:
            if seen >> card & 1:
                deal.fault(ViolationCode.DUPLICATE_CARD, f"{format_card(card)} is dealt twice.", card=card)
            seen |= 1 << card
    return masks


def _is_petit_sec(hand: CardMask, rules: Rules) -> bool:
    if hand & TRUMPS != 1 << PETIT:
        return False
    return rules.petit_sec_ignores_excuse or not hand & EXCUSE_BIT


def _petit_sec_seat(deal: _Deal, dealt: list[CardMask] | None) -> int | None:
    for seat, hand in enumerate(dealt or ()):
        if _is_petit_sec(hand, deal.record.rules):
            return seat
    return None


def _contract_and_taker(deal: _Deal) -> tuple[Contract | None, int | None]:
    """The contract and taker, from the bids when given (§3)."""
    r, n = deal.record, deal.record.players
    if r.bids is None:
        return r.contract, r.taker
    if len(r.bids) != n:
        deal.fault(
            ViolationCode.BID_ORDER, f"Each of the {n} seats speaks exactly once; {len(r.bids)} bids were given."
        )
    best: Contract | None = None
    taker: int | None = None
    for i, bid in enumerate(r.bids[:n]):
        seat = (r.dealer + 1 + i) % n
        if bid is None:
            continue
        if best is not None and bid.rank <= best.rank:
            deal.fault(
                ViolationCode.BID_NOT_HIGHER,
                f"Seat {seat} bid {bid.value}, not higher than the {best.value} already bid.",
                seat=seat,
            )
            continue
        best, taker = bid, seat
    if r.contract is not None and best is not None and (r.contract, r.taker) != (best, taker):
        deal.fault(
            ViolationCode.BID_ORDER, f"The bids make seat {taker} the taker in {best.value}, not what the record says."
        )
    return best, taker


# --- hands at play time, the call, the discard and the poignées -------------------------


def _play_hands(deal: _Deal, dealt: list[CardMask] | None, contract: Contract, taker: int) -> list[CardMask]:
    """Each seat's hand when play starts (the taker's after the dog and the discard).

    With no hands in the record, a seat's hand is the cards it plays (all of them, in a
    complete deal).
    """
    r, n = deal.record, deal.record.players
    if dealt is None:
        hands = [0] * n
        leader = _first_leader(r, taker)
        for i, card in enumerate(r.plays[: n * deal.table.tricks]):
            trick, pos = divmod(i, n)
            # Each trick is led by the previous one's winner; the chelem exception concerns
            # only the last trick, which leads nothing, so plain trick_winner is enough here.
            if pos == 0 and trick:
                previous = r.plays[(trick - 1) * n : trick * n]
                index = trick_winner(previous)
                leader = (leader + (index or 0)) % n
            hands[(leader + pos) % n] |= 1 << card
        return hands
    hands = list(dealt)
    if contract.dog_to_taker:
        hands[taker] |= mask_of(r.dog or ())
        hands[taker] &= ~mask_of(r.discard or ())
    return hands


def _partner(deal: _Deal, hands: Sequence[CardMask], taker: int) -> int | None:
    """Five players: the holder of the called card, unless it is the taker or in the dog (§5).

    ``hands`` are the dealt hands, or without them the cards each seat played.
    """
    r = deal.record
    if r.players != 5 or r.called_card is None:
        return None
    holder = next((s for s, hand in enumerate(hands) if hand >> r.called_card & 1), None)
    return None if holder == taker else holder


def _check_call(deal: _Deal, dealt: list[CardMask] | None, taker: int) -> None:
    """A king is called; holding all four kings, a queen; and so on down to a jack (§5)."""
    r = deal.record
    if r.players != 5 or r.called_card is None or dealt is None:
        return
    hand = dealt[taker]
    lowest_allowed = KING
    while lowest_allowed > JACK and all(hand >> suit_card(s, lowest_allowed) & 1 for s in SUITS):
        lowest_allowed -= 1
    rank = RANK_OF[r.called_card]
    if rank < lowest_allowed:
        deal.fault(
            ViolationCode.BAD_CALL,
            f"The taker may call {format_card(r.called_card)} only when holding all four cards of each higher rank.",
            seat=taker,
            card=r.called_card,
        )


def _check_discard(
    deal: _Deal, dealt: list[CardMask] | None, hands: Sequence[CardMask], contract: Contract, taker: int
) -> CardMask:
    """The écart (§4): its size, cards held, no king or oudler, trumps only when unavoidable."""
    r, table = deal.record, deal.table
    discard = mask_of(r.discard or ())
    if not contract.dog_to_taker:
        if discard:
            deal.fault(ViolationCode.DISCARD_SIZE, f"No discard is made in {contract.value}.", seat=taker)
        return 0
    if r.discard is None:
        if dealt is None:
            # Complete deal without hands: the discard is every card not played.
            return FULL_DECK & ~mask_of(r.plays)
        deal.fault(ViolationCode.DISCARD_SIZE, "The record has no discard.", seat=taker)
        return 0
    if len(r.discard) != table.dog_size or count(discard) != len(r.discard):
        deal.fault(
            ViolationCode.DISCARD_SIZE, f"The discard holds {len(r.discard)} cards, not {table.dog_size}.", seat=taker
        )
    # Hand and dog as the taker saw them; without dealt hands, what he played and discarded.
    available = dealt[taker] | mask_of(r.dog or ()) if dealt is not None else hands[taker] | discard
    for card in iter_cards(discard & ~available):
        deal.fault(
            ViolationCode.DISCARD_NOT_HELD,
            f"{format_card(card)} is not in the taker's hand or the dog.",
            seat=taker,
            card=card,
        )
    for card in iter_cards(discard & (KINGS | OUDLERS)):
        deal.fault(
            ViolationCode.DISCARD_KING_OR_BOUT, f"{format_card(card)} may not be discarded.", seat=taker, card=card
        )
    trumps = discard & TRUMPS & ~OUDLERS
    if trumps:
        plain = count(available & ~TRUMPS & ~KINGS & ~EXCUSE_BIT)
        missing = max(0, table.dog_size - plain)
        if count(trumps) > missing:
            for card in iter_cards(trumps):
                deal.fault(
                    ViolationCode.DISCARD_TRUMP,
                    f"{format_card(card)}: trumps are discarded only when unavoidable ({missing} needed).",
                    seat=taker,
                    card=card,
                )
    return discard


def _check_poignees(deal: _Deal, hands: list[CardMask], taker: int, attack: Sequence[int]) -> list[PoigneeResult]:
    """Each poignée (§9): a tier's exact count of trumps the seat holds; the Excuse only as a last resort."""
    r, table = deal.record, deal.table
    out: list[PoigneeResult] = []
    seen_seats: set[int] = set()
    for p in r.poignees:
        shown = mask_of(p.cards)
        if p.seat in seen_seats or count(shown) != len(p.cards):
            deal.fault(
                ViolationCode.POIGNEE_DUPLICATE,
                f"Seat {p.seat} shows a poignée twice or a card twice.",
                seat=p.seat,
                trick=0,
            )
            continue
        seen_seats.add(p.seat)
        if len(p.cards) not in table.poignee_sizes:
            deal.fault(
                ViolationCode.POIGNEE_SIZE,
                f"Seat {p.seat} showed {len(p.cards)} cards; a poignée is {'/'.join(map(str, table.poignee_sizes))}.",
                seat=p.seat,
                trick=0,
            )
            continue
        hand = hands[p.seat]  # as play starts: the taker's after the discard
        showable = hand
        if p.seat == taker:
            # A taker who had to discard trumps may show them again (§9); they are no longer
            # held, so not showing them does not bar the Excuse.
            showable |= mask_of(r.discard or ()) & TRUMPS
        bad = shown & ~((TRUMPS | EXCUSE_BIT) & showable)
        if bad:
            card = next(iter_cards(bad))
            deal.fault(
                ViolationCode.POIGNEE_CARD,
                f"{format_card(card)} is not a trump seat {p.seat} holds.",
                seat=p.seat,
                card=card,
                trick=0,
            )
            continue
        if shown & EXCUSE_BIT and hand & TRUMPS & ~shown:
            deal.fault(
                ViolationCode.POIGNEE_EXCUSE,
                "The Excuse stands in for a trump only when the player has no other trump to show.",
                seat=p.seat,
                card=EXCUSE,
                trick=0,
            )
            continue
        size = list(PoigneeSize)[table.poignee_sizes.index(len(p.cards))]
        out.append(PoigneeResult(p.seat, Side.ATTACK if p.seat in attack else Side.DEFENCE, size))
    return out


# --- the play ------------------------------------------------------------------------------


def _first_leader(r: DealRecord, taker: int) -> int:
    if r.chelem_announced:
        return taker
    if r.rules.first_lead is FirstLead.AFTER_TAKER:
        return (taker + 1) % r.players
    return (r.dealer + 1) % r.players


def _replay(
    deal: _Deal, hands: list[CardMask], taker: int, attack: Sequence[int]
) -> tuple[list[Trick], list[CardMask], NextPlay | None]:
    """Play the cards trick by trick, checking each against the seat's hand (§2, §5, §6, §7).

    Returns the tricks, the cards of each as a mask (for the count), and who plays next.
    """
    r, table, n = deal.record, deal.table, deal.record.players
    hands = list(hands)
    hands_known = r.hands is not None
    plays = r.plays
    limit = n * table.tricks
    if len(plays) > limit:
        deal.fault(
            ViolationCode.PLAYS_LENGTH, f"{len(plays)} cards were played; a deal has {limit}.", trick=table.tricks
        )
        plays = plays[:limit]
    played = 0
    tricks: list[Trick] = []
    trick_masks: list[CardMask] = []
    leader = _first_leader(r, taker)
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
                deal.fault(
                    ViolationCode.WRONG_LEADER,
                    f"Seat {holder} led trick {index}; seat {leader} had to lead it.",
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
                deal.fault(code, f"Seat {seat} does not hold {format_card(card)}.", trick=index, seat=seat, card=card)
            # Until a suit is led any card may be played, but for the five-player opening ban.
            elif (suit is not None or ban is not None) and (broken := card_fault(hand, card, suit, top, ban)):
                _illegal_card(deal, broken, index, seat, card, suit, legal_for(hand, suit, top, ban).cards)
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


_BROKEN = {
    ViolationCode.CALLED_SUIT_LEAD: "led the called suit on the opening lead",
    ViolationCode.MUST_TRUMP: "did not trump",
    ViolationCode.MUST_OVERTRUMP: "did not overtrump",
}


def _illegal_card(
    deal: _Deal, code: ViolationCode, trick: int, seat: int, card: Card, suit: Suit | None, legal: CardMask
) -> None:
    """Report ``card``, which breaks the rule ``code`` (``suit``: the trick's led suit before it)."""
    what = _BROKEN.get(code) or (
        "did not play a trump on a trump lead" if suit is TRUMP_SUIT else "did not follow suit"
    )
    deal.fault(
        code,
        f"Seat {seat} {what} with {format_card(card)}; legal: {_codes(legal)}.",
        trick=trick,
        seat=seat,
        card=card,
        legal=legal,
    )


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


# --- counting ------------------------------------------------------------------------------


def _count(
    deal: _Deal,
    tricks: Sequence[Trick],
    trick_masks: Sequence[CardMask],
    side_of: Sequence[Side],
    contract: Contract,
    discard: CardMask,
) -> tuple[ExcuseSettlement, tuple[int, int], tuple[int, int]]:
    """Card points and oudlers of each side after the Excuse settlement (§8, §9)."""
    r = deal.record
    won = [0, 0]  # cards won by attack, defence
    for t, cards in zip(tricks, trick_masks, strict=True):
        assert t.winner is not None
        won[side_of[t.winner] is Side.DEFENCE] |= cards
    dog = _dog(r, tricks, discard, contract)
    if contract is Contract.GARDE_SANS:
        won[0] |= dog
    elif contract is Contract.GARDE_CONTRE:
        won[1] |= dog
    else:
        won[0] |= discard
    excuse = _settle_excuse(deal, tricks, side_of, contract, discard, dog)
    # Move the Excuse to the side that keeps it, then the half-point exchange.
    for s in (0, 1):
        won[s] &= ~EXCUSE_BIT
    adjust = [0, 0]
    if excuse.kept_by is not None:
        won[excuse.kept_by is Side.DEFENCE] |= EXCUSE_BIT
    if excuse.exchange is not None:
        adjust[excuse.exchange.from_side is Side.DEFENCE] -= 1
        adjust[excuse.exchange.to_side is Side.DEFENCE] += 1
    points = (half_points_of(won[0]) + adjust[0], half_points_of(won[1]) + adjust[1])
    oudlers = (count(won[0] & OUDLERS), count(won[1] & OUDLERS))
    return excuse, points, oudlers


def _dog(r: DealRecord, tricks: Sequence[Trick], discard: CardMask, contract: Contract) -> CardMask:
    """The dog as given, else what no hand holds, else (no hands) what nobody played."""
    if r.dog is not None:
        return mask_of(r.dog)
    if r.hands is not None:
        return FULL_DECK & ~mask_of(c for hand in r.hands for c in hand)
    if contract.dog_to_taker:
        return 0  # taken into the taker's hand: its cards were played or discarded
    return FULL_DECK & ~mask_of(c for t in tricks for c in t.cards) & ~discard


def settle_excuse(
    tricks: Sequence[Trick], side_of: Sequence[Side], rules: Rules = FFT, last_trick: int | None = None
) -> ExcuseSettlement | None:
    """What becomes of the Excuse once played (§7, §8); ``None`` if it was not played.

    ``tricks`` may be a deal in progress: ``last_trick`` is then the index of the deal's last
    trick (by default the last of ``tricks``). An Excuse in a trick still being played is
    returned to its owner's side, its exchange not yet known; one in a trick the other side
    won is owed a half point, paid at the first trick its side wins (``paid_at_trick``), or
    still owed (``None``: in a complete deal, settled on paper).
    """
    players = len(side_of)
    last = len(tricks) - 1 if last_trick is None else last_trick
    for index, t in enumerate(tricks):
        if EXCUSE not in t.cards:
            continue
        seat = t.seat_of(EXCUSE, players)
        owner = side_of[seat]
        if len(t.cards) < players or t.winner is None:
            return ExcuseSettlement(ExcuseOutcome.RETURNED, seat, index, owner)
        winner = side_of[t.winner]
        if index == last:
            if t.winner == seat:
                return ExcuseSettlement(ExcuseOutcome.TOOK_LAST_TRICK, seat, index, owner)
            if rules.excuse_last_trick is ExcuseLastTrick.TRICK_WINNER:
                outcome = ExcuseOutcome.CHANGED_SIDE if winner is not owner else ExcuseOutcome.KEPT_IN_LAST_TRICK
                return ExcuseSettlement(outcome, seat, index, winner)
            return ExcuseSettlement(ExcuseOutcome.CHANGED_SIDE, seat, index, owner.other)
        exchange = None
        if winner is not owner:
            paid = next(
                (
                    max(i, index)
                    for i, u in enumerate(tricks)
                    if u.winner is not None and len(u.cards) == players and side_of[u.winner] is owner
                ),
                None,
            )
            exchange = ExcuseExchange(owner, winner, paid)
        return ExcuseSettlement(ExcuseOutcome.RETURNED, seat, index, owner, exchange)
    return None


def _settle_excuse(
    deal: _Deal, tricks: Sequence[Trick], side_of: Sequence[Side], contract: Contract, discard: CardMask, dog: CardMask
) -> ExcuseSettlement:
    played = settle_excuse(tricks, side_of, deal.record.rules)
    if played is not None:
        return played
    if discard & EXCUSE_BIT:
        return ExcuseSettlement(ExcuseOutcome.IN_DISCARD, kept_by=Side.ATTACK)
    if dog & EXCUSE_BIT:
        keeper = Side.DEFENCE if contract is Contract.GARDE_CONTRE else Side.ATTACK
        return ExcuseSettlement(ExcuseOutcome.IN_DOG, kept_by=keeper)
    return ExcuseSettlement(ExcuseOutcome.NOT_PLAYED)


def _excuse_so_far(tricks: Sequence[Trick], side_of: Sequence[Side], rules: Rules, last_trick: int) -> ExcuseSettlement:
    played = settle_excuse(tricks, side_of, rules, last_trick)
    return played if played is not None else ExcuseSettlement(ExcuseOutcome.NOT_PLAYED)


def petit_au_bout_side(tricks: Sequence[Trick], side_of: Sequence[Side], excuse: ExcuseSettlement) -> Side | None:
    """§9.4: the Petit in the last trick goes to that trick's winner; when the chelem side led
    the Excuse to the last trick (and so took it), a Petit in the second-to-last trick counts."""
    last = tricks[-1]
    if PETIT in last.cards and last.winner is not None:
        return side_of[last.winner]
    if excuse.outcome is ExcuseOutcome.TOOK_LAST_TRICK and last.cards[0] == EXCUSE and len(tricks) > 1:
        before = tricks[-2]
        if PETIT in before.cards and before.winner is not None:
            return side_of[before.winner]
    return None
