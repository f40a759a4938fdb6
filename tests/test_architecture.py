"""The layers of docs/architecture.md, held: which package may import which, what the command
line loads, and the whole of the code under the type checker."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from .fresh import modules_after
from .serving import ROOT

PYPROJECT = ROOT / "pyproject.toml"
WEB = ("flask", "werkzeug", "flask_smorest", "flask_swagger_ui", "apispec", "webargs", "gunicorn", "gevent")


def _tracked_python_files() -> list[Path]:
    """Every Python file of the repository, scripts without the suffix included."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    found = []
    for name in out.stdout.splitlines():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree
        if name.endswith(".py"):
            found.append(path)
        elif "." not in path.name:
            with path.open("rb") as f:
                first = f.readline(200)
            if first.startswith(b"#!") and b"python" in first:
                found.append(path)
    return found


def _lint_imports(cwd: Path, config: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache", str(config)],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )


def _contracts() -> list[dict[str, Any]]:
    contracts: list[dict[str, Any]] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    return contracts


def test_every_import_keeps_to_the_layers() -> None:
    result = _lint_imports(ROOT, PYPROJECT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checks_fail_on_an_arrow_back_up_and_on_a_circle(tmp_path: Path) -> None:
    # The same contracts, over a tree of empty modules in which the core imports the contract,
    # the command line imports Flask, two modules of the command line import each other, the
    # kit's assembly imports a topic, a deal's chapter reads a tournament and a topic of the kit
    # asks the contract past its seam: each must be reported.
    modules = ["bench", "load", "tests"]
    for contract in _contracts():  # every module a contract names, that each contract can be read
        named = [m for layer in contract.get("layers", []) for m in layer.replace(":", "|").split("|")]
        if "containers" in contract:
            named = [f"{container}.{m.strip()}" for container in contract["containers"] for m in named]
        named += [*contract.get("source_modules", []), *contract.get("modules", [])]
        named += [m for m in contract.get("forbidden_modules", []) if m.startswith(("service", "conformance"))]
        modules += [m.strip(" ()") for m in named]
    for module in modules:
        package = tmp_path.joinpath(*module.split("."))
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text("")
    (tmp_path / "service" / "rules" / "deal.py").write_text("import service.contract\n")
    (tmp_path / "service" / "cli" / "replay.py").write_text("import flask\nimport service.cli.junit\n")
    (tmp_path / "service" / "cli" / "junit.py").write_text("import service.cli.replay\n")
    (tmp_path / "conformance" / "generator" / "assembly" / "__init__.py").write_text(
        "import conformance.generator.games\n"
    )
    # A deal's chapter that reads a tournament; a topic of the kit that asks the contract past its seam.
    (tmp_path / "service" / "rules" / "play" / "__init__.py").write_text("import service.rules.seating\n")
    (tmp_path / "conformance" / "generator" / "games" / "__init__.py").write_text("import service.contract\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _lint_imports(tmp_path, PYPROJECT, env)
    assert result.returncode != 0
    assert "service.rules.deal -> service.contract" in result.stdout
    assert "service.cli is not allowed to import flask" in result.stdout
    assert "No package's modules import one another in a circle BROKEN" in result.stdout
    assert "conformance.generator.assembly -> conformance.generator.games" in result.stdout
    assert "service.rules.play -> service.rules.seating" in result.stdout
    assert "conformance.generator.games -> service.contract" in result.stdout


# Against a service, nothing listens on 127.0.0.1:9: the command fails to connect, having
# loaded what it would use.
COMMANDS = {
    "deal": ["deal", "--players", "4", "--seed", "7"],
    "replay": ["replay", "{log}"],
    "replay-html": ["replay", "{log}", "--html", "{out}"],
    "replay-url": ["replay", "{log}", "--url", "http://127.0.0.1:9"],
    "conformance-url": ["conformance", "--url", "http://127.0.0.1:9"],
    "help": ["--help"],
    "version": ["--version"],
}
PROGRAM = """
import contextlib, io, json, sys
from service.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(json.loads(sys.argv[1]))
    except SystemExit:
        pass
"""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_command_line_loads_no_web_framework(command: str, tmp_path: Path) -> None:
    log = tmp_path / "deals.ndjson"
    log.write_text((ROOT / "tests" / "golden" / "deals.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n")
    argv = [arg.format(log=log, out=tmp_path / "report.html") for arg in COMMANDS[command]]
    loaded = modules_after(PROGRAM, json.dumps(argv), cwd=tmp_path)
    assert "service.cli" in loaded
    assert sorted(m for m in loaded if m.split(".")[0] in WEB) == []


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_nothing_outside_the_tests_imports_them() -> None:
    outside = [p for p in _tracked_python_files() if p.relative_to(ROOT).parts[0] != "tests"]
    assert any(p.name == "replay_command.py" for p in outside)
    importing = {
        str(p.relative_to(ROOT)): sorted(n for n in _imports(p) if n.split(".")[0] == "tests") for p in outside
    }
    assert {name: found for name, found in importing.items() if found} == {}


def test_every_python_file_outside_the_tests_is_type_checked() -> None:
    checked = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
    unchecked = [
        str(p.relative_to(ROOT))
        for p in _tracked_python_files()
        if p.relative_to(ROOT).parts[0] != "tests"
        and not any(
            p.relative_to(ROOT).as_posix() == f or p.relative_to(ROOT).as_posix().startswith(f + "/") for f in checked
        )
    ]
    assert unchecked == []
