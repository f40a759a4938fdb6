"""``tarot-rules`` in French or English: ``--lang``, else the user's locale.

Every text for people changes with the language, the service's own (violations, claims,
problems) included; the exit statuses and the machine-readable outputs (deal records, the
JUnit reports' names, types and counts) do not. The ``cli`` catalogs hold every key the
command says, in both languages, with the same placeholders, and nothing else.
"""

from __future__ import annotations

import ast
import copy
import multiprocessing
import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import service.cli
import service.texts
from service.cli import local, main, remote, words
from service.cli.words import ARGPARSE_TEXTS, argparse_placeholders
from service.contract.records import record_item

from .commandline import faulty_records, golden_records, stub, summary, tarot_rules, without_rate, write_ndjson
from .serving import Gunicorn, free_port
from .test_cli_conformance import FLASK_ADAPTER, kit_files, write_kit
from .test_texts import english_left_in

NBSP = "\u00a0"
CLI = Path(service.cli.__file__).parent
LOCALES = Path(service.texts.__file__).parent / "locales"
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}
SAME_IN_BOTH = {
    "argparse.options",
    "html.unchecked_code",
    "replay.unchecked.more",
    "conformance.report.total",
    "remote.wrong_type",
    "html.seat_role",
    "html.face.excuse",
    "matrix.sections",
}
"""Keys whose French text is the English one."""


pytestmark = pytest.mark.usefixtures("locale")


def first_violation(record: dict[str, Any], language: str) -> str:
    """The service's message for the record's first violation, in ``language``."""
    item = record_item(0, record, language=language)
    message: str = item["result"]["violations"][0]["message"]
    return message


# -- replay ---------------------------------------------------------------------------------------------------


