"""After damage in a WARC or ARC file: where does the next record start?

warcio, FastWARC and the Internet Archive's tools all stop at the first record they cannot
read: one damaged record in the middle of a crawl loses every record after it. No maintained
library resynchronises, so this module does, by hand, in the two ways the formats allow:

- a ``.warc.gz`` is one gzip member per record (ISO 28500 Annex D.2): the next record starts
  at the next gzip member (``1f 8b 08``) whose first bytes decompress to ``WARC/`` or to an ARC
  header line, perhaps after the empty lines that end a record split across members (warcio's
  ``example-wrong-chunks.warc.gz``);
- in an uncompressed file, the next record starts at a line that is a WARC version line
  (``WARC/1.0``), or an ARC header line (``URL IP-address 14-digit-date ...``).

:func:`report_and_find` words the error (the damage, the span skipped) and finds where to read
on. :class:`Window` is the stream warcio reads through: it keeps the last mebibyte read, so that a
stream that cannot seek (a pipe) can still go back to the damage and scan from there.
"""

from __future__ import annotations

import re
import zlib
from typing import BinaryIO, NamedTuple

from ...errors import InputError

__all__ = [
    "Damage",
    "Window",
    "archive_inside",
    "next_record",
    "report_and_find",
    "starts_arc_record",
    "starts_record",
]


class Window:
    """A reader that remembers its last :data:`KEEP` bytes (or seeks, where it can) and
    counts its position in the file."""

    KEEP = 1 << 20

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        try:
            self.base = stream.tell()
        except (OSError, AttributeError, ValueError):
            self.base = 0
        self.buffer = bytearray()  # the bytes from `base` to `end`
        self.position = self.base
        try:
            self.seekable = bool(stream.seekable())
        except (OSError, AttributeError, ValueError):
            self.seekable = False

    @property
    def end(self) -> int:
        return self.base + len(self.buffer)

    def tell(self) -> int:
        return self.position

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(1 << 16), b""))
        kept = b""
        if self.position < self.end:
            start = self.position - self.base
            kept = bytes(self.buffer[start : start + size])
            self.position += len(kept)
            size -= len(kept)
            if not size:
                return kept
        data = self.stream.read(size)
        self.buffer += data
        if len(self.buffer) > 2 * self.KEEP:
            drop = len(self.buffer) - self.KEEP
            del self.buffer[:drop]
            self.base += drop
        self.position += len(data)
        return kept + data if kept else data

    def rewind(self, offset: int) -> bool:
        """Read on from ``offset``; False when it is forgotten and the stream cannot seek."""
        if self.base <= offset <= self.end:
            self.position = offset
            return True
        if not self.seekable or offset < 0:
            return False
        try:
            self.stream.seek(offset)
        except (OSError, ValueError, EOFError):  # a gzip stream re-read to a damaged place
            return False
        self.base = self.position = offset
        self.buffer = bytearray()
        return True

    def tail(self, size: int) -> bytes:
        """The last ``size`` bytes read (fewer when fewer are remembered)."""
        return bytes(self.buffer[-size:])


# A line that starts a record: "WARC/1.0", or an ARC header line (ARC 1.0: "URL IP-address
# Archive-date Content-type Archive-length"; ARC 2.0 has more fields before the length).
# Literal anchors, bounded classes that exclude the separators after them: linear.
_WARC_LINE = rb"WARC/\d{1,3}\.\d{1,3}[ \t]*\r?\n"
_ARC_LINE = (
    rb"[A-Za-z][A-Za-z0-9+.\-]{0,31}:[^ \r\n]{0,8192} [^ \r\n]{1,64} \d{14}"
    rb"(?: [^ \r\n]{0,1024}){1,8}\r?\n"
)
_RECORD_LINE = re.compile(_WARC_LINE + b"|" + _ARC_LINE)
# In a file of WARC records only a WARC version line starts one: the lines of an ARC index or
# of a crawl log inside a damaged span (URL IP date type length, in a WARC's own payloads
# too) are no records there, and taking each for one gave an error line per line of them.
_WARC_RECORD_LINE = re.compile(_WARC_LINE)
_LINE_START = re.compile(rb"\n(?=[A-Za-z])")
_GZIP_MAGIC = b"\x1f\x8b\x08"
_CHUNK = 1 << 16
_OVERLAP = 12 << 10  # longer than any record line the pattern accepts


_ARC_RECORD_LINE = re.compile(_ARC_LINE)
# A WARC version line anywhere; group 1: a header line follows it. Literal prefix: linear.
_WARC_ANYWHERE = re.compile(_WARC_LINE + rb"([A-Za-z][A-Za-z0-9\-]{0,63}:)?")


