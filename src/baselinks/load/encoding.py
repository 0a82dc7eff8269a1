"""Decode a document's bytes the way a browser does (HTML standard §13.2.3 "encoding sniffing").

Order, first that answers wins:

1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE);
2. the transport layer's charset (an HTTP or MIME ``Content-Type``), when the caller gives one;
3. the ``<meta charset>`` / ``<meta http-equiv=content-type>`` prescan of the first 1024 bytes;
4. no declaration at all: UTF-16 if every other byte of the start is NUL (markup is ASCII),
   else UTF-8 if the whole document is valid UTF-8, else windows-1252.

Step 4 is the standard's "autodetection" latitude; browsers use a locale default instead. We
measured why: given raw bytes, libxml2 decoded 34 UTF-8 pages of the corpus as Latin-1 (they
declare nothing); a strict UTF-8 decode can only succeed on real UTF-8 or on pure ASCII.

Labels are mapped with ``webencodings`` (the WHATWG Encoding Standard's label table, a
dependency of tinycss2), so ``latin1`` and ``iso-8859-1`` mean windows-1252, as in browsers.

The prescan is written by hand: no maintained library exposes the standard's prescan as a
function (html5lib's is private, and unmaintained since 2020; w3lib uses a regular expression
over 4 KB, which disagrees with browsers on comments and attribute order).
"""

from __future__ import annotations

import codecs
import re
from typing import NamedTuple

import webencodings

__all__ = [
    "REPLACEMENT",
    "REPLACEMENT_UNREAD",
    "Decoded",
    "browser_encoding",
    "decode",
    "decode_as",
    "lookup",
    "prescan",
    "prescan_reference",
    "query_codec",
    "sniff",
]

_WHITESPACE = b"\t\n\x0c\r "
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))


class Decoded(NamedTuple):
    """Decoded text, the WHATWG name of its encoding, and which sniffing step chose it."""

    text: str
    encoding: str
    source: str  # "bom" | "transport" | "meta" | "utf-16-detected" | "utf-8-detected" | "default"


def lookup(label: str) -> str | None:
    """The WHATWG encoding name for ``label``, or ``None`` if the label is unknown."""
    found = webencodings.lookup(label.strip())
    return None if found is None else str(found.name)


def _codec(name: str) -> str:
    # webencodings names x-user-defined a codec of its own; everything else is a Python codec.
    found = webencodings.lookup(name)
    return "windows-1252" if found is None or name == "x-user-defined" else found.codec_info.name


def browser_encoding(encoding: str, source: str, text: str | bytes) -> str:
    """The encoding a browser gives a document we decoded as ``encoding`` (found by ``source``),
    for what depends on it beyond decoding: the queries of its URLs.

    The two differ in one case: a document that declares nothing and is all ASCII. Step 4 above
    reads it as UTF-8 (the text is the same in any ASCII-compatible encoding); a browser takes
    its locale's default, windows-1252 for most locales (HTML #determining-the-character-
    encoding, step 9's suggested defaults; what headless Chromium did on the pages of issue 19),
    and a ``&#255;`` in a query is then sent as ``%FF``, not ``%C3%BF``. ``text`` may be the
    UTF-8 bytes the text decodes from (load.Document.content): all ASCII if the text is.
    """
    if source == "utf-8-detected" and text.isascii():
        return "windows-1252"
    return encoding


def query_codec(name: str) -> codecs.CodecInfo | None:
    """The codec a URL's query is encoded with in a document decoded as ``name``; ``None``
    for UTF-8. URL Standard, "get an output encoding": replacement, UTF-16BE and UTF-16LE give
    UTF-8 (an unknown name does too)."""
    found = webencodings.lookup(name)
    if found is None or found.name in ("utf-8", "utf-16be", "utf-16le", "replacement"):
        return None
    return found.codec_info  # type: ignore[no-any-return]


