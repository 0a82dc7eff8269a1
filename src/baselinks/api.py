"""The pipeline, load → base → find → resolve, for one document, in a few lines; and the public
functions over it. Read this file first.

    parts    = iter_entries(input)                   load/containers/  WARC, MIME, HTTP, HTML
    document = load(part.body)                       load/document.py  decoded, parsed (lxml)
    base     = establish_base(document.tree,         base/layers.py    RFC 1808 §3
                   encapsulating_base(part.locations,
                       retrieval_base(part.retrieval)))
    raw      = raw_links(document.tree)              find/walk.py      never resolves
    links    = Linker(base).link(each raw link)      resolve/link.py   RFC 1808 §4 (url/)

run/batch.py runs this for every document of every input, in order (in worker processes with
``workers``), with the options run/options.py checked; the writers (write/) turn the
:class:`Link` records into JSON Lines, CSV, TSV, text, a table or Parquet.
"""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
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
from .errors import InputError, InputWarning, SelectError, describe, raise_first
from .find.linktable import KINDS, PLACEMENTS
from .find.sheets import LOADERS, sheet_links
from .find.walk import attribute_pairs, header_links, raw_links, select_roots
from .load.containers import Part
from .load.containers.entries import Origin
from .load.containers.httpmsg import as_pairs
from .load.document import Document, load_text, parse_html
from .load.encoding import browser_encoding, query_codec
from .resolve.link import FIELDS, Link, Linker, saved_copies, with_problems
from .run.batch import Input, Options, Source, Summary, Task, Unused, records, results
from .run.options import (
    Keep,
    counter,
    given_inputs,
    keep_only,
    new_in_run,
    refuse_markup,
    unique_scope,
)
from .run.workers import resolve_workers
from .url.resolve import Mode, check_mode, resolver_class
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


def _document_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
    origin: Origin | None = None,
) -> list[Link]:
    """base → walk → resolve for one loaded document; what its parse could not read is added
    to ``unread``. ``origin``: where it is stored (an iframe srcdoc: where its page is)."""
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
            nested = load_text(raw.raw, f"{document.name}#srcdoc@{raw.line}")
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            found = _document_links(
                nested, inner, mode, None, unread, depth + 1, attributes, origin
            )
            placed = tuple(code for code in raw.problems if code in PLACEMENTS)
            if placed:  # an iframe in <template> or <noscript>: its document is too
                found = [with_problems(one, placed) for one in found]
            links.extend(found)
    return links


def _sheet_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
    origin: Origin | None = None,
) -> list[Link]:
    """resolve for a style sheet (find/sheets.py): against its own URL, no <base>, no elements for
    ``select`` to match; a URL's query in UTF-8 (CSS Values 4 parses url() with no encoding)."""
    if select is not None:
        return []
    link = Linker(fallback, mode, document.name, origin=origin).link
    return [link(raw) for raw in sheet_links(document)]


def _part_links(
    part: Part,
    mode: str,
    select: str | None,
    attributes: tuple[tuple[str, str], ...] = (),
    keep: Keep | None = None,
) -> tuple[list[Link], str]:
    """One document of an input: its HTTP header links, then its own; and what of it could
    not be read ("" when all of it was)."""
    load = LOADERS[part.doctype]
    document = None if part.body is None else load(part.body, charset=part.charset, name=part.name)
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
        walk = _document_links if document.tree is not None else _sheet_links
        links.extend(walk(document, fallback, mode, select, unread, 0, attributes, origin))
        if part.status is None and not part.locations and os.path.isfile(part.name):
            links = saved_copies(links, part.name)
    if keep is not None:
        links = keep(links, own.url)
    return links, "; ".join(unread)


def iter_links(
    source: Source,
    *,
    url: str | None = None,
    mode: Mode = "rfc1808",
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
    on_warning: Callable[[InputWarning], None] | None = None,
) -> Iterator[Link]:
    """Every link of every document in ``source``, streamed in input order.

    ``source``: bytes, a path, a directory (its files in name order, as the CLI walks it), a URL
    (``https://``, ``file://``, ``s3://``: :mod:`baselinks.run.inputs`, the fsspec extra), or a
    binary file; HTML, a MIME message or MHTML archive, a WARC or ARC file, a raw HTTP response,
    or a gzip of any of these, recognised by content. A ``str`` is a path or URL: one that is no
    existing file and looks like markup (``<`` after optional whitespace, or a line break) raises
    :class:`TypeError` saying to pass bytes (``markup.encode()``), since only bytes let a page's
    own ``<meta charset>`` be honoured.

    ``url`` is the retrieval URL (RFC 1808 §3.3; a URL source's own by default, where its
    redirects ended); WARC records carry their own, which it does not override (said once:
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
    link per URL in each document (``True`` or ``"document"``), or in the whole run (``"run"``: a
    set of the URLs seen, in this process: about 170 bytes per distinct URL). ``name``: what the
    ``document`` field says (default: the path, or ``-`` for bytes).

    Damage (a truncated archive, a broken MIME part) never stops the rest: every readable document
    is yielded, and each :class:`~baselinks.InputError` goes to ``on_error``, a path that cannot be
    read too (``No such file or directory``, ``HTTP 404 Not Found``); without one, the first is
    raised after the last link (the others attached as notes). An oddity repaired, nothing lost
    (a WARC record split over gzip members), is an :class:`~baselinks.InputWarning`, never
    raised: to ``on_warning``, else :func:`warnings.warn`. ``strict=False`` skips an input that
    is no document (an image) instead of failing on it. ``summary`` counts files, documents, links,
    links without a base, skipped records and failures; a ``Summary(stats=Stats())`` counts the
    links by kind, base source, problem code and host too (:class:`~baselinks.write.stats.Stats`).

    ``workers``: documents (the records of a WARC, the parts of a MIME message) are spread over this
    many processes (0: one per CPU); the links come in the same order as with 1. A worker that dies
    (the OOM killer) is an ``InputError`` with no name, its work done again; a document that kills
    its worker each time is an ``InputError`` naming it.

    ``attributes``: more places to find URLs, as ``(tag, attribute)`` pairs (tag ``"*"``: any
    element), e.g. ``[("div", "data-url")]``: kind ``other``, problem ``nonstandard-attribute``.
    """
    refuse_markup(source)
    errors: list[InputError] = []
    report, tally = on_error or errors.append, summary if summary is not None else Summary()
    given = given_inputs(source, name, strict, url, root_url, root, report, tally)
    scope = unique_scope(unique)
    count = None if summary is None else counter(summary, scope)  # none made that no one reads
    keep = keep_only(schemes, same_host, external)
    options = Options(url, as_pairs(headers), charset)
    task = _task(mode, select, kinds, scope is not None, records, options, attributes, keep, count)
    jobs, warn = resolve_workers(workers), on_warning or _python_warning
    yield from _given_links(given, task, jobs, scope == "run", tally, report, warn)
    raise_first(errors)  # never a warning: nothing of it was lost


