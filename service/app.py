"""The Flask application that serves the rules core: :func:`create_app`.

gunicorn serves it through :mod:`service.wsgi`; tests build one per configuration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

MAX_BODY_BYTES = 64 * 1024
"""Largest request body accepted. A complete three-player deal is about 2 KB of JSON; 64 KiB
leaves room for any legitimate request, whitespace included, and refuses floods early."""


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the application; ``config`` overrides Flask settings (tests use it)."""
    from .api import init_app
    from .api.layers import requestid
    from .api.provider import OrjsonProvider
    from .logs import configure_app_logging

    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["LOG_LEVEL"] = os.environ.get("LOG_LEVEL", "info")
    # Origins whose pages may call the operations (service.api.layers.cors); none by default.
    app.config["CORS_ORIGINS"] = os.environ.get("CORS_ORIGINS", "")
    app.config.update(config or {})
    configure_app_logging(app.config["LOG_LEVEL"], requestid.add_to_record)
    init_app(app)
    return app
