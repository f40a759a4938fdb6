"""How a deal is said on a report's page (:mod:`.html`): a card's face, a seat's heading, the
contract, the dog, the discard and the scores, in the command's language.

A drawing may come from an answer under test: what has not the expected type is shown as it is,
or as a dash, never trusted.
"""

from __future__ import annotations

from typing import Any

from service.messages import Signed

from .words import say, service_term

_SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}
_CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


def card_face(code: str | None) -> dict[str, str]:
    """How a card code is drawn: its rank, its suit's symbol and a class (suit colour, trump, Excuse)."""
    if not code:
        return {"rank": "", "symbol": "", "kind": "none", "code": ""}
    if code == "EX":
        return {"rank": say("html.face.excuse"), "symbol": "★", "kind": "excuse", "code": code}
    rank, suit = code[:-1], code[-1]
    if suit == "T":
        return {"rank": rank, "symbol": say("html.face.trump"), "kind": "trump", "code": code}
    symbol, colour = _SUITS.get(suit, ("?", "black"))
    # The ranks as the players of the language mark their cards (J Q K, « V D R »; C for the knight).
    return {"rank": _RANKS.get(rank, lambda: rank)(), "symbol": symbol, "kind": colour, "code": code}


_RANKS: dict[str, Any] = {
    "1": lambda: say("html.face.ace"),
    "J": lambda: say("html.face.jack"),
    "N": lambda: say("html.face.knight"),
    "Q": lambda: say("html.face.queen"),
    "K": lambda: say("html.face.king"),
}


def seat_heading(seat: int, taker: Any, partner: Any) -> str:
    said = say("html.seat", seat=seat)
    if seat == taker:
        return say("html.seat_role", seat=said, role=say("html.taker_role"))
    if seat == partner and is_seat(partner):
        return say("html.seat_role", seat=said, role=say("html.partner_role"))
    return said


def _contract(value: Any) -> str:
    # The drawing may come from an answer under test: a value that is no contract is shown as it is.
    return service_term("contract", value) if value in _CONTRACTS else str(value or "—")


def deal_meta(drawing: dict[str, Any]) -> list[tuple[str, str]]:
    # The drawing may come from an answer under test: only what has the expected type is shown.
    meta = [(say("html.contract"), _contract(drawing["contract"]))]
    taker, partner = drawing["taker"], drawing["partner"]
    meta.append((say("html.taker"), say("html.seat", seat=taker) if is_seat(taker) else "—"))
    if is_seat(partner):
        meta.append((say("html.partner"), say("html.seat", seat=partner)))
    for label, key in ((say("html.dog"), "dog"), (say("html.discard"), "discard")):
        cards = drawing.get(key) or []
        meta.append((label, " ".join(_plain_face(c) for c in cards if isinstance(c, str)) or "—"))
    ruling = drawing.get("ruling")
    if ruling:
        meta.append((say("html.ruling"), str(ruling.get("message") or ruling.get("decision", ""))))
        meta.append((say("html.final_score"), _marks(ruling.get("scores"))))
    elif drawing.get("scores") is not None:
        meta.append((say("html.final_score"), _marks(drawing["scores"])))
    return meta


def is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _marks(scores: Any) -> str:
    """Every seat's mark with its seat: ``seat 0: +318 · seat 1: −106…``."""
    if not isinstance(scores, list):
        return "—"
    return " · ".join(
        say("html.seat_mark", seat=say("html.seat", seat=seat), mark=Signed(mark) if is_seat(mark) else str(mark))
        for seat, mark in enumerate(scores)
    )


def _plain_face(code: str) -> str:
    face = card_face(code)
    return f"{face['rank']}{face['symbol']}"
