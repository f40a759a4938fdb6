"""A duplicate tournament's étuis (rules.md §17.2): their labels, and their cards dealt from a seed.

Each étui is marked with its number, the orientation of its taker and of its dealer; the player
on the dealer's right leads (p. 14). The rulebook leaves who takes and who deals to the
organiser; the service spreads both evenly (:func:`label`). At the first position the deal is
dealt normally (p. 15); the cards of each étui can also be dealt here from the tournament's
seed, the same on any machine (:func:`etui_seed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import Card
from .dealing import deal_deck
from .duplicate_sittings import DUPLICATE_ORIENTATIONS, Etui
from .frozen import copied_by_constructor
from .shuffle import shuffled_deck
from .table import TABLES

REDEALS: Final = 1000
"""Deals after a petit sec before giving up (one deal in some fifty has one)."""


@dataclass(frozen=True, slots=True)
class DealtEtui:
    """An étui's cards: each orientation's hand (:data:`DUPLICATE_ORIENTATIONS` order) and the
    dog, each sorted; the seed text whose shuffle dealt them."""

    label: Etui
    hands: tuple[tuple[Card, ...], ...]
    dog: tuple[Card, ...]
    seed: str

    def hand_of(self, orientation: str) -> tuple[Card, ...]:
        """The hand in the pocket of ``orientation``."""
        return self.hands[DUPLICATE_ORIENTATIONS.index(orientation)]


copied_by_constructor(DealtEtui)


def label(number: int) -> Etui:
    """Étui ``number``'s label (*reading*, §17.2). The taker turns with the number: north,
    west, south, east, north… The dealer sits ``k`` seats after the taker in playing order, ``k``
    the number of whole fours of étuis before this one, modulo 4: each four étuis in a row have
    every orientation take once and deal once, and each sixteen every taker with every dealer
    (so the taker leads, is the dealer, or sits second or third to play, as often as the others)."""
    n = number - 1
    taker = n % 4
    return Etui(number, DUPLICATE_ORIENTATIONS[taker], DUPLICATE_ORIENTATIONS[(taker + n // 4) % 4])


def labels(count: int) -> tuple[Etui, ...]:
    """The labels of étuis 1 … ``count``."""
    return tuple(label(number) for number in range(1, count + 1))


def leader(etui: Etui) -> str:
    """The orientation that leads the first card: the dealer's right, next in playing order
    (rules.md §2: counter-clockwise, after north comes west)."""
    return DUPLICATE_ORIENTATIONS[(DUPLICATE_ORIENTATIONS.index(etui.dealer) + 1) % 4]


def etui_seed(seed: str, number: int, redeal: int = 0) -> str:
    """The seed text of étui ``number``'s shuffle (rules.md §2.2): the tournament's seed, ``#``,
    the number in decimal; after the ``k``-th petit sec, ``/k`` added (``"club#7"``,
    ``"club#7/1"``)."""
    text = f"{seed}#{number}"
    return text if redeal == 0 else f"{text}/{redeal}"


def deal_etui(seed: str, etui: Etui) -> DealtEtui:
    """The cards of ``etui``: the deck :func:`etui_seed` shuffles (§2.2), dealt by the étui's
    dealer as at any table of four (§2.1: packets of 3 from the dealer's right, the dog spread
    between them); dealt again from the next seed text while a hand is a petit sec (§3.1, p. 15)."""
    table = TABLES[4]
    dealer = DUPLICATE_ORIENTATIONS.index(etui.dealer)
    for redeal in range(REDEALS):
        text = etui_seed(seed, etui.number, redeal)
        dealt = deal_deck(shuffled_deck(text), table, dealer)
        if dealt.petit_sec_seat is None:
            return DealtEtui(etui, tuple(tuple(sorted(h)) for h in dealt.hands), tuple(sorted(dealt.dog)), text)
    raise ValueError(f"Étui {etui.number}: a petit sec in {REDEALS} deals.")


def deal_etuis(seed: str, etuis: tuple[Etui, ...]) -> tuple[DealtEtui, ...]:
    """The cards of every étui of ``etuis``, each from its own seed text."""
    return tuple(deal_etui(seed, etui) for etui in etuis)
