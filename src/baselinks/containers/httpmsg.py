"""HTTP responses: a raw message split into status, headers and body; the body decoded.

Used for raw response files (``HTTP/1.1 200 OK`` ...), for WARC ``response`` records, and for
the ``headers=`` a crawler hands to :func:`baselinks.extract_links`.

The head is parsed by hand: ``http.client.parse_headers`` wants a socket-like file, stops at 100
headers and at 64 KB lines (real WARCs exceed both), and the grammar is a few lines (RFC 9112
§2.2, §5: a status line, then ``name: value`` lines, folded lines joined, up to an empty line).

Bodies are decoded here, not by the WARC library: chunked transfer coding (RFC 9112 §7.1), then
``Content-Encoding`` (gzip, deflate, br, zstd when the interpreter has it), each step with a cap
on its output, because a few kilobytes of gzip can claim gigabytes (warcio's decoders have no
cap, and its brotli decoder fails with brotli ≥ 1.2).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from .doctypes import DocType, document_type, may_be_document
from .entries import Part, Skipped

__all__ = [
    "MAX_DECODED_BYTES",
    "Response",
    "decode_body",
    "media_type",
    "parse_response",
    "response_part",
]

# A decoded body larger than this is refused with an InputError ("decompression bomb").
MAX_DECODED_BYTES = 256 * 2**20

# "HTTP/1.1 200 OK", "HTTP/2 301", "HTTP/1.0 404" (the reason phrase is optional).
# A literal prefix, then bounded digit runs: linear.
_STATUS_LINE = re.compile(rb"HTTP/\d(?:\.\d)?[ \t]+(\d{3})(?:[ \t]|\r?$)")


@dataclass(frozen=True, slots=True)
class Response:
    """One HTTP response: status (``None`` when unknown), headers in order, body as sent."""

    status: int | None
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or ``None``."""
        return header(self.headers, name)


def header(headers: Iterable[tuple[str, str]], name: str) -> str | None:
    name = name.lower()
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def as_pairs(
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None,
) -> tuple[tuple[str, str], ...]:
    """Headers as given by a caller (a mapping, or pairs) as a tuple of pairs."""
    if headers is None:
        return ()
    if isinstance(headers, Mapping):
        return tuple((str(k), str(v)) for k, v in headers.items())
    items: Any = headers
    if hasattr(items, "items"):  # requests' CaseInsensitiveDict, email.message.Message ...
        items = items.items()
    return tuple((str(k), str(v)) for k, v in items)


def _head_end(data: bytes) -> tuple[int, int]:
    """(end of the head, start of the body): the first empty line, CRLF or bare LF."""
    crlf = data.find(b"\r\n\r\n")
    lf = data.find(b"\n\n")
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return crlf, crlf + 4
    if lf >= 0:
        return lf, lf + 2
    return len(data), len(data)


def parse_headers(block: bytes) -> tuple[tuple[str, str], ...]:
    """``name: value`` lines, folded continuation lines joined with a space; junk lines skipped."""
    headers: list[list[str]] = []
    for raw in block.split(b"\n"):
        line = raw.rstrip(b"\r").decode("latin-1")
        if not line:
            continue
        if line[0] in " \t" and headers:
            headers[-1][1] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        if colon and name and name == name.strip():
            headers.append([name, value.strip()])
    return tuple((name, value) for name, value in headers)


def parse_response(data: bytes) -> Response:
    """Split a raw HTTP response. Raises :class:`InputError` when there is no status line."""
    end, body = _head_end(data)
    head = data[:end]
    first, _, rest = head.partition(b"\n")
    match = _STATUS_LINE.match(first.lstrip())
    if match is None:
        raise InputError(f"not an HTTP response: status line {first[:60]!r}", offset=0)
    return Response(int(match.group(1)), parse_headers(rest), data[body:])


def media_type(headers: Iterable[tuple[str, str]]) -> tuple[str, str | None]:
    """The ``Content-Type``'s essence, lower case (``""`` when absent), and its charset."""
    value = header(headers, "content-type")
    if not value:
        return "", None
    essence, _, params = value.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, val = param.partition("=")
        if key.strip().lower() == "charset":
            charset = val.strip().strip("\"'") or None
    return essence.strip().lower(), charset


_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")  # bounded: linear


def dechunk(body: bytes) -> bytes | None:
    """RFC 9112 §7.1 chunked transfer coding, decoded; ``None`` if ``body`` is not chunked.

    A body cut short keeps the chunks that arrived; a chunk size that is not hex after the
    first chunk ends the body there (what browsers show).
    """
    out: list[bytes] = []
    pos = total = 0
    while True:
        eol = body.find(b"\n", pos)
        if eol < 0:
            if pos == 0:
                return None
            break
        size_field = body[pos:eol].split(b";", 1)[0].strip()
        if _CHUNK_SIZE.fullmatch(size_field) is None:
            if pos == 0:
                return None
            break
        size = int(size_field, 16)
        if size == 0:
            break
        start = eol + 1
        out.append(body[start : start + size])
        total += size
        if total > MAX_DECODED_BYTES:
            raise InputError(f"chunked body larger than {MAX_DECODED_BYTES} bytes")
        pos = start + size
        pos += 2 if body.startswith(b"\r\n", pos) else 1 if body.startswith(b"\n", pos) else 0
    return b"".join(out)


