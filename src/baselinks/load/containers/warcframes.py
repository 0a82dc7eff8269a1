"""warcframes: each record of a WARC or ARC file with the facts stored around it, for a WAT.

A WAT record (Common Crawl's, webarchive-commons' ``WATExtractorOutput``) says of each record
what only its bytes as stored tell: the gzip member it is in (RFC 1952 §2.3: the header's
length and optional fields, the footer's CRC-32 and ISIZE, the member's compressed length),
its header block's length as written, its block's length and SHA-1, and the bytes after the
block (the "trailing slop", normally the ``CRLF CRLF`` that ends a record). warcio hands a
record's parsed headers and its decompressed block and none of these, so the records are framed
here, by hand:

- a ``.warc.gz`` / ``.arc.gz`` member by member (ISO 28500 Annex D.2: one record per member),
  each inflated as a stream with zlib, the member's own header and footer read as RFC 1952
  writes them;
- an uncompressed file record by record, by the ``Content-Length`` (an ARC record: the last
  field of its header line), the CR and LF bytes after a block counted as its slop.

Offsets and lengths are those ``warcio index`` gives: a record's offset in the file, and in a
``.warc.gz`` its member's compressed length. A :class:`FramedRecord` is what warcio's iterator
yields, read by attribute (``rec_type``, ``rec_headers``, ``raw_stream``...): the record → page
decisions stay in :mod:`.warcrecord`, the one place they are made. An ARC record is given the
WARC headers warcio's ``arc2warc`` gives it (``WARC-Target-URI``, ``WARC-Date`` in ISO 8601...).

Damage (a member that does not inflate, a header block that is no record) is an
:class:`~baselinks.errors.InputError` naming the file and offset; the next record is found as
warc.py finds it (:func:`.resync.report_and_find`) and the reading goes on. Memory is bounded:
a block is streamed, its head kept (:data:`HEAD_BYTES`) and the rest hashed as it passes.
"""

from __future__ import annotations

import base64
import hashlib
import re
import zlib
from collections.abc import Callable, Iterator
from functools import partial
from types import ModuleType
from typing import BinaryIO

from ...errors import InputError
from .gzipmember import GZIP_MAGIC, Member, gzip_header, signed32
from .httpmsg import MAX_HEADER_BYTES, MAX_HEADERS, parse_headers
from .resync import Damage, Window, report_and_find, starts_arc_record
from .warcrecord import MAX_MEMBER_BYTES

__all__ = ["ENGINE", "ENGINES", "HEAD_BYTES", "FramedRecord", "Member", "frames", "signed32"]

# The end of a header block: a line's LF, then an empty line (CRs allowed before its LF: pywb's
# missing-status-text.warc ends its lines CR CR LF). Possessive: linear over runs of CRs.
_EMPTY_LINE = re.compile(rb"\n\r*+\n")
_EMPTY_FIRST = re.compile(rb"\r*+\n")
# What of a block is kept as read (an HTTP head and the start of its body); the rest is hashed
# and counted as it passes, never held.
HEAD_BYTES = 64 << 10
_CHUNK = 1 << 16


def _engines() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {"zlib": zlib}
    try:
        # zlib's interface; 0.6 of its instructions on the corpus's crawl (docs/benchmarks.md)
        from zlib_ng import zlib_ng
    except ImportError:
        pass
    else:
        found["zlib-ng"] = zlib_ng
    return found


# The libraries that can inflate a member, by name (warcfast.py's too); the one used: zlib-ng
# where installed, the standard library's zlib without it.
ENGINES = _engines()
ENGINE = "zlib-ng" if "zlib-ng" in ENGINES else "zlib"
_ZLIB = ENGINES[ENGINE]


class _Headers:
    """A record's headers, read as warcio's ``StatusAndHeaders`` is (``get_header``)."""

    def __init__(self, protocol: str, headers: tuple[tuple[str, str], ...]) -> None:
        self.protocol = protocol
        self.headers = headers

    def get_header(self, name: str, default: str | None = None) -> str | None:
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return default


