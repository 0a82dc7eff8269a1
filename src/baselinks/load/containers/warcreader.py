"""warcio's archive iterator as warc.py reads with it: bounded, and honest about damage.

warcio reads on silently after some damage in a ``.warc.gz`` and reads a header line of any
length; the classes here keep what it met as the damage (:class:`Records.damage_met`), read a
line and a header block within the limits of httpmsg.py (MAX_HEADER_BYTES, MAX_HEADERS), skip
empty lines between records in bulk, and drop the record ID warcio makes up for an ARC record.
warc.py turns what they give into entries and reports.
"""

from __future__ import annotations

import logging
import re
import zlib
from typing import Any, cast

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ARC2WARCHeadersParser
from warcio.statusandheaders import StatusAndHeadersParserException
from warcio.utils import BUFF_SIZE

from .httpmsg import MAX_HEADER_BYTES, MAX_HEADERS, HeaderLimit
from .resync import Window
from .warcrecord import MAX_MEMBER_BYTES

__all__ = ["READ_ERRORS", "Records"]

# warcio logs a warning (a WARC-Target-URI with spaces) through the logging module: without a
# handler of the application's, Python's last resort prints it, unescaped, on stderr. What
# matters of it is said in our own errors.
logging.getLogger("warcio").addHandler(logging.NullHandler())

# Empty lines: CR and LF bytes, up to the last LF among them. Possessive: linear.
_EMPTY_LINES = re.compile(rb"(?:\r*+\n)*+")

READ_ERRORS = (
    ArchiveLoadFailed,
    StatusAndHeadersParserException,
    EOFError,
    OSError,
    ValueError,
    zlib.error,
)


class _Reader(DecompressingBufferedReader):  # type: ignore[misc]  # warcio has no type hints
    """warcio's reader, except where it would read on silently after damage in a .warc.gz:

    - gzip data that breaks off inside a member (warcio writes zlib's message to stderr and
      reads on as if the member had ended);
    - a member that does not decompress from its first byte (warcio then reads the rest of
      the file as uncompressed, and may take binary garbage for an ARC header line).

    Either is kept as the damage met, and the reader gives no more data.
    """

    damage = ""
    gzipped = False  # the file is a .warc.gz: every member must decompress
    # the bytes and lines the header block being read may still take (None: none is read)
    budget: int | None = None
    lines_left = 0

    def readline(self, length: int | None = None) -> bytes:
        """A line, as warcio's, in linear time and never longer than a header block may be
        (MAX_HEADER_BYTES; the rest left unread). warcio's ``+=`` per buffer with no limit: a
        header line with no end in 100 KB of gzip (100 MB decompressed) took 353 MB. Lines
        between records and of their headers only (a block is read by length): one cut at the
        limit is no record's first line, and in a header block passes its budget."""
        if length is not None:
            return cast(bytes, super().readline(length))
        wanted = MAX_HEADER_BYTES + 1
        pieces: list[bytes] = []
        while wanted > 0:
            self._fillbuff()
            if self.empty():
                break
            piece = self.buff.readline(wanted)
            pieces.append(piece)
            wanted -= len(piece)
            if piece.endswith(b"\n"):
                break
        line = b"".join(pieces)
        if self.budget is not None:
            self.budget -= len(line)
            self.lines_left -= 1
            if self.budget < 0:
                raise HeaderLimit(f"header block larger than {MAX_HEADER_BYTES:,} bytes")
            if self.lines_left < 0:
                raise HeaderLimit(f"header block of more than {MAX_HEADERS:,} lines")
        return line

    def skip_empty_lines(self) -> int:
        """Every empty line (CR and LF bytes, to the last LF) from here, in bulk; how many
        bytes (warcio's ``readline`` each: 20 MiB of them between records took 10 s)."""
        skipped = 0
        while True:
            self._fillbuff()
            if self.empty():
                return skipped
            position: int = self.buff.tell()
            with self.buff.getbuffer() as view:
                run = _EMPTY_LINES.match(view, position)
                end = position if run is None else run.end()
            self.buff.seek(end)
            skipped += end - position
            if end < self.buff_size:  # a line that is not empty, or a CR the next read decides
                return skipped

    def _decompress(self, data: bytes) -> bytes:
        if self.damage:
            return b""
        if self.decompressor is not None and data and (self.num_block_read or self.gzipped):
            try:
                # no member is inflated past MAX_MEMBER_BYTES (warcrecord.py's oversize rule)
                left = MAX_MEMBER_BYTES + 1 - self.num_block_read
                out = cast(bytes, self.decompressor.decompress(data, max(left, 1)))
            except zlib.error as exc:
                return self._damaged(f"damaged gzip data ({exc})")
            if self.num_block_read + len(out) > MAX_MEMBER_BYTES:
                return self._damaged(
                    f"gzip member larger than {MAX_MEMBER_BYTES:,} bytes inflated (a record's "
                    "largest header and block): the rest of it is not read"
                )
            return out
        return cast(bytes, super()._decompress(data))

    def _damaged(self, what: str) -> bytes:
        """Keep ``what`` as the damage met; nothing more is read. The decompressor goes, or
        warcio's reader would read the rest of the stream through it (it gives nothing), and
        the place to read on from would be the stream's end (a member inflated past the limit,
        then the record after it lost)."""
        self.damage = what
        self.decompressor = None
        return b""


