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

Each of the first two, and a header line without a colon, is repaired by parsing the entity's
body again: at most :data:`MAX_MIME_REPAIRS` times in a message (each re-parse reads what is
left of it: 60 nested multiparts without a boundary took 547 MB for 4 MB), the entity after
that reported and not read. A boundary longer than :data:`MAX_BOUNDARY` is not used (the
parser compiled it into an expression and matched every line against it: a boundary of 4
million characters took 689 MB and 20 s); its multipart is reported and not read.

Each document's :class:`~.entries.Origin` gives its part's path as IMAP numbers parts (RFC 3501
§6.4.5): "Multipart messages are assigned consecutive part numbers, as they occur in the
message. If a particular part is of type message or multipart, its parts MUST be indicated by a
period followed by the part number within that nested multipart part." A message that is not
multipart "only [has] a part 1". The ``document`` field keeps its own labels (``#part-3``,
the Content-Location): the path counts a ``message/rfc822`` and its message as one level.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from email import errors as email_errors
from email.message import EmailMessage, Message
from typing import NamedTuple

from ...errors import InputError, InputWarning
from .doctypes import by_body, document_type
from .entries import Entry, Origin, Part
from .mimeheaders import MAX_BOUNDARY, WHITESPACE, base_header
from .mimeheaders import parse as _parse

__all__ = ["MAX_BOUNDARY", "MAX_MIME_DEPTH", "MAX_MIME_REPAIRS", "iter_parts"]

# Entities nested deeper than this (multipart in message/rfc822 in multipart ...) are not read.
MAX_MIME_DEPTH = 64
# Re-parses of a damaged entity's body (see the module's docstring) in one message.
MAX_MIME_REPAIRS = 8


def _payload_bytes(entity: Message) -> bytes:
    """The body of an entity the parser did not split, as the bytes it came as.

    ``get_payload()`` gives text decoded by the entity's charset (non-ASCII bytes then do not
    encode back to ASCII: was a UnicodeEncodeError); ``decode=True`` gives the bytes as they
    came, except that it undoes a transfer encoding, which is then left alone.
    """
    if entity.is_multipart():
        return b""
    if str(entity.get("content-transfer-encoding", "")).strip().lower() in _TRANSFER_CODINGS:
        text = entity.get_payload()
        return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else b""
    payload = entity.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


# The transfer encodings get_payload(decode=True) undoes (the others are the bytes as they came).
_TRANSFER_CODINGS = frozenset(
    {"base64", "quoted-printable", "x-uuencode", "uuencode", "uue", "x-uue"}
)


# A line that starts "--": a delimiter line, perhaps. An anchored literal, one class: linear.
_DASHES_LINE = re.compile(rb"(?:^|(?<=[\r\n]))--[^\r\n]*")


def _first_delimiter(body: bytes) -> bytes | None:
    """The boundary of the first delimiter line of ``body`` (``--`` and more than spaces
    after it); None when there is none, or it is longer than :data:`MAX_BOUNDARY`."""
    for found in _DASHES_LINE.finditer(body):
        line = found.group().strip()
        if len(line) > 2:
            return line[2:] if len(line) - 2 <= MAX_BOUNDARY else None
    return None


class _Section(NamedTuple):
    """An entity's part number as IMAP gives it (see the module's docstring)."""

    number: str = ""  # "" for the message itself
    message: bool = True  # the entity is a message: the whole one, or a message/rfc822's

    def part(self, n: int) -> _Section:
        """The ``n``th part (from 1) of this multipart."""
        return _Section(f"{self.number}.{n}".lstrip("."), False)

    def inner(self) -> _Section:
        """The message a ``message/rfc822`` part holds: its parts are numbered under it."""
        return _Section(self.path(), True)

    def path(self) -> str:
        """A leaf's path: a message's body is its part 1."""
        return f"{self.number}.1".lstrip(".") if self.message else self.number


_MESSAGE = _Section()  # the whole message


@dataclass(frozen=True, slots=True)
class _Place:
    """Where an entity is in its message, as the walk hands it down."""

    locations: tuple[str, ...] = ()  # the base headers around it, outermost entity first
    index: str = ""  # its document label's part index ("2.1"; "" for the message)
    depth: int = 0  # how deep it is nested
    done: frozenset[str] = frozenset()  # the repairs ("headers", "boundary") that made it
    section: _Section = _MESSAGE  # its part number as IMAP gives it

    def child(self, index: str, section: _Section) -> _Place:
        """A part of this entity: one level deeper, nothing repaired yet."""
        return _Place(self.locations, index, self.depth + 1, frozenset(), section)


def _dropped(entity: Message) -> bytes:
    """The body of ``entity``, to parse again, its copy in the entity dropped: the walk of the
    re-parse holds no other, and nested repairs hold one body at a time, not one a level."""
    body = _payload_bytes(entity)
    if not entity.is_multipart():
        entity.set_payload("")
    return body


