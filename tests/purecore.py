"""The service on the pure-Python rules core, answering requests read from standard input.

    TAROT_RULES_PURE=1 python -m tests.purecore

Each input line is ``{"path", "body", "lang"}``; each output line the answer,
``{"status", "body"}``. The first output line says which core runs: ``{"compiled": false}``.
The compiled core's tests send the same requests here and to the compiled core in process.
"""

from __future__ import annotations

import json
import sys

import service.rules
from service.app import create_app


def main() -> None:
    client = create_app().test_client()
    print(json.dumps({"compiled": service.rules.COMPILED}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        answer = client.post(
            request["path"],
            data=request["body"],
            content_type="application/json",
            headers={"Accept-Language": request["lang"]},
        )
        print(json.dumps({"status": answer.status_code, "body": json.loads(answer.data)}), flush=True)


if __name__ == "__main__":
    main()
