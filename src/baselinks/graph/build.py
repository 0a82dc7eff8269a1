"""build: inputs → a link graph in a folder, on one machine, in bounded memory.

    every document (api.iter_pages: one without links too, in input order, -j workers; or
    extract's own output read back: records.py)
      ── in the worker: its links' target names at the level, counted (names.DocumentNamer)
      ── here: its own vertex from its page URL; self-loops dropped; ExternalGraph.add
    ExternalGraph.finish ──► files.GraphFiles: vertices (id, name), edges (src, dst[, counts])

An edge is made once per source document (the targets of a document are a set, as
cc-pyspark's ``ExtractHostLinksJob`` makes them), then once in the graph, with how many links
and pages made it (``weights``). A document is a vertex even when it has no outgoing link (its
page URL names it), as Common Crawl keeps one with a (src, src) edge. A link whose target makes
no vertex, and a document whose own URL makes none, are dropped and counted by reason
(names.NAME_REASONS): never a vertex of garbage, never a traceback. A damaged input is an error
line, and the others make the graph.

The folder (folder.py) is checked and held by one run at a time; the run works in a folder of
its own inside it. With ``resume``, it checkpoints after each batch of inputs (the sort's runs
and the counts) and a run started again with the same command goes on after the last input
checkpointed: the files are the same bytes as an uninterrupted run's (the sort is order-free).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..api import iter_pages
from ..errors import InputError, describe, raise_first
from ..run.batch import Source, Summary, counted
from ..run.options import keep_only
from ..url.resolve import MODES
from .files import FORMATS, GraphFiles
from .folder import GraphFolder, Resumable
from .names import LEVELS, DocumentNamer, Names
from .records import is_links_file, read_documents
from .sort import RUN_SIZE, ExternalGraph

__all__ = ["GraphOptions", "GraphSummary", "build_graph", "graph_of"]

Given = tuple[Source, str | None, bool] | tuple[Source, str | None, bool, str | None]
# process_webgraph.sh's rule for a graph's name (its files' prefix): safe as a file name
NAME = re.compile(r"[a-zA-Z0-9_][a-zA-Z0-9_.-]+[a-zA-Z0-9_]\Z")
CHECKPOINT_SECONDS = 1.0  # with resume: a checkpoint after the batch that ends past this


@dataclass(frozen=True)
class GraphOptions:
    """What a graph is made of and how it is written (the command line's options)."""

    level: str = "host"
    form: str = "tsv"  # tsv, parquet, common-crawl
    name: str | None = None  # common-crawl: the files' prefix
    weights: bool = False
    keep_www: bool = True
    private_domains: bool = False
    multipart: bool = False
    kinds: tuple[str, ...] | None = None
    schemes: tuple[str, ...] | None = None
    same_host: bool = False
    external: bool = False
    mode: str = MODES[0]  # rfc1808
    url: str | None = None

    def checked(self) -> GraphOptions:
        if self.level not in LEVELS:
            raise ValueError(f"unknown level {self.level!r}: expected one of {', '.join(LEVELS)}")
        if self.form not in (*FORMATS, "common-crawl"):
            raise ValueError(f"unknown graph format {self.form!r}")
        if self.form == "common-crawl" and (self.name is None or not NAME.match(self.name)):
            raise ValueError(
                f"a graph's name must be [a-zA-Z0-9_.-], 3 characters at least, starting and "
                f"ending with [a-zA-Z0-9_] (cc-webgraph's rule): {self.name!r}"
            )
        schemes = None if self.schemes is None else tuple(sorted({s.lower() for s in self.schemes}))
        keep_only(schemes, self.same_host, self.external)  # a conflict fails here
        kinds = None if self.kinds is None else tuple(sorted(set(self.kinds)))
        return GraphOptions(**{**asdict(self), "schemes": schemes, "kinds": kinds})

    def namer(self) -> DocumentNamer:
        return DocumentNamer(
            self.level, self.keep_www, self.private_domains, self.multipart, self.schemes
        )


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
    resumed: int = 0  # inputs a resumed run found done
    resumed_after: str = ""  # the last of them

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


class _Builder:
    """One build: documents named and added, counted, checkpointed."""

    def __init__(self, options: GraphOptions, graph: ExternalGraph, made: GraphSummary) -> None:
        self.options, self.graph, self.made = options, graph, made
        self.namer = options.namer()

    def add(self, page: str | None, names: Names) -> None:
        made, namer = self.made, self.namer
        made.dropped_links.update(dict(names.dropped))
        members = names.members
        source: str | None = names.source
        reason = ""
        if source is None:
            source, reason = namer.source(page)
            if not members:
                members = namer.members(page)
        if source is None:
            made.dropped_documents[reason] += 1
            self.graph.member(members)  # its hosts are vertices of a host graph all the same
            return
        made.sources += 1
        self.graph.add(source, names.targets, members)

    def pages(
        self,
        given: Sequence[Given],
        workers: int,
        on_error: Callable[[InputError], None],
        unreadable: Callable[[str, Exception], None],
        summary: Summary,
    ) -> None:
        """The documents of ``given`` in order: archives and pages through the pipeline,
        extract's output read back."""
        options = self.options
        segment: list[Given] = []
        for one in [*given, None]:
            if one is not None and not is_links_file(one[0]):
                segment.append(one)
                continue
            if segment:
                for page, names in iter_pages(
                    segment, self.namer, mode=options.mode, kinds=options.kinds,
                    on_error=on_error, unreadable=unreadable, summary=summary,
                    workers=workers, url=options.url, schemes=options.schemes,
                    same_host=options.same_host, external=options.external,
                ):  # fmt: skip
                    self.add(page, names)
                segment = []
            if one is not None:
                self._records(one, on_error, summary)

    def _records(
        self, one: Given, on_error: Callable[[InputError], None], summary: Summary
    ) -> None:
        options = self.options
        path = os.fspath(one[0])  # type: ignore[arg-type]  # is_links_file: a path
        name: str = one[1] or path
        keep = keep_only(options.schemes, options.same_host, options.external)
        failed = [0]

        def report(error: InputError) -> None:
            failed[0] += 1
            on_error(error)

        summary.files += 1
        for page, records, found in read_documents(path, name, report, options.kinds, keep):
            summary.documents += 1
            summary.links += len(records)
            del found
            self.add(page, self.namer(records))
        summary.failed += failed[0]


def _batches(given: Iterable[Given], resume: bool, workers: int) -> Iterator[list[Given]]:
    """The inputs in batches: all at once, or (``resume``) a few at a time, each batch a
    checkpoint's worth (enough inputs to keep ``workers`` busy, a pool started per batch)."""
    if not resume:
        yield list(given)
        return
    size = max(1, 4 * max(workers, 1))
    batch: list[Given] = []
    for one in given:
        batch.append(one)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _counts(summary: Summary, made: GraphSummary) -> dict[str, Any]:
    return {
        "summary": {
            "files": summary.files, "documents": summary.documents, "links": summary.links,
            "failed": summary.failed, "skipped": dict(summary.skipped),
            "no_base": summary.no_base, "warnings": summary.warnings,
        },
        "graph": {
            "sources": made.sources, "dropped_links": dict(made.dropped_links),
            "dropped_documents": dict(made.dropped_documents),
        },
    }  # fmt: skip


def _restore(counts: dict[str, Any], summary: Summary, made: GraphSummary) -> None:
    told = counts.get("summary", {})
    for key in ("files", "documents", "links", "failed", "no_base", "warnings"):
        setattr(summary, key, getattr(summary, key) + int(told.get(key, 0)))
    summary.skipped.update(told.get("skipped", {}))
    graph = counts.get("graph", {})
    made.sources += int(graph.get("sources", 0))
    made.dropped_links.update(graph.get("dropped_links", {}))
    made.dropped_documents.update(graph.get("dropped_documents", {}))


def _key(options: GraphOptions, given: Sequence[Given]) -> dict[str, Any]:
    """What makes a run the same command: its options (not -j: how fast it runs) and its
    inputs, named, in order, and each local file's size and modification time (an input
    changed is another command), as extract --resume's journal has them."""
    inputs = []
    for one in given:
        name = one[1] or os.fspath(one[0])  # type: ignore[arg-type]
        try:
            found = os.stat(one[0])  # type: ignore[arg-type]
            stamp: list[int] | None = [found.st_size, found.st_mtime_ns]
        except (OSError, TypeError, ValueError):  # a URL, a stream
            stamp = None
        inputs.append([name, stamp])
    return {"options": asdict(options), "inputs": inputs}


def graph_of(
    inputs: Iterable[Given],
    out: str | os.PathLike[str],
    options: GraphOptions,
    *,
    workers: int = 1,
    run_size: int = RUN_SIZE,
    resume: bool = False,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
) -> GraphSummary:
    """:func:`build_graph` over inputs ``(source, name, named[, url])`` (the command line's
    walk), with the folder's checks (folder.FolderError) and, with ``resume``, checkpoints."""
    options = options.checked()
    folder = GraphFolder.open(out)
    try:
        return _build(
            inputs, folder, options, workers, run_size, resume, on_error, unreadable, summary
        )
    finally:
        folder.close()


def _build(
    inputs: Iterable[Given],
    folder: GraphFolder,
    options: GraphOptions,
    workers: int,
    run_size: int,
    resume: bool,
    on_error: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None],
    summary: Summary,
) -> GraphSummary:
    made = GraphSummary(options.level)
    given = list(inputs) if resume else inputs
    saved: Resumable | None = None
    if resume:
        saved = folder.resumable(_key(options, given))  # type: ignore[arg-type]
        work = saved.path
        _restore(saved.counts(), summary, made)
        made.resumed = saved.done
        if saved.done:
            made.resumed_after = _key(options, given[saved.done - 1 : saved.done])["inputs"][0][0]  # type: ignore[index]
    else:
        work = folder.work()
    files = None
    try:
        graph = ExternalGraph(os.fspath(work), run_size, saved.runs() if saved else None)
        builder = _Builder(options, graph, made)
        done, last = (saved.done if saved else 0), time.monotonic()
        todo = given[done:] if saved is not None else given  # type: ignore[index]
        batches = list(_batches(todo, resume, workers))
        for number, batch in enumerate(batches, 1):
            builder.pages(batch, workers, on_error, unreadable, summary)
            done += len(batch)
            final = number == len(batches)
            if saved is not None and (final or time.monotonic() - last >= CHECKPOINT_SECONDS):
                graph.spill()
                saved.checkpoint(done, graph.saved(), _counts(summary, made))
                last = time.monotonic()
        if saved is not None:
            graph.keep = True  # the checkpoint's runs stay until the files are in place
        files = GraphFiles(
            folder.path, options.form, work=work, weights=options.weights, name=options.name
        )
        made.vertices, made.edges = graph.finish(files)
        made.files = files.commit()
    except BaseException:
        if files is not None:
            files.discard()
        if saved is None:
            shutil.rmtree(work, ignore_errors=True)
        raise
    if saved is not None:
        saved.remove()
    else:
        shutil.rmtree(work, ignore_errors=True)
        folder.forget()  # a checkpoint an earlier --resume run left: this graph replaced it
    return made


