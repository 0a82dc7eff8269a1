"""sort: (source name, target names) per document → vertices with IDs and edges, in bounded
memory, by external sort (sorted runs in temporary files, merged with heapq.merge).

    add(src, targets)   pairs "dst<TAB>src" and names gathered; a run written, sorted and
                        distinct, each time ``run_size`` of either wait
    finish(files)       1. the names merged: vertex ``id`` = rank in name order, 0..n-1,
                           streamed out, and kept in a temporary copy "name<TAB>id"
                        2. the pairs merged (distinct) in dst order, merge-joined with the
                           vertices on dst → "src<TAB>dst id" (zero-padded: string order is
                           numeric order), in sorted runs
                        3. those merged in src order, merge-joined on src → (src id, dst id):
                           already in (src, dst) order, written as they come

Memory is the run size (some 250 to 400 bytes per waiting pair) and the namers' caches, not the
input: measured in benchmarks/bench_graph.py (10 million links, host level, run size 250,000:
97 MB). Temporary disk is about twice the pairs' text. The order is the code-point order of
the names, which is their UTF-8 byte order, ``LC_ALL=C sort``'s and Spark's ``orderBy``: a
name holds no control character (names.py), so TAB sorts below every character of one and the
order of the lines is the order of the (name, rest) pairs.

Why by hand: the standard library has heapq.merge but no external sort; DuckDB sorts this 2.8
times faster but is a 40 MB wheel that overshot its own memory limit (382 MB against 256 MB)
and the sort is not where the time goes (the names are).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterable, Iterator
from typing import Protocol

__all__ = ["RUN_SIZE", "EdgeSink", "ExternalGraph"]

RUN_SIZE = 250_000  # pairs (or names) held before a sorted run is written
_PAD = 12  # digits of a zero-padded vertex id in stage 2's runs: up to 10**12 vertices
_BUFFER = 1 << 20


class EdgeSink(Protocol):
    """Where the graph goes (files.py): vertices in ID order, then edges in (src, dst) order."""

    def vertex(self, vertex_id: int, name: str) -> None: ...

    def end_vertices(self) -> None: ...

    def edge(self, src: int, dst: int) -> None: ...


class _Runs:
    """Sorted runs of text lines in temporary files, merged on demand (and removed)."""

    def __init__(self, folder: str, stem: str) -> None:
        self.folder, self.stem = folder, stem
        self.paths: list[str] = []

    def write(self, lines: Iterable[str]) -> None:
        path = os.path.join(self.folder, f"{self.stem}-{len(self.paths):06d}")
        with open(path, "w", encoding="utf-8", newline="\n", buffering=_BUFFER) as run:
            run.writelines(line + "\n" for line in lines)
        self.paths.append(path)

    def merged(self, distinct: bool) -> Iterator[str]:
        # one open file per run, all merged at once: closed in the finally below
        files = [open(p, encoding="utf-8", newline="\n", buffering=_BUFFER) for p in self.paths]  # noqa: SIM115
        try:
            lines = heapq.merge(*((line[:-1] for line in run) for run in files))
            last = None
            for line in lines:
                if not distinct or line != last:
                    yield line
                    last = line
        finally:
            for run in files:
                run.close()
            for path in self.paths:
                os.unlink(path)
            self.paths = []


def _ids(path: str) -> Iterator[tuple[str, int]]:
    with open(path, encoding="utf-8", newline="\n", buffering=_BUFFER) as vertices:
        for line in vertices:
            name, _, number = line[:-1].rpartition("\t")
            yield name, int(number)


def _joined(lines: Iterator[str], vertices: Iterator[tuple[str, int]]) -> Iterator[tuple[int, str]]:
    """Merge-join of ``lines`` ("name<TAB>rest", sorted by name) with ``vertices`` (sorted by
    name, every name of the lines among them: both come from the same runs): (id, rest)."""
    name_at, id_at = next(vertices, ("", -1))
    for line in lines:
        name, _, rest = line.partition("\t")
        while name_at < name:
            name_at, id_at = next(vertices)
        yield id_at, rest


class ExternalGraph:
    """A graph gathered a document at a time and written sorted, in bounded memory, its
    temporary files in ``folder`` (removed as they are merged)."""

    def __init__(self, folder: str, run_size: int = RUN_SIZE) -> None:
        if run_size < 1:
            raise ValueError(f"run_size must be at least 1: {run_size}")
        self.folder, self.run_size = folder, run_size
        self.pairs: list[str] = []  # "dst\tsrc"
        self.names: set[str] = set()
        self.pair_runs, self.name_runs = _Runs(folder, "pairs"), _Runs(folder, "names")
        self.runs = 0

    def add(self, source: str, targets: Iterable[str]) -> None:
        """A document: its vertex, and an edge to each of ``targets`` (distinct, not itself)."""
        self.names.add(source)
        for target in targets:
            self.pairs.append(f"{target}\t{source}")
            self.names.add(target)
        if len(self.pairs) >= self.run_size or len(self.names) >= self.run_size:
            self._spill()

    def _spill(self) -> None:
        self.pair_runs.write(sorted(set(self.pairs)))
        self.name_runs.write(sorted(self.names))
        self.runs += 1
        self.pairs, self.names = [], set()

    def finish(self, sink: EdgeSink) -> tuple[int, int]:
        """Write the vertices and the edges to ``sink``: how many of each."""
        self._spill()
        copy = os.path.join(self.folder, "vertices")
        count = 0
        with open(copy, "w", encoding="utf-8", newline="\n", buffering=_BUFFER) as kept:
            for vertex_id, name in enumerate(self.name_runs.merged(distinct=True)):
                sink.vertex(vertex_id, name)
                kept.write(f"{name}\t{vertex_id}\n")
                count = vertex_id + 1
        sink.end_vertices()
        by_source = _Runs(self.folder, "bysource")
        waiting: list[str] = []
        edges = 0
        for dst_id, src in _joined(self.pair_runs.merged(distinct=True), _ids(copy)):
            waiting.append(f"{src}\t{dst_id:0{_PAD}d}")
            edges += 1
            if len(waiting) >= self.run_size:
                waiting.sort()
                by_source.write(waiting)
                waiting = []
        waiting.sort()
        by_source.write(waiting)
        del waiting
        for src_id, padded in _joined(by_source.merged(distinct=False), _ids(copy)):
            sink.edge(src_id, int(padded))
        os.unlink(copy)
        return count, edges
