"""The releases the server's worker was read against, held to the lock files and the install
(tests/test_serving_gunicorn_pin.py, tests/test_serving_gevent_pin.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def assert_pinned(package: str, checked_against: str, installed: str, reread: str) -> None:
    """``package`` pinned at ``checked_against`` in both lock files and installed at it; else
    say what to re-read (``reread``) before moving the pin."""
    for lock in ("runtime.lock", "dev.lock"):
        pinned = re.search(rf"^{package}==(\S+)$", (ROOT / "requirements" / lock).read_text(), re.MULTILINE)
        assert pinned is not None and pinned.group(1) == checked_against, (
            f"requirements/{lock} pins {package} {pinned and pinned.group(1)}; the worker was checked against "
            f"{checked_against}: re-read {reread} in the new release, then move CHECKED_AGAINST"
        )
    assert installed == checked_against, f"{package} {installed} installed, not the pinned one"
