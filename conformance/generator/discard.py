"""Curated deals of chapter 4: the dog and the discard (rules.md §4, §12)."""

from __future__ import annotations

import random

from .assembly import Kit
from .building import Discarder, auto_discard, fault, make_deal, plain, trumps
from .cards import KINGS, SUITS, Deal, Json, ordered, suit


def discard_with(name: str, *forced: str, size: int | None = None) -> Discarder:
    """A discard holding ``forced`` cards, the rest a legal discard from the taker's hand and dog."""

    def make(hands: list[list[str]], dog: list[str], taker: int) -> list[str]:
        full = hands[taker] + dog
        want = size if size is not None else len(dog)
        base = [c for c in auto_discard(full, len(dog), random.Random(name)) if c not in forced]
        return ordered(list(forced) + base[: want - len(forced)])

    return make


def discard_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "dog-discard",
        "The dog and the discard: what may be set aside, and whom the dog "
        "counts for (rules.md §4, §1.2–1.3, §9.1, §12).",
    )
    forced_hand = [*KINGS, *trumps(1, 13), "EX"]
    forced_dog = ["14T", "15T", "1S", "2S", "3S", "4S"]

    def foreign(hands: list[list[str]], dog: list[str], taker: int) -> list[str]:
        other = next(c for c in hands[(taker + 1) % len(hands)] if suit(c) in SUITS and c not in KINGS)
        return discard_with("discard-12", other)(hands, dog, taker)

    flag: dict[str, Json] = {"discard_kings_when_forced": True}
    kings_only = [*KINGS, "2T", "3T"]

    def kings_deal(seed: str, rules: dict[str, Json] | None, discard: list[str]) -> Deal:
        return make_deal(4, seed, dealer=3, taker=0, contract="garde", fixed={0: [*KINGS, *trumps(2, 15)]},
                         dog=trumps(16, 21), rules=rules, discard=discard)  # fmt: skip

    low = plain("SHDC", 1, 6)
    guarded = make_deal(4, "discard-14", dealer=1, taker=1, contract="garde_contre", fixed={1: trumps(4, 21)},
                        dog=["1T", "EX", "2S", "3S", "4S", "5S"])  # fmt: skip
    # fmt: off
    kit.add_rows(t, [
        (1, "A prise whose discard is six plain cards, no king: nothing to fault.", ["4.1", "4.2"], ["discard"],
         make_deal(4, "discard-1", contract="prise"), {"/valid": True, "/status": "complete"}),
        *((n, f"The taker discards {what}: kings and oudlers may never be discarded.", ["4.2", "1.2"],
           ["discard", "oudlers"] if card != "KS" else ["discard"],
           make_deal(4, f"discard-{n}", taker=1, contract="garde", fixed={1: [card]},
                     discard=discard_with(f"discard-{n}", card)),
           fault("discard_king_or_bout", None, 1))
          for n, card, what in [(2, "KS", "a king"), (3, "21T", "the 21"), (4, "1T", "the Petit"),
                                (5, "EX", "the Excuse")]),
        (6, "A trump discarded while the taker had plain cards enough: a fault.", ["4.2"], ["discard", "trump"],
         make_deal(3, "discard-6", taker=2, contract="prise", fixed={2: ["9T"]},
                   discard=discard_with("discard-6", "9T")),
         fault("discard_trump", None, 2)),
        (7, "Four kings, thirteen trumps and the Excuse with four plain cards in the dog: two trumps must be "
         "discarded, and are.", ["4.2"], ["discard", "trump"],
         make_deal(4, "discard-7", taker=0, contract="garde", fixed={0: forced_hand}, dog=forced_dog,
                   discard=["1S", "2S", "3S", "4S", "14T", "15T"]),
         {"/valid": True, "/status": "complete"}),
        (8, "The same hand discarding three trumps when two are forced: one too many.", ["4.2"], ["discard", "trump"],
         make_deal(4, "discard-8", taker=0, contract="garde", fixed={0: forced_hand}, dog=forced_dog,
                   discard=["1S", "2S", "3S", "13T", "14T", "15T"]),
         fault("discard_trump", None, 0)),
        (9, "A discard of five cards where the dog had six.", ["4.1"], ["discard"],
         make_deal(4, "discard-9", taker=3, contract="prise", discard=discard_with("discard-9", size=5)),
         fault("discard_size", None, 3)),
        (10, "A discard made in a garde sans, where nobody sees the dog.", ["4.3"], ["discard", "dog"],
         make_deal(4, "discard-10", taker=2, contract="garde_sans", discard=discard_with("discard-10")),
         fault("discard_size", None, 2)),
        (11, "A complete prise recorded with the hands but no discard: the six cards left unplayed are the "
         "discard, checked as if written (nothing to fault here).", ["4.1", "12"], ["discard"],
         {**make_deal(3, "discard-11", taker=0, contract="prise"), "discard": None},
         {"/valid": True, "/status": "complete"}),
        (12, "A discarded card that was in another seat's hand.", ["4.1"], ["discard"],
         make_deal(4, "discard-12", taker=1, contract="prise", discard=foreign), fault("discard_not_held", None, 1)),
        (13, "Garde sans: the unseen dog counts for the taker, who takes no trick: its 10 points and the 21 (one "
         "oudler) are all he has.", ["4.3", "9.1", "1.3"], ["dog", "oudlers", "chelem"],
         make_deal(3, "discard-13", dealer=0, taker=0, contract="garde_sans", fixed={0: low},
                   dog=["21T", "QH", "7C", "8C", "9C", "10C"]),
         {"/valid": True, "/points/attack": 10, "/points/defence": 81, "/oudlers/attack": 1,
          "/chelem/made_by": "defence"}),
        (14, "Garde contre: the unseen dog, with the Petit and the Excuse, counts for the defence though the taker "
         "takes every trick: 80 points and one oudler to 11 and two.", ["4.3", "9.1", "1.3", "12"],
         ["dog", "oudlers", "excuse", "chelem"], guarded,
         {"/valid": True, "/points/attack": 80, "/points/defence": 11, "/oudlers/attack": 1, "/oudlers/defence": 2,
          "/excuse/outcome": "in_dog", "/excuse/kept_by": "defence", "/chelem/made_by": "attack"}),
        (15, "The same deal in garde sans: the dog counts for the taker, who ends with all 91 points and three "
         "oudlers.", ["4.3", "9.1", "1.3", "12"], ["dog", "oudlers", "excuse", "chelem"],
         {**guarded, "contract": "garde_sans"},
         {"/valid": True, "/points/attack": 91, "/points/defence": 0, "/oudlers/attack": 3,
          "/excuse/outcome": "in_dog", "/excuse/kept_by": "attack", "/chelem/made_by": "attack"}),
        (16, "Five players, garde: the taker sets aside three cards.", ["4.1", "2"], ["discard", "called-card"],
         make_deal(5, "discard-16", contract="garde"), {"/valid": True, "/status": "complete"}),
        # The FFT Code text's reading, the variant discard_kings_when_forced: kings and trumps only in hand and dog.
        (17, "Four kings and fourteen trumps, the dog six trumps: the four kings discarded are a fault by default.",
         ["4.2", "11"], ["discard"], kings_deal("discard-17", None, kings_only),
         fault("discard_king_or_bout", None, 0)),
        (18, "The same discard under discard_kings_when_forced: the hand holds only kings and trumps, so kings may "
         "go, declared like the trumps.", ["4.2", "11"], ["discard", "trump"],
         kings_deal("discard-18", flag, kings_only), {"/valid": True, "/status": "complete"}),
        (19, "Under the same variant an oudler still may not be discarded: the 21 with the kings is a fault.",
         ["4.2", "11", "1.2"], ["discard", "oudlers"],
         kings_deal("discard-19", flag, ["21T", *KINGS, "2T"]), fault("discard_king_or_bout", None, 0)),
        (20, "Under the same variant a hand with one plain card is not kings and trumps only: a king discarded is "
         "a fault.", ["4.2", "11"], ["discard"],
         make_deal(4, "discard-20", dealer=3, taker=0, contract="garde", fixed={0: [*KINGS, "1S", *trumps(2, 14)]},
                   dog=trumps(15, 20), rules=flag, discard=["KS", "1S", "2T", "3T", "4T", "5T"]),
         fault("discard_king_or_bout", None, 0)),
    ])
    # fmt: on
