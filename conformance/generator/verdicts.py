"""What the kit reads from each operation's answers: the verdicts it expects, what the
reference model says of them, and the tags an answer decides.

One :class:`Checks` per operation, looked up by the kit's operation name (CHECKS). A topic
whose module owns its operation's checks hands them in when it makes the topic (games.py,
the game sheets): this module knows no topic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from service.rules.variants import FFT, Rules

from .cards import Json
from .errors import KitError
from .oracle import ref_deal_answer, ref_evaluate, ref_first_fault, ref_legal, ref_score_answer, ref_winner_answer

PLAYER_TAG = {3: "three-players", 4: "four-players", 5: "five-players"}
FLAG_DEFAULTS = {flag.name: getattr(FFT, flag.name) for flag in dataclasses.fields(Rules)}
"""Each rule flag's FFT default: a case that sets another value is tagged with the flag."""

MULTISETS = ("/legal", "/next/legal", "/poignees", "/dog", *(f"/hands/{seat}" for seat in range(5)))
"""Answer arrays whose order is not a verdict: compared as multisets (a hand and the dog of a
deal of the cards: which cards, not their order)."""
SCORE_TERMS = (
    "won", "threshold", "margin", "multiplier", "contract_points", "petit_au_bout", "poignees", "chelem",
    "per_defender", "scores",
)  # fmt: skip

RULING_TERMS = ("decision", "reason", "side_at_fault", "faults", "as_played_scores", "scores")

LEGAL_TAG = {
    "follow": "follow-suit", "trump": "trump", "overtrump": "overtrump", "undertrump": "undertrump",
    "discard": "discard", "called_suit_ban": "first-lead-ban",
}  # fmt: skip
"""The tag of each deciding rule of the legal cards (the reason of the answer)."""
LEGAL_RULES = {
    "lead": ["6.2"], "called_suit_ban": ["5.3", "6.2"], "follow": ["6.3"], "trump": ["6.4"], "overtrump": ["6.4"],
    "undertrump": ["6.4"], "discard": ["6.5"],
}  # fmt: skip
"""The sections of each deciding rule of the legal cards."""

Reading = Callable[[Json, Json], list[str]]
"""The pointers read from an answer (second) to a request (first)."""
Reference = Callable[[Json, Json], dict[str, Json]]
"""What the reference model says of a request (first), given the service's answer (second)."""
Tagging = Callable[[Json, Json], set[str]]
"""The tags a request (first) and its answer (second) decide."""


def no_tags(request: Json, answer: Json) -> set[str]:
    return set()


@dataclass(frozen=True)
class Checks:
    """An operation's part in every case: the verdicts expected of its answers, the reference
    model's word on them, and the tags its answers decide."""

    pointers: Reading
    """The parts of an answer that are rule verdicts (never the messages)."""
    reference: Reference
    """The parts the reference model knows, each held against the answer."""
    answer_tags: Tagging = no_tags
    """The tags of the operation's own verdicts (faults, redeals, a sheet's kinds of rows)."""
    fault_reference: Callable[[Json], dict[str, Json]] | None = None
    """The reference model's first fault of a request made faulty on purpose, where it has one."""

    def tags(self, request: Json, answer: Json) -> set[str]:
        """The tags a case's request and answer decide: table, variant flags, the operation's own."""
        # A tournament's players are a list: its tables' sizes are its own tags (standings.py).
        players = request.get("players")
        tags = {PLAYER_TAG[players]} if isinstance(players, int) and players in PLAYER_TAG else set()
        rules = request.get("rules") or {}
        tags |= {flag for flag, default in FLAG_DEFAULTS.items() if flag in rules and rules[flag] != default}
        return tags | self.answer_tags(request, answer)

    def known(self, request: Json, answer: Json, *, first_fault: bool) -> dict[str, Json]:
        """What the reference model says of a request: its verdicts, or with ``first_fault``
        its first fault (a deal made faulty on purpose)."""
        if not first_fault:
            known = self.reference(request, answer)
        elif self.fault_reference is not None:
            known = self.fault_reference(request)
        else:
            raise KitError("the reference model finds no faults of this operation")
        return dict(known)  # a copy: the case adds its own verdicts to it


def fixed_pointers(*pointers: str) -> Reading:
    """The same pointers whatever the answer."""

    def read(request: Json, answer: Json) -> list[str]:
        return list(pointers)

    return read


