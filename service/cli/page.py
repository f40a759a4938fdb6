"""The head and style every HTML page of the command shares: a replay's and a conformance run's
(:mod:`.html`), and a matrix's (:mod:`.matrix_html`).

A page's template extends ``page.html``: the page's ``style`` block adds its own rules after the
shared ones (its tables' alignment, its marks and cells), its ``body`` block follows the title.
Everything stays inline (no script, no font or image from elsewhere): a page opens from a CI
artifact with no network. Jinja2 escapes every value, since a record's id and an
implementation's messages are not trusted.
"""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader, Environment

_PAGE = """<!DOCTYPE html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ t.title }}</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-top: 1px solid #ccc; padding-top: 1rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th { background: #f3f3f3; }
.ok { color: #2a2; } .bad { color: #c00; } .verdict { font-size: 1.1rem; }
{% block style %}{% endblock %}
</style>
</head>
<body>
<h1>{{ t.title }}</h1>
{% block body %}{% endblock %}
</body>
</html>
"""

ENVIRONMENT = Environment(loader=DictLoader({"page.html": _PAGE}), autoescape=True)


def render(template: str, **values: Any) -> str:
    """The page of ``template`` (which extends ``page.html``) with ``values``; ``lang`` and ``t``
    (its words, ``t.title`` among them) are the shared head's."""
    return ENVIRONMENT.from_string(template).render(**values)
