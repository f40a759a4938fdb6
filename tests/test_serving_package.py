"""The server's package stays apart: it never loads Flask or the HTTP layer, and naming it (or
reading gunicorn's settings file) loads neither gevent nor gunicorn."""

from __future__ import annotations

import pytest

from tests.fresh import modules_after


def loaded(modules: set[str], *roots: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in roots or m in roots or m.startswith("service.api"))


@pytest.mark.parametrize("code", ["import service.serving", "from service.serving import hooks, limits"])
def test_naming_the_package_or_its_settings_loads_no_server(code: str) -> None:
    assert loaded(modules_after(code), "gevent", "gunicorn", "flask") == []


def test_the_whole_package_loads_neither_flask_nor_the_http_layer() -> None:
    code = "import service.serving.worker, service.serving.logs, service.serving.hooks, service.serving.problems"
    modules = modules_after(code)
    assert "gevent" in modules and "gunicorn" in modules  # the check sees what it should
    assert loaded(modules, "flask", "werkzeug", "flask_smorest") == []
