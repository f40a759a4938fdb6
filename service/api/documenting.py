"""The error responses every JSON operation documents, all problem documents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask_smorest import Blueprint

from service.contract.openapi import BODY_ERRORS, LANGUAGE_HEADERS, ProblemSchema
from service.contract.problems import PROBLEM_MIMETYPE

F = TypeVar("F", bound=Callable[..., Any])


def documented_errors(blp: Blueprint) -> Callable[[F], F]:
    """Declare on ``blp`` the problem responses of an operation that reads a JSON body."""

    def decorate(view: F) -> F:
        for status, description in BODY_ERRORS.items():
            view = blp.alt_response(
                status,
                schema=ProblemSchema,
                description=description,
                content_type=PROBLEM_MIMETYPE,
                headers=LANGUAGE_HEADERS,
            )(view)
        return view

    return decorate
