"""gzipmember: a gzip member's header and footer as RFC 1952 §2.3 lays them out, for a WAT's
``Gzip-Metadata`` (warcframes.py reads the members of a .warc.gz with them)."""

from __future__ import annotations

from typing import NamedTuple

from .httpmsg import MAX_HEADER_BYTES
from .resync import Window

__all__ = ["GZIP_MAGIC", "Member", "gzip_header", "signed32"]

GZIP_MAGIC = b"\x1f\x8b"
# RFC 1952 §2.3.1: FLG bits
_FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 2, 4, 8, 16


def signed32(value: int) -> int:
    """An unsigned 32-bit value as Java's ``int`` holds it (a CRC-32 in a WAT is written so:
    ``"Inflated-CRC":"-1357679823"``)."""
    return value - (1 << 32) if value >= 1 << 31 else value


class Member(NamedTuple):
    """One gzip member's header and footer, as RFC 1952 §2.3 lays them out."""

    header_length: int  # the fixed 10 bytes and the optional fields FLG names
    length: int  # the member as stored: header, deflate data, footer (warcio index's length)
    crc: int  # CRC-32 of the inflated data (the footer's CRC32), signed as Java's int
    inflated_length: int  # the footer's ISIZE: the inflated length modulo 2**32
    filename: str | None = None  # FNAME
    comment_length: int | None = None  # FCOMMENT's length
    header_crc: int | None = None  # FHCRC
    extra: tuple[tuple[str, str], ...] = ()  # FEXTRA subfields: (SI1 SI2, value as hex)


def gzip_header(window: Window) -> Member:
    """The gzip member header at the window's position (RFC 1952 §2.3.1), the window left at
    its deflate data; a member whose ``length``, ``crc`` and ``inflated_length`` are not yet
    known (0)."""
    fixed = window.read(10)
    if len(fixed) < 10 or not fixed.startswith(GZIP_MAGIC) or fixed[2] != 8:
        raise ValueError("no gzip member starts here")
    flags = fixed[3]
    length = 10
    extra: list[tuple[str, str]] = []
    if flags & _FEXTRA:
        size = int.from_bytes(window.read(2), "little")
        field = window.read(size)
        length += 2 + size
        while len(field) >= 4:  # subfields: SI1 SI2, LEN (two bytes), the data
            part = int.from_bytes(field[2:4], "little")
            extra.append((field[:2].decode("latin-1"), field[4 : 4 + part].hex()))
            field = field[4 + part :]
    names: list[bytes] = []
    for bit in (_FNAME, _FCOMMENT):
        if flags & bit:
            text = b""
            while (byte := window.read(1)) not in (b"\0", b""):
                text += byte
                if len(text) > MAX_HEADER_BYTES:
                    raise ValueError("gzip header name without its end")
            length += len(text) + 1
            names.append(text)
        else:
            names.append(b"")
    header_crc = None
    if flags & _FHCRC:
        header_crc = int.from_bytes(window.read(2), "little")
        length += 2
    return Member(
        length,
        0,
        0,
        0,
        names[0].decode("latin-1") if flags & _FNAME else None,
        len(names[1]) if flags & _FCOMMENT else None,
        header_crc,
        tuple(extra),
    )
