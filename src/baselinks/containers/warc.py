"""WARC (ISO 28500) and ARC files → their HTML pages, streamed one record at a time.

The reading of records is warcio's, chosen by measuring both maintained libraries on the 52
files of the shared corpus:

- FastWARC reads records about 3.6 times as fast (0.021 s against 0.075 s for the four largest
  files, 8.4 MB of payload). But records are under 3% of extraction time, so behaviour decides.
- FastWARC reads no ARC file (9 files fail on the first record), and stops at a record whose
  Content-Length is wrong where warcio reads on (pywb's example.warc: 5 records of 6).
- warcio refuses a gzip that is one member for all records (3 files), and its brotli decoder
  fails with brotli 1.2. Both are handled here: the first is read through a gzip stream, and
  bodies are decoded by :mod:`.httpmsg`, not by warcio (``no_record_parse``).

What warcio leaves unsaid, this module says (warcio and FastWARC both stop silently):

- a record whose block is shorter than its ``Content-Length`` (a file cut short) is extracted as
  far as it goes, then reported with its offset;
- a record not followed by the empty lines that end it (a wrong ``Content-Length``) is reported;
- a gzip file that is one member for all records (not per record) is read through a gzip
  stream instead of failing, when the input can seek back.

The retrieval URL (RFC 1808 §3.3) of a record is its ``WARC-Target-URI``. The HTTP
``Content-Location`` header is not a base: RFC 2616 §14.14 made it one, RFC 7231 §3.1.4.2 (and
RFC 9110 §8.7) removed that, and browsers never applied it.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, BinaryIO, cast

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeadersParserException

from ..errors import InputError
from .doctypes import document_type, may_be_document
from .entries import Entry, Part, Skipped
from .httpmsg import (
    MAX_DECODED_BYTES,
    media_type,
    parse_response,
    response_part,
)

__all__ = ["MAX_RECORD_BYTES", "iter_records"]

# A record block larger than this is not read into memory; the record is reported and skipped.
MAX_RECORD_BYTES = MAX_DECODED_BYTES

_READ_ERRORS = (
    ArchiveLoadFailed,
    StatusAndHeadersParserException,
    EOFError,
    OSError,
    ValueError,
    zlib.error,
)


class _Records(ArchiveIterator):  # type: ignore[misc]  # warcio has no type hints
    # warcio prints a warning to stderr when a record is not followed by its empty lines, and
    # counts it in `err_count`; the count is read below and the damage reported as an error.
    INC_RECORD = ""


def _target(record: Any) -> str:
    target = record.rec_headers.get_header("WARC-Target-URI") or ""
    return str(target).strip().strip("<>")  # WARC 1.0's grammar had angle brackets


def _drain(stream: Any) -> int:
    """Read a block that is not kept (a request, a revisit): its size, in bounded memory."""
    size = 0
    while chunk := stream.read(65536):
        size += len(chunk)
    return size


def _record_name(record: Any, file: str, offset: int) -> str:
    """What the `document` field and errors call a record: its target URI, else its offset."""
    target = _target(record)
    return f"{file}#{target}" if target else f"{file}@{offset}"


def _record_entries(record: Any, file: str, offset: int) -> Iterator[Entry]:
    target = _target(record)
    name = _record_name(record, file, offset)
    rec_type = record.rec_type or "untyped"
    # None when the header ends before its Content-Length (or in the middle of its value)
    length_field = str(record.rec_headers.get_header("Content-Length") or "").strip()
    declared = record.length if length_field.isdigit() else None
    if rec_type not in ("response", "resource"):
        size = _drain(record.raw_stream)
        if declared is not None and size >= declared:
            yield Skipped(name, f"{rec_type} record")
    else:
        head = record.raw_stream.read(_HEAD_BYTES)
        skipped = _not_html(record, rec_type, head, name, target)
        if skipped is not None:
            # Only the head was needed: the body is drained, never held (a 200 MB video
            # record costs 64 KiB of memory, not 200 MB).
            size = len(head) + _drain(record.raw_stream)
            if declared is not None and size >= declared:
                yield skipped
        else:
            block = head + record.raw_stream.read(MAX_RECORD_BYTES + 1 - len(head))
            size = len(block)
            if size > MAX_RECORD_BYTES:
                yield InputError(
                    f"record larger than {MAX_RECORD_BYTES} bytes: not read", name, offset
                )
                return
            try:
                yield _page(record, rec_type, block, name, target)
            except InputError as exc:
                if declared is not None and size >= declared:
                    # what is left of a cut record need not parse: then the cut is the error
                    yield InputError(exc.message, name, offset)
    if declared is None:
        yield InputError(
            f"record with an invalid length {length_field!r}"
            if length_field
            else "record cut short inside its header, before Content-Length (file truncated?)",
            name,
            offset,
        )
    elif size < declared:
        yield InputError(
            f"record cut short: {size} of its {declared} bytes (file truncated?)", name, offset
        )


# What is read of a response or resource record before deciding whether to keep its body: the
# HTTP head (status line and headers) of nearly every response fits.
_HEAD_BYTES = 64 << 10


def _not_html(record: Any, rec_type: str, head: bytes, name: str, target: str) -> Entry | None:
    """The entry for a record that holds no HTML, decided from its first bytes; else None.

    The same decisions as :func:`_page` (and ``response_part``) where they need no body: a
    media type that is neither HTML nor unknown (unknown types are sniffed, from the body).
    """
    if rec_type == "response":
        if head.lstrip()[:5] != b"HTTP/" or (b"\r\n\r\n" not in head and b"\n\n" not in head):
            return None  # no status line, or a head longer than the peek: read it all
        try:
            response = parse_response(head)
        except InputError:
            return None
        essence, _ = media_type(response.headers)
        if may_be_document(essence):
            return None
        # a bodiless Part when the headers carry links, else Skipped
        return response_part(replace(response, body=b""), name, target or None)
    kind, _ = media_type([("Content-Type", record.content_type or "")])
    if may_be_document(kind):
        return None
    return Skipped(name, f"not HTML ({kind})")


def _page(record: Any, rec_type: str, block: bytes, name: str, target: str) -> Entry:
    """The document a response or resource record holds, or why it holds none."""
    if rec_type == "response":
        if block.lstrip()[:5] == b"HTTP/":
            return response_part(parse_response(block), name, target or None)
        if not target.lower().startswith(("http:", "https:")):
            return Skipped(name, f"response record for {target.partition(':')[0] or '?'}:")
        raise InputError("response record without an HTTP status line")
    kind, charset = media_type([("Content-Type", record.content_type or "")])
    doctype = document_type(kind, block)
    if doctype is not None:
        return Part(name, block, charset, target or None, doctype=doctype)
    return Skipped(name, f"not HTML ({kind or 'no Content-Type'})")


class _Tail:
    """A reader that counts the bytes passing through and keeps the last few.

    When warcio stops, the count says whether the file went on past the last record it read:
    a .warc.gz cut inside a gzip member ends warcio's iteration without a word.
    """

    KEEP = 4096

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        try:
            self.position = stream.tell()
        except (OSError, AttributeError, ValueError):
            self.position = 0
        self.tail = b""

    def tell(self) -> int:
        return self.position

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.position += len(data)
        # a whole read when it is long enough: no copy of the tail per read of a big file
        self.tail = (
            data[-self.KEEP :] if len(data) >= self.KEEP else (self.tail + data)[-self.KEEP :]
        )
        return data

    def unread_after(self, end: int) -> int:
        """How many bytes after ``end`` are not blank lines (reads the stream to its end)."""
        while self.read(65536):
            pass
        left = self.position - end
        if 0 < left <= len(self.tail) and not self.tail[-left:].strip():
            return 0  # the empty lines that end an uncompressed record
        return max(left, 0)


def _iterate(stream: BinaryIO, file: str, skip: int = 0) -> Iterator[Entry]:
    """The entries of the records after the first ``skip``, and the damage met."""
    tail = _Tail(stream)
    records = _Records(tail, no_record_parse=True, arc2warc=True)
    count = 0
    errors_seen = 0
    previous: tuple[str, int] | None = None  # the last record's name and offset

    def wrong_length() -> Iterator[InputError]:
        # warcio counts, while it looks for the next record, a record that was not followed
        # by its empty lines: the one read before.
        nonlocal errors_seen
        if records.err_count > errors_seen and previous is not None:
            errors_seen = records.err_count
            yield InputError(
                "record not followed by an empty line: its Content-Length is probably wrong",
                *previous,
            )

    try:
        for record in records:
            yield from wrong_length()
            offset = records.offset
            count += 1
            if count > skip:
                yield from _record_entries(record, file, offset)
            previous = (_record_name(record, file, offset), offset)
        yield from wrong_length()
        end = 0
        if records.member_info is not None:
            end = records.get_record_offset() + records.get_record_length()
        left = tail.unread_after(end)
        if left:
            yield InputError(
                f"{left} bytes after the last complete record cannot be read as a record "
                "(file truncated or damaged)",
                file,
                end,
            )
    except ArchiveLoadFailed as exc:
        if "non-chunked gzip" in str(exc):
            raise _NotPerRecordGzip(count) from None
        yield InputError(" ".join(str(exc).split()), file, records.offset)
    except _READ_ERRORS as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        yield InputError(f"cannot read the record: {message}", file, records.offset)


class _NotPerRecordGzip(Exception):
    def __init__(self, records_read: int) -> None:
        super().__init__(records_read)
        self.records_read = records_read


def iter_records(stream: BinaryIO, file: str) -> Iterator[Entry]:
    """Every HTML page of the WARC or ARC ``stream`` (and what was skipped or damaged)."""
    try:
        yield from _iterate(stream, file)
    except _NotPerRecordGzip as exc:
        if not stream.seekable():
            yield InputError(
                "gzip file is one member for many records: save it to a file to read it", file
            )
            return
        stream.seek(0)
        # Offsets from here on count uncompressed bytes.
        gunzipped = cast(BinaryIO, gzip.GzipFile(fileobj=stream))
        yield from _iterate(gunzipped, file, skip=exc.records_read)
