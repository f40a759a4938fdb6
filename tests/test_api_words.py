"""A value said in words is hinted as the value it names: every enum a request carries (walked
from the operations' schemas and the contract's query parameters), each value of it, by every
word French and English players write for it (service/contract/words.py: « nord », ``petite``,
« garde sans », ``taker``, ``all``), its case, accents, spaces, underscores, hyphens and
apostrophes any way; every card by its rank and suit in words (rules.md §1.5: « roi de cœur »,
« 21 d'atout », « l'Excuse »); a field named after an orientation by the orientation's words.
A number said as a string, or in words, is hinted as a number."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.contract.components import COMPONENTS
from service.contract.fields import CalledCardField, CardField, EnumField
from service.contract.hints import nearest_cards, plain
from service.contract.words import (
    ARTICLES,
    ENUM_WORDS,
    EXCUSE_WORDS,
    OF,
    PETIT_WORDS,
    RANK_WORDS,
    SUIT_WORDS,
    TRUMP_WORDS,
)
from tests.badinputs import ROOT
from tests.test_api_accepted import ENUMS, FIELDS, accepted_values, errors_at, holding, planted, sound_for

NBSP = "\u00a0"
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SEPARATORS = (" ", "_", "-", "'", "\u2019", "")


def query_enums() -> list[tuple[str, str, str]]:
    """Every query parameter of an operation that takes an enum: (path, parameter, enum)."""
    found = []
    for path, item in SPEC["paths"].items():
        for op in item.values():
            for parameter in op.get("parameters", []):
                named = SPEC["components"]["parameters"].get(parameter.get("$ref", "").rsplit("/", 1)[-1], parameter)
                ref = named.get("schema", {}).get("$ref", "")
                if named["in"] == "query" and "enum" in SPEC["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {}):
                    found.append((path, named["name"], ref.rsplit("/", 1)[-1]))
    return found


QUERY_ENUMS = query_enums()


def test_every_enum_a_request_carries_has_words_for_each_value() -> None:
    carried = {field.component for _, _, field in ENUMS} | {enum for _, _, enum in QUERY_ENUMS}
    assert set(ENUM_WORDS) == carried, "each enum a request carries has its words, and only those"
    for enum, table in ENUM_WORDS.items():
        assert list(table) == COMPONENTS[enum]["enum"], enum
        assert all(table.values()), f"{enum}: a value without words"


def test_a_word_names_one_value_of_its_enum() -> None:
    # pousse, the variant's name of garde (rules.md §11), is garde where the request does not take it.
    named_twice = {("Contract", "pousse"), ("Bid", "pousse")}
    for enum, table in ENUM_WORDS.items():
        owners: dict[str, Any] = {plain(str(value)): value for value in table}
        for value, words in table.items():
            for word in words:
                owner = owners.setdefault(plain(word), value)
                assert owner == value or (enum, plain(word)) in named_twice, (enum, word, owner, value)


@st.composite
def varied(draw: st.DrawFn, word: str) -> str:
    """``word`` as people type it: each letter in either case, with or without its accent, each
    space, underscore, hyphen or apostrophe as any of them or none."""
    out = []
    for char in word:
        if char in SEPARATORS:
            out.append(draw(st.sampled_from(SEPARATORS)))
            continue
        typed = unaccented(char) if draw(st.booleans()) else char
        out.append(typed.upper() if draw(st.booleans()) else typed)
    return "".join(out)


def unaccented(char: str) -> str:
    """A letter as typed without its accent: ``é``, ``e``; ``œ``, ``oe``."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return bare.replace("œ", "oe").replace("Œ", "OE")


def meant(error: dict[str, Any], value: Any, language: str) -> None:
    """``error`` hints ``value``: a string as its suggestion, a number in words only."""
    if isinstance(value, int):
        assert "suggestions" not in error, error
        said = "as a number (without quotes)" if language == "en" else f"en nombre (sans guillemets){NBSP}?"
        assert str(value) in error["hint"] and said in error["hint"], error
    else:
        assert error["suggestions"] == [value], error
        assert error["hint"] == (f"Did you mean {value}?" if language == "en" else f"Vouliez-vous dire {value}{NBSP}?")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(ENUMS), data=st.data(), language=st.sampled_from(["en", "fr"]))
