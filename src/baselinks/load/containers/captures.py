"""captures: what an archive captured, record by record, for a coverage scan (coverage/).

    WARC / ARC / .warc.gz / WACZ ──warc.iter_records(read=record_captures)──► Capture per record

A :class:`Capture` is what a replay tool's index keeps of a record (pywb's and cdxj-indexer's
CDXJ line: URL, date, status, media type, payload digest; the record's file and offset), and
two things more that coverage needs and a CDXJ line lacks: a redirect's ``Location`` (to
follow a chain through the archive) and, for an HTML page, the page itself (decoded, to find the
ids its fragments point to). A revisit record's own headers are read here (its status, its
``WARC-Refers-To-Target-URI`` and ``-Date``), not what extraction makes of it.

The records are read by warc.py's reader (:func:`.warc.iter_records` with this module's
:func:`record_captures` in place of warcrecord's ``record_entries``), so that a scan sees
exactly the records extraction sees, damage found and read past the same way. What a scan
meets of damage is not said here: the extraction of the same inputs says it, once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO, NamedTuple

from ...errors import InputError
from .doctypes import DocType, document_type
from .entries import Part
from .httpmsg import MAX_DECODED_BYTES, header, media_type, parse_response, response_part
from .sniff import HEAD_BYTES, Kind, sniff
from .warcrecord import target_uri

__all__ = ["CAPTURE_RECORDS", "Capture", "is_archive", "iter_captures", "record_captures"]

# The records that capture a URL (as cdxj-indexer indexes them, less metadata): a response, a
# revisit of one, a resource (a file fetched without HTTP, a browser's screenshot).
CAPTURE_RECORDS = ("response", "revisit", "resource")

# What is read of a record before deciding whether its body is kept: its HTTP head.
_HEAD_BYTES = 64 << 10


class Capture(NamedTuple):
    """One record that captured a URL: what a CDXJ line says of it, and a redirect's
    ``location`` (as written) and an HTML page's ``page`` (its decoded body, for its ids).

    ``status``: the HTTP status (None: a resource record, or no HTTP head); ``mime``: the
    Content-Type's essence (a revisit's: its own head's, else None); ``digest``: the
    ``WARC-Payload-Digest`` as written; ``refers_to`` and ``refers_date``: a revisit's
    ``WARC-Refers-To-Target-URI`` and ``WARC-Refers-To-Date``."""

    url: str
    date: str | None
    record: str
    status: int | None = None
    location: str | None = None
    mime: str | None = None
    digest: str | None = None
    refers_to: str | None = None
    refers_date: str | None = None
    file: str | None = None
    offset: int | None = None
    page: Part | None = None


def _header(record: Any, name: str) -> str | None:
    value = record.rec_headers.get_header(name)
    return None if value is None else (str(value).strip().strip("<>") or None)


def _drain(stream: Any) -> None:
    while stream.read(65536):
        pass


def record_captures(record: Any, name: str, offset: int) -> Iterator[Capture]:
    """The capture one record makes (none for a request, metadata, warcinfo... record, or a
    record with no target URI). Never an error: a head that is no HTTP head is a capture
    without a status, and damage is extraction's to say."""
    rec_type = record.rec_type or ""
    target = target_uri(record)
    if rec_type not in CAPTURE_RECORDS or not target:
        _drain(record.raw_stream)
        return
    head = record.raw_stream.read(_HEAD_BYTES)
    status: int | None = None
    headers: tuple[tuple[str, str], ...] = ()
    page = None
    if rec_type != "resource" and head.lstrip()[:5] == b"HTTP/":
        try:
            response = parse_response(head, with_body=False)
            status, headers = response.status, response.headers
        except InputError:  # a head longer than the peek: read with the body below
            pass
    mime = media_type(headers)[0] or None
    if rec_type == "resource":
        mime = media_type([("Content-Type", record.content_type or "")])[0] or None
    # an HTML page (or one whose head did not say: read to be told) that was served: its ids
    served = status is None or 200 <= status < 300
    if rec_type != "revisit" and served and (mime is None or mime in _HTML):
        page, status, headers = _page(record, rec_type, head, name, target, status, headers)
        mime = mime or (media_type(headers)[0] or None)
    else:
        _drain(record.raw_stream)
    yield Capture(
        target,
        _header(record, "WARC-Date"),
        rec_type,
        status,
        header(headers, "location"),
        mime,
        _header(record, "WARC-Payload-Digest"),
        _header(record, "WARC-Refers-To-Target-URI"),
        _header(record, "WARC-Refers-To-Date"),
        name.removesuffix(f"#{target}"),  # record_name's: the file, "#", the target
        offset,
        page,
    )


_HTML = ("text/html", "application/xhtml+xml")


def _page(
    record: Any,
    rec_type: str,
    head: bytes,
    name: str,
    target: str,
    status: int | None,
    headers: tuple[tuple[str, str], ...],
) -> tuple[Part | None, int | None, tuple[tuple[str, str], ...]]:
    """The HTML page a response or resource record holds, decoded (bounded as extraction
    bounds a record), and its status and headers when the head was longer than the peek."""
    block = head + record.raw_stream.read(MAX_DECODED_BYTES + 1 - len(head))
    _drain(record.raw_stream)
    if len(block) > MAX_DECODED_BYTES:
        return None, status, headers
    try:
        if rec_type == "resource":
            essence, charset = media_type([("Content-Type", record.content_type or "")])
            if document_type(essence, block, target) is DocType.HTML:
                return Part(name, block, charset, target), status, headers
            return None, status, headers
        response = parse_response(block)
        part, _ = response_part(response, name, target)
    except InputError:
        return None, status, headers
    if isinstance(part, Part) and part.body is not None and part.doctype is DocType.HTML:
        return part, response.status, response.headers
    return None, response.status, response.headers


def is_archive(head: bytes, name: str) -> bool:
    """Whether an input whose first bytes are ``head`` is an archive: WARC, ARC (gzipped or
    not) or WACZ; anything else is a mirrored site's file."""
    kind = sniff(head, name)
    if kind is Kind.GZIP:
        import zlib

        try:
            inner = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, HEAD_BYTES)
        except zlib.error:
            return name.lower().endswith((".warc.gz", ".arc.gz"))
        return sniff(inner, name.removesuffix(".gz")) in (Kind.WARC, Kind.ARC)
    return kind in (Kind.WARC, Kind.ARC, Kind.WACZ)


def iter_captures(stream: BinaryIO, name: str) -> Iterator[Capture]:
    """Every capture of the archive ``stream`` (WARC, ARC, gzipped, WACZ), in its order; each
    WACZ member's named ``name#member``. What is no capture (damage included) is left out."""
    from .warc import iter_records  # warcio: loaded by the runs that read an archive

    position = stream.tell() if stream.seekable() else None
    head = stream.read(HEAD_BYTES)
    if position is not None:
        stream.seek(position)
    if sniff(head, name) is Kind.WACZ:
        from .wacz import iter_wacz

        def member(opened: BinaryIO, label: str) -> Iterator[Any]:
            return iter_records(opened, label, read=record_captures)

        found: Iterator[Any] = iter_wacz(stream, name, member)
    else:
        found = iter_records(stream, name, read=record_captures)
    for entry in found:
        if isinstance(entry, Capture):
            yield entry
