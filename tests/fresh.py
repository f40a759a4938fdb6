"""What a fresh interpreter loads: the tests that hold a layer apart (the command line without a
web framework, the server's package without Flask) run code in one and read its modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .serving import ROOT


def modules_after(code: str, *args: str, cwd: Path = ROOT) -> set[str]:
    """The modules loaded by ``code`` run in a fresh interpreter, ``args`` its ``sys.argv[1:]``.
    The list is its last line of output, whatever the code printed before."""
    listing = "import json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{listing}", *args],
        cwd=cwd, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return set(json.loads(out.stdout.splitlines()[-1]))
