"""The container image: the Dockerfile passes hadolint, and its entrypoint serves.

No Docker engine runs in CI, so the image's exact entrypoint and health check are run here,
from the repository root, with the environment the Dockerfile sets.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tarfile
import zipfile
from pathlib import Path

from tests.serving import ROOT, VENV_BIN, Gunicorn, call

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions(name: str) -> list[str]:
    """Arguments of every ``name`` instruction, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.*)$", joined, re.MULTILINE)]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for args in instructions("ENV"):
        for pair in shlex.split(args):
            key, value = pair.split("=", 1)
            env[key] = value
    return env


def test_dockerfile_passes_hadolint() -> None:
    lint = subprocess.run(
        [str(VENV_BIN / "hadolint"), "--failure-threshold", "info", "-"],
        input=DOCKERFILE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_image_runs_as_numeric_non_root_user_with_exec_form_entrypoint() -> None:
    assert instructions("USER")[-1] == "10001:10001"
    entrypoint = json.loads(instructions("ENTRYPOINT")[-1])  # exec form: a JSON array
    assert entrypoint == ["gunicorn", "-c", "gunicorn.conf.py", "service.wsgi:app"]
    assert len(instructions("FROM")) >= 2, "multi-stage"
    assert instructions("EXPOSE")[-1].split() == [image_env()["PORT"], image_env()["HEALTH_PORT"]] == ["8000", "8001"]


def test_dockerignore_keeps_what_the_image_copies() -> None:
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    copied = [
        source for args in instructions("COPY") if not args.startswith("--from") for source in shlex.split(args)[:-1]
    ]
    assert "conformance/v1" in copied and "requirements/build.lock" in copied
    for source in copied:
        assert f"!{source}" in ignore or f"!{source}/" in ignore, source
        assert (ROOT / source).exists(), source


def test_image_entrypoint_and_health_check_serve(tmp_path: Path) -> None:
    env = image_env()
    env.pop("PATH")  # the image's virtualenv is this one
    env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path / "metrics")  # the image's /run is not ours
    entrypoint = json.loads(instructions("ENTRYPOINT")[-1])
    health = re.search(r"CMD\s+(\[.*\])", instructions("HEALTHCHECK")[-1])
    assert health is not None
    with Gunicorn(env, command=entrypoint) as server:
        assert call(server.base, "GET", "/livez").json() == {"status": "ok"}
        assert call(server.base, "POST", "/v1/tricks/winner", {"players": 3, "cards": ["KS", "1T"]}).status == 200
        check = subprocess.run(
            json.loads(health.group(1)), cwd=ROOT, env=server.env, capture_output=True, text=True, check=False
        )
        assert check.returncode == 0, check.stderr
        assert server.stop() == 0
    down = subprocess.run(json.loads(health.group(1)), cwd=ROOT, env=server.env, capture_output=True, check=False)
    assert down.returncode == 1


def built_wheel(source: Path, into: Path) -> zipfile.ZipFile:
    """The wheel pip builds from ``source``."""
    python = str(VENV_BIN / "python")
    subprocess.run(
        [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(into), str(source)],
        check=True,
        capture_output=True,
    )
    [wheel] = into.glob("*.whl")
    return zipfile.ZipFile(wheel)


def assert_the_kit(wheel: zipfile.ZipFile) -> None:
    """The wheel carries the repository's conformance kit, file for file, where the command finds it."""
    kit = ROOT / "conformance" / "v1"
    packaged = "service/conformance-kit/v1/"
    files = {p.relative_to(kit).as_posix(): p.read_bytes() for p in kit.rglob("*.json")}
    in_wheel = {n.removeprefix(packaged): wheel.read(n) for n in wheel.namelist() if n.startswith(packaged)}
    assert files and in_wheel == files


def assert_compiled_catalogs(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    # The contract's examples are data the package reads at run time.
    examples = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "service/contract/examples").glob("*.json"))
    assert examples and [n for n in names if n.startswith("service/contract/examples/")] == examples
    for language in ("en", "fr"):
        for domain in ("messages", "cli"):
            assert f"service/texts/locales/{language}/LC_MESSAGES/{domain}.mo" in names
    assert not [name for name in names if name.endswith(".po")]


def test_the_package_is_built_with_its_compiled_catalogs(tmp_path: Path) -> None:
    # What the image's build does, from the files it copies (tracked files only: no .mo among
    # them), and what an install from a source distribution does: either wheel carries the
    # compiled catalogs of both languages and no .po, and the conformance kit.
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    source = tmp_path / "source"
    copied = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
    for name in tracked:
        if name in copied or name.startswith(("service/", "conformance/v1/")):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    assert not list(source.rglob("*.mo"))
    wheel = built_wheel(source, tmp_path / "wheels")
    assert_compiled_catalogs(wheel)
    assert_the_kit(wheel)

    build_sdist = "from setuptools import build_meta; print(build_meta.build_sdist(__import__('sys').argv[1]))"
    sdists = tmp_path / "sdists"
    command = [str(VENV_BIN / "python"), "-c", build_sdist, str(sdists)]
    done = subprocess.run(command, cwd=source, capture_output=True, text=True, check=True)
    with tarfile.open(sdists / done.stdout.split()[-1]) as sdist:
        assert [name for name in sdist.getnames() if name.endswith("/fr/LC_MESSAGES/messages.po")]
        sdist.extractall(tmp_path / "unpacked", filter="data")
    [unpacked] = (tmp_path / "unpacked").iterdir()
    wheel = built_wheel(unpacked, tmp_path / "wheels-from-sdist")
    assert_compiled_catalogs(wheel)
    assert_the_kit(wheel)
