"""A Python client generated from openapi.yaml, as a backend team would make one, against gunicorn.

openapi-python-client generates the client from the committed spec (without a warning); the
spec's request examples and the golden deals and positions are then sent through it to a
running instance, and every answer must parse into the generated types.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.conftest import deal_request, golden
from tests.serving import ROOT, VENV_BIN, Gunicorn

SPEC = ROOT / "openapi.yaml"
OPERATIONS = {  # path → (module of the generated api package, request model, answer model)
    "/v1/tricks/legal-cards": ("tricks.list_legal_cards", "LegalCardsRequest", "LegalCardsResponse"),
    "/v1/tricks/winner": ("tricks.find_trick_winner", "WinnerRequest", "WinnerResponse"),
    "/v1/deals/score": ("scoring.score_deal", "ScoreRequest", "ScoreResponse"),
    "/v1/deals/evaluate": ("evaluation.evaluate_deal", "EvaluateRequest", "EvaluateResponse"),
    "/v1/deals/evaluate-batch": ("batch.evaluate_deal_batch", "BatchRequest", "BatchResponse"),
}
# The generator takes JSON bodies only; as the README says, the NDJSON form of the batch is
# declared to it as bytes.
GENERATOR_CONFIG = "content_type_overrides:\n  application/x-ndjson: application/octet-stream\n"


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("client")
    config = out / "config.yaml"
    config.write_text(GENERATOR_CONFIG, encoding="utf-8")
    generated = subprocess.run(
        [str(VENV_BIN / "openapi-python-client"), "generate", "--path", str(SPEC), "--meta", "none",
         "--config", str(config), "--output-path", str(out / "tarot_client")],
        check=False, capture_output=True, text=True, timeout=120,
        env={"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(out)},
    )  # fmt: skip
    report = generated.stdout + generated.stderr
    assert generated.returncode == 0, report
    assert "Warning" not in report, report
    sys.path.insert(0, str(out))
    try:
        yield "tarot_client"
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == "tarot_client" or m.startswith("tarot_client.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as g:
        yield g


def requests() -> list[tuple[str, str, dict[str, Any]]]:
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    out = []
    for path in OPERATIONS:
        content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        out += [(path, f"example {name}", example["value"]) for name, example in content["examples"].items()]
    out += [("/v1/deals/evaluate", f"golden deal {i}", deal_request(d)) for i, d in enumerate(golden("deals.jsonl"))]
    for i, position in enumerate(golden("legal_positions.jsonl")[:30]):
        body = {k: v for k, v in position.items() if k != "legal"}
        out.append(("/v1/tricks/legal-cards", f"golden position {i}", body))
    return out


def test_the_generated_client_has_one_type_per_enum_and_named_operations(client_package: str) -> None:
    models = importlib.import_module(f"{client_package}.models")
    names = set(dir(models))
    assert {"Players", "Contract", "Side", "Card", "ViolationCode", "LegalReason"} <= names
    assert not [n for n in names if "Type1" in n or "Type2" in n], "one optional type per nullable enum"
    card = models.Card
    assert card.TEN_OF_HEARTS.value == "10H" and card.EXCUSE.value == "EX"
    # The contract of an evaluation is the type a score request takes.
    assert importlib.import_module(f"{client_package}.models.evaluate_response").Contract is models.Contract


@pytest.mark.parametrize(("path", "name", "body"), requests(), ids=lambda v: v if isinstance(v, str) else "")
def test_answers_parse_into_the_generated_types(
    client_package: str, server: Gunicorn, path: str, name: str, body: dict[str, Any]
) -> None:
    module, request_model, answer_model = OPERATIONS[path]
    package: ModuleType = importlib.import_module(client_package)
    api = importlib.import_module(f"{client_package}.api.{module}")
    models = importlib.import_module(f"{client_package}.models")
    client = package.Client(base_url=server.base, raise_on_unexpected_status=True)
    request = getattr(models, request_model).from_dict(json.loads(json.dumps(body)))
    response = api.sync_detailed(client=client, body=request)
    assert response.status_code == 200, response.content[:300]
    assert isinstance(response.parsed, getattr(models, answer_model))
    # Nothing of the answer is lost on the way through the generated types.
    assert response.parsed.to_dict() == json.loads(response.content)
