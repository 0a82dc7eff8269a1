"""One WARC or ARC record, as warcio reads it → its entries (warc.py reads the records).

    response record   its HTTP response: a Part (response_part), or Skipped by its media type
    resource record   its block: a Part by its Content-Type (doctypes.py), or Skipped
    revisit record    a Part without a body, what names its original in ``revisit`` (its
                      payload is the original's: run/revisits.py finds it in the inputs)
    any other type    Skipped (``request record``, ``warcinfo record``...)

What a record lacks is said by name and offset: a block shorter than its ``Content-Length``
(cut short), a ``Content-Length`` that is no number, a block over :data:`MAX_RECORD_BYTES`.
A record that holds no page is drained in bounded memory, never held. Each document's
:class:`~.entries.Origin` comes from the record's headers (:func:`origin`).

**The oversize rule** (issue 36; every reader of records follows it, the careful one in
warc.py and any faster one beside it): a record whose ``Content-Length`` is over
:data:`MAX_RECORD_BYTES` (:func:`oversize`) is not inflated past its first :data:`HEAD_BYTES`,
the head that tells what it holds. One that may hold a document is an error, ``record larger
than N bytes: not read``; one that holds none is skipped, as a smaller one is. The reading
then goes on after it without reading its block: in a ``.warc.gz``, at the next gzip member
that starts a record (resync.next_record, found in the compressed bytes: nothing of the
record's member is inflated); in an uncompressed file, past its block by its length; in a
gzip that is one stream for many records, where nothing can be passed over without inflating
it, the reading ends there, said. And no gzip member is inflated past
:data:`MAX_MEMBER_BYTES` (a record's header block and block at their limits), whatever its
header claims: past it, the member is damage, and the reading goes on at the next member that
starts a record. Before: a 12 GiB record was refused but inflated to its end to find the next
(in gzip inside gzip, 20 KB of file: 20 s of CPU; 300 KB: five minutes).

:class:`WrongLengths` says the records that warcio found not followed by their empty lines (a
wrong ``Content-Length``), once each. warcio is not imported here: a record is what its
iterator yields, read by attribute.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import InputError
from .doctypes import by_body, document_type, may_be_document
from .entries import Entry, Origin, Part, Revisit, Skipped
from .httpmsg import (
    MAX_DECODED_BYTES,
    MAX_HEADER_BYTES,
    media_type,
    parse_response,
    response_part,
)

__all__ = [
    "HEAD_BYTES",
    "MAX_MEMBER_BYTES",
    "MAX_RECORD_BYTES",
    "WrongLengths",
    "is_cut",
    "is_unframed",
    "origin",
    "oversize",
    "record_entries",
    "record_name",
    "revisit_part",
    "target_uri",
]

# A record block larger than this is not read into memory; the record is reported and skipped
# (the oversize rule, above).
MAX_RECORD_BYTES = MAX_DECODED_BYTES
# What of a record is read before deciding whether to keep its block: the HTTP head (status line
# and headers) of nearly every response fits. An oversize record is read no further.
HEAD_BYTES = 64 << 10
# No gzip member of a .warc.gz is inflated past this: a record's header block and its block at
# their limits, and the empty lines after it (the oversize rule, above).
MAX_MEMBER_BYTES = MAX_HEADER_BYTES + MAX_RECORD_BYTES + HEAD_BYTES


def oversize(record: Any) -> bool:
    """Whether ``record``'s ``Content-Length`` is over :data:`MAX_RECORD_BYTES`: its block is
    not read, and the reading goes on after it without reading it (the oversize rule)."""
    length = str(record.rec_headers.get_header("Content-Length") or "").strip()
    return length.isdigit() and int(length) > MAX_RECORD_BYTES


def target_uri(record: Any) -> str:
    """The record's ``WARC-Target-URI`` (RFC 1808 §3.3: its retrieval URL), or ``""``."""
    target = record.rec_headers.get_header("WARC-Target-URI") or ""
    return str(target).strip().strip("<>")  # WARC 1.0's grammar had angle brackets


def _drain(stream: Any) -> int:
    """Read a block that is not kept (a request, a revisit): its size, in bounded memory."""
    size = 0
    while chunk := stream.read(65536):
        size += len(chunk)
    return size


def record_name(record: Any, file: str, offset: int) -> str:
    """What the `document` field and errors call a record: its target URI, else its offset."""
    target = target_uri(record)
    return f"{file}#{target}" if target else f"{file}@{offset}"