class _ArcHeaders(ARC2WARCHeadersParser):  # type: ignore[misc]  # warcio has no type hints
    """warcio's reading of an ARC header line as WARC headers, without the WARC-Record-ID it
    makes up (a new random UUID at each reading: an ARC record has no ID)."""

    def _get_protocol_and_headers(self, headerline: str, parts: list[str]) -> Any:
        protocol, headers = super()._get_protocol_and_headers(headerline, parts)
        return protocol, [(name, value) for name, value in headers if name != "WARC-Record-ID"]


class Records(ArchiveIterator):  # type: ignore[misc]  # warcio has no type hints
    # warcio prints a warning to stderr when a record is not followed by its empty lines, and
    # counts it in `err_count`; the count is read below and the damage reported as an error.
    INC_RECORD = ""

    def __init__(self, stream: Window, warc: bool, gzipped: bool) -> None:
        super().__init__(stream, no_record_parse=True, arc2warc=True)
        self.loader.arc_parser = _ArcHeaders()
        self.reader = _Reader(self.fh, block_size=BUFF_SIZE)  # nothing was read yet
        self.reader.gzipped = gzipped
        if warc:
            # Only WARC records: a damaged line of five words is not taken for an ARC header.
            self.known_format = "warc"
        self.member_cut = False  # the file ended inside the last gzip member
        self.damage = ""

    def _next_record(self, next_line: bytes | None) -> Any:
        if next_line is None:
            # Empty lines before a record: the end of the record before it, split off into
            # this gzip member (warcio's example-wrong-chunks.warc.gz). warcio would take the
            # first for a status line, and fail.
            self.reader.skip_empty_lines()
            next_line = self.reader.readline()
            while next_line and not next_line.strip():
                self.reader.skip_empty_lines()
                next_line = self.reader.readline()
        # the header block, read by warcio line by line, within its limits
        self.reader.budget, self.reader.lines_left = MAX_HEADER_BYTES, MAX_HEADERS
        try:
            return super()._next_record(next_line)
        finally:
            self.reader.budget = None

    def _consume_blanklines(self) -> tuple[bytes | None, int]:
        """warcio's, the empty lines after a record skipped in bulk (:meth:`_Reader.
        skip_empty_lines`): the first line read as warcio reads it (not empty: the record's
        Content-Length was wrong, counted in ``err_count``), then the others."""
        empty = 0
        first = True
        while True:
            if not first:
                empty += self.reader.skip_empty_lines()
            line = self.reader.readline()
            if not line:
                return None, empty
            if first or not line.rstrip():
                empty += len(line)
                if line.rstrip():
                    self.err_count += 1  # warcio's warning, said by WrongLengths
                first = False
                continue
            return line, empty

    def close(self) -> None:
        if self.reader is not None:
            self.damage = self.reader.damage
            decompressor = self.reader.decompressor
            if decompressor is not None and self.reader.num_block_read:
                self.member_cut = not decompressor.eof
        super().close()

    @property
    def damage_met(self) -> str:
        return self.reader.damage if self.reader is not None else self.damage