# Encoding Standard, "replacement": the labels csiso2022kr, hz-gb-2312, iso-2022-cn,
# iso-2022-cn-ext, iso-2022-kr and replacement name it, so that content in those encodings
# (which can smuggle ASCII past filters) is never decoded. "The replacement decoder ... If
# replacement error returned flag is unset, set it, and return error": a non-empty input
# decodes to one U+FFFD. What the document said is not read; load reports that.
REPLACEMENT = "replacement"
REPLACEMENT_UNREAD = (
    'declared in an encoding the Encoding Standard maps to "replacement" (ISO-2022-KR, '
    "ISO-2022-CN, HZ-GB-2312): decoded as one U+FFFD, nothing of it read"
)


def _decode(data: bytes, name: str) -> str:
    if name == REPLACEMENT:
        return "\ufffd" if data else ""
    return data.decode(_codec(name), "replace")


def decode(data: bytes, transport_charset: str | None = None) -> Decoded:
    """Decode ``data`` by the sniffing order above; undecodable bytes become U+FFFD."""
    return decode_as(data, *sniff(data, transport_charset))


def sniff(data: bytes, transport_charset: str | None = None) -> tuple[str, str]:
    """The encoding the sniffing order above chooses, and the step that chose it, before
    decoding: ("utf-8", "utf-8-detected") is step 4's guess, which holds if ``data`` is valid
    UTF-8 (else windows-1252, "default": :func:`decode_as` tells)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, "bom"
    if transport_charset:
        transport = lookup(transport_charset)
        if transport is not None:
            return transport, "transport"
    declared = prescan(data)
    if declared is not None:
        return declared, "meta"
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return utf16, "utf-16-detected"
    return "utf-8", "utf-8-detected"


def decode_as(data: bytes, encoding: str, source: str) -> Decoded:
    """``data`` decoded as :func:`sniff` chose."""
    if source == "bom":
        bom = next(bom for bom, name in _BOMS if name == encoding)
        return Decoded(data[len(bom) :].decode(_codec(encoding), "replace"), encoding, source)
    if source == "utf-16-detected":
        return Decoded(data.decode(encoding, "replace"), encoding, source)
    if source == "utf-8-detected":
        try:
            return Decoded(data.decode("utf-8"), "utf-8", source)
        except UnicodeDecodeError:
            return Decoded(data.decode("windows-1252", "replace"), "windows-1252", "default")
    return Decoded(_decode(data, encoding), encoding, source)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a byte order mark, told by where its NUL bytes fall; else None.

    Markup is ASCII, and ASCII in UTF-16 is every other byte NUL: the odd bytes (LE) or the
    even ones (BE). Without this, such a file decodes as valid UTF-8 full of NULs, and silently
    yields no link. (Step 4's "autodetection" latitude; Chrome's detector does the same.)
    """
    head = data[:1024]
    if len(head) < 8 or b"\x00" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) // 2
    # most of one side NUL (text other than ASCII leaves some room), next to none of the other
    if 10 * odd >= 6 * half and 50 * even <= half:
        return "utf-16le"
    if 10 * even >= 6 * half and 50 * odd <= half:
        return "utf-16be"
    return None


def _is(byte: int, chars: bytes) -> bool:
    return byte >= 0 and byte in chars


class _Scanner:
    """A position in the first 1024 bytes, with the prescan's "get an attribute" algorithm."""

    def __init__(self, data: bytes) -> None:
        self.data = data[:1024]
        self.pos = 0

    def byte(self, offset: int = 0) -> int:
        i = self.pos + offset
        return self.data[i] if i < len(self.data) else -1

    def skip(self, chars: bytes) -> None:
        while self.pos < len(self.data) and self.data[self.pos] in chars:
            self.pos += 1

    def get_attribute(self) -> tuple[bytes, bytes] | None:
        """HTML §13.2.3.2 "get an attribute"; ``None`` at ``>`` or the end of the input."""
        self.skip(_WHITESPACE + b"/")
        b = self.byte()
        if b in (-1, ord(">")):
            return None
        name = bytearray()
        value = bytearray()
        while True:  # attribute name
            if b == -1:
                return None
            if b == ord("=") and name:
                self.pos += 1
                break
            if b in _WHITESPACE:
                self.skip(_WHITESPACE)  # "spaces"
                if self.byte() != ord("="):
                    return bytes(name), b""
                self.pos += 1
                break
            if b in b"/>":
                return bytes(name), b""
            name.append(b | 0x20 if 0x41 <= b <= 0x5A else b)
            self.pos += 1
            b = self.byte()
        self.skip(_WHITESPACE)  # "value"
        b = self.byte()
        if b in (ord('"'), ord("'")):
            quote = b
            self.pos += 1
            while True:
                b = self.byte()
                if b == -1:
                    return None
                self.pos += 1
                if b == quote:
                    return bytes(name), bytes(value)
                value.append(b | 0x20 if 0x41 <= b <= 0x5A else b)
        if b == ord(">"):
            return bytes(name), b""
        while b != -1 and b not in _WHITESPACE and b != ord(">"):
            value.append(b | 0x20 if 0x41 <= b <= 0x5A else b)
            self.pos += 1
            b = self.byte()
        return (bytes(name), bytes(value)) if b != -1 else None


