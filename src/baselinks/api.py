"""The pipeline, load → base → find → resolve, for one document, in a few lines; and the public
functions over it. Read this file first.

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
``workers``), with the options run/options.py checked; the writers (write/) turn the
:class:`Link` records into JSON Lines, CSV, TSV, text, a table or Parquet.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from itertools import chain
from typing import Literal, ParamSpec, TypeVar

from .base.layers import (
    Base,
    encapsulating_base,
    establish_base,
    retrieval_base,
    srcdoc_fallback,
    written_base,
)
from .base.xmlbase import XMLBase
from .errors import InputError, SelectError, describe, raise_first
from .find.feeds import FeedReader
from .find.linktable import KINDS, PLACEMENTS
from .find.sheets import FINDERS, LOADERS, Finder
from .find.walk import attribute_pairs, header_links, raw_links, select_roots
from .load.containers import Part
from .load.containers.doctypes import DocType
from .load.containers.entries import Origin
from .load.containers.httpmsg import as_pairs
from .load.document import Document, load_text, parse_html
from .load.encoding import browser_encoding, query_codec
from .load.html5 import choose
from .resolve.link import FIELDS, Link, Linker, saved_copies, with_problems
from .run.batch import Input, Options, Source, Summary, Task, Unused, records, results
from .run.options import (
    Keep,
    counter,
    keep_only,
    mirrored,
    new_in_run,
    refuse_wrong_types,
    unique_field,
    unique_scope,
)
from .run.workers import resolve_workers
from .url.resolve import check_mode, resolver_class
from .write.stats import Stats

__all__ = [
    "FIELDS",
    "KINDS",
    "Link",
    "Origin",
    "SelectError",
    "Source",
    "Summary",
    "extract_links",
    "iter_links",
]

Headers = Mapping[str, str] | Iterable[tuple[str, str]]
P = ParamSpec("P")
T = TypeVar("T")

# An iframe srcdoc may hold an iframe srcdoc...: nesting deeper than this is not followed.
MAX_SRCDOC_DEPTH = 8
# The linkers a feed keeps, one per distinct base; a feed of more bases starts again.
_LINKERS_KEPT = 256


def _document_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
    origin: Origin | None = None,
    parser: str = "lxml",
) -> list[Link]:
    """base → walk → resolve for one loaded document; what its parse could not read is added
    to ``unread``. ``origin``: where it is stored (an iframe srcdoc: where its page is);
    ``parser``: what parses an iframe srcdoc in it."""
    if document.unread:
        unread.append(document.unread)
    # whatwg mode: a query's non-ASCII in the document's encoding as a browser chose it (None:
    # UTF-8); an ASCII-only page that declares nothing is windows-1252 there
    codec = (
        query_codec(browser_encoding(document.encoding, document.encoding_source, document.content))
        if resolver_class(mode).query_in_document_encoding
        else None
    )
    base = establish_base(document.tree, fallback, mode, codec)  # RFC 1808 §3.1 over the fallback
    link = Linker(base, mode, document.name, codec, fallback, origin).link
    links: list[Link] = []
    for raw in raw_links(document.tree, select_roots(document.tree, select), attributes):
        if not raw.nested:
            links.append(link(raw))
        elif depth < MAX_SRCDOC_DEPTH:
            nested = load_text(raw.raw, f"{document.name}#srcdoc@{raw.line}", parser)
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            found = _document_links(
                nested, inner, mode, None, unread, depth + 1, attributes, origin, parser
            )
            placed = tuple(code for code in raw.problems if code in PLACEMENTS)
            if placed:  # an iframe in <template> or <noscript>: its document is too
                found = [with_problems(one, placed) for one in found]
            links.extend(found)
    return links


def _flat_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
    origin: Origin | None = None,
    parser: str = "lxml",
    *,
    find: Finder,
) -> list[Link]:
    """resolve for a document that is no tree (find/sheets.py FINDERS: a style sheet, a
    sitemap, a robots.txt): against its own URL, no <base>, no elements for ``select`` to match;
    a URL's query in UTF-8 (CSS Values 4 parses url() with no encoding; XML and these texts
    are UTF-8 to URLs). (No HTML in it for ``parser`` to read: a walk's arguments are the
    same for all.)"""
    if select is not None:
        return []
    if document.unread:
        unread.append(document.unread)
    link = Linker(fallback, mode, document.name, origin=origin).link
    links: list[Link] = []
    for found in find(document, fallback.url):
        if isinstance(found, str):
            unread.append(found)  # what of it could not be read: said after its links
        else:
            links.append(link(found))
    return links


def _feed_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
    origin: Origin | None = None,
    parser: str = "lxml",
) -> list[Link]:
    """base → find → resolve for a feed (find/feeds.py): each URL against the xml:base in
    scope at its element (base/xmlbase.py), each HTML document inside it walked as a page
    whose encapsulating entity (RFC 1808 §3.2) is that element, as an iframe srcdoc's is its
    iframe. No elements for ``select`` to match (nor in its HTML: a feed is no page)."""
    if select is not None:
        return []
    reader, scopes = FeedReader(document), XMLBase(fallback, mode)
    linkers: dict[Base, Linker] = {}  # one per base: each resolves a distinct reference once
    links: list[Link] = []
    for written, found in reader.items():
        base = scopes.base(written)  # its xml:base chain
        if isinstance(found, Document):
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            nested = _document_links(
                found, inner, mode, None, unread, depth + 1, attributes, origin, parser
            )
            links.extend(nested)
            continue
        linker = linkers.get(base)
        if linker is None:
            if len(linkers) >= _LINKERS_KEPT:
                linkers.clear()
            linker = linkers[base] = Linker(base, mode, document.name, origin=origin)
        links.append(linker.link(found))
    unread.extend(what for what in (document.unread, reader.damage) if what)
    return links


Walk = Callable[..., list[Link]]

# How a loaded document is walked, by its type (load/containers/doctypes.py; loaded by
# find/sheets.py LOADERS): an HTML tree, an SVG (walked as inline SVG), a feed, or one list of
# raw links (a style sheet, a sitemap, a robots.txt).
WALKS: dict[DocType, Walk] = {
    DocType.HTML: _document_links,
    DocType.SVG: _document_links,
    DocType.FEED: _feed_links,
    **{doctype: partial(_flat_links, find=find) for doctype, find in FINDERS.items()},
}


def _part_links(
    part: Part,
    mode: str,
    select: str | None,
    attributes: tuple[tuple[str, str], ...] = (),
    keep: Keep | None = None,
    parser: str = "lxml",
) -> tuple[list[Link], str, str | None]:
    """One document of an input: its HTTP header links, then its own; what of it could
    not be read ("" when all of it was); and its own URL (page_url), None when not known.
    ``parser``: "html5" or "lxml", as chosen."""
    load = partial(LOADERS[part.doctype], charset=part.charset, name=part.name, parser=parser)
    document = None if part.body is None else load(part.body)
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
    if part.headers:
        # A redirect's Location, a Link header: relative to the URL that was fetched (§3.3),
        # whatever <base> the body holds.
        linker = Linker(retrieval, mode, part.name, origin=origin)
        links.extend(linker.link(raw) for raw in header_links(part.status, part.headers))
    if document is not None:
        fallback = own
        walk = WALKS[part.doctype]
        links.extend(walk(document, fallback, mode, select, unread, 0, attributes, origin, parser))
        if part.status is None and not part.locations and os.path.isfile(part.name):
            links = saved_copies(links, part.name)
    if keep is not None:
        links = keep(links, own.url)
    return links, "; ".join(unread), origin.page_url


def iter_links(
    source: Source,
    *,
    url: str | None = None,
    mode: str = "rfc1808",
    select: str | None = None,
    kinds: Collection[str] | None = None,
    unique: bool | Literal["document", "run"] = False,
    charset: str | None = None,
    name: str | None = None,
    headers: Headers | None = None,
    strict: bool = True,
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
    workers: int = 1,
    attributes: Iterable[tuple[str, str]] | None = None,
    schemes: Iterable[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    root_url: str | None = None,
    root: str | os.PathLike[str] | None = None,
    unique_by: str = "url",
    parser: str | None = None,
) -> Iterator[Link]:
    """Every link of every document in ``source``, streamed in input order.

    ``source``: bytes, a path, or a binary file; HTML, a MIME message or MHTML archive, a WARC or
    ARC file, a raw HTTP response, or a gzip of any of these, recognised by content. A ``str`` is a
    path: one that is no existing file and looks like markup (``<`` after optional whitespace, or a
    line break) raises :class:`TypeError` saying to pass bytes (``markup.encode()``), since only
    bytes let a page's own ``<meta charset>`` be honoured.

    ``url`` is the retrieval URL (RFC 1808 §3.3): for a crawler, the final URL after redirects; WARC
    records carry their own, which ``url`` does not override (the CLI says so, once per archive:
    :class:`~baselinks.run.batch.Unused`). ``root_url``: the URL of the directory ``root`` of a
    mirrored site (``wget -m``), ``source`` a file under it: its retrieval URL is ``root_url`` and
    its path under ``root`` (the conventions: :mod:`baselinks.base.mirror`), below the page's own
    ``saved from url`` comment. ``headers``: the HTTP response headers of a fetched body (a mapping
    or pairs): their charset and content coding are honoured, their ``Link`` header gives links.
    ``charset``: the transport's charset, overriding the headers'.

    ``select``: a CSS selector; only links inside matching elements. ``kinds``: keep only these
    kinds. ``schemes``: keep only links whose resolved URL has one of these schemes (any case;
    ``{"http", "https"}``). ``same_host`` / ``external``: keep only the links to the document's own
    host / to another host (a link without a host is neither: :class:`Keep`). ``unique``: the first
    link per URL (``unique_by``: or host, domain, surt, canonical) in each document (``True``), or
    in the whole run (``"run"``: a set of the values seen, some 170 bytes each). ``name``: what the
    ``document`` field says (default: the path, or ``-`` for bytes).

    Damage (a truncated archive, a broken MIME part) never stops the rest: every readable document
    is yielded, and each :class:`~baselinks.InputError` goes to ``on_error``, a path that cannot be
    read too (``No such file or directory``, ``Is a directory``); without one, the first error is
    raised after the last link (the others attached as notes). ``strict=False`` skips an input that
    is no document (an image) instead of failing on it. ``summary`` counts files, documents, links,
    links without a base, skipped records and failures; a ``Summary(stats=Stats())`` counts the
    links by kind, base source, problem code and host too (:class:`~baselinks.write.stats.Stats`).

    ``workers``: documents (the records of a WARC, the parts of a MIME message) are spread over this
    many processes (0: one per CPU); the links come in the same order as with 1. A worker that dies
    (the OOM killer) is an ``InputError`` with no name, its work done again; a document that kills
    its worker each time is an ``InputError`` naming it.

    ``attributes``: more places to find URLs, as ``(tag, attribute)`` pairs (tag ``"*"``: any
    element), e.g. ``[("div", "data-url")]``; their links have kind ``other`` and the problem code
    ``nonstandard-attribute``. ``parser``: "html5" or "lxml" (docs/guide/parsers.md).
    """
    refuse_wrong_types(source, url=url, name=name, charset=charset, mode=mode)
    given = Input(source, name, strict, mirrored(source, url, root_url, root))
    scope = unique_scope(unique)
    count = None if summary is None else counter(summary, scope)  # none made that no one reads
    keep, options = (
        keep_only(schemes, same_host, external),
        Options(url, as_pairs(headers), charset),
    )
    by = scope and unique_by  # the field each document's links are made unique on, or None
    task = _task(mode, select, kinds, by, records, options, attributes, keep, count, parser)
    errors: list[InputError] = []
    report, tally = on_error or errors.append, summary if summary is not None else Summary()
    yield from _given_links(given, task, resolve_workers(workers), scope == "run", tally, report)
    raise_first(errors)


def _given_links(
    given: Input,
    task: Task[list[Link]],
    workers: int,
    unique_in_run: bool,
    tally: Summary,
    report: Callable[[InputError], None],
) -> Iterator[Link]:
    """:func:`iter_links`' links of one input, in order (with ``unique_in_run``, those whose
    URL no document before had); its errors, an input that cannot be read too, to ``report``.
    An iterator, not a generator: each link is handed on by C (``chain``), with no Python
    frame resumed per link (77,000 on the corpus HTML)."""

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))  # a path not found, a directory...: by name

    found = results([given], task, workers, tally, report, unreadable)
    if not unique_in_run:
        return chain.from_iterable(done.output for done in found)
    seen: set[str | None] = set()
    key = task.unique_by
    return chain.from_iterable(new_in_run(done.output, seen, tally, key) for done in found)


def _task(
    mode: str,
    select: str | None,
    kinds: Collection[str] | None,
    unique: str | None,
    render: Callable[[list[Link]], T],
    options: Options,
    attributes: Iterable[tuple[str, str]] | None = None,
    keep: Keep | None = None,
    count: Callable[[list[Link]], tuple[int, Stats | None]] | None = None,
    parser: str | None = None,
) -> Task[T]:
    """``unique``: the field each document's links are made unique on (url...), or None."""
    check_mode(mode)
    pairs = attribute_pairs(attributes)  # a wrong pair fails here, once
    # the parser chosen here, once for the run (its warning too), and handed to the workers
    extract = partial(_part_links, attributes=pairs, keep=keep, parser=choose(parser))
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise ValueError(
            f"unknown kind(s) {sorted(set(kinds) - set(KINDS))}: expected {', '.join(KINDS)}"
        )
    if select is not None:
        select_roots(parse_html("<html></html>", "lxml"), select)  # an invalid one fails here
    frozen_kinds = None if kinds is None else frozenset(kinds)
    by = unique_field(unique or "url")
    return Task(extract, mode, select, frozen_kinds, unique is not None, render, options, count, by)


