"""The README's examples, run: each curl answers as the README shows it, and so does the command.

The same curl examples are sent to the image as deployed (tests/test_image.py).
"""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from service.cli import main
from tests.readme import (
    ROOT,
    Command,
    Example,
    commands,
    differences,
    examples,
    lines_differ,
    shown_value,
    shown_values,
)

EXAMPLES = examples()
BOM = b"\xef\xbb\xbf"


def test_the_readme_has_an_example_of_every_operation_it_shows() -> None:
    assert {e.path.partition("?")[0] for e in EXAMPLES} >= {
        "/v1/tricks/legal-cards",
        "/v1/tricks/winner",
        "/v1/deals/score",
        "/v1/deals/evaluate",
        "/v1/deals/evaluate-batch",
        "/v1/games/score",
    }
    assert all(e.shown is not None for e in EXAMPLES), "every example shows its answer"


def expected_status(example: Example) -> int:
    """A problem the README shows says its own status; any other answer is a 200."""
    if example.shown is not None and example.shown.startswith('{"type":"/problems/'):
        status = shown_value(example.shown)["status"]
        assert isinstance(status, int)
        return status
    return 200


def check_answer(example: Example, status: int, media_type: str, body: bytes) -> None:
    """What the README shows of this example's answer, held to the answer."""
    assert status == expected_status(example), (str(example), body[:500])
    if media_type.startswith("application/x-ndjson"):
        items = [json.loads(line) for line in body.splitlines()]
        assert items and "summary" in items[-1], str(example)
        if example.shown is not None:
            shown = shown_values(example.shown)
            assert len(shown) == len(items), (str(example), len(items))
            assert [d for a, b in zip(shown, items, strict=True) for d in differences(a, b)] == [], str(example)
    elif media_type.startswith("text/csv"):
        # The sheet's file starts with a byte-order mark (for Excel), which the README cannot show.
        assert body.startswith(BOM), str(example)
        assert lines_differ(list(example.shown_lines), body[len(BOM) :].decode().splitlines()) is None, str(example)
    else:
        answer = json.loads(body)
        if example.shown is not None:
            assert differences(shown_value(example.shown), answer) == [], str(example)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_each_readme_example_answers_as_shown(client: FlaskClient, example: Example) -> None:
    answer = client.open(example.path, method=example.method, headers=example.headers, data=example.body)
    check_answer(example, answer.status_code, answer.content_type, answer.data)


def test_the_sheet_sent_from_a_file_is_the_sheet_shown() -> None:
    sheets = [e for e in EXAMPLES if e.path == "/v1/games/score"]
    assert len(sheets) >= 2
    assert all(e.body is not None and json.loads(e.body) == json.loads(sheets[0].body or b"") for e in sheets)


@pytest.mark.parametrize("command", commands(), ids=str)
def test_each_readme_command_prints_what_the_readme_shows(
    command: Command, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the README's paths are the repository's
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)  # in English, as a machine without a locale runs it
    assert command.words[0] == "tarot-rules"
    status = main(command.words[1:])
    out = capsys.readouterr().out
    assert status in (0, 1), out
    assert lines_differ(command.printed, out.splitlines()) is None, lines_differ(command.printed, out.splitlines())


def test_the_readme_shows_a_replay_of_a_faulty_deal() -> None:
    [replay] = [c for c in commands() if c.words[1] == "replay"]
    assert any("faulty deal:" in line for line in replay.printed)
    assert any(line.strip().startswith("ruling:") for line in replay.printed)
