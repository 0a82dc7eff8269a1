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

    no central directory, one zipfile refuses, or  "no readable central directory": the members
      one not its own (cut after a zip stored in   found again by their local headers, from the
      a WARC: that zip's)                          start (ziplocal.py), and read as far as the
                                                   file goes (a cut WARC's records before the cut
                                                   kept, stored or deflated)
    not a zip at all                               "not a readable zip"; nothing read
    a zip where a WARC belongs                     not read: no WACZ inside a WACZ
    a stored member whose two sizes differ         refused (sizes that lie)
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
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from ...errors import InputError
from .entries import Entry
from .ziplocal import LOCAL, Inflated, LocalWalk, local_members

__all__ = ["MAX_RATIO", "iter_wacz", "unsafe_name"]

# A deflated member declaring more than this many times its compressed size is refused.
MAX_RATIO = 200
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
        header = file.read(LOCAL.size)
        if len(header) < LOCAL.size or not header.startswith(b"PK\x03\x04"):
            raise zipfile.BadZipFile(f"no local header at byte {info.header_offset}")
        *_, name_length, extra_length = LOCAL.unpack(header)
        if file.read(name_length) != info.orig_filename.encode(
            "utf-8" if info.flag_bits & 0x800 else "cp437"
        ):  # zipfile checks the same: a central record pointing at another member's data
            raise zipfile.BadZipFile("its local header names another member")
        # the local extra field's length may differ from the central one: the local one counts
        self.file, self.size = file, info.file_size
        self.reader: Any = file  # a binary file: readinto, which typing.BinaryIO does not name
        self.start = info.header_offset + LOCAL.size + name_length + extra_length
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


def _refusal(info: zipfile.ZipInfo, seen: dict[str, int], end: int) -> str | None:
    """Why the member ``info`` is not read, or None."""
    why = unsafe_name(info.orig_filename)
    if why is not None:
        return f"refused: {why}"
    if info.filename in seen:
        return "refused: a second entry of that name"
    if info.header_offset < end:
        return "refused: its data overlaps another member's (a zip bomb?)"
    if info.flag_bits & 0x1:
        return "refused: encrypted"
    if info.compress_type == zipfile.ZIP_STORED and info.file_size != info.compress_size:
        return (
            f"refused: stored, but {info.file_size:,} bytes declared from "
            f"{info.compress_size:,} (sizes that lie)"
        )
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
    archive, walk, why = _directory(stream)
    if archive is None:
        if not walk.members:
            yield InputError(f"not a readable zip (a WACZ is one): {why}", name)
            return
        found = len(walk.members)
        yield InputError(
            f"no readable central directory ({why}): {found:,} member{'s' if found != 1 else ''}"
            " found by their local headers, read as far as the file goes (cut short?)",
            name,
        )
    seen: dict[str, int] = {}
    end = 0  # where the data of the members read so far ends, in the file
    for info in sorted(walk.members, key=lambda each: each.header_offset):
        # the name as stored: zipfile's ``filename`` ends at a NUL, and "archive/a\0.warc.gz"
        # was "archive/a", no WARC's name: skipped without a word, its links lost (issue 36)
        written = info.orig_filename
        if info.is_dir() or not (_WARC.match(written) or unsafe_name(written)):
            continue  # indexes, pages, datapackage.json: no links to read
        member = f"{name}#{info.filename}"
        refused = _refusal(info, seen, end)
        if refused is not None:
            yield InputError(f"zip member {written!r} {refused}", name)
            continue
        seen[info.filename] = info.header_offset
        end = info.header_offset + LOCAL.size + len(info.filename) + info.compress_size
        yield from _member(archive, stream, info, member, members)
    if walk.stopped is not None:
        yield InputError(f"the zip's local headers stop: {walk.stopped}; nothing after read", name)


def _directory(stream: BinaryIO) -> tuple[zipfile.ZipFile | None, LocalWalk, str | None]:
    """zipfile and its list of the members; or, where it reads none, or one that is not this
    zip's (cut short after a zip stored in a WARC, zipfile finds that zip's directory), None and
    the members by their local headers (ziplocal.py), with why."""
    try:
        archive = zipfile.ZipFile(stream)
        listed = archive.infolist()
    except (zipfile.BadZipFile, zlib.error, ValueError, EOFError, NotImplementedError) as exc:
        return None, local_members(stream, MAX_RATIO), str(exc)
    stream.seek(0)
    if stream.read(4) == b"PK\x03\x04" and all(info.header_offset != 0 for info in listed):
        why = "the one at its end lists no member at its start: another zip's, stored inside it"
        return None, local_members(stream, MAX_RATIO), why
    return archive, LocalWalk(listed, None), None


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
    inflated: Inflated | None = None
    try:
        if info.compress_type == zipfile.ZIP_STORED:
            view = _StoredView(stream, info, cut=archive is None)
            opened: Any = io.BufferedReader(view, 1 << 16)
        elif archive is None:
            inflated = Inflated(stream, info)
            opened = io.BufferedReader(inflated, 1 << 16)
        else:
            opened = archive.open(info)
        yield from members(opened, member)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
        # NotImplementedError: zipfile's "zip file version 14.6" for a damaged version field
        yield InputError(f"damaged zip member: {exc}", member)
        return
    if archive is None and info.flag_bits & 0x8:  # ziplocal: no descriptor found, no CRC
        yield InputError(
            "zip member runs to the end of the file: its sizes come after its data and no data "
            "descriptor was found (cut short?); the records before the end read",
            member,
        )
    elif inflated is not None and inflated.cut:
        yield InputError(
            f"zip member cut short: the file ends inside its deflated data ({inflated.out:,} "
            "bytes inflated); the records before the cut read",
            member,
        )
    elif view is not None and view.cut_at is not None:
        yield InputError(
            f"zip member cut short: {view.size:,} of its {info.file_size:,} bytes in the file; "
            "the records before the cut read",
            member,
        )
    elif view is not None and view.whole_and_wrong(info.CRC):
        yield InputError("damaged zip member: its CRC-32 does not match (bytes changed)", member)