class _Source:
    """Where a record's bytes come from: a gzip member's inflated data, or the file itself;
    each read counted (``taken``), the member's end found (``ended``)."""

    def __init__(self, window: Window, gzipped: bool, digests: bool = True) -> None:
        self.window = window
        self.digests = digests  # blocks hashed as they are read (else only counted)
        self.inflater = _ZLIB.decompressobj(-zlib.MAX_WBITS) if gzipped else None
        self.pending = b""  # bytes ready, not yet handed on
        self.taken = 0  # bytes handed on
        self.consumed = 0  # compressed bytes fed to the inflater
        self.tail = b""  # what followed the deflate data: the footer, then the next member
        self.crc = 0
        self.member_length = 0  # a gzip member's, once its end was read
        self.inflated = 0  # bytes a gzip member inflated to so far (the oversize rule's limit)

    def stored_length(self) -> int:
        if not self.member_length:
            raise EOFError("the gzip member is cut short (file truncated?)")
        return self.member_length

    def read(self, size: int) -> bytes:
        while len(self.pending) < size and self._more():
            pass
        data, self.pending = self.pending[:size], self.pending[size:]
        self.taken += len(data)
        return data

    def readline(self, limit: int) -> bytes:
        while b"\n" not in self.pending and len(self.pending) < limit and self._more():
            pass
        end = self.pending.find(b"\n", 0, limit)
        return self.read(limit if end < 0 else end + 1)

    def read_head(self, limit: int) -> bytes | None:
        """Up to and with the first empty line (an LF after a line's LF, CRs between them
        allowed: ``CRLF CRLF``, ``LF LF``, ``CR CR LF``); an empty first line too; what there
        is, at the end of the data; None past ``limit`` bytes."""
        start = 0
        while True:
            first = _EMPTY_FIRST.match(self.pending)
            if first is not None:  # no header at all
                return self.read(first.end())
            found = _EMPTY_LINE.search(self.pending, start)
            if found is not None:
                return None if found.end() > limit else self.read(found.end())
            if len(self.pending) > limit:
                return None
            start = max(len(self.pending) - 1, 0)  # a line's LF may end the data read so far
            if not self._more():
                return self.read(len(self.pending))

    def skip_line_ends(self) -> int:
        """The CR and LF bytes next in the data passed over, however many (in bulk: one at a
        time cost a copy of the data ready each); how many."""
        skipped = 0
        while self.pending or self._more():
            rest = self.pending.lstrip(b"\r\n")
            run = len(self.pending) - len(rest)
            if run:
                self.read(run)
                skipped += run
            if rest:
                break
        return skipped

    def peek(self, size: int) -> bytes:
        while len(self.pending) < size and self._more():
            pass
        return self.pending[:size]

    def _more(self) -> bool:
        if self.inflater is None:
            chunk = self.window.read(_CHUNK)
            self.pending += chunk
            return bool(chunk)
        if self.inflater.eof:
            return False
        chunk = self.window.read(_CHUNK)
        if not chunk:
            raise EOFError("the gzip member is cut short (file truncated?)")
        before = len(self.inflater.unused_data)
        # no member is inflated past MAX_MEMBER_BYTES (warcrecord.py's oversize rule): past
        # it, the member is damage, and the reading goes on at the next record's member
        try:
            data = self.inflater.decompress(chunk, MAX_MEMBER_BYTES + 1 - self.inflated)
        except _ZLIB.error as exc:  # (zlib-ng's error is its own class: said as zlib's)
            raise zlib.error(str(exc)) from None
        self.inflated += len(data)
        if self.inflated > MAX_MEMBER_BYTES:
            raise ValueError(
                f"gzip member larger than {MAX_MEMBER_BYTES:,} bytes inflated (a record's "
                "largest header and block): the rest of it is not read"
            )
        if self.inflater.eof:
            self.tail = self.inflater.unused_data
            self.consumed += len(chunk) - len(self.tail) + before
        else:
            self.consumed += len(chunk)
        self.crc = _ZLIB.crc32(data, self.crc)
        self.pending += data
        return True


