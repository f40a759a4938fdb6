"""Headless Chromium for the tests that look at a page as a browser lays it out and runs it:
/docs (Swagger UI), a page of another origin calling the service (CORS), the replay's report;
and a page's own origin to serve it from."""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
BROWSER = next((path for name in BROWSERS if (path := shutil.which(name))), None)

needs_browser = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium on this machine: `make test` installs Debian's chromium where it may "
    "(root or passwordless sudo); otherwise `apt-get install chromium`",
)

# Off the network but for the page under test (no updates, sync, background requests or QUIC),
# with a profile of the test's own; the console goes to stderr, for the tests that read it.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
)


def dump_dom(url: str, profile: Path, *, virtual_time_ms: int | None = None) -> subprocess.CompletedProcess[str]:
    """Chromium's run on ``url``: the DOM once the page has loaded (stdout), its log (stderr).
    ``virtual_time_ms`` lets the page's scripts and requests run for that long first."""
    assert BROWSER is not None, "mark the test needs_browser"
    budget = () if virtual_time_ms is None else (f"--virtual-time-budget={virtual_time_ms}",)
    return subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *budget, "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    )


class PageServer:
    """A page's origin: one HTML page served on a loopback port."""

    def __init__(self, page: str) -> None:
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def page_result(page_url: str, profile: Path) -> dict[str, Any]:
    dom = dump_dom(page_url, profile, virtual_time_ms=10000).stdout
    start, end = dom.index("RESULT") + len("RESULT"), dom.index("END")
    result: dict[str, Any] = json.loads(dom[start:end].replace("&quot;", '"'))
    return result
