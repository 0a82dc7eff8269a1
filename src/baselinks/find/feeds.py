"""feeds: an Atom or RSS feed → every URL in it, each with the base in scope at its element,
and each HTML document inside it (an entry's content), as written; never resolved.

    Document (xmlparse.load_xml) ──FeedReader──► (base, RawLink) and (base, Document), in order

The formats: Atom 1.0 (RFC 4287) and 0.3, RSS 0.9x and 2.0 (no namespace), RSS 1.0 and 0.90
(RDF), and the extensions feeds carry URLs in (Media RSS, iTunes, the well-formed web's
comments, FeedBurner). What is a URL is the table :data:`FEED_SOURCES`, as the HTML table is
linktable.py's; each URL comes with its element's base, which base/xmlbase.py keeps as the
elements start and end (each ``xml:base`` resolved once, against the base around it).

**HTML inside a feed** is a document of its own: an Atom text construct or content of type
``html`` (escaped, or in CDATA), ``xhtml`` (inline: its ``div``), or a MIME type of HTML; Atom
0.3's ``mode="escaped"``, ``"base64"`` and ``"xml"``; an RSS ``description`` (escaped HTML, RSS
2.0 says, or "naked" markup), ``content:encoded``, an ``xhtml:body``. Each is given as a
:class:`~baselinks.load.document.Document` named ``FEED#TAG@LINE`` (its lines counted from its
element's line), which the pipeline walks with the HTML walker, every rule of it, with the
element's base as its encapsulating entity's (RFC 1808 §3.2), as an ``iframe srcdoc``. Inside
inline XHTML, an element with an ``xml:base`` of its own starts a document of its own, with
its own base (an HTML tree has one): its links follow the rest of the content's.

Elements inside an HTML-holding element belong to that document: no row of the table applies
to them. A prefix no namespace declaration binds (``<media:content>`` in a feed that forgot
``xmlns:media``; libxml2 keeps the name as written) is read as the usual namespace of that
prefix, as feed readers do.
"""

from __future__ import annotations

import base64
import binascii
from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..base.layers import Base
from ..base.xmlbase import XML_BASE, Scope, XMLBase
from ..load.document import Document, load_text, parse_html
from ..url.parts import SCHEME_RE
from .linktable import KINDS, TEXT
from .sheets import copy_as_html
from .walk import RawLink
from .xmlparse import XMLEvents, local_name, release, text_of

__all__ = ["FEED_SOURCES", "NAMESPACES", "FeedReader", "FeedSource"]

ATOM = "http://www.w3.org/2005/Atom"
ATOM03 = "http://purl.org/atom/ns#"
RSS10 = "http://purl.org/rss/1.0/"
RSS090 = "http://my.netscape.com/rdf/simple/0.9/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
MEDIA = "http://search.yahoo.com/mrss/"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
XHTML = "http://www.w3.org/1999/xhtml"
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
WFW = "http://wellformedweb.org/CommentAPI/"
FEEDBURNER = "http://rssnamespace.org/feedburner/ext/1.0"

# Each namespace's prefix in the output's tag (the feed's own vocabulary has none: "link",
# "enclosure"), and the namespace an undeclared prefix is read as.
NAMESPACES: dict[str, str] = {
    ATOM: "",
    ATOM03: "",
    RSS10: "",
    RSS090: "",
    "": "",  # RSS 0.9x and 2.0
    RDF: "rdf",
    MEDIA: "media",
    CONTENT: "content",
    XHTML: "xhtml",
    ITUNES: "itunes",
    WFW: "wfw",
    FEEDBURNER: "feedburner",
}
_BY_PREFIX = {prefix: namespace for namespace, prefix in NAMESPACES.items() if prefix}
_ATOMS = frozenset({ATOM, ATOM03})
_RSS = frozenset({"", RSS10, RSS090})


class FeedSource(NamedTuple):
    """One row: an element of these namespaces, where its URL is, what it is for."""

    namespaces: frozenset[str]
    local: str  # the element's local name; "*": any element
    attr: str  # an attribute (a namespaced one in Clark notation), or TEXT: the element's text
    kind: str  # one of KINDS; "rel": Atom's link, by its rel; "rdf": by the element (_rdf_kind)
    when: str = ""  # a key of CONDITIONS
    spec: str = ""


def _in(*namespaces: str) -> frozenset[str]:
    return frozenset(namespaces)


