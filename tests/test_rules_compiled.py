"""The compiled rules core is the pure one, faster (service/rules/__init__.py).

Every request below is answered twice: in process, on the compiled core, and by a process
running the pure-Python core (tests/purecore.py); the answers must be the same, texts
included. Skipped only where nothing is compiled, when both are the same code anyway.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import service.rules
from service.randomdeals import random_deal

from .badinputs import valid_bodies
from .conftest import deal_request, golden
from .mutations import KINDS, mutate
from .serving import ROOT

pytestmark = pytest.mark.skipif(not service.rules.COMPILED, reason="the compiled core is not built here (make compile)")


class PureCore:
    def __init__(self) -> None:
        env = {**os.environ, service.rules.PURE_VARIABLE: "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.purecore"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert json.loads(self.proc.stdout.readline()) == {"compiled": False}

    def answer(self, path: str, body: str, lang: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"path": path, "body": body, "lang": lang}) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def pure() -> Iterator[PureCore]:
    core = PureCore()
    yield core
    core.close()


def same(pure: PureCore, client: FlaskClient, path: str, body: Any, lang: str = "en") -> None:
    text = json.dumps(body)
    answer = client.post(path, data=text, content_type="application/json", headers={"Accept-Language": lang})
    compiled = {"status": answer.status_code, "body": json.loads(answer.data)}
    assert compiled == pure.answer(path, text, lang)


def test_the_compiled_core_is_in_use() -> None:
    from service.rules import replay

    assert not replay.__file__.endswith(".py")


@pytest.mark.parametrize("path", sorted(valid_bodies()))
def test_every_operation_answers_alike(pure: PureCore, client: FlaskClient, path: str) -> None:
    same(pure, client, path, valid_bodies()[path])


def test_golden_deals_and_positions_answer_alike(pure: PureCore, client: FlaskClient) -> None:
    for deal in golden("deals.jsonl"):
        same(pure, client, "/v1/deals/evaluate", deal_request(deal), "fr")
    for row in golden("legal_positions.jsonl"):
        body = {k: row[k] for k in ("players", "hand", "trick", "first_trick", "called_card")}
        same(pure, client, "/v1/tricks/legal-cards", body)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 100_000),
    players=st.sampled_from([3, 4, 5]),
    kind=st.sampled_from([None, *KINDS]),
    cut=st.sampled_from([None, 0, 1, 7, 40]),
    hands=st.booleans(),
    lang=st.sampled_from(["en", "fr"]),
)
def test_any_deal_legal_or_faulty_answers_alike(
    pure: PureCore, app_client: FlaskClient, seed: int, players: int, kind: str | None, cut: int | None, hands: bool,
    lang: str,
) -> None:  # fmt: skip
    deal = random_deal(seed, players)
    if kind is not None:
        mutation = mutate(kind, seed, players)
        deal = deal if mutation is None else mutation.deal
    if cut is not None:
        deal = {**deal, "plays": deal["plays"][:cut]}
    if not hands:
        deal = {**deal, "hands": None, "dog": None}
    same(pure, app_client, "/v1/deals/evaluate", deal, lang)
    same(pure, app_client, "/v1/deals/evaluate-batch", {"deals": [deal]}, lang)


@pytest.fixture(scope="module")
def app_client() -> FlaskClient:
    from service.app import create_app

    return create_app().test_client()


def _copy_of_the_core(tmp_path: Any) -> Any:
    import shutil

    shutil.copytree(ROOT / "service" / "rules", tmp_path / "service" / "rules")
    (tmp_path / "service" / "__init__.py").write_text("", encoding="utf-8")
    return tmp_path / "service" / "rules"


def _compiled_in(where: Any, **env: str) -> bool:
    code = "import service.rules as r, service.rules.replay as p; print(r.COMPILED, p.__file__.endswith('.py'))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=where, env={**os.environ, **env}, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[1] == str(out[0] == "False"), "the modules come from where the package says"
    return out[0] == "True"


def test_a_build_from_other_sources_is_never_run(tmp_path: Any) -> None:
    rules = _copy_of_the_core(tmp_path)
    assert _compiled_in(tmp_path)
    assert not _compiled_in(tmp_path, TAROT_RULES_PURE="1")
    with (rules / "table.py").open("a", encoding="utf-8") as f:
        f.write("\n# edited since the build\n")
    assert not _compiled_in(tmp_path)
    (rules / "compiled.txt").unlink()
    assert not _compiled_in(tmp_path)