def legal_reference(request: Json, answer: Json) -> dict[str, Json]:
    players = request["players"]
    rules = request.get("rules") or {}
    ban = None
    if players == 5 and request.get("first_trick") and rules.get("called_suit_lead_ban", True):
        ban = request.get("called_card")
    legal, reason = ref_legal(request["hand"], request.get("trick") or [], ban)
    return {"/legal": legal, "/reason": reason}


def evaluate_pointers(request: Json, answer: Json) -> list[str]:
    out = ["/status", "/valid"]
    if answer["status"] == "redeal":
        out.append("/redeal_reason")
    else:
        out += ["/taker", "/contract", "/partner"]
    if not answer["valid"]:
        out += ["/violations/0/code", "/violations/0/trick", "/violations/0/seat", "/score"]
        # A complete faulty deal's ruling (§14): its decision, row, side and marks; not its words.
        return [*out, *("/ruling/" + k for k in RULING_TERMS)] if answer["ruling"] is not None else out
    if answer["status"] == "redeal":
        return out
    n = request["players"]
    out += [f"/tricks/{i}/winner" for i, t in enumerate(answer["tricks"]) if len(t["cards"]) == n]
    if answer["excuse"] is None:
        out.append("/excuse")  # nothing played yet
    else:
        out += ["/excuse/outcome", "/excuse/kept_by", "/excuse/exchange"]
    out += ["/poignees", "/chelem/announced"]
    if answer["status"] == "in_progress":
        return [*out, "/next/seat", "/next/legal"]
    out += ["/points/attack", "/points/defence", "/oudlers/attack", "/oudlers/defence", "/petit_au_bout"]
    return [*out, "/chelem/made_by", *("/score/" + k for k in SCORE_TERMS)]


def evaluate_reference(request: Json, answer: Json) -> dict[str, Json]:
    """The reference model's verdicts of a sound deal; it rules on no fault or redeal."""
    if answer["valid"] and answer["status"] != "redeal":
        return ref_evaluate(request).answer
    return {}


def evaluate_first_fault(request: Json) -> dict[str, Json]:
    fault = ref_first_fault(request)
    if fault is None:
        return {"/valid": True}
    code, trick, seat = fault
    return {"/valid": False, "/violations/0/code": code, "/violations/0/trick": trick, "/violations/0/seat": seat}


def evaluate_tags(request: Json, answer: Json) -> set[str]:
    tags = {f"violation:{v['code']}" for v in answer["violations"]}
    if answer["redeal_reason"]:
        tags |= {"redeal", f"redeal:{answer['redeal_reason']}"}
    if not answer["valid"]:
        tags.add("faulty")
    if answer["status"] == "in_progress":
        tags.add("in-progress")
    return tags


def deal_pointers(request: Json, answer: Json) -> list[str]:
    hands = [f"/hands/{seat}" for seat in range(request["players"])]
    return ["/packet", "/deck", *hands, "/dog", "/set_aside", "/redeal", "/redeal_reason", "/redeal_seat"]


def deal_tags(request: Json, answer: Json) -> set[str]:
    tags = {"deal-of-the-cards", "seed" if request.get("seed") is not None else "deck"}
    if answer is not None and answer["redeal"]:
        tags |= {"redeal", "petit-sec"}
    if request.get("packet") == 1:
        tags.add("one-at-a-time")
    return tags


REFUSED = Checks(fixed_pointers(), lambda request, answer: {})
"""The checks of a topic of refusals: there is no answer to read, only the tags its requests decide."""

CHECKS: dict[str, Checks] = {
    "legal-cards": Checks(fixed_pointers("/legal", "/reason"), legal_reference),
    "winner": Checks(
        fixed_pointers("/winner", "/winner_index", "/winning_card", "/led_suit", "/trumped", "/complete"),
        lambda request, answer: ref_winner_answer(request),
    ),
    "score": Checks(fixed_pointers(*("/" + k for k in SCORE_TERMS)), lambda request, answer: ref_score_answer(request)),
    "evaluate": Checks(evaluate_pointers, evaluate_reference, evaluate_tags, evaluate_first_fault),
    "deal": Checks(deal_pointers, lambda request, answer: ref_deal_answer(request), deal_tags),
}
"""The checks of each operation by the kit's name for it; score-game's are games.py's."""
