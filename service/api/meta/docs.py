"""``GET /docs``: Swagger UI over the app's own spec, from assets shipped in the package.

Nothing is fetched from a CDN, so the page works in a closed network; the online validator
badge is off for the same reason.
"""

from __future__ import annotations

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

DOCS_PATH = "/docs"


def register(app: Flask) -> None:
    spec_url = "/" + app.config["OPENAPI_JSON_PATH"]
    blueprint = get_swaggerui_blueprint(
        DOCS_PATH,
        spec_url,
        config={"app_name": app.config["API_TITLE"], "validatorUrl": None, "deepLinking": True},
        blueprint_name="docs",
    )
    app.register_blueprint(blueprint)
