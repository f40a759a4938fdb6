"""The install compiles the message catalogs: the .po files are the source, the .mo files
what the service reads; and it puts the conformance kit (``conformance/v1``, its one copy in the
repository) in the package, for ``tarot-rules conformance`` wherever the package is installed
(pyproject.toml holds everything else).

With ``TAROT_RULES_COMPILE=1`` (and mypy and a C compiler at hand) it also compiles the rules
core, ``service/rules``, with mypyc: an optional speed-up of the same sources, used only while
they are unchanged (see ``service/rules/__init__.py``). ``make compile`` does it in place.
"""

import hashlib
import os
import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

LOCALES = Path("service", "texts", "locales")


def compile_catalogs(source: Path, target: Path) -> None:
    """Write the .mo of every .po under ``source`` at the same place under ``target``."""
    catalogs = sorted(source.glob("*/LC_MESSAGES/*.po"))
    if not catalogs:
        # A package without its catalogs could not say a word: better no package at all.
        raise FileNotFoundError(f"No message catalog (.po) under {source}: the source tree is incomplete.")
    for po in catalogs:
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem, abort_invalid=True)
        with mo.open("wb") as f:
            write_mo(f, catalog)


KIT = Path("conformance", "v1")
PACKAGED_KIT = Path("service", "conformance-kit", "v1")
"""Where the kit goes in a built package (a name no module can have: it is data). An editable
install reads the repository's own copy instead (service/cli/casefiles.py)."""


def copy_kit(source: Path, target: Path) -> None:
    """The kit's schema and case files, as they are in the repository."""
    files = sorted(p for p in source.rglob("*.json") if p.is_file())
    if not any(p.parts[len(source.parts)] == "cases" for p in files):
        raise FileNotFoundError(f"No conformance case file under {source}: the source tree is incomplete.")
    shutil.rmtree(target, ignore_errors=True)
    for path in files:
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)


class BuildPackage(build_py):
    def run(self) -> None:
        super().run()
        # An editable install reads the source tree: the catalogs are compiled there, and the
        # kit is read where it is.
        if getattr(self, "editable_mode", False):
            compile_catalogs(LOCALES, LOCALES)
            return
        compile_catalogs(LOCALES, Path(self.build_lib, LOCALES))
        copy_kit(KIT, Path(self.build_lib, PACKAGED_KIT))


RULES = Path("service", "rules")


def rules_digest() -> str:
    """What service.rules.sources_digest computes, restated: importing the package here would run
    its check for a compiled core inside the build. Were the two to differ, no build would ever
    be used, and tests/test_rules_compiled.py fails (CI requires the compiled core)."""
    digest = hashlib.sha256()
    for path in sorted(RULES.glob("*.py")):
        if path.name != "__init__.py":
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


INTERPRETED = {
    "__init__.py",  # decides at import whether the compiled modules may be used
    "verdicts.py",  # the verdict enums' docstrings are the contract's descriptions (lost compiled)
}
"""Modules of the core that stay Python in a compiled build: off the hot path of a valid deal."""


COMPILE = os.environ.get("TAROT_RULES_COMPILE") == "1"
STAMP = "compiled.txt"


BUILT_FROM: list[str] = []
"""The digest of the rules' sources the compiled core is built from, taken before mypyc reads them."""


def compiled_rules() -> list:  # type: ignore[type-arg]
    """The rules core's extension modules, when asked for."""
    if not COMPILE:
        return []
    from mypyc.build import mypycify

    # No stamp until the build succeeds: a failed build must not leave older modules looking current.
    (RULES / STAMP).unlink(missing_ok=True)
    modules = sorted(str(p) for p in RULES.glob("*.py") if p.name not in INTERPRETED)
    # The digest of the sources as mypyc reads them now: a source edited while the build runs
    # leaves a stamp that does not match it, and the build is not used (rather than a stamp of
    # the new sources on modules compiled from the old).
    BUILT_FROM.append(rules_digest())
    return mypycify(modules, opt_level="3", group_name="service.rules.core")


class BuildRules(build_ext):
    """Builds the compiled core, then stamps it with the digest of the sources it was built from;
    in place, the extension modules of an earlier build go first (a module no longer compiled,
    or gone, must not be found compiled)."""

    def run(self) -> None:
        if self.inplace:
            for old in RULES.glob("*.so"):
                old.unlink()
        super().run()
        if self.extensions:
            target = RULES if self.inplace else Path(self.build_lib, RULES)
            target.mkdir(parents=True, exist_ok=True)
            (target / STAMP).write_text(BUILT_FROM[0] + "\n", encoding="ascii")


setup(
    cmdclass={"build_py": BuildPackage, "build_ext": BuildRules},
    ext_modules=compiled_rules(),
    # The examples of the contract (data read at run time); the compiled core's stamp, when built.
    package_data={"service.contract": ["examples/*.json"], **({"service.rules": [STAMP]} if COMPILE else {})},
)