def test_replay_in_french(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, faulty = faulty_records()
    games = write_ndjson(tmp_path / "games.ndjson", [*records, "{not json"])
    status, out, err = tarot_rules(capsys, "--lang", "fr", "replay", games, "--jobs", "1")
    assert status == 1, err
    counts = summary(out)
    assert counts.pop("donnes/s") >= 0  # the rate: any
    assert counts == {
        "enregistrements": 43,
        "valides": 41,
        "dont en cours": 0,
        "fautives": 1,
        "mal formés": 1,
        "assertions vérifiées": 42,
        "assertions fausses": 7,
    }
    assert f"\nÉchecs{NBSP}:\n" in out
    french, english = first_violation(faulty, "fr"), first_violation(faulty, "en")
    assert french != english
    where = f"{games}:3 ({faulty['id']})"
    assert f"{where}{NBSP}: donne fautive{NBSP}: carte absente de la main au pli 1 par le joueur " in out
    assert f"{NBSP}: {french}" in out and english not in out
    assert f"{where}{NBSP}: assertions fausses{NBSP}:\n" in out
    assert f"{games}:2 ({records[1]['id']}){NBSP}: assertions fausses{NBSP}:\n    /claims/points{NBSP}: affirmé " in out
    assert f"{games}:43{NBSP}: enregistrement mal formé{NBSP}: " in out
    assert "malformed_json" in out  # codes stay codes
    # Verdicts and numbers are French throughout: no verdict code, no decimal point (rules.md §13).
    assert not english_left_in(out), english_left_in(out)
    assert re.search(r"/claims/points\xa0: affirmé [0-9]+(,5)?, exact [0-9]+(,5)?", out)
    # --lang after the subcommand says the same.
    status, after, _ = tarot_rules(capsys, "replay", games, "--jobs", "1", "--lang", "fr")
    assert (status, without_rate(after)) == (1, without_rate(out))


def test_worker_processes_speak_the_language_even_when_spawned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A spawned worker starts afresh (not a copy of the parent): it must be told the language.
    spawn = multiprocessing.get_context("spawn")
    monkeypatch.setattr(local.multiprocessing, "get_context", lambda: spawn)
    records, faulty = faulty_records()
    games = write_ndjson(tmp_path / "games.ndjson", records)
    _, one, _ = tarot_rules(capsys, "--lang", "fr", "replay", games, "--jobs", "1")
    status, two, _ = tarot_rules(capsys, "--lang", "fr", "replay", games, "--jobs", "2")
    assert status == 1
    assert without_rate(two) == without_rate(one)
    assert first_violation(faulty, "fr") in two


def test_the_junit_report_differs_only_in_its_texts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, faulty = faulty_records()
    games = write_ndjson(tmp_path / "games.ndjson", [*records, '{"players": 3, "surplus": 1}'])
    reports = {}
    for language in ("en", "fr"):
        reports[language] = tmp_path / f"{language}.xml"
        status, _, _ = tarot_rules(
            capsys, "replay", games, "--jobs", "1", "--lang", language, "--junit", reports[language]
        )
        assert status == 1
    assert machine_parts(reports["en"]) == machine_parts(reports["fr"])
    french = {c.get("name"): c for c in ET.parse(reports["fr"]).getroot().iter("testcase")}
    failure = french[faulty["id"]].find("failure")
    assert failure is not None
    assert (failure.get("message") or "").startswith(
        f"donne fautive{NBSP}: carte absente de la main au pli 1 par le joueur "
    )
    assert first_violation(faulty, "fr") in (failure.text or "")
    error = french[f"{games}:43"].find("error")
    assert error is not None and (error.get("message") or "").startswith(f"enregistrement mal formé{NBSP}: ")


def machine_parts(report: Path) -> str:
    """A JUnit report less its words for people (the messages and texts of failures, errors and
    skips, the output of test cases) and its times."""
    root = ET.parse(report).getroot()
    for element in root.iter():
        element.attrib.pop("time", None)  # measured: differs from run to run
        if element.tag in ("failure", "error", "skipped"):
            element.attrib.pop("message", None)
            element.text = None
        elif element.tag == "system-out":
            element.text = None
    return ET.tostring(root, encoding="unicode")


# -- deal -----------------------------------------------------------------------------------------------------


def test_deal_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("deal", "--players", "5", "--seed", "7", "--count", "3", "--claims", "--id-prefix", "d-")
    english = tarot_rules(capsys, *args)
    assert tarot_rules(capsys, "--lang", "fr", *args) == english  # records are data: the same bytes
    assert english[0] == 0 and english[1].count("\n") == 3

    status, out, err = tarot_rules(capsys, "--lang", "fr", "deal", "--players", "4")
    assert (status, out) == (2, "")
    assert err.startswith(f"utilisation{NBSP}: tarot-rules deal ")
    assert f"tarot-rules deal{NBSP}: erreur{NBSP}: arguments obligatoires manquants{NBSP}: --seed\n" in err

    status, _, err = tarot_rules(capsys, "deal", "--players", "4", "--seed", "-1", "--lang", "fr")
    assert status == 2
    assert f"argument --seed{NBSP}: pas un nombre entier à partir de 0{NBSP}: -1" in err

    status, _, err = tarot_rules(
        capsys, "--lang", "fr", "deal", "--players", "3", "--seed", "9", "--count", "2", "--id-prefix", "x" * 199
    )
    assert status == 2
    assert err == (
        f"tarot-rules{NBSP}: --id-prefix{NBSP}: les id atteindraient 201 caractères{NBSP}; "
        "un id en compte au plus 200\n"
    )


# -- conformance ----------------------------------------------------------------------------------------------


def small_kit(directory: Path) -> Path:
    """The conformance tests' kit, one expectation made wrong."""
    files = copy.deepcopy(kit_files())
    case = files["winner/tricks.json"]["cases"][0]
    case["expect"]["/winner"] = (case["expect"]["/winner"] + 1) % 4
    return write_kit(directory, files)


def test_conformance_in_french(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kit = small_kit(tmp_path / "kit")
    outputs = {}
    for language in ("en", "fr"):
        junit, report = tmp_path / f"{language}.xml", tmp_path / f"{language}.md"
        args = ("--kit", kit, "--harness", FLASK_ADAPTER, "--skip-tag", "golden", "--junit", junit, "--report", report)
        outputs[language] = tarot_rules(capsys, "conformance", "--lang", language, *args)
        assert outputs[language][0] == 1
    _, out, _ = outputs["fr"]
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["cas", "réussis", "échoués", "ignorés"]
    assert [int(line.split()[1]) for line in lines[:4]] == [12, 9, 1, 2]
    assert lines[5].split() == ["opération", "cas", "réussis", "échoués", "ignorés"]
    assert f"Ignorés{NBSP}:" in lines
    assert f"  golden (2){NBSP}: ignoré avec --skip-tag golden" in lines
    assert f"Échecs{NBSP}:" in lines
    assert f"winner/tricks/001 (cases/winner/tricks.json){NBSP}: A winner/tricks case." in lines
    assert any(line.startswith(f"    /winner{NBSP}: attendu ") and ", obtenu " in line for line in lines)

    assert machine_parts(tmp_path / "en.xml") == machine_parts(tmp_path / "fr.xml")
    text = (tmp_path / "fr.md").read_text()
    assert text.startswith(f"# Kit de conformité{NBSP}: échoué\n\n12 cas{NBSP}: 9 réussis, 1 échoué, 2 ignorés.\n")
    lines = text.splitlines()
    for line in (
        "## Par opération",
        "| Opération | Cas | Réussis | Échoués | Ignorés |",
        "| `/v1/tricks/winner` | 3 | 2 | 1 | 0 |",
        "| **total** | 12 | 9 | 1 | 2 |",
        "## Par étiquette",
        "| `golden` | 2 | ignoré avec --skip-tag golden |",
        "## Échecs",
        "| Cas | Fichier | Première différence | Fautes de la réponse |",
    ):
        assert line in lines, line


# -- the language chosen --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "args", "french"),
    [
        ("fr_FR.UTF-8", (), True),
        ("fr_CA", (), True),
        ("de_DE.UTF-8", (), False),
        ("C", (), False),
        ("fr_FR.UTF-8", ("--lang", "en"), False),
        ("de_DE.UTF-8", ("--lang=fr",), True),
    ],
)
def test_the_locale_chooses_the_language_unless_lang_does(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    locale: Callable[[str], None],
    lang: str,
    args: tuple[str, ...],
    french: bool,
) -> None:
    locale(lang)
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:2])
    status, out, _ = tarot_rules(capsys, "replay", games, "--jobs", "1", *args)
    assert status == 0
    assert next(iter(summary(out))) == ("enregistrements" if french else "records")


