"""Which bodies are documents, and of which type: the one registry every container reader asks.

    media type                       document type   read by
    text/html, application/xhtml+xml  html            load/document.py (HTML standard §16.1)
    text/css                          css             find/sheets.py   (CSS Syntax §3.2 decoding)
    image/svg+xml                     svg             find/sheets.py   (an XML parse, walked)
    application/atom+xml, .../rss+xml, .../rdf+xml
                                      feed            find/feeds.py    (Atom, RSS, RDF; xml:base)
    text/xml, application/xml         feed, sitemap or svg by the document element, else none
    application/gzip, .../x-gzip      sitemap or feed by the gunzipped document element
    text/plain at /robots.txt         robots          find/robots.py   (Sitemap: lines)
    text/plain at .../sitemap*.txt    sitemap-text    find/sitemaps.py (one URL a line)
    "", unknown/unknown, ... (none)   a feed or sitemap by its document element, else html
                                      when the body sniffs as HTML (MIME Sniffing §7.1)

A type outside the table is no document (an image, a script, JSON): the record or part is
skipped. CSS and SVG are never sniffed from an unknown type, as the MIME Sniffing standard never
sniffs them (a browser would not apply a style sheet or an SVG served as ``unknown/unknown``).
A feed is: MIME Sniffing §7.2 ("Sniffing a mislabeled feed") reads ``text/html`` bodies whose
document element is ``<rss``, ``<feed`` or an RSS 1.0 ``<rdf:RDF`` as feeds, and so does this
table (and for a body of no type).

Files on disk carry no media type: there the name decides (``.css``, ``.svg``, ``.svgz``,
``robots.txt``, ``sitemap*.txt``), or the content (an ``<svg``, ``<rss``, ``<feed``,
``<rdf:RDF``, ``<urlset`` or ``<sitemapindex`` document element after the XML prolog), before
HTML sniffing. A record's or a stream's URL is asked the same of its path.

Adding a document type is a row of :data:`MEDIA_TYPES` (and of :data:`SUFFIXES` or
:data:`ROOTS`), and a loader in :data:`baselinks.find.sheets.LOADERS`.
"""

from __future__ import annotations

import re
import zlib
from enum import StrEnum
from urllib.parse import urlsplit

from .sniff import HEAD_BYTES, Kind, by_name, sniff

__all__ = [
    "HTML_TYPES",
    "MEDIA_TYPES",
    "ROOTS",
    "SUFFIXES",
    "UNKNOWN_TYPES",
    "DocType",
    "by_body",
    "document_type",
    "file_type",
    "may_be_document",
]


class DocType(StrEnum):
    """What kind of document a body is, which decides how it is loaded and walked."""

    HTML = "html"
    CSS = "css"
    SVG = "svg"
    FEED = "feed"  # Atom 1.0 and 0.3, RSS 0.9x/2.0, RSS 1.0 (RDF)
    SITEMAP = "sitemap"  # sitemaps.org urlset or sitemapindex (XML)
    SITEMAP_TEXT = "sitemap-text"  # sitemaps.org's text format: one URL a line
    ROBOTS = "robots"  # robots.txt (RFC 9309): its Sitemap lines


