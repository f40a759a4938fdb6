"""Replaying against a running service: batches of NDJSON to ``POST /v1/deals/evaluate-batch``.

Each of ``jobs`` threads posts one batch at a time on a new connection, so that the batches
spread over every replica behind a load balancer, and reads the answer line by line as it
streams. The body is sent from a second thread while the answer is read: the service answers
each line as it reads it, and stops reading a client that does not take its answers.

An answer that ends early is not an error: the lines it answered are kept, and the rest of
the batch is sent again on a new connection. That is what a summary with ``complete: false``
asks for (the instance is shutting down), and what a cut connection needs. Failing to connect,
a cut with no progress and a 5xx answer are retried, up to :data:`RETRIES` times in a row
with a short backoff; a problem answer (4xx) stops the replay.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from collections import deque
from collections.abc import Collection, Generator, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from time import perf_counter
from typing import Any

import orjson

from service.contract.batch import EVALUATE_BATCH, NDJSON
from service.contract.records import Tally, too_long_item

from .client import (
    OVERLOAD_WAIT,
    Client,
    Patience,
    ServiceUrl,
    UnreachableError,
    read_refusal,
    retry_after,
    unreachable,
    wrong_base,
)
from .errors import CommandError
from .inputs import LineTooLong, Record
from .local import batched
from .outcome import Outcome, settle
from .words import say

USER_AGENT = "tarot-rules-replay"
TIMEOUT = 60.0
"""Seconds to wait for the service to connect, take more of the body or send more answers."""
RETRIES = 3
BACKOFF = (0.2, 0.5, 1.0)
"""Seconds before each retry in a row."""
DRAINING_RETRIES = 100
DRAINING_PAUSE = 0.1
"""An instance that says it drains is no failure, as long as it says so: behind a load balancer
that does not watch readiness, it keeps being given new batches until it stops (DRAIN_SECONDS,
5 s by default), each of them answered at once; they are sent again, after this pause, on a new
connection, which the balancer gives another instance. Once the instance is gone, its refused
connections count as failures."""
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Answers of an overloaded or restarting service (or of the load balancer before it)."""


class _RetryError(Exception):
    """This exchange failed in a way worth another try; ``str()`` says how."""


class _UnreachableError(_RetryError):
    """The service could not be connected to; ``str()`` says why, as the OS does."""


class _DrainingError(_RetryError):
    """The instance answered that it is shutting down: the service is there, another instance
    takes the rest."""


class _OverloadedError(_RetryError):
    """The service refused the batch for load, asking to be asked again after ``delay`` seconds:
    no failure while the command's patience lasts."""

    def __init__(self, said: str, delay: float) -> None:
        super().__init__(said)
        self.delay = delay


def _line_of(element: Any) -> bytes:
    # ASCII escapes: a JSON array may hold strings (lone surrogates) that UTF-8 cannot encode.
    return json.dumps(element, separators=(",", ":")).encode()


def _stop_code(item: dict[str, Any]) -> Any:
    """The code of the item that stopped a batch (``draining``, ``body_timeout``...)."""
    problem = item.get("problem")
    errors = problem.get("errors") if isinstance(problem, dict) else None
    return errors[0].get("code") if isinstance(errors, list) and errors and isinstance(errors[0], dict) else None