FEED_SOURCES: tuple[FeedSource, ...] = (
    # RFC 4287 §4.2.7: atom:link; Atom 0.3 the same (and in RSS, as <atom:link rel="self">)
    FeedSource(_ATOMS, "link", "href", "rel", spec="RFC 4287 §4.2.7; kind from rel"),
    FeedSource(_in(ATOM), "id", TEXT, "link", when="http", spec="RFC 4287 §4.2.6, when http(s)"),
    FeedSource(
        _in(ATOM03), "id", TEXT, "link", when="web", spec="Atom 0.3 §3.5.3; http(s), relative"
    ),
    FeedSource(_in(ATOM), "icon", TEXT, "resource", spec="RFC 4287 §4.2.5"),
    FeedSource(_in(ATOM), "logo", TEXT, "resource", spec="RFC 4287 §4.2.8"),
    FeedSource(_in(ATOM), "uri", TEXT, "link", spec="RFC 4287 §3.2.2 (a person's)"),
    FeedSource(_in(ATOM03), "url", TEXT, "link", spec="Atom 0.3 §3.2.2 (a person's)"),
    FeedSource(_in(ATOM), "content", "src", "resource", spec="RFC 4287 §4.1.3.2 (out of line)"),
    FeedSource(_in(ATOM), "generator", "uri", "link", spec="RFC 4287 §4.2.4"),
    FeedSource(_in(ATOM03), "generator", "url", "link", spec="Atom 0.3 §4.13"),
    # RSS 2.0 (https://www.rssboard.org/rss-specification), 0.9x, 1.0 (the same names)
    FeedSource(_RSS, "link", TEXT, "link", spec="RSS 2.0 channel, item, image, textInput"),
    FeedSource(_RSS, "url", TEXT, "resource", spec="RSS 2.0 <image>"),
    FeedSource(_RSS, "enclosure", "url", "resource", spec="RSS 2.0 <enclosure>"),
    FeedSource(_RSS, "guid", TEXT, "link", when="permalink", spec="RSS 2.0 <guid>"),
    FeedSource(_RSS, "comments", TEXT, "link", spec="RSS 2.0 <comments>"),
    FeedSource(_RSS, "source", "url", "link", spec="RSS 2.0 <source>"),
    FeedSource(_RSS, "docs", TEXT, "link", spec="RSS 2.0 <docs>"),
    # RSS 1.0 §5: rdf:about of channel, image, item, textinput; rdf:resource of the references
    FeedSource(_in(*NAMESPACES), "*", f"{{{RDF}}}about", "rdf", spec="RDF/XML (RSS 1.0 §5)"),
    FeedSource(_in(*NAMESPACES), "*", f"{{{RDF}}}resource", "rdf", spec="RDF/XML (RSS 1.0 §5)"),
    # Media RSS 1.5.1 (https://www.rssboard.org/media-rss)
    FeedSource(_in(MEDIA), "content", "url", "resource", spec="Media RSS <media:content>"),
    FeedSource(_in(MEDIA), "thumbnail", "url", "resource", spec="Media RSS <media:thumbnail>"),
    FeedSource(_in(MEDIA), "player", "url", "resource", spec="Media RSS <media:player>"),
    FeedSource(_in(ITUNES), "image", "href", "resource", spec="Apple Podcasts <itunes:image>"),
    FeedSource(_in(WFW), "comment", TEXT, "link", spec="Well-Formed Web CommentAPI"),
    FeedSource(_in(WFW), "commentRss", TEXT, "link", spec="Well-Formed Web CommentAPI"),
    # WordPress writes commentRss; the CommentAPI's own page, and feedparser's tests, commentRSS
    FeedSource(_in(WFW), "commentRSS", TEXT, "link", spec="Well-Formed Web CommentAPI"),
    FeedSource(_in(FEEDBURNER), "origLink", TEXT, "link", spec="FeedBurner"),
    FeedSource(_in(FEEDBURNER), "origEnclosureLink", TEXT, "resource", spec="FeedBurner"),
)
"""Every URL of a feed but the HTML inside it (:data:`HTML_HOLDERS`)."""


def _is_http(element: Any, value: str) -> bool:
    # atom:id is an IRI that names the entry forever (often tag: or urn:uuid:): a link only
    # when it is one to follow
    return value.strip().lower().startswith(("http:", "https:"))


def _is_permalink(element: Any, value: str) -> bool:
    # RSS 2.0 <guid>: 'If the guid element has an attribute named isPermaLink with a value of
    # true, the reader may assume that it is a permalink to the item [...] isPermaLink is
    # optional, its default value is true.' An absent isPermaLink on a guid that is no URL
    # ("12345", a post ID: most feeds) is left out; "false" always is.
    said = (element.get("isPermaLink") or "").strip().lower()
    if said == "false":
        return False
    return said == "true" or SCHEME_RE.match(value.strip()) is not None


def _is_web(element: Any, value: str) -> bool:
    # Atom 0.3's id is a URI that xml:base applies to: feedparser's tests give "/relative/link"
    # (http_entry_id_base_docuri.xml), resolved against the feed's URL; tag: and urn: are not
    return _is_http(element, value) or SCHEME_RE.match(value.strip()) is None