def _header(record: Any, name: str) -> str | None:
    """A WARC header's value, stripped; None when it is absent or empty."""
    value = record.rec_headers.get_header(name)
    return None if value is None else (str(value).strip() or None)


def origin(record: Any, file: str, offset: int | None, length: int | None) -> Origin:
    """Where the record is stored. An ARC record has no ID (warc.py's ``_ArcHeaders``), and its
    archive-date is the WARC-Date warcio wrote from it (``20080430204825`` as
    ``2008-04-30T20:48:25Z``)."""
    record_id = _header(record, "WARC-Record-ID")
    return Origin(file, offset, length, record_id, _header(record, "WARC-Date"))


def record_entries(record: Any, name: str, offset: int) -> Iterator[Entry]:
    """What the record ``name`` (:func:`record_name`) at ``offset`` holds: its page, or why it
    holds none; then what it lacks (cut short, no valid length), by name and offset."""
    target = target_uri(record)
    rec_type = record.rec_type or "untyped"
    # None when the header ends before its Content-Length (or in the middle of its value)
    length_field = str(record.rec_headers.get_header("Content-Length") or "").strip()
    declared = record.length if length_field.isdigit() else None
    if oversize(record):
        yield _oversize(record, rec_type, name, target, offset)
        return
    if rec_type == "revisit":
        head = record.raw_stream.read(HEAD_BYTES)
        size = len(head) + _drain(record.raw_stream)
        if declared is not None and size >= declared:
            yield revisit_part(record, head, name, target)
    elif rec_type not in ("response", "resource"):
        size = _drain(record.raw_stream)
        if declared is not None and size >= declared:
            yield Skipped(name, f"{rec_type} record")
    else:
        head = record.raw_stream.read(HEAD_BYTES)
        skipped = _not_html(record, rec_type, head, name, target)
        if skipped is not None:
            # Only the head was needed: the body is drained, never held (a 200 MB video
            # record costs 64 KiB of memory, not 200 MB).
            size = len(head) + _drain(record.raw_stream)
            if declared is not None and size >= declared:
                yield skipped
        else:
            block = head + record.raw_stream.read(MAX_RECORD_BYTES + 1 - len(head))
            size = len(block)
            if size > MAX_RECORD_BYTES:
                yield InputError(
                    f"record larger than {MAX_RECORD_BYTES} bytes: not read", name, offset
                )
                return
            try:
                for entry in _page(record, rec_type, block, name, target):
                    if isinstance(entry, InputError) and entry.offset is None:
                        entry = type(entry)(entry.message, name, offset)  # a body's damage
                    yield entry
            except InputError as exc:
                if declared is not None and size >= declared:
                    # what is left of a cut record need not parse: then the cut is the error
                    yield InputError(exc.message, name, offset)
    if declared is None:
        yield InputError(
            f"record with an invalid length {length_field!r}"
            if length_field
            else "record cut short inside its header, before Content-Length (file truncated?)",
            name,
            offset,
        )
    elif size < declared:
        yield InputError(
            f"record cut short: {size} of its {declared} bytes (file truncated?)", name, offset
        )


def _oversize(record: Any, rec_type: str, name: str, target: str, offset: int) -> Entry:
    """What an oversize record is (the oversize rule): skipped when its head says it holds no
    document (its header links kept), else an error; its block read no further than its head."""
    if rec_type not in ("response", "resource"):
        return Skipped(name, f"{rec_type} record")
    known = _not_html(record, rec_type, record.raw_stream.read(HEAD_BYTES), name, target)
    if known is not None:
        return known
    return InputError(f"record larger than {MAX_RECORD_BYTES} bytes: not read", name, offset)


def _not_html(record: Any, rec_type: str, head: bytes, name: str, target: str) -> Entry | None:
    """The entry for a record that holds no HTML, decided from its first bytes; else None.

    The same decisions as :func:`_page` (and ``response_part``) where they need no body: a
    media type that is neither HTML nor unknown (unknown types are sniffed, from the body).
    """
    if rec_type == "response":
        if head.lstrip()[:5] != b"HTTP/" or (b"\r\n\r\n" not in head and b"\n\n" not in head):
            return None  # no status line, or a head longer than the peek: read it all
        try:
            response = parse_response(head, with_body=False)
        except InputError:
            return None
        essence, _ = media_type(response.headers)
        if may_be_document(essence, target) and not _told_by_start(
            essence, response.headers, head, target
        ):
            return None
        # a bodiless Part when the headers carry links, else Skipped
        return response_part(response, name, target or None)[0]
    kind, _ = media_type([("Content-Type", record.content_type or "")])
    if may_be_document(kind, target) and not _told_by_start(kind, (), head, target, block=True):
        return None
    return Skipped(name, f"not HTML ({kind})")


