"""Curated records that leave parts out: missing data is never a fault (rules.md §12, "What a
record leaves out")."""

from __future__ import annotations

from .assembly import Kit
from .building import cut, find_deal, make_deal
from .cards import SUITS, Deal, Json, suit
from .oracle import Ref, first_leader, ref_evaluate


def without(d: Deal, *parts: str) -> Deal:
    return {k: v for k, v in d.items() if k not in parts}


def unchecked(*codes: str) -> dict[str, Json]:
    """The codes of ``unchecked``, in the order the answer lists them."""
    return {f"/unchecked/{i}/code": code for i, code in enumerate(codes)}


def left_out_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "left-out",
        "Records that leave parts out: what the record proves is checked, nothing else is charged, and "
        "`unchecked` says what was not checked (rules.md §12).",
    )
    d = make_deal(4, "left-out-1", contract="garde")
    kit.add(t, 1, "A complete garde recorded with the hands but no dog: the dog is the six cards no hand holds.",
            ["12", "4.1"], ["dog"], without(d, "dog"),
            want={"/valid": True, "/status": "complete", **unchecked("auction")})  # fmt: skip
    d = make_deal(5, "left-out-2", contract="prise")
    kit.add(t, 2, "A complete prise at five players without its discard: the cards left unplayed are the discard, "
            "checked as if written.", ["12", "4.1"], ["discard", "called-card"], without(d, "discard"),
            want={"/valid": True, "/status": "complete", **unchecked("auction")})  # fmt: skip
    d = make_deal(3, "left-out-3", contract="garde")
    kit.add(t, 3, "A complete garde with neither its dog nor its discard: both told from the hands and the plays.",
            ["12", "4.1"], ["dog", "discard"], without(d, "dog", "discard"),
            want={"/valid": True, "/status": "complete", **unchecked("auction")})  # fmt: skip

    d = make_deal(4, "left-out-4", dealer=0, taker=2, contract="prise")
    # The first point past the opening trick where the taker is to play.
    k = next(k for k in range(5, 70) if ref_evaluate(cut(d, k)).answer["/next/seat"] == 2)
    kit.add(t, 4, "A prise in progress without its discard, the taker to play: his legal cards are not known, since "
            "any card of his hand and the dog he has not played may be in the discard.", ["12", "4.1", "6"],
            ["discard", "in-progress"], without(cut(d, k), "discard"),
            want={"/valid": True, "/next/seat": 2, "/next/legal": None,
                  **unchecked("auction", "discard")})  # fmt: skip

    def voided_and_trumped(d: Deal, r: Ref) -> bool:
        """The taker discards the last card of a suit he held, and later trumps a lead of it: with
        his discard left out, the record cannot show he was void."""
        hand = set(d["hands"][r.taker]) | set(d["dog"])
        voided = {suit(c) for c in d["discard"] if suit(c) in SUITS} - {suit(c) for c in hand - set(d["discard"])}
        return any(
            t.cards[0][-1] in voided and suit(t.cards[(r.taker - t.leader) % 4]) == "T"
            for t in r.tricks[:-1]
            if r.taker != t.leader
        )

    d = find_deal("left-out-5", lambda s: make_deal(4, s, contract="garde"), voided_and_trumped)
    kit.add(t, 5, "A garde in progress without its discard, the taker trumping a suit he discarded: no renounce "
            "can be shown, so none is charged.", ["12", "4.1", "6.4"], ["discard", "in-progress"],
            without(cut(d, 4 * 17), "discard"),
            want={"/valid": True, "/status": "in_progress", **unchecked("auction", "discard")})  # fmt: skip

    def announced_out_of_turn(d: Deal, r: Ref) -> bool:
        return first_leader({**d, "chelem_announced": False}, r.taker) != r.taker

    d = find_deal("left-out-6", lambda s: make_deal(4, s, contract="garde", chelem=True), announced_out_of_turn)
    kit.add(t, 6, "A chelem announced, the taker leading the first trick, recorded without `chelem_announced`: read "
            "as announced, the only reading in which nobody led out of turn.", ["12", "9.6", "2"],
            ["chelem"], without(d, "chelem_announced"),
            want={"/valid": True, "/chelem/announced": True,
                  **unchecked("auction", "chelem_announcement")})  # fmt: skip
    d = make_deal(3, "left-out-7", dealer=1, taker=0, contract="garde_sans")  # seat 2 due to lead
    kit.add(t, 7, "No chelem announced and no `chelem_announced`: the seat due led, read as not announced, nothing "
            "said.", ["12", "9.6", "2"], ["chelem"], without(d, "chelem_announced"),
            want={"/valid": True, "/chelem/announced": False, **unchecked("auction")})  # fmt: skip
    d = make_deal(4, "left-out-10", dealer=0, taker=1, contract="garde", chelem=True)
    kit.add(t, 10, "A chelem announced by the taker due to lead the first trick anyway, recorded without "
            "`chelem_announced`: nothing can tell, so it is read as not announced, and said.", ["12", "9.6", "2"],
            ["chelem"], without(d, "chelem_announced"),
            want={"/valid": True, "/chelem/announced": False,
                  **unchecked("auction", "chelem_announcement")})  # fmt: skip
    d = make_deal(4, "left-out-8", contract="prise")
    kit.add(t, 8, "A deal in progress with nothing but who took what: the hands, the dog and the discard left "
            "out, no fault can be shown.", ["12"], ["in-progress"], without(cut(d, 30), "hands", "dog", "discard"),
            want={"/valid": True, "/next/legal": None,
                  **unchecked("dealt_hands", "auction", "discard")})  # fmt: skip
    d = make_deal(4, "left-out-9", dealer=0, taker=1, contract="garde")
    bid = {**without(d, "discard", "contract", "taker"), "bids": ["garde", "pass", "pass", "pass"]}
    kit.add(t, 9, "A complete garde given by its bids, without its discard: the auction and the discard are both "
            "checked, nothing is left unchecked.", ["12", "3.3", "4.1"], ["bids", "discard"], bid,
            want={"/valid": True, "/taker": 1, "/contract": "garde", "/unchecked": []})  # fmt: skip