CONDITIONS = {"http": _is_http, "web": _is_web, "permalink": _is_permalink}


def _atom_kind(rel: str) -> str:
    # RFC 4287 §4.2.7.2: "enclosure" is "a related resource that is potentially large in size
    # and might require special handling" (a podcast's audio): loaded, not followed
    return "resource" if rel == "enclosure" else "link"


def _rdf_kind(local: str) -> str:
    # RSS 1.0 §5.4: <image rdf:about> is the image's URL, and so is the channel's reference
    # to it, <image rdf:resource>: loaded; every other RDF resource of a feed is followed
    return "resource" if local == "image" else "link"


def _check(sources: tuple[FeedSource, ...]) -> None:
    for source in sources:
        if source.kind not in KINDS and source.kind not in ("rel", "rdf"):
            raise ValueError(f"feed source {source.local!r}: kind {source.kind!r}")
        if source.when and source.when not in CONDITIONS:
            raise ValueError(f"feed source {source.local!r}: when {source.when!r}")


_check(FEED_SOURCES)


class _Rows:
    """The table by element: each namespace and local name's rows; the rows of any element."""

    def __init__(self, sources: tuple[FeedSource, ...]) -> None:
        self.named: dict[tuple[str, str], list[FeedSource]] = {}
        self.anywhere = [s for s in sources if s.local == "*"]
        for source in sources:
            if source.local != "*":
                for namespace in source.namespaces:
                    self.named.setdefault((namespace, source.local), []).append(source)


_ROWS = _Rows(FEED_SOURCES)

# The elements whose content is HTML: (namespace, local name) → how it says so. "text": its
# text is escaped HTML; "type": an Atom 1.0 text construct (type html, xhtml, or a MIME type
# of content); "mode": Atom 0.3 (type a MIME type, mode escaped, base64 or xml); "inline": it
# is itself XHTML.
HTML_HOLDERS: dict[tuple[str, str], str] = {
    **{(ATOM, name): "type" for name in ("content", "summary", "title", "subtitle", "rights")},
    **{
        (ATOM03, name): "mode"
        for name in ("content", "summary", "title", "tagline", "copyright", "info")
    },
    **{(namespace, "description"): "text" for namespace in _RSS},
    # RSS items' content as feedparser reads it: <fullitem> (escaped HTML) and a <body> of
    # no namespace (markup in it), beside xhtml:body
    **{(namespace, "fullitem"): "text" for namespace in _RSS},
    **{(namespace, "body"): "inline" for namespace in _RSS},
    (CONTENT, "encoded"): "text",
    (XHTML, "body"): "inline",
}
_HTML_TYPES = frozenset({"html", "text/html"})
_XHTML_TYPES = frozenset({"xhtml", "application/xhtml+xml"})


def _holding(rule: str, element: Any) -> str:
    """How an HTML-holding element holds its HTML: "text", "base64", "inline", or "" (not
    HTML: Atom's type="text", another MIME type)."""
    if rule in ("text", "inline"):
        return rule
    kind = (element.get("type") or ("text" if rule == "type" else "text/plain")).strip().lower()
    if rule == "type":  # RFC 4287 §3.1.1, §4.1.3.1
        return "text" if kind in _HTML_TYPES else "inline" if kind in _XHTML_TYPES else ""
    mode = (element.get("mode") or "xml").strip().lower()  # Atom 0.3 §3.1
    if kind not in _HTML_TYPES and kind not in _XHTML_TYPES:
        return ""
    return {"escaped": "text", "base64": "base64", "xml": "inline"}.get(mode, "")


def _qualified(tag: str) -> tuple[str, str]:
    """(namespace, local name), an undeclared usual prefix read as its namespace."""
    namespace, local = local_name(tag)
    if not namespace and ":" in local:
        prefix, _, rest = local.partition(":")
        if prefix in _BY_PREFIX:
            return _BY_PREFIX[prefix], rest
    return namespace, local


def _display(namespace: str, local: str, element: Any) -> str:
    """An element's name in the output: its local name in the feed's own vocabulary, else
    with the usual prefix (``media:content``), else with its own."""
    prefix = NAMESPACES.get(namespace)
    if prefix is None:
        prefix = element.prefix or ""
    return f"{prefix}:{local}" if prefix else local


def _attr_name(attr: str) -> str:
    # rdf:about, not {http://www.w3.org/1999/02/22-rdf-syntax-ns#}about
    namespace, local = local_name(attr)
    return f"{NAMESPACES.get(namespace) or 'ns'}:{local}" if namespace else local


Found = tuple[Base, RawLink | Document]


