"""What the command line's tests share: records and their files, the command's summary as
counts, and a stub service for the replays against a service."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.contract.jsonio import dumps
from service.contract.records import Tally, line_item

from .conftest import deal_request, golden, golden_claims


def tarot_rules(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Run ``tarot-rules`` with ``args`` in process: its exit status, standard output and error."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def golden_records() -> list[dict[str, Any]]:
    """The golden deals as records: their id, the request, and every claim right."""
    records = []
    for row in golden("deals.jsonl"):
        claims = golden_claims(row)
        records.append({"id": row["id"], **deal_request(row), "claims": claims})
    return records


def write_ndjson(path: Path, lines: list[Any]) -> Path:
    """Records (dicts) and raw lines (str) as NDJSON."""
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def count(text: str) -> int:
    """A number as the summary writes it: 12,345 in English, 12 345 in French."""
    return int(re.sub("[,\u00a0\u202f]", "", text))


def summary(out: str) -> dict[str, int]:
    rows = {}
    for line in out.splitlines():
        if not line.strip():
            break
        # Split at ASCII spaces only: French groups digits with a narrow no-break space.
        label, value = line.rstrip(" ").rsplit(" ", 1)
        rows[label.rstrip(" ")] = count(value)
    return rows


def without_rate(out: str) -> str:
    """A replay's output less its one line that varies from run to run, in either language."""
    return "\n".join(line for line in out.splitlines() if not line.startswith(("deals/s", "donnes/s")))


def timeless(report: Path | bytes) -> str:
    """A JUnit report less the times it measured (the one part that differs from run to run)."""
    data = report if isinstance(report, bytes) else report.read_bytes()
    return re.sub(r' time="[0-9.]+"', "", data.decode())


def falsified() -> tuple[list[dict[str, Any]], dict[int, str]]:
    """The golden records with one false claim in each of six: the records, and each one's pointer."""
    records = golden_records()
    falsehoods = {}
    for n, (i, field) in enumerate(
        [(1, "points"), (4, "scores"), (9, "trick_winners"), (16, "oudlers"), (23, "partner"), (30, "valid")]
    ):
        claims = records[i]["claims"]
        players = records[i]["players"]
        if field == "points":
            claims["points"] += 0.5 if claims["points"] < 91 else -0.5
            falsehoods[i] = "/claims/points"
        elif field == "scores":
            claims["scores"][n % players] += 10
            falsehoods[i] = f"/claims/scores/{n % players}"
        elif field == "trick_winners":
            claims["trick_winners"][3] = (claims["trick_winners"][3] + 1) % players
            falsehoods[i] = "/claims/trick_winners/3"
        elif field == "oudlers":
            claims["oudlers"] = (claims["oudlers"] + 1) % 4
            falsehoods[i] = "/claims/oudlers"
        elif field == "partner":
            claims["partner"] = (players - 1) if claims["partner"] is None else None
            falsehoods[i] = "/claims/partner"
        else:
            claims["valid"] = False
            falsehoods[i] = "/claims/valid"
    return records, falsehoods


def made_faulty(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` made faulty (and its claims false): its first two cards swapped, in place."""
    record["plays"][0], record["plays"][1] = record["plays"][1], record["plays"][0]
    return record


def faulty_records() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The golden records with six false claims, and one record made faulty (its first two cards swapped)."""
    records, _ = falsified()
    return records, made_faulty(records[2])


def summary_line(tally: Tally, unevaluated_from: int | None) -> bytes:
    counts = {name: getattr(tally, name) for name in ("deals", "valid", "faulty", "malformed")}
    complete = {"complete": unevaluated_from is None, "unevaluated_from": unevaluated_from}
    return dumps({"summary": {**counts, **complete}}) + b"\n"


class Stub(ThreadingHTTPServer):
    """A batch operation that misbehaves as told, one request after another; then answers in full,
    in the language asked for. Every other operation it refuses with a problem. It notes each
    request's Accept-Language."""

    def __init__(self, script: list[str]) -> None:
        super().__init__(("127.0.0.1", 0), StubHandler)
        self.script = script
        self.received: list[int] = []
        self.languages: list[str | None] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class StubHandler(BaseHTTPRequestHandler):
    server: Stub

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        language = self.headers["Accept-Language"]
        self.server.languages.append(language)
        if self.server.script and self.server.script[0].startswith("overloaded"):
            # Refused for load, whatever the operation: "overloaded N" asks to wait N seconds.
            self.server.received.append(len(body.split(b"\n")[:-1]))
            wait = self.server.script.pop(0).partition(" ")[2] or "0"
            self.refuse(503, "Overloaded.", {"Retry-After": wait})
            return
        if self.path != "/v1/deals/evaluate-batch":
            self.refuse(422, f"Detail in {language}.")
            return
        lines = body.split(b"\n")[:-1]
        self.server.received.append(len(lines))
        act, _, arg = (self.server.script.pop(0) if self.server.script else "answer").partition(" ")
        if act in ("503", "422"):
            self.refuse(int(act), "Not now.")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()
        tally = Tally()
        for index, line in enumerate(lines):
            if act in ("stop", "drain") and index == int(arg):
                errors = [{"pointer": "", "code": "draining", "message": "Draining."}] if act == "drain" else []
                stop = {"index": index, "id": None, "problem": {"status": 503, "detail": "Stopping.", "errors": errors}}
                self.wfile.write(dumps(stop) + b"\n" + summary_line(tally, index))
                return
            if act == "cut" and index == int(arg):
                return  # the connection closes with no summary
            item = line_item(index, line, language=language or "en")
            tally.count(item)
            self.wfile.write(dumps(item) + b"\n")
        self.wfile.write(summary_line(tally, None))

    def refuse(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        problem = dumps(
            {
                "type": "/problems/stub",
                "title": "Nope",
                "status": status,
                "detail": detail,
                "instance": self.path,
                "errors": [],
            }
        )
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/problem+json")
        self.send_header("Content-Length", str(len(problem)))
        self.end_headers()
        self.wfile.write(problem)


@contextmanager
def stub(script: list[str]) -> Iterator[Stub]:
    server = Stub(script)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
