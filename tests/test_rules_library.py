"""The rules core is a library: importing it loads no web framework, schema library or server;
of the rest of the package, only the messages (service.messages: the words it speaks in)."""

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
    assert [m for m in loaded if m.startswith("service.") and not m.startswith("service.rules")] == ["service.messages"]


def _frozen_classes() -> list[type]:
    import dataclasses
    import importlib
    import inspect
    import pkgutil

    import service.rules

    found = []
    for info in pkgutil.iter_modules(service.rules.__path__, "service.rules."):
        if info.name.endswith("__mypyc"):
            continue  # the compiled core's shared library, not a module of the rules
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            params = getattr(cls, "__dataclass_params__", None)
            if cls.__module__ == module.__name__ and params is not None and params.frozen:
                found.append(cls)
    assert found and all(dataclasses.is_dataclass(cls) for cls in found)
    return found


def test_every_frozen_value_of_the_core_is_copied_through_its_constructor() -> None:
    # Compiled, a frozen dataclass cannot be rebuilt field by field: each must be declared
    # (service.rules.frozen), or copy and pickle fail on it in the compiled core only.
    import copyreg

    classes = _frozen_classes()
    assert len(classes) >= 15
    assert [c.__qualname__ for c in classes if c not in copyreg.dispatch_table] == []


def test_evaluations_survive_pickle_and_deepcopy() -> None:
    import copy
    import pickle

    from service.randomdeals import random_deal, record
    from service.rules.deal import evaluate_deal

    from .mutations import KINDS, mutate

    evaluations = [evaluate_deal(record(random_deal(seed, n))) for seed in range(5) for n in (3, 4, 5)]
    for kind in KINDS:
        mutation = mutate(kind, 3, 5)
        if mutation is not None:
            evaluations.append(evaluate_deal(record(mutation.deal)))
    assert any(e.violations for e in evaluations) and any(e.score for e in evaluations)
    for ev in evaluations:
        assert pickle.loads(pickle.dumps(ev)) == ev
        assert copy.deepcopy(ev) == ev