class _Block:
    """A record's block as a stream: at most its declared length, its head kept, the whole
    hashed (SHA-1, as WARC's digests and the WAT's are) as it is read."""

    def __init__(self, source: _Source, length: int, http: bool = False) -> None:
        self.source = source
        self.left = length
        self.read_length = 0
        self.sha1 = hashlib.sha1(usedforsecurity=False)
        self.head = b""
        # An HTTP message's body (its entity) is hashed apart too, from the end of its head,
        # once that is seen in the block's first HEAD_BYTES
        self.http = http
        self.entity_start: int | None = None
        self.entity_sha1 = hashlib.sha1(usedforsecurity=False)

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            size = self.left
        data = self.source.read(min(size, self.left, 1 << 24))
        self.left -= len(data)
        self.read_length += len(data)
        if not self.source.digests:
            return data
        self.sha1.update(data)
        if self.entity_start is not None:
            self.entity_sha1.update(data)
        elif len(self.head) < HEAD_BYTES:
            before = len(self.head)
            self.head += data[: HEAD_BYTES - before]
            if self.http:
                self._find_entity(before, data)
        return data

    def _find_entity(self, before: int, data: bytes) -> None:
        """Where the HTTP head ends (its empty line: CRLF CRLF, or a bare LF pair before any
        CRLF pair), once the head read so far holds it; the entity hashed from there."""
        head = self.head
        crlf = head.find(b"\r\n\r\n", max(before - 3, 0))
        lf = head.find(b"\n\n", max(before - 1, 0), len(head) if crlf < 0 else crlf + 1)
        if crlf >= 0 and (lf < 0 or crlf < lf):
            end = crlf + 4
        elif lf >= 0:
            end = lf + 2
        else:
            return
        self.entity_start = end
        self.entity_sha1.update(head[end:])
        self.entity_sha1.update(data[HEAD_BYTES - before :])

    def entity_digest(self) -> str | None:
        if self.entity_start is None:
            return None
        return "sha1:" + base64.b32encode(self.entity_sha1.digest()).decode("ascii")

    def drain(self) -> None:
        while self.left and self.read(_CHUNK):
            pass

    def digest(self) -> str:
        if not self.source.digests:
            return ""
        return "sha1:" + base64.b32encode(self.sha1.digest()).decode("ascii")


class FramedRecord:
    """One record as stored: read as warcio's records are (``rec_type``, ``rec_headers``,
    ``content_type``, ``length``, ``raw_stream``), and what a WAT says of it once it has been
    read to its end (:meth:`finish`): ``block_length``, ``block_digest``, ``slop``,
    ``member``, ``stored_length``."""

    def __init__(
        self,
        offset: int | None,
        skipped: int,
        version: str,
        headers: tuple[tuple[str, str], ...],
        header_length: int,
        block: _Block,
        arc: tuple[str, ...] | None = None,
    ) -> None:
        # where it starts in the file (after the empty lines ``skipped`` before it); None for
        # a record after the first in one gzip member
        self.offset = None if offset is None else offset + skipped
        self.skipped = skipped
        self.version = version  # "WARC/1.0", "WARC/1.1"... or "ARC"
        self.rec_headers = _Headers(version, headers)
        self.header_length = header_length
        self.raw_stream = block
        self.arc = arc  # an ARC record's header line fields, as written
        declared = self.rec_headers.get_header("Content-Length") or ""
        self.length = int(declared) if declared.strip().isdigit() else 0
        self.rec_type = self.rec_headers.get_header("WARC-Type") or ""
        self.content_type = self.rec_headers.get_header("Content-Type")
        self.block_length = 0
        self.block_digest = ""
        self.slop = 0
        self.member: Member | None = None
        self.stored_length: int | None = None
        self.finisher: Callable[[], None] | None = None
        self.compressed = False  # in a .warc.gz / .arc.gz
        self.damage: Exception | None = None

    def finish(self) -> None:
        """Read the record to its end (the rest of its block, the bytes after it), so that
        ``block_length``, ``block_digest``, ``slop``, ``member`` are known; damage met there
        is kept in ``damage`` (and reported by :func:`frames`). Once; idempotent."""
        finisher, self.finisher = self.finisher, None
        if finisher is None:
            return
        try:
            self.raw_stream.drain()
            finisher()
        except (EOFError, ValueError, zlib.error) as exc:
            self.damage = exc

    @property
    def head(self) -> bytes:
        """The block's first :data:`HEAD_BYTES` (those read so far)."""
        return self.raw_stream.head


