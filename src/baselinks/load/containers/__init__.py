"""load, for inputs that hold documents: recognise the input, then open its container.

    input ──sniff──► WARC / ARC    warc.py     one Part per document response or resource record
                     MIME / MHTML  mime.py     one Part per document part, with its base headers
                     HTTP          httpmsg.py  one Part: the response body, its headers
                     gzip          (here)      decompressed (capped), then recognised again
                     WACZ          wacz.py     each archive/ WARC, in place, then as a WARC
                     CSS / SVG     (here)      one Part, by the name (.css, .svg) or an <svg root
                     feed, sitemap (here)      one Part, by the document element (<rss, <feed,
                     robots.txt                <urlset...) or the name (robots.txt, sitemap.txt)
                     HTML / text   (here)      one Part: the bytes as they are
                     binary        (here)      Skipped in a directory walk, an error if named

The containers are one registry, :data:`CONTAINERS` (a sniffed Kind → its reader).

Which media types are documents (HTML, CSS, SVG, feeds, sitemaps, robots.txt) is one table,
:mod:`.doctypes`.

Nothing here resolves a URL or parses HTML: a :class:`Part` is bytes plus the raw facts the
base stage needs (retrieval URL, MIME base headers, HTTP headers).
"""

from __future__ import annotations

import io
import os
import stat
import zlib
from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple, cast

from ...errors import InputError
from .coding import DecodeError, inflate
from .doctypes import (
    HTML_TYPES,
    TEXT_TYPES,
    DocType,
    document_type,
    file_type,
    may_be_document,
)
from .entries import Entry, Part, Skipped
from .httpmsg import (
    body_damage,
    decode_content,
    media_type,
    parse_response,
    response_part,
)
from .resync import archive_inside
from .sniff import HEAD_BYTES, Kind, binary_label, sniff

__all__ = ["HTML_TYPES", "MAX_INPUT_BYTES", "Entry", "Part", "Skipped", "iter_entries"]

# gzip inside gzip inside ...: no more than this many layers are opened.
_MAX_GZIP_LAYERS = 2

# An input read whole (an HTML file, a MIME message, an HTTP response, a .gz) larger than this
# is refused with an InputError: its tree alone would take some 30 bytes per byte (measured:
# 740 MB for a 25 MB page of a million links). WARC records have their own limit, the same.
MAX_INPUT_BYTES = 256 * 2**20


def _read(stream: BinaryIO, name: str) -> bytes:
    """All of ``stream``, or an InputError past :data:`MAX_INPUT_BYTES` (nothing kept)."""
    limit = MAX_INPUT_BYTES + 1
    # read(n) allocates its n bytes before reading: asked for the limit, every file costs a
    # fresh 256 MB mapping and a page fault per 4 KB read into it (40 ms against 12 for the
    # 57 MB of the corpus HTML, 0.1 lxml parses). A regular file says how much is left.
    left = _left(stream)
    data = stream.read(limit if left is None else min(left + 1, limit))
    if left is not None and len(data) == left + 1 < limit:
        # more than the size said: a file that grew, /proc's (size 0), a GzipFile (whose
        # fileno is the compressed file's)
        data += stream.read(limit - len(data))
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"input larger than {MAX_INPUT_BYTES} bytes: not read", name)
    return data


def _left(stream: BinaryIO) -> int | None:
    """The bytes left to read in ``stream`` by its file's size, when it is a regular file;
    else None (a pipe, a socket, bytes in memory)."""
    try:
        status = os.fstat(stream.fileno())
        position = stream.tell()
    except (AttributeError, OSError, ValueError):  # no file (io.UnsupportedOperation), closed
        return None
    return max(status.st_size - position, 0) if stat.S_ISREG(status.st_mode) else None


