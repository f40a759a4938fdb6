"""GET /docs in a real headless browser: Swagger UI renders every operation of the spec."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.browser import dump_dom, needs_browser
from tests.serving import ROOT, Gunicorn

pytestmark = needs_browser


def test_swagger_ui_renders_every_operation(tmp_path: Path) -> None:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    paths = set(spec["paths"])
    with Gunicorn({"WEB_CONCURRENCY": "1"}) as server:
        dom = dump_dom(server.base + "/docs/", tmp_path, virtual_time_ms=15000).stdout
        fetched = {r.get("path") for r in server.log_records() if r.get("logger") == "gunicorn.access"}
    rendered = set(re.findall(r'class="opblock-summary-path" data-path="([^"]+)"', dom))
    assert rendered == paths
    assert "French Tarot rules service" in dom
    assert {"/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/openapi.json"} <= fetched
