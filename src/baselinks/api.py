"""The pipeline, load → base → walk → resolve, in a few lines. Read this file first.

    parts    = iter_entries(input)                           containers/  (WARC, MIME, HTTP, HTML)
    document = load(part.body)                               load.py
    base     = establish_base(document.tree,                 base.py      (RFC 1808 §3)
                   encapsulating_base(part.locations,
                       retrieval_base(part.retrieval)))
    raw      = raw_links(document.tree)                      walk.py      (never resolves)
    links    = resolve each raw link against base            here         (RFC 1808 §4)

The writers (write.py) turn :class:`Link` records into JSON Lines, CSV, TSV or text.
"""

from __future__ import annotations

import codecs
import inspect
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple, ParamSpec

from .base import (
    Base,
    BaseSource,
    encapsulating_base,
    establish_base,
    retrieval_base,
    srcdoc_fallback,
    written_base,
)
from .batch import Input, Options, Source, Summary, Task, results
from .containers import Part
from .containers.httpmsg import as_pairs
from .diagnose import diagnose, saved_copy
from .encoding import browser_encoding, query_codec
from .errors import BaselinksError, InputError, SelectError, describe, raise_first
from .load import Document, load_text, parse_html
from .microsyntax import ASCII_WHITESPACE
from .resolve import Resolver, check_mode, encoding_parse, resolver_class
from .sheets import LOADERS, sheet_links
from .walk import (
    KINDS,
    PLACEMENTS,
    RawLink,
    attribute_pairs,
    header_links,
    raw_links,
    select_roots,
)
from .workers import resolve_workers

__all__ = [
    "FIELDS",
    "KINDS",
    "Link",
    "SelectError",
    "Source",
    "Summary",
    "extract_links",
    "iter_links",
]

Headers = Mapping[str, str] | Iterable[tuple[str, str]]
P = ParamSpec("P")

# An iframe srcdoc may hold an iframe srcdoc...: nesting deeper than this is not followed.
MAX_SRCDOC_DEPTH = 8


