"""docs/ci.md's check without the command, run as written: its lines, real curl and jq, a real
gunicorn on 127.0.0.1.

The page calls it the replay's check of an NDJSON log: over logs of every kind (good ones, with
blank lines or not, an empty one, one with a deal cut short, a faulty deal, a malformed line, a
wrong claim, a line cut short), the lines pass exactly when ``tarot-rules replay`` does, in the
shell a CI runner uses (bash ``-eo pipefail``) and in a plain ``sh``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.randomdeals import random_deal

from .commandline import made_faulty
from .serving import ROOT, Gunicorn

pytestmark = [
    pytest.mark.usefixtures("locale"),
    pytest.mark.skipif(
        shutil.which("curl") is None or shutil.which("jq") is None,
        reason="needs curl and jq: make browser installs them (Debian's), or apt-get install curl jq",
    ),
]

SAID = "curl and jq make the replay's check"


def documented_check() -> str:
    """The ``sh`` block right after the page says what curl and jq do, as written."""
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    after = page[page.index(SAID) :]
    found = re.search(r"```sh\n(.*?)```", after, re.DOTALL)
    assert found is not None, "docs/ci.md shows no sh block after what it says of curl and jq"
    return found.group(1)


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with Gunicorn() as server:
        yield server.base


def deal(n: int, **changes: Any) -> dict[str, Any]:
    record = {"id": f"game-{n}", **random_deal(n, 3 + n % 3)}
    record["claims"] = {"valid": True}
    return {**record, **changes}


def cut_short(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "plays": record["plays"][:-3]}


GOOD = [deal(n) for n in range(4)]
LOGS: dict[str, tuple[list[Any], bool]] = {
    "good": (GOOD, True),
    "good, with blank lines": (["", GOOD[0], "  ", GOOD[1], "", GOOD[2]], True),
    "empty": ([], False),
    "blank lines only": (["", " "], False),
    "a deal cut short": ([GOOD[0], cut_short(GOOD[1]), GOOD[2]], False),
    "a deal cut short, alone": ([cut_short(GOOD[3])], False),
    "a faulty deal": ([GOOD[0], made_faulty(deal(7, claims=None))], False),
    "a malformed line": ([GOOD[0], '{"players": 9}'], False),
    "a line cut short": ([GOOD[0], json.dumps(GOOD[1])[:100]], False),
    "a wrong claim": ([GOOD[0], deal(9, claims={"points": 91})], False),
}


def write_log(path: Path, lines: list[Any]) -> None:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))


def replayed(log: Path) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["replay", str(log), "--jobs", "1"])


SHELLS = [
    ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"],
    ["bash", "--noprofile", "--norc", "-c"],
    ["sh", "-c"],
]
"""A CI runner's shell, and shells that go on after an error."""


@pytest.mark.parametrize("shell", SHELLS)
def test_the_documented_check_fails_a_service_it_cannot_reach(tmp_path: Path, shell: list[str]) -> None:
    write_log(tmp_path / "games.ndjson", GOOD)
    with socket.socket() as closed:  # a port of this machine that nobody listens on
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    env = {**os.environ, "TAROT_RULES_URL": url}
    done = subprocess.run(
        [*shell, documented_check()], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode != 0, done.stdout + done.stderr


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("kind", list(LOGS))
def test_the_documented_check_passes_exactly_when_the_replay_does(
    service: str, tmp_path: Path, kind: str, shell: list[str]
) -> None:
    lines, good = LOGS[kind]
    write_log(tmp_path / "games.ndjson", lines)
    env = {**os.environ, "TAROT_RULES_URL": service}
    done = subprocess.run(
        [*shell, documented_check()], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode == 0) == good, f"{kind}: exit {done.returncode}\n{done.stdout}{done.stderr}"
    assert (replayed(tmp_path / "games.ndjson") == 0) == good, f"{kind}: the replay disagrees"
    if lines:  # what the service answered was kept, one line a record, then the summary
        answers = (tmp_path / "answers.ndjson").read_text().splitlines()
        records = [line for line in lines if not isinstance(line, str) or line.strip()]
        assert len(answers) == len(records) + 1
