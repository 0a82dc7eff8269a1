"""build: inputs → a link graph in a folder, on one machine, in bounded memory.

    every document (api.iter_pages: one without links too, in input order, -j workers)
      ── in the worker: its links' target names at the level, once each (names.DocumentNamer)
      ── here: its own vertex from its page URL; self-loops dropped; ExternalGraph.add
    ExternalGraph.finish ──► files.GraphFiles: vertices (id, name), edges (src, dst)

An edge is made once per source document (the targets of a document are a set, as
cc-pyspark's ``ExtractHostLinksJob`` makes them), then once in the graph. A document is a vertex
even when it has no outgoing link (its page URL names it), as Common Crawl keeps one with a
(src, src) edge. A link whose target makes no vertex, and a document whose own URL makes none,
are dropped and counted by reason (names.NAME_REASONS, url/canonical.REASONS): never a vertex
of garbage, never a traceback. A damaged input is an error line, and the others make the graph.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..api import iter_pages
from ..errors import InputError, describe, raise_first
from ..run.batch import Source, Summary, counted
from .files import GraphFiles
from .names import LEVELS, DocumentNamer, Names
from .sort import RUN_SIZE, ExternalGraph

__all__ = ["GraphSummary", "build_graph", "graph_of"]


@dataclass
class GraphSummary:
    """What a graph build made and left out: vertices and edges written, the documents that
    were sources, the links and documents dropped by reason, the files written."""

    level: str
    vertices: int = 0
    edges: int = 0
    sources: int = 0
    dropped_links: Counter[str] = field(default_factory=Counter)
    dropped_documents: Counter[str] = field(default_factory=Counter)
    files: list[Path] = field(default_factory=list)

    def line(self) -> str:
        """The summary as one line (after the extraction's)."""
        text = (
            f"{self.level} graph: {counted(self.vertices, 'vertex')}, {counted(self.edges, 'edge')}"
        ).replace("vertexs", "vertices")
        for what, dropped in (("link", self.dropped_links), ("document", self.dropped_documents)):
            if dropped:
                reasons = ", ".join(f"{n:,} {reason}" for reason, n in sorted(dropped.items()))
                text += f"; dropped {counted(sum(dropped.values()), what)} ({reasons})"
        return text


def graph_of(
    inputs: Iterable[tuple[Source, str | None, bool]],
    out: str | os.PathLike[str],
    *,
    level: str = "host",
    form: str = "tsv",
    kinds: Collection[str] | None = None,
    workers: int = 1,
    keep_www: bool = False,
    private_domains: bool = False,
    run_size: int = RUN_SIZE,
    mode: str = "rfc1808",
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
) -> GraphSummary:
    """:func:`build_graph` over inputs ``(source, name, named)`` (the command line's walk)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files = GraphFiles(folder, form)
    made = GraphSummary(level)
    namer = DocumentNamer(level, keep_www, private_domains)
    scratch = tempfile.mkdtemp(prefix=".graph-", dir=folder)  # beside the output: its disk
    try:
        graph = ExternalGraph(scratch, run_size)
        pages = iter_pages(
            inputs,
            namer,
            mode=mode,
            kinds=kinds,
            on_error=on_error,
            unreadable=unreadable,
            summary=summary,
            workers=workers,
        )
        for page_url, names in pages:
            _add(graph, made, namer, page_url, names)
        made.vertices, made.edges = graph.finish(files)
        made.files = files.commit()
    except BaseException:
        files.discard()
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return made


def _add(
    graph: ExternalGraph, made: GraphSummary, namer: DocumentNamer, page: str | None, names: Names
) -> None:
    made.dropped_links.update(dict(names.dropped))
    source, reason = (names.source, "") if names.source is not None else namer.source(page)
    if source is None:
        made.dropped_documents[reason] += 1
        return
    made.sources += 1
    graph.add(source, names.targets)


def build_graph(
    sources: Iterable[Source],
    out: str | os.PathLike[str],
    *,
    level: str = "host",
    form: str = "tsv",
    kinds: Collection[str] | None = None,
    workers: int = 1,
    keep_www: bool = False,
    private_domains: bool = False,
    run_size: int = RUN_SIZE,
    mode: str = "rfc1808",
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
) -> GraphSummary:
    """The link graph of every document in ``sources`` (paths, bytes or binary files: all that
    :func:`~baselinks.iter_links` reads), written in the folder ``out``.

    ``level``: ``"page"`` (vertices named by SURT key), ``"host"`` (by host, reversed:
    ``com.example``; a leading ``www.`` stripped unless ``keep_www``, as Common Crawl does) or
    ``"domain"`` (by registered domain, reversed; the Public Suffix List's ICANN section, its
    private section too with ``private_domains``). ``form``: ``"tsv"`` writes
    ``vertices.tsv`` (``id<TAB>name``) and ``edges.tsv`` (``src<TAB>dst``), no header;
    ``"parquet"`` ``vertices.parquet`` (``id``, ``name``) and ``edges.parquet`` (``src``,
    ``dst``; pyarrow). IDs are 0..n-1 in the order of the names, edges sorted by (src, dst),
    each once, no self-loop. ``kinds``: only links of these kinds (``{"link"}``: hyperlinks).
    ``workers``: as for :func:`~baselinks.iter_links`. ``run_size``: pairs held in memory
    before a sorted run goes to a temporary file in ``out`` (memory is bounded by it).

    Each input that cannot be read (in part or whole) goes to ``on_error`` and the graph is
    made of the rest; without ``on_error``, the first error is raised once the graph is
    written. Returns what was made and dropped (:class:`GraphSummary`).
    """
    errors: list[InputError] = []
    report = on_error or errors.append

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))

    made = graph_of(
        ((source, None, True) for source in sources),
        out,
        level=level,
        form=form,
        kinds=kinds,
        workers=workers,
        keep_www=keep_www,
        private_domains=private_domains,
        run_size=run_size,
        mode=mode,
        on_error=report,
        unreadable=unreadable,
        summary=summary if summary is not None else Summary(),
    )
    raise_first(errors)
    return made
