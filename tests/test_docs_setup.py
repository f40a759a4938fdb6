"""Set-up as the README and docs/operations.md tell it, held to what the Makefile does.

``make -n run`` in a copy of the repository with nothing installed yet shows every step of a
first ``make run``: each install says what it installs before it starts, and so does the
compilation of the rules core (a minute with nothing printed); each lock file goes into the
virtualenv the docs say (the runtime into ``.venv``, which serves; the build tools into a
virtualenv of their own), and the command lands in ``.venv/bin``, where the README and
docs/ci.md say to run it from. No page tells anyone to install the package into an
environment of their own: ``pip`` runs in a virtualenv made for it, or ``pipx`` makes one.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from .serving import ROOT

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("git") is None, reason="needs make and git"
)

PAGES = ["README.md", "docs/ci.md", "docs/operations.md", "docs/clients.md", "conformance/README.md"]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What a first ``make run`` would do, in order (``make -n``), in a copy of the tracked files."""
    copy = tmp_path_factory.mktemp("checkout")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    for name in filter(None, tracked.stdout.split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    done = subprocess.run(["make", "-n", "run"], cwd=copy, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def installs(steps: str) -> list[tuple[str, str, int]]:
    """Each ``pip install -r LOCK`` of the steps: the virtualenv it installs into, the lock, where it is."""
    return [
        (m.group(1), m.group(2), m.start())
        for m in re.finditer(r"(\S+)/bin/python -m pip install [^\n]*-r requirements/(\S+\.lock)", steps)
    ]


def test_a_first_make_run_says_each_step_before_it_starts(first_run: str) -> None:
    found = installs(first_run)
    assert {lock for _, lock, _ in found} == {"runtime.lock", "build.lock"}
    for venv, lock, at in found:
        said = first_run.rfind("echo ", 0, at)
        assert said >= 0 and f"requirements/{lock}" in first_run[said:at] and venv in first_run[said:at], lock
    compiling = first_run.index("build_ext --inplace")
    said = first_run.rfind("echo ", 0, compiling)
    assert "compiling the rules core with mypyc: about a minute" in first_run[said:compiling]


def test_the_serving_virtualenv_gets_the_runtime_only_and_the_docs_say_where_each_lock_goes(first_run: str) -> None:
    found = {(venv, lock) for venv, lock, _ in installs(first_run)}
    assert found == {(".venv", "runtime.lock"), (".venv-build", "build.lock")}
    # The command is installed into the serving virtualenv: .venv/bin/tarot-rules.
    assert re.search(r"^\.venv/bin/python -m pip install [^\n]*--no-deps -e \.$", first_run, re.MULTILINE)
    setup = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    setup = " ".join(setup[setup.index("## Set-up in detail") : setup.index("## Run the image")].split())
    sentences = re.split(r"(?<=[.)])\s+(?=[A-Z`])", setup)
    for venv, lock in found:
        assert any(f"`{venv}`" in s and f"`requirements/{lock}`" in s for s in sentences), (venv, lock)


@pytest.mark.parametrize("page", ["README.md", "docs/ci.md", "docs/operations.md"])
def test_the_docs_say_how_to_run_the_command_from_the_checkout(page: str) -> None:
    text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
    assert "`.venv/bin/tarot-rules`" in text
    assert "not on your `PATH`" in text or "not put on your `PATH`" in text


@pytest.mark.parametrize("page", PAGES)
def test_no_page_installs_the_package_into_an_environment_of_its_reader(page: str) -> None:
    # pip runs in a virtualenv made for the command (its own bin/python), or pipx makes one.
    text = (ROOT / page).read_text(encoding="utf-8")
    for line in re.findall(r"^.*\bpip3? install\b.*$", text, re.MULTILINE):
        assert re.search(r"/bin/python\"? -m pip install", line), line
    ci = " ".join((ROOT / "docs" / "ci.md").read_text(encoding="utf-8").split())
    assert "a virtualenv of its own" in ci and "`pipx`" in ci and "top-level module is named `service`" in ci


def test_the_published_engine_for_a_side_by_side_run_has_a_target_of_its_own() -> None:
    # The README and the kit's README send a user to `make peer-engine`: it makes the engine's
    # virtualenv, the engine alone (no dependencies), where the kit's example runs it.
    for page in ("README.md", "conformance/README.md"):
        assert "make peer-engine" in " ".join((ROOT / page).read_text(encoding="utf-8").split()), page
    dry = subprocess.run(["make", "-n", "-B", "peer-engine"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ".venv-magmacrunch/bin/python -m pip install" in dry.stdout
    assert "--no-deps" in dry.stdout and "requirements/magmacrunch.txt" in dry.stdout
