"""MIME messages and MHTML archives → their HTML parts, each with its chain of base headers.

Parsing is the standard library's ``email`` package (``policy.default``): it decodes base64 and
quoted-printable, follows nested multiparts and ``message/rfc822``, and records damage as
*defects* instead of failing. This module walks the entity tree, keeps every ``text/html`` and
``application/xhtml+xml`` part, and collects for each the base headers of its enclosing entities,
outermost first; the base stage resolves that chain (RFC 2557 §5, RFC 1808 §3.2).

Base headers of one entity, the first present wins:

    Content-Base: http://a/b/              RFC 2110 §4.2, the explicit base (legacy MHTML)
    Base: <URL:http://a/b/>                RFC 1808 §3.1's message header
    Content-Location: http://a/b/c.html    RFC 2557 §4.2, the part's own URL, its base

Damage the parser reports as a defect, and what is read anyway:

    no boundary parameter       the boundary is taken from the first "--" line of the body
    the boundary never occurs   the body is read as one part (headers, then content)
    no closing boundary         every part that arrived is read; the last may be cut short
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import errors as email_errors
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser

from ..errors import InputError
from .doctypes import document_type
from .entries import Entry, Part

__all__ = ["MAX_MIME_DEPTH", "iter_parts"]

# Entities nested deeper than this (multipart in message/rfc822 in multipart ...) are not read.
MAX_MIME_DEPTH = 64

_BASE_HEADERS = ("content-base", "base", "content-location")
# RFC 1808 §3.1: "Base: <URL:http://...>"; RFC 1738 Appendix: whitespace inside the brackets
# is ignored. Also the bare forms, quoted or not. Anchored at the start, on one header
# value: the lazy group grows one character at a time and each step tests two characters.
_URL_WRAPPER = re.compile(r"^<?(?:URL:)?(.*?)>?$", re.IGNORECASE | re.DOTALL)
_WHITESPACE = re.compile(r"\s+")


def _parse(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


def base_header(entity: Message) -> str | None:
    """The base an entity's own headers give (see the table above), unwrapped, or ``None``."""
    for name in _BASE_HEADERS:
        value = entity.get(name)
        if value is None:
            continue
        # RFC 2557 §4.4.2: a long URI may be folded; the whitespace is not part of it.
        url = _WHITESPACE.sub("", str(value)).strip("\"'")
        match = _URL_WRAPPER.match(url)
        url = match.group(1) if match else url
        if url:
            return url
    return None


def _payload_bytes(entity: Message) -> bytes:
    payload = entity.get_payload()
    if isinstance(payload, str):
        return payload.encode("ascii", "surrogateescape")  # how email keeps undecodable bytes
    return b""


def _first_delimiter(body: bytes) -> bytes | None:
    for line in body.splitlines():
        if line.startswith(b"--") and len(line.strip()) > 2:
            return line.strip()[2:]
    return None


