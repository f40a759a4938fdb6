"""Replaying in this process: the rules core itself, on every core, no service needed.

The parent hands a pool of worker processes their tasks: spans of an NDJSON file's lines,
which each worker reads itself, or chunks of records (standard input, JSON arrays). Each
worker evaluates its records exactly as the service would (``records.line_item`` and
``record_item``) and sends back only their :class:`~.outcomes.Outcome` values and its
counts, so the parent's share of the work stays small beside theirs. ``imap`` keeps the
input order, and makes the tasks only as the workers take them, so memory stays flat
however large the files. The service's texts in the outcomes (violations, problems) are in
the command's language, which each worker is told when it starts.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Collection, Generator, Iterable, Iterator, Sequence
from functools import partial
from itertools import islice
from time import perf_counter
from typing import Any, TypeVar

from service.contract.records import Tally, line_item, record_item, too_long_item

from .inputs import LineTooLong, Record, Source, Span, read_records, records_of, span_records, spans
from .outcome import Outcome, settle
from .words import language, use

CHUNK = 100
"""Records per task: at some 0.2 ms a deal, a 20 ms task, long beside the cost of shipping it."""
SPAN_BYTES = 128 * 1024
"""Bytes of an NDJSON file per task: some 100 deals."""

T = TypeVar("T")


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last one shorter)."""
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def item_of(record: Record) -> dict[str, Any]:
    """The service's item for one record."""
    payload = record.payload
    if isinstance(payload, bytes):
        return line_item(0, payload, language=language())
    if isinstance(payload, LineTooLong):
        return too_long_item(0, language=language())
    return record_item(0, payload, language=language())


def evaluate_chunk(
    chunk: list[Record], draw: bool = False, allow_in_progress: bool = False, fail_on_unchecked: Collection[str] = ()
) -> tuple[Tally, list[Outcome]]:
    tally = Tally()
    outcomes = []
    for record in chunk:
        started = perf_counter()
        item = item_of(record)
        seconds = perf_counter() - started
        outcomes.append(settle(record, item, tally, draw, seconds, allow_in_progress, fail_on_unchecked))
    return tally, outcomes


def _worker_start(lang: str) -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it (it ends the pool).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker has the parent's language already, a spawned one not.
    use(lang)


def evaluate_task(
    task: list[Record] | Span,
    draw: bool = False,
    allow_in_progress: bool = False,
    fail_on_unchecked: Collection[str] = (),
) -> tuple[Tally, list[Outcome]]:
    """A task of a worker process: records, or a span of a file that it reads itself."""
    records = list(span_records(task)) if isinstance(task, Span) else task
    return evaluate_chunk(records, draw, allow_in_progress, fail_on_unchecked)


def _tasks(sources: Sequence[Source]) -> Iterator[list[Record] | Span]:
    # NDJSON files go to the workers as spans of lines (a few numbers each): the parent then
    # neither reads nor ships the records, and its share of the CPU stays out of the workers'
    # way. Standard input and arrays go as records.
    for file_no, source in enumerate(sources):
        if source.path is not None and not source.document:
            yield from spans(file_no, source.path, SPAN_BYTES)
        else:
            yield from batched(records_of(file_no, source), CHUNK)


def evaluate_locally(
    sources: Sequence[Source],
    jobs: int,
    draw: bool = False,
    allow_in_progress: bool = False,
    fail_on_unchecked: Collection[str] = (),
) -> Generator[tuple[Tally, list[Outcome]], None, None]:
    """Each chunk's counts and outcomes, in input order; with ``draw``, what an HTML report
    draws of each failing deal; with ``allow_in_progress``, deals in progress pass; a record
    whose ``unchecked`` has a code of ``fail_on_unchecked`` fails."""
    if jobs == 1:
        chunk = partial(
            evaluate_chunk, draw=draw, allow_in_progress=allow_in_progress, fail_on_unchecked=fail_on_unchecked
        )
        yield from map(chunk, batched(read_records(sources), CHUNK))
        return
    task = partial(evaluate_task, draw=draw, allow_in_progress=allow_in_progress, fail_on_unchecked=fail_on_unchecked)
    with multiprocessing.get_context().Pool(jobs, initializer=_worker_start, initargs=(language(),)) as pool:
        yield from pool.imap(task, _tasks(sources))