def _charset_from_content(content: bytes) -> bytes | None:
    """HTML §2.5 "extracting a character encoding from a meta element" (content is lower case)."""
    pos = 0
    while True:
        pos = content.find(b"charset", pos)
        if pos < 0:
            return None
        pos += 7
        while pos < len(content) and content[pos] in _WHITESPACE:
            pos += 1
        if pos < len(content) and content[pos] == ord("="):
            break
    pos += 1
    while pos < len(content) and content[pos] in _WHITESPACE:
        pos += 1
    if pos >= len(content):
        return None
    if content[pos] in b"\"'":
        end = content.find(content[pos : pos + 1], pos + 1)
        return None if end < 0 else content[pos + 1 : end]
    end = pos
    while end < len(content) and content[end] not in _WHITESPACE and content[end] != ord(";"):
        end += 1
    return content[pos:end]


def _meta(scan: _Scanner) -> str | None:
    """The prescan's steps for one ``<meta`` tag; the encoding name it declares, if any."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: bytes | None = None
    while (attribute := scan.get_attribute()) is not None:
        name, value = attribute
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv" and value == b"content-type":
            got_pragma = True
        elif name == b"content" and charset is None:
            found = _charset_from_content(value)
            if found is not None:
                charset, need_pragma = found, True
        elif name == b"charset":
            charset, need_pragma = value, False
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return None
    encoding = lookup(charset.decode("ascii", "replace"))
    if encoding in ("utf-16be", "utf-16le"):
        return "utf-8"  # a document that can declare itself in ASCII is not UTF-16
    if encoding == "x-user-defined":
        return "windows-1252"
    return encoding


def prescan_reference(data: bytes) -> str | None:
    """HTML §13.2.3.2 "prescan a byte stream to determine its encoding" over 1024 bytes, byte by
    byte as the standard writes it: the reference :func:`prescan` is tested against."""
    return _prescan_from(_Scanner(data))


def _prescan_from(scan: _Scanner) -> str | None:
    """The prescan's loop from ``scan.pos`` on (at a "<", or where the bytes before it were
    passed over as the loop would pass over them)."""
    buf = scan.data
    while scan.pos < len(buf):
        if buf[scan.pos] != 0x3C:  # "<": every step below starts at one, the rest is skipped
            scan.pos = buf.find(b"<", scan.pos)
            if scan.pos < 0:
                return None
        if buf.startswith(b"<!--", scan.pos):
            end = buf.find(b"-->", scan.pos + 2)
            if end < 0:
                return None
            scan.pos = end + 3
            continue
        if buf[scan.pos : scan.pos + 5].lower() == b"<meta" and _is(
            scan.byte(5), _WHITESPACE + b"/"
        ):
            scan.pos += 6
            found = _meta(scan)
            if found is not None:
                return found
        elif scan.byte() == ord("<") and (
            _is(scan.byte(1), _LETTERS)
            or (scan.byte(1) == ord("/") and _is(scan.byte(2), _LETTERS))
        ):
            while scan.pos < len(buf) and buf[scan.pos] not in _WHITESPACE + b">":
                scan.pos += 1
            while scan.get_attribute() is not None:
                pass
        elif buf.startswith((b"<!", b"</", b"<?"), scan.pos):
            end = buf.find(b">", scan.pos + 2)
            if end < 0:
                return None
            scan.pos = end
        scan.pos += 1
    return None


# What the prescan's loop passes over without a word, as one expression, for :func:`prescan`:
# text; a comment ("<!--" to the first "-->" from its "--" on, so "<!-->" is one); a tag that is
# no "<meta" followed by a space or "/", its name up to a space or ">" (a "/" and a "<" are part
# of it), then "get an attribute" until its ">" (one name: a first byte that is no space, "/"
# or ">", then none of those nor "="; its value after "=" and spaces, quoted, unquoted up to a
# space or ">", or none before a ">"); a bogus comment ("<!", "</" or "<?" to the next ">"); a
# "<" that starts none of them. Each is possessive, so nothing is read twice; where one cannot
# complete (the 1024 bytes end inside a comment or a tag, or quotes do not close) it matches
# nothing, and the byte-by-byte loop reads the rest.
_ATTRIBUTE = (
    rb"[\t\n\f\r /]*+[^\t\n\f\r />][^\t\n\f\r />=]*+"
    rb"(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+"
    rb"""(?:"[^"]*+"|'[^']*+'|(?=>)|[^\t\n\f\r >"'][^\t\n\f\r >]*+)|(?![\t\n\f\r ]*+=))"""
)
_PASSED_OVER = re.compile(
    rb"(?:[^<]++"
    rb"|<!(?=--)(?:(?!-->)[\s\S])*+-->"
    rb"|<(?![Mm][Ee][Tt][Aa][\t\n\f\r /])(?:[A-Za-z]|/[A-Za-z])[^\t\n\f\r >]*+"
    rb"(?:" + _ATTRIBUTE + rb")*+[\t\n\f\r /]*+>"
    rb"|<(?:!(?!--)|/(?![A-Za-z])|\?)[^>]*+>"
    rb"|<(?![!?/A-Za-z])"
    rb")*+"
)
_META = re.compile(rb"<[Mm][Ee][Tt][Aa][\t\n\f\r /]")
# One whole attribute as "get an attribute" reads it (groups: name; value double-quoted,
# single-quoted, unquoted), where it ends before the 1024 bytes do; else no match.
_READ_ATTRIBUTE = re.compile(
    rb"[\t\n\f\r /]*+([^\t\n\f\r />][^\t\n\f\r />=]*+)"
    rb"(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+"
    rb"""(?:"([^"]*+)"|'([^']*+)'|(?=>)|([^\t\n\f\r >"'][^\t\n\f\r >]*+)(?=[\t\n\f\r >]))"""
    rb"|(?=[/>])|[\t\n\f\r ]++(?!=))"
)


