"""The CI workflow of docs/ci.md (the README's CI section links it), run as written: its shell
steps, not the CI system.

The workflow fetches this repository at a ref: it runs against this repository's own history,
the ref as written (a branch it has) and, pinned, the commit under test by its full id. The
team's engine is stood in for by records of `tarot-rules deal`, and each job's steps run in
order in a scratch directory, as a runner runs them: bash with `-eo pipefail`, `RUNNER_TEMP`,
`GITHUB_PATH` read between steps, and no trace of this checkout's virtualenv on `PATH`. The
command is installed into a clean virtualenv from the ref, with its pinned dependencies, by the
workflow's own step. The one step not run is the Docker one (no Docker daemon here): in its
place the installed package serves with the image's own entrypoint, from a directory holding
only `gunicorn.conf.py`, as the image's `/app` does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.serving import ROOT, VENV_BIN, Gunicorn
from tests.test_deploy_image import instructions

WORKFLOW = "# .github/workflows/tarot-rules.yml"
pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="the workflow fetches this repository with git: a git checkout of it is needed",
)


def workflow() -> dict[str, Any]:
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```yaml\n(.*?)```", page, re.DOTALL) if b.startswith(WORKFLOW)]
    parsed: dict[str, Any] = yaml.safe_load(block)
    return parsed


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def test_the_workflow_fetches_a_branch_this_repository_has() -> None:
    # Not a tag: the repository holds none. A branch as written; a commit's full id to pin it.
    ref = workflow()["env"]["TAROT_RULES_REF"]
    assert git("rev-parse", "--verify", "--quiet", f"refs/heads/{ref}^{{commit}}")


def repository() -> str:
    """Where the workflow gets this repository: this checkout, its real history."""
    return ROOT.as_uri()


def records(into: Path, wrong_claim: bool) -> None:
    """What the team's engine records: dealt games with the claims it computed."""
    deals = subprocess.run(
        [str(VENV_BIN / "tarot-rules"), "deal", "--players", "4", "--seed", "7", "--count", "12", "--claims",
         "--id-prefix", "game-"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    if wrong_claim:
        record = json.loads(deals[3])
        record["claims"]["points"] += 1
        deals[3] = json.dumps(record)
    (into / "games.ndjson").write_text("\n".join(deals) + "\n", encoding="utf-8")


class Runner:
    """One job's environment: a workspace, RUNNER_TEMP, GITHUB_PATH and the job's variables."""

    def __init__(self, root: Path, variables: dict[str, str]) -> None:
        self.workspace = root / "workspace"
        self.temp = root / "runner-temp"
        self.workspace.mkdir(parents=True)
        self.temp.mkdir()
        self.path_file = root / "github-path"
        self.path_file.write_text("", encoding="utf-8")
        # The runner's Python (setup-python's 3.11) as `python`, and the system's tools; not
        # this checkout's virtualenv, whose tarot-rules would hide a failed install.
        shims = root / "python-3.11"
        shims.mkdir()
        (shims / "python").symlink_to(sys._base_executable)  # type: ignore[attr-defined]
        system_path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != VENV_BIN]
        self.base_path = [str(shims), *system_path]
        inherited = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
        self.env = {**inherited, **variables, "RUNNER_TEMP": str(self.temp), "GITHUB_PATH": str(self.path_file)}

    def run(self, script: str) -> subprocess.CompletedProcess[str]:
        added = [line for line in self.path_file.read_text(encoding="utf-8").splitlines() if line]
        env = {**self.env, "PATH": os.pathsep.join([*reversed(added), *self.base_path])}
        return subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=self.workspace, env=env, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip


def run_job(name: str, root: Path, wrong_claim: bool, ref: str | None = None) -> tuple[int, Runner]:
    """Runs job ``name`` up to its check, at the workflow's ref or at ``ref``; the check's exit
    status and the runner."""
    flow = workflow()
    job = flow["jobs"][name]
    variables = {**flow.get("env", {}), **job.get("env", {}), "TAROT_RULES_GIT": repository()}
    # No compiler for the install step: compiling the core is the image's build stage, minutes
    # each job here; the step must then say so, and install the pure core.
    assert variables["TAROT_RULES_COMPILE"] == "1", "the workflow installs the compiled core where it can"
    variables["CC"] = "no-such-compiler"
    if ref is not None:
        variables["TAROT_RULES_REF"] = ref
    server: Gunicorn | None = None
    runner = Runner(root, variables)
    try:
        for step in job["steps"]:
            if "run" not in step:
                continue  # actions: checkout, setup-python (the runner's python), upload-artifact (below)
            if step.get("id") == "record":
                records(runner.workspace, wrong_claim)
            elif step.get("id") == "service":
                server = serve_as_the_image(step["run"], runner)
            elif step.get("id") == "check":
                done = runner.run(step["run"])
                assert done.returncode in (0, 1), done.stdout + done.stderr
                if server is not None:
                    # The command installed from the repository carries its conformance kit: run
                    # from the job's workspace, away from any checkout, it passes against the service.
                    kit = runner.run('tarot-rules --lang en conformance --quiet --url "$TAROT_RULES_URL"')
                    assert kit.returncode == 0, kit.stdout + kit.stderr
                    assert re.search(r"^failed\s+0$", kit.stdout, re.MULTILINE), kit.stdout
                [upload] = [s for s in job["steps"] if "upload-artifact" in s.get("uses", "")]
                artifacts_kept(upload, runner)
                return done.returncode, runner
            else:
                done = runner.run(step["run"])
                assert done.returncode == 0, f"step {step.get('name')!r} failed:\n{done.stdout}\n{done.stderr}"
                if step.get("id") == "install":
                    assert "installed as pure Python" in done.stdout and "Install gcc" in done.stdout, done.stdout
                    assert done.stdout.rstrip().endswith("(pure-Python rules core)"), done.stdout
        raise AssertionError(f"job {name} has no check step")
    finally:
        if server is not None:
            server.stop()


def artifacts_kept(upload: dict[str, Any], runner: Runner) -> None:
    assert upload.get("if") == "always()", "the reports are kept when the check fails too"
    paths = upload["with"]["path"].split()
    assert {"tarot-rules.xml", "tarot-rules.html"} <= set(paths)
    for path in paths:
        assert (runner.workspace / path).stat().st_size > 0, path


def serve_as_the_image(script: str, runner: Runner) -> Gunicorn:
    """The Docker step, checked for shape, and in its place the image's entrypoint served by
    the package the install step put in the clean virtualenv."""
    # The image of the very checkout the install step fetched, whatever its ref.
    assert 'docker build --quiet --tag tarot-rules:ci "$RUNNER_TEMP/tarot-rules-src"' in script
    assert "tarot-rules:ci" in script.splitlines()[-1]
    published = re.search(r"--publish 127\.0\.0\.1:(\d+):8000", script)
    assert published is not None and runner.env["TAROT_RULES_URL"] == f"http://127.0.0.1:{published.group(1)}"
    venv_bin = runner.temp / "tarot-rules" / "bin"
    assert (venv_bin / "gunicorn").exists(), "the install step comes before the service's"
    app_dir = runner.temp / "app"
    app_dir.mkdir()
    shutil.copy2(runner.temp / "tarot-rules-src" / "gunicorn.conf.py", app_dir)
    [program, *arguments] = json.loads(instructions("ENTRYPOINT")[-1])
    server = Gunicorn(
        {"PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}", "WEB_CONCURRENCY": "1",
         "PROMETHEUS_MULTIPROC_DIR": str(runner.temp / "metrics")},
        command=[str(venv_bin / program), *arguments], cwd=app_dir,
    )  # fmt: skip
    runner.env["TAROT_RULES_URL"] = server.base  # a free port here; 8000 on the runner
    return server.__enter__()


def junit_failures(runner: Runner) -> int:
    suite = (runner.workspace / "tarot-rules.xml").read_text(encoding="utf-8")
    return sum(int(n) for n in re.findall(r'<testsuite [^>]*failures="(\d+)"', suite))


@pytest.mark.parametrize("job", ["rules", "rules-against-the-service"])
def test_the_job_passes_on_good_records_and_fails_with_its_reports_on_a_wrong_claim(job: str, tmp_path: Path) -> None:
    # As written: the branch the workflow names, fetched from this repository.
    status, runner = run_job(job, tmp_path / "good", wrong_claim=False)
    assert status == 0 and junit_failures(runner) == 0
    installed = runner.temp / "tarot-rules" / "bin" / "tarot-rules"
    assert runner.run("command -v tarot-rules").stdout.strip() == str(installed), "the check ran the job's install"
    branch = workflow()["env"]["TAROT_RULES_REF"]
    fetched = runner.run('git -C "$RUNNER_TEMP/tarot-rules-src" rev-parse HEAD').stdout.strip()
    assert fetched == git("rev-parse", f"refs/heads/{branch}")
    # Pinned: the commit under test, by its full id. The second run, on the same records but for
    # one wrong claim, reuses pip's cache.
    commit = git("rev-parse", "HEAD")
    status, runner = run_job(job, tmp_path / "wrong", wrong_claim=True, ref=commit)
    assert status == 1 and junit_failures(runner) == 1
    assert runner.run('git -C "$RUNNER_TEMP/tarot-rules-src" rev-parse HEAD').stdout.strip() == commit
    assert "game-10" in (runner.workspace / "tarot-rules.html").read_text(encoding="utf-8")
