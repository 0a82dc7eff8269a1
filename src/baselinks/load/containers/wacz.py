"""wacz: the WARC files inside a WACZ (Webrecorder's Web Archive Collection Zipped, spec 1.1.1),
read in place: nothing is unpacked to disk.

    crawl.wacz (a zip)
      archive/*.warc, *.warc.gz   STORED (the spec: "already compressed files MUST NOT be
                                  compressed again"): a window over the .wacz itself, seekable,
                                  whose offsets are the WARC's, handed to the WARC reader
                                  DEFLATED: streamed through zipfile, CRC-32 checked at its end
      indexes/, pages/, datapackage*.json   not read (the links are in the WARCs)

Provenance finds each record again: ``file`` is the WACZ's path, ``#``, the member's name
(``crawl.wacz#archive/data.warc.gz``), and ``offset`` the record's offset in that WARC, the
offset the WACZ's own CDXJ index gives (for a STORED member, the byte in the .wacz is the
member's data start plus it: an HTTP range request, as ReplayWeb.page reads one).

What a hostile zip does here, each one error line naming the WACZ and the member, the other
members read (tests/test_wacz.py, built from fixtures/containers/crawl.wacz):

    no central directory, or one zipfile refuses   "no readable central directory": the members
      (cut short: a download stopped; damaged)     found again by their local headers, from the
                                                   start, and read as far as the file goes (a
                                                   cut WARC's records before the cut kept)
    not a zip at all                               "not a readable zip"; nothing read
    a name with "..", absolute, a drive, controls  refused by name: nothing is ever written,
                                                   but the name is shown and kept
    two entries for one name, overlapping entries  refused (a non-recursive zip bomb shares
                                                   one member's data between many entries)
    a deflated member declaring over 200 times     refused as a zip bomb (a deflated WARC is
      its compressed size                          about 1 to 10 times; a zip bomb 1,000)
    a member's data damaged (a bad CRC, a broken   "damaged zip member": the records read
      deflate stream, a size that lies)            before it kept, the next member read
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from ...errors import InputError
from .entries import Entry

__all__ = ["MAX_RATIO", "iter_wacz", "local_members", "unsafe_name"]

# A deflated member declaring more than this many times its compressed size is refused.
MAX_RATIO = 200
# Members found by their local headers (no central directory) past which the walk stops.
_MAX_LOCAL = 100_000
# APPNOTE.TXT 4.3.7: the local file header, 30 bytes before the name and the extra field.
_LOCAL = struct.Struct("<4sHHHHHIIIHH")
_WARC = re.compile(r"archive/[^/]+\.(?:warc|arc)(?:\.gz)?\Z", re.IGNORECASE)
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


# What reads a member's entries, as an input's (containers.iter_entries), passed in: no cycle.
_Members = Callable[[BinaryIO, str], Iterator[Entry]]


def unsafe_name(name: str) -> str | None:
    """Why a member's name is refused (a path that climbs out, an absolute one, a control
    character), or None."""
    if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
        return "an absolute path"
    if ".." in name.replace("\\", "/").split("/"):
        return "'..' in the path"
    if _CONTROLS.search(name):
        return "a control character in the name"
    return None


class _StoredView(io.RawIOBase):
    """A STORED member as a read-only, seekable file over the .wacz: its offsets are the
    member's. The CRC-32 of what is read in order from the start is kept, to check at the end."""

    def __init__(self, file: BinaryIO, info: zipfile.ZipInfo, *, cut: bool = False) -> None:
        """``cut``: a member that runs past the end of the file is read as far as it goes
        (``cut_at`` then says where it ends), not refused."""
        super().__init__()
        file.seek(info.header_offset)
        header = file.read(_LOCAL.size)
        if len(header) < _LOCAL.size or not header.startswith(b"PK\x03\x04"):
            raise zipfile.BadZipFile(f"no local header at byte {info.header_offset}")
        *_, name_length, extra_length = _LOCAL.unpack(header)
        if file.read(name_length) != info.orig_filename.encode(
            "utf-8" if info.flag_bits & 0x800 else "cp437"
        ):  # zipfile checks the same: a central record pointing at another member's data
            raise zipfile.BadZipFile("its local header names another member")
        # the local extra field's length may differ from the central one: the local one counts
        self.file, self.size = file, info.file_size
        self.reader: Any = file  # a binary file: readinto, which typing.BinaryIO does not name
        self.start = info.header_offset + _LOCAL.size + name_length + extra_length
        self.position = self.checked = self.crc = 0
        file.seek(0, io.SEEK_END)
        self.cut_at: int | None = None
        if self.start + self.size > file.tell():
            if not cut:
                raise zipfile.BadZipFile("it runs past the end of the file (cut short?)")
            self.size = self.cut_at = max(0, file.tell() - self.start)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, min(self.size, base + offset))
        return self.position

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        wanted = min(len(buffer), self.size - self.position)
        if wanted <= 0:
            return 0
        self.file.seek(self.start + self.position)
        view = memoryview(buffer)[:wanted]
        got = self.reader.readinto(view) or 0
        if self.position == self.checked:  # read in order: the CRC follows
            self.crc = zlib.crc32(view[:got], self.crc)
            self.checked += got
        self.position += got
        return got

    def whole_and_wrong(self, expected: int) -> bool:
        """Whether the member was read in order to its end and its CRC-32 is not ``expected``."""
        return self.checked == self.size and self.crc != expected


