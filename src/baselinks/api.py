"""The public functions over the pipeline: :func:`iter_links`, :func:`extract_links`, and the
command line's and the graph's ways in (:func:`iter_rendered`, :func:`iter_pages`). Read
pipeline.py first: one document through the stages, in a few lines.

run/batch.py runs the pipeline for every document of every input, in order (in worker processes
with ``workers``), with the options run/options.py checked; the writers (write/) turn the
:class:`Link` records into JSON Lines, CSV, TSV, text, a table or Parquet.
"""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import (
    Callable,
    Collection,
    Generator,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import replace
from functools import partial
from itertools import chain
from typing import Literal, ParamSpec, TypeVar

from .base.layers import retrieval_url
from .errors import InputError, InputWarning, SelectError, describe, raise_first
from .find.linktable import KINDS
from .find.walk import attribute_pairs, select_roots
from .load.containers.entries import Origin
from .load.containers.httpmsg import as_pairs
from .load.document import parse_html
from .load.html5 import choose
from .pipeline import part_links
from .resolve.link import FIELDS, Link
from .run.batch import Input, Options, Source, Summary, Task, Unused, records, results
from .run.options import (
    Keep,
    counter,
    given_inputs,
    keep_only,
    new_in_run,
    refuse_wrong_types,
    unique_field,
    unique_scope,
)
from .run.resume import Ended
from .run.revisits import RevisitIndex
from .run.workers import resolve_workers
from .url.resolve import Mode, check_mode
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
    unique_by: str = "url",
    parser: str | None = None,
    on_warning: Callable[[InputWarning], None] | None = None,
    revisits: bool | RevisitIndex = True,
) -> Iterator[Link]:
    """Every link of every document in ``source``, streamed in input order.

    ``source``: bytes, a path, a directory (its files in name order, as the CLI walks them), a URL
    (``https://``, ``file://``, ``s3://``: the fsspec extra) or a binary file; HTML, MIME, MHTML,
    WARC, ARC, WACZ, a feed, a sitemap, a raw HTTP response, or a gzip of any, recognised by
    content. A ``str`` that is no file and looks like markup raises :class:`TypeError`: pass
    bytes, so that the page's own ``<meta charset>`` counts.

    ``url``: the retrieval URL (RFC 1808 §3.3; a URL source's own by default), which archive
    records' own URLs win over. ``root_url``: the URL of the directory ``root`` of a mirrored
    site (``wget -m``) that ``source`` is under (:mod:`baselinks.base.mirror`). ``headers``: a
    fetched body's HTTP response headers (charset, content coding, ``Link``); ``charset``: the
    transport's, over the headers'. ``name``: what the ``document`` field says.

    ``select``: a CSS selector, only links inside matching elements. ``kinds``, ``schemes`` (of
    the resolved URL), ``same_host`` / ``external`` (the document's own host or another:
    :class:`~baselinks.run.options.Keep`): only those links. ``unique``: the first link per URL
    (``unique_by``: or host, domain, surt, canonical) in each document (``True``) or in the run
    (``"run"``: a set of the values seen). ``attributes``: more ``(tag, attribute)`` pairs to
    find URLs in (tag ``"*"``: any element; kind ``other``, problem ``nonstandard-attribute``).
    ``parser``: "html5" or "lxml" (docs/guide/parsers.md).

    Damage never stops the rest: every readable document is yielded, and each
    :class:`~baselinks.InputError` goes to ``on_error`` (an unreadable path too); without it,
    the first is raised after the last link, the others attached as notes. An oddity repaired,
    nothing lost, is an :class:`~baselinks.InputWarning`, never raised: to ``on_warning``, else
    :func:`warnings.warn`. ``strict=False`` skips an input that is no document (an image).
    ``summary`` counts files, documents, links, skips and failures (with ``stats``, links by
    kind, base source, problem code and host: :class:`~baselinks.write.stats.Stats`).
    ``workers``: documents spread over this many processes (0: one per CPU), the links in the
    same order; a worker that dies is an ``InputError``, its work done again.

    ``revisits``: a WARC ``revisit`` record's links are its original payload's, the original
    looked for in ``source`` before it is read (``revisit_of`` names it: docs/reference.md,
    Revisits); False: revisits are skipped; a :class:`~baselinks.run.revisits.RevisitIndex`:
    the originals found already (a Spark job's, of all its files).
    """
    refuse_wrong_types(source, url=url, name=name, charset=charset, mode=mode)
    if url is not None:
        retrieval_url(url)  # absolute, with a scheme: else ValueError
    errors: list[InputError] = []
    report, tally = on_error or errors.append, summary if summary is not None else Summary()
    given = given_inputs(source, name, strict, url, root_url, root, report, tally)
    scope = unique_scope(unique)
    count = None if summary is None else counter(summary, scope)  # none made that no one reads
    keep = keep_only(schemes, same_host, external)
    options = Options(url, as_pairs(headers), charset, revisits)
    by = scope and unique_by  # the field each document's links are made unique on, or None
    task = _task(mode, select, kinds, by, records, options, attributes, keep, count, parser)
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
    extract = partial(part_links, attributes=pairs, keep=keep, parser=choose(parser))
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
    unique_by: str = "url",
    parser: str | None = None,
    on_warning: Callable[[InputWarning], None] | None = None,
    ended: Callable[[Ended], None] | None = None,
    revisits: bool | RevisitIndex = True,
) -> Generator[T, None, None]:
    """Many inputs ``(source, name, strict)`` as text, one document at a time (the CLI's path);
    a fourth item is the input's URL in a mirrored site (base/mirror.py: ``mirrored_url``).

    ``render`` turns a document's links into text (or keeps them, ``list``, for Parquet's
    columns); with workers it runs in them, so the main process only reads inputs and writes
    text (but with ``unique="run"``, whose links are chosen here, in input order, and rendered
    here). An input that cannot be read goes to ``unreadable`` and the batch goes on;
    ``unused`` is told of an input for which ``url`` is not used (an archive's records carry
    their own); ``on_warning`` of each oddity repaired (else ``on_error`` is); ``ended`` of
    each input done, its text all handed over (``--resume``'s journal: run/resume.py);
    ``revisits``: as for :func:`iter_links` (a run going on after the inputs done: the index
    of all of them).
    """
    scope = unique_scope(unique)
    keep = keep_only(schemes, same_host, external)
    if url is not None:
        retrieval_url(url)
    options = Options(url, (), charset, revisits)
    given = (Input(*one) for one in inputs)
    count = counter(summary, scope)
    jobs = resolve_workers(workers)
    if scope == "run":
        task = _task(
            mode, select, kinds, unique_by, records, options, attributes, keep, count, parser
        )
        seen: set[str | None] = set()
        found_all = results(
            given, task, jobs, summary, on_error, unreadable, unused, on_warning, ended
        )
        for found in found_all:
            new = new_in_run(found.output, seen, summary, unique_by)
            if new:
                yield render(new)
        return
    rendered = _task(
        mode, select, kinds, scope and unique_by, render, options, attributes, keep, count, parser
    )
    for done in results(
        given, rendered, jobs, summary, on_error, unreadable, unused, on_warning, ended
    ):
        yield done.output


def iter_pages(
    inputs: Iterable[tuple[Source, str | None, bool] | tuple[Source, str | None, bool, str | None]],
    render: Callable[[list[Link]], T],
    *,
    mode: str = "rfc1808",
    kinds: Collection[str] | None = None,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
    workers: int = 1,
    url: str | None = None,
    schemes: Iterable[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    revisits: bool | RevisitIndex = True,
    parser: str | None = None,
) -> Iterator[tuple[str | None, T]]:
    """Every document of many inputs ``(source, name, strict)`` (a fourth item: its URL in a
    mirrored site), one without links too, as its own URL (``page_url``, None when not known)
    and its links rendered where they are extracted (in the workers): what a link graph is
    built of (graph/build.py), and a coverage check (coverage/build.py). ``url``, ``kinds``,
    ``schemes``, ``same_host``, ``external``, ``revisits``: as for :func:`iter_links` (the same
    filters, so a graph is the graph of the links ``extract`` gives with them); ``parser``:
    "html5" or "lxml" (None: the default)."""
    keep = keep_only(schemes, same_host, external)
    options = Options(url, revisits=revisits)
    count = counter(summary, None)
    task = _task(mode, None, kinds, None, render, options, keep=keep, count=count, parser=parser)
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
