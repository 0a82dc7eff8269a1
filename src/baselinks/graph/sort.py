"""sort: (source name, target names) per document → vertices with IDs and edges, in bounded
memory, by external sort (sorted runs in temporary files, merged with heapq.merge).

    add(src, targets)   pairs "dst<TAB>src<TAB>links<TAB>pages" and names gathered (and, at
                        domain level, "domain<TAB>host" members); a run written, sorted with
                        equal pairs added up, each time ``run_size`` of any wait
    finish(sink)        1. the names merged: vertex ``id`` = rank in name order, 0..n-1,
                           streamed out (with its hosts counted from the members merged
                           beside it), and kept in a temporary copy "name<TAB>id"
                        2. the pairs merged (counts added up) in dst order, merge-joined with
                           the vertices on dst → "src<TAB>dst id" (zero-padded: string order
                           is numeric order), in sorted runs
                        3. those merged in src order, merge-joined on src → (src id, dst id):
                           already in (src, dst) order, written as they come

Memory is the run size (some 250 to 400 bytes per waiting pair) and the namers' caches, not the
input: measured in benchmarks/bench_graph.py. Temporary disk is about twice the pairs' text. At
most :data:`FAN_IN` runs are open at once: more are merged in rounds first (a run resumed from
many checkpoints, a very large crawl). The order is the code-point order of the names, which is
their UTF-8 byte order, ``LC_ALL=C sort``'s and Spark's ``orderBy``: a name holds no control
character (names.py), so TAB sorts below every character of one and the order of the lines is
the order of the (name, rest) pairs.

The counts are order-free (sums), and a run is sorted whole: the files are the same whatever
the run size, the number of workers, or where a resumed run was cut (build.py's checkpoints
are :meth:`ExternalGraph.spill`'s runs).

Why by hand: the standard library has heapq.merge but no external sort; DuckDB sorts this 2.8
times faster but is a 40 MB wheel that overshot its own memory limit (382 MB against 256 MB)
and the sort is not where the time goes (the names are).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from .names import Target

__all__ = ["FAN_IN", "RUN_SIZE", "EdgeSink", "ExternalGraph"]

RUN_SIZE = 250_000  # pairs (or names) held before a sorted run is written
FAN_IN = 64  # runs merged at once (open files); more are merged in rounds
_PAD = 12  # digits of a zero-padded vertex id in stage 2's runs: up to 10**12 vertices
_SHIFT, _PAGES = 32, (1 << 32) - 1  # a waiting pair's counts in one int: links, then pages
_BUFFER = 1 << 20

Reduce = Callable[[Iterator[str]], Iterator[str]]


class EdgeSink(Protocol):
    """Where the graph goes (files.py): vertices in ID order, then edges in (src, dst) order."""

    def vertex(self, vertex_id: int, name: str, hosts: int | None) -> None: ...

    def end_vertices(self) -> None: ...

    def edge(self, src: int, dst: int, links: int, pages: int) -> None: ...


def _distinct(lines: Iterator[str]) -> Iterator[str]:
    last = None
    for line in lines:
        if line != last:
            yield line
            last = line


def _summed(lines: Iterator[str]) -> Iterator[str]:
    """Sorted "key<TAB>links<TAB>pages" lines, each key once with its counts added up."""
    key, links, pages = None, 0, 0
    for line in lines:
        head, _, tail = line.rpartition("\t")
        here, _, more = head.rpartition("\t")
        if here != key:
            if key is not None:
                yield f"{key}\t{links}\t{pages}"
            key, links, pages = here, 0, 0
        links += int(more)
        pages += int(tail)
    if key is not None:
        yield f"{key}\t{links}\t{pages}"


class _Runs:
    """Sorted runs of text lines in files, merged on demand (and removed)."""

    def __init__(self, folder: str, stem: str, paths: Iterable[str] = ()) -> None:
        self.folder, self.stem = folder, stem
        self.paths: list[str] = list(paths)
        self.made = len(self.paths)

    def write(self, lines: Iterable[str]) -> str:
        path = os.path.join(self.folder, f"{self.stem}-{self.made:06d}")
        self.made += 1
        with open(path, "w", encoding="utf-8", newline="\n", buffering=_BUFFER) as run:
            run.writelines(line + "\n" for line in lines)
        self.paths.append(path)
        return path

    def merged(self, reduce: Reduce, keep: bool = False) -> Iterator[str]:
        """Every line of the runs in order, ``reduce``d; the runs removed when done (but
        those there before, with ``keep``: a checkpoint's, until the files are in place)."""
        kept = frozenset(self.paths) if keep else frozenset()
        while len(self.paths) > FAN_IN:  # rounds: at most FAN_IN files open
            group, self.paths = self.paths[:FAN_IN], self.paths[FAN_IN:]
            merged = _Runs(self.folder, f"{self.stem}-r{self.made:06d}")
            self.made += 1
            merged.write(_merge(group, reduce, kept))
            self.paths.extend(merged.paths)
        paths, self.paths = self.paths, []
        return _merge(paths, reduce, kept)


def _merge(paths: list[str], reduce: Reduce, kept: frozenset[str] = frozenset()) -> Iterator[str]:
    # one open file per run, all merged at once: closed in the finally below
    files = [open(p, encoding="utf-8", newline="\n", buffering=_BUFFER) for p in paths]  # noqa: SIM115
    try:
        yield from reduce(heapq.merge(*((line[:-1] for line in run) for run in files)))
    finally:
        for run in files:
            run.close()
        for path in paths:
            if path not in kept:
                os.unlink(path)


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


def _host_counts(members: Iterator[str]) -> Iterator[tuple[str, int]]:
    """Sorted distinct "domain<TAB>host" lines → (domain, how many hosts), in domain order."""
    domain, count = None, 0
    for line in members:
        here = line.partition("\t")[0]
        if here != domain:
            if domain is not None:
                yield domain, count
            domain, count = here, 0
        count += 1
    if domain is not None:
        yield domain, count


class ExternalGraph:
    """A graph gathered a document at a time and written sorted, in bounded memory, its
    temporary files in ``folder`` (removed as they are merged). ``saved``: runs an earlier
    :meth:`spill` wrote (a resumed build), by kind: ``pairs``, ``names``, ``members``."""

    def __init__(
        self, folder: str, run_size: int = RUN_SIZE, saved: dict[str, list[str]] | None = None
    ) -> None:
        if run_size < 1:
            raise ValueError(f"run_size must be at least 1: {run_size}")
        self.folder, self.run_size = folder, run_size
        # "dst\tsrc" → links << 32 | pages: one int, not a list (some 40 bytes less a pair)
        self.pairs: dict[str, int] = {}
        self.names: set[str] = set()
        self.members: set[str] = set()  # "domain\thost" (domain level: n_hosts)
        given = saved or {}
        self.runs = {kind: _Runs(folder, kind, given.get(kind, ())) for kind in _KINDS}
        self.keep = False  # True: the runs written before finish() stay (a checkpoint's)
        self.added = 0  # documents added since the last spill

    def add(self, source: str, targets: Iterable[Target], members: Iterable[str] = ()) -> None:
        """A document: its vertex, an edge to each of ``targets`` (distinct, not itself) with
        its count of links (and one page), and its hosts (``members``)."""
        self.names.add(source)
        pairs, names = self.pairs, self.names
        for target, links in targets:
            key = f"{target}\t{source}"
            counts = pairs.get(key)
            if counts is None:
                pairs[key] = links << _SHIFT | 1
                names.add(target)
            else:
                pairs[key] = counts + (links << _SHIFT) + 1
        self.member(members)
        self.added += 1  # a pair's pages in one run stay below 2**32 (its int's low half)
        if max(len(pairs), len(names), len(self.members)) >= self.run_size or self.added >> 31:
            self.spill()

    def member(self, members: Iterable[str]) -> None:
        """Hosts of domains ("domain<TAB>host"): each domain a vertex, its hosts counted."""
        for line in members:
            self.members.add(line)
            self.names.add(line.partition("\t")[0])

    def spill(self) -> list[str]:
        """What waits, written as sorted runs (none for an empty kind); their paths."""
        written = []
        if self.pairs:
            lines = (f"{key}\t{n >> _SHIFT}\t{n & _PAGES}" for key, n in sorted(self.pairs.items()))
            written.append(self.runs["pairs"].write(lines))
        for kind, waiting in (("names", self.names), ("members", self.members)):
            if waiting:
                written.append(self.runs[kind].write(sorted(waiting)))
        self.pairs, self.names, self.members = {}, set(), set()
        self.added = 0
        return written

    def saved(self) -> dict[str, list[str]]:
        """The runs written so far, by kind (what a resumed build starts from)."""
        return {kind: list(runs.paths) for kind, runs in self.runs.items()}

    def finish(self, sink: EdgeSink) -> tuple[int, int]:
        """Write the vertices and the edges to ``sink``: how many of each."""
        self.spill()
        copy = os.path.join(self.folder, "vertices")
        count = 0
        counted = self.runs["members"].paths != []
        members = self.runs["members"].merged(_distinct, self.keep) if counted else iter(())
        hosts = _host_counts(members)
        with open(copy, "w", encoding="utf-8", newline="\n", buffering=_BUFFER) as kept:
            for vertex_id, name in enumerate(self.runs["names"].merged(_distinct, self.keep)):
                n_hosts = None
                if counted:
                    domain, n_hosts = next(hosts)
                    assert domain == name, (domain, name)  # both from the same documents
                sink.vertex(vertex_id, name, n_hosts)
                kept.write(f"{name}\t{vertex_id}\n")
                count = vertex_id + 1
        sink.end_vertices()
        edges = self._edges(copy, sink)
        os.unlink(copy)
        return count, edges

    def _edges(self, copy: str, sink: EdgeSink) -> int:
        by_source = _Runs(self.folder, "bysource")
        waiting: list[str] = []
        edges = 0
        for dst_id, rest in _joined(self.runs["pairs"].merged(_summed, self.keep), _ids(copy)):
            src, _, counts = rest.partition("\t")
            waiting.append(f"{src}\t{dst_id:0{_PAD}d}\t{counts}")
            edges += 1
            if len(waiting) >= self.run_size:
                waiting.sort()
                by_source.write(waiting)
                waiting = []
        waiting.sort()
        by_source.write(waiting)
        del waiting
        for src_id, rest in _joined(by_source.merged(iter), _ids(copy)):
            padded, links, pages = rest.split("\t")
            sink.edge(src_id, int(padded), int(links), int(pages))
        return edges


_KINDS = ("pairs", "names", "members")
