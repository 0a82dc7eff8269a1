"""ziplocal: a zip's members found by their local headers, for a zip whose central directory is
missing or not its own (a download cut short): zipfile reads no member without it.

APPNOTE.TXT 4.3.6: "local file header 1, [encryption header 1], file data 1, [data descriptor 1],
... central directory". Each local header gives its member's sizes (4.3.7), in a ZIP64 extra
field where they do not fit 32 bits (4.5.3); where general purpose bit 3 is set the sizes and
CRC-32 may be written after the data instead, in a data descriptor (4.3.9), whose signature
``PK\\x07\\x08`` is optional. Written by hand: no library of the standard or the field reads a
zip this way (zipfile, stream-unzip and libarchive's seekable reader all need the directory or
read no WARC in place).

What the walk cannot know is said, never guessed silently: a member whose sizes come after its
data with no descriptor found runs to the end of the file (``LocalMember.open_ended``), and a
walk that stops on anything but the central directory or the end of the file says where.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import BinaryIO, NamedTuple

__all__ = ["LOCAL", "Inflated", "LocalWalk", "local_members"]

# APPNOTE.TXT 4.3.7: the local file header, 30 bytes before the name and the extra field.
LOCAL = struct.Struct("<4sHHHHHIIIHH")
_SIGNATURES = (b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06", b"PK\x06\x06")
# Members found by their local headers past which the walk stops (and says so).
MAX_LOCAL = 100_000
_ZIP64 = 0xFFFFFFFF


class LocalWalk(NamedTuple):
    """The members found, in file order (``ZipInfo`` with the local header's facts;
    ``flag_bits`` keeps bit 3 only where its sizes were not found: the member runs to the end of
    the file), and why the walk stopped short of the central directory, or None."""

    members: list[zipfile.ZipInfo]
    stopped: str | None


def local_members(stream: BinaryIO, deflated_ratio: int) -> LocalWalk:
    """Walk the local headers from the start of ``stream`` (seekable). A deflated member whose
    sizes come after its data, with no descriptor found, is given ``deflated_ratio`` times its
    compressed bytes at most."""
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    members: list[zipfile.ZipInfo] = []
    position = 0
    while position + LOCAL.size <= size:
        if len(members) >= MAX_LOCAL:
            return LocalWalk(members, f"more than {MAX_LOCAL:,} members: the rest not looked for")
        stream.seek(position)
        fields = LOCAL.unpack(stream.read(LOCAL.size))
        signature, _, flags, method, _, _, crc, packed, unpacked, name_length, extra_length = fields
        if signature != b"PK\x03\x04":
            if signature in _SIGNATURES:
                return LocalWalk(members, None)  # the central directory: all found
            return LocalWalk(members, f"no local header at byte {position:,} (damage?)")
        raw, extra = stream.read(name_length), stream.read(extra_length)
        data = position + LOCAL.size + name_length + extra_length
        if data > size:
            return LocalWalk(members, f"the local header at byte {position:,} is cut short")
        if _ZIP64 in (packed, unpacked):
            unpacked, packed = _zip64_sizes(extra, unpacked, packed)
        following = data + packed
        if flags & 0x8 and packed == 0:  # the sizes come after the data
            found = _descriptor(stream, data, size)
            if found is None:  # to the end of the file (deflate finds its own end)
                packed = following = size - data
                unpacked = packed * (1 if method == zipfile.ZIP_STORED else deflated_ratio)
            else:
                packed, crc, unpacked, following = found
                flags &= ~0x8  # the CRC is known: checked as a header's would be
        elif flags & 0x8:  # sizes in the header too: a descriptor may follow the data
            following = _after_descriptor(stream, following, size)
            flags &= ~0x8
        if name_length:  # a member without a name is passed over (zipfile refuses one too)
            info = zipfile.ZipInfo(raw.decode("utf-8" if flags & 0x800 else "cp437", "replace"))
            info.flag_bits, info.compress_type, info.CRC = flags, method, crc
            info.compress_size, info.file_size, info.header_offset = packed, unpacked, position
            members.append(info)
        if flags & 0x8:
            return LocalWalk(members, None)  # it runs to the end of the file: nothing after
        position = following
    return LocalWalk(members, None)


def _zip64_sizes(extra: bytes, unpacked: int, packed: int) -> tuple[int, int]:
    """The ZIP64 extended information extra field's sizes (APPNOTE.TXT 4.5.3: in a local
    header both are there, the original size first), else the header's own."""
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, at)
        if kind == 0x0001 and length >= 16 and at + 20 <= len(extra):
            return struct.unpack_from("<QQ", extra, at + 4)
        at += 4 + length
    return unpacked, packed