def test_help_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = tarot_rules(capsys, "--lang", "fr", "--help")
    assert status == 0
    assert out.startswith(f"utilisation{NBSP}: tarot-rules [-h] [--lang {{en,fr}}] [--version] COMMAND ...\n")
    for line in (
        "Les règles du Tarot (FFT) en ligne de commande.",
        f"options{NBSP}:",
        "  -h, --help      afficher cette aide et quitter",
        f"commandes{NBSP}:",
    ):
        assert line in out.splitlines(), line
    assert "rejouer des donnes enregistrées" in out

    status, out, _ = tarot_rules(capsys, "replay", "--help", "--lang", "fr")
    assert status == 0
    assert out.startswith(f"utilisation{NBSP}: tarot-rules replay ")
    assert f"\narguments positionnels{NBSP}:\n" in out and f"\noptions{NBSP}:\n" in out
    assert "Évalue chaque enregistrement de donne" in out
    assert "n'afficher que le résumé" in out
    assert "usage" not in out and "show this help" not in out

    status, english, _ = tarot_rules(capsys, "replay", "--help")
    assert status == 0
    assert english.startswith("usage: tarot-rules replay ") and "\noptions:\n" in english


def test_a_language_not_spoken_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = tarot_rules(capsys, "--lang", "de", "deal", "--players", "3", "--seed", "1")
    assert (status, out) == (2, "")
    assert "argument --lang: invalid choice: 'de' (choose from 'en', 'fr')" in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["replay", "GOOD"], 0),
        (["replay", "BAD"], 1),
        (["replay", "MISSING"], 2),
        (["replay", "GOOD", "--jobs", "0"], 2),
        (["replay"], 2),
        (["replay", "--help"], 0),
        (["deal", "--players", "3", "--seed", "1"], 0),
        (["deal", "--players", "6", "--seed", "1"], 2),
        (["conformance", "--kit", "MISSING", "--harness", "exit 0"], 2),
        (["nothing"], 2),
    ],
)
def test_the_exit_status_does_not_depend_on_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: int
) -> None:
    records, _ = faulty_records()
    files = {
        "GOOD": str(write_ndjson(tmp_path / "good.ndjson", golden_records()[:3])),
        "BAD": str(write_ndjson(tmp_path / "bad.ndjson", records[:5])),
        "MISSING": str(tmp_path / "missing"),
    }
    args = [files.get(arg, arg) for arg in args]
    statuses = [tarot_rules(capsys, "--lang", language, *args)[0] for language in ("en", "fr")]
    assert statuses == [expected, expected]


