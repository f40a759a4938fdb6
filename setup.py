"""The install compiles the message catalogs: the .po files are the source, the .mo files
what the service reads (pyproject.toml holds everything else)."""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
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


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        # An editable install reads the source tree: the catalogs are compiled there.
        target = LOCALES if getattr(self, "editable_mode", False) else Path(self.build_lib, LOCALES)
        compile_catalogs(LOCALES, target)


setup(cmdclass={"build_py": BuildWithCatalogs})
