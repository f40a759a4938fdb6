"""What a refused value was probably meant to be: the nearest card codes, the nearest field names.

Small and deterministic (the same refusal always gets the same hint), written from the card
notation of rules.md §1.5: a rank (``1``–``10``, ``J``, ``N``, ``Q``, ``K``) then a suit
(``S``, ``H``, ``D``, ``C``), a trump's number then ``T``, ``EX`` for the Excuse. What players
write instead is read first (a lower-case code, an ace as ``A``, a ten as ``T``, the ranks and
suits in words, English or French, a trump as ``T21`` or ``21A``); anything else gets the codes
that look closest (:mod:`difflib`).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from service.messages import Arg, msg
from service.rules.cards import CARD_BY_CODE, CARD_CODES

from .problems import Hint

MAX_CARD_SUGGESTIONS = 4
"""Four: a rank whose suit letter is wrong is each of the four suits' card of that rank."""

_RANKS = {
    **{str(n): str(n) for n in range(1, 11)},
    "A": "1", "ACE": "1", "AS": "1",
    "T": "10", "TEN": "10", "DIX": "10",
    "J": "J", "JACK": "J", "V": "J", "VALET": "J",
    "N": "N", "KN": "N", "C": "N", "CV": "N", "KNIGHT": "N", "CAVALIER": "N",
    "Q": "Q", "QUEEN": "Q", "D": "Q", "DAME": "Q",
    "K": "K", "KING": "K", "R": "K", "ROI": "K",
}  # fmt: skip
"""What players write for each rank of a plain suit: the code, English and French letters and words."""

_SUIT_WORDS = {
    "S": "S", "SPADE": "S", "SPADES": "S", "PIQUE": "S", "P": "S",
    "H": "H", "HEART": "H", "HEARTS": "H", "COEUR": "H", "CŒUR": "H",
    "D": "D", "DIAMOND": "D", "DIAMONDS": "D", "CARREAU": "D",
    "C": "C", "CLUB": "C", "CLUBS": "C", "TREFLE": "C", "TRÈFLE": "C",
}  # fmt: skip
_SUITS = {
    **_SUIT_WORDS,
    # "king of spades", « roi de pique »: the words between rank and suit.
    **{f"{joint}{word}": suit for word, suit in _SUIT_WORDS.items() if len(word) > 1 for joint in ("OF", "DE")},
}
_EXCUSE = frozenset({"E", "X", "EXC", "EXCUSE", "FOOL", "L'EXCUSE"})
_PETIT = frozenset({"P", "PETIT", "LEPETIT"})
_TRUMP = re.compile(r"(?:T|A|ATOUT|TRUMP)?(\d{1,2})(?:T|A|ATOUT|TRUMP)?")
_TRUMP_MARK = re.compile(r"T|A|ATOUT|TRUMP")
_SEPARATORS = re.compile(r"[\s_\-.,/]+")


def nearest_cards(value: str) -> tuple[str, ...]:
    """The card codes ``value`` was probably meant to be, likeliest first (none when nothing is near)."""
    text = _SEPARATORS.sub("", value).upper()[:24]
    if not text:
        return ()
    if text in CARD_BY_CODE:  # the case, or spaces
        return (text,)
    found = _by_notation(text)
    if not found:
        found = difflib.get_close_matches(text, CARD_CODES, n=MAX_CARD_SUGGESTIONS, cutoff=0.6)
    return tuple(dict.fromkeys(found))[:MAX_CARD_SUGGESTIONS]


def _by_notation(text: str) -> list[str]:
    if text in _EXCUSE:
        return ["EX"]
    if text in _PETIT:
        return ["1T"]
    trump = _TRUMP.fullmatch(text)
    if trump is not None and 1 <= int(trump[1]) <= 21:
        number = int(trump[1])
        # A bare number is a trump only above 10; with a mark (T21, 21A) always.
        if number > 10 or _TRUMP_MARK.search(text):
            return [f"{number}T"]
    found = []
    for cut in range(1, len(text)):
        head, tail = text[:cut], text[cut:]
        if head in _RANKS and tail in _SUITS:
            found.append(_RANKS[head] + _SUITS[tail])
        if head in _SUITS and tail in _RANKS:  # the suit first: SK, H10
            found.append(_RANKS[tail] + _SUITS[head])
        if head in _RANKS and _RANKS[head].isdigit() and _TRUMP_MARK.fullmatch(tail):  # AT, TT: 1T, 10T
            found.append(_RANKS[head] + "T")
    if found:
        return found
    for cut in range(len(text) - 1, 0, -1):
        # A rank and one letter that is no suit: the four cards of that rank.
        if text[:cut] in _RANKS and len(text) - cut == 1 and text[cut:].isalpha():
            rank = _RANKS[text[:cut]]
            return [rank + suit for suit in "SHDC"]
    return []


