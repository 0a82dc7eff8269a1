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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from .coding import MAX_DECODED_BYTES, Body, decode_coding
from .doctypes import DocType, document_type, may_be_document
from .entries import Part, Skipped

__all__ = [
    "MAX_DECODED_BYTES",
    "Response",
    "body_damage",
    "decode_content",
    "media_type",
    "parse_response",
    "response_part",
]

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
    # a bare LF pair ends the head only before the first CRLF pair: not looked for past it
    # (a record's head is read with 64 KiB of its body: most of that is never scanned)
    lf = data.find(b"\n\n", 0, len(data) if crlf < 0 else crlf + 1)
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return crlf, crlf + 4
    if lf >= 0:
        return lf, lf + 2
    return len(data), len(data)


def parse_headers(block: bytes) -> tuple[tuple[str, str], ...]:
    """``name: value`` lines, folded continuation lines joined with a space; junk lines skipped.

    The pieces of a folded value are joined once at the end: a ``+=`` per continuation line
    took time quadratic in the number of folds.
    """
    headers: list[tuple[str, list[str]]] = []
    for raw in block.split(b"\n"):
        line = raw.rstrip(b"\r").decode("latin-1")
        if not line:
            continue
        if line[0] in " \t" and headers:
            headers[-1][1].append(line.strip())
            continue
        name, colon, value = line.partition(":")
        if colon and name and name == name.strip():
            headers.append((name, [value.strip()]))
    return tuple((name, " ".join(pieces)) for name, pieces in headers)


def parse_response(data: bytes, with_body: bool = True) -> Response:
    """Split a raw HTTP response. Raises :class:`InputError` when there is no status line.
    ``with_body=False``: its head alone, the body ``b""`` (not copied out)."""
    end, body = _head_end(data)
    head = data[:end]
    first, _, rest = head.partition(b"\n")
    match = _STATUS_LINE.match(first.lstrip())
    if match is None:
        raise InputError(f"not an HTTP response: status line {first[:60]!r}", offset=0)
    return Response(int(match.group(1)), parse_headers(rest), data[body:] if with_body else b"")


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


def decode_content(body: bytes, headers: Iterable[tuple[str, str]]) -> Body:
    """``body`` with its transfer coding and content codings removed (:mod:`.coding`), and
    what could not be decoded ("" when everything was). Output is capped at
    :data:`MAX_DECODED_BYTES` (an :class:`InputError` beyond)."""
    pairs = tuple(headers)
    transfer = (header(pairs, "transfer-encoding") or "").lower()
    if "chunked" in transfer:
        dechunked = dechunk(body)
        if dechunked is not None:
            body = dechunked
    codings = [c.strip().lower() for c in (header(pairs, "content-encoding") or "").split(",")]
    problem = ""
    for coding in reversed([c for c in codings if c and c != "identity"]):
        # after damage, the outer codings decode what came: what they say after is no news
        body, said = decode_coding(body, coding)
        problem = problem or (f"Content-Encoding {coding}: {said}" if said else "")
    return Body(body, problem)


# Response headers that carry links (walk.header_links finds them).
LINK_HEADERS = ("location", "link", "refresh")


def body_damage(problem: str, decoded: bytes, name: str) -> InputError:
    """The error for a body that did not decode whole, saying how much of it was read."""
    kept = f": the {len(decoded)} bytes decoded were read" if decoded else ""
    return InputError(problem + kept, name)


def response_part(
    response: Response, name: str, retrieval: str | None, charset: str | None = None
) -> tuple[Part | Skipped, InputError | None]:
    """The document an HTTP response carries, or why it carries none; and the error when
    its body did not decode whole (the part then holds what did).

    A response that is no document still yields a bodiless :class:`Part` when its headers carry
    links (a redirect's ``Location``, a ``Link`` header), so a crawler sees those edges.
    ``charset``, when given, overrides the ``Content-Type``'s.
    """
    essence, declared = media_type(response.headers)
    has_header_links = any(key.lower() in LINK_HEADERS for key, _ in response.headers)
    body: bytes | None = None
    doctype: DocType | None = None
    error = None
    if may_be_document(essence, retrieval):
        decoded, problem = decode_content(response.body, response.headers)
        if problem:
            error = body_damage(problem, decoded, name)
        doctype = document_type(essence, decoded, retrieval)
        body = decoded if doctype is not None else None
    if body is None and not has_header_links:
        return Skipped(name, f"not HTML ({essence or 'no Content-Type'})"), error
    part = Part(
        name,
        body,
        charset or declared,
        retrieval,
        (),
        response.status,
        response.headers,
        doctype or DocType.HTML,
    )
    return part, error