def frames(
    stream: BinaryIO, file: str, digests: bool = True
) -> Iterator[FramedRecord | InputError]:
    """Every record of the WARC or ARC file ``stream`` (``file`` names it in errors), each
    read to its end before the next is framed, and the damage met as errors. ``digests``:
    False when no block's digest is wanted (the blocks are then only counted as they pass)."""
    window = Window(stream)
    gzipped = window.read(2) == GZIP_MAGIC
    warc = False  # the file holds WARC records only: known once one was read
    offset = window.base
    while True:
        window.rewind(offset)
        if not window.read(1):
            return
        window.rewind(offset)
        try:
            source = _Source(window, gzipped, digests)
            member = gzip_header(window) if gzipped else None
            for record in _records(source, offset, member):
                warc = record.arc is None
                record.finisher = partial(_finish, record, source, window, member)
                record.compressed = gzipped
                yield record
                record.finish()
                if record.damage is not None:
                    raise record.damage
            if member is None and source.taken == 0:
                return  # only empty lines were left
            offset += source.stored_length() if member is not None else source.taken
        except (EOFError, ValueError, zlib.error) as exc:
            message = " ".join(str(exc).split()) or type(exc).__name__
            # past a header line that was read as a record's (its length was no number):
            # no record starts inside it (bad.arc: each of its bytes was tried)
            scan = offset + 1
            if not gzipped and not message.startswith("no WARC") and source.taken:
                scan = offset + source.taken
            damage = Damage(offset, scan, message, file)
            error, found = report_and_find(window, damage, gzipped, warc)
            yield error
            if found is None:
                return
            offset = found


def _records(source: _Source, offset: int, member: Member | None) -> Iterator[FramedRecord]:
    """The record at ``offset``; in a gzip member, then any other record the member holds
    (a .warc.gz of one member for all records: those after the first have no offset of their
    own, as warcio's index has none for them)."""
    record = _record(source, offset)
    if record is None:
        return
    yield record
    while member is not None:
        try:
            record = _record(source, None)
        except ValueError:  # (said of the member's start, "no record starts here" would mislead)
            raise ValueError(
                "the bytes after a record in its gzip member start no record (damaged data?)"
            ) from None
        if record is None:
            return
        yield record


def _finish(record: FramedRecord, source: _Source, window: Window, member: Member | None) -> None:
    """What is known once the record's block was read: its length and digest, the slop after
    it (the CR and LF bytes there), and in a .warc.gz its member, once its data has ended."""
    block = record.raw_stream
    record.block_length = block.read_length
    record.block_digest = block.digest()
    taken = source.taken
    record.slop = source.skip_line_ends()
    if member is None:
        # as warcio's index: the record without the empty lines after it
        record.stored_length = taken - record.skipped
        return
    if source.peek(1):
        return  # another record follows in the same member
    footer = source.tail[:8]
    while len(footer) < 8 and (more := window.read(8 - len(footer))):
        footer += more
    if len(footer) < 8:
        raise EOFError("the gzip member's footer is cut short (file truncated?)")
    crc = int.from_bytes(footer[:4], "little")
    if crc != source.crc:
        raise ValueError("gzip member's CRC-32 does not match its data")
    if int.from_bytes(footer[4:], "little") != source.taken % (1 << 32):
        # (a footer cut short reads the next member's first bytes as its own: its length
        # then finds no member where the next one starts)
        raise ValueError("gzip member's length (ISIZE) does not match its data")
    length = member.header_length + source.consumed + 8
    source.member_length = length
    if record.offset is not None:  # the member's first record: the member is its own
        record.member = member._replace(
            length=length,
            crc=signed32(crc),
            inflated_length=int.from_bytes(footer[4:], "little"),
        )
        record.stored_length = length