MEDIA_TYPES: dict[str, DocType] = {
    "text/html": DocType.HTML,
    "application/xhtml+xml": DocType.HTML,
    "text/css": DocType.CSS,
    "image/svg+xml": DocType.SVG,
    "application/atom+xml": DocType.FEED,  # RFC 4287 §7
    "application/rss+xml": DocType.FEED,
    "application/rdf+xml": DocType.FEED,  # RSS 1.0; any RDF/XML's rdf:about, rdf:resource
}
# The media types that are HTML documents (kept for callers of the former constant).
HTML_TYPES = frozenset(t for t, d in MEDIA_TYPES.items() if d is DocType.HTML)
# WHATWG MIME Sniffing §7: a response with no type, or one of these, is sniffed.
UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})
# Generic XML (RFC 7303): a document by its document element (ROOTS), else none.
XML_TYPES = frozenset({"text/xml", "application/xml"})
# A file served compressed, not content-coded (sitemap.xml.gz): a document by what it holds.
GZIP_TYPES = frozenset({"application/gzip", "application/x-gzip", "application/x-gunzip"})
# Plain text, and what a server sends for a file it knows nothing of: a document by its URL.
TEXT_TYPES = frozenset({"text/plain", "application/octet-stream"})
# A file's name, when it has no media type (a gzip's ".gz" is looked through).
SUFFIXES: dict[str, DocType] = {".css": DocType.CSS, ".svg": DocType.SVG, ".svgz": DocType.SVG}
# The document element's name (local name, after any prefix), past the XML prolog.
ROOTS: dict[bytes, DocType] = {
    b"svg": DocType.SVG,
    b"rss": DocType.FEED,
    b"feed": DocType.FEED,
    b"RDF": DocType.FEED,  # when it declares RSS 1.0 or 0.90 (_is_rss_rdf)
    b"urlset": DocType.SITEMAP,
    b"sitemapindex": DocType.SITEMAP,
}
# RFC 9309 §2.3: 'The rules MUST be accessible in a file named "/robots.txt" (all lower
# case) in the top-level path of the service.'
ROBOTS_PATH = "/robots.txt"
# A text sitemap is known by its name: sitemaps.org gives none, but "sitemap.txt" is what
# generators and CMSs write (and Yahoo's "urllist.txt" is the same format); "sitemap_1.txt",
# "sitemap-news.txt" too. Any other text file is no document.
_TEXT_SITEMAP = re.compile(r"(?:sitemap[\w.-]*|urllist)\.txt", re.IGNORECASE)
# MIME Sniffing §7.2, "Sniffing a mislabeled feed": an rdf:RDF root is a feed when both of
# these are in the first bytes.
_RSS_RDF = (b"http://purl.org/rss/1.0/", b"http://www.w3.org/1999/02/22-rdf-syntax-ns#")
_RSS_090 = b"http://my.netscape.com/rdf/simple/0.9/"
_GZIP_MAGIC = b"\x1f\x8b"  # RFC 1952 §2.3.1


def may_be_document(essence: str, url: str | None = None) -> bool:
    """Whether a body of media type ``essence`` (at ``url``, when known) may be a document: a
    type of the table, an unknown, XML or gzip type (then its body decides), or plain text at
    a robots.txt or text sitemap URL. ``False`` lets a reader skip the body unread."""
    return (
        essence in MEDIA_TYPES
        or essence in UNKNOWN_TYPES
        or essence in XML_TYPES
        or essence in GZIP_TYPES
        or (essence in TEXT_TYPES and url is not None and _text_may_be(url))
    )


def _text_may_be(url: str) -> bool:
    # robots.txt, a text sitemap, or a file served as bytes that may be a gzip of a sitemap
    return _by_url(url) is not None or _path(url).lower().endswith(".gz")


def by_body(essence: str) -> bool:
    """Whether a type leaves it to the body to say which document it is, if any (XML, gzip):
    a reader that decides by type alone reads the body of these."""
    return essence in XML_TYPES or essence in GZIP_TYPES


def document_type(essence: str, body: bytes, url: str | None = None) -> DocType | None:
    """The type of document a body of media type ``essence`` (lower case, no parameters) is,
    or ``None`` when it is none; ``url``, where it was retrieved from, names a robots.txt or a
    text sitemap. An unknown type is a feed or a sitemap by its document element, else HTML
    when the body sniffs as HTML."""
    head = body[:HEAD_BYTES]
    found = MEDIA_TYPES.get(essence)
    if found is DocType.HTML and essence == "text/html":
        return DocType.FEED if _root_type(head) is DocType.FEED else found  # MIME Sniffing §7.2
    if found is not None:
        return found
    if essence in XML_TYPES:
        return _root_type(head)
    if essence in GZIP_TYPES or (essence in TEXT_TYPES and head.startswith(_GZIP_MAGIC)):
        # gzip by content; a body a container already gunzipped (a .gz given with its
        # headers) is read as it is
        inner = _root_type(_gunzip_head(head) if head.startswith(_GZIP_MAGIC) else head)
        return inner if inner in (DocType.FEED, DocType.SITEMAP) else None
    if essence in TEXT_TYPES or essence in UNKNOWN_TYPES:
        named = None if url is None else _by_url(url)
        if named is not None and not (essence in UNKNOWN_TYPES and _is_html(head)):
            return named  # a soft 404 of no type at /robots.txt is a page
    if essence in UNKNOWN_TYPES:
        root = _root_type(head)
        if root in (DocType.FEED, DocType.SITEMAP):
            return root
        if _is_html(head):
            return DocType.HTML
    return None


