"""ranks: PageRank and harmonic centrality of a graph's vertices, as Common Crawl publishes
its host ranks, by igraph (the ``ranks`` extra: ``pip install 'baselinks[ranks]'``).

    DIR/vertices.tsv, DIR/edges.tsv (or .parquet) ──igraph──► DIR/ranks.tsv, a top-N table
    DIR/NAME-vertices.txt.gz, NAME-edges.txt.gz   ──igraph──► DIR/NAME-ranks.txt.gz, as
        cc-webgraph's process_webgraph.sh writes it: the header
        ``#harmonicc_pos #harmonicc_val #pr_pos #pr_val #host_rev`` (tab-separated; the domain
        graph's ``#n_hosts`` after it), one vertex a line by harmonic centrality position, the
        values as Java prints a float (harmonic) and a double (PageRank), positions from 1 by
        value, ties by vertex ID (its JoinSortRanks)

The folder is read as untrusted: every vertex ID must be its line's number (0..n-1, in order),
every edge's two IDs must be vertices, every field a number where one is expected; else one
error line naming the file and line (:class:`GraphError`), before igraph is given anything (an
edge to vertex 2,000,000,000 in a 30-byte file would have it allocate two billion vertices).

igraph (GPL-2.0-or-later; an optional extra that baselinks never vendors, so its MIT license
is unchanged; networkit, MIT, gives the same scores and is the fallback named in the docs): one
abi3 wheel of 15 MB and texttable, PageRank exact by PRPACK (0.44 s on 69,401 hosts and 1.28 M
edges), exact harmonic centrality 7 times as fast as networkit's on that graph (151 s of CPU).

Harmonic centrality is of incoming paths (Common Crawl's: the sum of 1/d(u, v) over the vertices
u that reach v), not normalised. Exact, it costs O(n·m): above ``harmonic_limit`` vertices
(100,000 by default, some minutes) it is left out and said so, PageRank alone given.
"""

from __future__ import annotations

import gzip
import os
import struct
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..errors import printable
from .files import layout_names

__all__ = [
    "CC_HEADER",
    "HARMONIC_LIMIT",
    "GraphError",
    "Rank",
    "Ranks",
    "available",
    "compute_ranks",
    "java_double",
    "java_float",
]

HARMONIC_LIMIT = 100_000
DAMPING = 0.85  # PageRank's, as Common Crawl's and igraph's default
CC_HEADER = "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev"


class GraphError(ValueError):
    """A graph folder that is not one ``baselinks graph`` wrote: one line, naming the file."""


@dataclass(frozen=True, slots=True)
class Rank:
    """One vertex: its name, harmonic centrality (None: not computed) and PageRank, and its
    position by each (1 is the highest); ``hosts``: a domain graph's n_hosts."""

    name: str
    harmonic: float | None
    harmonic_position: int | None
    pagerank: float
    pagerank_position: int
    hosts: str | None = None


@dataclass(frozen=True, slots=True)
class Ranks:
    """Every vertex's ranks, by harmonic centrality (or PageRank when it was left out)."""

    ranks: list[Rank]
    harmonic: bool  # whether harmonic centrality was computed
    path: Path | None = None  # the ranks file, where written

    def table(self, top: int = 10) -> str:
        """The first ``top`` as an aligned table for a person (names escaped: a terminal
        never gets a control character from a vertex name)."""
        lines = [f"{'#':>4}  {'harmonic':>10}  {'pagerank':>10}  name"]
        for position, rank in enumerate(self.ranks[:top], 1):
            harmonic = "-" if rank.harmonic is None else f"{rank.harmonic:.1f}"
            name = printable(rank.name)
            lines.append(f"{position:>4}  {harmonic:>10}  {rank.pagerank:>10.6f}  {name}")
        return "\n".join(lines) + "\n"


def available() -> bool:
    """Whether igraph can be imported (the ranks extra is installed)."""
    try:
        import igraph  # noqa: F401
    except ImportError:
        return False
    return True


def _number(field: str, where: str) -> int:
    if not field.isdigit() or not field.isascii():
        raise GraphError(f"{where}: {field[:40]!r} is no vertex ID (0 or more)")
    return int(field)


def _lines(path: Path) -> Iterator[str]:
    opener: Any = gzip.open if path.name.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8", newline="\n") as text:
            yield from text
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile) as exc:
        raise GraphError(f"{printable(os.fspath(path))}: unreadable: {exc}") from None


def _vertices(path: Path) -> tuple[list[str], list[str | None]]:
    names: list[str] = []
    extra: list[str | None] = []
    shown = printable(os.fspath(path))
    for number, line in enumerate(_lines(path)):
        fields = line.rstrip("\n").split("\t")
        where = f"{shown}: line {number + 1}"
        if len(fields) < 2:
            raise GraphError(f"{where}: expected id<TAB>name")
        if _number(fields[0], where) != number:
            raise GraphError(f"{where}: vertex ID {fields[0][:20]} where {number} was expected "
                             "(IDs are 0..n-1, one a line, in order)")  # fmt: skip
        names.append(fields[1])
        extra.append(fields[2] if len(fields) > 2 else None)
    return names, extra