class _Walker:
    def __init__(self, file: str, retrieval: str | None) -> None:
        self.file = file
        self.retrieval = retrieval
        self.repairs = 0  # the entities parsed again, up to MAX_MIME_REPAIRS

    def may_repair(self) -> bool:
        """Whether one more entity may be parsed again (:data:`MAX_MIME_REPAIRS`)."""
        self.repairs += 1
        return self.repairs <= MAX_MIME_REPAIRS

    def label(self, entity: Message, index: str) -> str:
        location = entity.get("content-location")
        if location is not None and str(location).strip():
            return f"{self.file}#{WHITESPACE.sub('', str(location))}"
        return f"{self.file}#part-{index}" if index else self.file

    def walk(self, entity: Message, place: _Place) -> Iterator[Entry]:
        """The documents of ``entity`` and its parts. ``place.done``: the repairs that made
        ``entity``, a re-parse of a damaged one; none is made twice."""
        name = self.label(entity, place.index)
        if place.depth > MAX_MIME_DEPTH:
            yield InputError(f"MIME entities nested deeper than {MAX_MIME_DEPTH}: not read", name)
            return
        defects = {type(d) for d in entity.defects}
        if email_errors.MissingHeaderBodySeparatorDefect in defects and "headers" not in place.done:
            # before its base header is taken: the re-parse has it too
            yield from self.repair_headers(entity, place)
            return
        own = base_header(entity)
        if own is not None:
            place = replace(place, locations=(*place.locations, own))
        if defects & _NO_BOUNDARY and "boundary" not in place.done:
            yield from self.repair_boundary(entity, place)
            return
        if entity.is_multipart():
            payload = entity.get_payload()
            assert isinstance(payload, list)
            message = entity.get_content_maintype() == "message"
            for number, sub in enumerate(payload, 1):
                label = f"{place.index}.{number}".lstrip(".")
                inner = place.section.inner() if message else place.section.part(number)
                yield from self.walk(sub, place.child(label, inner))
            if email_errors.CloseBoundaryNotFoundDefect in defects:
                # A warning: the parts are read to the end of the message, all that the file
                # holds. Mail writers leave the closing line out (11 of the corpus's 132
                # messages); whether the file was cut there, no length says (a WARC record's
                # Content-Length does: a cut record is an error).
                yield InputWarning(
                    "the message ends before its closing MIME boundary: the last part may be "
                    "cut short",
                    name,
                )
            return
        if defects & _NO_BOUNDARY:
            yield InputError("multipart whose boundary never occurs: not read", name)
            return
        kind = entity.get_content_type()  # email gives every part a type
        doctype, body = document_type(kind, b""), b""
        if doctype is not None or by_body(kind):  # text/xml: a feed or a sitemap, or none
            payload = entity.get_payload(decode=True)  # adds the defects of its decoding
            body = payload if isinstance(payload, bytes) else b""
            doctype = doctype or document_type(kind, body)
        if doctype is not None:
            yield Part(
                name,
                body,
                entity.get_content_charset(),
                self.retrieval,
                place.locations,
                doctype=doctype,
                origin=Origin(self.file, part=place.section.path()),
            )
            lost = sorted({_LOSSY[type(d)] for d in entity.defects if type(d) in _LOSSY})
            if lost:
                yield InputError("; ".join(lost) + ": what decoded was read", name)

    def repair_headers(self, entity: Message, place: _Place) -> Iterator[Entry]:
        """A header line that is no header (no colon): the parser ends the headers there and
        takes the ones after it (a Content-Type, a Content-Location) for the body (Blink
        writes such a line for a title with a line break, mhtml2html's portfolio.mhtml).

        The line is skipped and the headers after it read, reported when the entity holds
        documents. A delimiter line (``--boundary``) right after the headers is only a
        missing empty line: the body starts there, as the parser took it.
        """
        name = self.label(entity, place.index)
        place = replace(place, done=place.done | {"headers"})
        body = _payload_bytes(entity)
        end = _BLANK_LINE.search(body)
        head, rest = (body[: end.start()], body[end.start() :]) if end else (body, b"")
        lines = head.splitlines(keepends=True)
        good = [_HEADER_OR_FOLD.match(line.decode("latin-1")) is not None for line in lines]
        bad = [line for line, ok in zip(lines, good, strict=True) if not ok]
        if entity.is_multipart() or not bad or not rest or bad[0].startswith(b"--"):
            # A multipart keeps the lines in its preamble: only a lost base header matters.
            if _lost_base(entity):
                yield InputError(
                    "MIME header line without a colon: the headers after it were not read", name
                )
            yield from self.walk(entity, place)
            return
        if not self.may_repair():
            yield _too_many_repairs(name)
            return
        own = b"".join(
            f"{key}: {value}\r\n".encode("utf-8", "surrogateescape")
            for key, value in entity.raw_items()
        )
        kept = b"".join(line for line, ok in zip(lines, good, strict=True) if ok)
        del body, head, lines  # one copy at a time (_dropped)
        _dropped(entity)
        repaired = _parse(own + kept + rest)
        del rest
        kind = repaired.get_content_type()
        if repaired.is_multipart() or kind in _CONTAINERS or document_type(kind, b"") is not None:
            line = bad[0].strip()[:60].decode("latin-1")
            yield InputWarning(  # repaired: the line alone is passed over (a warning)
                f"MIME header line without a colon, {line!r}: skipped, the headers after it read",
                name,
            )
        yield from self.walk(repaired, place)

    def repair_boundary(self, entity: Message, place: _Place) -> Iterator[Entry]:
        """A multipart whose boundary the parser could not use: find the one the body uses.

        First the Content-Type's boundary read as mail clients read it (an unquoted value with
        "=" in it, ``boundary=----=_NextPart_0``, is cut at the "=" by the strict grammar; every
        client reads it whole): that is no damage. Else the first delimiter line of the body,
        reported. Else the body is read as one part, reported.
        """
        name = self.label(entity, place.index)
        place = replace(place, done=place.done | {"boundary"})
        declared = entity.get_boundary()
        lenient = _lenient_boundary(entity)
        if lenient is not None and len(lenient) > MAX_BOUNDARY:
            yield InputError(
                f"MIME boundary of {len(lenient):,} characters (more than {MAX_BOUNDARY:,}): "
                "the multipart is not read",
                name,
            )
            return
        if not self.may_repair():
            yield _too_many_repairs(name)
            return
        body = _dropped(entity)
        if (
            lenient is not None
            and lenient.decode("latin-1") != declared
            and b"\n--" + lenient in b"\n" + body
        ):
            repaired = _reparse(entity, lenient, body)
            del body  # one copy at a time (_dropped)
            yield from self.walk(repaired, place)
            return
        found = _first_delimiter(body)
        if found is not None:
            what = (
                f"MIME boundary {declared!r} never occurs"
                if declared
                else "multipart without a boundary parameter"
            )
            # repaired: the parts the body holds are read (a warning)
            yield InputWarning(
                f"{what}: using the first delimiter line's, {found.decode('latin-1')!r}", name
            )
            repaired = _reparse(entity, found, body)
            del body
            yield from self.walk(repaired, place)
            return
        # no delimiter line at all: the body is one part, read whole (a warning)
        yield InputWarning(
            f"MIME boundary {declared!r} never occurs: the body was read as a single part", name
        )
        inner = _parse(body.lstrip(b"\r\n"))  # blank lines before the part's headers
        del body
        label = f"{place.index}.1".lstrip(".")
        yield from self.walk(inner, place.child(label, place.section.part(1)))