def inflate(data: bytes, wbits: int) -> tuple[bytes, bool]:
    """zlib, raw deflate or gzip (every member) decoded, capped at :data:`MAX_DECODED_BYTES`;
    and whether the stream ended (``False``: cut short, what arrived is returned)."""
    out: list[bytes] = []
    total = 0
    complete = True
    while data:
        inflater = zlib.decompressobj(wbits)
        chunk = inflater.decompress(data, MAX_DECODED_BYTES + 1 - total)
        total += len(chunk)
        out.append(chunk)
        if total > MAX_DECODED_BYTES or inflater.unconsumed_tail:
            raise InputError(f"decoded body larger than {MAX_DECODED_BYTES} bytes")
        complete = inflater.eof
        # gzip allows members back to back (RFC 1952 §2.2); zlib streams do not.
        data = inflater.unused_data if wbits > zlib.MAX_WBITS and inflater.eof else b""
    return b"".join(out), complete


def _brotli(data: bytes) -> bytes:
    import brotli  # an install requirement; imported here so plain HTML never pays for it

    out = brotli.Decompressor().process(data, output_buffer_limit=MAX_DECODED_BYTES + 1)
    if len(out) > MAX_DECODED_BYTES:
        raise InputError(f"decoded body larger than {MAX_DECODED_BYTES} bytes")
    return bytes(out)


def _zstd(data: bytes) -> bytes:
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]  # 3.14+
    except ImportError:
        try:
            from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            raise InputError(
                "Content-Encoding zstd needs Python 3.14 or the backports.zstd package"
            ) from None
    out = zstd.ZstdDecompressor().decompress(data, max_length=MAX_DECODED_BYTES + 1)
    if len(out) > MAX_DECODED_BYTES:
        raise InputError(f"decoded body larger than {MAX_DECODED_BYTES} bytes")
    return bytes(out)


def _decode_one(data: bytes, coding: str) -> bytes:
    if coding in ("gzip", "x-gzip"):
        return inflate(data, 16 + zlib.MAX_WBITS)[0]
    if coding == "deflate":
        try:  # RFC 9110 §8.4.1.2 says zlib format; many servers send raw deflate
            return inflate(data, zlib.MAX_WBITS)[0]
        except zlib.error:
            return inflate(data, -zlib.MAX_WBITS)[0]
    if coding == "br":
        return _brotli(data)
    if coding == "zstd":
        return _zstd(data)
    raise InputError(f"unknown Content-Encoding {coding!r}")


_DECODE_ERRORS: tuple[type[BaseException], ...] = (zlib.error, EOFError)


def decode_body(body: bytes, headers: Iterable[tuple[str, str]]) -> bytes:
    """``body`` with its transfer coding and content codings removed.

    Archives often keep a body already decoded under its original ``Content-Encoding`` header,
    and crawlers hand over bodies their HTTP library has already decoded: when a coding does not
    decode from its very first byte, the body is taken as it is. Output is capped at
    :data:`MAX_DECODED_BYTES` (an :class:`InputError` beyond).
    """
    pairs = tuple(headers)
    transfer = (header(pairs, "transfer-encoding") or "").lower()
    if "chunked" in transfer:
        dechunked = dechunk(body)
        if dechunked is not None:
            body = dechunked
    codings = [c.strip().lower() for c in (header(pairs, "content-encoding") or "").split(",")]
    for coding in reversed([c for c in codings if c and c != "identity"]):
        try:
            body = _decode_one(body, coding)
        except InputError:
            raise
        except Exception as exc:  # brotli.error is not importable without brotli
            if isinstance(exc, _DECODE_ERRORS) or type(exc).__name__ in ("error", "ZstdError"):
                return body  # not encoded after all (see above)
            raise
    return body


# Response headers that carry links (walk.header_links finds them).
LINK_HEADERS = ("location", "link", "refresh")


def response_part(
    response: Response, name: str, retrieval: str | None, charset: str | None = None
) -> Part | Skipped:
    """The document an HTTP response carries, or why it carries none.

    A response that is no document still yields a bodiless :class:`Part` when its headers carry
    links (a redirect's ``Location``, a ``Link`` header), so a crawler sees those edges.
    ``charset``, when given, overrides the ``Content-Type``'s.
    """
    essence, declared = media_type(response.headers)
    has_header_links = any(key.lower() in LINK_HEADERS for key, _ in response.headers)
    body: bytes | None = None
    doctype: DocType | None = None
    if may_be_document(essence):
        decoded = decode_body(response.body, response.headers)
        doctype = document_type(essence, decoded)
        body = decoded if doctype is not None else None
    if body is None and not has_header_links:
        return Skipped(name, f"not HTML ({essence or 'no Content-Type'})")
    return Part(
        name,
        body,
        charset or declared,
        retrieval,
        (),
        response.status,
        response.headers,
        doctype or DocType.HTML,
    )