def _edges(path: Path, size: int) -> array[int]:
    """The edges' IDs, two by two, each checked against the ``size`` vertices."""
    ends = array("q")
    shown = printable(os.fspath(path))
    for number, line in enumerate(_lines(path), 1):
        fields = line.rstrip("\n").split("\t")
        where = f"{shown}: line {number}"
        if len(fields) < 2:
            raise GraphError(f"{where}: expected src<TAB>dst")
        for field in fields[:2]:
            vertex = _number(field, where)
            if vertex >= size:
                raise GraphError(f"{where}: an edge to vertex {vertex:,}, past the {size:,} "
                                 "vertices: not this graph's")  # fmt: skip
            ends.append(vertex)
    return ends


def _parquet(folder: Path) -> tuple[list[str], array[int]]:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(folder / "vertices.parquet")
    ids = table.column("id")
    size = len(ids)
    if size and (pc.min(ids).as_py() != 0 or pc.max(ids).as_py() != size - 1):
        raise GraphError(f"{printable(os.fspath(folder))}/vertices.parquet: IDs are not 0..n-1")
    names = table.sort_by("id").column("name").to_pylist()
    if len(set(table.column("id").to_pylist())) != size:
        raise GraphError(f"{printable(os.fspath(folder))}/vertices.parquet: an ID twice")
    edges = pq.read_table(folder / "edges.parquet", columns=["src", "dst"])
    ends = array("q")
    for src, dst in zip(
        edges.column("src").to_pylist(), edges.column("dst").to_pylist(), strict=True
    ):
        if not (0 <= src < size and 0 <= dst < size):
            raise GraphError(f"{printable(os.fspath(folder))}/edges.parquet: an edge "
                             f"{src} → {dst} past the {size:,} vertices")  # fmt: skip
        ends.extend((src, dst))
    return names, ends


def _found(folder: Path, layout: str | None, name: str | None) -> tuple[str, str | None]:
    """Which layout (and name) the graph in ``folder`` has."""
    if layout in (None, "common-crawl"):
        if name is not None:
            return "common-crawl", name
        found = sorted(p.name[: -len("-vertices.txt.gz")] for p in folder.glob("*-vertices.txt.gz"))
        if len(found) == 1:
            return "common-crawl", found[0]
        if len(found) > 1:
            raise GraphError(f"{printable(os.fspath(folder))}: {len(found)} graphs "
                             f"({', '.join(found)}): say which with --name")  # fmt: skip
        if layout == "common-crawl":
            raise GraphError(f"{printable(os.fspath(folder))}: no NAME-vertices.txt.gz")
    for form in ("tsv", "parquet"):
        if (folder / f"vertices.{form}").is_file():
            return form, None
    raise GraphError(f"{printable(os.fspath(folder))}: no graph (vertices.tsv, vertices.parquet "
                     "or NAME-vertices.txt.gz): baselinks graph writes one")  # fmt: skip


def read_graph(
    folder: Path, layout: str | None = None, name: str | None = None
) -> tuple[str, str | None, list[str], list[str | None], array[int]]:
    """The graph in ``folder``, checked: its form, name, vertex names, extra column, edges."""
    form, name = _found(folder, layout, name)
    if form == "parquet":
        names, ends = _parquet(folder)
        return form, name, names, [None] * len(names), ends
    vertices, edges = layout_names(form, name)
    names, extra = _vertices(folder / vertices)
    return form, name, names, extra, _edges(folder / edges, len(names))


def compute_ranks(
    folder: str | os.PathLike[str],
    *,
    harmonic_limit: int = HARMONIC_LIMIT,
    write: bool = True,
    layout: str | None = None,
    name: str | None = None,
) -> Ranks:
    """The ranks of the graph ``baselinks graph`` wrote in ``folder`` (checked first:
    :class:`GraphError`); with ``write``, also written beside it: ``ranks.tsv`` (a header
    line, then one vertex a line by rank: ``harmonic_position``, ``harmonic``,
    ``pagerank_position``, ``pagerank``, ``name``), or for a graph in Common Crawl's layout
    ``NAME-ranks.txt.gz`` as Common Crawl releases it."""
    import igraph

    from .folder import GraphFolder

    where = Path(folder)
    if not where.is_dir():
        raise GraphError(f"{printable(os.fspath(folder))}: no such folder (a graph's folder)")
    held = GraphFolder.open(where)  # no graph run writes it meanwhile
    try:
        form, name, names, extra, ends = read_graph(where, layout, name)
        size = len(names)
        if form == "common-crawl" and size > harmonic_limit:
            raise GraphError(f"{printable(os.fspath(folder))}: {size:,} vertices, over the "
                             f"harmonic limit ({harmonic_limit:,}): Common Crawl's ranks have "
                             "harmonic centrality (--harmonic-limit)")  # fmt: skip
        pairs = list(zip(ends[0::2], ends[1::2], strict=True))
        del ends
        graph: Any = igraph.Graph(n=size, edges=pairs, directed=True)
        pagerank = graph.pagerank(damping=DAMPING, directed=True)
        harmonic = None
        if size <= harmonic_limit:
            harmonic = graph.harmonic_centrality(mode="in", normalized=False)
        ranks = _ranked(names, extra, pagerank, harmonic)
        result = Ranks(ranks, harmonic is not None)
        if write:
            if form == "common-crawl":
                path = _write_cc(where / f"{name}-ranks.txt.gz", ranks, any(extra))
            else:
                path = _write(where / "ranks.tsv", ranks)
            result = Ranks(ranks, result.harmonic, path)
        return result
    finally:
        held.close()


