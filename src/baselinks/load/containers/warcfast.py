"""warcfast: the records of an intact ``.warc.gz`` read without warcio's reader, or the place
where the careful path (warc.py over warcreader.py) must take over.

An intact ``.warc.gz`` is one gzip member per record (ISO 28500 Annex D.2), each member a WARC
version line, header lines, an empty line, ``Content-Length`` bytes of block and the two CRLFs
that end a record (§5.1: ``warc-record = header CRLF block CRLF CRLF``). This reader checks
exactly that, member by member, and nothing more: what it cannot vouch for it does not read.

- Each member is inflated by the C library (:data:`ENGINE`: zlib-ng where the ``zlib-ng``
  package is installed, else the standard library's zlib; both give the same bytes, and check
  the member's CRC and length), as it is read, in bounded pieces: a record's block is handed
  to :mod:`.warcrecord` as a stream, so a 200 MB video record is read as the careful path
  reads it, 64 KiB of head, then drained.
- The header block is split as warcio splits it (each line decoded and ``rstrip()``-ed, the
  name before the first colon, the value after it ``lstrip()``-ed) into warcio's own
  ``StatusAndHeaders``, and the record is warcio's own ``ArcWarcRecord`` (as its iterator
  gives one with ``no_record_parse``): :mod:`.warcrecord` turns it into entries unchanged.
- A record's entries are yielded only once its member is known whole: its block as long as its
  ``Content-Length``, then exactly ``CRLF CRLF``, then the member's end, then another member or
  the end of the file. Each record's offset and length are its member's, as ``warcio index``
  writes them.

What it does not vouch for ends it (:func:`fast_records` returns how many records it gave): a
member that does not inflate, a record line that is not ``WARC/1.0`` (1.1, 0.17, 0.18), a
header line continued or not UTF-8, a header block over httpmsg's limits, a
``WARC-Target-URI`` warcio would rewrite (``<...>``, spaces), a ``Content-Length`` that is
not digits, a block over :data:`MAX_RECORD_BYTES`, anything between a block and its member's
end but ``CRLF CRLF``, bytes after the last member that are no member. warc.py then reads the
file again from its start with the careful path, passing over the records already given
(``skip``): its errors, warnings and resynchronisation are the careful path's own, byte for
byte, and an intact file never pays for them.
"""

from __future__ import annotations

import io
import logging
import re
import zlib
from collections.abc import Generator
from dataclasses import replace
from types import ModuleType
from typing import Any, BinaryIO

from warcio.recordloader import ArcWarcRecord, ArcWarcRecordLoader
from warcio.statusandheaders import StatusAndHeaders

from .entries import Entry, Part
from .httpmsg import MAX_HEADER_BYTES, MAX_HEADERS
from .warcframes import ENGINE, ENGINES  # the inflaters, chosen in one place
from .warcrecord import MAX_RECORD_BYTES, origin, record_entries, record_name

__all__ = ["ENGINE", "ENGINES", "fast_records"]


# warcio's ArcWarcRecordLoader.WARC_TYPES: the version lines it reads a WARC record by.
_VERSIONS = frozenset({b"WARC/1.1", b"WARC/1.0", b"WARC/0.17", b"WARC/0.18"})
_GZIP = b"\x1f\x8b"
_END = b"\r\n\r\n"  # ISO 28500 §5.1: the two CRLFs after a block (and the header block's end)
# What may follow a block in its member: empty lines, as warcio passes over them between
# records (CR and LF bytes, up to an LF); at least one, or warcio says the length is wrong.
_EMPTY_LINES = re.compile(rb"[\r\n]*\n")
_MOST_EMPTY = 1 << 16  # more of them are left to the careful path
_LOADER = ArcWarcRecordLoader()
# warcio logs the Target-URI it rewrites: said nowhere, as warcreader.py has it
logging.getLogger("warcio").addHandler(logging.NullHandler())
_READ = 1 << 16  # compressed bytes read from the file at a time (the progress bar sees each)
_PIECE = 1 << 16  # decompressed bytes asked of the inflater at a time
_FEED = 1 << 16  # compressed bytes given the inflater at a time


class _Declined(Exception):
    """What the fast reader does not vouch for: the careful path reads it."""


