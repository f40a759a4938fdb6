"""An adapter of the kit's line protocol for an engine this project did not write: magmacrunch-tarot.

magmacrunch-tarot (the package registry's ``magmacrunch-tarot``, 0.1.1, PolyForm Noncommercial) is
a four-player French Tarot game for the terminal whose rules module, ``tarot.rules``, uses the
standard library only. It is installed, never copied: ``make test`` puts it in a virtualenv of
its own (``.venv-magmacrunch``, from ``requirements/magmacrunch.txt``) and runs

    tarot-rules conformance --implementation "magmacrunch=.venv-magmacrunch/bin/python \\
        conformance/adapters/magmacrunch/adapter.py" ...

What the engine computes is asked of it: the legal cards (``legal_plays``), the trick's winner
(``trick_winner``), a deal's score from its summary (``threshold``, ``hand_score``,
``distribute``). What it does not do is skipped, with the reason: three or five players, rule
variants, an announced chelem, the deal of the cards, a whole deal's evaluation, score sheets,
tournaments, and a request that cannot be put to it (a card code that does not exist, a field
missing or of another type): the engine checks no input. A request it can be given but that
the rules refuse (a card twice, a seat out of range) is given to it, and its answer is told.

Where the API's answer has a part the engine does not name, the adapter names it from what the
engine answered, never from the rules: a legal card's reason from the set the engine allows,
the trick's led suit as the engine's own trick records it, and whether the winning card (the
engine's) is a trump.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from tarot import rules

PLAYERS = 4
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"J": "V", "N": "C", "Q": "D", "K": "R"}
"""The kit's court cards (jack, knight, queen, king) as the engine marks them (valet, cavalier, dame, roi)."""
CONTRACTS = {"prise": "PRISE", "garde": "GARDE", "garde_sans": "GARDE_SANS", "garde_contre": "GARDE_CONTRE"}
POIGNEES = {"simple": rules.POIGNEE_SIMPLE, "double": rules.POIGNEE_DOUBLE, "triple": rules.POIGNEE_TRIPLE}
SIDES = {"attack": "taker", "defence": "defence"}
DECK: dict[str, Any] = {card.id: card for card in rules.new_deck()}
SKIPPED = {
    "/v1/deals/deal": "no deal of the cards from a deck or from a seed: the engine deals its own shuffle",
    "/v1/deals/evaluate": "no evaluation of a recorded deal: the engine only plays its own games",
    "/v1/games/score": "no score sheet of a game",
    "/v1/tournaments/standings": "no tournament",
}


class NotTakenError(Exception):
    """A case this engine does not take: skipped, with the reason."""


def engine_id(code: Any) -> str:
    """The engine's id of a card code of the kit (``KS``: ``spades-R``; ``5T``: ``trump-5``; ``EX``: ``excuse``)."""
    if not isinstance(code, str):
        raise NotTakenError(f"{json.dumps(code)} is not a card code, and the engine checks no input")
    if code == "EX":
        return "excuse"
    rank, suit = code[:-1], code[-1:]
    found = f"trump-{rank}" if suit == "T" else f"{SUITS.get(suit, '?')}-{RANKS.get(rank, rank)}"
    if found not in DECK:
        raise NotTakenError(f"{code} is no card of the deck, and the engine checks no input")
    return found


def kit_code(card: Any) -> str:
    """A card of the engine as the kit writes it."""
    if card.type == rules.EXCUSE:
        return "EX"
    if card.type == rules.TRUMP:
        return f"{card.number}T"
    rank: str = {v: k for k, v in RANKS.items()}.get(card.rank, card.rank)
    return rank + next(k for k, v in SUITS.items() if v == card.suit)


def cards(request: dict[str, Any], name: str) -> list[Any]:
    given = request.get(name)
    if not isinstance(given, list):
        raise NotTakenError(f"no list of cards at /{name}, and the engine checks no input")
    return [DECK[engine_id(code)] for code in given]


def seat(request: dict[str, Any], name: str) -> int:
    given = request.get(name)
    if not isinstance(given, int) or isinstance(given, bool):
        raise NotTakenError(f"no seat at /{name}, and the engine checks no input")
    return given


def four_players(request: Any, fields: set[str]) -> dict[str, Any]:
    """The request, if the engine can take it: four players, and no field it has no use for."""
    if not isinstance(request, dict):
        raise NotTakenError("the request is not an object, and the engine checks no input")
    if request.get("players") != PLAYERS:
        raise NotTakenError("the engine plays at four players only")
    other = sorted(set(request) - fields - {"players"})
    if other:
        raise NotTakenError(f"the engine has no {', '.join(other)}")
    return request


def engine_trick(played: list[tuple[Any, int]]) -> Any:
    """The engine's trick of the cards played, recorded as its game records each card played."""
    trick = rules.Trick()
    for card, player in played:
        trick.cards.append((card, player))
        if card.type == rules.SUITED and not trick.led_trump and not trick.led_suit:
            trick.led_suit = card.suit
        if card.type == rules.TRUMP:
            trick.led_trump = True
            trick.highest_trump = max(trick.highest_trump, card.number)
    return trick


