"""The records of a replay, read from its files: NDJSON, or JSON (one record, or an array of them).

A file is NDJSON (one record per line) when its first line is a whole JSON object, or is
followed by another record or by nothing (a line cut short is a malformed record wherever it
is); one JSON document when it begins with ``[`` (an array of records) or with a ``{`` its first
line does not close (one record written over several lines, as an editor or
``json.dump(indent=…)`` writes it). Anything else is no file of records: the replay stops and
says what it found. ``-`` is standard input. Every record keeps where it came from, for the
messages and the report: its line (from 1) in NDJSON or a document of one record, its index
(from 0) in an array.

NDJSON streams: one line is held at a time, and a line over the service's limit is read and
dropped, never held, so memory stays flat whatever the size of the file. Blank lines are not
records: they are skipped (and still counted, so that line numbers match an editor's). A JSON
array is parsed whole, the only way the standard library parses one: send large replays as
NDJSON.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import IO, Any, NamedTuple, cast

from service.contract.evaluate import EVALUATE
from service.contract.games import SCORE_GAME, GameDealSchema
from service.contract.jsonio import BodyError, parse_body
from service.contract.operations import requested
from service.contract.records import (
    JSON_BATCH_MAX_BYTES,
    LINE_READ_BYTES,
    drop_rest_of_line,
    over_limit,
    without_line_end,
)

from .errors import CommandError, reason
from .words import say, service_text

STDIN = "-"
STDIN_NAME = "stdin"
"""Standard input's name in messages and reports, in every language: it names the records'
test suite, which a report compared from run to run must keep."""

_BLANK = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"


class LineTooLong:
    """An NDJSON line over the service's limit, in place of its bytes (answered as the service would)."""


class Record(NamedTuple):
    file_no: int
    """Which file: its index in the command's list."""
    pos: int
    """NDJSON: the line number, from 1. An array: the index, from 0."""
    payload: Any
    """NDJSON: the line's bytes (without its end of line), or a :class:`LineTooLong`. An array: the element."""


NDJSON = "ndjson"
ARRAY = "array"
OBJECT = "object"
BATCH = "batch"
"""A file's formats: a record a line; a JSON array of records; one JSON record over several lines;
the body of a JSON batch, ``{"deals": [...]}`` (its records are those of its list)."""


@dataclass
class Source:
    """One input file, its format already known."""

    name: str
    """As messages show it: the path as given, or ``stdin``."""
    path: str | None
    """None: standard input."""
    format: str
    """:data:`NDJSON`, :data:`ARRAY`, :data:`OBJECT` or :data:`BATCH`."""
    skipped: int
    """Blank lines before the first record."""
    stdin: io.BufferedReader | None = None
    """Standard input, kept open: it can be read only once."""

    @property
    def document(self) -> bool:
        """Read as one JSON document (an array, or one record), not line by line."""
        return self.format != NDJSON

    def where(self, pos: int) -> str:
        """A record's location: ``games.ndjson:12`` (line), ``games.json[3]`` (index in an array or a batch's list)."""
        return f"{self.name}[{pos}]" if self.format in (ARRAY, BATCH) else f"{self.name}:{pos}"


def _buffered(stream: IO[bytes]) -> io.BufferedReader:
    # Detection peeks ahead without consuming, which only a buffered reader can.
    if isinstance(stream, io.BufferedReader):
        return stream
    return io.BufferedReader(cast(Any, stream))


def _skip_blank_lines(stream: io.BufferedReader) -> tuple[int, bytes]:
    """Consume the blank lines at the start: how many, and what follows (peeked, not consumed)."""
    skipped = 0
    while True:
        ahead = stream.peek(1)
        if not ahead:
            return skipped, b""
        rest = ahead.lstrip(_BLANK)
        if rest:
            # Only whole lines are consumed: the first record's line is read whole later.
            cut = ahead.rfind(b"\n", 0, len(ahead) - len(rest)) + 1
            skipped += stream.read(cut).count(b"\n")
            return skipped, rest
        skipped += stream.read(len(ahead)).count(b"\n")


def _start_of(rest: bytes) -> str:
    line = rest.split(b"\n", 1)[0][:24].rstrip(b"\r")
    return repr(line.decode("utf-8", errors="replace"))