def card_hint(value: str) -> Hint | None:
    """The hint of an unknown card code: the codes it was probably meant to be."""
    found = nearest_cards(value)
    if not found:
        return None
    return Hint(msg("error.unknown_card.hint", cards=either(found)), found)


def nearest_fields(key: str, names: Iterable[str]) -> tuple[str, ...]:
    """The field names ``key`` was probably meant to be, among ``names`` (those of the object
    it is in, not already given): the same name in another case or spelling (``firstTrick``,
    ``First-Trick``) first, then the closest spelt (``tricks``: ``trick``)."""
    by_plain = {_plain(name): name for name in names}
    plain = _plain(key[:80])
    if plain in by_plain:
        return (by_plain[plain],)
    return tuple(by_plain[found] for found in difflib.get_close_matches(plain, list(by_plain), n=2, cutoff=0.7))


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def field_hint(key: str, names: Iterable[str]) -> Hint | None:
    """The hint of an unknown field: the field names it was probably meant to be."""
    found = nearest_fields(key, names)
    if not found:
        return None
    return Hint(msg("error.unknown_field.hint", names=either(tuple(f"`{name}`" for name in found))), found)


_SYNONYMS = {
    # Contracts and bids: the old French name of prise, the English names, the variant's garde.
    "petite": "prise", "take": "prise", "small": "prise",
    "guard": "garde", "pousse": "garde", "push": "garde",
    "gardesanslechien": "garde_sans", "guardwithout": "garde_sans", "guardwithoutthekitty": "garde_sans",
    "gardecontrelechien": "garde_contre", "guardagainst": "garde_contre", "guardagainstthekitty": "garde_contre",
    "passe": "pass", "pas": "pass",
    # Sides: French, and the players of each side.
    "attaque": "attack", "attacker": "attack", "attackers": "attack", "preneur": "attack", "taker": "attack",
    "defense": "defence", "defenders": "defence", "defenseurs": "defence",
    # Poignée sizes, in English and with the word itself.
    "single": "simple", "poigneesimple": "simple", "simplepoignee": "simple",
    "poigneedouble": "double", "doublepoignee": "double", "poigneetriple": "triple", "triplepoignee": "triple",
    # A deal not played.
    "redonne": "redeal", "redistribuee": "redeal", "dealtagain": "redeal", "nulle": "void", "annulee": "void",
}  # fmt: skip
"""Values players write for an enum's own, by their plain spelling (lower case, no accents,
letters and digits only): another name of the same thing, which spelling alone would not find
(``petite`` is prise, ``single`` is simple)."""


def _word(value: str) -> str:
    """``value`` in its plain spelling: ``Défense`` and ``defense`` alike."""
    decomposed = unicodedata.normalize("NFKD", value.lower())
    return re.sub(r"[^a-z0-9]", "", "".join(c for c in decomposed if not unicodedata.combining(c)))


def enum_hint(value: Any, choices: Iterable[Any]) -> Hint | None:
    """The hint of a value outside an enum, among the values the request takes (``choices``):
    another name of one of them (``petite``: ``prise``), the same in another case or spelling
    (``Garde``, ``garde sans``: ``garde_sans``), or the closest spelt (``defense``: ``defence``);
    for a number sent as a string, the number (``"4"``: ``4``)."""
    if not isinstance(value, str):
        return None
    said = [str(choice) for choice in choices]
    plain = _word(value[:80])
    by_plain = {_word(choice): choice for choice in said}
    synonym = _SYNONYMS.get(plain)
    if plain in by_plain:
        found: tuple[str, ...] = (by_plain[plain],)
    elif synonym in said:
        found = (synonym,)
    else:
        found = nearest_fields(value, said)
    if not found:
        return None
    return Hint(msg("error.enum.hint", values=either(found)), found)


def either(choices: tuple[str, ...]) -> Arg:
    """``choices`` said as alternatives: ``KS``, ``KS or KH``, ``KS, KH, KD or KC``."""
    if len(choices) == 1:
        return choices[0]
    return msg("text.or", first=", ".join(choices[:-1]), last=choices[-1])
