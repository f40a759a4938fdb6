"""Container health check: ``python -m service.healthcheck`` exits 0 when ``/livez`` answers 200.

The slim image has no curl; the interpreter that runs the service can make the request. It asks
the probe port (``HEALTH_PORT``) when there is one: there the probe never waits behind a crowd.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def main() -> int:
    port = os.environ.get("HEALTH_PORT") or os.environ.get("PORT", "8000")
    url = f"http://127.0.0.1:{port}/livez"
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return 0 if answer.status == 200 else 1
    except OSError as exc:
        print(f"health check failed: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
