"""sitemaps: a sitemap (sitemaps.org, XML or text) → every URL in it, as written; never resolved.

    Document (xmlparse.load_xml) ──sitemap_links──► RawLink for each <loc>, extension URL
    Document (sheets.load_plain) ──text_sitemap_links──► RawLink for each line

The XML format (https://www.sitemaps.org/protocol.html): a ``<urlset>`` of ``<url>`` entries, or
a ``<sitemapindex>`` of ``<sitemap>`` entries, each with its ``<loc>``; and the URLs of Google's
extensions in an entry: images (``image:loc``, ``image:license``), videos
(``video:thumbnail_loc``, ``video:content_loc``, ``video:player_loc``, ``video:gallery_loc``,
``video:uploader@info``), alternates (``xhtml:link@href``, with its ``rel``). News entries
(``news:news``) carry no URL of their own. The table is :data:`SITEMAP_SOURCES`.

The document's own vocabulary is matched by local name in whatever namespace its document
element has: ``http://www.sitemaps.org/schemas/sitemap/0.9`` as the protocol says, Google's
former ``http://www.google.com/schemas/sitemap/0.84``, or none at all (real sitemaps have
each). It is read in bounded memory: events only for the elements of the table and the
entries, each entry released once read (xmlparse.py).

The text format: "The text file must have one URL per line" (sitemaps.org, "Other Sitemap
formats"); blank lines are passed over. A text file is a sitemap only where its name says so
(load/containers/doctypes.py).

The protocol's two rules on a ``<loc>`` (and a text sitemap's line) are problem codes, after
the resolver's: a ``<loc>`` must be fully qualified ("This URL must begin with the protocol
(such as http)"): a relative one is resolved against the sitemap's URL and carries
:data:`RELATIVE_LOC`. And "The location of a Sitemap file determines the set of URLs that can
be included in that Sitemap. A Sitemap file located at http://example.com/catalog/sitemap.xml
can include any URLs starting with http://example.com/catalog/ but can not include URLs
starting with http://example.com/images/" (and "All URLs in a Sitemap must be from a single
host"): a ``<loc>`` of another scheme, host or port, or outside the sitemap's directory,
carries :data:`OUTSIDE_SITEMAP`; it is kept (a sitemap submitted through robots.txt may list
another host's URLs, "cross submits"). Neither is checked without the sitemap's own URL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..errors import URLError
from ..load.document import Document
from ..url.parts import SCHEME_RE, parse
from ..url.resolve import resolve
from .linktable import KINDS, TEXT
from .microsyntax import text_lines
from .walk import RawLink
from .xmlparse import XMLEvents, local_name, release, text_of

__all__ = [
    "OUTSIDE_SITEMAP",
    "RELATIVE_LOC",
    "SITEMAP_SOURCES",
    "SitemapSource",
    "outside",
    "sitemap_links",
    "text_sitemap_links",
]

IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO = "http://www.google.com/schemas/sitemap-video/1.1"
XHTML = "http://www.w3.org/1999/xhtml"
# The sitemap's own vocabulary: the namespace of its document element, whatever it is.
OWN = ""

RELATIVE_LOC = "relative-loc"
OUTSIDE_SITEMAP = "loc-outside-sitemap"

# The tag a sitemap's text lines carry (the attr is "line").
TEXT_TAG = "sitemap-text"


class SitemapSource(NamedTuple):
    """One row: an element (its namespace's prefix, its local name), where its URL is."""

    prefix: str  # "": the sitemap's own vocabulary; else the extension's usual prefix
    local: str
    attr: str  # an attribute, or TEXT: the element's text
    kind: str  # one of KINDS
    scoped: bool = False  # the protocol's rules on a <loc> apply
    spec: str = ""


SITEMAP_SOURCES: tuple[SitemapSource, ...] = (
    SitemapSource("", "loc", TEXT, "link", True, "sitemaps.org <url>, <sitemap>"),
    SitemapSource("image", "loc", TEXT, "resource", spec="Google image sitemaps"),
    SitemapSource("image", "license", TEXT, "link", spec="Google image sitemaps"),
    SitemapSource("video", "thumbnail_loc", TEXT, "resource", spec="Google video sitemaps"),
    SitemapSource("video", "content_loc", TEXT, "resource", spec="Google video sitemaps"),
    SitemapSource("video", "player_loc", TEXT, "resource", spec="Google video sitemaps"),
    SitemapSource("video", "gallery_loc", TEXT, "link", spec="Google video sitemaps"),
    SitemapSource("video", "uploader", "info", "link", spec="Google video sitemaps"),
    SitemapSource("xhtml", "link", "href", "link", spec="Google: localized versions"),
)
"""Every URL of an XML sitemap."""

_PREFIXES = {"": OWN, "image": IMAGE, "video": VIDEO, "xhtml": XHTML}
_ENTRIES = ("url", "sitemap")  # released once read: a sitemap holds one at a time
_ROOTS = ("urlset", "sitemapindex")
# The events asked of the parser: the table's elements, the entries, the document element.
_TAGS = tuple(
    dict.fromkeys(
        f"{{*}}{name}" for name in (*(s.local for s in SITEMAP_SOURCES), *_ENTRIES, *_ROOTS)
    )
)
_ROWS: dict[tuple[str, str], SitemapSource] = {
    (_PREFIXES[s.prefix], s.local): s for s in SITEMAP_SOURCES
}
for _source in SITEMAP_SOURCES:
    if _source.kind not in KINDS or _source.prefix not in _PREFIXES:
        raise ValueError(f"sitemap source {_source.local!r}")


def sitemap_links(document: Document, location: str) -> Iterator[RawLink | str]:
    """Every URL of an XML sitemap, in order, as it is parsed; then what was not well-formed,
    if anything (a str). ``location``: the sitemap's URL (its base), "" when not known."""
    events = XMLEvents(document, "sitemap", ("start", "end"), _TAGS, _holds_text)
    own: str | None = None  # the namespace of the document element, once met
    scope = _Scope(location)
    for event, element in events:
        namespace, local = _qualified(element.tag)
        if event == "start":
            if own is None:
                own = namespace
            continue
        source = _ROWS.get((OWN if namespace == own else namespace, local))
        if source is not None:
            found = _link(source, element, local, scope)
            if found is not None:
                yield found
        release(element)  # read: an entry, or a URL inside one
    if events.damage:
        yield events.damage


# The elements whose text is a URL (read at their end, with what is inside them).
_TEXT_LOCALS = frozenset(s.local for s in SITEMAP_SOURCES if s.attr == TEXT)


def _holds_text(element: Any) -> bool:
    # what xmlparse.prune keeps whole: a <loc> still open (anything else it drops once
    # closed, an element the table does not know among them)
    return isinstance(element.tag, str) and _qualified(element.tag)[1] in _TEXT_LOCALS


def _qualified(tag: str) -> tuple[str, str]:
    namespace, local = local_name(tag)
    if not namespace and ":" in local:  # a prefix no declaration binds: its usual namespace
        prefix, _, rest = local.partition(":")
        return _PREFIXES.get(prefix, namespace), rest
    return namespace, local


def _link(source: SitemapSource, element: Any, local: str, scope: _Scope) -> RawLink | None:
    value = text_of(element) if source.attr == TEXT else element.get(source.attr)
    if value is None or (source.attr == TEXT and not value.strip()):
        return None
    tag = f"{source.prefix}:{local}" if source.prefix else local
    rel = " ".join((element.get("rel") or "").lower().split()) if source.attr == "href" else ""
    problems = scope.problems(value) if source.scoped else ()
    return RawLink(
        value, tag, source.attr, source.kind, element.sourceline, rel=rel, problems=problems
    )


def text_sitemap_links(document: Document, location: str) -> Iterator[RawLink]:
    """Every line of a text sitemap that holds something, as one URL, in order. "One URL per
    line": a line ends at LF, CR LF or CR (microsyntax.text_lines), never at a form feed,
    NEL or U+2028, which str.splitlines() split a URL at (its tail a link of its own)."""
    scope = _Scope(location)
    for number, line in text_lines(document.text.removeprefix("\ufeff")):
        if line.strip():
            yield RawLink(line, TEXT_TAG, "line", "link", number, problems=scope.problems(line))


class _Scope:
    """The protocol's rules on a sitemap's ``<loc>`` (see the module docstring)."""

    def __init__(self, location: str) -> None:
        self.location = location
        parts = parse(location) if location else None
        self.known = parts is not None and bool(parts.scheme) and bool(parts.netloc)
        if parts is not None and self.known:
            self.origin = _origin(parts)
            self.directory = parts.path[: parts.path.rfind("/") + 1] or "/"

    def problems(self, value: str) -> tuple[str, ...]:
        value = value.strip()
        codes: tuple[str, ...] = ()
        if SCHEME_RE.match(value) is None:
            codes = (RELATIVE_LOC,)
            if not self.known:
                return codes
            try:  # where it is, for the scope: as the default mode resolves it
                value = resolve(self.location, value)
            except URLError:
                return codes
        if self.known and outside(self.origin, self.directory, value):
            codes += (OUTSIDE_SITEMAP,)
        return codes


def _origin(parts: Any) -> tuple[str, str | None, int | None]:
    scheme = parts.scheme.lower()
    return scheme, parts.hostname, parts.port or {"https": 443}.get(scheme)


def outside(origin: tuple[str, str | None, int | None], directory: str, url: str) -> bool:
    """Whether the absolute ``url`` is outside a sitemap's scope: its scheme, host and port
    (``origin``) and the directory of its path. Hosts compared in lower case, a default port
    written or not; paths as written."""
    parts = parse(url)
    return _origin(parts) != origin or not (parts.path or "/").startswith(directory)