def _is_html(head: bytes) -> bool:
    return sniff(head) is Kind.HTML


def _gunzip_head(head: bytes) -> bytes:
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, HEAD_BYTES)
    except zlib.error:
        return b""


def file_type(name: str, head: bytes, url: str | None = None) -> DocType | None:
    """The type a file's name or first bytes say, when it is not HTML: CSS, SVG, a feed, a
    sitemap, robots.txt, or ``None``.

    A name with an HTML suffix is HTML whatever it holds (a page that opens with ``<svg>``).
    A name that says nothing (``-`` for stdin, ``/dev/fd/63``, ``sheet.txt``) leaves it to the
    document element, then to the retrieval URL's path, when the caller passes it (only for
    content that does not look like HTML): ``cat site.css | baselinks extract --url
    http://e.com/site.css`` is a style sheet (it gave "1 document, 0 links", read as HTML).
    """
    lowered = name.lower().removesuffix(".gz")
    for suffix, doctype in SUFFIXES.items():
        if lowered.endswith(suffix):
            return doctype
    named = _by_name(lowered.rpartition("/")[2])
    if named is not None:
        return named
    if by_name(lowered) is Kind.HTML:  # .html, .htm, .xhtml ...
        return None
    root = _root_type(head)
    if root is not None:
        return root
    if url:
        path = _path(url)
        for suffix, doctype in SUFFIXES.items():
            if path.lower().endswith(suffix):
                return doctype
        return _by_url(url)
    return None


def _by_name(basename: str) -> DocType | None:
    """robots.txt or a text sitemap, by a file's name (lower case, without ``.gz``)."""
    if basename == "robots.txt":
        return DocType.ROBOTS
    if _TEXT_SITEMAP.fullmatch(basename):
        return DocType.SITEMAP_TEXT
    return None


def _path(url: str) -> str:
    try:
        return urlsplit(url).path
    except ValueError:  # "http://[bad": no path to tell
        return ""


def _by_url(url: str) -> DocType | None:
    """robots.txt or a text sitemap, by a URL's path."""
    path = _path(url)
    if path == ROBOTS_PATH:
        return DocType.ROBOTS
    if _TEXT_SITEMAP.fullmatch(path.rpartition("/")[2].removesuffix(".gz")):
        return DocType.SITEMAP_TEXT
    return None


def _root_type(head: bytes) -> DocType | None:
    """The type :data:`ROOTS` gives the document element of ``head``, or ``None``."""
    name = _root(head)
    if name is None:
        return None
    local = name.rpartition(b":")[2]
    found = ROOTS.get(local)
    if local == b"RDF" and not _is_rss_rdf(head):
        return None
    return found


def _is_rss_rdf(head: bytes) -> bool:
    return all(namespace in head for namespace in _RSS_RDF) or _RSS_090 in head


_NAME_ENDS = frozenset(b" \t\n\r>/")


def _root(head: bytes) -> bytes | None:
    """The name of the document element, as written (``rss``, ``rdf:RDF``): past a BOM, an
    XML declaration, comments, processing instructions and a doctype (with its internal
    subset), all in ``head``; ``None`` when it is not there.

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
        elif head.startswith(b"<", pos):
            stop = pos + 1
            while stop < end and head[stop] not in _NAME_ENDS:
                stop += 1
            return head[pos + 1 : stop] if stop < end else None
        else:
            return None
        if close < 0:
            return None  # not closed within the head
        pos = close + after
