"""Replaying in this process: the rules core itself, on every core, no service needed.

The parent reads the files and ships their records to a pool of worker processes in chunks;
each worker evaluates a chunk exactly as the service would (``records.line_item`` and
``record_item``) and sends back only its :class:`~.outcomes.Outcome` values and its counts,
so the parent's share of the work stays small beside theirs. ``imap`` keeps the input order,
and reads the records only as the workers take them (the pipe to the pool is the buffer), so
memory stays flat however large the files.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from service.api.pipeline.records import Tally, line_item, record_item

from .inputs import LineTooLong, Record
from .outcomes import Outcome, settle, too_long_item

CHUNK = 100
"""Records per task: at some 0.2 ms a deal, a 20 ms task, long beside the cost of shipping it."""

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
        return line_item(0, payload)
    if isinstance(payload, LineTooLong):
        return too_long_item()
    return record_item(0, payload)


def evaluate_chunk(chunk: list[Record]) -> tuple[Tally, list[Outcome]]:
    tally = Tally()
    return tally, [settle(record, item_of(record), tally) for record in chunk]


def _worker_start() -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it (it ends the pool).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def evaluate_locally(records: Iterable[Record], jobs: int) -> Generator[tuple[Tally, list[Outcome]], None, None]:
    """Each chunk's counts and outcomes, in input order."""
    chunks = batched(records, CHUNK)
    if jobs == 1:
        yield from map(evaluate_chunk, chunks)
        return
    with multiprocessing.get_context().Pool(jobs, initializer=_worker_start) as pool:
        yield from pool.imap(evaluate_chunk, chunks)
