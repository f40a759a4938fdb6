"""An answer as JSON, or as a spreadsheet file when the client asks for ``text/csv`` (the score
sheet, a tournament's standings, a duplicate tournament's rankings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flask
from flask import Response

from service.contract import spreadsheet
from service.contract.jsonio import dumps

from .layers.language import request_language
from .parsing import JSON

CSV = spreadsheet.MEDIA_TYPE


def json_or_spreadsheet(answer: dict[str, Any], as_file: Callable[[str], tuple[str, str]]) -> Response:
    """``answer`` as JSON; with ``Accept: text/csv``, ``as_file(language)``'s text, named by its
    file name in ``Content-Disposition``. Either way the answer varies with ``Accept``."""
    if flask.request.accept_mimetypes.best_match((JSON, CSV), default=JSON) == CSV:
        text, name = as_file(request_language())
        response = Response(text, content_type=spreadsheet.CONTENT_TYPE)
        response.headers["Content-Disposition"] = spreadsheet.content_disposition(name)
    else:
        response = Response(dumps(answer), mimetype=JSON)
    response.vary.add("Accept")
    return response
