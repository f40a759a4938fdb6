"""What a deal record leaves out (rules.md §12, "What a record leaves out").

Missing data is never a fault. A part left out is told from the rest of the record where the
record proves it: the dog from hands that make a whole deal, the discard from the cards a
complete deal left unplayed, a chelem announcement (or none) from who led the first trick. It is
then checked as if it had been given. Otherwise the checks that need it are not made, or the
part is read one way, and the evaluation says so (:class:`~.verdicts.Unchecked`): every reading
that could change a verdict or a score is said, with what it assumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..messages import msg
from .cards import FULL_DECK, Card, CardMask, count, iter_cards, mask_of
from .play import trick_winner
from .record import DealContext, DealRecord
from .replay import opening_leader
from .scoring import Contract
from .table import TABLES, Table
from .verdicts import NotChecked, Unchecked


def fill_in(deal: DealContext, dealt: list[CardMask] | None, contract: Contract, taker: int) -> None:
    """Tell what the record leaves out where the record proves it, in ``deal.record``, and note
    in ``deal.unchecked`` each part that cannot be told."""
    r, table = deal.record, deal.table
    told: dict[str, Any] = {}

    def note(code: Unchecked, key: str) -> None:
        deal.unchecked.append(NotChecked(code, msg(key)))

    complete = len(r.plays) >= r.players * table.tricks
    if dealt is None:
        note(Unchecked.DEALT_HANDS, "unchecked.dealt_hands" if complete else "unchecked.dealt_hands.in_progress")
    if r.bids is None:
        note(Unchecked.AUCTION, "unchecked.auction")
    if r.dog is None and dealt is not None:
        if _whole_deal(r, dealt, table):
            told["dog"] = tuple(iter_cards(unheld(dealt)))
        else:
            note(Unchecked.DOG, "unchecked.dog")
    if contract.dog_to_taker and r.discard is None:
        dog = told.get("dog", r.dog)
        discard = _unplayed_discard(r, table, dealt, taker, unheld(dealt or ()) if dog is None else mask_of(dog))
        if discard is not None:
            told["discard"] = tuple(iter_cards(discard))
        else:
            note(Unchecked.DISCARD, "unchecked.discard" if complete else "unchecked.discard.in_progress")
    if r.chelem_announced is None:
        told["chelem_announced"] = announced = _taker_led_out_of_turn(r, dealt, taker, told.get("dog", r.dog))
        due = opening_leader(r.dealer, taker, r.players, False, r.rules)
        if announced:
            note(Unchecked.CHELEM_ANNOUNCEMENT, "unchecked.chelem_announcement")
        elif due == taker:
            # He leads either way: nothing in the record tells, and an announcement would
            # change the score (§9.6). Read as not announced, and said.
            note(Unchecked.CHELEM_ANNOUNCEMENT, "unchecked.chelem_announcement.taker_due")
        elif not r.plays:
            # No lead yet to tell it: read as not announced, the seat due to lead next.
            note(Unchecked.CHELEM_ANNOUNCEMENT, "unchecked.chelem_announcement.no_play")
        elif dealt is None:
            # Nothing shows who led: read as no chelem announced (evaluate_deal tries the other
            # reading when this one charges a fault).
            note(Unchecked.CHELEM_ANNOUNCEMENT, "unchecked.chelem_announcement.not_said")
        # Else the hands show the seat due leading: told, the only reading free of faults.
    if told:
        deal.record = replace(r, **told)


def unheld(dealt: Sequence[CardMask]) -> CardMask:
    """The cards no dealt hand holds: the dog, when the hands make a whole deal; else every card
    that may be in it."""
    held = 0
    for hand in dealt:
        held |= hand
    return FULL_DECK & ~held


def cards_played(r: DealRecord, taker: int) -> list[CardMask]:
    """Each seat's cards among the record's plays, every trick led by the previous one's winner
    (the opening one by the seat due): the record read as played."""
    n = r.players
    played = [0] * n
    leader = opening_leader(r.dealer, taker, n, bool(r.chelem_announced), r.rules)
    for i, card in enumerate(r.plays[: n * TABLES[n].tricks]):
        trick, pos = divmod(i, n)
        # Each trick is led by the previous one's winner; the chelem exception concerns only
        # the last trick, which leads nothing, so plain trick_winner is enough here.
        if pos == 0 and trick:
            leader = (leader + (trick_winner(r.plays[(trick - 1) * n : trick * n]) or 0)) % n
        played[(leader + pos) % n] |= 1 << card
    return played


def _whole_deal(r: DealRecord, dealt: Sequence[CardMask], table: Table) -> bool:
    """Whether the dealt hands are each of the table's size with no card dealt twice: the dog is
    then exactly the cards no hand holds."""
    assert r.hands is not None
    sizes_right = all(len(hand) == table.hand_size == count(mask) for hand, mask in zip(r.hands, dealt, strict=True))
    return sizes_right and count(unheld(dealt)) == table.dog_size


def _unplayed_discard(
    r: DealRecord, table: Table, dealt: list[CardMask] | None, taker: int, dog: CardMask
) -> CardMask | None:
    """The discard a complete deal proves: the cards it left unplayed, when they are as many as
    the dog and, hands given, all the taker's or the dog's; else ``None``."""
    limit = r.players * table.tricks
    if len(r.plays) < limit:
        return None
    unplayed = FULL_DECK & ~mask_of(r.plays[:limit])
    if count(unplayed) != table.dog_size:
        return None
    if dealt is not None and unplayed & ~(dealt[taker] | dog):
        return None
    return unplayed


def _taker_led_out_of_turn(r: DealRecord, dealt: list[CardMask] | None, taker: int, dog: Sequence[Card] | None) -> bool:
    """Whether the hands show the taker leading the first trick when, with no chelem announced,
    another seat was due to: only an announced chelem lets him (§9.6)."""
    if dealt is None or not r.plays:
        return False
    due = opening_leader(r.dealer, taker, r.players, False, r.rules)
    if due == taker:
        return False
    first = r.plays[0]
    holder = next((seat for seat, hand in enumerate(dealt) if hand >> first & 1), None)
    if holder is None and dog is not None and first in dog:
        holder = taker  # a card of the dog, which the taker took
    return holder == taker