class FeedReader:
    """The links and HTML documents of one feed, streamed (see the module docstring), each
    with the base in scope at its element, kept by ``scopes`` (base/xmlbase.py)."""

    def __init__(self, document: Document, scopes: XMLBase) -> None:
        self.document = document
        self.scopes = scopes
        self.events = XMLEvents(document, "feed")

    @property
    def damage(self) -> str:
        """What was not well-formed, or not applied ("" when all was), once the items are read."""
        return "; ".join(what for what in (self.events.damage, self.scopes.damage) if what)

    def items(self) -> Iterator[Found]:
        """Each URL (a RawLink) and each HTML document, with its element's base, in order."""
        scopes = self.scopes
        holders: list[tuple[Any, str, str, str]] = []  # (element, how, namespace, local)
        for event, element in self.events:
            if not isinstance(element.tag, str):
                continue
            if event == "start":
                base = scopes.enter(element.get(XML_BASE), element.sourceline)
                if holders:
                    continue  # inside an entry's HTML: that document's
                namespace, local = _qualified(element.tag)
                yield from self._attributes(element, namespace, local, base)
                rule = HTML_HOLDERS.get((namespace, local))
                how = _holding(rule, element) if rule else ""
                if how:
                    holders.append((element, how, namespace, local))
                continue
            scope = scopes.leave()
            if holders:
                if holders[-1][0] is not element:
                    continue  # an element inside the HTML: released with its holder
                _, how, namespace, local = holders.pop()
                yield from self._html(element, how, _display(namespace, local, element), scope)
            else:
                namespace, local = _qualified(element.tag)
                yield from self._text(element, namespace, local, scope.base)
            release(element)

    def _attributes(self, element: Any, namespace: str, local: str, base: Base) -> Iterator[Found]:
        rows = _ROWS.named.get((namespace, local), ())
        for source in (*rows, *_ROWS.anywhere):
            if source.attr == TEXT:
                continue
            value = element.get(source.attr)
            found = None if value is None else _raw(source, element, namespace, local, value)
            if found is not None:
                yield base, found

    def _text(self, element: Any, namespace: str, local: str, base: Base) -> Iterator[Found]:
        for source in _ROWS.named.get((namespace, local), ()):
            if source.attr != TEXT:
                continue
            value = text_of(element)
            found = _raw(source, element, namespace, local, value) if value.strip() else None
            if found is not None:
                yield base, found

    def _html(self, element: Any, how: str, tag: str, scope: Scope) -> Iterator[Found]:
        line = element.sourceline or 1
        name = f"{self.document.name}#{tag}@{line}"
        if how == "inline" or (how == "text" and len(element)):  # "naked" markup in RSS too
            yield from _inline(element, name, line, scope, self.scopes)
            return
        text = text_of(element)
        if how == "base64":
            try:
                text = base64.b64decode(text).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                return  # not base64: no HTML to read (and no link lost: none was written)
        if text.strip():
            yield scope.base, load_text(text, name)


def _raw(
    source: FeedSource, element: Any, namespace: str, local: str, value: str
) -> RawLink | None:
    """The row's link in ``value``, or None when its condition does not hold."""
    condition = CONDITIONS.get(source.when)
    if condition is not None and not condition(element, value):
        return None
    rel = hreflang = ""
    kind = source.kind
    if kind == "rel":
        written = (element.get("rel") or "").strip()
        rel = written if ":" in written else written.lower()  # an IRI keeps its case
        kind = _atom_kind(rel)
        # RFC 4287 §4.2.7.4: "The "hreflang" attribute's content describes the language of
        # the resource pointed to by the href attribute"
        hreflang = (element.get("hreflang") or "").strip()
    elif kind == "rdf":
        kind = _rdf_kind(local)
    tag = _display(namespace, local, element)
    attr = source.attr if source.attr == TEXT else _attr_name(source.attr)
    return RawLink(value, tag, attr, kind, element.sourceline, rel=rel, hreflang=hreflang)


def _inline(holder: Any, name: str, line: int, scope: Scope, scopes: XMLBase) -> Iterator[Found]:
    """Inline XHTML as HTML documents: the holder's content, then each element in it with an
    xml:base of its own (and what it holds), outermost first, its base resolved once against
    the base of the piece around it."""
    pieces: deque[tuple[list[Any], Scope, bool]] = deque([(list(holder), scope, True)])
    while pieces:
        roots, around, top = pieces.popleft()
        tree = parse_html("")
        apart: list[Any] = []
        for root in roots:
            if not isinstance(root.tag, str):
                continue  # an entity reference left as written
            if top and _has_base(root):
                apart.append(root)
            else:
                apart += copy_as_html(root, tree, first_line=line, cut=_has_base)
        yield around.base, Document(name, "", "utf-8", "xml", tree)
        for inner in apart:
            inside = scopes.within(around, str(inner.get(XML_BASE)), inner.sourceline)
            pieces.append(([inner], inside, False))


def _has_base(element: Any) -> bool:
    return element.get(XML_BASE) is not None