# -- a running service ----------------------------------------------------------------------------------------


def test_a_service_is_asked_for_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = faulty_records()
    games = write_ndjson(tmp_path / "games.ndjson", records)
    _, local_out, _ = tarot_rules(capsys, "--lang", "fr", "replay", games, "--jobs", "1")
    with stub([]) as server:
        status, out, _ = tarot_rules(
            capsys, "--lang", "fr", "replay", games, "--url", server.base, "--batch-size", "10"
        )
        assert status == 1
        assert server.languages == ["fr"] * 5
        assert without_rate(out) == without_rate(local_out)

        kit = small_kit(tmp_path / "kit")
        status, out, _ = tarot_rules(capsys, "conformance", "--kit", kit, "--url", server.base, "--lang", "fr")
        assert status == 1
        assert set(server.languages[5:]) == {"fr"} and len(server.languages) == 5 + 12
        refused = f"un refus là où le kit attend une réponse{NBSP}: HTTP 422 Unprocessable Entity{NBSP}: Detail in fr."
        assert f"    {refused}" in out.splitlines()


def test_a_running_service_answers_in_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, faulty = faulty_records()
    lines: list[Any] = [*records[:10], '{"players": 3, "surplus": 1}', "{not json", *records[10:]]
    games = write_ndjson(tmp_path / "games.ndjson", lines)
    status, in_process, _ = tarot_rules(capsys, "--lang", "fr", "replay", games, "--jobs", "1")
    assert status == 1
    with Gunicorn() as server:
        status, out, err = tarot_rules(
            capsys, "--lang", "fr", "replay", games, "--url", server.base, "--batch-size", "7"
        )
    assert status == 1, err
    assert without_rate(out) == without_rate(in_process)
    assert first_violation(faulty, "fr") in out


# -- the catalogs ---------------------------------------------------------------------------------------------


def catalog_texts(language: str) -> dict[str, tuple[str, ...]]:
    """The ``cli`` catalog of ``language``: each key's texts (two for a plural entry), checked as a file."""
    with (LOCALES / language / "LC_MESSAGES" / "cli.po").open("rb") as f:
        catalog = read_po(f, locale=language, domain="cli", abort_invalid=True)
    assert str(catalog.locale) == language
    assert catalog.plural_forms == PLURAL_FORMS[language]
    assert catalog.charset == "utf-8"
    texts = {}
    for message in catalog:
        if not message.id:
            continue  # the header
        if isinstance(message.id, tuple):
            assert message.id[0] == message.id[1], message.id  # msgid_plural repeats the key
            texts[message.id[0]] = tuple(message.string)
        else:
            texts[message.id] = (message.string,)
    return texts


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def say_calls() -> list[tuple[str, str, bool, set[str]]]:
    """Every ``say(...)`` of the command's code: where, its key, whether it gives a count, its arguments."""
    calls = []
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say"):
                continue
            where = f"{path.name}:{node.lineno}"
            assert node.args and isinstance(node.args[0], ast.Constant), f"{where}: the key must be a literal"
            assert isinstance(node.args[0].value, str) and len(node.args) <= 2, where
            names = {k.arg for k in node.keywords}
            assert None not in names, f"{where}: arguments by name, not **"
            calls.append((where, node.args[0].value, len(node.args) == 2, {str(n) for n in names}))
    return calls


