"""The kit run as implementers run it: the worked JavaScript adapter, and the runner's own HTTP
transport, against a real gunicorn of the service; every case of the kit must pass, refusals
included.

The JavaScript adapter (``conformance/adapters/node/adapter.mjs``) forwards each request of the
line protocol to the service and answers what it says; the Python one answers in process and
is run over the whole kit in tests/test_cli_conformance.py.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .commandline import stub, summary, tarot_rules
from .serving import Gunicorn, free_port

ROOT = Path(__file__).parent.parent
NODE_ADAPTER = ROOT / "conformance" / "adapters" / "node" / "adapter.mjs"
CASES = sum(
    len(json.loads(path.read_text(encoding="utf-8"))["cases"])
    for path in (ROOT / "conformance" / "v1" / "cases").rglob("*.json")
)
NODE_MAJOR = 18
"""The oldest Node.js with fetch (Debian 12's nodejs is 18; the adapter is written for 20)."""


def node() -> str | None:
    """The path of a node recent enough for the adapter, or None."""
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        return None
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
    major = re.match(r"v(\d+)\.", version)
    return found if major is not None and int(major.group(1)) >= NODE_MAJOR else None


NODE = node()
needs_node = pytest.mark.skipif(
    NODE is None,
    reason=f"no Node.js {NODE_MAJOR} or later on PATH (make browser installs Debian's nodejs where it may)",
)

# The command speaks the user's locale: English here (conftest.locale).
pytestmark = pytest.mark.usefixtures("locale")


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as running:
        yield running


@needs_node
def test_the_javascript_adapter_passes_the_whole_kit(server: Gunicorn, capsys: pytest.CaptureFixture[str]) -> None:
    assert NODE is not None
    harness = shlex.join([NODE, str(NODE_ADAPTER), server.base])
    status, out, err = tarot_rules(capsys, "conformance", "--harness", harness, "--quiet")
    assert status == 0, out + err
    assert summary(out) == {"cases": CASES, "passed": CASES, "failed": 0, "skipped": 0}


@needs_node
def test_the_javascript_adapter_says_what_went_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert NODE is not None
    # The URL in the environment; nothing serves it: each case fails with fetch's reason.
    harness = f"TAROT_RULES_URL=http://127.0.0.1:{free_port()} {shlex.join([NODE, str(NODE_ADAPTER)])}"
    status, out, _ = tarot_rules(capsys, "conformance", "--harness", harness, "--case", "winner/trick-winner/00[12]")
    assert status == 1
    assert summary(out) == {"cases": 2, "passed": 0, "failed": 2, "skipped": 0}
    assert "    the implementation could not answer: fetch failed (" in out
    # Without a URL it says how to give one, and ends before answering.
    status, _, err = tarot_rules(capsys, "conformance", "--harness", shlex.join([NODE, str(NODE_ADAPTER)]))
    assert status == 2
    assert "ended before its first answer: exit status 2" in err


def test_the_whole_kit_passes_over_http(server: Gunicorn, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = tarot_rules(capsys, "conformance", "--url", server.base, "--quiet", "--timeout", "10")
    assert status == 0, out + err
    assert summary(out) == {"cases": CASES, "passed": CASES, "failed": 0, "skipped": 0}


@needs_node
def test_the_javascript_adapter_waits_out_a_service_refusing_for_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert NODE is not None
    # Two refusals for load (503, Retry-After: 0), then the stub's own answer to the case (it
    # refuses every operation but the batch with a 422): the case is judged on that answer.
    harness = shlex.join([NODE, str(NODE_ADAPTER)])
    with stub(["overloaded 0"] * 2) as server:
        status, out, _ = tarot_rules(
            capsys, "conformance", "--harness", f"{harness} {server.base}", "--case", "winner/trick-winner/001"
        )
        assert len(server.languages) == 3
    assert status == 1
    assert "503" not in out