def _ranked(
    names: list[str], extra: list[str | None], pagerank: list[float], harmonic: list[float] | None
) -> list[Rank]:
    if harmonic is not None:  # Common Crawl's harmonic centrality is a float (HyperBall's)
        harmonic = [_float32(value) for value in harmonic]
    by_pagerank = _positions(pagerank)
    by_harmonic = _positions(harmonic) if harmonic is not None else None
    ranks = [
        Rank(
            name,
            None if harmonic is None else harmonic[vertex],
            None if by_harmonic is None else by_harmonic[vertex],
            pagerank[vertex],
            by_pagerank[vertex],
            extra[vertex],
        )
        for vertex, name in enumerate(names)
    ]
    ranks.sort(key=lambda r: r.harmonic_position or r.pagerank_position)
    return ranks


def _positions(scores: list[float]) -> list[int]:
    """Each vertex's position by ``scores``, highest first, ties by vertex ID (= by name):
    cc-webgraph's JoinSortRanks."""
    order = sorted(range(len(scores)), key=lambda vertex: (-scores[vertex], vertex))
    positions = [0] * len(scores)
    for position, vertex in enumerate(order, 1):
        positions[vertex] = position
    return positions


def _write(path: Path, ranks: list[Rank]) -> Path:
    partial = path.with_name(f".{path.name}.partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as out:
        out.write("harmonic_position\tharmonic\tpagerank_position\tpagerank\tname\n")
        for rank in ranks:
            harmonic = "" if rank.harmonic is None else repr(rank.harmonic)
            position = "" if rank.harmonic_position is None else str(rank.harmonic_position)
            out.write(
                f"{position}\t{harmonic}\t{rank.pagerank_position}\t{rank.pagerank!r}\t{rank.name}\n"
            )
    os.replace(partial, path)
    return path


def _write_cc(path: Path, ranks: list[Rank], hosts: bool) -> Path:
    from .files import _gzip_text

    partial = path.with_name(f".{path.name}.partial")
    out: TextIO = _gzip_text(partial)
    with out:
        out.write(CC_HEADER + ("\t#n_hosts\n" if hosts else "\n"))
        for rank in ranks:
            assert rank.harmonic is not None and rank.harmonic_position is not None
            line = (
                f"{rank.harmonic_position}\t{java_float(rank.harmonic)}\t"
                f"{rank.pagerank_position}\t{java_double(rank.pagerank)}\t{rank.name}"
            )
            out.write(f"{line}\t{rank.hosts}\n" if hosts else f"{line}\n")
    os.replace(partial, path)
    return path


def _float32(value: float) -> float:
    packed: float = struct.unpack("<f", struct.pack("<f", value))[0]
    return packed


def _shortest(value: float, single: bool) -> tuple[str, int]:
    """The fewest significant digits that read back as ``value`` (a float32 with
    ``single``), and the decimal exponent of the first: ``(digits, exponent)``."""
    text = f"{value:.16e}"
    for precision in range(1, 18):
        candidate = f"{value:.{precision - 1}e}"
        back = float(candidate)
        if (_float32(back) if single else back) == value:
            text = candidate
            break
    mantissa, _, exponent = text.partition("e")
    digits = mantissa.replace(".", "").lstrip("-").rstrip("0") or "0"
    return digits, int(exponent)


def _java(value: float, single: bool) -> str:
    # Java's Float.toString / Double.toString (JDK 19 on: the shortest decimal that reads
    # back): plain with at least one fractional digit for 10^-3 <= |x| < 10^7, else
    # "computerized scientific notation", d.dddE±n, the mantissa with a fractional digit too.
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if value < 0 or (value == 0 and str(value).startswith("-")) else ""
    if value == 0:
        return f"{sign}0.0"
    digits, exponent = _shortest(abs(value), single)
    if 1e-3 <= abs(value) < 1e7:
        if exponent >= 0:
            whole = digits[: exponent + 1].ljust(exponent + 1, "0")
            fraction = digits[exponent + 1 :] or "0"
        else:
            whole, fraction = "0", "0" * (-exponent - 1) + digits
        return f"{sign}{whole}.{fraction}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent}"


def java_float(value: float) -> str:
    """``value`` as a float32, as Java's ``Float.toString`` writes it (``1.0``, ``1.5E-4``)."""
    return _java(_float32(value), True)


def java_double(value: float) -> str:
    """``value`` as Java's ``Double.toString`` writes it (``0.25``, ``1.2345E-7``)."""
    return _java(value, False)
