"""The dog and the discard, écart (rules.md §4): what the taker holds when play starts."""

from __future__ import annotations

from collections.abc import Sequence

from ..messages import CardName, Term, msg
from .cards import EXCUSE_BIT, FULL_DECK, KINGS, OUDLERS, TRUMPS, CardMask, count, iter_cards, mask_of
from .play import Trick, trick_winner
from .record import DealContext, DealRecord
from .replay import first_leader
from .scoring import Contract
from .verdicts import ViolationCode


def play_hands(deal: DealContext, dealt: list[CardMask] | None, contract: Contract, taker: int) -> list[CardMask]:
    """Each seat's hand when play starts (the taker's after the dog and the discard).

    With no hands in the record, a seat's hand is the cards it plays (all of them, in a
    complete deal).
    """
    r, n = deal.record, deal.record.players
    if dealt is None:
        hands = [0] * n
        leader = first_leader(r, taker)
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


def discardable_plain(available: CardMask) -> CardMask:
    """The cards of ``available`` (hand and dog) that go to the écart freely (§4.2): neither a
    king, nor a trump, nor the Excuse; trumps only when these fall short."""
    return available & ~TRUMPS & ~KINGS & ~EXCUSE_BIT


def kings_forced(available: CardMask) -> bool:
    """Whether ``available`` (hand and dog) holds only kings and trumps, and maybe the Excuse:
    the case in which ``discard_kings_when_forced`` lets the taker discard kings (§4.2)."""
    return not available & ~(KINGS | TRUMPS | EXCUSE_BIT)


def check_discard(
    deal: DealContext, dealt: list[CardMask] | None, hands: Sequence[CardMask], contract: Contract, taker: int
) -> CardMask:
    """The écart (§4): its size, cards held, no king or oudler, trumps only when unavoidable."""
    r, table = deal.record, deal.table
    discard = mask_of(r.discard or ())
    if not contract.dog_to_taker:
        if discard:
            deal.report(
                ViolationCode.DISCARD_SIZE,
                msg("violation.discard_size.contract", contract=Term("contract", contract.value)),
                seat=taker,
            )
        return 0
    if r.discard is None:
        if dealt is None:
            # Complete deal without hands: the discard is every card not played.
            return FULL_DECK & ~mask_of(r.plays)
        deal.report(ViolationCode.DISCARD_SIZE, msg("violation.discard_size.missing"), seat=taker)
        return 0
    if len(r.discard) != table.dog_size or count(discard) != len(r.discard):
        deal.report(
            ViolationCode.DISCARD_SIZE,
            msg("violation.discard_size.count", len(r.discard), expected=table.dog_size),
            seat=taker,
        )
    # Hand and dog as the taker saw them; without dealt hands, what he played and discarded.
    available = dealt[taker] | mask_of(r.dog or ()) if dealt is not None else hands[taker] | discard
    for card in iter_cards(discard & ~available):
        deal.report(
            ViolationCode.DISCARD_NOT_HELD,
            msg("violation.discard_not_held", card=CardName(card)),
            seat=taker,
            card=card,
        )
    forbidden = KINGS | OUDLERS
    if r.rules.discard_kings_when_forced and kings_forced(available):
        forbidden = OUDLERS  # the FFT Code text: a hand of kings and trumps only may discard kings, declared (§4.2)
    for card in iter_cards(discard & forbidden):
        deal.report(
            ViolationCode.DISCARD_KING_OR_BOUT,
            msg("violation.discard_king_or_bout", card=CardName(card)),
            seat=taker,
            card=card,
        )
    trumps = discard & TRUMPS & ~OUDLERS
    if trumps:
        plain = count(discardable_plain(available))
        missing = max(0, table.dog_size - plain)
        if count(trumps) > missing:
            for card in iter_cards(trumps):
                deal.report(
                    ViolationCode.DISCARD_TRUMP,
                    msg("violation.discard_trump", missing, card=CardName(card)),
                    seat=taker,
                    card=card,
                )
    return discard


def dog_of(r: DealRecord, tricks: Sequence[Trick], discard: CardMask, contract: Contract) -> CardMask:
    """The dog as given, else what no hand holds, else (no hands) what nobody played."""
    if r.dog is not None:
        return mask_of(r.dog)
    if r.hands is not None:
        return FULL_DECK & ~mask_of(c for hand in r.hands for c in hand)
    if contract.dog_to_taker:
        return 0  # taken into the taker's hand: its cards were played or discarded
    return FULL_DECK & ~mask_of(c for t in tricks for c in t.cards) & ~discard
