"""Recognise an input by its first bytes (and, only when they say nothing, by its name).

named .wacz, or PK 03 04 with archive/, indexes/, pages/ or datapackage members
                                   → WACZ       (Webrecorder's zip of WARCs; a .wacz that is
                                                 no zip is said to be none, by name)
WARC/1.0 ...                       → WARC       (ISO 28500)
filedesc:// ...                    → ARC        (Internet Archive ARC 1.0)
URL IP-address 14-digit-date ...   → ARC        (an ARC record without its file header)
1f 8b                              → GZIP       (RFC 1952: looked inside, then sniffed again)
HTTP/1.1 200 ...                   → HTTP       (a raw response: status line, headers, body)
From ... / Header: ... with a Content-Type or MIME-Version header
                                   → MIME       (RFC 5322/2045 message, MHTML)
<!DOCTYPE html, <html, <head, <p ... → HTML     (WHATWG MIME Sniffing §7.1, "text/html")
junk, then a WARC record or a gzip member holding one
                                   → WARC       (the start damaged: the reader reads on)
89 50 4E 47 ..., %PDF-, ...        → BINARY     (images, fonts, media, archives: not documents)
anything else                      → TEXT       (an HTML document only when named as one)
"""

from __future__ import annotations

import re
from enum import StrEnum

from .resync import archive_inside, starts_arc_record

__all__ = ["Kind", "binary_label", "by_name", "sniff"]


class Kind(StrEnum):
    WARC = "warc"
    ARC = "arc"
    GZIP = "gzip"
    HTTP = "http"
    MIME = "mime"
    HTML = "html"
    BINARY = "binary"
    TEXT = "text"
    WACZ = "wacz"


# How many bytes sniff() wants to see.
HEAD_BYTES = 8192

# WHATWG MIME Sniffing §6 and §7.1: signatures of what is certainly not a document.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"\x00\x00\x01\x00", "ICO image"),
    (b"\x00\x00\x02\x00", "CUR image"),
    (b"%PDF-", "PDF document"),
    (b"%!PS-Adobe-", "PostScript document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"OTTO", "OpenType font"),
    (b"\x00\x01\x00\x00\x00", "TrueType font"),
    (b"ID3", "MP3 audio"),
    (b"OggS\x00", "Ogg media"),
    (b"\x1aE\xdf\xa3", "WebM video"),
    (b"fLaC", "FLAC audio"),
    (b"\x00asm", "WebAssembly module"),
    (b"\x7fELF", "ELF executable"),
)

# WHATWG MIME Sniffing §7.1, "text/html" patterns: after leading whitespace, one of these tags
# (any case) followed by a space or ">". "<?xml" is added for XHTML. The patterns here run
# on the first HEAD_BYTES of an input only, and are literals with bounded classes.
_HTML_START = re.compile(
    rb"[\t\n\x0c\r ]*(?:<!DOCTYPE HTML|<HTML|<HEAD|<SCRIPT|<IFRAME|<H1|<DIV|<FONT|<TABLE|<A|"
    rb"<STYLE|<TITLE|<B|<BODY|<BR|<P|<!--)[ >\t\n\x0c\r]|[\t\n\x0c\r ]*<\?xml[ \t\r\n]",
    re.IGNORECASE,
)
# An RFC 5322 header line: a field name of printable ASCII except ":", then a colon.
_HEADER_LINE = re.compile(rb"[!-9;-~]{1,76}:")
# Within the first header block, what makes it a MIME entity rather than stray text.
_MIME_HEADER = re.compile(rb"(?:^|\n)(?:content-type|mime-version)[ \t]*:", re.IGNORECASE)
_HTTP_STATUS = re.compile(rb"HTTP/\d(?:\.\d)? \d{3}")
# A zip's local header (APPNOTE 4.3.7) whose name is one of a WACZ's (spec 1.1.1's layout).
_WACZ_MEMBER = re.compile(rb"PK\x03\x04.{26}(?:archive/|indexes/|pages/|datapackage)", re.DOTALL)

_BY_NAME = (
    ((".warc", ".warc.gz", ".arc", ".arc.gz"), Kind.WARC),
    ((".mht", ".mhtml", ".eml"), Kind.MIME),
    ((".html", ".htm", ".xhtml", ".xht", ".shtml"), Kind.HTML),
)
_BOMS = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")


def binary_label(head: bytes) -> str | None:
    """What a known binary signature says the data is (``"PNG image"``), or ``None``."""
    for signature, label in _SIGNATURES:
        if head.startswith(signature):
            return label
    if head[4:8] == b"ftyp":
        return "MP4 media"
    if head.startswith(b"RIFF") and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "WebP image", b"WAVE": "WAV audio", b"AVI ": "AVI video"}[head[8:12]]
    return None


def _is_mime(head: bytes) -> bool:
    if head.startswith(b"From "):  # an mbox "From_" line before the headers
        head = head.partition(b"\n")[2]
    if _HEADER_LINE.match(head) is None:
        return False
    block = re.split(rb"\r?\n\r?\n", head, maxsplit=1)[0]
    return _MIME_HEADER.search(block) is not None


def sniff(head: bytes, name: str = "") -> Kind:
    """The kind of the input whose first bytes (up to :data:`HEAD_BYTES`) are ``head``."""
    if name.lower().endswith(".wacz") or (
        head.startswith(b"PK\x03\x04") and _WACZ_MEMBER.search(head)
    ):
        return Kind.WACZ  # a .wacz that is no zip: the reader says so, by name
    if head.startswith(b"\x1f\x8b"):
        return Kind.GZIP
    stripped = head.lstrip(b"\t\n\r ")
    if stripped.startswith(b"WARC/"):
        return Kind.WARC
    # An ARC file's records without its filedesc:// record (split by record, cut): its first
    # line "http://e.com/ 1.2.3.4 20200101000000 text/html 10" also reads as a MIME header
    # line ("http:"), and a MIME message it was not (a wrong base, a false error).
    if stripped.startswith(b"filedesc://") or starts_arc_record(stripped):
        return Kind.ARC
    if _HTTP_STATUS.match(stripped):
        return Kind.HTTP
    if any(head.startswith(bom) for bom in _BOMS):
        return Kind.HTML  # a text encoding's byte order mark: a text document
    if _HTML_START.match(head):
        return Kind.HTML
    if _is_mime(head):
        return Kind.MIME
    if archive_inside(head) is not None:
        return Kind.WARC  # its first record damaged: the reader reports it and reads on
    if binary_label(head) is not None:
        return Kind.BINARY
    return by_name(name) or Kind.TEXT


def by_name(name: str) -> Kind | None:
    """The kind a file's name says (``.warc.gz``, ``.mht``, ``.html``...), or ``None``: what
    :func:`sniff` falls back on when the first bytes say nothing."""
    lowered = name.lower()
    for suffixes, kind in _BY_NAME:
        if lowered.endswith(suffixes):
            return kind
    return None
