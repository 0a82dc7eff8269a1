"""originals: a crawl's records read for what names them, and one record read again by its
offset: what finding a ``revisit`` record's original takes (run/revisits.py does the finding).

    record_keys(stream, file)      each record's offset, type, and the headers that name it or
                                   its original (WARC-Record-ID, WARC-Target-URI, WARC-Date,
                                   WARC-Payload-Digest; a revisit's WARC-Refers-To...), its
                                   block passed over unread (warcframes.py, no digest made);
                                   a WACZ's WARC members too, each by its own name
    record_at(stream, file, offset)  the entries of the record at ``offset`` (warcio's reader,
                                   as warc.py reads it): the original's page, its Origin

Offsets are those warc.py gives a record's documents (warcio index's): a revisit is found by
the file and offset its document carries. A record whose offset is not known (after the first
in a gzip member that holds many) names no original and is none.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, BinaryIO, NamedTuple, cast

from ...errors import InputError
from .entries import Entry, Part
from .resync import Window, archive_inside
from .sniff import HEAD_BYTES, Kind, by_name, sniff
from .wacz import iter_wacz
from .warcframes import frames
from .warcreader import READ_ERRORS, Records
from .warcrecord import origin, record_entries, record_name

__all__ = ["KEY_HEADERS", "Keyed", "archive_kind", "record_at", "record_keys"]

# The headers that name a record or its original.
KEY_HEADERS = frozenset(
    name.lower()
    for name in (
        "WARC-Type",
        "WARC-Record-ID",
        "WARC-Target-URI",
        "WARC-Date",
        "WARC-Payload-Digest",
        "WARC-Refers-To",
        "WARC-Refers-To-Target-URI",
        "WARC-Refers-To-Date",
        "WARC-Profile",
    )
)


class Keyed(NamedTuple):
    """A record's place and the headers that name it: ``file`` as its documents name it
    (``crawl.wacz#archive/data.warc.gz`` for a WACZ member), its offset there, its type."""

    file: str
    offset: int
    rec_type: str
    headers: dict[str, str]  # lower-case names of KEY_HEADERS, values stripped


def archive_kind(head: bytes, name: str = "") -> str | None:
    """``"wacz"``, ``"warc"`` (a WARC or ARC file, gzipped or not) or None (no archive), by
    an input's first bytes: a gzip's by the first bytes it inflates to."""
    kind = sniff(head, name)
    if kind is Kind.WACZ:
        return "wacz"
    if kind is Kind.GZIP:
        try:
            inflated = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            inflated = b""
        kind = sniff(inflated)
        if kind not in (Kind.WARC, Kind.ARC) and (
            archive_inside(head) == "gzip" or by_name(name) in (Kind.WARC, Kind.ARC)
        ):
            # its first member damaged: a record starts in a later one (the reader says what
            # it skips), or a .warc.gz by its name
            return "warc"
    return "warc" if kind in (Kind.WARC, Kind.ARC) else None


def record_keys(stream: BinaryIO, file: str) -> Iterator[Keyed]:
    """Each record of the WARC, ARC or WACZ ``stream`` with its naming headers; damage
    passed over (the extraction reports it), what is around it read. Nothing of an input
    that is no archive (an HTML file is not scanned for records)."""
    kind = archive_kind(_peek(stream), file)
    if kind == "wacz":
        members = cast(Any, _member_keys)
        for item in iter_wacz(stream, file, members):
            if isinstance(item, Keyed):
                yield item
    elif kind == "warc":
        yield from _member_keys(stream, file)


def _member_keys(stream: BinaryIO, file: str) -> Iterator[Keyed]:
    for record in frames(stream, file, digests=False):
        if isinstance(record, InputError) or record.offset is None:
            continue
        headers = {
            name.lower(): value.strip()
            for name, value in record.rec_headers.headers
            if name.lower() in KEY_HEADERS
        }
        yield Keyed(file, record.offset, record.rec_type.lower(), headers)


def _peek(stream: BinaryIO) -> bytes:
    if not stream.seekable():
        return b""
    position = stream.tell()
    head = stream.read(HEAD_BYTES)
    stream.seek(position)
    return head


def record_at(stream: BinaryIO, file: str, offset: int, member: str | None = None) -> list[Entry]:
    """The entries of the one record at ``offset`` of ``stream`` (seekable), named as the
    extraction names them (``file``); in a WACZ, of its ``member``. Their Part given its
    Origin (its offset; no length: it is not needed)."""
    if member is not None:
        found: list[Entry] = []

        def members(inner: BinaryIO, name: str) -> Iterator[Entry]:
            if name == member:
                found.extend(record_at(inner, name, offset))
            return iter(())

        for error in iter_wacz(stream, file, members):
            if isinstance(error, InputError) and error.name == member:
                found.append(error)
        return found
    stream.seek(offset)
    window = Window(stream)
    gzipped = window.read(2) == b"\x1f\x8b"
    window.rewind(offset)
    try:
        record = next(iter(Records(window, warc=False, gzipped=gzipped)))
        name = record_name(record, file, offset)
        entries = list(record_entries(record, name, offset))
    except (*READ_ERRORS, StopIteration) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        return [InputError(f"cannot read the record: {message}", file, offset)]
    placed = origin(record, file, offset, None)
    return [replace(one, origin=placed) if isinstance(one, Part) else one for one in entries]
