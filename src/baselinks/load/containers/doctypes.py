"""Which bodies are documents, and of which type: the one registry every container reader asks.

    media type                       document type   read by
    text/html, application/xhtml+xml  html            load/document.py (HTML standard §16.1)
    text/css                          css             find/sheets.py   (CSS Syntax §3.2 decoding)
    image/svg+xml                     svg             find/sheets.py   (an XML parse, walked)
    "", unknown/unknown, ... (none)   html when the body sniffs as HTML (MIME Sniffing §7.1)

A type outside the table is no document (an image, a script, JSON): the record or part is
skipped. CSS and SVG are never sniffed from an unknown type, as the MIME Sniffing standard never
sniffs them (a browser would not apply a style sheet or an SVG served as ``unknown/unknown``).

Files on disk carry no media type: there the name decides (``.css``, ``.svg``, ``.svgz``), or
for SVG the content (an ``<svg`` root after the XML prolog), before HTML sniffing.

Adding a document type is a row of :data:`MEDIA_TYPES` (and of :data:`SUFFIXES`), and a loader
in :data:`baselinks.find.sheets.LOADERS`.
"""

from __future__ import annotations

from enum import StrEnum
from urllib.parse import urlsplit

from .sniff import HEAD_BYTES, Kind, by_name, sniff

__all__ = [
    "HTML_TYPES",
    "MEDIA_TYPES",
    "SUFFIXES",
    "UNKNOWN_TYPES",
    "DocType",
    "document_type",
    "file_type",
    "may_be_document",
]


class DocType(StrEnum):
    """What kind of document a body is, which decides how it is loaded and walked."""

    HTML = "html"
    CSS = "css"
    SVG = "svg"


MEDIA_TYPES: dict[str, DocType] = {
    "text/html": DocType.HTML,
    "application/xhtml+xml": DocType.HTML,
    "text/css": DocType.CSS,
    "image/svg+xml": DocType.SVG,
}
# The media types that are HTML documents (kept for callers of the former constant).
HTML_TYPES = frozenset(t for t, d in MEDIA_TYPES.items() if d is DocType.HTML)
# WHATWG MIME Sniffing §7: a response with no type, or one of these, is sniffed.
UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})
# A file's name, when it has no media type (a gzip's ".gz" is looked through).
SUFFIXES: dict[str, DocType] = {".css": DocType.CSS, ".svg": DocType.SVG, ".svgz": DocType.SVG}


def may_be_document(essence: str) -> bool:
    """Whether a body of media type ``essence`` may be a document: a type of the table, or an
    unknown type (then its body decides). ``False`` lets a reader skip the body unread."""
    return essence in MEDIA_TYPES or essence in UNKNOWN_TYPES


def document_type(essence: str, body: bytes) -> DocType | None:
    """The type of document a body of media type ``essence`` (lower case, no parameters) is,
    or ``None`` when it is none. An unknown type is HTML when the body sniffs as HTML."""
    found = MEDIA_TYPES.get(essence)
    if found is not None:
        return found
    if essence in UNKNOWN_TYPES and sniff(body[:HEAD_BYTES]) is Kind.HTML:
        return DocType.HTML
    return None


def file_type(name: str, head: bytes, url: str | None = None) -> DocType | None:
    """The type a file's name or first bytes say, when it is not HTML: CSS, SVG, or ``None``.

    A name with an HTML suffix is HTML whatever it holds (a page that opens with ``<svg>``).
    A name that says nothing (``-`` for stdin, ``/dev/fd/63``, ``sheet.txt``) leaves it to the
    retrieval URL's path, when the caller passes it (only for content that does not look like
    HTML): ``cat site.css | baselinks extract --url http://e.com/site.css`` is a style sheet
    (it gave "1 document, 0 links", read as HTML).
    """
    lowered = name.lower().removesuffix(".gz")
    for suffix, doctype in SUFFIXES.items():
        if lowered.endswith(suffix):
            return doctype
    if by_name(lowered) is Kind.HTML:  # .html, .htm, .xhtml ...
        return None
    if _svg_root(head):
        return DocType.SVG
    if url:
        try:
            path = urlsplit(url).path.lower()
        except ValueError:  # "http://[bad": no path to tell
            return None
        for suffix, doctype in SUFFIXES.items():
            if path.endswith(suffix):
                return doctype
    return None


def _svg_root(head: bytes) -> bool:
    """Whether the document element is ``<svg``: past a BOM, an XML declaration, comments,
    processing instructions and a doctype (with its internal subset), all in ``head``.

    A loop of ``find`` calls, each moving forward: linear in ``head``.
    """
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    end = len(head)
    while True:
        while pos < end and head[pos] in b"\t\n\r ":
            pos += 1
        if head.startswith(b"<?", pos):
            close, after = head.find(b"?>", pos), 2
        elif head.startswith(b"<!--", pos):
            close, after = head.find(b"-->", pos), 3
        elif head[pos : pos + 9].upper() == b"<!DOCTYPE":
            bracket, close, after = head.find(b"[", pos), head.find(b">", pos), 1
            if 0 <= bracket < close:  # an internal subset: its "]", then the ">"
                subset_end = head.find(b"]", bracket)
                close = head.find(b">", subset_end) if subset_end >= 0 else -1
        else:
            return head.startswith(b"<svg", pos) and head[pos + 4 : pos + 5] in (
                b" ", b"\t", b"\n", b"\r", b">", b"/",
            )  # fmt: skip
        if close < 0:
            return False  # not closed within the head
        pos = close + after