def starts_arc_record(head: bytes) -> bool:
    """Whether ``head`` begins with an ARC record's header line (URL IP-address date ...)."""
    return _ARC_RECORD_LINE.match(head) is not None


def starts_record(head: bytes, warc: bool = False) -> bool:
    """Whether ``head`` (the first bytes of a record, or of a gzip member's content) begins
    with a record's first line, after any empty lines; ``warc``: a WARC record's only."""
    pattern = _WARC_RECORD_LINE if warc else _RECORD_LINE
    return pattern.match(head.lstrip(b"\r\n")) is not None


# What of a candidate member is inflated at first: enough for a record's first line nearly
# always; more only when that is not yet decided (an ARC header line up to _OVERLAP).
_FIRST_TRY = 512
_LONGEST_NAME = 1024  # a gzip header's FNAME or FCOMMENT, looked for this far


def _header_end(data: bytes, position: int) -> int | None:
    """Where the deflate data of the gzip member at ``position`` starts (RFC 1952 §2.3.1: ID1
    ID2 CM FLG MTIME XFL OS, then the optional fields FLG names); None when no member can
    start there (a reserved flag set, a field running past what is here)."""
    end = position + 10
    if end > len(data) or data[position + 3] & 0xE0:
        return None
    flags = data[position + 3]
    if flags & 4:  # FEXTRA: two bytes of length, then the field
        end += 2 + int.from_bytes(data[end : end + 2], "little")
    for bit in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            nul = data.find(b"\0", end, end + _LONGEST_NAME)
            if nul < 0:
                return None
            end = nul + 1
    end += 2 if flags & 2 else 0  # FHCRC
    return end if end <= len(data) else None


def _member_starts_record(data: bytes, position: int, warc: bool) -> bool:
    """Whether the gzip member at ``position`` in ``data`` holds a record's first line.

    Its header read here, then a small first inflation: 1 MB of junk made of gzip magic bytes
    (a candidate every 3 bytes, each a header whose FEXTRA and FNAME run on) was 350,000
    copies of 12 KiB, each inflated to its end (18 s); a candidate now costs its header and
    the few bytes after it. A record's first line starts with a letter (``WARC/``, an ARC
    line's URL), after any empty lines: anything else is decided at once."""
    start = _header_end(data, position)
    if start is None:
        return False
    try:  # the deflate data alone first: its first bytes
        first = zlib.decompressobj(-zlib.MAX_WBITS).decompress(data[start : start + 64], 256)
    except zlib.error:
        return False
    letter = first.lstrip(b"\r\n")[:1]
    if letter and not letter.isalpha():
        return False
    # then as gzip reads it (the header's CRC too), as much as a first line may need
    view = memoryview(data)[position : position + _OVERLAP]
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        head = inflater.decompress(view[:_FIRST_TRY], 16 << 10)
        if not inflater.eof and len(head) < (16 << 10) and len(view) > _FIRST_TRY:
            head += inflater.decompress(view[_FIRST_TRY:], (16 << 10) - len(head))
    except zlib.error:
        return False
    return starts_record(head, warc)


def next_record(window: Window, start: int, gzipped: bool, warc: bool = False) -> int | None:
    """The offset of the first record that starts at or after ``start`` (just past where the
    damage was met), or None when none does before the end of the file (or ``start`` is out
    of reach). ``warc``: the file holds WARC records, so only a WARC record starts one."""
    origin = max(start - 1, 0)  # the file offset of data[0]: the byte before, a line's "\n"
    if not window.rewind(origin):
        return None
    data = b""
    while True:
        chunk = window.read(_CHUNK)
        data += chunk
        # Where the search begins in ``data``: ``start``, or the overlap kept from the chunk
        # before once ``origin`` has moved past ``start``. (It was ``start - origin`` alone:
        # negative from the second chunk on, and ``find`` counted it from the end of the
        # buffer, so the members 52-77 KiB past the damage were never looked at.)
        skip = max(start - origin, 0)
        if gzipped:
            found = _gzip_member(data, skip, bool(chunk), warc)
        else:
            # a gzip member too: a .warc.gz whose start is damaged past the first bytes
            # sniffed (76 KB of junk) is read as plain, its records then found as members
            found = _record_line(data, skip, warc)
            member = _gzip_member(data, skip, bool(chunk), warc, found)
            found = member if member is not None else found
        if found is not None:
            window.rewind(origin + found)
            return origin + found
        if not chunk:
            return None
        keep = min(len(data), _OVERLAP)
        origin += len(data) - keep
        data = data[-keep:]