def _too_many_repairs(name: str) -> InputError:
    return InputError(
        f"more than {MAX_MIME_REPAIRS} damaged MIME entities parsed again in one message: "
        "this one is not read",
        name,
    )


_NO_BOUNDARY = {email_errors.NoBoundaryInMultipartDefect, email_errors.StartBoundaryNotFoundDefect}
# Defects of a part's decoding that lose or change bytes of the document.
# (Characters outside the base64 alphabet are skipped, the rest decodes as written: no loss.)
_LOSSY = {
    email_errors.InvalidBase64PaddingDefect: "base64 body with wrong padding",
    email_errors.InvalidBase64LengthDefect: "base64 body of a length no encoder writes",
}
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")  # literals: linear
# A header line ("Name: value"), or the folded continuation of one: the parser's own pattern
# (email.feedparser.headerRE, not exported). Anchored, one class: linear.
_HEADER_OR_FOLD = re.compile(r"^(From |[\041-\071\073-\176]*:|[\t ])")
# Entities that hold others, and so may hold documents.
_CONTAINERS = frozenset({"message/rfc822", "message/global"})
_BASE_LINE = re.compile(r"^(?:content-(?:base|location|type)|base)[ \t]*:", re.I | re.M)


def _lost_base(entity: Message) -> bool:
    """Whether the preamble of a multipart holds header lines the base stage would use (they
    came after a line the parser stopped at)."""
    preamble = entity.preamble or ""
    return _BASE_LINE.search(preamble.split("\n\n", 1)[0]) is not None


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
    if not _PRINTABLE_ASCII.fullmatch(boundary):
        # A boundary the header cannot carry as it is ("--b\xc3\xa9"): the parser would read
        # its header as U+FFFD and its delimiter lines as the bytes, never the same (the only
        # link of such a message was lost). Its delimiter lines are given one it can.
        boundary, body = _ascii_delimiters(boundary, body)
    quoted = boundary.replace(b"\\", b"\\\\").replace(b'"', b'\\"')  # RFC 5322 quoted-pair
    return _parse(head + b'"' + quoted + b'"\r\n\r\n' + body)


_PRINTABLE_ASCII = re.compile(rb"[ -~]*")


def _ascii_delimiters(boundary: bytes, body: bytes) -> tuple[bytes, bytes]:
    """An ASCII boundary that ``body`` does not hold, and ``body`` with it in place of
    ``boundary`` at the start of each line (where a delimiter line has it)."""
    number = 0
    while (ascii_boundary := b"=_baselinks_%d" % number) in body:
        number += 1
    lines = re.compile(rb"(?:^|(?<=[\r\n]))--" + re.escape(boundary))
    return ascii_boundary, lines.sub(b"--" + ascii_boundary, body)


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
        yield from _Walker(name, retrieval).walk(message, _Place())
    except RecursionError:
        yield InputError("MIME entities nested too deep to walk", name)
