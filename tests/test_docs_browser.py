"""GET /docs in a real headless browser: Swagger UI renders every operation of the spec."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.serving import ROOT, Gunicorn

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
BROWSER = next((path for name in BROWSERS if (path := shutil.which(name))), None)

pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium on this machine: `make test` installs Debian's chromium where it may "
    "(root or passwordless sudo); otherwise `apt-get install chromium`",
)


def test_swagger_ui_renders_every_operation(tmp_path: Path) -> None:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    paths = set(spec["paths"])
    with Gunicorn({"WEB_CONCURRENCY": "1"}) as server:
        # The flags keep Chromium off the network: it may only reach the page under test.
        dom = subprocess.run(
            [
                str(BROWSER),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={tmp_path}",
                "--virtual-time-budget=15000",
                "--dump-dom",
                server.base + "/docs/",
            ],
            capture_output=True,
            text=True,
            timeout=90,
            check=True,
        ).stdout
        fetched = {r.get("path") for r in server.log_records() if r.get("logger") == "gunicorn.access"}
    rendered = set(re.findall(r'class="opblock-summary-path" data-path="([^"]+)"', dom))
    assert rendered == paths
    assert "French Tarot rules service" in dom
    assert {"/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/openapi.json"} <= fetched
