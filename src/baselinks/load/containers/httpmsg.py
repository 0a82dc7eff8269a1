"""HTTP responses: a raw message split into status, headers and body; the body decoded.

Used for raw response files (``HTTP/1.1 200 OK`` ...), for WARC ``response`` records, and for
the ``headers=`` a crawler hands to :func:`baselinks.extract_links`.

The head is parsed by hand: ``http.client.parse_headers`` wants a socket-like file, stops at 100
headers and at 64 KB lines (real WARCs exceed both), and the grammar is a few lines (RFC 9112
§2.2, §5: a status line, then ``name: value`` lines, folded lines joined, up to an empty line).

Bodies are decoded here, not by the WARC library: chunked transfer coding (RFC 9112 §7.1), the
other transfer codings, then ``Content-Encoding`` (gzip, deflate, br, zstd when the interpreter
has it), each step with a cap on its output, because a few kilobytes of gzip can claim gigabytes
(warcio's decoders have no cap, and its brotli decoder fails with brotli ≥ 1.2).

A message as it was sent (a raw response file, a WARC response record) is read as RFC 9112
frames it, and what breaks the framing is said: a chunk-size line that is no hex number, a chunk
longer than what is there, no last chunk. A body a caller fetched (``headers=``) has been
de-framed by its HTTP client, which keeps the ``Transfer-Encoding: chunked`` header (Python's
``http.client``, requests): it is de-chunked only when it is a whole chunked body, else taken as
it came. Interim responses (1xx, RFC 9110 §15.2: ``100 Continue``, ``103 Early Hints``) before
the final one are passed over: the final response is the page.

A header block is at most :data:`MAX_HEADER_BYTES` and :data:`MAX_HEADERS` lines (the WARC
header blocks warc.py reads too): beyond, the message is reported and not read.
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
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "HeaderLimit",
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

# The largest header block read (an HTTP message's status line and headers, a WARC record's
# header block), and the most lines in one. Chromium refuses a response whose head is over
# 256 KiB (net::ERR_RESPONSE_HEADERS_TOO_BIG); http.client stops at 100 headers and 64 KiB
# lines, which real WARCs exceed. Without a limit, 300 KB of gzip made 100 million header
# lines (5.3 GB of memory, 204 s); warcio joins a folded WARC header with "+=", quadratic
# in its lines (50,000 took 0.7 s, 200,000 17.7 s).
MAX_HEADER_BYTES = 1 << 20
MAX_HEADERS = 10_000


class HeaderLimit(ValueError):
    """A header block over :data:`MAX_HEADER_BYTES` or :data:`MAX_HEADERS` (warc.py's reader
    raises it; the record is reported as damage and the next one read)."""


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


def _head_end(data: bytes, start: int = 0) -> tuple[int, int]:
    """(end of the head, start of the body) of the message at ``start``: the first empty
    line, CRLF or bare LF; ``len(data)`` twice when there is none."""
    crlf = data.find(b"\r\n\r\n", start)
    # a bare LF pair ends the head only before the first CRLF pair: not looked for past it
    # (a record's head is read with 64 KiB of its body: most of that is never scanned)
    lf = data.find(b"\n\n", start, len(data) if crlf < 0 else crlf + 1)
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
    """Split a raw HTTP response. Raises :class:`InputError` when there is no status line, or
    its head is over the limits. ``with_body=False``: its head alone, the body ``b""`` (not
    copied out); the head must then end in ``data``.

    RFC 9110 §15.2: "A client MUST be able to parse one or more 1xx responses received prior
    to a final response". An interim response (``100 Continue``; ``103 Early Hints``, whose
    links are hints of the final response's, RFC 8297 §2) is passed over when a response
    follows it; ``101 Switching Protocols`` is final (what follows is another protocol).
    """
    start = 0
    while True:
        end, body = _head_end(data, start)
        if not with_body and end == len(data):
            raise InputError("HTTP head not complete in what was read", offset=start)
        status, headers = _head(data, start, end)
        interim = 100 <= status < 200 and status != 101
        if not (interim and _STATUS_LINE.match(data[body : body + 16].lstrip())):
            return Response(status, headers, data[body:] if with_body else b"")
        start = body


def _head(data: bytes, start: int, end: int) -> tuple[int, tuple[tuple[str, str], ...]]:
    """The status and the headers of the head ``data[start:end]``, within the limits."""
    if end - start > MAX_HEADER_BYTES:
        raise InputError(
            f"HTTP header block larger than {MAX_HEADER_BYTES:,} bytes: not read", offset=start
        )
    if data.count(b"\n", start, end) >= MAX_HEADERS:
        raise InputError(
            f"HTTP header block of more than {MAX_HEADERS:,} lines: not read", offset=start
        )
    head = data[start:end]
    first, _, rest = head.partition(b"\n")
    match = _STATUS_LINE.match(first.lstrip())
    if match is None:
        raise InputError(f"not an HTTP response: status line {first[:60]!r}", offset=start)
    return int(match.group(1)), parse_headers(rest)


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


def dechunk(body: bytes, strict: bool = True) -> Body | None:
    """RFC 9112 §7.1 chunked transfer coding, decoded; ``None`` if ``body`` is not chunked.

    ``strict``: the body as it was sent. Its first line not a chunk size, it is taken for a
    body already de-chunked (archives keep the header); after that, what breaks the framing
    keeps the chunks before it and is the problem said: a chunk-size line that is no hex
    number (where a browser stops too), a chunk longer than what is there (its bytes are
    kept), the data ending before the last chunk. Not ``strict`` (a caller's client
    de-chunked it and kept the header): only a whole chunked body, from its first chunk to
    its last, is one; anything else is ``None``, the body as it came.
    """
    out: list[bytes] = []
    pos = total = 0
    problem = " cut short: no last chunk"
    while True:
        eol = body.find(b"\n", pos)
        line = body[pos : len(body) if eol < 0 else eol]
        size_field = line.split(b";", 1)[0].strip()
        if _CHUNK_SIZE.fullmatch(size_field) is None:
            if pos == 0 or not strict:
                return None
            if eol >= 0 or size_field:  # (else: the data ends where a chunk-size line would)
                text = line[:20].rstrip(b"\r").decode("latin-1")
                problem = f": the line at byte {pos}, {text!r}, is no chunk size"
            break
        size = int(size_field, 16)
        if size == 0:
            if not strict and body[eol + 1 :].strip(b"\r\n"):
                return None  # trailer fields, or what follows a de-chunked body's "0" line
            problem = ""
            break
        if eol < 0:
            break
        start = eol + 1
        out.append(body[start : start + size])
        total += len(out[-1])
        if total > MAX_DECODED_BYTES:
            raise InputError(f"chunked body larger than {MAX_DECODED_BYTES} bytes")
        if start + size > len(body):
            if not strict:
                return None
            there = len(body) - start
            problem = f" cut short: a chunk of {size:,} bytes at byte {pos}, {there:,} there"
            break
        pos = start + size
        pos += 2 if body.startswith(b"\r\n", pos) else 1 if body.startswith(b"\n", pos) else 0
    return Body(b"".join(out), f"chunked body{problem}" if problem else "")


def _codings(headers: tuple[tuple[str, str], ...], name: str) -> list[str]:
    """The codings a header lists, over all its lines (RFC 9110 §5.3: two field lines of a
    name are one comma-separated list), lower case, ``identity`` left out."""
    values = (value for key, value in headers if key.lower() == name)
    listed = (coding.strip().lower() for value in values for coding in value.split(","))
    return [coding for coding in listed if coding and coding != "identity"]


def decode_content(body: bytes, headers: Iterable[tuple[str, str]], framed: bool = True) -> Body:
    """``body`` with its transfer codings and content codings removed (:mod:`.coding`), and
    what could not be decoded ("" when everything was). Output is capped at
    :data:`MAX_DECODED_BYTES` (an :class:`InputError` beyond). ``framed``: the body as it
    was sent (see :func:`dechunk`, ``strict``); else as a caller's client gave it.

    RFC 9112 §6.1: the transfer codings were applied after the content codings, each list in
    its order: they are undone last first, chunked (the last transfer coding) before all.
    """
    pairs = tuple(headers)
    transfer = _codings(pairs, "transfer-encoding")
    problem = ""
    if transfer and transfer[-1] == "chunked":
        transfer.pop()
        dechunked = dechunk(body, strict=framed)
        if dechunked is not None:
            body, problem = dechunked
    codings = [
        *((coding, "Content-Encoding") for coding in _codings(pairs, "content-encoding")),
        *((coding, "Transfer-Encoding") for coding in transfer if coding != "chunked"),
    ]
    for coding, field in reversed(codings):
        # after damage, the outer codings decode what came: what they say after is no news
        body, said = decode_coding(body, coding, field)
        problem = problem or (f"{field} {coding}: {said}" if said else "")
    return Body(body, problem)


# Response headers that carry links (walk.header_links finds them).
LINK_HEADERS = ("location", "link", "refresh", "content-location")


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
