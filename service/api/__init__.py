"""The HTTP layer: blueprints of thin views (parse → contract → core → answer) over
:mod:`service.contract`, and the layers around them (languages, request ids, metrics)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_instance
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from flask import Flask
from flask_smorest import Api
from marshmallow import Schema

from service import __version__
from service.connection import ANSWER_LAYERS, NEGOTIATE
from service.contract.batch import BatchLineSchema
from service.contract.common import AnswerSchema
from service.contract.components import COMPONENTS, component_reference
from service.contract.fields import default_in_words
from service.contract.openapi import SHARED_COMPONENTS, ProblemSchema

from . import problems
from .layers import cors, language, requestid, telemetry
from .meta import docs, health, spec
from .operations import (
    batch,
    dealing,
    duplicate_movement,
    duplicate_standings,
    evaluate,
    games,
    scoring,
    tournaments,
    tricks,
)

if TYPE_CHECKING:  # the standard WSGI types, as typeshed states them
    from _typeshed.wsgi import WSGIApplication

API_DESCRIPTION = """\
Checks French Tarot play against the official FFT rules (with the variants of
§11 as opt-in flags) for 3, 4 and 5 players. Sections cited as §N are those of the
service's rulebook, `docs/rules.md` in its repository: every rule enforced, the readings
taken where the rules are silent, and every verdict code (§13).

Cards travel as their canonical codes: `KS`, `10H`, `NC` (knight of clubs), `1D` (ace of
diamonds), `1T`…`21T`, `EX`. Seats are numbered 0…n−1 in playing order. Lists of cards in
answers are in canonical deck order (spades ace→king, hearts, diamonds, clubs, trumps
1→21, Excuse).

No authentication: every operation is open (`security: []`); the service keeps no state and
no data of its callers.

A rule verdict about a well-formed request (an illegal card, a faulty deal) is a 200 answer
with machine-readable codes. A request that is not well formed is a 4xx
`application/problem+json` answer whose `errors` locate each fault with a JSON pointer.

**French or English.** Every text for people (legal-card reasons, violation messages, score
explanations, problem titles, details and field messages) is in the language the request asks
for with `Accept-Language`: `fr` (or `fr-FR`, `fr-CA`…) for French, anything else or nothing
for English. The answer says which in `Content-Language`, and carries `Vary: Accept-Language`.
Codes, pointers and numbers in fields never change with the language. For example, with
`Accept-Language: fr`, a must-overtrump fault reads « Le joueur 2 devait surcouper : le 15
d'atout bat le 12 d'atout posé ; cartes jouables : 17T, EX. »

**Versions.** `info.version` follows semantic versioning; within `/v1` the contract only
grows (the repository's README, "Versions", and its CHANGELOG.md): answers may gain fields
(their objects allow additional properties: keep what you know), and the enums marked
`x-open-enum: true` may gain codes, each with its `message`. Nothing is removed or renamed
within `/v1`; a deprecation is announced by `Deprecation` and `Sunset` headers first.
"""


class AnswersOpenConverter(OpenAPIConverter):
    """Writes ``additionalProperties: true`` for the objects of answers
    (:class:`~service.contract.common.AnswerSchema`), which ``/v1`` may give new fields;
    request objects keep ``false``, as the service refuses a field it does not know."""

    def schema2jsonschema(self, schema: Schema | type[Schema] | str) -> dict[str, Any]:
        jsonschema: dict[str, Any] = super().schema2jsonschema(schema)  # type: ignore[no-untyped-call]
        if isinstance(resolve_schema_instance(schema), AnswerSchema):
            jsonschema["additionalProperties"] = True
        return jsonschema


class ContractPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, writing the contract's objects as above."""

    Converter = AnswersOpenConverter


class TarotApi(Api):
    """flask-smorest's Api with problem documents as the documented error bodies."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_responses(self) -> None:
        # Error responses are declared per operation (contract.openapi.operation_doc).
        pass

    def _register_pagination_header(self) -> None:
        # No operation pages its answers.
        pass


def init_app(app: Flask) -> None:
    app.config.setdefault("API_TITLE", "French Tarot rules service")
    app.config.setdefault("API_VERSION", __version__)
    app.config.setdefault("OPENAPI_VERSION", "3.1.0")
    app.config.setdefault("OPENAPI_URL_PREFIX", "/")
    app.config.setdefault("OPENAPI_JSON_PATH", "openapi.json")
    app.config.setdefault(
        "API_SPEC_OPTIONS",
        {
            # The code, the contract and the conformance kit are under the Apache License 2.0
            # (LICENSE); OpenAPI 3.1 names it by its SPDX identifier.
            "info": {
                "description": API_DESCRIPTION,
                "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
            },
            "servers": [
                {
                    "url": "/",
                    "description": "The instance serving this document. Generated clients take their base URL "
                    "from their configuration (`http://localhost:8000` under `make run`).",
                }
            ],
            # No operation needs credentials: the service holds no data of anyone's.
            "security": [],
        },
    )
    api = TarotApi(app, spec_kwargs={"marshmallow_plugin": ContractPlugin()})
    for name, component in COMPONENTS.items():
        api.spec.components.schema(name, component)
    for name, parameter in SHARED_COMPONENTS["parameters"].items():
        api.spec.components.parameter(name, parameter["in"], parameter)
    for name, header in SHARED_COMPONENTS["headers"].items():
        api.spec.components.header(name, header)
    converter = api.ma_plugin.converter
    converter.add_attribute_function(component_reference)
    # Defaults said in words, not as `default`, which generators read as "required".
    converter.attribute_functions.remove(converter.field2default)
    converter.add_attribute_function(default_in_words)
    app.extensions["tarot_api"] = api
    api.register_blueprint(health.blp)
    api.register_blueprint(tricks.blp)
    api.register_blueprint(dealing.blp)
    api.register_blueprint(scoring.blp)
    api.register_blueprint(evaluate.blp)
    api.register_blueprint(batch.blp)
    api.register_blueprint(games.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(duplicate_movement.blp)
    api.register_blueprint(duplicate_standings.blp)
    api.spec.components.schema("BatchLine", schema=BatchLineSchema)  # named by the NDJSON answer's doc
    app.add_url_rule("/openapi.yaml", "openapi_yaml", spec.openapi_yaml)
    docs.register(app)
    problems.register(app)
    registry = telemetry.init_app(app)
    layers = answer_layers(cors.parse_origins(app.config.get("CORS_ORIGINS")))
    # The server answers some requests itself (a refusal for load): in the language negotiated
    # here, through the same layers as the application's answers.
    app.config[NEGOTIATE] = language.negotiate
    app.config[ANSWER_LAYERS] = layers
    # The request metrics time and count every answer of the application (errors and unrouted
    # paths included); the server's own refusals are counted apart, by reason.
    app.wsgi_app = telemetry.RequestMetrics(layers(app.wsgi_app), app.url_map, registry)  # type: ignore[method-assign]


def answer_layers(origins: tuple[str, ...]) -> Callable[[WSGIApplication], WSGIApplication]:
    """The WSGI layers every answer goes through, outermost first: each request gets its id,
    which is on its answer and every log line of it, its language, and, for the pages of
    ``origins``, its CORS headers."""

    def around(inner: WSGIApplication) -> WSGIApplication:
        if origins:
            inner = cors.CrossOrigin(inner, origins)
        return requestid.RequestIds(language.Languages(inner))

    return around
