"""The rules of French Tarot (docs/rules.md), as a pure, typed library.

The core may also be compiled with mypyc (``make compile``): the same sources, about 1.6×
faster. The compiled modules are an optional speed-up, never a second implementation: they
are used only when they were built from exactly the sources beside them (the digest the
build writes in ``compiled.txt``) and ``TAROT_RULES_PURE`` is not set; otherwise every
module of this package loads from its Python source, whatever lies beside it. So a build
left over from an older source is never run, and the pure core can always be asked for.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent
STAMP = _HERE / "compiled.txt"
"""Written by a compiled build: the digest of the sources it was compiled from."""
PURE_VARIABLE = "TAROT_RULES_PURE"


def sources_digest() -> str:
    """The digest of this package's modules (its own ``__init__`` aside, which is never compiled)."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        if path.name != "__init__.py":
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class _Sources(MetaPathFinder):
    """Finds this package's modules as Python sources, ahead of any compiled module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        source = _HERE / f"{name}.py"
        if package != __name__ or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _compiled_usable() -> bool:
    # Built for this interpreter, from these very sources, and loadable here (a tree mounted
    # where its C library is missing runs pure rather than not at all).
    library = _HERE / f"core__mypyc{EXTENSION_SUFFIXES[0]}"
    if os.environ.get(PURE_VARIABLE) or not library.is_file():
        return False
    try:
        if STAMP.read_text(encoding="ascii").strip() != sources_digest():
            return False
    except OSError:
        return False
    try:
        importlib.import_module(f"{__name__}.core__mypyc")
    except ImportError:
        return False
    return True


COMPILED: bool = _compiled_usable()
"""Whether this process runs the compiled core."""

CORE: str = "compiled" if COMPILED else "pure"
"""The core in use, as an operator sees it: in ``tarot-rules --version``, the server's start-up
log line and the ``tarot_rules_build_info`` metric."""

if not COMPILED:
    sys.meta_path.insert(0, _Sources())