def _record(source: _Source, offset: int | None) -> FramedRecord | None:
    """The record that starts here: its header block read, its block ready to be read."""
    first = source.readline(MAX_HEADER_BYTES)
    skipped = 0
    while first and not first.strip():  # empty lines before a record (a split record's end)
        skipped += len(first)
        first = source.readline(MAX_HEADER_BYTES)
    if not first:
        return None
    if first.startswith(b"WARC/"):
        return _warc_record(source, offset, first, skipped)
    if starts_arc_record(first) or _arc_line(first) is not None:
        return _arc_record(source, offset, first, skipped)
    raise ValueError("no WARC or ARC record starts here")


def _arc_line(line: bytes) -> tuple[str, ...] | None:
    """An ARC header line's five fields (URL IP-address archive-date content-type
    length; of ARC 2.0's ten, those), read from the right as warcio reads them, a URL with
    spaces in it whole (warcio's example-space-in-url.arc); None when the line is none."""
    fields = line.strip().decode("latin-1").split(" ")
    if len(fields) < 5 or not fields[-1].isdigit():
        return None
    if len(fields) == 10 and len(fields[2]) == 14 and fields[2].isdigit():
        # ARC 2.0: URL IP date type result-code checksum location offset filename length
        return (*fields[:4], fields[-1])
    if len(fields[-3]) != 14 or not fields[-3].isdigit():
        return None
    return (" ".join(fields[:-4]), *fields[-4:])


def _warc_record(source: _Source, offset: int | None, first: bytes, skipped: int) -> FramedRecord:
    # the header block to its empty line, found in what is read ahead (a line at a time cost
    # a third of the time of a scan of the corpus's records)
    rest = source.read_head(MAX_HEADER_BYTES - len(first))
    if rest is None:
        raise ValueError(f"header block larger than {MAX_HEADER_BYTES:,} bytes")
    if not rest.endswith(b"\n"):
        raise EOFError("record cut short inside its header (file truncated?)")
    size = len(first) + len(rest)
    if rest.count(b"\n") > MAX_HEADERS:
        raise ValueError(f"header block of more than {MAX_HEADERS:,} lines")
    lines = [first, rest]
    version = first.strip().decode("latin-1")
    # WARC 1.1 §4: header values are UTF-8 (an IRI in WARC-Target-URI); parse_headers reads
    # HTTP's latin-1, so each value is read again as UTF-8
    headers = tuple(
        (name, value.encode("latin-1").decode("utf-8", "replace"))
        for name, value in parse_headers(b"".join(lines[1:]))
    )
    declared = _Headers(version, headers).get_header("Content-Length") or ""
    if not declared.strip().isdigit():
        raise ValueError(f"record with an invalid length {declared!r}")
    record_type = (_Headers(version, headers).get_header("WARC-Type") or "").lower()
    kind = (_Headers(version, headers).get_header("Content-Type") or "").lower()
    http = kind.startswith("application/http") or record_type == "revisit"
    block = _Block(source, int(declared), http)
    return FramedRecord(offset, skipped, version, headers, size, block)


def _arc_record(source: _Source, offset: int | None, first: bytes, skipped: int) -> FramedRecord:
    """An ARC record: ``URL IP-address archive-date content-type [...] length``, then its
    block; given the WARC headers warcio's ``arc2warc`` gives it."""
    fields = _arc_line(first)
    if fields is None:
        raise ValueError("ARC record with an invalid length")
    url, ip, date, mime, declared = fields
    iso = f"{date[:4]}-{date[4:6]}-{date[6:8]}T{date[8:10]}:{date[10:12]}:{date[12:14]}Z"
    filedesc = url.startswith("filedesc:")
    http = url.lower().startswith(("http:", "https:"))
    headers: tuple[tuple[str, str], ...] = (
        # (a dns: or other record that is no HTTP response: a resource record)
        ("WARC-Type", "warcinfo" if filedesc else "response" if http else "resource"),
        *((("WARC-Filename", url.partition("://")[2]),) if filedesc else ()),
        *(() if filedesc else (("WARC-Target-URI", url),)),
        ("WARC-IP-Address", ip),
        ("WARC-Date", iso),
        ("Content-Type", "application/http;msgtype=response" if http else mime),
        ("Content-Length", declared),
    )
    block = _Block(source, int(declared), http)
    return FramedRecord(offset, skipped, "ARC", headers, len(first), block, arc=fields)