def test_every_key_said_is_in_both_catalogs_with_its_placeholders() -> None:
    en, fr = catalog_texts("en"), catalog_texts("fr")
    assert list(en) == list(fr)  # the same keys, in the same order
    calls = say_calls()
    assert len(calls) > 150
    for where, key, counted, names in calls:
        assert key in en, f"{where}: {key!r} is in no catalog"
        assert len(en[key]) == (2 if counted else 1), f"{where}: {key!r} is {'not ' if counted else ''}plural"
        given = names | ({"count"} if counted else set())
        used: set[str] = set()
        for text in en[key] + fr[key]:
            assert placeholders(text) <= given, f"{where}: {key!r} wants {placeholders(text) - given}"
            used |= placeholders(text)
        assert names <= used, f"{where}: {key!r} does not say {names - used}"
    argparse_keys = {key: text for text, (key, _) in ARGPARSE_TEXTS.items()}
    for key, text in argparse_keys.items():
        for translated in en[key] + fr[key]:
            assert placeholders(translated) == set(argparse_placeholders(text)), key
    unused = set(en) - {key for _, key, _, _ in calls} - set(argparse_keys)
    assert not unused, f"keys no code says: {sorted(unused)}"


def test_the_texts_are_written_as_each_language_writes() -> None:
    for language in ("en", "fr"):
        for key, texts in catalog_texts(language).items():
            for text in texts:
                assert text.strip() and text == text.strip(), (language, key)
                # argparse %-formats its texts, and the help: a % would break it.
                assert "%" not in text, (language, key)
    en, fr = catalog_texts("en"), catalog_texts("fr")
    for key, texts in fr.items():
        for form, text in enumerate(texts):
            # A no-break space before : ; ? ! when they end a phrase (not in "{name}:{line}" or
            # "http://"), and inside « ».
            for at, mark in enumerate(text):
                if mark in ":;?!" and text[at + 1 : at + 2] in (" ", ""):
                    assert text[at - 1] == NBSP, (key, text)
            assert " »" not in text and "« " not in text, (key, text)
            assert text != en[key][form] or key in SAME_IN_BOTH, f"{key!r} is not translated"


@pytest.mark.parametrize(("language", "prefix"), [("en", "tarot-rules: "), ("fr", f"tarot-rules{NBSP}: ")])
def test_both_commands_say_a_service_out_of_reach_in_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, language: str, prefix: str
) -> None:
    # replay --url and conformance --url, the service not there: one sentence, from one place
    # (the client's), in the run's language; the replay, which tries again, adds how many times.
    monkeypatch.setattr(remote, "BACKOFF", (0, 0, 0))
    url = f"http://127.0.0.1:{free_port()}"
    games = write_ndjson(tmp_path / "games.ndjson", golden_records()[:2])
    kit = write_kit(tmp_path / "kit", kit_files())
    said = {}
    for name, args in (("replay", ["replay", games]), ("conformance", ["conformance", "--kit", kit])):
        status, out, err = tarot_rules(capsys, "--lang", language, *args, "--url", url)
        assert (status, out) == (2, "")
        [said[name]] = err.splitlines()
    reason = (
        said["conformance"].rsplit(": ", 1)[1] if language == "en" else said["conformance"].rsplit(f"{NBSP}: ", 1)[1]
    )
    where = {
        "en": f"cannot reach the service at {url}: ",
        "fr": f"impossible de joindre le service à l'adresse {url}{NBSP}: ",
    }
    attempts = {"en": " (4 attempts)", "fr": " (4 tentatives)"}
    assert said["conformance"] == prefix + where[language] + reason
    assert said["replay"] == said["conformance"] + attempts[language]
    assert reason == "Connection refused"  # the system's words for it, as the C library says them


def test_a_run_in_another_language_leaves_its_caller_s_own() -> None:
    # In one process (the tests, a program that embeds the command), a run with --lang fr must
    # not leave the caller's sentences in French.
    before = words.language()
    main(["--lang", "fr", "--version"])
    main(["--lang", "fr", "deal", "--players", "4", "--seed", "1", "--count", "0"])
    assert words.language() == before