class _Pushback(io.RawIOBase):
    """A stream whose first bytes were read already (standard input's first line): given back first."""

    def __init__(self, first: bytes, rest: io.BufferedReader) -> None:
        self._first, self._rest = first, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._first:
            n = min(len(buffer), len(self._first))
            buffer[:n], self._first = self._first[:n], self._first[n:]
            return n
        data = self._rest.read1(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _detect(name: str, stream: io.BufferedReader) -> tuple[str, int, io.BufferedReader]:
    """The file's format, how many blank lines came before its content, and the stream to read
    it from (standard input's, what was read of it given back). A body of another shape than
    records (another operation's request) is refused here, saying what it is."""
    skipped, rest = _skip_blank_lines(stream)
    if rest.startswith(_BOM):
        raise CommandError(say("inputs.byte_order_mark", name=name, line=str(skipped + 1)))
    if rest[:1] not in (b"", b"{", b"["):
        raise CommandError(say("inputs.not_records", name=name, line=str(skipped + 1), start=_start_of(rest)))
    if rest[:1] != b"{":
        return (ARRAY if rest[:1] == b"[" else NDJSON), skipped, stream
    # The first line decides, whole (it may be longer than what can be peeked): a JSON text
    # whole on its line is NDJSON's first record, or a body of another shape written on one
    # line (a JSON batch, a request of another operation). When it is no whole JSON text, the
    # next line does: NDJSON's next record begins with "{", a document's next line with a
    # member. The lines read are put back.
    at = stream.tell() if stream.seekable() else None
    first = stream.readline(LINE_READ_BYTES)
    head = [first]
    kind = NDJSON
    if len(first) >= LINE_READ_BYTES and not first.endswith(b"\n"):
        # Over the service's limit for a record: an NDJSON record too long, or a body on one
        # line, read whole up to the largest JSON body the service takes.
        head.append(stream.readline(JSON_BATCH_MAX_BYTES))
        line = b"".join(head)
        if line.endswith(b"\n") or not stream.peek(1):
            kind = _shape(name, _parsed(line), NDJSON)
    elif (value := _parsed(first)) is not _NOT_JSON:
        kind = _shape(name, value, NDJSON)
    else:
        line = b"\n"
        while line and not line.strip(_BLANK):
            line = stream.readline(LINE_READ_BYTES)
            head.append(line)
        # A line alone in its file is a record, whole or cut short (a truncated log), as any line is.
        if line and not line.lstrip(_BLANK).startswith(b"{"):
            # One JSON document over several lines: read whole (as it is to be read anyway) to know what it is.
            head.append(stream.read())
            document = b"\n" * skipped + b"".join(head)
            try:
                value = parse_body(document)
            except BodyError as exc:
                raise CommandError(say("inputs.bad_object", name=name, reason=service_text(exc.message))) from None
            kind = _shape(name, value, OBJECT)
    if at is not None:
        stream.seek(at)
    else:
        stream = io.BufferedReader(_Pushback(b"".join(head), stream))
    return kind, skipped, stream


_NOT_JSON: Any = object()


def _parsed(text: bytes) -> Any:
    """``text`` parsed, or :data:`_NOT_JSON`."""
    try:
        return parse_body(text)
    except BodyError:
        return _NOT_JSON


_SHEET_FIELDS = frozenset(field.data_key or name for name, field in SCORE_GAME.request_schema.fields.items())
_SHEET_ENTRY_FIELDS = frozenset(field.data_key or name for name, field in GameDealSchema().fields.items())


def _shape(name: str, value: Any, records: str) -> str:
    """The format of a file whose first JSON text is ``value``: :data:`BATCH` for the body of a
    JSON batch, else ``records`` (the format of its records, one a line or one in all);
    :class:`CommandError`, saying what it is, for a body of another operation (a score sheet, a
    request that is no deal record), which the replay cannot run on."""
    if not isinstance(value, dict):
        return records
    deals = value.get("deals")
    if isinstance(deals, list) and set(value) <= _SHEET_FIELDS:
        # A record has no "deals": the body of a batch, or a game's sheet (its deals are entries).
        sheet = set(value) != {"deals"} or (deals and all(_sheet_entry(entry) for entry in deals))
        if not sheet:
            return BATCH
        raise CommandError(say("inputs.score_sheet", name=name, path=SCORE_GAME.path))
    taken_by = requested(value)
    if taken_by and EVALUATE not in taken_by:
        op = taken_by[0]
        raise CommandError(say("inputs.other_request", name=name, operation=op.operation_id, path=op.path))
    return records  # a malformed record, reported as such


def _sheet_entry(entry: Any) -> bool:
    """Whether ``entry`` is a deal as a game's sheet holds it: a summary, a record or a deal not played."""
    return isinstance(entry, dict) and bool(set(entry) - {"dealer"}) and set(entry) <= _SHEET_ENTRY_FIELDS


def _open_file(name: str) -> io.BufferedReader:
    if os.path.isdir(name):
        raise CommandError(say("inputs.directory", name=name))
    try:
        return open(name, "rb")
    except FileNotFoundError:
        raise CommandError(say("inputs.no_such_file", name=name)) from None
    except OSError as exc:
        raise CommandError(say("inputs.unreadable", name=name, reason=reason(exc))) from None


def open_sources(names: Sequence[str], stdin: IO[bytes] | None = None) -> list[Source]:
    """Every file checked and its format detected, before any record is evaluated.

    A missing file, or one that holds no records, should fail the replay at once, not after
    an hour of evaluating the files before it.
    """
    sources: list[Source] = []
    for name in names:
        if name == STDIN:
            if any(s.path is None for s in sources):
                raise CommandError(say("inputs.stdin_twice"))
            stream = _buffered(stdin if stdin is not None else sys.stdin.buffer)
            kind, skipped, stream = _detect(STDIN_NAME, stream)
            sources.append(Source(STDIN_NAME, None, kind, skipped, stream))
            continue
        try:
            with _open_file(name) as f:
                kind, skipped, _ = _detect(name, f)
        except OSError as exc:
            raise CommandError(say("inputs.unreadable", name=name, reason=reason(exc))) from None
        sources.append(Source(name, name, kind, skipped))
    return sources


def _lines(file_no: int, stream: io.BufferedReader, line_no: int) -> Iterator[Record]:
    while True:
        line = stream.readline(LINE_READ_BYTES)
        if not line:
            return
        line_no += 1
        if over_limit(line):
            # The service's limit, applied here too so both ways of replaying agree.
            drop_rest_of_line(stream, line)
            yield Record(file_no, line_no, LineTooLong())
            continue
        line = without_line_end(line)
        if line.strip():
            yield Record(file_no, line_no, line)


def _elements(file_no: int, source: Source, stream: io.BufferedReader, skipped: int) -> Iterator[Record]:
    # The blank lines already consumed go back in front, so the parser's line numbers are the file's.
    data = b"\n" * skipped + stream.read()
    try:
        value = parse_body(data)
    except BodyError as exc:
        why = service_text(exc.message)
        if source.format == ARRAY:
            raise CommandError(say("inputs.bad_array", name=source.name, reason=why)) from None
        if source.format == BATCH:
            raise CommandError(say("inputs.bad_batch", name=source.name, reason=why)) from None
        raise CommandError(say("inputs.bad_object", name=source.name, reason=why)) from None
    if source.format == OBJECT:
        # Begins with "{" and parsed: one record, where its first line is.
        yield Record(file_no, skipped + 1, value)
        return
    if source.format == BATCH:
        value = value["deals"]  # as detected: the records of a JSON batch
    assert isinstance(value, list)  # it begins with "[" and parsed
    for index, element in enumerate(value):
        yield Record(file_no, index, element)


def read_records(sources: Sequence[Source]) -> Iterator[Record]:
    """Every record of every file, in order."""
    for file_no, source in enumerate(sources):
        yield from records_of(file_no, source)


def records_of(file_no: int, source: Source) -> Iterator[Record]:
    """Every record of one file, in order."""
    opened: AbstractContextManager[io.BufferedReader]
    if source.stdin is not None:
        opened = nullcontext(source.stdin)
    else:
        assert source.path is not None
        opened = _open_file(source.path)
    try:
        with opened as stream:
            if source.stdin is None:
                _skip_blank_lines(stream)  # as when detected (standard input's are consumed already)
            if source.document:
                yield from _elements(file_no, source, stream, source.skipped)
            else:
                yield from _lines(file_no, stream, source.skipped)
    except OSError as exc:
        raise CommandError(say("inputs.unreadable", name=source.name, reason=reason(exc))) from None


class Span(NamedTuple):
    """A run of whole lines of an NDJSON file, for a worker process to read itself."""

    file_no: int
    path: str
    start: int
    """Byte offset of its first line."""
    size: int
    line_no: int
    """Lines of the file before it."""


def spans(file_no: int, path: str, size: int) -> Iterator[Span | list[Record]]:
    """An NDJSON file cut into spans of about ``size`` bytes of whole lines; a line over the
    service's limit comes between two spans as its own record, and is never held."""
    try:
        with open(path, "rb") as f:
            start = position = line_no = first = 0
            while line := f.readline(LINE_READ_BYTES):
                if over_limit(line):
                    if position > start:
                        yield Span(file_no, path, start, position - start, first)
                    dropped, _ = drop_rest_of_line(f, line)
                    line_no += 1
                    yield [Record(file_no, line_no, LineTooLong())]
                    start = position = position + len(line) + dropped
                    first = line_no
                    continue
                position += len(line)
                line_no += 1
                if position - start >= size:
                    yield Span(file_no, path, start, position - start, first)
                    start, first = position, line_no
            if position > start:
                yield Span(file_no, path, start, position - start, first)
    except OSError as exc:
        raise CommandError(say("inputs.unreadable", name=path, reason=reason(exc))) from None


def span_records(span: Span) -> Iterator[Record]:
    """The records of a span, read from its file (in a worker process)."""
    with open(span.path, "rb") as f:
        f.seek(span.start)
        data = f.read(span.size)
    yield from _lines(span.file_no, io.BufferedReader(io.BytesIO(data)), span.line_no)


_COUNT_BLOCK = 1024 * 1024


def count_lines(sources: Sequence[Source]) -> int | None:
    """About how many records there are, for a progress bar; None when that cannot be known
    without reading them (standard input, a JSON array)."""
    total = 0
    for source in sources:
        if source.path is None or source.document:
            return None
        try:
            with open(source.path, "rb") as f:
                # Newlines counted by the block, never a whole line in memory (a line may be huge);
                # blank lines count too: a bar's total need not be exact.
                ends, last = 0, b"\n"
                while block := f.read(_COUNT_BLOCK):
                    ends += block.count(b"\n")
                    last = block[-1:]
                total += ends + (last != b"\n")
        except OSError:
            return None
    return total