def _descriptor(stream: BinaryIO, data: int, size: int) -> tuple[int, int, int, int] | None:
    """The data descriptor after the data that starts at ``data``: the first ``PK\\x07\\x08``
    whose compressed size is its distance from ``data`` (32-bit sizes, or ZIP64's 64-bit), as
    (compressed size, CRC-32, uncompressed size, where the next header starts), or None.
    Read in windows that double from 1 KiB (a short member costs a short read)."""
    window_size, position = 1 << 10, data
    while position < size:
        stream.seek(position)
        window = stream.read(window_size + 24).ljust(window_size + 24, b"\0")
        at = window.find(b"PK\x07\x08")
        while 0 <= at < window_size:
            end = position + at
            crc, packed32, unpacked32 = struct.unpack_from("<III", window, at + 4)
            packed64, unpacked64 = struct.unpack_from("<QQ", window, at + 8)
            if packed64 == end - data and _header_at(stream, end + 24, size):
                return end - data, crc, unpacked64, end + 24
            if packed32 == end - data:
                return end - data, crc, unpacked32, end + 16
            at = window.find(b"PK\x07\x08", at + 1)
        position += window_size
        window_size = min(window_size * 2, 1 << 20)
    return None


def _after_descriptor(stream: BinaryIO, end: int, size: int) -> int:
    """Where the next header starts after a member's data ending at ``end`` whose header set
    bit 3 with its sizes given: past its descriptor (16 or 24 bytes with the signature, 12 or 20
    without), wherever a header or the end of the file follows; else ``end``."""
    for length in (0, 16, 24, 12, 20):
        if _header_at(stream, end + length, size):
            return end + length
    return end


def _header_at(stream: BinaryIO, position: int, size: int) -> bool:
    if position == size:
        return True
    stream.seek(position)
    return stream.read(4) in _SIGNATURES


class Inflated(io.RawIOBase):
    """A deflated member read from its local header without zipfile: its compressed bytes, as
    far as the file has them, inflated; never more out than ``info.file_size``. Where the file
    ends before the deflate stream does, what came out is kept and ``cut`` says so; the CRC-32
    is checked at the stream's end where the header gave it."""

    def __init__(self, file: BinaryIO, info: zipfile.ZipInfo) -> None:
        super().__init__()
        file.seek(info.header_offset)
        *_, name_length, extra_length = LOCAL.unpack(file.read(LOCAL.size))
        self.file, self.left_in, self.left_out = file, info.compress_size, info.file_size
        self.position = info.header_offset + LOCAL.size + name_length + extra_length
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        self.expected = None if info.flag_bits & 0x8 else info.CRC
        self.crc, self.cut, self.out = 0, False, 0

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
                self.cut = True  # the file ends inside the deflate stream: what came out is kept
                return 0
            out = self.inflate.decompress(pending, wanted)
        buffer[: len(out)] = out
        self.left_out -= len(out)
        self.out += len(out)
        self.crc = zlib.crc32(out, self.crc)
        if not out and self.inflate.eof and self.expected not in (None, self.crc):
            raise zipfile.BadZipFile("its CRC-32 does not match (bytes changed)")
        return len(out)
