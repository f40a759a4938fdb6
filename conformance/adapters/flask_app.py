"""The worked adapter of the kit's line protocol: this service's own Flask app, in process.

From the repository root: ``tarot-rules conformance --harness "python conformance/adapters/flask_app.py"``.
An adapter for another implementation does the same: read a request per line, answer it on one line
(the answer; a refusal, with the faults located; or an error).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, whatever the working directory

from service.app import create_app


def main() -> None:
    protocol = sys.stdout
    sys.stdout = sys.stderr  # the app logs to stdout: its lines must not mix with the answers
    client = create_app({"TESTING": True}).test_client()
    for line in sys.stdin:
        message = json.loads(line)
        response = client.post(message["operation"], json=message["request"])
        problem = response.get_json(silent=True) or {}
        if response.status_code == 200:
            reply = {"seq": message["seq"], "answer": response.get_json()}
        elif 400 <= response.status_code < 500:
            # A request the rules refuse: the faults located, as the problem document lists them.
            refused = {"status": response.status_code, "errors": problem.get("errors", [])}
            reply = {"seq": message["seq"], "refused": refused}
        else:
            faults = [f"{e.get('pointer')}: {e.get('message')}" for e in problem.get("errors", [])]
            error = "; ".join([f"{response.status}: {problem.get('detail')}", *faults])
            reply = {"seq": message["seq"], "error": error}
        protocol.write(json.dumps(reply) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main()