class _Prefixed:
    """A stream that cannot seek, with its first bytes already read: they come first."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self.head = head
        self.stream = stream
        self.position = 0

    def read(self, size: int | None = -1) -> bytes:
        if self.position < len(self.head):
            if size is None or size < 0:
                data = self.head[self.position :] + self.stream.read()
            else:
                data = self.head[self.position : self.position + size]
                if len(data) < size:
                    data += self.stream.read(size - len(data))
        else:
            data = self.stream.read(-1 if size is None else size)
        self.position += len(data)
        return data

    def tell(self) -> int:
        return self.position

    def seekable(self) -> bool:
        return False


def _head(stream: BinaryIO) -> tuple[bytes, BinaryIO]:
    """The first :data:`HEAD_BYTES` (fewer only at the end of the input), and the stream to
    read from the start. A pipe delivers what has arrived: a peek at a slow one may see only
    ``WARC`` (and take the input for text), so the head is read until it is whole."""
    if stream.seekable():
        position = stream.tell()
        head = _read_up_to(stream, HEAD_BYTES)
        stream.seek(position)
        return head, stream
    head = _read_up_to(stream, HEAD_BYTES)
    return head, cast(BinaryIO, _Prefixed(head, stream))


def _read_up_to(stream: BinaryIO, size: int) -> bytes:
    pieces: list[bytes] = []
    wanted = size
    while wanted > 0 and (piece := stream.read(wanted)):
        pieces.append(piece)
        wanted -= len(piece)
    return b"".join(pieces)


def _gunzip_head(head: bytes) -> bytes:
    """What the first bytes of a gzip input decompress to, up to damage in them: a .warc.gz
    damaged 700 bytes in was sniffed from nothing, read as one gzip stream, and every
    record after the damage was lost."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out: list[bytes] = []
    for start in range(0, len(head), 256):
        try:
            out.append(inflater.decompress(head[start : start + 256], HEAD_BYTES))
        except zlib.error:
            break
    return b"".join(out)[:HEAD_BYTES]


def _gunzip(data: bytes, name: str) -> tuple[bytes, InputError | None]:
    """The uncompressed bytes, and the error when the data is cut short or damaged (what
    decoded is kept). Trailing NULs (padding) are no damage: ``gzip -dc`` reads them too."""
    try:
        out, problem = inflate(data, 16 + zlib.MAX_WBITS)
    except DecodeError as exc:
        raise InputError(f"damaged gzip data: {exc}", name) from None
    except InputError as exc:
        raise exc.located(name) from None
    if not problem:
        return out, None
    if problem == "cut short":
        return out, InputError(
            f"gzip data cut short after {len(out)} bytes uncompressed", name, len(data)
        )
    return out, InputError(f"gzip data {problem}: the {len(out)} bytes before were read", name)


def iter_entries(
    stream: BinaryIO,
    name: str,
    *,
    url: str | None = None,
    headers: tuple[tuple[str, str], ...] = (),
    charset: str | None = None,
    named: bool = True,
    layers: int = 0,
    where: str | None = None,
) -> Iterator[Entry]:
    """What the input ``stream`` holds, recognised by content (by ``name`` only as a last resort).

    ``url`` is the input's retrieval URL; WARC records bring their own. ``headers`` are the HTTP
    response headers of a body fetched by the caller. ``named``: the user named this input (an
    error if it is no document), rather than it being found in a directory (skipped).
    ``where``: the URL a body was fetched from (where its redirects ended), which types it as a
    file's name does (a robots.txt, a text sitemap served as ``text/plain``), never its base.
    """
    try:
        yield from _entries(stream, name, url, headers, charset, named, layers, where)
    except InputError as exc:  # what cannot be read ends this input, named by it
        yield exc.located(name)


class _Given(NamedTuple):
    """What the caller said of an input besides its bytes (see :func:`iter_entries`)."""

    url: str | None
    headers: tuple[tuple[str, str], ...]
    charset: str | None
    named: bool
    layers: int  # gzip layers opened around it
    where: str | None = None  # the URL it was fetched from: its type, never its base


def _entries(
    stream: BinaryIO,
    name: str,
    url: str | None,
    headers: tuple[tuple[str, str], ...],
    charset: str | None,
    named: bool,
    layers: int,
    where: str | None,
) -> Iterator[Entry]:
    head, stream = _head(stream)
    kind = sniff(head, name)
    given = _Given(url, headers, charset, named, layers, where)
    read = CONTAINERS.get(kind)
    if read is not None:
        yield from read(stream, head, name, given)
    else:
        yield from _document(stream, head, kind, name, given)


def _gzip(stream: BinaryIO, head: bytes, name: str, given: _Given) -> Iterator[Entry]:
    inner = sniff(_gunzip_head(head), name.removesuffix(".gz"))
    if inner in (Kind.WARC, Kind.ARC) or archive_inside(head) == "gzip":
        from .warc import iter_records  # warcio: loaded by the runs that read an archive

        # warcio reads gzip per record, streaming; inside another gzip layer, the offsets are
        # of bytes decompressed, not of the file
        yield from iter_records(stream, name, stored=given.layers == 0)
        return
    if given.layers >= _MAX_GZIP_LAYERS:
        yield InputError(f"gzip nested more than {_MAX_GZIP_LAYERS} deep", name)
        return
    data, cut = _gunzip(_read(stream, name), name)
    yield from iter_entries(
        io.BytesIO(data),
        name,
        url=given.url,
        headers=given.headers,
        charset=given.charset,
        named=given.named,
        layers=given.layers + 1,
        where=given.where,
    )
    if cut is not None:
        yield cut