def build_graph(
    sources: Iterable[Source],
    out: str | os.PathLike[str],
    *,
    level: str = "host",
    form: str = "tsv",
    kinds: Collection[str] | None = None,
    workers: int = 1,
    keep_www: bool = True,
    private_domains: bool = False,
    run_size: int = RUN_SIZE,
    mode: str = "rfc1808",
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
    name: str | None = None,
    weights: bool = False,
    multipart: bool = False,
    schemes: Collection[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    resume: bool = False,
) -> GraphSummary:
    """The link graph of every document in ``sources`` (paths, bytes or binary files: all that
    :func:`~baselinks.iter_links` reads; extract's JSON Lines or Parquet output too), written
    in the folder ``out``.

    ``level``: ``"page"`` (vertices named by SURT key), ``"host"`` (by host, reversed:
    ``com.example.www``; ``keep_www=False`` strips a leading ``www.``, as Common Crawl's graphs
    until 2025) or ``"domain"`` (by registered domain, reversed; the Public Suffix List's ICANN
    section, its private section too with ``private_domains``, a host with none its own domain
    with ``multipart``). ``form``: ``"tsv"`` writes ``vertices.tsv`` (``id<TAB>name``) and
    ``edges.tsv`` (``src<TAB>dst``), no header; ``"parquet"`` ``vertices.parquet`` (``id``,
    ``name``) and ``edges.parquet`` (``src``, ``dst``; pyarrow); ``"common-crawl"``
    ``NAME-vertices.txt.gz`` and ``NAME-edges.txt.gz`` as Common Crawl releases its graphs
    (``name``; the domain graph's vertices with ``n_hosts``). IDs are 0..n-1 in the order of
    the names, edges sorted by (src, dst), each once, no self-loop; ``weights``: each edge with
    how many links and how many pages join the pair. ``kinds``, ``schemes``, ``same_host``,
    ``external``: only those links, as :func:`~baselinks.iter_links` keeps them (without
    ``schemes``, the links Common Crawl's host graph takes: graph/names.py). ``workers``: as
    for :func:`~baselinks.iter_links`. ``run_size``: pairs held in memory before a sorted run
    goes to a temporary file in ``out`` (memory is bounded by it). ``resume``: checkpoints in
    ``out``, and a build of the same sources started again goes on after the last one.

    Each input that cannot be read (in part or whole) goes to ``on_error`` and the graph is
    made of the rest; without ``on_error``, the first error is raised once the graph is
    written. Returns what was made and dropped (:class:`GraphSummary`).
    """
    errors: list[InputError] = []
    report = on_error or errors.append

    def unreadable(where: str, exc: Exception) -> None:
        report(InputError(describe(exc), where))

    options = GraphOptions(
        level, form, name, weights, keep_www, private_domains, multipart,
        None if kinds is None else tuple(kinds), None if schemes is None else tuple(schemes),
        same_host, external, mode,
    )  # fmt: skip
    made = graph_of(
        ((source, None, True) for source in sources),
        out,
        options,
        workers=workers,
        run_size=run_size,
        resume=resume,
        on_error=report,
        unreadable=unreadable,
        summary=summary if summary is not None else Summary(),
    )
    raise_first(errors)
    return made
