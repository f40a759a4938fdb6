"""The image, built by ``scripts/image`` and run as ``k8s/base/deployment.yaml`` runs it.

Read-only root, the manifest's volumes, user 10001, no capabilities, no new privileges, its CPU
and memory limits and environment (load/deployed.py). Checked here: the compiled core and the
version, the probes, every README example answered as the README shows it, the metrics, the
conformance kit run inside the container against the container, a SIGTERM during a streamed
batch, and a start refused when the metrics directory cannot be written. Traffic goes to
127.0.0.1 only.
"""

from __future__ import annotations

import hashlib
import json
import re
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from load.deployed import Container, grace_seconds
from service import __version__
from service.cli.casefiles import default_kit, load_kit
from tests.image import MARK, Image
from tests.readme import Example, examples
from tests.serving import free_port
from tests.test_readme_examples import check_answer
from tests.test_serving_batch import deals, lines, open_stream

pytestmark = MARK


@pytest.fixture(scope="module")
def deployed(image: Image) -> Iterator[Container]:
    container = Container(image.host, image.tag, free_port())
    try:
        container.ready()
        yield container
    finally:
        container.remove()


def run(image: Image, *command: str, entrypoint: str) -> str:
    from load.deployed import docker

    done = docker(image.host, "run", "--rm", "--entrypoint", entrypoint, image.tag, *command, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_image_runs_the_compiled_core_and_says_so(image: Image, deployed: Container) -> None:
    assert (
        run(image, "--version", entrypoint="tarot-rules").strip() == f"tarot-rules {__version__} (compiled rules core)"
    )
    [started] = [json.loads(line) for line in deployed.logs().splitlines() if "rules core" in line]
    assert (started["version"], started["core"]) == (__version__, "compiled")
    with urllib.request.urlopen(deployed.base + "/metrics", timeout=5) as answer:
        metrics = answer.read().decode()
    assert f'tarot_rules_build_info{{core="compiled",version="{__version__}"}} 1.0' in metrics.splitlines()


def test_the_image_says_its_licence_and_carries_it(image: Image) -> None:
    from load.deployed import docker

    labels = json.loads(docker(image.host, "image", "inspect", "--format", "{{json .Config.Labels}}", image.tag).stdout)
    assert labels["org.opencontainers.image.licenses"] == "Apache-2.0"
    program = (
        "import importlib.metadata as m; d = m.distribution('tarot-rules-service'); "
        "print(d.metadata['License-Expression']); print(any(f.name == 'LICENSE' for f in d.files or ()))"
    )
    assert run(image, "-c", program, entrypoint="python").split() == ["Apache-2.0", "True"]


def test_the_runtime_stage_has_no_compiler(image: Image) -> None:
    found = run(image, "-c", "for c in cc gcc c99; do command -v $c; done; true", entrypoint="sh")
    assert found.strip() == ""


def test_the_kit_in_the_image_is_the_repositorys(image: Image) -> None:
    program = (
        "import hashlib, pathlib, service.cli.casefiles as k; root = k.default_kit(); "
        "print(root.parent.name, root.name); "
        "[print(p.relative_to(root).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()) "
        "for p in sorted(root.rglob('*.json'))]"
    )
    first, *files = run(image, "-c", program, entrypoint="python").splitlines()
    assert first == "conformance-kit v1", "the image reads the kit of its package"
    kit = default_kit()
    assert files == [
        f"{p.relative_to(kit).as_posix()} {hashlib.sha256(p.read_bytes()).hexdigest()}"
        for p in sorted(kit.rglob("*.json"))
    ]


def test_the_probes_answer(deployed: Container) -> None:
    for path in ("/livez", "/readyz"):
        with urllib.request.urlopen(deployed.base + path, timeout=5) as answer:
            assert (answer.status, json.loads(answer.read())) == (200, {"status": "ok"})


@pytest.mark.parametrize("example", examples(), ids=str)
def test_each_readme_example_answers_as_shown(deployed: Container, example: Example) -> None:
    request = urllib.request.Request(
        deployed.base + example.path, data=example.body, headers=example.headers, method=example.method
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            check_answer(example, answer.status, answer.headers.get("Content-Type", ""), answer.read())
    except urllib.error.HTTPError as problem:  # the README shows a 422 too
        check_answer(example, problem.code, problem.headers.get("Content-Type", ""), problem.read())


def test_the_kit_passes_inside_the_container_against_the_container(deployed: Container) -> None:
    done = deployed.execute("tarot-rules", "--lang", "en", "conformance", "--url", deployed.base)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    cases = sum(len(f.cases) for f in load_kit(default_kit()))
    counts = dict(re.findall(r"^(cases|passed|failed)\s+([\d,]+)$", done.stdout, re.MULTILINE))
    assert counts == {"cases": f"{cases:,}", "passed": f"{cases:,}", "failed": "0"}, done.stdout


def test_sigterm_during_a_streamed_batch_drains_and_exits_0(image: Image) -> None:
    container = Container(image.host, image.tag, free_port())
    try:
        container.ready()
        sock, answer = open_stream(container.port, deals(20_000))
        with sock:
            stream = lines(answer)
            first = next(stream)
            signalled = time.monotonic()
            container.signal(signal.SIGTERM)  # as the kubelet stops the pod, after preStop
            *items, last = [first, *stream]
        readiness = []
        while container.running() and time.monotonic() - signalled < grace_seconds():
            try:
                with urllib.request.urlopen(container.base + "/readyz", timeout=1) as ready:
                    readiness.append(ready.status)
            except urllib.error.HTTPError as exc:
                readiness.append(exc.code)
            except OSError:
                pass
            time.sleep(0.1)
        status = container.wait(grace_seconds() - (time.monotonic() - signalled))
        stopped = time.monotonic() - signalled
    finally:
        container.remove()
    summary = last["summary"]
    if summary["complete"]:
        assert summary["deals"] == 20_000
    else:
        stop = items[-1]
        assert stop["problem"]["errors"][0]["code"] == "draining"
        assert 0 < summary["unevaluated_from"] == stop["index"] == summary["deals"] < 20_000
        assert [item["index"] for item in items] == list(range(len(items)))
    assert 503 in readiness, "readiness said draining while the instance drained"
    assert status == 0, "a drained instance exits 0"
    assert stopped < grace_seconds()


def test_a_metrics_directory_that_cannot_be_written_stops_the_start(image: Image) -> None:
    # The Deployment without its metrics volume: /run/tarot-metrics on the read-only root.
    container = Container(image.host, image.tag, free_port(), without_volume="/run/tarot-metrics")
    try:
        status = container.wait(30)
        logs = container.logs()
    finally:
        container.remove()
    assert status != 0
    refusals = [json.loads(line) for line in logs.splitlines() if line.startswith("{") and "refusing" in line]
    assert [r["level"] for r in refusals] == ["ERROR"]
    assert (
        "the metrics directory /run/tarot-metrics (PROMETHEUS_MULTIPROC_DIR) is not writable" in refusals[0]["message"]
    )
    assert "Booting worker" not in logs