class Link(NamedTuple):
    """One link, absolute, with where it came from and which base made it so.

    An immutable record. A named tuple rather than a frozen dataclass: building one took 2.3 µs
    against 0.4 µs, for every link; and it pickles small, for ``workers``.
    """

    url: str
    raw: str
    base: str
    base_source: str
    tag: str
    attr: str
    line: int | None
    document: str
    text: str
    rel: str
    kind: str
    problems: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON types: every field a str, an int or None; problems a list."""
        record: dict[str, Any] = dict(zip(FIELDS, self, strict=True))
        record["problems"] = list(self.problems)
        return record


FIELDS: tuple[str, ...] = Link._fields


class _Linker:
    """The resolve stage for one document: raw links against its base, with problem codes."""

    def __init__(
        self,
        base: Base,
        mode: str,
        name: str,
        query_codec: codecs.CodecInfo | None = None,
        document_url: Base | None = None,
    ) -> None:
        self.base = base
        # the document's own URL (its base without <base>: §3.2 or §3.3), for an empty action
        self.document_url = base if document_url is None else document_url
        self.source = base.source.value
        self.mode = mode
        self.name = name
        self.query_codec = query_codec
        self.resolver = Resolver(base.url, mode)
        self.codebases: dict[str, Resolver] = {}
        # reference as written (stripped) -> (url, problems), against the document's base
        self.memo: dict[str, tuple[str, tuple[str, ...]]] = {}

    def _codebase(self, codebase: str) -> Resolver:
        # HTML 4 §13.3: codebase "specifies the base path used to resolve relative URIs
        # specified by the classid, data, and archive attributes".
        if codebase not in self.codebases:
            try:
                self.codebases[codebase] = Resolver(self.resolver.resolve(codebase), self.mode)
            except BaselinksError:
                self.codebases[codebase] = self.resolver
        return self.codebases[codebase]

    def link(self, raw: RawLink) -> Link:
        # The hot path (once per link): a tuple unpacked, one dictionary lookup when the
        # document repeats a reference (a quarter of the corpus's links), and the record built
        # with tuple.__new__, skipping NamedTuple's Python-level __new__.
        written, tag, attr, kind, line, text, rel, codebase, found_problems, _ = raw
        # "Attribute values are stripped of leading and trailing ASCII whitespace" (HTML: "a
        # valid URL potentially surrounded by spaces"); `raw` keeps them as written.
        value = written.strip(ASCII_WHITESPACE)
        if codebase and codebase.strip(ASCII_WHITESPACE):
            url, problems, base, source = self._against_codebase(value, codebase)
        elif not value and kind == "form":
            url, problems, base, source = self._form_document()
        else:
            found = self.memo.get(value)
            if found is None:
                found = self.memo[value] = self._resolve(self.resolver, value)
            url, problems = found
            base, source = self.resolver.base, self.source
        if found_problems:
            problems += found_problems  # the walker's: after the resolver's, in a fixed order
        return _new(
            Link,
            (url, written, base, source, tag, attr, line, self.name, text, rel, kind, problems),
        )

    def _resolve(self, resolver: Resolver, value: str) -> tuple[str, tuple[str, ...]]:
        try:
            url: str | None = encoding_parse(resolver, value, self.query_codec)
        except BaselinksError:
            url = None  # kept, with "unresolvable": never dropped, never fatal
        problems = diagnose(resolver.base, value, url)
        return value if url is None else url, problems

    def _form_document(self) -> tuple[str, tuple[str, ...], str, str]:
        # https://html.spec.whatwg.org/#form-submission-algorithm: "If action is the empty
        # string, let action be the URL of the form document", then encoding-parsed: the
        # document's URL as the mode writes it, whatever <base> says. An action (or formaction)
        # of spaces only is the document's URL too: the standard's letter would parse it, as
        # "", against the base, but Blink and WebKit strip it first (FormSubmission::
        # Attributes::ParseAction) and submit to the document, and where the form goes is
        # the link (fixture: form-action-document-url.html; `form.action` in Chromium agrees).
        document = self.document_url
        resolver = Resolver(document.url, self.mode)
        return (*self._resolve(resolver, document.url), document.url, document.source.value)

    def _against_codebase(self, value: str, codebase: str) -> tuple[str, tuple[str, ...], str, str]:
        resolver = self._codebase(codebase.strip(ASCII_WHITESPACE))
        # the codebase attribute is a base in the content
        source = self.source if resolver is self.resolver else BaseSource.CONTENT.value
        return (*self._resolve(resolver, value), resolver.base, source)


_new = tuple.__new__


def _document_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
) -> list[Link]:
    """base → walk → resolve for one loaded document; what its parse could not read is added
    to ``unread``."""
    if document.unread:
        unread.append(document.unread)
    # whatwg mode: a query's non-ASCII in the document's encoding as a browser chose it (None:
    # UTF-8); an ASCII-only page that declares nothing is windows-1252 there
    codec = (
        query_codec(browser_encoding(document.encoding, document.encoding_source, document.text))
        if resolver_class(mode).query_in_document_encoding
        else None
    )
    base = establish_base(document.tree, fallback, mode, codec)  # RFC 1808 §3.1 over the fallback
    link = _Linker(base, mode, document.name, codec, fallback).link
    links: list[Link] = []
    for raw in raw_links(document.tree, select_roots(document.tree, select), attributes):
        if not raw.nested:
            links.append(link(raw))
        elif depth < MAX_SRCDOC_DEPTH:
            nested = load_text(raw.raw, f"{document.name}#srcdoc@{raw.line}")
            inner = srcdoc_fallback(base)  # its own <base> wins over it
            found = _document_links(nested, inner, mode, None, unread, depth + 1, attributes)
            placed = tuple(code for code in raw.problems if code in PLACEMENTS)
            if placed:  # an iframe in <template> or <noscript>: its document is too
                found = [_placed(one, placed) for one in found]
            links.extend(found)
    return links


def _placed(link: Link, codes: tuple[str, ...]) -> Link:
    added = tuple(code for code in codes if code not in link.problems)
    return link._replace(problems=link.problems + added) if added else link


def _sheet_links(
    document: Document,
    fallback: Base,
    mode: str,
    select: str | None,
    unread: list[str],
    depth: int = 0,
    attributes: tuple[tuple[str, str], ...] = (),
) -> list[Link]:
    """resolve for a style sheet (sheets.py): against its own URL, no <base>, no elements for
    ``select`` to match; a URL's query in UTF-8 (CSS Values 4 parses url() with no encoding)."""
    if select is not None:
        return []
    link = _Linker(fallback, mode, document.name).link
    return [link(raw) for raw in sheet_links(document)]


def _part_links(
    part: Part, mode: str, select: str | None, attributes: tuple[tuple[str, str], ...] = ()
) -> tuple[list[Link], str]:
    """One document of an input: its HTTP header links, then its own; and what of it could
    not be read ("" when all of it was)."""
    load = LOADERS[part.doctype]
    document = None if part.body is None else load(part.body, charset=part.charset, name=part.name)
    retrieval = retrieval_base(part.retrieval, document.text if document else "")
    retrieval = written_base(retrieval, mode)  # as the mode's URL parser writes it
    links: list[Link] = []
    unread: list[str] = []
    if part.headers:
        # A redirect's Location, a Link header: relative to the URL that was fetched (§3.3),
        # whatever <base> the body holds.
        linker = _Linker(retrieval, mode, part.name)
        links.extend(linker.link(raw) for raw in header_links(part.status, part.headers))
    if document is not None:
        fallback = encapsulating_base(part.locations, retrieval, mode)  # RFC 1808 §3.2
        walk = _document_links if document.tree is not None else _sheet_links
        links.extend(walk(document, fallback, mode, select, unread, 0, attributes))
        if part.status is None and not part.locations and os.path.isfile(part.name):
            links = _saved_copies(links, part.name)
    return links, "; ".join(unread)


