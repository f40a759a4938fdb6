"""The Kubernetes manifests: rendered with kustomize, validated strictly against the API
schemas, and checked against what the app serves (probe paths, port, security settings)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask

from tests.serving import ROOT, VENV_BIN

KUSTOMIZATIONS = ["k8s/base", "k8s/overlays/example"]


def render(kustomization: str) -> list[dict[str, Any]]:
    out = subprocess.run(
        [str(VENV_BIN / "kubectl"), "kustomize", str(ROOT / kustomization)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [doc for doc in yaml.safe_load_all(out) if doc]


@pytest.fixture(scope="module", params=KUSTOMIZATIONS)
def rendered(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    docs = render(request.param)
    path = tmp_path_factory.mktemp("k8s") / "rendered.yaml"
    path.write_text(yaml.safe_dump_all(docs), encoding="utf-8")
    return path, docs


def one(docs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    [doc] = [d for d in docs if d["kind"] == kind]
    return doc


def test_manifests_validate_strictly(rendered: tuple[Path, list[Any]]) -> None:
    path, _ = rendered
    check = subprocess.run(
        [str(VENV_BIN / "kubernetes-validate"), "--strict", "--quiet", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_every_expected_resource_is_there(rendered: tuple[Path, list[Any]]) -> None:
    kinds = {(d["apiVersion"], d["kind"]) for d in rendered[1]}
    assert {
        ("apps/v1", "Deployment"),
        ("v1", "Service"),
        ("autoscaling/v2", "HorizontalPodAutoscaler"),
        ("policy/v1", "PodDisruptionBudget"),
    } <= kinds


def test_probes_and_port_are_the_ones_the_app_serves(rendered: tuple[Path, list[Any]], app: Flask) -> None:
    docs = rendered[1]
    pod = one(docs, "Deployment")["spec"]["template"]["spec"]
    [container] = pod["containers"]
    port, health = container["ports"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert str(port["containerPort"]) == env["PORT"] == "8000"
    # The probes ask the probe port, where they never wait behind the service's traffic.
    assert str(health["containerPort"]) == env["HEALTH_PORT"] == "8001"
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": health["name"]}
    assert container["livenessProbe"]["httpGet"] == {"path": "/livez", "port": health["name"]}
    assert container["startupProbe"]["httpGet"] == {"path": "/livez", "port": health["name"]}
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["path"] in routes
    [service_port] = one(docs, "Service")["spec"]["ports"]
    assert service_port["targetPort"] == port["name"]


def test_selectors_match_the_pods(rendered: tuple[Path, list[Any]]) -> None:
    docs = rendered[1]
    deployment = one(docs, "Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    for selector in (
        deployment["spec"]["selector"]["matchLabels"],
        one(docs, "PodDisruptionBudget")["spec"]["selector"]["matchLabels"],
        one(docs, "Service")["spec"]["selector"],
    ):
        assert selector and selector.items() <= labels.items()
    target = one(docs, "HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])


def test_pods_are_locked_down(rendered: tuple[Path, list[Any]]) -> None:
    deployment = one(rendered[1], "Deployment")
    assert deployment["spec"]["replicas"] >= 2
    pod = deployment["spec"]["template"]["spec"]
    assert pod["automountServiceAccountToken"] is False
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    [container] = pod["containers"]
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"] == {"drop": ["ALL"]}
    assert isinstance(security["runAsUser"], int) and security["runAsUser"] > 0
    assert "memory" in container["resources"]["limits"] and container["resources"]["requests"]["cpu"]
    assert container["lifecycle"]["preStop"]["sleep"]["seconds"] > 0
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    env = {e["name"]: e["value"] for e in container["env"]}
    assert {"/tmp", env["PROMETHEUS_MULTIPROC_DIR"]} <= mounts
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert all("emptyDir" in volumes[m["name"]] for m in container["volumeMounts"])
    # Kubernetes must wait out the preStop sleep, the drain and gunicorn's grace period.
    drain = float(env["DRAIN_SECONDS"]) + container["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pod["terminationGracePeriodSeconds"] > drain


def test_image_user_matches_the_manifests(rendered: tuple[Path, list[Any]]) -> None:
    [container] = one(rendered[1], "Deployment")["spec"]["template"]["spec"]["containers"]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    user = container["securityContext"]["runAsUser"]
    assert f"USER {user}:{container['securityContext']['runAsGroup']}" in dockerfile


def container_env(docs: list[dict[str, Any]]) -> dict[str, str]:
    [container] = one(docs, "Deployment")["spec"]["template"]["spec"]["containers"]
    return {variable["name"]: variable["value"] for variable in container["env"]}


def test_pages_may_call_the_service_only_where_an_overlay_says_from_where() -> None:
    from service.api.layers.cors import parse_origins

    assert "CORS_ORIGINS" not in container_env(render("k8s/base"))
    origins = parse_origins(container_env(render("k8s/overlays/example"))["CORS_ORIGINS"])
    assert origins and "*" not in origins
