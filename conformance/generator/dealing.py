"""Curated cases: the deal of the cards (rules.md §2.1) from a seed's shuffle (§2.2) or from a
deck given in order, at every table, in packets of the FFT and one at a time, with the dog at
its default positions and where the request puts it, and the petit sec that deals again (§3.1)."""

from __future__ import annotations

from .assembly import Kit
from .cards import DECK, Json

CUT: list[str] = DECK[40:] + DECK[:40]
"""The canonical deck cut at its 41st card (the queen of diamonds on top)."""


# fmt: off
def deal_cases(kit: Kit) -> None:
    def request(players: int, dealer: int, **more: Json) -> Json:
        return {"players": players, "dealer": dealer, **more}

    t = kit.topic("deal", "from-seed", "The deal of the deck a seed shuffles (SHA-256 in counter mode driving a "
                  "Fisher–Yates shuffle, rules.md §2.2), dealt from the seat after the dealer in the FFT's packets "
                  "with the dog spread between them (§2.1); the same seed, the same deal in every language.")
    kit.add_rows(t, [
        (1, "The rulebook's test vector: seed tarot, four players, dealer 3; seat 0 gets the first packet.",
         ["2.1", "2.2"], [], request(4, 3, seed="tarot"),
         {"/deck/0": "KD", "/set_aside/0": {"position": 9, "card": "5C"}}),
        (2, "The rulebook's test vector: seed 0 (the seed of tarot-rules deal --seed 0).", ["2.2"], [],
         request(4, 0, seed="0"), {"/deck/0": "17T", "/deck/77": "2H"}),
        (3, "A seed outside ASCII: its UTF-8 bytes, not normalised (É as one code point).", ["2.2"], [],
         request(5, 2, seed="\u00c9mile/1"), {"/deck/0": "5C"}),
        (4, "Three players: packets of 4, six cards in the dog.", ["2.1", "2"], [], request(3, 0, seed="kit-3"),
         {"/packet": 4}),
        (5, "Five players: packets of 3, three cards in the dog.", ["2.1", "2"], [], request(5, 4, seed="kit-5"),
         {"/packet": 3}),
        (6, "Four players dealt one card at a time, as the FFT Code text deals.", ["2.1"], ["dog"],
         request(4, 1, seed="kit-4", packet=1), {"/packet": 1}),
        (7, "Three players dealt in packets of 3: 24 cards share out in threes as well.", ["2.1"], [],
         request(3, 2, seed="kit-33", packet=3), {"/packet": 3}),
        (8, "The dog where the dealer put it, between packets, two of its cards in a row.", ["2.1"], ["dog"],
         request(4, 0, seed="kit-dog", dog_positions=[3, 4, 29, 42, 61, 74]),
         {"/set_aside/1/position": 4}),
        (9, "A petit sec: the deal must begin again (seat 2 holds the Petit as its only trump, no Excuse).",
         ["2.1", "3.1"], [], request(4, 1, seed="redeal-8"),
         {"/redeal": True, "/redeal_reason": "petit_sec", "/redeal_seat": 2}),
        (10, "The Petit beside the Excuse is not sec by the FFT: no new deal.", ["3.1"], [],
         request(4, 0, seed="kit-564"), {"/redeal": False, "/redeal_seat": None}),
        (11, "The same hand under petit_sec_ignores_excuse (the rules page's reading): a new deal.", ["3.1", "11"], [],
         request(4, 0, seed="kit-564", rules={"petit_sec_ignores_excuse": True}),
         {"/redeal": True, "/redeal_seat": 0}),
        (12, "Five players one card at a time, the dog at positions the request gives.", ["2.1"], ["dog"],
         request(5, 0, seed="kit-51", packet=1, dog_positions=[1, 40, 76]), {"/set_aside/0/position": 1}),
    ])

    t = kit.topic("deal", "from-deck", "The deal of a deck given in order after the cut (rules.md §2.1): its "
                  "first card to the seat after the dealer, packet after packet in playing order, the dog's "
                  "cards put aside between packets.")
    canonical = list(DECK)
    kit.add_rows(t, [
        (1, "The deck in canonical order at four players, dealer 0: seat 1 gets 1S 2S 3S, and the 10th card "
         "(10S) goes to the dog.", ["2.1"], ["dog"], request(4, 0, deck=canonical),
         {"/set_aside/0": {"position": 9, "card": "10S"}}),
        (2, "Dealer 3 at four players: the deck's first card goes to seat 0.", ["2.1", "2"], [],
         request(4, 3, deck=CUT, dog_positions=[30, 40, 50, 60, 70, 74]), {"/deck/0": "QD"}),
        (3, "One card at a time: the first four cards go to four different seats.", ["2.1"], [],
         request(4, 2, deck=canonical, packet=1, dog_positions=[30, 40, 50, 60, 70, 74]), {}),
        (4, "Three players, packets of 4: the dealer's right gets the first four cards.", ["2.1"], [],
         request(3, 1, deck=CUT), {}),
        (5, "Five players, dealer 4: seat 0 gets the first packet.", ["2.1"], [], request(5, 4, deck=canonical), {}),
        (6, "Five players, one card at a time, the dog at the second and the second-to-last card.", ["2.1"],
         ["dog"], request(5, 1, deck=CUT, packet=1, dog_positions=[76, 1, 38]),
         {"/set_aside/0/position": 1, "/set_aside/2/position": 76}),
    ])
# fmt: on