def _gzip_member(
    data: bytes, skip: int, more: bool, warc: bool = False, before: int | None = None
) -> int | None:
    """The first gzip member at or after ``skip`` (and before ``before``) whose content
    starts a record."""
    position = data.find(_GZIP_MAGIC, skip, len(data) if before is None else before)
    while position >= 0:
        if more and len(data) - position < _OVERLAP:
            return None  # too near the end to judge: once more with the next chunk
        if _member_starts_record(data, position, warc):
            return position
        position = data.find(_GZIP_MAGIC, position + 1, len(data) if before is None else before)
    return None


def _record_line(data: bytes, skip: int, warc: bool = False) -> int | None:
    """Where a record's first line starts in ``data`` at or after ``skip`` (0 past the first
    chunk, whose byte before ``skip`` is the one before the damage): an ARC header line at the
    start of a line (a URL is in every other line of text); a WARC version line there too,
    or within a line when a header line follows it (junk with no line break at its end, then
    a record: the record is whole, and was lost with the junk)."""
    if (
        skip
        and data[skip - 1 : skip] != b"\n"
        and starts_record(data[skip : skip + _OVERLAP], warc)
    ):
        return skip  # a record right after the block before it, on the same line
    # A line cut at the chunk's end is seen whole next time: the overlap is longer than any
    # line the patterns accept, and a partial line does not match (it needs its "\n").
    for found in _WARC_ANYWHERE.finditer(data, skip):
        start = found.start()
        if (start > 0 and data[start - 1] == 0x0A) or found.group(1):
            break
    else:
        start = len(data) + 1
    if not warc:
        for match in _LINE_START.finditer(data, max(skip - 1, 0), min(start, len(data))):
            if _ARC_RECORD_LINE.match(data, match.end()) is not None:
                return match.end()
    return start if start <= len(data) else None


def archive_inside(head: bytes) -> str | None:
    """For the first bytes of an input that starts with no record: "gzip" or "plain" when a
    record starts further on (the start of the file damaged), else None."""
    if _gzip_member(head, 1, more=False) is not None:
        return "gzip"
    position = _record_line(head, 1)
    if position is not None and (
        head.startswith(b"WARC-", head.find(b"\n", position) + 1)
        or head.startswith(b"filedesc://", position)
    ):
        # a WARC version line, then a WARC header; an ARC file's own header record: not
        # text about WARC, nor a line of a crawl log
        return "plain"
    return None


class Damage(NamedTuple):
    """Where a run of warcio over the file met damage, and from where to look for a record."""

    offset: int  # where the damage was met: the start of the record or member warcio failed on
    scan_from: int  # the first offset where the next record may start
    what: str  # what was wrong
    name: str  # what the error names: the file, or the damaged record


def _what_is_there(window: Window, offset: int, gzipped: bool) -> str:
    """The first line found at ``offset``, for the message: decompressed in a .warc.gz."""
    if not window.rewind(offset):
        return ""
    head = window.read(4096)
    if gzipped and head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 256)
        except zlib.error:
            return "damaged gzip data"
    line = head.lstrip(b"\r\n").split(b"\n", 1)[0].rstrip(b"\r")
    return f"first line {line[:60].decode('latin-1')!r}" if line else "empty lines"


def report_and_find(
    window: Window, damage: Damage, gzipped: bool, warc: bool = False
) -> tuple[InputError, int | None]:
    """The error that reports ``damage`` and the span skipped; and the offset of the next
    record, where to read on (None: there is none, or it cannot be reached). ``warc``: the
    file holds WARC records (:func:`next_record`)."""
    there = ""
    if damage.what.startswith("no WARC"):
        there = _what_is_there(window, damage.offset, gzipped)
        there = f" ({there})" if there else ""
    if not window.rewind(max(damage.scan_from - 1, 0)):
        message = (
            f"{damage.what}{there}; the rest of the stream cannot be read past it "
            "(more than 1 MiB back: save it to a file to read on)"
        )
        return InputError(message, damage.name, damage.offset), None
    found = next_record(window, damage.scan_from, gzipped, warc)
    if found is None:
        while window.read(65536):
            pass
        end = window.position
        message = f"{damage.what}{there}; no record after it: bytes {damage.offset}-{end} skipped"
        if damage.what.startswith("bytes after"):
            message = (
                f"{end - damage.offset} bytes after the last complete record cannot be read "
                "as a record (file truncated or damaged)"
            )
        return InputError(message, damage.name, damage.offset), None
    if found <= damage.offset:  # the next record began inside the one reported
        return InputError(f"{damage.what}{there}", damage.name, damage.offset), found
    message = (
        f"{damage.what}{there}; bytes {damage.offset}-{found} skipped, "
        f"read on from the next record at offset {found}"
    )
    return InputError(message, damage.name, damage.offset), found
