"""The dog and the discard, écart (rules.md §4): what the taker holds when play starts."""

from __future__ import annotations

from collections.abc import Sequence

from ..messages import CardName, Term, msg
from .cards import EXCUSE_BIT, FULL_DECK, KINGS, OUDLERS, TRUMPS, CardMask, count, iter_cards, mask_of
from .missing import cards_played, unheld
from .play import Trick
from .record import DealContext, DealRecord
from .scoring import Contract
from .verdicts import ViolationCode


def play_hands(deal: DealContext, dealt: list[CardMask] | None, contract: Contract, taker: int) -> list[CardMask]:
    """Each seat's hand when play starts (the taker's after the dog and the discard), as far as
    the record shows it; ``deal.known`` says for which seats it is the whole hand.

    With no hands in the record, a seat's hand is the cards it plays (all of them, in a complete
    deal). With hands, the taker's is known once the dog and the discard are (given, or told by
    :func:`~.missing.fill_in`); without them, it is the cards of his hand and the dog he plays,
    all that can be held against him.
    """
    r, n = deal.record, deal.record.players
    complete = len(r.plays) >= n * deal.table.tricks
    if dealt is None:
        deal.known = [complete] * n
        return cards_played(r, taker)
    hands = list(dealt)
    deal.known = [True] * n
    if contract.dog_to_taker:
        discard = mask_of(r.discard or ())
        if r.dog is not None and r.discard is not None:
            hands[taker] = (hands[taker] | mask_of(r.dog)) & ~discard
        else:
            dog = unheld(dealt) if r.dog is None else mask_of(r.dog)
            surely = hands[taker] & ~discard if r.discard is not None else 0
            maybe = (hands[taker] | dog) & ~discard
            hands[taker] = surely | maybe & cards_played(r, taker)[taker]
            deal.known[taker] = False
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
        # Neither given nor told by the record (missing.fill_in): not checked, never a fault. The
        # cards a complete deal left unplayed count for the attack, as the discard would.
        return FULL_DECK & ~mask_of(r.plays) if len(r.plays) >= r.players * table.tricks else 0
    if len(r.discard) != table.dog_size or count(discard) != len(r.discard):
        deal.report(
            ViolationCode.DISCARD_SIZE,
            msg("violation.discard_size.count", len(r.discard), expected=table.dog_size),
            seat=taker,
        )
    # Hand and dog as the taker saw them; without dealt hands, what he played and discarded.
    dog = unheld(dealt) if dealt is not None and r.dog is None else mask_of(r.dog or ())
    available = dealt[taker] | dog if dealt is not None else hands[taker] | discard
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