class Remote:
    def __init__(
        self,
        target: ServiceUrl,
        jobs: int,
        batch_size: int,
        draw: bool = False,
        allow_in_progress: bool = False,
        overload_wait: float = OVERLOAD_WAIT,
        fail_on_unchecked: Collection[str] = (),
    ) -> None:
        self.target = target
        self.jobs = jobs
        self.batch_size = batch_size
        self.draw = draw  # what an HTML report draws of each failing deal
        self.allow_in_progress = allow_in_progress
        self.fail_on_unchecked = fail_on_unchecked
        self.overload_wait = overload_wait
        self.client = Client(target, USER_AGENT, TIMEOUT)
        self._abort = threading.Event()

    def evaluate(self, records: Iterable[Record]) -> Generator[tuple[Tally, list[Outcome]], None, None]:
        """Each batch's counts and outcomes, in input order."""
        # A few batches ahead of the one awaited keep every thread busy, and memory bounded.
        window = 2 * self.jobs
        with ThreadPoolExecutor(self.jobs, thread_name_prefix="replay") as pool:
            pending: deque[Future[tuple[Tally, list[Outcome]]]] = deque()
            try:
                for batch in batched(records, self.batch_size):
                    pending.append(pool.submit(self._batch, batch))
                    if len(pending) >= window:
                        yield pending.popleft().result()
                while pending:
                    yield pending.popleft().result()
            finally:
                self._abort.set()  # the other threads stop before their next try
                for future in pending:
                    future.cancel()

    def _batch(self, batch: list[Record]) -> tuple[Tally, list[Outcome]]:
        tally = Tally()
        outcomes: list[Outcome | None] = [None] * len(batch)
        sent: list[int] = []  # the batch's records that go to the service, by position
        lines: list[bytes] = []
        for i, record in enumerate(batch):
            payload = record.payload
            if isinstance(payload, LineTooLong):
                outcomes[i] = settle(record, too_long_item(0, language=self.client.language), tally)
            else:
                sent.append(i)
                lines.append(payload if isinstance(payload, bytes) else _line_of(payload))
        done = failures = drains = 0
        patience = Patience(self.overload_wait)  # each batch waits out the service's refusals for load
        while done < len(sent):
            if self._abort.is_set():
                raise CommandError(say("remote.aborted"))  # another batch failed: this one's result is not awaited
            got = 0
            try:
                # Closed at once when an item is refused: the connection goes with it.
                # Each record's time: from the request, or the item before it, to its own item.
                since = perf_counter()
                with contextlib.closing(self._exchange(lines[done:])) as items:
                    for item in items:
                        if item.get("index") != got:
                            reason = say("remote.out_of_order", index=str(item.get("index")), expected=str(got))
                            raise CommandError(self._not_a_batch(reason))
                        i = sent[done + got]
                        now = perf_counter()
                        outcomes[i] = settle(
                            batch[i],
                            item,
                            tally,
                            self.draw,
                            now - since,
                            self.allow_in_progress,
                            self.fail_on_unchecked,
                        )
                        since = now
                        got += 1
                if done + got != len(sent):
                    reason = say("remote.too_few", got, sent=len(sent) - done)
                    raise CommandError(self._not_a_batch(reason))
                done += got
            except _RetryError as exc:
                done += got
                # Progress (an instance that stopped, a cut after some answers) is no failure.
                if got:
                    failures = drains = 0
                    patience.reset()
                    continue
                if isinstance(exc, _OverloadedError) and patience.wait(exc.delay, self._abort):
                    continue
                if isinstance(exc, _DrainingError) and drains < DRAINING_RETRIES:
                    drains += 1
                    self._abort.wait(DRAINING_PAUSE)
                    continue
                failures += 1
                if failures > RETRIES:
                    if isinstance(exc, _UnreachableError):
                        raise CommandError(unreachable(self.target, str(exc), failures + drains)) from None
                    gave_up = say("remote.gave_up", failures + drains, url=self.target.url, reason=str(exc))
                    raise CommandError(gave_up) from None
                self._abort.wait(BACKOFF[failures - 1])
        return tally, [o for o in outcomes if o is not None]

    def _exchange(self, lines: list[bytes]) -> Generator[dict[str, Any], None, None]:
        """One request: the items evaluated, in order; :class:`_RetryError` when it did not answer them all."""
        body = b"\n".join(lines) + b"\n"
        try:
            with self.client.stream(EVALUATE_BATCH.path, body, NDJSON, f"{NDJSON}, application/problem+json") as answer:
                if answer.status != 200:
                    self._refused(answer, len(body))
                content_type = answer.getheader("Content-Type", "")
                if content_type.split(";")[0].strip() != NDJSON:
                    reason = say("remote.wrong_type", type=content_type) if content_type else say("remote.no_type")
                    raise CommandError(self._not_a_batch(reason))
                yield from self._items(answer)
        except UnreachableError as exc:
            raise _UnreachableError(exc.reason) from None
        except (OSError, http.client.HTTPException) as exc:
            raise _RetryError(str(exc) or type(exc).__name__) from None

    def _items(self, answer: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
        # Each item is given out only once the next line has come: the item that stops a batch
        # (``index`` = ``unevaluated_from``) answers no record, and only the summary after it says so.
        held: dict[str, Any] | None = None
        while True:
            try:
                raw = answer.readline()
            except (OSError, http.client.HTTPException):
                raw = b""
            if not raw.endswith(b"\n"):
                # Cut short: the item held is resent rather than trusted.
                raise _RetryError(say("remote.cut") if held is not None or raw else say("remote.no_summary"))
            try:
                line = orjson.loads(raw)
            except orjson.JSONDecodeError:
                raise CommandError(self._not_a_batch(say("remote.bad_line"))) from None
            if not isinstance(line, dict):
                raise CommandError(self._not_a_batch(say("remote.bad_line")))
            summary = line.get("summary")
            if summary is not None:
                stopped_at = None if summary.get("complete") else summary.get("unevaluated_from")
                if held is not None and held.get("index") != stopped_at:
                    yield held
                if not summary.get("complete"):
                    if held is not None and _stop_code(held) == "draining":
                        raise _DrainingError(say("remote.stopped"))
                    raise _RetryError(say("remote.stopped"))
                return
            if held is not None:
                yield held
            held = line

    def _not_a_batch(self, reason: str) -> str:
        return say("remote.not_a_batch", url=self.target.url, reason=reason)

    def _refused(self, answer: http.client.HTTPResponse, sent: int) -> None:
        """A non-200 answer: :class:`_RetryError` when it may pass, else :class:`CommandError`."""
        refusal = read_refusal(answer)
        delay = retry_after(refusal.status, answer.getheader("Retry-After"))
        if delay is not None:
            raise _OverloadedError(f"{refusal.status} {refusal.reason}", delay)
        if refusal.status in RETRIED_STATUSES:
            raise _RetryError(f"{refusal.status} {refusal.reason}")
        if refusal.status == 404:
            raise CommandError(wrong_base(self.target, [EVALUATE_BATCH.path]))  # its one operation: a wrong base URL
        message = say(
            "remote.refused",
            url=self.target.url,
            status=str(refusal.status),
            title=refusal.title,
            detail=refusal.detail,
        )
        for line in refusal.located():
            message += "\n  " + line
        if refusal.status == 413:
            message += "\n  " + say("remote.smaller_batches", sent)
        raise CommandError(message)