def _saved_copies(links: list[Link], path: str) -> list[Link]:
    """The links of the file ``path`` that point into the folder a browser saved beside it,
    marked ``saved-copy`` (see diagnose.saved_copy); the others as they are."""
    marks = saved_copy(path, [link.raw for link in links])
    return [
        link._replace(problems=(*link.problems, "saved-copy")) if marked else link
        for link, marked in zip(links, marks, strict=True)
    ]


def iter_links(
    source: Source,
    *,
    url: str | None = None,
    mode: str = "rfc1808",
    select: str | None = None,
    kinds: Collection[str] | None = None,
    unique: bool = False,
    charset: str | None = None,
    name: str | None = None,
    headers: Headers | None = None,
    strict: bool = True,
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
    workers: int = 1,
    attributes: Iterable[tuple[str, str]] | None = None,
) -> Iterator[Link]:
    """Every link of every document in ``source``, streamed in input order.

    ``source``: bytes, a path, or a binary file; HTML, a MIME message or MHTML archive, a WARC
    or ARC file, a raw HTTP response, or a gzip of any of these, recognised by content.

    ``url`` is the retrieval URL (RFC 1808 §3.3): for a crawler, the final URL after redirects;
    WARC records carry their own. ``headers``: the HTTP response headers of a fetched body
    (a mapping or pairs): their charset and content coding are honoured, their ``Link`` header
    gives links. ``charset``: the transport's charset, overriding the headers'.

    ``select``: a CSS selector; only links inside matching elements. ``kinds``: keep only these
    kinds. ``unique``: the first link per URL in each document. ``name``: what the ``document``
    field says (default: the path, or ``-`` for bytes).

    Damage (a truncated archive, a broken MIME part) never stops the rest: every readable
    document is yielded, and each :class:`~baselinks.InputError` goes to ``on_error``, a path
    that cannot be read too (``No such file or directory``, ``Is a directory``); without
    one, the first error is raised after the last link (the others attached as notes).
    ``strict=False`` skips an input that is no document (an image) instead of failing on it.
    ``summary`` counts files, documents, links, skipped records and failures.

    ``workers``: documents (the records of a WARC, the parts of a MIME message) are spread over
    this many processes (0: one per CPU); the links come in the same order as with 1. A worker
    that dies (the OOM killer) is an ``InputError`` with no name, its work done again; a
    document that kills its worker each time is an ``InputError`` naming it.

    ``attributes``: more places to find URLs, as ``(tag, attribute)`` pairs (tag ``"*"``: any
    element), e.g. ``[("div", "data-url")]``; their links have kind ``other`` and the problem
    code ``nonstandard-attribute``.
    """
    options = Options(url, as_pairs(headers), charset)
    task = _task(mode, select, kinds, unique, options=options, attributes=attributes)
    tally = summary if summary is not None else Summary()
    errors: list[InputError] = []
    report = errors.append if on_error is None else on_error
    inputs = [Input(source, name, strict)]

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))  # a path not found, a directory...: by name

    for done in results(inputs, task, resolve_workers(workers), tally, report, unreadable):
        yield from done.links  # type: ignore[misc]
    raise_first(errors)


def _task(
    mode: str,
    select: str | None,
    kinds: Collection[str] | None,
    unique: bool,
    render: Callable[[Sequence[Link]], str] | None = None,
    options: Options | None = None,
    attributes: Iterable[tuple[str, str]] | None = None,
) -> Task:
    check_mode(mode)
    pairs = attribute_pairs(attributes)  # a wrong pair fails here, once
    extract = partial(_part_links, attributes=pairs) if pairs else _part_links
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise ValueError(
            f"unknown kind(s) {sorted(set(kinds) - set(KINDS))}: expected {', '.join(KINDS)}"
        )
    if select is not None:
        select_roots(parse_html("<html></html>"), select)  # an invalid selector fails here, once
    frozen_kinds = None if kinds is None else frozenset(kinds)
    return Task(extract, mode, select, frozen_kinds, unique, render, options or Options())


def iter_rendered(
    inputs: Iterable[tuple[Source, str | None, bool]],
    render: Callable[[Sequence[Link]], str],
    *,
    url: str | None = None,
    mode: str = "rfc1808",
    select: str | None = None,
    kinds: Collection[str] | None = None,
    unique: bool = False,
    charset: str | None = None,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
    workers: int = 1,
    attributes: Iterable[tuple[str, str]] | None = None,
) -> Iterator[str]:
    """Many inputs ``(source, name, strict)`` as text, one document at a time (the CLI's path).

    ``render`` turns a document's links into text; with workers it runs in them, so the main
    process only reads inputs and writes text. An input that cannot be read goes to
    ``unreadable`` and the batch goes on.
    """
    task = _task(mode, select, kinds, unique, render, Options(url, (), charset), attributes)
    given = (Input(*one) for one in inputs)
    for done in results(given, task, resolve_workers(workers), summary, on_error, unreadable):
        yield done.links  # type: ignore[misc]


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