def led_suit(trick: Any) -> str | None:
    if trick.led_suit:
        return next(k for k, v in SUITS.items() if v == trick.led_suit)
    return "T" if trick.led_trump else None


def legal_cards(request: Any) -> dict[str, Any]:
    request = four_players(request, {"hand", "trick"})
    hand, played = cards(request, "hand"), cards(request, "trick")
    trick = engine_trick([(card, i) for i, card in enumerate(played)])
    ids = rules.legal_plays(hand, trick)
    legal = [DECK[i] for i in ids]
    return {"legal": [kit_code(c) for c in legal], "reason": reason(legal, trick)}


def reason(legal: list[Any], trick: Any) -> str:
    """The API's name of the set the engine allows: any card before a suit is led (lead), cards of
    the suit led (follow), trumps over the highest in the trick (overtrump), under it
    (undertrump), or any trump (trump); else any card (discard)."""
    plain = [c for c in legal if c.type != rules.EXCUSE]
    if not trick.cards or not (trick.led_suit or trick.led_trump):
        return "lead"
    if plain and all(c.type == rules.SUITED and c.suit == trick.led_suit for c in plain):
        return "follow"
    if plain and all(c.type == rules.TRUMP for c in plain):
        if not trick.highest_trump:
            return "trump"
        return "overtrump" if any(c.number > trick.highest_trump for c in plain) else "undertrump"
    return "discard"


def winner(request: Any) -> dict[str, Any]:
    request = four_players(request, {"leader", "cards"})
    played, leader = cards(request, "cards"), seat(request, "leader")
    seats = [(leader + i) % PLAYERS for i in range(len(played))]
    trick = engine_trick(list(zip(played, seats, strict=True)))
    won = rules.trick_winner(trick.cards)
    if won is None:
        return {
            "winner": None,
            "winner_index": None,
            "winning_card": None,
            "led_suit": None,
            "trumped": False,
            "complete": False,
        }
    index = seats.index(won)
    return {
        "winner": won,
        "winner_index": index,
        "winning_card": kit_code(played[index]),
        "led_suit": led_suit(trick),
        "trumped": played[index].type == rules.TRUMP,
        "complete": len(played) == PLAYERS,
    }


def score(request: Any) -> dict[str, Any]:
    request = four_players(request, {"contract", "taker", "points", "oudlers", "petit_au_bout", "poignees", "chelem"})
    contract = CONTRACTS.get(request.get("contract"))
    points, oudlers, taker = request.get("points"), request.get("oudlers"), seat(request, "taker")
    if contract is None or not isinstance(points, int | float) or not isinstance(oudlers, int):
        raise NotTakenError("no contract, points or oudlers the engine can take, and it checks no input")
    chelem = request.get("chelem") or {}
    if chelem.get("announced"):
        raise NotTakenError("the engine has no announced chelem")
    multiplier = rules.BIDS[contract]["multiplier"]
    need = rules.threshold(oudlers)
    made = points >= need
    difference = points - need
    petit = SIDES.get(request.get("petit_au_bout") or "")
    declared = sum(POIGNEES[p["size"]]["points"] for p in request.get("poignees") or [])
    poignee = {"points": declared} if declared else None
    slam = SIDES.get(chelem.get("made_by") or "")

    def gained(petit: str | None = None, poignee: Any = None, slam: str | None = None) -> float:
        # The engine's hand score is negative when the taker gains: what each defender pays him.
        return -float(rules.hand_score(made, difference, multiplier, petit, poignee, slam))

    contract_points = gained()
    total = rules.hand_score(made, difference, multiplier, petit, poignee, slam)
    return {
        "won": made,
        "threshold": need,
        "margin": abs(contract_points) / multiplier - 25,
        "multiplier": multiplier,
        "contract_points": contract_points,
        "petit_au_bout": gained(petit) - contract_points,
        "poignees": gained(None, poignee) - contract_points,
        "chelem": gained(None, None, slam) - contract_points,
        "per_defender": -total,
        "scores": rules.distribute(taker, total, PLAYERS),
    }


OPERATIONS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "/v1/tricks/legal-cards": legal_cards,
    "/v1/tricks/winner": winner,
    "/v1/deals/score": score,
}


def reply(seq: Any, operation: Any, request: Any) -> dict[str, Any]:
    try:
        if operation in SKIPPED:
            return {"seq": seq, "skipped": True, "message": SKIPPED[operation]}
        if operation not in OPERATIONS:
            return {"seq": seq, "skipped": True, "message": f"{operation} is not in this engine"}
        return {"seq": seq, "answer": OPERATIONS[operation](request)}
    except NotTakenError as exc:
        return {"seq": seq, "skipped": True, "message": str(exc)}
    except Exception as exc:  # the engine failed on this case: it fails, the run goes on
        return {"seq": seq, "error": f"{type(exc).__name__}: {exc}"}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        answer = reply(message.get("seq"), message.get("operation"), message.get("request"))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
