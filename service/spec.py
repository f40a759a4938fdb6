"""The contract written out, for `make spec`.

``python -m service.spec`` prints the OpenAPI document (openapi.yaml); ``python -m service.spec
--answers`` first rewrites :mod:`service.contract.example_answers`, the answer to each request
example, which the document carries as the operation's 200 examples. The answers come from the
contract itself, the same functions that serve each operation; tests/test_openapi.py requires
that the service still answers every example exactly so.
"""

from __future__ import annotations

import argparse
import json
import pprint
import sys
from pathlib import Path
from typing import Any

ANSWERS_FILE = Path(__file__).parent / "contract" / "example_answers.py"

_HEADER = '''"""The answers to the request examples (service.contract.examples), by operation id: the
contract's 200 response examples. Written by `python -m service.spec --answers` (`make spec`);
a test requires that the service still answers each example exactly so.
"""

from __future__ import annotations

from typing import Any

'''


def example_answers() -> dict[str, dict[str, Any]]:
    """Every operation's answer to each of its request examples, in English."""
    from service.contract.jsonio import dumps
    from service.contract.operations import OPERATIONS

    # As sent: through JSON, which writes the core's enums as their values.
    return {
        op_id: {name: json.loads(dumps(op.respond(example["value"]))) for name, example in op.examples.items()}
        for op_id, op in OPERATIONS.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.spec", description=__doc__.splitlines()[0])
    parser.add_argument("--answers", action="store_true", help="rewrite the example answers, then print the spec")
    args = parser.parse_args(argv)
    if args.answers:
        text = pprint.pformat(example_answers(), width=110, sort_dicts=False)
        ANSWERS_FILE.write_text(f"{_HEADER}ANSWERS: dict[str, dict[str, Any]] = {text}\n", encoding="utf-8")
    # Read only now: the document's 200 examples are the answers just written.
    from service.api.ops.spec import spec_yaml
    from service.app import create_app

    sys.stdout.write(spec_yaml(create_app()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