_CODED = ("content-encoding", "transfer-encoding")


def _told_by_start(
    essence: str,
    headers: tuple[tuple[str, str], ...],
    head: bytes,
    target: str,
    block: bool = False,
) -> bool:
    """Whether a body whose type leaves it to its content (XML, gzip: doctypes.by_body) is no
    document, by its first bytes (in ``head``, after the HTTP head unless ``block``): an XML API
    answer, a .tar.gz download are skipped after 64 KiB, as any other record that is no
    document. A body under a content or transfer coding is read whole to be told."""
    if not by_body(essence) or any(key.lower() in _CODED for key, _ in headers):
        return False
    start = head if block else parse_response(head).body
    return document_type(essence, start, target or None) is None


def _page(record: Any, rec_type: str, block: bytes, name: str, target: str) -> list[Entry]:
    """The document a response or resource record holds, or why it holds none; and the
    error when its body did not decode whole."""
    if rec_type == "response":
        if block.lstrip()[:5] == b"HTTP/":
            part, damage = response_part(parse_response(block), name, target or None)
            return [part] if damage is None else [part, damage]
        if not target.lower().startswith(("http:", "https:")):
            return [Skipped(name, f"response record for {target.partition(':')[0] or '?'}:")]
        raise InputError("response record without an HTTP status line")
    kind, charset = media_type([("Content-Type", record.content_type or "")])
    doctype = document_type(kind, block, target)
    if doctype is not None:
        return [Part(name, block, charset, target or None, doctype=doctype)]
    return [Skipped(name, f"not HTML ({kind or 'no Content-Type'})")]


def revisit_part(record: Any, head: bytes, name: str, target: str) -> Part:
    """A revisit record as a document without its payload: its own HTTP status and headers
    (the response it records, whose payload is the original's), what names its original."""
    status: int | None = None
    headers: tuple[tuple[str, str], ...] = ()
    if head.lstrip()[:5] == b"HTTP/":
        try:
            response = parse_response(head, with_body=False)
            status, headers = response.status, response.headers
        except InputError:
            pass  # its own head unread: the original's is used
    revisit = Revisit(
        _header(record, "WARC-Refers-To"),
        _header(record, "WARC-Refers-To-Target-URI"),
        _header(record, "WARC-Refers-To-Date"),
        _header(record, "WARC-Payload-Digest"),
        _header(record, "WARC-Profile"),
    )
    return Part(name, None, None, target or None, (), status, headers, revisit=revisit)


def is_cut(entry: Entry) -> bool:
    return isinstance(entry, InputError) and entry.message.startswith("record cut short")


def is_unframed(entry: Entry) -> bool:
    """Whether ``entry`` says its record has no length to find its end by: its header ran
    on, or its Content-Length is no number. warcio then reads its block to the end of the
    file, the records after it with it: the next record is looked for in it (warc.py)."""
    return isinstance(entry, InputError) and entry.message.startswith(
        ("record cut short inside its header", "record with an invalid length")
    )


class WrongLengths:
    """The records warcio found not followed by their empty lines: it counts one (in
    ``err_count``) while it looks for the next record, so the record meant is the one read
    before, ``previous``. Each is said once, by :meth:`errors`."""

    def __init__(self, records: Any, warc: bool) -> None:
        self.records = records
        self.warc = warc
        self.seen = 0  # warcio's count when last said
        self.previous: tuple[str, int] | None = None  # the last record's name and offset

    def pending(self) -> bool:
        return bool(self.records.err_count > self.seen)

    def errors(self) -> Iterator[InputError]:
        if self.pending() and self.previous is not None:
            self.seen = self.records.err_count
            if not self.warc:
                # An ARC record's trailing newline is missing (webarchive-discovery's
                # IAH-...-blackbook-truncated.arc: each header line follows the record before
                # it directly; its .arc.gz, one member per record, reads clean). warcio found
                # the next header right there, so the length was right and nothing is lost.
                return
            yield InputError(
                "record not followed by an empty line: its Content-Length is probably wrong",
                *self.previous,
            )