class _Walker:
    def __init__(self, file: str, retrieval: str | None) -> None:
        self.file = file
        self.retrieval = retrieval

    def label(self, entity: Message, index: str) -> str:
        location = entity.get("content-location")
        if location is not None and str(location).strip():
            return f"{self.file}#{_WHITESPACE.sub('', str(location))}"
        return f"{self.file}#part-{index}" if index else self.file

    def walk(
        self, entity: Message, locations: tuple[str, ...], index: str, depth: int
    ) -> Iterator[Entry]:
        name = self.label(entity, index)
        if depth > MAX_MIME_DEPTH:
            yield InputError(f"MIME entities nested deeper than {MAX_MIME_DEPTH}: not read", name)
            return
        own = base_header(entity)
        if own is not None:
            locations = (*locations, own)
        content_type = entity.get_content_type()
        defects = {type(d) for d in entity.defects}
        if defects & _NO_BOUNDARY:
            yield from self.repair_boundary(entity, locations, index, depth, name)
            return
        if entity.is_multipart():
            payload = entity.get_payload()
            assert isinstance(payload, list)
            for number, sub in enumerate(payload, 1):
                yield from self.walk(sub, locations, f"{index}.{number}".lstrip("."), depth + 1)
            if email_errors.CloseBoundaryNotFoundDefect in defects:
                yield InputError(
                    "the message ends before its closing MIME boundary: the last part may be "
                    "cut short",
                    name,
                )
            return
        doctype = document_type(content_type, b"")  # email gives every part a type
        if doctype is not None:
            body = entity.get_payload(decode=True)
            yield Part(
                name,
                body if isinstance(body, bytes) else b"",
                entity.get_content_charset(),
                self.retrieval,
                locations,
                doctype=doctype,
            )

    def repair_boundary(
        self, entity: Message, locations: tuple[str, ...], index: str, depth: int, name: str
    ) -> Iterator[Entry]:
        """A multipart whose boundary the parser could not use: find the one the body uses.

        First the Content-Type's boundary read as mail clients read it (an unquoted value with
        "=" in it, ``boundary=----=_NextPart_0``, is cut at the "=" by the strict grammar; every
        client reads it whole): that is no damage. Else the first delimiter line of the body,
        reported. Else the body is read as one part, reported.
        """
        body = _payload_bytes(entity)
        declared = entity.get_boundary()
        lenient = _lenient_boundary(entity)
        if (
            lenient is not None
            and lenient.decode("latin-1") != declared
            and b"\n--" + lenient in b"\n" + body
        ):
            yield from self.walk(_reparse(entity, lenient, body), locations, index, depth)
            return
        found = _first_delimiter(body)
        if found is not None:
            what = (
                f"MIME boundary {declared!r} never occurs"
                if declared
                else "multipart without a boundary parameter"
            )
            yield InputError(
                f"{what}: using the first delimiter line's, {found.decode('latin-1')!r}", name
            )
            yield from self.walk(_reparse(entity, found, body), locations, index, depth)
            return
        yield InputError(
            f"MIME boundary {declared!r} never occurs: the body was read as a single part", name
        )
        inner = _parse(body.lstrip(b"\r\n"))  # blank lines before the part's headers
        yield from self.walk(inner, locations, f"{index}.1".lstrip("."), depth + 1)


_NO_BOUNDARY = {email_errors.NoBoundaryInMultipartDefect, email_errors.StartBoundaryNotFoundDefect}
# boundary=value in a raw Content-Type, quoted or as far as the next ";" or space. Negated
# classes after a literal: linear.
_BOUNDARY_PARAM = re.compile(rb'boundary[ \t]*=[ \t]*(?:"([^"]*)"|([^;\s]+))', re.IGNORECASE)


def _lenient_boundary(entity: Message) -> bytes | None:
    for key, value in entity.raw_items():
        if key.lower() == "content-type":
            match = _BOUNDARY_PARAM.search(str(value).encode("utf-8", "surrogateescape"))
            if match:
                return match.group(1) if match.group(1) is not None else match.group(2)
    return None


def _reparse(entity: Message, boundary: bytes, body: bytes) -> EmailMessage:
    # The entity's own base header is already in `locations`; the re-parsed entity carries only
    # its Content-Type, so nothing is counted twice.
    head = f"Content-Type: {entity.get_content_type()}; boundary=".encode()
    return _parse(head + b'"' + boundary.replace(b'"', b"") + b'"\r\n\r\n' + body)


def iter_parts(data: bytes, name: str, retrieval: str | None) -> Iterator[Entry]:
    """Every HTML part of the MIME message ``data`` (and the damage met), in message order.

    ``retrieval`` is the URL the message itself was retrieved from, if known; else Chrome's
    ``Snapshot-Content-Location`` (the page an MHTML snapshot was taken of) stands for it.
    """
    try:
        message = _parse(data)
    except RecursionError:
        yield InputError("MIME entities nested too deep for the parser", name)
        return
    if retrieval is None:
        snapshot = message.get("snapshot-content-location")
        retrieval = str(snapshot).strip() if snapshot else None
    try:
        yield from _Walker(name, retrieval).walk(message, (), "", 0)
    except RecursionError:
        yield InputError("MIME entities nested too deep to walk", name)
