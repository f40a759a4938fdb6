"""What a refused value was probably meant to be: the nearest card codes, field names, enum values.

Small and deterministic (the same refusal always gets the same hint), written from the card
notation of rules.md §1.5: a rank (``1``–``10``, ``J``, ``N``, ``Q``, ``K``) then a suit
(``S``, ``H``, ``D``, ``C``), a trump's number then ``T``, ``EX`` for the Excuse. What players
write instead is read first: the words of :mod:`.words` (a lower-case code, an ace as ``A``, a
ten as ``T``, the ranks and suits in words, English or French, a trump as ``T21`` or
« 21 d'atout »; an enum's values by their other names, « nord » for north); anything else gets
what looks closest (:mod:`difflib`). Words are compared by their plain spelling (:func:`plain`).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from service.messages import Arg, msg
from service.rules.cards import CARD_BY_CODE, CARD_CODES

from . import words
from .problems import Hint

MAX_CARD_SUGGESTIONS = 4
"""Four: a rank whose suit letter is wrong is each of the four suits' card of that rank."""

T = TypeVar("T")

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss"})


def plain(text: str) -> str:
    """``text`` in its plain spelling, as words are compared: lower case, without accents, letters
    and digits only (``Garde-Sans``, ``garde sans``: ``gardesans``; ``Cœur``: ``coeur``)."""
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(_LIGATURES))
    return re.sub(r"[^a-z0-9]", "", "".join(c for c in decomposed if not unicodedata.combining(c)))


def _upper(table: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """A table of codes and their words, by each word's plain spelling in capitals."""
    return {plain(word).upper(): code for code, said in table.items() for word in (code, *said)}


_RANKS = _upper(words.RANK_WORDS)
_SUIT_WORDS = _upper(words.SUIT_WORDS)
_OF = tuple(plain(joint).upper() for joint in words.OF)
_SUITS = {
    **_SUIT_WORDS,
    # "king of spades", « roi de pique »: the words between rank and suit.
    **{joint + word: suit for word, suit in _SUIT_WORDS.items() if len(word) > 1 for joint in _OF},
}
_EXCUSE = frozenset(plain(word).upper() for word in words.EXCUSE_WORDS)
_PETIT = frozenset(plain(word).upper() for word in words.PETIT_WORDS)
_ARTICLES = tuple(plain(article).upper() for article in words.ARTICLES)
_MARKS = sorted(
    {plain(mark).upper() for mark in words.TRUMP_WORDS}
    | {joint + plain(mark).upper() for mark in words.TRUMP_WORDS if len(mark) > 1 for joint in _OF},
    key=lambda mark: (-len(mark), mark),
)
_TRUMP_MARK = re.compile("|".join(_MARKS))
_TRUMP = re.compile(rf"(?:{_TRUMP_MARK.pattern})?(\d{{1,2}})(?:{_TRUMP_MARK.pattern})?")


def nearest_cards(value: str) -> tuple[str, ...]:
    """The card codes ``value`` was probably meant to be, likeliest first (none when nothing is near)."""
    text = plain(value[:48]).upper()[:24]
    if not text:
        return ()
    if text in CARD_BY_CODE:  # the case, or spaces
        return (text,)
    found = _by_notation(text)
    if not found:  # « le roi de cœur », "the Excuse"
        # Every article it may start with: without its separators « l'as d'pique » reads as
        # « la » and a queen too, and both cards are suggested.
        found = [
            card
            for article in _ARTICLES
            if text.startswith(article) and len(text) > len(article)
            for card in _by_notation(text[len(article) :])
        ]
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


def _by_plain(table: Mapping[Any, Iterable[str]]) -> dict[str, Any]:
    """A table of values and their words (:mod:`.words`), by each word's plain spelling."""
    return {plain(word): value for value, said in table.items() for word in said}


_ENUM_WORDS = {enum: _by_plain(table) for enum, table in words.ENUM_WORDS.items()}


def _words_of_values() -> dict[str, frozenset[str]]:
    """Every enum value's other names, by the value as a field would be named after it
    (``north``: ``nord``, ``n``), whichever enums it is a value of."""
    found: dict[str, set[str]] = {}
    for table in words.ENUM_WORDS.values():
        for value, said in table.items():
            found.setdefault(str(value), set()).update(map(plain, said))
    return {value: frozenset(said) for value, said in found.items()}


_VALUE_WORDS = _words_of_values()


def nearest_fields(key: str, names: Iterable[str]) -> tuple[str, ...]:
    """The field names ``key`` was probably meant to be, among ``names`` (those of the object
    it is in, not already given): the same name in another case or spelling (``firstTrick``,
    ``First-Trick``) first, then a field named after an enum's value by another name of that
    value (``nord``: ``north``), then the closest spelt (``tricks``: ``trick``)."""
    names = list(names)
    said = plain(key[:80])
    by_plain = {plain(name): name for name in names}
    if said in by_plain:
        return (by_plain[said],)
    named = tuple(name for name in names if said in _VALUE_WORDS.get(name, ()))
    return named or _closest(said, by_plain)


def _closest(said: str, by_plain: Mapping[str, T]) -> tuple[T, ...]:
    """The values whose plain spelling is closest to ``said`` (two at most)."""
    return tuple(by_plain[found] for found in difflib.get_close_matches(said, list(by_plain), n=2, cutoff=0.7))


def field_hint(key: str, names: Iterable[str]) -> Hint | None:
    """The hint of an unknown field: the field names it was probably meant to be."""
    found = nearest_fields(key, names)
    if not found:
        return None
    return Hint(msg("error.unknown_field.hint", names=either(tuple(f"`{name}`" for name in found))), found)


def enum_hint(value: Any, choices: Iterable[Any], enum: str | None = None) -> Hint | None:
    """The hint of a value outside an enum (named ``enum`` in the contract), among the values the
    request takes (``choices``): the same in another case or spelling (``Garde``, ``garde sans``:
    ``garde_sans``), another name of one of them (:data:`.words.ENUM_WORDS`: ``petite``,
    ``prise``; « ouest », ``west``), or the closest spelt (``defense``: ``defence``). A number is
    hinted as a number, without suggestions (which are strings): ``"3"``, 3."""
    if not isinstance(value, str):
        return None
    choices = tuple(choices)
    said = plain(value[:80])
    by_plain = {plain(str(choice)): choice for choice in choices}
    named = _ENUM_WORDS.get(enum or "", {}).get(said)
    if said in by_plain:
        found: tuple[Any, ...] = (by_plain[said],)
    elif named is not None and named in choices:
        found = (named,)
    else:
        found = _closest(said, by_plain)
    if not found:
        return None
    values = tuple(map(str, found))
    if all(isinstance(choice, int) for choice in found):
        return Hint(msg("error.enum.hint.number", values=either(values)))
    return Hint(msg("error.enum.hint", values=either(values)), values)


def either(choices: tuple[str, ...]) -> Arg:
    """``choices`` said as alternatives: ``KS``, ``KS or KH``, ``KS, KH, KD or KC``."""
    if len(choices) == 1:
        return choices[0]
    return msg("text.or", first=", ".join(choices[:-1]), last=choices[-1])