def _python_warning(warning: InputWarning) -> None:
    """A repaired oddity where no ``on_warning`` is given: Python's warnings machinery (shown
    once per place by default; ``warnings.simplefilter`` and ``-W`` choose)."""
    warnings.warn(warning, stacklevel=3)


def _given_links(
    given: Iterable[Input],
    task: Task[list[Link]],
    workers: int,
    unique_in_run: bool,
    tally: Summary,
    report: Callable[[InputError], None],
    warn: Callable[[InputWarning], None],
) -> Iterator[Link]:
    """:func:`iter_links`' links of its inputs, in order (with ``unique_in_run``, those whose
    URL no document before had); its errors, an input that cannot be read too, to ``report``.
    An iterator, not a generator: each link is handed on by C (``chain``), with no Python
    frame resumed per link (77,000 on the corpus HTML)."""

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))  # a path not found, a directory...: by name

    found = results(given, task, workers, tally, report, unreadable, warn=warn)
    if not unique_in_run:
        return chain.from_iterable(done.output for done in found)
    seen: set[str] = set()
    return chain.from_iterable(new_in_run(done.output, seen, tally) for done in found)


def _task(
    mode: str,
    select: str | None,
    kinds: Collection[str] | None,
    unique: bool,
    render: Callable[[list[Link]], T],
    options: Options,
    attributes: Iterable[tuple[str, str]] | None = None,
    keep: Keep | None = None,
    count: Callable[[list[Link]], tuple[int, Stats | None]] | None = None,
) -> Task[T]:
    check_mode(mode)
    pairs = attribute_pairs(attributes)  # a wrong pair fails here, once
    extract = _part_links
    if pairs or keep is not None:
        extract = partial(_part_links, attributes=pairs, keep=keep)
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise ValueError(
            f"unknown kind(s) {sorted(set(kinds) - set(KINDS))}: expected {', '.join(KINDS)}"
        )
    if select is not None:
        select_roots(parse_html("<html></html>"), select)  # an invalid selector fails here, once
    frozen_kinds = None if kinds is None else frozenset(kinds)
    return Task(extract, mode, select, frozen_kinds, unique, render, options, count)


def iter_rendered(
    inputs: Iterable[tuple[Source, str | None, bool] | tuple[Source, str | None, bool, str | None]],
    render: Callable[[Sequence[Link]], T],
    *,
    url: str | None = None,
    mode: Mode = "rfc1808",
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
    on_warning: Callable[[InputWarning], None] | None = None,
) -> Iterator[T]:
    """Many inputs ``(source, name, strict)`` as text, one document at a time (the CLI's path);
    a fourth item is the input's URL in a mirrored site (base/mirror.py: ``mirrored_url``).

    ``render`` turns a document's links into text (or keeps them, ``list``, for Parquet's
    columns); with workers it runs in them, so the main process only reads inputs and writes
    text (but with ``unique="run"``, whose links are chosen here, in input order, and rendered
    here). An input that cannot be read goes to ``unreadable`` and the batch goes on;
    ``unused`` is told of an input for which ``url`` is not used (an archive's records carry
    their own); ``on_warning`` of each oddity repaired (else ``on_error`` is).
    """
    scope = unique_scope(unique)
    keep = keep_only(schemes, same_host, external)
    options = Options(url, (), charset)
    given = (Input(*one) for one in inputs)
    count = counter(summary, scope)
    jobs = resolve_workers(workers)
    if scope == "run":
        task = _task(mode, select, kinds, True, records, options, attributes, keep, count)
        seen: set[str] = set()
        for found in results(given, task, jobs, summary, on_error, unreadable, unused, on_warning):
            new = new_in_run(found.output, seen, summary)
            if new:
                yield render(new)
        return
    rendered = _task(
        mode, select, kinds, scope is not None, render, options, attributes, keep, count
    )
    for done in results(given, rendered, jobs, summary, on_error, unreadable, unused, on_warning):
        yield done.output


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