class _Member:
    """One gzip member of the file, inflated as it is read."""

    def __init__(self, source: _Source, engine: ModuleType) -> None:
        self.source = source
        self.start = source.offset  # the member's offset in the file
        self.inflater = engine.decompressobj(16 + zlib.MAX_WBITS)  # gzip: header, CRC, size
        self.errors = (zlib.error, engine.error)
        self.pending = b""  # inflated, not yet read
        self.done = False  # the member's end was reached

    def _inflate(self, wanted: int) -> bytes:
        """The next inflated bytes, at most ``wanted``; b"" at the member's end."""
        inflater = self.inflater
        while not self.done:
            data = inflater.unconsumed_tail or self.source.take()
            if not data:
                raise _Declined("the file ends inside a gzip member")
            try:
                out: bytes = inflater.decompress(data, wanted)
            except self.errors as exc:
                raise _Declined(str(exc)) from None
            if inflater.eof:
                self.done = True
                self.source.give_back(len(inflater.unused_data))
            if out:
                return out
        return b""

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes (fewer only at the member's end)."""
        pieces, have = [self.pending], len(self.pending)
        while have < size:
            out = self._inflate(max(size - have, _PIECE))
            if not out:
                break
            pieces.append(out)
            have += len(out)
        data = b"".join(pieces) if len(pieces) > 1 else pieces[0]
        self.pending = data[size:]
        return data[:size] if have > size else data

    def ended(self) -> bool:
        """Whether nothing is left of the member."""
        if not self.pending:
            self.pending = self._inflate(_PIECE)
        return not self.pending

    def head(self) -> bytes:
        """The record's header block, up to and with the empty line that ends it."""
        while (end := self.pending.find(_END)) < 0:
            out = b"" if len(self.pending) > MAX_HEADER_BYTES else self._inflate(_PIECE)
            if not out:
                raise _Declined("no header block")
            self.pending += out
        return self.read(end + 4)


class _Source:
    """The file's compressed bytes, in order, fed to the members in small slices of a large
    read (a slice's unused rest, or the bytes after a member's end, go back uncopied)."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.buffer = b""
        self.at = stream.tell()  # the file offset of buffer[0]
        self.position = 0  # in buffer: the next byte taken

    @property
    def offset(self) -> int:
        """The file offset of the next byte taken."""
        return self.at + self.position

    def take(self) -> memoryview:
        """The next compressed bytes (empty at the end of the file)."""
        if self.position >= len(self.buffer):
            self._fill()
        start = self.position
        self.position = min(start + _FEED, len(self.buffer))
        return memoryview(self.buffer)[start : self.position]

    def give_back(self, count: int) -> None:
        """The last ``count`` bytes taken were not used: they are taken next."""
        self.position -= count

    def starts_member(self) -> bool | None:
        """Whether a gzip member's magic bytes come next; None at the end of the file."""
        if len(self.buffer) - self.position < len(_GZIP):
            self._fill()
        if self.position >= len(self.buffer):
            return None
        return self.buffer.startswith(_GZIP, self.position)

    def _fill(self) -> None:
        self.at += self.position
        self.buffer = self.buffer[self.position :] + self.stream.read(_READ)
        self.position = 0


class _Block(io.RawIOBase):
    """A record's block as warcio's LimitReader gives it: at most its Content-Length."""

    def __init__(self, member: _Member, length: int) -> None:
        super().__init__()
        self.member = member
        self.left = length

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0 or size > self.left:
            size = self.left
        out = self.member.read(size)
        self.left -= len(out)
        return out

    def drain(self) -> int:
        """Read what is left of the block: how many bytes were missing (0 when whole)."""
        while self.left and self.read(_PIECE):
            pass
        return self.left


def _headers(block: bytes) -> StatusAndHeaders:
    """The header block (with its empty line) as warcio's StatusAndHeadersParser reads it, for
    the blocks whose reading needs none of its rarer rules."""
    try:
        text = block.decode("utf-8")  # warcio: each line as UTF-8, else ISO-8859-1
    except UnicodeDecodeError:
        raise _Declined("a header line that is not UTF-8") from None
    lines = text.split("\r\n")[:-2]  # the last two: the empty line's ends
    if len(block) > MAX_HEADER_BYTES or len(lines) > MAX_HEADERS + 1:
        raise _Declined("header block past the limits")
    if lines[0].encode() not in _VERSIONS or "\n" in text.replace("\r\n", ""):
        raise _Declined("no WARC version line, or a line not ended by CRLF")
    headers = []
    for line in lines[1:]:
        if line[:1] in (" ", "\t") or not line.rstrip():
            raise _Declined("a continued header line, or an empty one")
        name, colon, value = line.rstrip().partition(":")
        if colon:  # warcio drops a line without one
            headers.append((name.rstrip(" \t"), value.lstrip()))
    return StatusAndHeaders("", headers, protocol=lines[0])


def _record(member: _Member) -> tuple[Any, _Block]:
    """warcio's record of ``member``'s header block, and its block as a stream."""
    rec_headers = _headers(member.head())
    # warcio's own rewriting of a WARC-Target-URI in <...> (Wget 1.19) or with spaces
    _LOADER._ensure_target_uri_format(rec_headers)
    written = rec_headers.get_header("Content-Length") or ""
    if not (written.isascii() and written.isdigit()) or int(written) > MAX_RECORD_BYTES:
        raise _Declined("a Content-Length that is no number, or past the limit")
    length = int(written)
    block = _Block(member, length)
    rec_type = rec_headers.get_header("WARC-Type")
    content_type = rec_headers.get_header("Content-Type")
    # as warcio's ArchiveIterator gives it with no_record_parse: no HTTP headers parsed
    record = ArcWarcRecord("warc", rec_type, rec_headers, block, None, content_type, length)
    return record, block


def fast_records(
    stream: BinaryIO, file: str, engine: str = ENGINE
) -> Generator[Entry, None, int | None]:
    """The entries of the records of the ``.warc.gz`` ``stream`` (from where it is) that this
    reader vouches for, in order; returns None when it read them all to the end of the file,
    else how many records it gave (the careful path reads on, passing over them)."""
    source = _Source(stream)
    inflate = ENGINES[engine]
    given = 0
    while source.starts_member() is not None:
        offset = source.offset
        try:
            member = _Member(source, inflate)
            record, block = _record(member)
            name = record_name(record, file, offset)
            entries = list(record_entries(record, name, offset))
            after = member.read(_MOST_EMPTY)
            if block.drain() or not _EMPTY_LINES.fullmatch(after) or not member.ended():
                raise _Declined("the member holds more or less than its record")
            if source.starts_member() is False:
                raise _Declined("bytes after a member that are no member")
        except _Declined:
            return given
        where = origin(record, file, offset, source.offset - offset)
        for entry in entries:
            yield replace(entry, origin=where) if isinstance(entry, Part) else entry
        given += 1
    return None
