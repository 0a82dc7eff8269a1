"""The pipeline, load → base → find → resolve, for one document, in a few lines: what a
:class:`~baselinks.run.batch.Task` runs for each document. Read this file first.

    parts    = iter_entries(input)                   load/containers/  WARC, MIME, HTTP, HTML
    document = load(part.body)                       load/document.py  decoded, parsed (lxml)
    base     = establish_base(document.tree,         base/layers.py    RFC 1808 §3
                   encapsulating_base(part.locations,
                       retrieval_base(part.retrieval)))
    raw      = raw_links(document.tree)              find/walk.py      never resolves
    links    = Linker(base).link(each raw link)      resolve/link.py   RFC 1808 §4 (url/)

A document that is no HTML page is loaded and walked by its type (load/containers/doctypes.py;
LOADERS, then WALKS below): an SVG as a page, a style sheet, a sitemap or a robots.txt as one
list of raw links against its own base, a feed each URL against its element's xml:base
(base/xmlbase.py) and each entry's HTML as a page of its own.

run/batch.py runs this for every document of every input, in order (in worker processes with
``workers``); api.py holds the public functions over it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain, islice
from typing import NamedTuple

from .base.layers import (
    Base,
    base_from_href,
    encapsulating_base,
    establish_base,
    retrieval_base,
    srcdoc_fallback,
    written_base,
)
from .base.xmlbase import XMLBase
from .find.directives import header_nofollow, meta_nofollow, metas_nofollow
from .find.feeds import FeedReader
from .find.linktable import PLACEMENTS
from .find.native import native_links
from .find.sheets import FINDERS, LOADERS, Finder
from .find.walk import header_links, raw_links, select_roots
from .load.containers import Part
from .load.containers.doctypes import DocType
from .load.containers.entries import Origin
from .load.document import Document, load_text
from .load.encoding import browser_encoding, query_codec
from .resolve.link import Link, Linker, saved_copies, with_problems
from .run.events import PartLinks
from .run.options import Keep
from .url.resolve import resolver_class

__all__ = ["CHUNK", "MAX_SRCDOC_DEPTH", "STREAMED", "WALKS", "Walking", "part_links"]

# An iframe srcdoc may hold an iframe srcdoc...: nesting deeper than this is not followed.
MAX_SRCDOC_DEPTH = 8
# The linkers a feed keeps, one per distinct base; a feed of more bases starts again.
_LINKERS_KEPT = 256


class Walking(NamedTuple):
    """What a walk takes besides the document and its fallback base: the run's choices, the
    same for the documents nested in it (an iframe srcdoc, a feed entry's HTML) but for
    :meth:`nested`'s two. ``origin``: where the document is stored (a nested one: where its
    page is); ``parser``: what parses a nested HTML document."""

    mode: str
    select: str | None = None
    attributes: tuple[tuple[str, str], ...] = ()
    origin: Origin | None = None
    parser: str = "lxml"
    depth: int = 0
    # the page's robots directives say nofollow (find/directives.py): its X-Robots-Tag, its
    # <meta name=robots>; a document nested in it (an iframe srcdoc) is the page's too
    nofollow: bool = False

    def nested(self) -> Walking:
        """For a document inside this one: one level deeper, no ``select`` (it matches the
        page's own elements)."""
        return self._replace(select=None, depth=self.depth + 1)


def _document_links(
    document: Document, fallback: Base, walking: Walking, unread: list[str]
) -> list[Link]:
    """base → walk → resolve for one loaded document; what its parse could not read is added
    to ``unread``."""
    if document.unread:
        unread.append(document.unread)
    # whatwg mode: a query's non-ASCII in the document's encoding as a browser chose it (None:
    # UTF-8); an ASCII-only page that declares nothing is windows-1252 there
    codec = (
        query_codec(browser_encoding(document.encoding, document.encoding_source, document.content))
        if resolver_class(walking.mode).query_in_document_encoding
        else None
    )
    # the walk over lexbor's own nodes where the document was kept as them and nothing needs
    # lxml's tree (--select does); else over lxml's
    native = document.native if walking.select is None else None
    raws = None if native is None else native_links(native, walking.attributes)
    if native is not None and raws is not None:
        # RFC 1808 §3.1 over the fallback, the first <base href> found the same way
        base = base_from_href(native.base_href(), fallback, walking.mode, codec)
    else:
        base = establish_base(document.tree, fallback, walking.mode, codec)
        roots = select_roots(document.tree, walking.select)
        raws = raw_links(document.tree, roots, walking.attributes)
    # the page's robots meta was read by part_links; a nested document's own is read here
    nofollow = walking.nofollow or (walking.depth > 0 and _meta_nofollow(document))
    link = Linker(base, walking.mode, document.name, codec, fallback, walking.origin, nofollow).link
    links: list[Link] = []
    for raw in raws:
        if not raw.nested:
            links.append(link(raw))
        elif walking.depth < MAX_SRCDOC_DEPTH:
            nested = load_text(raw.raw, f"{document.name}#srcdoc@{raw.line}", walking.parser)
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            found = _document_links(nested, inner, walking.nested(), unread)
            placed = tuple(code for code in raw.problems if code in PLACEMENTS)
            if placed:  # an iframe in <template> or <noscript>: its document is too
                found = [with_problems(one, placed) for one in found]
            links.extend(found)
    return links


def _flat_links(
    document: Document, fallback: Base, walking: Walking, unread: list[str], *, find: Finder
) -> Iterator[Link]:
    """resolve for a document that is no tree (find/sheets.py FINDERS: a style sheet, a
    sitemap, a robots.txt): against its own URL, no <base>, no elements for ``select`` to match;
    a URL's query in UTF-8 (CSS Values 4 parses url() with no encoding; XML and these texts
    are UTF-8 to URLs). Each link as it is found; what could not be read in ``unread`` once
    they are all read."""
    if walking.select is not None:
        return
    if document.unread:
        unread.append(document.unread)
    link = Linker(
        fallback, walking.mode, document.name, origin=walking.origin, nofollow=walking.nofollow
    ).link
    for found in find(document, fallback.url):
        if isinstance(found, str):
            unread.append(found)  # what of it could not be read: said after its links
        else:
            yield link(found)


def _feed_links(
    document: Document, fallback: Base, walking: Walking, unread: list[str]
) -> Iterator[Link]:
    """base → find → resolve for a feed (find/feeds.py): each URL against the xml:base in
    scope at its element (base/xmlbase.py), each HTML document inside it walked as a page
    whose encapsulating entity (RFC 1808 §3.2) is that element, as an iframe srcdoc's is its
    iframe. No elements for ``select`` to match (nor in its HTML: a feed is no page). Each
    link as it is found; what could not be read in ``unread`` once they are all read."""
    if walking.select is not None:
        return
    reader = FeedReader(document, XMLBase(fallback, walking.mode))
    linkers: dict[Base, Linker] = {}  # one per base: each resolves a distinct reference once
    for base, found in reader.items():  # each with the base in scope at its element
        if isinstance(found, Document):
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            yield from _document_links(found, inner, walking.nested(), unread)
            continue
        linker = linkers.get(base)
        if linker is None:
            if len(linkers) >= _LINKERS_KEPT:
                linkers.clear()
            linker = linkers[base] = Linker(
                base, walking.mode, document.name, origin=walking.origin, nofollow=walking.nofollow
            )
        yield linker.link(found)
    unread.extend(what for what in (document.unread, reader.damage) if what)


def _meta_nofollow(document: Document) -> bool:
    """Whether the page's robots <meta> says nofollow (find/directives.py), read from lexbor's
    nodes where the document is kept as them (its lxml tree is not copied for it)."""
    native = document.native
    if native is not None and document.root is None:
        return metas_nofollow(native.metas())
    return meta_nofollow(document.tree)


Walk = Callable[[Document, Base, Walking, list[str]], Iterable[Link]]

# The documents whose links are handed on as they are found, a piece of CHUNK at a time (a
# sitemap, a feed, a robots.txt: read as they are parsed, no tree held); every other
# document's as one list. A sitemap of a million URLs held them all to its end (40 MB: 426 MB
# through the library; with its records, 1.2 GB through the command line).
STREAMED = frozenset({DocType.FEED, DocType.SITEMAP, DocType.SITEMAP_TEXT, DocType.ROBOTS})
CHUNK = 4096

# The documents whose tree may hold a <meta name=robots>.
_PAGES = frozenset({DocType.HTML})

# How a loaded document is walked, by its type (load/containers/doctypes.py; loaded by
# find/sheets.py LOADERS): an HTML tree, an SVG (walked as inline SVG), a feed, or one list of
# raw links (a style sheet, a sitemap, a robots.txt).
WALKS: dict[DocType, Walk] = {
    DocType.HTML: _document_links,
    DocType.SVG: _document_links,
    DocType.FEED: _feed_links,
    **{doctype: partial(_flat_links, find=find) for doctype, find in FINDERS.items()},
}


def part_links(
    part: Part,
    mode: str,
    select: str | None,
    attributes: tuple[tuple[str, str], ...] = (),
    keep: Keep | None = None,
    parser: str = "lxml",
    seen: Callable[[Document], None] | None = None,
) -> PartLinks:
    """One document of an input: its HTTP header links, then its own (for a STREAMED document,
    lists of them, as they are found: run.events.PartLinks); what of it could not be read ("" when
    all of it was); and its own URL (page_url), None when not known. ``parser``: "html5" or
    "lxml", as chosen. ``seen``: given the loaded document (a WAT record reads its head:
    wat/html.py)."""
    load = partial(LOADERS[part.doctype], charset=part.charset, name=part.name, parser=parser)
    document = None if part.body is None else load(part.body)
    if seen is not None and document is not None:
        seen(document)
    retrieval = retrieval_base(part.retrieval, document.content if document else "")
    retrieval = written_base(retrieval, mode)  # as the mode's URL parser writes it
    links: list[Link] = []
    unread: list[str] = []
    # where the document is stored, one record shared by all its links: a WARC record's
    # offset, a MIME part's path; else the file alone
    origin = part.origin if part.origin is not None else Origin(part.name)
    own = encapsulating_base(part.locations, retrieval, mode)  # RFC 1808 §3.2, else §3.3
    # the document's own URL, before any <base>: page_url, in every link's shared origin
    origin = origin._replace(page_url=own.url or None)
    # what the page says of all its links: nofollow by its headers or its robots <meta>
    nofollow = header_nofollow(part.headers) or (
        document is not None and part.doctype in _PAGES and _meta_nofollow(document)
    )
    if part.headers:
        # A redirect's Location, a Link header: relative to the URL that was fetched (§3.3),
        # whatever <base> the body holds.
        linker = Linker(retrieval, mode, part.name, origin=origin, nofollow=nofollow)
        links.extend(linker.link(raw) for raw in header_links(part.status, part.headers))
    saved = document is not None and part.status is None and not part.locations
    saved = saved and os.path.isfile(part.name)  # a saved page: its _files folder is beside it

    def finished(links: list[Link]) -> list[Link]:
        links = saved_copies(links, part.name) if saved else links
        return links if keep is None else keep(links, own.url)

    if document is not None:
        fallback = own
        walking = Walking(
            mode,
            select=select,
            attributes=attributes,
            origin=origin,
            parser=parser,
            nofollow=nofollow,
        )
        found = WALKS[part.doctype](document, fallback, walking, unread)
        if part.doctype in STREAMED:
            pieces = map(finished, _chunks(chain(links, found)))
            return pieces, partial("; ".join, unread), origin.page_url
        links.extend(found)
    return finished(links), "; ".join(unread), origin.page_url


def _chunks(links: Iterator[Link]) -> Iterator[list[Link]]:
    while chunk := list(islice(links, CHUNK)):
        yield chunk
