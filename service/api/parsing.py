"""Request parsing: the strict JSON body reader behind every operation's schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

import flask
import marshmallow as ma
from flask_smorest import Blueprint as SmorestBlueprint
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from .jsonio import BodyError, parse_body
from .problems import FieldError, ProblemError, errors_from_messages


def read_body(req: flask.Request) -> bytes:
    """The whole body, refused when it cannot be read, is cut short or is too large."""
    try:
        data = req.get_data(cache=True)
    except HTTPException:
        raise
    except Exception as exc:
        # Whatever the server's stream raises (a broken chunked framing, a client gone): unreadable.
        raise ProblemError(
            400,
            "malformed-body",
            "The request body could not be read.",
            [FieldError("", "unreadable_body", f"Reading the body failed: {type(exc).__name__}.")],
        ) from None
    announced = req.content_length
    if announced is not None and len(data) != announced:
        raise ProblemError(
            400,
            "malformed-body",
            "The request body is shorter than its Content-Length.",
            [FieldError("", "truncated_body", f"Content-Length says {announced} bytes; {len(data)} arrived.")],
        )
    limit = req.max_content_length
    # Werkzeug stops a chunked body (no Content-Length) at the limit without a word; one
    # byte more in the stream means the body was larger.
    if announced is None and limit is not None and len(data) >= limit and req.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    return data


class StrictParser(FlaskParser):
    """Reads JSON bodies strictly and reports faults as problem documents.

    - a content type other than JSON is 415, an empty or malformed body 400;
    - a body that breaks the operation's schema is 422 with one located error per fault.
    """

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not req.is_json:
            raise ProblemError(
                415,
                "unsupported-media-type",
                f"Send the body as application/json (got {req.mimetype or 'no content type'}).",
                [FieldError("", "unsupported_media_type", "The body must be application/json.")],
                headers={"Accept-Post": "application/json"},
            )
        data = read_body(req)
        if not data.strip():
            raise ProblemError(
                400,
                "malformed-json",
                "The request body is empty.",
                [FieldError("", "empty_body", "Send a JSON object.")],
            )
        try:
            return parse_body(data)
        except BodyError as exc:
            raise ProblemError(
                400,
                "malformed-json",
                "The request body is not valid JSON.",
                [FieldError("", "malformed_json", str(exc))],
            ) from None

    def handle_error(
        self,
        error: ma.ValidationError,
        req: flask.Request,
        schema: ma.Schema,
        *,
        error_status_code: int | None,
        error_headers: Mapping[str, str] | None,
    ) -> NoReturn:
        messages = error.messages
        # webargs files body errors under the location name; the pointer starts at the body.
        if isinstance(messages, Mapping) and set(messages) == {"json"}:
            messages = messages["json"]
        raise ProblemError(
            422,
            "invalid-request",
            "The request is well-formed JSON but not a valid request.",
            errors_from_messages(messages),
        )


class Blueprint(SmorestBlueprint):
    """A flask-smorest blueprint that parses bodies with :class:`StrictParser`."""

    ARGUMENTS_PARSER = StrictParser()
