"""The implementations a conformance run poses its cases to, and how each is reached.

A service speaking this one's HTTP API (``--url``: each case POSTed to its operation's path, over
the command's HTTP client), or a program speaking the kit's line protocol on its standard input
and output (``--harness``: one JSON request a line in, one answer a line out; see
``conformance/README.md``). Either answers a case with the 200 answer, or says why there is
none: :class:`RefusedError` when it refused the request (a 4xx, with the faults it located),
:class:`SkippedError` when a harness does not implement the case, :class:`NoAnswerError` for
any other failure of this case, :class:`GoneError` when it cannot answer any more.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import signal
import subprocess
import threading
from typing import Any, Protocol

import orjson

from .client import Client, Patience, Refusal, ServiceUrl, UnreachableError, refusal_of, wrong_base
from .errors import CommandError, reason
from .words import decimal, json_text, labelled, say

TIMEOUT = 30.0
"""Seconds to wait for a service to connect or answer, or for a harness to answer one request, unless
``--timeout`` says otherwise."""
HARNESS_EXIT_SECONDS = 10.0
"""Seconds a harness has to exit once its input is closed, before it is killed."""
USER_AGENT = "tarot-rules-conformance"
JSON = "application/json"
SHOWN_CHARS = 120
"""A harness's line quoted in a message is cut after this many characters."""
REPLIES = frozenset(("answer", "error", "refused", "skipped"))
"""The replies of the line protocol: a harness's line holds exactly one."""


class NoAnswerError(Exception):
    """The implementation gave no answer to this case (an error, a non-200); ``str()`` says why."""


class RefusedError(NoAnswerError):
    """The implementation refused the request: a 4xx status (None from a harness that gives
    none) and the pointers of the faults it located; ``str()`` says what the refusal said, for
    people (empty when a harness's says nothing)."""

    def __init__(self, said: str, status: int | None, pointers: tuple[str, ...]) -> None:
        super().__init__(said)
        self.status = status
        self.pointers = pointers


class SkippedError(Exception):
    """The implementation does not implement this case; ``str()`` is its reason, or empty."""


class GoneError(Exception):
    """The implementation cannot answer any more cases; ``str()`` says why."""


class Implementation(Protocol):
    def ask(self, operation: str, request: Any) -> Any:
        """The 200 answer to ``request``; one of the errors above when there is none."""

    def unreached(self) -> str:
        """Once the cases are posed, why none of the answers was the implementation's after all
        (a service's base URL that answered 404 Not Found to every operation posed); empty when
        they were."""

    def close(self) -> None: ...


def cut(text: str, limit: int) -> str:
    """``text``, cut after ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shown(raw: bytes) -> str:
    return cut(repr(raw.rstrip(b"\n").decode("utf-8", "replace")), SHOWN_CHARS)


def _well_formed(refusal: Any) -> bool:
    """A harness's refusal: an object with an optional integer ``status`` and an optional list of
    ``errors``, each an object with a string ``pointer``."""
    if not isinstance(refusal, dict):
        return False
    status, errors = refusal.get("status"), refusal.get("errors", [])
    return (status is None or (isinstance(status, int) and not isinstance(status, bool))) and (
        isinstance(errors, list) and all(isinstance(e, dict) and isinstance(e.get("pointer"), str) for e in errors)
    )


def _refused(seq: int, refusal: Any) -> NoAnswerError:
    """A harness's refusal as :class:`RefusedError`; one of another shape fails its case."""
    if not _well_formed(refusal):
        shown = cut(json_text(refusal), SHOWN_CHARS)
        return NoAnswerError(say("conformance.harness.bad_refusal", seq=str(seq), refusal=shown))
    status = refusal.get("status")
    errors = refusal.get("errors", [])
    # What the refusal says (its status, the faults it located), if anything: the run says it is a refusal.
    parts = [] if status is None else [say("conformance.harness.refused_status", status=str(status))]
    for error in errors:
        pointer, message = error["pointer"], error.get("message")
        if isinstance(message, str) and message:
            parts.append(labelled(pointer, message) if pointer else message)
        elif pointer:
            parts.append(pointer)
    said = parts[0] if parts else ""
    for part in parts[1:]:
        said = say("text.parts", first=said, second=part)
    return RefusedError(said, status, tuple(e["pointer"] for e in errors))


