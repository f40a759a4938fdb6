"""Texts for people in French and English (rules.md §13: the verdicts, said in the reader's language).

The catalogs are complete and agree with the code; every verdict code, legal-card reason, redeal
reason, score line and problem is said in both languages with the same codes; the language is
negotiated from ``Accept-Language`` and said in ``Content-Language``.
"""

from __future__ import annotations

import io
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from service import texts
from service.contract.errorcodes import FieldErrorCode
from service.contract.problems import PROBLEM_STATUSES
from service.messages import CardCodes, CardName, Message, Points, Signed, SignedList, Term
from service.rules.arbitration import AtFault
from service.rules.verdicts import (
    Anomaly,
    Decision,
    DuplicateFault,
    LegalReason,
    RedealReason,
    RulingReason,
    SeatingFault,
    ViolationCode,
)
from tests.badinputs import BadRequest, batch_requests, corpus

ROOT = Path(__file__).parent.parent
LOCALES = ROOT / "service" / "texts" / "locales"
KIT = ROOT / "conformance" / "v1" / "cases"
NBSP = "\u00a0"


def read(language: str, domain: str = "messages") -> Catalog:
    with (LOCALES / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def entries(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Key → its texts (one, or one per plural form)."""
    out = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        out[key] = message.string if isinstance(message.string, tuple) else (message.string,)
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


EN, FR = entries(read("en")), entries(read("fr"))

# Keys made from a code or a value at run time, not written whole in the code.
DYNAMIC = re.compile(
    r"(term|rank|card|problem\.title|ruling)\.|error\.(required|null|invalid|malformed_http)$|sheet\.(plus|minus|net)$|"
    r"error\.(uri_too_long|expectation_failed|forbidden|unsupported_transfer_coding|bad_chunked_body)$"
)
KEY_LITERAL = re.compile(
    r"[\"']((?:legal|violation|redeal|score|unit|error|problem|term|card|rank|claim|text|sheet|unchecked|form"
    r"|standings|anomaly|seating|movement|duplicate)\.[a-z0-9_.]+)[\"']"
)


def keys_in_code() -> set[str]:
    found = set()
    for path in (ROOT / "service").rglob("*.py"):
        if "cli" in path.relative_to(ROOT / "service").parts:
            continue
        found |= set(KEY_LITERAL.findall(path.read_text(encoding="utf-8")))
    return found


# ---- the catalogs ---------------------------------------------------------------------------


def test_13_both_languages_have_the_same_keys() -> None:
    assert set(EN) == set(FR), sorted(set(EN) ^ set(FR))


@pytest.mark.parametrize("key", sorted(EN))
def test_13_every_key_has_its_texts_with_the_same_specifics(key: str) -> None:
    en, fr = EN[key], FR[key]
    assert all(en) and all(fr), f"{key}: an empty text"
    assert len(en) == len(fr), f"{key}: plural in one language only"
    names = placeholders(en[0])
    for text in (*en, *fr):
        assert placeholders(text) == names, f"{key}: {text!r} does not say {sorted(names)}"


def test_13_every_key_the_code_uses_is_in_the_catalogs() -> None:
    # A new message without its texts fails here (and in French, above).
    assert not keys_in_code() - set(EN), sorted(keys_in_code() - set(EN))


def test_13_every_key_of_the_catalogs_is_used() -> None:
    unused = {key for key in EN if key not in keys_in_code() and not DYNAMIC.match(key)}
    assert not unused, sorted(unused)


@pytest.mark.parametrize(
    ("family", "codes"),
    [
        ("violation", [c.value for c in ViolationCode]),
        ("legal", [c.value for c in LegalReason]),
        ("redeal", [c.value for c in RedealReason]),
        ("ruling", [d.value for d in Decision]),
        ("ruling.reason", [r.value for r in RulingReason]),
        ("ruling.side", [*(a.value for a in AtFault), "none"]),
        ("error", [c.value for c in FieldErrorCode if c.value not in ("type", "range", "length", "enum")]),
        ("error.type", [""]),
        ("error.range", [""]),
        ("error.length", [""]),
        ("error.enum", [""]),
        ("problem.title", [str(status) for status in PROBLEM_STATUSES]),
        ("anomaly", [c.value for c in Anomaly]),
        ("duplicate.fault", [c.value for c in DuplicateFault]),
    ],
)
def test_13_every_code_has_its_texts(family: str, codes: list[str]) -> None:
    for code in codes:
        prefix = f"{family}.{code}" if code else family
        assert any(key == prefix or key.startswith(prefix + ".") for key in EN), f"no text for {prefix}"


def test_13_every_text_renders_in_both_languages() -> None:
    # Any value of the right kind for each name: a sentence that formats, with nothing left over.
    samples: dict[str, Any] = {
        "card": CardName(70),
        "called": CardName(13),
        "top": CardName(70),
        "legal": CardCodes(0b111 << 60),
        "suit": Term("suit", "hearts"),
        "contract": Term("contract", "garde_sans"),
        "bid": Term("contract", "garde"),
        "best": Term("contract", "garde_sans"),
        "side": Term("side", "attack"),
        "winner": Term("side", "defence"),
        "size": Term("poignee", "double"),
        "points": Points(81),
        "need": Points(82),
        "low": Points(8),
        "high": Points(174),
        "correct": 3,
        "claimed": 2,
        "value": Signed(-420),
        "per_defender": Signed(116),
        "marks": SignedList((348, -116, -116, -116)),
        "oudlers": Message("unit.oudlers", (), 2),
    }
    for language in texts.LANGUAGES:
        catalog = texts.catalog(language)
        for key, forms in EN.items():
            if key.startswith(("term.", "rank.", "card.")):
                continue
            args = tuple((name, samples.get(name, 7)) for name in sorted(placeholders(forms[0])) if name != "count")
            for count in (1, 5) if len(forms) > 1 else (None,):
                text = catalog.render(Message(key, args, count))
                assert text and "{" not in text and text[0] == text[0].upper(), (key, text)


def test_13_french_writes_numbers_and_punctuation_as_french_players_do() -> None:
    fr = texts.catalog("fr")
    assert fr.value(Points(81)) == "40,5"
    assert fr.value(Signed(1746)) == "+1\u202f746"
    assert (
        fr.card_name(70) == "le 15 d'atout" and fr.card_name(77) == "l'Excuse" and fr.card_name(13) == "le roi de pique"
    )
    assert (
        fr.card_name(0) == "l'as de pique" and fr.card_name(26) == "la dame de cœur" and fr.card_name(56) == "le Petit"
    )
    for key, forms in FR.items():
        for text in forms:
            assert not re.search(r"[^\u00a0\u202f][:;?!](\s|$)", text), f"{key}: {text!r} (a space before : ; ? !)"


def test_13_compiled_catalogs_are_those_of_the_po_files() -> None:
    # The install compiles the .po files; a .po edited since must be compiled again (make does).
    for po in LOCALES.glob("*/LC_MESSAGES/*.po"):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        assert po.with_suffix(".mo").read_bytes() == compiled.getvalue(), (
            f"{po.name} ({po.parent.parent.name}) is stale"
        )


# ---- tricks are said from 1, fields count them from 0 ------------------------------------------


def trick_placeholders(text: str) -> set[str]:
    """The placeholders an English text says a trick with: "trick {trick}", "trick is {correct}"."""
    return set(re.findall(r"\b[Tt]rick(?: is)? \{(\w+)\}", text))


TRICK_KEYS = {key for key, forms in EN.items() if any(trick_placeholders(text) for text in forms)}


def test_13_every_trick_a_text_names_is_said_from_one() -> None:
    assert {"violation.wrong_leader", "claim.trick_winner", "claim.first_violation.trick"} <= TRICK_KEYS
    for key in TRICK_KEYS:
        said = {name for text in EN[key] for name in trick_placeholders(text)}
        assert said <= texts.TRICKS_BY_KEY.get(key, {texts.TRICK}), f"{key}: {sorted(said)} not said from 1"


@given(st.integers(min_value=0, max_value=30))
def test_13_trick_index_t_is_said_t_plus_1_in_both_languages(t: int) -> None:
    # Seats and the other numbers are far from any trick, so that each number found is the trick's.
    args: dict[str, Any] = {"seat": 901, "leader": 902, "correct": 903, "claimed": 904}
    for language in texts.LANGUAGES:
        catalog = texts.catalog(language)
        for key in sorted(TRICK_KEYS):
            names = texts.TRICKS_BY_KEY.get(key, {texts.TRICK})
            values = {**args, **dict.fromkeys(names, t)}
            wanted = placeholders(EN[key][0])
            text = catalog.render(Message(key, tuple((n, v) for n, v in values.items() if n in wanted)))
            numbers = [int(n) for n in re.findall(r"\d+", text) if int(n) < 900]
            assert numbers == [t + 1] * len(names), (language, key, text)
    # Not a number (a claimed first fault outside the play): said as it is.
    fr = texts.catalog("fr").render(
        Message("claim.first_violation.trick", (("correct", 3), ("claimed", Message("claim.null"))))
    )
    assert fr == f"Pli de la première faute{NBSP}: 4, pas aucun."


def test_13_the_service_says_tricks_from_1_and_keeps_its_fields_from_0(client: FlaskClient) -> None:
    [case] = [c for c in kit_cases("evaluate") if c["id"] == "evaluate/first-lead/003"]
    claims = {"trick_winners": [2], "first_violation": {"code": "wrong_leader", "trick": 5, "seat": 0}}
    en, fr = both(client, "/v1/deals/evaluate", dict(case["request"], claims=claims))
    violation = en["violations"][0]
    assert (violation["code"], violation["trick"]) == ("wrong_leader", 0)
    assert " led trick 1; " in violation["message"]
    assert f" a entamé le pli 1{NBSP}; " in fr["violations"][0]["message"]
    mismatches = {m["pointer"]: m for m in en["claims"]["mismatches"]}
    winner = mismatches["/claims/trick_winners/0"]
    assert winner["message"].startswith("Trick 1 was won by seat ")
    first = mismatches["/claims/first_violation/trick"]
    assert (first["claimed"], first["correct"]) == (5, 0)
    assert first["message"] == "The first fault's trick is 1, not 6."
    french = {m["pointer"]: m["message"] for m in fr["claims"]["mismatches"]}
    assert french["/claims/trick_winners/0"].startswith("Le pli 1 a été remporté par le joueur ")
    assert french["/claims/first_violation/trick"] == f"Pli de la première faute{NBSP}: 1, pas 6."


# ---- negotiation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("fr-FR,fr;q=0.9", "fr"),
        ("fr", "fr"),
        ("FR-ca", "fr"),
        ("en", "en"),
        ("en-GB,en;q=0.9,fr;q=0.8", "en"),
        ("de", "en"),
        ("de-DE, fr;q=0.5", "fr"),
        ("fr;q=0, en;q=0.1", "en"),
        ("*", "en"),
        (None, "en"),
        ("", "en"),
        (";;;q=x, , é", "en"),
        # A regional tag counts for its language, whatever the tags after it (RFC 4647 lookup).
        ("fr-FR, en;q=0.5", "fr"),
        ("fr-CA,en;q=0.8", "fr"),
        ("fr-FR, en-US;q=0.8, en;q=0.5", "fr"),
        ("en-GB, fr;q=0.9", "en"),
        ("de;q=0.9, FR-ca;q=0.95, en;q=0.1", "fr"),
        ("en;q=0.5, fr;q=0.5", "en"),
        ("en;q=0, *", "fr"),
        ("fr-FR;q=0, fr", "fr"),
        ("de, " * 2000 + "fr", "en"),  # only the header's first 256 characters are read
    ],
)
def test_13_accept_language_chooses_the_answer_language(client: FlaskClient, header: str | None, language: str) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    r = client.post(
        "/v1/tricks/legal-cards", json={"players": 4, "hand": ["KS", "3H"], "trick": ["7H"]}, headers=headers
    )
    assert r.status_code == 200
    assert r.headers["Content-Language"] == language
    assert "Accept-Language" in r.headers["Vary"]
    assert r.get_json()["reason"] == "follow"
    expected = "Il faut fournir à cœur" if language == "fr" else "Follow hearts"
    assert r.get_json()["message"].startswith(expected)


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("POST", "/v1/tricks/legal-cards", {"players": 9}, 422),
        ("POST", "/v1/nowhere", {}, 404),
        ("GET", "/v1/tricks/winner", None, 405),
        ("POST", "/v1/deals/evaluate-batch", {"deals": [{"players": 4}]}, 200),
    ],
)
def test_13_problems_and_batches_say_their_language(
    client: FlaskClient, method: str, path: str, body: dict[str, Any] | None, status: int
) -> None:
    r = client.open(path, method=method, json=body, headers={"Accept-Language": "fr"})
    assert r.status_code == status
    assert r.mimetype == ("application/json" if status == 200 else "application/problem+json")
    assert r.headers["Content-Language"] == "fr"
    assert "Accept-Language" in r.headers["Vary"]
    english = client.open(path, method=method, json=body, headers={"Accept-Language": "en"})
    assert_translated(english.get_json(), r.get_json())


def test_13_the_contract_and_probes_are_in_english_whatever_is_asked(client: FlaskClient) -> None:
    for path in ("/", "/openapi.yaml", "/livez", "/readyz"):
        r = client.get(path, headers={"Accept-Language": "fr"})
        assert r.headers["Content-Language"] == "en", path


# ---- every verdict in both languages, with the same codes ------------------------------------


def kit_cases(operation: str) -> Iterator[dict[str, Any]]:
    """The kit's cases of verdicts (not those that expect a refusal, which have no answer to say)."""
    for path in sorted((KIT / operation).glob("*.json")):
        yield from (case for case in json.loads(path.read_text(encoding="utf-8"))["cases"] if "expect" in case)


def both(client: FlaskClient, path: str, body: Any) -> tuple[Any, Any]:
    """The answers in English and French, after checking each says its language."""
    answers = []
    for language in ("en", "fr"):
        r = client.post(path, json=body, headers={"Accept-Language": language})
        assert r.headers["Content-Language"] == language
        answers.append(r.get_json())
    return answers[0], answers[1]


def without_texts(answer: Any, names: frozenset[str]) -> Any:
    if isinstance(answer, dict):
        return {k: None if k in names else without_texts(v, names) for k, v in answer.items()}
    if isinstance(answer, list):
        return [without_texts(v, names) for v in answer]
    return answer


TEXTS = frozenset({"message", "explanation", "redeal_message", "title", "detail", "hint"})


def texts_of(answer: Any) -> Iterator[str]:
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in TEXTS and value is not None:
                yield from value if isinstance(value, list) else [value]
            else:
                yield from texts_of(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from texts_of(value)


def assert_translated(en: Any, fr: Any) -> None:
    """Same answer but for its texts, each of which is French (differs from its English one)."""
    assert without_texts(en, TEXTS) == without_texts(fr, TEXTS)
    pairs = list(zip(texts_of(en), texts_of(fr), strict=True))
    for english, french in pairs:
        assert english != french, english


def test_13_every_violation_code_in_both_languages(client: FlaskClient) -> None:
    seen: dict[str, str] = {}
    for case in kit_cases("evaluate"):
        en, fr = both(client, case["operation"], case["request"])
        assert_translated(en, fr)
        for violation in fr["violations"]:
            seen.setdefault(violation["code"], violation["message"])
    assert set(seen) == {c.value for c in ViolationCode}, sorted({c.value for c in ViolationCode} - set(seen))
    assert seen["must_overtrump"].startswith("Le joueur ") and "devait surcouper" in seen["must_overtrump"]


def test_13_every_legal_reason_in_both_languages(client: FlaskClient) -> None:
    seen = set()
    for case in kit_cases("legal-cards"):
        en, fr = both(client, case["operation"], case["request"])
        assert_translated(en, fr)
        seen.add(fr["reason"])
    assert seen == {r.value for r in LegalReason}


def test_13_every_redeal_reason_in_both_languages(client: FlaskClient) -> None:
    seen = set()
    for case in kit_cases("evaluate"):
        if case["expect"].get("/status") != "redeal":
            continue
        en, fr = both(client, case["operation"], case["request"])
        assert en["redeal_message"] and fr["redeal_message"] and en["redeal_message"] != fr["redeal_message"]
        seen.add(fr["redeal_reason"])
    assert seen == {r.value for r in RedealReason}


def test_13_every_score_explanation_in_both_languages(client: FlaskClient) -> None:
    keys = set()
    for case in kit_cases("score"):
        en, fr = both(client, case["operation"], case["request"])
        assert_translated(en, fr)
        keys |= {line.split(NBSP)[0] for line in fr["explanation"]}
    assert {"Contrat", "Par défenseur"} <= keys
    assert any(k.startswith("Petit au bout") for k in keys) and any(k.startswith("Poignée") for k in keys)
    assert any(k.startswith("Chelem") for k in keys)


def answer_to(client: FlaskClient, case: BadRequest, language: str) -> Any:
    """The answer to a bad request of the corpus in ``language``: its JSON, or its NDJSON lines."""
    r = case.send(client, {"Accept-Language": language})
    assert r.status_code == case.status and r.headers["Content-Language"] == language
    if r.mimetype == "application/x-ndjson":
        return [json.loads(line) for line in r.data.splitlines()]
    return r.get_json()


@pytest.mark.parametrize("case", corpus() + batch_requests(), ids=lambda c: c.id)
def test_13_every_problem_in_both_languages(client: FlaskClient, case: BadRequest) -> None:
    en, fr = answer_to(client, case, "en"), answer_to(client, case, "fr")
    assert_translated(en, fr)
    if case.status == 422:
        assert fr["title"] == "Contenu impossible à traiter"


def test_13_claims_mismatches_in_both_languages(client: FlaskClient) -> None:
    [case] = [c for c in kit_cases("evaluate") if c["id"].startswith("evaluate/golden/")][:1]
    claims = {"valid": False, "trick_winners": [0], "points": 0.5, "oudlers": 3, "scores": [1, 2, 3], "partner": 1}
    body = dict(case["request"], claims=claims)
    en, fr = both(client, "/v1/deals/evaluate", body)
    assert_translated(en, fr)
    mismatches = fr["claims"]["mismatches"]
    pointers = ["valid", "trick_winners/0", "trick_winners", "points", "oudlers", "partner", "scores/0", "scores/1"]
    assert [m["pointer"] for m in mismatches] == [f"/claims/{p}" for p in [*pointers, "scores/2"]]
    assert mismatches[0]["message"] == "La donne est valide."


def test_13_the_servers_own_answers_say_they_are_in_english() -> None:
    # A request the server cannot parse is answered before its headers are known: English, said so.
    from gunicorn.http import errors

    from service.serving.problems import HEADER_TIMEOUT_ANSWER, parse_problem

    for raw in (HEADER_TIMEOUT_ANSWER, parse_problem(errors.LimitRequestLine(9000, 4094))):
        head, _, body = raw.partition(b"\r\n\r\n")
        assert b"\r\nContent-Language: en\r\n" in head
        problem = json.loads(body)
        assert problem["title"] in ("Request Timeout", "URI Too Long")
        assert problem["errors"][0]["message"] == problem["detail"] and problem["detail"].endswith((".", ")"))


def test_13_no_english_word_in_a_french_problem(client: FlaskClient) -> None:
    # The media types a batch takes are listed with the language's "or"; a status with no title
    # of its own (werkzeug may raise any) is named by its number.
    r = client.post("/v1/deals/evaluate-batch", data=b"x", content_type="text/plain", headers={"Accept-Language": "fr"})
    problem = r.get_json()
    assert r.status_code == 415 and " ou application/x-ndjson" in problem["detail"] and " or " not in problem["detail"]
    from service.contract.problems import problem_title

    assert problem_title(416, "fr") == "Plage non satisfiable"
    assert problem_title(418, "fr") == "Erreur HTTP 418" and problem_title(418, "en") == "I'm a Teapot"


def test_13_every_word_of_the_game_the_core_names_is_in_both_catalogs() -> None:
    # Terms are looked up by the core's values (term.<kind>.<value>): each value has its word.
    from service.rules.cards import PLAIN_SUITS, Suit
    from service.rules.scoring import Contract, PoigneeSize, Side

    kinds = {
        "suit": [s.name.lower() for s in (*PLAIN_SUITS, Suit.TRUMPS)],
        "contract": [c.value for c in Contract],
        "side": [s.value for s in Side],
        "poignee": [p.value for p in PoigneeSize],
    }
    for kind, values in kinds.items():
        for value in values:
            for language in texts.LANGUAGES:
                assert texts.catalog(language).value(Term(kind, value)), (kind, value, language)


# ---- French throughout: no code, no decimal point ----------------------------------------------------------

VERDICT_CODES = frozenset(
    c.value
    for family in (
        ViolationCode,
        LegalReason,
        RedealReason,
        Decision,
        RulingReason,
        Anomaly,
        SeatingFault,
        DuplicateFault,
    )
    for c in family
)
# What a text may quote as sent rather than say: a JSON pointer (/claims/first_violation), a quoted value.
_QUOTED = re.compile(r'/[\w/~.-]*|"[^"]*"')


def english_left_in(text: str) -> list[str]:
    """The verdict codes and decimal points a French text holds (none, if it is French throughout)."""
    words = _QUOTED.sub(" ", text)
    return [w for w in re.findall(r"[a-z_]+", words) if w in VERDICT_CODES] + re.findall(r"\d\.\d", words)


def word_strings(answer: Any) -> Iterator[str]:
    """Every text for people in an answer: the strings with a space in them (codes and cards have none)."""
    if isinstance(answer, dict):
        for value in answer.values():
            yield from word_strings(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from word_strings(value)
    elif isinstance(answer, str) and " " in answer:
        yield answer


def test_13_no_french_template_holds_a_code_or_a_decimal_point() -> None:
    for domain in ("messages", "cli"):
        for key, forms in entries(read("fr", domain)).items():
            for text in forms:
                assert not english_left_in(text), (domain, key, text)


def test_13_every_verdict_of_the_kit_is_said_in_french_throughout(client: FlaskClient) -> None:
    from service.contract.operations import IN_THE_KIT

    paths = {name: op.path for name, op in IN_THE_KIT.items()}
    operations = sorted(p.name for p in KIT.iterdir() if p.is_dir())
    assert set(operations) <= set(paths), operations  # every operation of the kit, the deal included
    said = 0
    for operation in operations:
        for case in kit_cases(operation):
            r = client.post(paths[operation], json=case["request"], headers={"Accept-Language": "fr"})
            answer = r.get_json()
            for text in word_strings(answer):
                assert not english_left_in(text), (case["id"], text)
                said += 1
    assert said > 1000


@pytest.mark.parametrize("code", [c.value for c in ViolationCode])
def test_13_every_fault_is_named_in_french_in_claims_and_in_the_command(code: str) -> None:
    from service.cli import words
    from service.cli.faults import Fault, head
    from service.contract.claims import check_claims

    first = {"code": code, "trick": 3, "seat": 1}
    other = {"code": "renounce" if code != "renounce" else "must_trump", "trick": None, "seat": None}
    for claimed in (None, other):
        checked = check_claims({"first_violation": claimed}, {"first_violation": first}, language="fr")
        for mismatch in checked["mismatches"]:
            assert not english_left_in(mismatch["message"]), mismatch
    words.use("fr")
    try:
        for trick, seat in ((3, 1), (3, None), (None, 1), (None, None)):
            text = head(Fault(code, trick, seat, None, ""))
            assert not english_left_in(text) and text == text.strip(), text
        assert words.value_text(6.5) == "6,5" and words.value_text([0.5, 7]) == f"[0,5{NBSP}; 7]"
        words.use("en")  # no grouping comma in a list of values: [480, -1440], never [480, -1,440]
        assert words.value_text([480, -1440, 6.5]) == "[480, -1440, 6.5]"
        words.use("fr")
        assert words.value_text(code, "violation") == texts.catalog("fr").value(Term("violation", code))
    finally:
        words.use("en")