def local_members(stream: BinaryIO) -> list[zipfile.ZipInfo]:
    """The members as their local headers give them, walked from the start of the file, for a
    zip whose central directory is missing or unreadable (zipfile reads none without it).

    APPNOTE.TXT 4.3.6: "local file header 1, file data 1, ... central directory": each header
    gives its member's sizes, so the next header follows the data. Where a header defers its
    sizes to a data descriptor after the data (general purpose bit 3, sizes 0) the data runs
    to the end of the file here, and the walk stops: where it ends is not written before it.
    Written by hand: zipfile has no reader without a central directory."""
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    infos: list[zipfile.ZipInfo] = []
    position = 0
    while position + _LOCAL.size <= size and len(infos) < _MAX_LOCAL:
        stream.seek(position)
        fields = _LOCAL.unpack(stream.read(_LOCAL.size))
        signature, _, flags, method, _, _, crc, packed, unpacked, name_length, extra_length = fields
        if signature != b"PK\x03\x04":
            break  # the central directory (PK\x01\x02), or damage: no member further on
        raw = stream.read(name_length)
        if not raw or len(raw) < name_length:
            break  # no name (zipfile refuses one too), or cut inside it
        info = zipfile.ZipInfo(raw.decode("utf-8" if flags & 0x800 else "cp437", "replace"))
        data = position + _LOCAL.size + name_length + extra_length
        deferred = bool(flags & 0x8) and packed == 0
        found = _descriptor(stream, data, size) if deferred else None
        if found is not None:  # its sizes and CRC after its data, where they say it ends
            packed, crc, following = found
            unpacked = packed if method == zipfile.ZIP_STORED else packed * MAX_RATIO
            flags &= ~0x8  # the CRC is known: checked as a header's would be
        elif deferred:  # to the end of the file (deflate finds its own end)
            packed = following = size - data
            unpacked = packed * (1 if method == zipfile.ZIP_STORED else MAX_RATIO)
        else:
            following = data + packed
        info.flag_bits, info.compress_type, info.CRC = flags, method, crc
        info.compress_size, info.file_size, info.header_offset = packed, unpacked, position
        infos.append(info)
        if deferred and found is None:
            break
        position = following
    return infos


def _descriptor(stream: BinaryIO, data: int, size: int) -> tuple[int, int, int] | None:
    """The data descriptor after a member's data that starts at ``data`` (APPNOTE.TXT 4.3.9:
    ``PK\x07\x08``, CRC-32, compressed size, uncompressed size; zipfile writes the
    signature), found as the first whose compressed size is its distance from ``data``:
    (compressed size, CRC-32, where the next header starts), or None. Read in chunks."""
    chunk, position = 1 << 20, data
    while position < size:
        stream.seek(position)
        window = stream.read(chunk + 24)
        at = window.find(b"PK\x07\x08")
        while 0 <= at < chunk:
            end = position + at
            crc, packed32 = struct.unpack_from("<II", window.ljust(at + 24, b"\0"), at + 4)
            packed64 = struct.unpack_from("<Q", window.ljust(at + 24, b"\0"), at + 8)[0]
            if packed32 == end - data:
                return end - data, crc, end + 16
            if packed64 == end - data:  # ZIP64: sizes of 8 bytes
                return end - data, crc, end + 24
            at = window.find(b"PK\x07\x08", at + 1)
        position += chunk
    return None