def test_an_enum_value_said_in_words_is_hinted(
    client: FlaskClient, case: tuple[str, str, EnumField], data: st.DataObject, language: str
) -> None:
    path, pointer, field = case
    sound = sound_for(path, pointer)
    integer = COMPONENTS[field.component]["type"] == "integer"
    taken = [v for v in accepted_values(field, holding(path, pointer, sound)) if v != "null"]
    value = data.draw(st.sampled_from([int(v) if integer else v for v in taken]), label="value")
    word = data.draw(st.sampled_from([str(value), *ENUM_WORDS[field.component][value]]), label="word")
    written = data.draw(varied(word), label="written")
    assume(written != value)
    [error] = errors_at(client, path, planted(sound, pointer, written), pointer, language)
    meant(error, value, language)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("path", "name", "enum"), QUERY_ENUMS)
def test_a_query_parameter_said_in_words_is_hinted(
    client: FlaskClient, language: str, path: str, name: str, enum: str
) -> None:
    body = sound_for(path, "")
    for value, words in ENUM_WORDS[enum].items():
        for word in (value.upper(), *words, *(w.upper() for w in words)):
            r = client.post(path, query_string={name: word}, json=body, headers={"Accept-Language": language})
            assert r.status_code == 400, (word, r.get_json())
            [error] = r.get_json()["errors"]
            assert error["parameter"] == name
            meant(error, value, language)


# ---- cards: a rank and a suit, a trump, the Excuse, in words ----------------------------------

CARD_FIELDS = [(path, pointer, field) for path, pointer, field in FIELDS if isinstance(field, CardField)]
MARKS = [mark for mark in TRUMP_WORDS if len(mark) > 1]
"""The words of a trump that a joint may go before (« d'atout »: a lone letter is a code's)."""


@st.composite
def card_in_words(draw: st.DrawFn, code: str) -> str:
    """``code`` as players say it (rules.md §1.5), perhaps after an article."""
    if code == "EX":
        said = draw(st.sampled_from(EXCUSE_WORDS))
    elif code.endswith("T"):
        number = code[:-1]
        forms = [f"{mark} {number}" for mark in TRUMP_WORDS] + [f"{number} {j}{m}" for j in OF for m in MARKS]
        said = draw(st.sampled_from(forms + (list(PETIT_WORDS) if code == "1T" else [])))
    else:
        rank = draw(st.sampled_from([code[:-1], *RANK_WORDS[code[:-1]]]))
        suits = [code[-1], *SUIT_WORDS[code[-1]]]
        suit = draw(st.sampled_from(suits))
        joint = draw(st.sampled_from(["", *(f"{j} " for j in OF)])) if len(suit) > 1 else ""
        said = f"{rank} {joint}{suit}"
    article = draw(st.sampled_from(["", *(f"{a} " for a in ARTICLES)]))
    return article + said


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CARD_FIELDS), data=st.data(), language=st.sampled_from(["en", "fr"]))
def test_1_5_a_card_said_in_words_is_hinted(
    client: FlaskClient, case: tuple[str, str, CardField], data: st.DataObject, language: str
) -> None:
    path, pointer, field = case
    codes = COMPONENTS["CalledCard" if isinstance(field, CalledCardField) else "Card"]["enum"]
    code = data.draw(st.sampled_from(codes), label="code")
    written = data.draw(card_in_words(code).flatmap(varied), label="written")
    assume(written != code)
    [error] = errors_at(client, path, planted(sound_for(path, pointer), pointer, written), pointer, language)
    assert error["code"] == "unknown_card" and code in error["suggestions"], (written, error)
    assert error["hint"].startswith("Did you mean" if language == "en" else "Vouliez-vous dire"), error


# ---- the fields named after an orientation ----------------------------------------------------

SEATS = "/scorecards/0/seats"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("orientation", ["north", "west", "south", "east", "fifth"])
def test_16_2_a_seat_named_in_words_is_hinted_its_orientation(
    client: FlaskClient, language: str, orientation: str
) -> None:
    sound = sound_for("/v1/tournaments/standings", SEATS)
    others = {o: p for o, p in sound["scorecards"][0]["seats"].items() if o != orientation}
    for word in ENUM_WORDS["Orientation"][orientation]:
        for key in (word, word.upper(), word.title()):
            body = planted(sound, SEATS, {**others, key: "Z"})
            [error] = errors_at(client, "/v1/tournaments/standings", body, f"{SEATS}/{key}", language)
            assert error["code"] == "unknown_field" and error["suggestions"] == [orientation], (key, error)


def test_1_5_a_card_whose_article_runs_into_its_rank_is_suggested_both_ways() -> None:
    # « l'as d'pique » written without its separators starts as « la » too (the queen, « d »):
    # both readings are suggested, the one meant among them (found by the property above).
    assert set(nearest_cards("l  a d  spade")) == {"1S", "QS"}
