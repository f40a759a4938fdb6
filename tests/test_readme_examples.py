"""The README's curl examples, sent to the service: each answers 200, as the README shows it.

The same examples are sent to the image as deployed (tests/test_image.py).
"""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from tests.readme import Example, differences, examples, shown_value

EXAMPLES = examples()


def test_the_readme_has_an_example_of_every_operation_it_shows() -> None:
    assert {e.path.partition("?")[0] for e in EXAMPLES} >= {
        "/v1/tricks/legal-cards",
        "/v1/tricks/winner",
        "/v1/deals/score",
        "/v1/deals/evaluate",
        "/v1/deals/evaluate-batch",
    }


def check_answer(example: Example, status: int, media_type: str, body: bytes) -> None:
    """What the README shows of this example's answer, held to the answer; a 200 in any case."""
    assert status == 200, (str(example), body[:500])
    if media_type.startswith("application/x-ndjson"):
        items = [json.loads(line) for line in body.splitlines()]
        assert items and "summary" in items[-1], str(example)
    else:
        answer = json.loads(body)
        if example.shown is not None:
            assert differences(shown_value(example.shown), answer) == [], str(example)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_each_readme_example_answers_as_shown(client: FlaskClient, example: Example) -> None:
    answer = client.open(example.path, method=example.method, headers=example.headers, data=example.body)
    check_answer(example, answer.status_code, answer.content_type, answer.data)