class Service:
    """A service speaking this one's API, over one kept-alive connection."""

    def __init__(self, where: ServiceUrl, timeout: float = TIMEOUT, patience: Patience | None = None) -> None:
        self.where = where
        self.client = Client(where, USER_AGENT, timeout, patience)
        self.statuses: dict[str, int] = {}
        """Each operation posed, with the status it answered: 404 only while it answered nothing else."""
        try:
            self.client.connect()
        except UnreachableError as exc:
            raise CommandError(str(exc)) from None

    def ask(self, operation: str, request: Any) -> Any:
        try:
            # The problems' details come in the command's language (the client's Accept-Language).
            answer, data = self.client.post(operation, orjson.dumps(request), JSON, f"{JSON}, application/problem+json")
        except (OSError, http.client.HTTPException) as exc:
            raise GoneError(say("conformance.url_gone", url=self.where.url, reason=reason(exc))) from None
        if self.statuses.get(operation, 404) == 404:
            self.statuses[operation] = answer.status
        if answer.status != 200:
            refusal = refusal_of(answer.status, answer.reason, data)
            said = self._said(refusal)
            if 400 <= answer.status < 500:
                raise RefusedError(said, answer.status, tuple(pointer for pointer, _, _ in refusal.errors))
            raise NoAnswerError(said)
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise NoAnswerError(say("conformance.answer_not_json", reason=str(exc))) from None

    def unreached(self) -> str:
        if self.statuses and all(status == 404 for status in self.statuses.values()):
            return wrong_base(self.where, list(self.statuses))
        return ""

    @staticmethod
    def _said(refusal: Refusal) -> str:
        message = say("conformance.refused", status=str(refusal.status), reason=refusal.reason, detail=refusal.detail)
        for located in refusal.located():
            message = say("text.parts", first=message, second=located)
        return message

    def close(self) -> None:
        self.client.close()


class Harness:
    """A program started once through the shell, speaking the line protocol on its stdin and stdout.

    Its answers are read by a thread into a queue, so that a harness that hangs costs a timeout
    rather than the whole run. It runs in a session of its own: when it has to be killed, the
    shell and whatever it started go together.
    """

    def __init__(self, command: str, timeout: float = TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        self.seq = 0
        try:
            self.proc = subprocess.Popen(
                command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
            )
        except OSError as exc:
            raise CommandError(say("conformance.harness.not_started", reason=reason(exc))) from None
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, name="harness-reader", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # the end of its output

    def ask(self, operation: str, request: Any) -> Any:
        assert self.proc.stdin is not None
        self.seq += 1
        seq = self.seq
        try:
            self.proc.stdin.write(orjson.dumps({"seq": seq, "operation": operation, "request": request}) + b"\n")
            self.proc.stdin.flush()
        except OSError:
            self._ended()  # its input is closed: it has exited, or is about to
        try:
            raw = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            seconds = decimal(self.timeout)
            raise GoneError(say("conformance.harness.silent", seq=str(seq), seconds=seconds)) from None
        if raw == b"":
            self._ended()
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise GoneError(say("conformance.harness.not_json", seq=str(seq), line=_shown(raw))) from None
        # Exactly one reply a line: an answer, an error, a refusal, or a skip (Bowtie's "skipped": true).
        if (
            not isinstance(message, dict)
            or len(REPLIES.intersection(message)) != 1
            or message.get("skipped", True) is not True
        ):
            raise GoneError(say("conformance.harness.not_object", seq=str(seq), line=_shown(raw)))
        got = message.get("seq")
        if isinstance(got, bool) or got != seq:
            raise GoneError(say("conformance.harness.wrong_seq", got=json_text(got), seq=str(seq)))
        if "error" in message:
            error = message["error"]
            error = error if isinstance(error, str) else json_text(error)
            raise NoAnswerError(say("conformance.harness.error", error=error))
        if "skipped" in message:
            why = message.get("message")
            raise SkippedError(why if isinstance(why, str) else "" if why is None else json_text(why))
        if "refused" in message:
            raise _refused(seq, message["refused"])
        return message["answer"]

    def unreached(self) -> str:
        return ""  # a harness that answers is reached, whatever its answers

    def _ended(self) -> None:
        """Raise why the harness stopped answering: :class:`CommandError` before any answer, else :class:`GoneError`."""
        try:
            status: int | None = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            how = say("conformance.harness.output_closed")
        elif status < 0:
            how = say("conformance.harness.killed", signal=str(-status))
        else:
            how = say("conformance.harness.exit_status", status=str(status))
        if self.seq == 1:
            raise CommandError(say("conformance.harness.ended_at_once", command=self.command, how=how))
        raise GoneError(say("conformance.harness.ended", seq=str(self.seq), how=how))

    def close(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # its end of input: a harness that follows the protocol exits
        try:
            self.proc.wait(timeout=HARNESS_EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            if hasattr(os, "killpg"):
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=HARNESS_EXIT_SECONDS)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
