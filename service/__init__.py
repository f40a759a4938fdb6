"""French Tarot rules service.

:mod:`service.rules` is the rules core, a pure library: importing it loads no web framework.
:mod:`service.api` is the HTTP layer, :func:`service.app.create_app` builds the Flask
application that gunicorn serves through :mod:`service.wsgi`, and :mod:`service.serving` is the
server (gunicorn's worker, limits, hooks and logger). :mod:`service.connection` is what the
application and the server tell each other; neither imports the other.
"""

__version__ = "1.3.0"
"""The version of the service and of its contract (``info.version`` of ``openapi.yaml``): one
number, raised by the README's version policy, each release listed in ``CHANGELOG.md``.
pyproject.toml reads it from here; ``tests/test_versions.py`` fails when the contract changes
and it does not."""
