"""files: a graph's vertices and edges as files that graph tools read as they are.

    tsv           DIR/vertices.tsv   id<TAB>name, by id (= by name)   cc-webgraph's vertices
                  DIR/edges.tsv      src<TAB>dst, by (src, dst)       WebGraph's ArcListASCIIGraph,
                                                                      networkit's EdgeListReader,
                                                                      igraph's Read_Edgelist
    parquet       DIR/vertices.parquet  id int64, name string        Spark GraphFrames' columns
                  DIR/edges.parquet     src int64, dst int64         (pyarrow: the parquet extra)
    common-crawl  DIR/NAME-vertices.txt.gz  id<TAB>reversed host     Common Crawl's web graph as
                                            (domain: <TAB>n_hosts)   released (cc-webgraph)
                  DIR/NAME-edges.txt.gz     from<TAB>to

With weights, each edge has two more columns: ``links`` (how many links join the pair) and
``pages`` (how many of the source's documents link to the target).

No header in any of them: a header line is an error to all three readers ("Expected integer",
"Scanning node failed", "Unexpected character 's'"), and Common Crawl's files have none. An
edge-list reader takes n = the highest ID on an edge + 1, so a vertex without edges at the top
of the range is not seen: the number of vertices is the number of lines of the vertices
(docs/guide/graphs.md shows how to add them). The gzip files are one member each, no file
name and no time in its header: a graph written twice is the same bytes.

The files are written in a work folder of their own (build.py makes one per run, with a unique
name) and moved into DIR when the graph is whole (:meth:`GraphFiles.commit`): a reader never
sees half a graph, and an interrupted run leaves none (:meth:`GraphFiles.discard`).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
from pathlib import Path
from typing import Any, TextIO

__all__ = ["FORMATS", "LAYOUTS", "GraphFiles", "layout_names"]

FORMATS = ("parquet", "tsv")
LAYOUTS = ("baselinks", "common-crawl")
_BATCH = 1 << 16  # Parquet rows per write
_GZIP_LEVEL = 6  # gzip's own default


def layout_names(form: str, name: str | None = None) -> tuple[str, str]:
    """The vertex and edge file names of a graph in ``form`` (tsv, parquet, common-crawl)."""
    if form == "common-crawl":
        return f"{name}-vertices.txt.gz", f"{name}-edges.txt.gz"
    if form not in FORMATS:
        raise ValueError(f"unknown graph format {form!r}: expected {', '.join(FORMATS)}")
    return f"vertices.{form}", f"edges.{form}"


def _gzip_text(path: Path) -> TextIO:
    raw = open(path, "wb")  # noqa: SIM115 (closed with the text stream: GzipFile's fileobj)
    packed = gzip.GzipFile(filename="", mode="wb", compresslevel=_GZIP_LEVEL, fileobj=raw, mtime=0)
    return _Closing(packed, raw)


class _Closing(io.TextIOWrapper):
    """A text stream over a GzipFile that closes the file under it too."""

    def __init__(self, packed: gzip.GzipFile, raw: Any) -> None:
        super().__init__(packed, encoding="utf-8", newline="\n", write_through=False)
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


class GraphFiles:
    """The vertex and edge files of one graph being written in ``work`` (then moved to
    ``folder``), in ``form``: tsv, parquet or common-crawl (``name``: its files' prefix).
    ``weights``: the edges' counts as two more columns."""

    def __init__(
        self,
        folder: Path,
        form: str,
        *,
        work: Path | None = None,
        weights: bool = False,
        name: str | None = None,
    ) -> None:
        self.folder, self.form, self.weights = folder, form, weights
        self.names = list(layout_names(form, name))
        self.partial = [(work or folder) / f".{one}.partial" for one in self.names]
        self.text: TextIO | None = None
        self.writer: Any = None
        self.columns: tuple[list[Any], ...] = ()
        if form == "parquet":
            self._parquet(0)
        else:
            self.text = self._open(0)

    def _open(self, which: int) -> TextIO:
        if self.form == "common-crawl":
            return _gzip_text(self.partial[which])
        # closed by end_vertices, commit or discard: the file outlives this call
        return open(self.partial[which], "w", encoding="utf-8", newline="\n")

    def _parquet(self, which: int) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        names: tuple[str, ...] = ("id", "name")
        types: tuple[Any, ...] = (pa.int64(), pa.string())
        if which == 1:
            names, types = ("src", "dst"), (pa.int64(), pa.int64())
            if self.weights:
                names, types = (*names, "links", "pages"), (*types, pa.int64(), pa.int64())
        schema = pa.schema(
            [pa.field(n, t, nullable=False) for n, t in zip(names, types, strict=True)]
        )
        self.writer = pq.ParquetWriter(self.partial[which], schema, compression="zstd")
        self.columns = tuple([] for _ in names)

    def _flush(self) -> None:
        if self.columns and self.columns[0]:
            import pyarrow as pa

            schema = self.writer.schema
            table = pa.table(dict(zip(schema.names, self.columns, strict=True)), schema=schema)
            self.writer.write_table(table)
            self.columns = tuple([] for _ in self.columns)

    def _row(self, values: tuple[Any, ...]) -> None:
        for column, value in zip(self.columns, values, strict=True):
            column.append(value)
        if len(self.columns[0]) >= _BATCH:
            self._flush()

    def vertex(self, vertex_id: int, name: str, hosts: int | None = None) -> None:
        if self.text is None:
            self._row((vertex_id, name))
        elif hosts is not None and self.form == "common-crawl":
            self.text.write(f"{vertex_id}\t{name}\t{hosts}\n")
        else:
            self.text.write(f"{vertex_id}\t{name}\n")

    def end_vertices(self) -> None:
        if self.text is not None:
            self.text.close()
            self.text = self._open(1)
            return
        self._flush()
        self.writer.close()
        self._parquet(1)

    def edge(self, src: int, dst: int, links: int = 1, pages: int = 1) -> None:
        if self.text is None:
            self._row((src, dst, links, pages) if self.weights else (src, dst))
        elif self.weights:
            self.text.write(f"{src}\t{dst}\t{links}\t{pages}\n")
        else:
            self.text.write(f"{src}\t{dst}\n")

    def close(self) -> None:
        """The files closed (what :meth:`commit` moves)."""
        if self.text is not None:
            self.text.close()
            self.text = None
        elif self.writer is not None:
            self._flush()
            self.writer.close()
            self.writer = None

    def commit(self) -> list[Path]:
        """The files closed and moved into place; their paths."""
        self.close()
        done = [self.folder / name for name in self.names]
        for partial, final in zip(self.partial, done, strict=True):
            os.replace(partial, final)
        return done

    def discard(self) -> None:
        """What was written removed (an error, an interrupt): no half graph is left."""
        with contextlib.suppress(OSError):  # a full disk again, as the buffers are flushed
            self.close()
        for partial in self.partial:
            partial.unlink(missing_ok=True)