class _Reader(_Scanner):
    """The prescan's scanner, reading a whole attribute with one expression where it can."""

    def get_attribute(self) -> tuple[bytes, bytes] | None:
        read = _READ_ATTRIBUTE.match(self.data, self.pos)
        if read is None:  # the end of a tag, or of the 1024 bytes: the standard's own steps
            return super().get_attribute()
        self.pos = read.end()
        name, double, single, bare = read.groups()
        return name.lower(), (double or single or bare or b"").lower()


def prescan(data: bytes) -> str | None:
    """HTML §13.2.3.2 "prescan a byte stream to determine its encoding" over 1024 bytes.

    What the loop passes over is skipped by one expression (_PASSED_OVER), in C; each
    ``<meta`` is read by the standard's steps for it (:func:`_meta`), each of its attributes
    by one expression where it can (_Reader); anything the expressions cannot read whole, by
    the byte-by-byte loop. This must always answer as :func:`prescan_reference` does:
    tests/test_encoding.py compares them on every tag of one attribute and on generated heads
    cut at every byte. On the
    corpus's 316 HTML pages: 0.040 of an lxml parse byte by byte, 0.004 this way.
    """
    buf = data[:1024]
    if b"<meta" not in buf.lower():
        return None  # only a <meta> can declare: the walk below would find nothing
    pos = 0
    while (pos := _PASSED_OVER.match(buf, pos).end()) < len(buf):  # type: ignore[union-attr]
        scan = _Reader(buf)
        scan.pos = pos
        if _META.match(buf, pos) is None:
            return _prescan_from(scan)  # what the expression could not read whole
        scan.pos += 6
        found = _meta(scan)
        if found is not None:
            return found
        pos = scan.pos + 1
    return None
