"""Words for people, in French or English: the service's message catalogs.

The rules core and the HTTP layer say what to tell as :class:`~service.rules.verdicts.Message`
values: a catalog key that starts with the verdict or error code, and the specifics (the card,
the seat, the trump to beat). Here a message becomes a sentence in the reader's language. The
sentences live in gettext catalogs, one per language and domain, under ``locales/``:
``messages`` for the service's answers, ``cli`` for the ``tarot-rules`` command. The ``.po``
files are the source and are committed; the install compiles them to the ``.mo`` files read
here (see ``setup.py``; ``make`` recompiles a catalog whose ``.po`` changed).

Machine codes never depend on the language; only these words do.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

from babel import Locale
from babel.core import default_locale
from babel.numbers import format_decimal
from babel.support import Translations

from service.messages import Arg, Bytes, CardCodes, CardName, Message, Points, Signed, SignedList, Term
from service.rules.cards import CARD_CODES, EXCUSE, FIRST_TRUMP, PETIT, RANK_OF, SUIT_OF, Card, Suit, iter_cards

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Catalog",
    "CatalogError",
    "catalog",
    "render",
    "system_language",
]

LANGUAGES: Final = ("en", "fr")
"""The languages the service speaks, as language tags (BCP 47) and catalog directories."""
DEFAULT_LANGUAGE: Final = "en"
"""The language of an answer when the client asks for none the service speaks."""
LOCALES: Final = Path(__file__).parent / "locales"

_SIGNED: Final = "+#,##0;-#,##0"

TRICK: Final = "trick"
"""The argument that holds a trick's index, in any catalog: 0-based as in every machine field,
said from 1 (the first trick is "trick 1", « pli 1 »). :meth:`Catalog.render` adds the one;
the code that makes a message passes the index as it is."""
TRICKS_BY_KEY: Final[dict[str, frozenset[str]]] = {
    # The claimed and the correct first fault's trick (each an index, or null outside the play).
    "claim.first_violation.trick": frozenset({"correct", "claimed"}),
}
"""Keys whose trick indexes come under other names than ``trick``: those names."""


class CatalogError(RuntimeError):
    """A catalog is missing (not compiled) or lacks a key: a fault of the install, never of a request."""


class Catalog:
    """One language's sentences of one domain, and how that language writes numbers and cards."""

    def __init__(self, language: str, domain: str = "messages") -> None:
        translations = Translations.load(LOCALES, [language], domain)
        if not isinstance(translations, Translations):
            raise CatalogError(
                f"No compiled {domain} catalog for {language!r} in {LOCALES}: install the package "
                "(pip install ., or make), which compiles the .po files."
            )
        self.language = language
        self.domain = domain
        self.locale = Locale.parse(language)
        self._gettext = translations.gettext
        self._ngettext = translations.ngettext
        self._cards: tuple[str, ...] | None = None

    def has(self, key: str) -> bool:
        """Whether the catalog holds ``key`` (a word looked up by a value another program sent)."""
        return self._gettext(key) != key

    def template(self, key: str, count: int | Points | None = None) -> str:
        """The sentence of ``key`` with its ``{placeholders}``, in the plural form ``count`` asks for."""
        found = self._gettext(key) if count is None else self._ngettext(key, key, self._plural_n(count))
        if found == key:  # gettext answers the key itself when the catalog lacks it
            raise CatalogError(f"The {self.language} {self.domain} catalog has no {key!r}.")
        return found

    def render(self, message: Message, *, sentence: bool = True) -> str:
        """``message`` in this language; a sentence starts with a capital letter."""
        tricks = TRICKS_BY_KEY.get(message.key, frozenset((TRICK,)))
        values = {name: self.value(_from_one(arg) if name in tricks else arg) for name, arg in message.args}
        if message.count is not None:
            values["count"] = self.value(message.count)
        text = self.template(message.key, message.count).format_map(values)
        return text[:1].upper() + text[1:] if sentence else text

    def value(self, arg: Arg) -> str:
        """One argument as this language writes it."""
        if isinstance(arg, str):
            return arg
        if isinstance(arg, int):
            return self.number(arg)
        if isinstance(arg, CardName):
            return self.card_name(arg.card)
        if isinstance(arg, CardCodes):
            return ", ".join(CARD_CODES[card] for card in iter_cards(arg.cards))
        if isinstance(arg, Points):
            return _points(arg.half, self.language)
        if isinstance(arg, Signed):
            return _signed(arg.value, self.language)
        if isinstance(arg, SignedList):
            return ", ".join(_signed(value, self.language) for value in arg.values)
        if isinstance(arg, Term):
            return self.template(f"term.{arg.kind}.{arg.value}")
        if isinstance(arg, Bytes):
            return self.size(arg.count)
        return self.render(arg, sentence=False)

    def size(self, count: int) -> str:
        """A size in bytes, in the largest binary unit that divides it (limits are round: 64 KiB)."""
        for key, unit in (("unit.mib", 1024 * 1024), ("unit.kib", 1024)):
            if count >= unit and count % unit == 0:
                return self.template(key).format(number=self.number(count // unit))
        return self.template("unit.bytes", count).format(count=self.number(count))

    def number(self, value: int) -> str:
        # Small counts, seats and tricks are written alike in both languages.
        return str(value) if 0 <= value < 1000 else format_decimal(value, locale=self.locale)

    def decimal(self, value: float) -> str:
        """A number as a value, with this language's decimal mark and no grouping (6.5, « 6,5 »,
        -1440): values stand in lists, where a grouping comma would read as a separator."""
        return format_decimal(value, format="0.###", locale=self.locale)

    def card_name(self, card: Card) -> str:
        if self._cards is None:
            self._cards = tuple(self._name(c) for c in range(len(CARD_CODES)))
        return self._cards[card]

    def _name(self, card: Card) -> str:
        if card == EXCUSE:
            return self.template("card.excuse")
        if card == PETIT:
            return self.template("card.petit")
        if card >= FIRST_TRUMP:
            return self.template("card.trump").format(number=RANK_OF[card])
        rank = RANK_OF[card]
        suit = SUIT_OF[card]
        assert suit is not None and suit is not Suit.TRUMPS
        rank_words = self.template(f"rank.{rank}") if rank == 1 or rank > 10 else self.template("rank.number")
        return self.template("card.plain").format(
            rank=rank_words.format(number=rank), suit=self.template(f"term.suit.{suit.name.lower()}")
        )

    def _plural_n(self, count: int | Points) -> int:
        if isinstance(count, int):
            return count
        # gettext chooses forms by an integer; for half points the language's own (CLDR) rule
        # says whether 1.5 is singular (French) or plural (English).
        return 1 if self.locale.plural_form(count.half / 2) == "one" else 2


def _from_one(index: Arg) -> Arg:
    """A trick index as people count tricks: 0 is the first trick, said 1; anything else (the
    message said for null) is left as it is."""
    return index + 1 if isinstance(index, int) else index


@lru_cache(maxsize=8)
def catalog(language: str, domain: str = "messages") -> Catalog:
    """The catalog of ``language`` (one of :data:`LANGUAGES`) for ``domain``, loaded once."""
    if language not in LANGUAGES:
        raise CatalogError(f"The service does not speak {language!r}.")
    return Catalog(language, domain)


@lru_cache(maxsize=8192)
def render(message: Message, language: str) -> str:
    """``message`` as a sentence in ``language``. Cached: legal-card reasons and score lines
    repeat from one answer to the next."""
    return catalog(language).render(message)


@lru_cache(maxsize=512)
def _points(half: int, language: str) -> str:
    return format_decimal(half / 2, locale=language)


@lru_cache(maxsize=4096)
def _signed(value: int, language: str) -> str:
    return format_decimal(value, format=_SIGNED, locale=language)


def system_language() -> str:
    """The language of the user's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
    for the command line; English when it is neither French nor English."""
    # In this order, and not Babel's default for LC_MESSAGES, which looks at LC_CTYPE before
    # LANG: Python sets LC_CTYPE to C.UTF-8 itself when LANG names a locale the system lacks.
    found = default_locale(("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"))
    language = found.split("_")[0] if found else DEFAULT_LANGUAGE
    return language if language in LANGUAGES else DEFAULT_LANGUAGE