def iter_rendered(
    inputs: Iterable[tuple[Source, str | None, bool] | tuple[Source, str | None, bool, str | None]],
    render: Callable[[Sequence[Link]], T],
    *,
    url: str | None = None,
    mode: str = "rfc1808",
    select: str | None = None,
    kinds: Collection[str] | None = None,
    unique: bool | Literal["document", "run"] = False,
    charset: str | None = None,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
    workers: int = 1,
    attributes: Iterable[tuple[str, str]] | None = None,
    schemes: Iterable[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    unused: Callable[[Unused], None] | None = None,
    unique_by: str = "url",
    parser: str | None = None,
) -> Iterator[T]:
    """Many inputs ``(source, name, strict)`` as text, one document at a time (the CLI's path);
    a fourth item is the input's URL in a mirrored site (base/mirror.py: ``mirrored_url``).

    ``render`` turns a document's links into text (or keeps them, ``list``, for Parquet's
    columns); with workers it runs in them, so the main process only reads inputs and writes
    text (but with ``unique="run"``, whose links are chosen here, in input order, and rendered
    here). An input that cannot be read goes to ``unreadable`` and the batch goes on;
    ``unused`` is told of an input for which ``url`` is not used (an archive's records carry
    their own).
    """
    scope = unique_scope(unique)
    keep = keep_only(schemes, same_host, external)
    options = Options(url, (), charset)
    given = (Input(*one) for one in inputs)
    count = counter(summary, scope)
    jobs = resolve_workers(workers)
    if scope == "run":
        task = _task(
            mode, select, kinds, unique_by, records, options, attributes, keep, count, parser
        )
        seen: set[str | None] = set()
        for found in results(given, task, jobs, summary, on_error, unreadable, unused):
            new = new_in_run(found.output, seen, summary, unique_by)
            if new:
                yield render(new)
        return
    rendered = _task(
        mode, select, kinds, scope and unique_by, render, options, attributes, keep, count, parser
    )
    for done in results(given, rendered, jobs, summary, on_error, unreadable, unused):
        yield done.output


def iter_pages(
    inputs: Iterable[tuple[Source, str | None, bool]],
    render: Callable[[list[Link]], T],
    *,
    mode: str = "rfc1808",
    kinds: Collection[str] | None = None,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
    workers: int = 1,
) -> Iterator[tuple[str | None, T]]:
    """Every document of many inputs ``(source, name, strict)``, one without links too, as
    its own URL (``page_url``, None when not known) and its links rendered where they are
    extracted (in the workers): what a link graph is built of (graph/build.py)."""
    task = _task(mode, None, kinds, None, render, Options(), count=counter(summary, None))
    every = replace(task, every=True)
    given = (Input(*one) for one in inputs)
    for done in results(given, every, resolve_workers(workers), summary, on_error, unreadable):
        yield done.page_url, done.output


def _as_list(iterate: Callable[P, Iterator[Link]]) -> Callable[P, list[Link]]:
    # The list form keeps the iterator's exact signature (ParamSpec, and __signature__ for
    # help()), so that type checkers and editors see every keyword option, not **options.
    def extract_links(*args: P.args, **kwargs: P.kwargs) -> list[Link]:
        links: list[Link] = []
        try:
            links.extend(iterate(*args, **kwargs))
        except InputError as exc:
            exc.links = links  # type: ignore[attr-defined]
            raise
        return links

    signature = inspect.signature(iterate).replace(return_annotation="list[Link]")
    extract_links.__signature__ = signature  # type: ignore[attr-defined]
    extract_links.__doc__ = """:func:`iter_links` as a list; the same keyword options.

    Without ``on_error``, a damaged input raises :class:`~baselinks.InputError` with the links
    that could be read in its ``links`` attribute.
    """
    return extract_links


extract_links = _as_list(iter_links)
