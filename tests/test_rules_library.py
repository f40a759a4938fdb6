"""The rules core is a library: importing it loads no web framework, schema library or server."""

from __future__ import annotations

import json
import subprocess
import sys

OUTSIDE = ("flask", "werkzeug", "marshmallow", "flask_smorest", "webargs", "apispec", "gunicorn", "gevent",
           "prometheus_client", "prometheus_flask_exporter", "yaml", "orjson")  # fmt: skip

PROGRAM = """
import importlib, json, pkgutil, sys
import service.rules
for module in pkgutil.walk_packages(service.rules.__path__, "service.rules."):
    importlib.import_module(module.name)
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_every_rules_module_loads_nothing_of_the_web_stack() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "service.rules.deal" in loaded and "service.rules.play" in loaded
    outside = sorted(m for m in loaded if m.split(".")[0] in OUTSIDE)
    assert outside == []
    assert not [m for m in loaded if m.startswith("service.") and not m.startswith("service.rules")]
