"""The command's words for people, in the language chosen for the run: the ``cli`` catalog.

:func:`~service.cli.main` chooses the language once (``--lang``, else the user's locale) and
calls :func:`use`; the modules of the command then say every text with :func:`say`, whose first
argument is always a literal catalog key, so that a test finds each key the code uses and checks
it against both catalogs. The service's own texts (a violation, a problem's detail) must come in
the same language: :func:`language` goes to the rules pipeline in this process, and to a running
service as ``Accept-Language``.

Machine codes, JSON names, test ids and the names of files never go through here.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from service.messages import Arg, Message, Term, msg
from service.texts import DEFAULT_LANGUAGE, catalog

DOMAIN: Final = "cli"


@dataclass
class _Choice:
    language: str = DEFAULT_LANGUAGE


# One language per process: the command runs once per process, and its worker processes are
# told the language when they start (see local.py).
_chosen = _Choice()


def use(language: str) -> None:
    """Speak ``language`` (one of :data:`service.texts.LANGUAGES`) from now on."""
    catalog(language, DOMAIN)  # loaded now: a catalog missing from the install fails here, not mid-run
    _chosen.language = language


def language() -> str:
    """The language chosen for the run, a language tag (``en``, ``fr``)."""
    return _chosen.language


def say(key: str, count: int | None = None, /, **args: Arg) -> str:
    """The text of ``key`` with its ``{placeholders}`` filled, in the chosen language; ``count``
    chooses the plural form (and is ``{count}``). Numbers are written as the language writes them.
    Texts are given as written: they are often the middle of a line, never capitalised here."""
    return catalog(_chosen.language, DOMAIN).render(msg(key, count, **args), sentence=False)


def labelled(label: str, text: str) -> str:
    """``label: text``, with the language's spacing before the colon."""
    return say("text.labelled", label=label, text=text)


def number(value: int) -> str:
    """A count as the language writes it (``12,345``, « 12 345 »)."""
    return catalog(_chosen.language, DOMAIN).number(value)


def decimal(value: float) -> str:
    """A number that may have decimals, as the language writes it (``6.5``, « 6,5 »)."""
    return catalog(_chosen.language, DOMAIN).decimal(value)


def json_text(value: Any) -> str:
    """A JSON value for people, as JSON writes it (``null``, ``true``, ``"EX"``, ``[1, 2]``; non-ASCII
    as it is): what the conformance reports show of an expectation or an answer, in every language,
    since the kit's cases and the implementations' answers are JSON."""
    return json.dumps(value, ensure_ascii=False)


def value_text(value: Any, term: str | None = None) -> str:
    """A replay's claimed or correct value for people, in the language: numbers as it writes them,
    ``true``/``false`` and ``null`` in its words, lists and objects with its separator; a string
    is quoted as sent, unless ``term`` names the kind of game word it is (``violation``: « renonce »)."""
    if value is None:
        return say("value.none")
    if isinstance(value, bool):
        return say("value.true") if value else say("value.false")
    if isinstance(value, int | float):
        return decimal(value)
    if isinstance(value, str):
        known = term is not None and catalog(_chosen.language).has(f"term.{term}.{value}")
        return service_term(term, value) if known and term else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + _joined([value_text(v, term) for v in value]) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + _joined([labelled(json.dumps(str(k), ensure_ascii=False), value_text(v)) for k, v in value.items()])
            + "}"
        )
    return json.dumps(value, ensure_ascii=False, default=str)


def _joined(items: list[str]) -> str:
    # The language's separator: a comma in English; a semicolon in French, whose numbers have the comma.
    return (
        functools.reduce(lambda values, value: say("value.joined", values=values, value=value), items) if items else ""
    )


def service_text(message: Message, *, sentence: bool = False) -> str:
    """A text of the service's own catalog (a JSON parser's reason), in the chosen language."""
    return catalog(_chosen.language).render(message, sentence=sentence)


def service_term(kind: str, value: str) -> str:
    """A word of the game from the service's catalog (``contract``, ``garde_contre``: « garde contre »)."""
    return catalog(_chosen.language).value(Term(kind, value))


# -- argparse's own words -----------------------------------------------------------------------------------

# argparse says its headings and its usage errors in English through its module's ``_`` (its
# gettext hook). While the command's parser is built and used, that hook answers from this
# catalog instead (argparse_words): one table covers the headings and the errors alike, which
# subclassing the parser and its formatter would not. Each text of argparse (Python 3.11) is
# listed with its key, and the placeholder name given to its bare ``%s`` or ``%r``, if any; a
# text not listed (one of another Python's argparse) stays as argparse words it.
ARGPARSE_TEXTS: Final[dict[str, tuple[str, str]]] = {
    "usage: ": ("argparse.usage", ""),
    "positional arguments": ("argparse.positionals", ""),
    "options": ("argparse.options", ""),
    "show this help message and exit": ("argparse.help", ""),
    "%(prog)s: error: %(message)s\n": ("argparse.error", ""),
    "argument %(argument_name)s: %(message)s": ("argparse.argument", ""),
    "the following arguments are required: %s": ("argparse.required", "arguments"),
    "one of the arguments %s is required": ("argparse.one_required", "arguments"),
    "not allowed with argument %s": ("argparse.not_allowed_with", "argument"),
    "unrecognized arguments: %s": ("argparse.unrecognized", "arguments"),
    "ignored explicit argument %r": ("argparse.ignored", "value"),
    "expected one argument": ("argparse.expected_one", ""),
    "expected at most one argument": ("argparse.expected_at_most_one", ""),
    "expected at least one argument": ("argparse.expected_at_least_one", ""),
    "ambiguous option: %(option)s could match %(matches)s": ("argparse.ambiguous", ""),
    "invalid %(type)s value: %(value)r": ("argparse.invalid_value", ""),
    "invalid choice: %(value)r (choose from %(choices)s)": ("argparse.invalid_choice", ""),
}
_PRINTF: Final = re.compile(r"%(?:\((\w+)\))?[sr]")
"""argparse's %-placeholders: ``%(name)s``, ``%(name)r``, bare ``%s`` and ``%r``."""


def argparse_placeholders(text: str) -> dict[str, str]:
    """The %-placeholders of an argparse text by the ``{name}`` its catalog text uses for them."""
    bare = ARGPARSE_TEXTS[text][1]
    return {m.group(1) or bare: m.group(0) for m in _PRINTF.finditer(text)}


def _argparse_text(text: Any) -> Any:
    if not isinstance(text, str) or text not in ARGPARSE_TEXTS:
        return text  # the command's own texts (a title it gave) come here too, already translated
    template = catalog(_chosen.language, DOMAIN).template(ARGPARSE_TEXTS[text][0])
    # argparse %-formats the text it gets back: its placeholders go back in, in its own syntax.
    # The catalog keeps texts without the end ("usage: " has its space, errors their new line).
    ending = text[len(text.rstrip()) :]
    return template.format_map(argparse_placeholders(text)) + ending


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its headings ended as the language ends a heading ("options :" in French)."""

    def start_section(self, heading: str | None) -> None:
        # argparse writes the colon itself, right after the heading.
        super().start_section(heading and say("text.heading", label=heading).removesuffix(":"))


@contextmanager
def argparse_words() -> Iterator[None]:
    """argparse speaks the chosen language within this block (and as before after it)."""
    module = vars(argparse)
    saved = module["_"]
    module["_"] = _argparse_text
    try:
        yield
    finally:
        module["_"] = saved