class _Inflated(io.RawIOBase):
    """A deflated member read from its local header without zipfile (no central directory):
    its compressed bytes, as far as the file has them, inflated; never more out than the
    header declares (nor than MAX_RATIO times what came in: _refusal checked the declared)."""

    def __init__(self, file: BinaryIO, info: zipfile.ZipInfo) -> None:
        super().__init__()
        file.seek(info.header_offset)
        *_, name_length, extra_length = _LOCAL.unpack(file.read(_LOCAL.size))
        self.file, self.left_in, self.left_out = file, info.compress_size, info.file_size
        self.position = info.header_offset + _LOCAL.size + name_length + extra_length
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        # the CRC-32 to check at the end, unless a data descriptor after the data holds it
        self.expected = None if info.flag_bits & 0x8 else info.CRC
        self.crc = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        wanted = min(len(buffer), self.left_out)
        out = b""
        while not out and wanted > 0 and not self.inflate.eof:
            pending = self.inflate.unconsumed_tail
            if not pending and self.left_in > 0:
                self.file.seek(self.position)
                pending = self.file.read(min(self.left_in, 1 << 16))
                self.position += len(pending)
                self.left_in -= len(pending)
            if not pending:
                raise EOFError("the deflated data ends before its stream does (cut short)")
            out = self.inflate.decompress(pending, wanted)
        buffer[: len(out)] = out
        self.left_out -= len(out)
        self.crc = zlib.crc32(out, self.crc)
        if not out and self.expected is not None and self.crc != self.expected:
            raise zipfile.BadZipFile("its CRC-32 does not match (bytes changed)")
        return len(out)


def _refusal(info: zipfile.ZipInfo, seen: dict[str, int], end: int) -> str | None:
    """Why the member ``info`` is not read, or None."""
    why = unsafe_name(info.filename)
    if why is not None:
        return f"refused: {why}"
    if info.filename in seen:
        return "refused: a second entry of that name"
    if info.header_offset < end:
        return "refused: its data overlaps another member's (a zip bomb?)"
    if info.flag_bits & 0x1:
        return "refused: encrypted"
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        return f"refused: compression method {info.compress_type} (stored or deflated only)"
    ratio = info.file_size / max(info.compress_size, 1)
    if info.compress_type == zipfile.ZIP_DEFLATED and ratio > MAX_RATIO:
        return (
            f"refused: {info.file_size:,} bytes declared from {info.compress_size:,} "
            f"(x{ratio:,.0f}, more than x{MAX_RATIO}): a zip bomb?"
        )
    return None


def iter_wacz(stream: BinaryIO, name: str, members: _Members) -> Iterator[Entry]:
    """The documents of every WARC in the WACZ ``stream`` (seekable), read by ``members``
    (the container reader, for a WARC or a gzip of one), named ``name#member``."""
    if not stream.seekable():
        yield InputError("a WACZ is read from a file (its index is at its end), not a pipe", name)
        return
    archive: zipfile.ZipFile | None
    try:
        archive = zipfile.ZipFile(stream)
        infos = archive.infolist()
    except (zipfile.BadZipFile, zlib.error, ValueError, EOFError, NotImplementedError) as exc:
        archive, infos = None, local_members(stream)
        if not infos:
            yield InputError(f"not a readable zip (a WACZ is one): {exc}", name)
            return
        yield InputError(
            f"no readable central directory ({exc}): {len(infos):,} "
            f"member{'s' if len(infos) != 1 else ''} found "
            "by their local headers, read as far as the file goes (cut short?)",
            name,
        )
    seen: dict[str, int] = {}
    end = 0  # where the data of the members read so far ends, in the file
    for info in sorted(infos, key=lambda each: each.header_offset):
        if info.is_dir() or not (_WARC.match(info.filename) or unsafe_name(info.filename)):
            continue  # indexes, pages, datapackage.json: no links to read
        member = f"{name}#{info.filename}"
        why = _refusal(info, seen, end)
        if why is not None:
            yield InputError(f"zip member {info.filename!r} {why}", name)
            continue
        seen[info.filename] = info.header_offset
        end = info.header_offset + _LOCAL.size + len(info.filename) + info.compress_size
        yield from _member(archive, stream, info, member, members)


def _member(
    archive: zipfile.ZipFile | None,
    stream: BinaryIO,
    info: zipfile.ZipInfo,
    member: str,
    members: _Members,
) -> Iterator[Entry]:
    """One WARC member's entries; its damage an error line naming it, the rest kept.
    ``archive`` None: no central directory, the member as its local header gives it."""
    view: _StoredView | None = None
    try:
        if info.compress_type == zipfile.ZIP_STORED:
            view = _StoredView(stream, info, cut=archive is None)
            opened: Any = io.BufferedReader(view, 1 << 16)
        elif archive is None:
            opened = io.BufferedReader(_Inflated(stream, info), 1 << 16)
        else:
            opened = archive.open(info)
        yield from members(opened, member)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
        # NotImplementedError: zipfile's "zip file version 14.6" for a damaged version field
        yield InputError(f"damaged zip member: {exc}", member)
        return
    if view is not None and view.cut_at is not None:
        yield InputError(
            f"zip member cut short: {view.size:,} of its {info.file_size:,} bytes in the file; "
            "the records before the cut read",
            member,
        )
    elif view is not None and view.whole_and_wrong(info.CRC):
        yield InputError("damaged zip member: its CRC-32 does not match (bytes changed)", member)
