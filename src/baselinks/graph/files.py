"""files: a graph's vertices and edges as files that graph tools read as they are.

    tsv      DIR/vertices.tsv   id<TAB>name, by id (= by name)    cc-webgraph's vertices
             DIR/edges.tsv      src<TAB>dst, by (src, dst)         WebGraph's ArcListASCIIGraph,
                                                                   networkit's EdgeListReader,
                                                                   igraph's Read_Edgelist
    parquet  DIR/vertices.parquet  id int64, name string          Spark GraphFrames' columns
             DIR/edges.parquet     src int64, dst int64           (pyarrow: the parquet extra)

No header in the TSV files: a header line is an error to all three readers ("Expected integer",
"Scanning node failed", "Unexpected character 's'"). An edge-list reader takes n = the highest
ID on an edge + 1, so a vertex without edges at the top of the range is not seen: the number of
vertices is the number of lines of vertices.tsv (docs/guide/graphs.md shows how to add them).

The files are written under temporary names in DIR and renamed into place when the graph is
whole (:meth:`GraphFiles.commit`): a reader never sees half a graph, and an interrupted run
leaves none (:meth:`GraphFiles.discard`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TextIO

__all__ = ["FORMATS", "GraphFiles"]

FORMATS = ("parquet", "tsv")
_BATCH = 1 << 16  # Parquet rows per write


class GraphFiles:
    """The vertex and edge files of one graph being written in ``folder``, in ``form``."""

    def __init__(self, folder: Path, form: str) -> None:
        if form not in FORMATS:
            raise ValueError(f"unknown graph format {form!r}: expected {', '.join(FORMATS)}")
        self.folder, self.form = folder, form
        self.names = [f"vertices.{form}", f"edges.{form}"]
        self.partial = [folder / f".{name}.partial" for name in self.names]
        self.text: TextIO | None = None
        self.writer: Any = None
        self.columns: tuple[list[int], list[Any]] = ([], [])
        if form == "tsv":
            # closed by end_vertices, commit or discard: the file outlives this call
            self.text = open(self.partial[0], "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        else:
            self._parquet(0, ("id", "name"))

    def _parquet(self, which: int, names: tuple[str, str]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        second = pa.string() if names[1] == "name" else pa.int64()
        schema = pa.schema(
            [pa.field(names[0], pa.int64(), nullable=False), pa.field(names[1], second, False)]
        )
        self.writer = pq.ParquetWriter(self.partial[which], schema, compression="zstd")

    def _flush(self) -> None:
        if self.columns[0]:
            import pyarrow as pa

            schema = self.writer.schema
            table = pa.table(dict(zip(schema.names, self.columns, strict=True)), schema=schema)
            self.writer.write_table(table)
            self.columns = ([], [])

    def vertex(self, vertex_id: int, name: str) -> None:
        if self.text is not None:
            self.text.write(f"{vertex_id}\t{name}\n")
            return
        self.columns[0].append(vertex_id)
        self.columns[1].append(name)
        if len(self.columns[0]) >= _BATCH:
            self._flush()

    def end_vertices(self) -> None:
        if self.text is not None:
            self.text.close()
            self.text = open(self.partial[1], "w", encoding="ascii", newline="\n")  # noqa: SIM115
            return
        self._flush()
        self.writer.close()
        self._parquet(1, ("src", "dst"))

    def edge(self, src: int, dst: int) -> None:
        if self.text is not None:
            self.text.write(f"{src}\t{dst}\n")
            return
        self.columns[0].append(src)
        self.columns[1].append(dst)
        if len(self.columns[0]) >= _BATCH:
            self._flush()

    def commit(self) -> list[Path]:
        """The files closed and renamed into place; their paths."""
        if self.text is not None:
            self.text.close()
        else:
            self._flush()
            self.writer.close()
        done = [self.folder / name for name in self.names]
        for partial, final in zip(self.partial, done, strict=True):
            os.replace(partial, final)
        return done

    def discard(self) -> None:
        """What was written removed (an error, an interrupt): no half graph is left."""
        if self.text is not None:
            self.text.close()
        for partial in self.partial:
            partial.unlink(missing_ok=True)
