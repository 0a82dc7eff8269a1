"""build: inputs → every link's coverage, on one machine, in bounded memory.

    1. scan (scan.py): every capture of the inputs into the store, and the index files' lines
       (index.py); the store's key index built
    2. extract (api.iter_pages, -j workers): every document's links, in input order; each
       checked (classify.py: scope, redirects followed, fragment), written, tallied
    3. tally.finish: completeness, the most wanted URLs, broken fragments, loops

The inputs are read twice (a pipe cannot be: standard input is refused). Memory holds the
store's cache and one document's links; everything else is in a temporary SQLite database,
removed at the end.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..api import iter_pages
from ..base.mirror import root_url as checked_root
from ..errors import InputError, describe, raise_first
from ..resolve.link import Link
from ..run.batch import Summary, records
from .classify import Checked, Classifier, Covered
from .follow import moment
from .index import read_index
from .inputs import Input, coverage_inputs
from .keys import target_key
from .scan import scan
from .store import CaptureStore
from .summary import CoverageSummary
from .tally import Tally

__all__ = ["check_coverage", "coverage_of"]

Write = Callable[[list[Covered]], object]
_HTML = (None, "text/html", "application/xhtml+xml")


def _kind(links: Sequence[Link], page_url: str | None, classifier: Classifier) -> str:
    """A document's kind for the tallies: ``sheet`` (CSS), ``page`` (HTML) or ``other`` (a
    feed, a sitemap, a redirect's or an error's response), by its own capture: the one its
    links' record is (else the one a replay tool would serve at its URL)."""
    if any(link.tag == "css" for link in links):
        return "sheet"
    key = None if page_url is None else target_key(page_url)
    if key is None:
        return "page"
    row = None
    if links and links[0].offset is not None:
        file, offset = links[0].file, links[0].offset
        row = next(
            (r for r in classifier.store.rows(key) if r.offset == offset and r.file == file), None
        )
    if row is None:
        row = classifier.follower.best(page_url or "", moment(links[0].date) if links else None)
    if row is not None and row.status is not None and not 200 <= row.status < 300:
        return "other"  # a redirect (the links of its headers), an error's page
    mime = None if row is None else row.mime
    if mime == "text/css":
        return "sheet"
    return "page" if mime in _HTML else "other"


def coverage_of(
    inputs: Sequence[Input],
    write: Write,
    *,
    index: Iterable[str | os.PathLike[str]] = (),
    mode: str = "whatwg",
    parser: str | None = None,
    workers: int = 1,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
    seeds: Callable[[Iterable[tuple[str, int]]], object] | None = None,
) -> CoverageSummary:
    """The coverage of every link of ``inputs`` (the command line's walk: name, source,
    named, mirrored URL), each document's records handed to ``write`` as they are made.

    ``index``: CDXJ or CDX files whose captures count as the archive's too. ``mode``: how
    links resolve (``whatwg`` by default: as the browser that replays them). An input that
    is neither an archive nor a mirrored file (no URL: no ``--root-url``, or not of the site)
    is not read, and counted (``unplaced``). ``seeds`` is handed the missing URLs, the most
    needed first, with how many pages need each. Errors go to ``on_error`` and
    ``unreadable``, as extraction's do.
    """
    with tempfile.TemporaryDirectory(prefix="baselinks-coverage-") as scratch:
        store = CaptureStore(Path(scratch) / "coverage.sqlite")
        try:
            scanned = scan(inputs, store, parser=parser)
            kept = scanned.captures
            for path in index:
                kept += read_index(path, store, on_error)
            store.finish()
            classifier = Classifier(store)
            tally = Tally(store.db)
            pages = iter_pages(
                [(source, name, named, url) for name, source, named, url in scanned.extract],
                records,
                mode=mode,
                parser=parser,
                on_error=on_error,
                unreadable=unreadable,
                summary=summary,
                workers=workers,
            )
            for page_url, links in pages:
                checked: list[Checked] = [classifier.check(link) for link in links]
                write([one.covered for one in checked])
                name = links[0].document if links else (page_url or "")
                tally.document(_kind(links, page_url, classifier), page_url, name, checked)
            made = tally.finish()
            made.captures_kept = kept
            made.unplaced = len(scanned.unplaced)
            made.unplaced_example = scanned.unplaced[0] if scanned.unplaced else ""
            if seeds is not None:
                seeds(tally.wanted())
            return made
        finally:
            store.close()


def check_coverage(
    sources: Iterable[str | os.PathLike[str]],
    *,
    root_url: str | None = None,
    index: Iterable[str | os.PathLike[str]] = (),
    mode: str = "whatwg",
    workers: int = 1,
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
) -> tuple[list[Covered], CoverageSummary]:
    """Every link of ``sources`` (paths of WARC, ARC, WACZ files; a mirrored site's folder
    with ``root_url``; URLs, with the fsspec extra) with its coverage, and the run's
    :class:`~.summary.CoverageSummary`.

    Each source that cannot be read (in part or whole) goes to ``on_error``; without it, the
    first error is raised once the rest is checked.
    """
    errors: list[InputError] = []
    report = on_error or errors.append

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))

    def unlisted(exc: OSError) -> None:
        report(InputError(describe(exc), exc.filename or ""))

    root = None if root_url is None else checked_root(root_url)
    paths = [os.fspath(source) for source in sources]
    inputs = list(coverage_inputs(paths, root, unlisted))
    covered: list[Covered] = []
    made = coverage_of(
        inputs,
        covered.extend,
        index=index,
        mode=mode,
        workers=workers,
        on_error=report,
        unreadable=unreadable,
        summary=summary if summary is not None else Summary(),
    )
    raise_first(errors)
    return covered, made