def _archive(stream: BinaryIO, head: bytes, name: str, given: _Given) -> Iterator[Entry]:
    from .warc import iter_records  # warcio: loaded by the runs that read an archive

    yield from iter_records(stream, name, stored=given.layers == 0)


def _message(stream: BinaryIO, head: bytes, name: str, given: _Given) -> Iterator[Entry]:
    from .mime import iter_parts  # the email package: loaded by the runs that read a message

    yield from iter_parts(_read(stream, name), name, given.url)


def _wacz(stream: BinaryIO, head: bytes, name: str, given: _Given) -> Iterator[Entry]:
    from .wacz import iter_wacz

    def member(opened: BinaryIO, label: str) -> Iterator[Entry]:
        head, opened = _head(opened)
        if sniff(head, label) is Kind.WACZ:  # a zip in a WACZ's place of a WARC: never nested
            yield InputError("a zip where a WARC belongs: not read (no WACZ inside a WACZ)", label)
            return
        yield from iter_entries(opened, label, named=True, layers=given.layers)

    yield from iter_wacz(stream, name, member)


def _response(stream: BinaryIO, head: bytes, name: str, given: _Given) -> Iterator[Entry]:
    response = parse_response(_read(stream, name))
    part, damage = response_part(response, name, given.url, given.charset)
    yield part
    if damage is not None:
        yield damage


Reader = Callable[[BinaryIO, bytes, str, _Given], Iterator[Entry]]

# The containers, by what sniff() recognised: each reader turns a stream (and its first
# HEAD_BYTES, already read) into entries. A new container type (a zip of saved pages) is a
# Kind in sniff.py and a row here. What is no container is one document, or none: _document.
CONTAINERS: dict[Kind, Reader] = {
    Kind.GZIP: _gzip,
    Kind.WARC: _archive,
    Kind.ARC: _archive,
    Kind.MIME: _message,
    Kind.HTTP: _response,
    Kind.WACZ: _wacz,
}


def _document(
    stream: BinaryIO, head: bytes, kind: Kind, name: str, given: _Given
) -> Iterator[Entry]:
    """An input that is no container: a document (HTML, CSS, SVG), a body fetched with its
    headers, or something that is no document (skipped in a directory walk, else an error)."""
    url, headers, charset, named, _, where = given
    # the URL's path is asked only when the content does not look like HTML (a page served at
    # a ".svg" URL is a page)
    hint = url if kind is Kind.TEXT else None
    if kind in (Kind.HTML, Kind.TEXT) and not headers and (doctype := file_type(name, head, hint)):
        yield Part(name, _read(stream, name), charset, url, doctype=doctype)
    elif kind is Kind.BINARY and not headers:
        label = binary_label(head) or "binary data"
        if named:
            yield InputError(f"not a document: {label}", name)
        else:
            yield Skipped(name, f"not a document ({label})")
    elif kind is Kind.TEXT and not named and not headers:
        yield Skipped(name, "not a document")
    elif headers:
        yield from _fetched(_read(stream, name), name, url, headers, charset, where)
    else:
        yield Part(name, _read(stream, name), charset, url)


def _fetched(
    body: bytes,
    name: str,
    url: str | None,
    headers: tuple[tuple[str, str], ...],
    charset: str | None,
    where: str | None = None,
) -> Iterator[Entry]:
    """A body a caller fetched, with its response headers: HTML unless they say otherwise.
    Its type is told by them and by its URL (``url``, else ``where`` it was fetched from), as
    a WARC record's is (``text/plain`` at ``/robots.txt`` is a robots.txt); a body of plain
    text (or ``application/octet-stream``) the user named is typed as a file of that name is,
    by its name and document element (a feed served as ``text/plain``), never as HTML."""
    essence, declared = media_type(headers)
    typed_by = url or where
    plain = essence in TEXT_TYPES
    if not plain and not may_be_document(essence, typed_by):
        yield Skipped(name, f"not HTML ({essence})")
        return
    try:
        decoded, problem = decode_content(body, headers, framed=False)  # its client's
    except InputError as exc:
        yield exc.located(name)
        return
    doctype = document_type(essence, decoded, typed_by)
    if doctype is None and plain:
        doctype = file_type(typed_by or name, decoded[:HEAD_BYTES])
        if doctype is None:  # plain text, or HTML served as text: not read as a page
            yield Skipped(name, f"not HTML ({essence})")
            return
    # a body the caller fetched is taken as HTML when its type says nothing (not sniffed)
    doctype = doctype or DocType.HTML
    yield Part(name, decoded, charset or declared, url, (), None, headers, doctype)
    if problem:
        yield body_damage(problem, decoded, name)
