"""parquet: links written as Apache Parquet, in row groups, through pyarrow (the parquet extra).

    pip install "baselinks[parquet]"
    baselinks extract crawl.warc.gz --format parquet -o links.parquet

The columns are :data:`baselinks.write.schema.COLUMNS` (or the ``fields=`` chosen), typed as the
Spark job's are: strings, ``line`` a nullable 64-bit integer, ``problems`` a list of strings,
``date`` a UTC timestamp; ``offset`` is ``record_offset`` (a reserved word in SQL: schema.py).
Each document's links become Arrow columns as they come, and a row group is written each time
:data:`ROW_GROUP` rows wait, so memory holds one row group whatever the input's size. The file
carries pandas' metadata saying that integer columns are pandas' nullable ``Int64``:
``pandas.read_parquet`` gives ``line`` as integers with ``<NA>``, not as float64.

A Parquet file ends with its footer, written by :meth:`ParquetSink.close`; the stream is never
seeked, so it may be a pipe. Nothing here knows HTML.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any, BinaryIO

from .._version import __version__
from ..errors import scalar
from ..resolve.link import CHOOSABLE, COMPUTED_FIELDS, FIELDS, ORIGIN_AT, Link, computed
from .schema import Column, columns, utc_micros

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "BATCH",
    "ROW_GROUP",
    "ParquetSink",
    "arrow_schema",
    "parquet_render",
    "write_parquet",
]

# Rows per row group. The corpus's 107,028 links peak at 245 MB with 65,536 a group, 211 MB with
# 4,096, against 144 MB for JSON Lines with pyarrow imported (its own 79 MB): the group and the
# writer's buffers are some 100 MB, whatever the input's size (docs/benchmarks.md, "Parquet").
# A group of 64 Ki links is some 4 MB compressed, already small as Parquet goes.
ROW_GROUP = 65_536
# Links made Arrow columns at once: a document's links one batch each cost 1.24-1.36x JSON
# Lines' CPU on the corpus (a pyarrow call per column per document: 19 per page); batched,
# the calls are few (bench_parquet.py, docs/guide/parquet.md has the figures).
BATCH = 4096

COMPRESSION = "snappy"  # pyarrow's and Spark's default


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ImportError(
            f"the parquet format needs pyarrow: pip install 'baselinks[parquet]' ({exc})"
        ) from exc
    return pyarrow


def available() -> bool:
    """Whether pyarrow can be imported (the parquet extra is installed)."""
    try:
        _pyarrow()
    except ImportError:
        return False
    return True


def _arrow_type(pa: Any, column: Column) -> Any:
    if column.type == "strings":
        return pa.list_(pa.field("element", pa.string(), nullable=False))
    if column.type == "timestamp":
        return pa.timestamp("us", tz="UTC")  # microseconds: Spark's TimestampType's precision
    return {"string": pa.string(), "int64": pa.int64(), "bool": pa.bool_()}[column.type]


# pandas reads the column types back from this metadata (pyarrow.Table.to_pandas): "Int64" is
# its nullable integer type, so a null `line` is <NA> and the others stay integers.
_PANDAS_TYPES = {
    "string": ("unicode", "object"),
    "int64": ("int64", "Int64"),
    "bool": ("bool", "bool"),
    "timestamp": ("datetimetz", "datetime64[us, UTC]"),
}


def _pandas_metadata(chosen: Sequence[Column]) -> bytes:
    described = []
    for column in chosen:
        pandas_type, numpy_type = _PANDAS_TYPES.get(column.type, ("list[unicode]", "object"))
        described.append(
            {
                "name": column.name,
                "field_name": column.name,
                "pandas_type": pandas_type,
                "numpy_type": numpy_type,
                "metadata": {"timezone": "UTC"} if column.type == "timestamp" else None,
            }
        )
    metadata = {
        "index_columns": [],
        "column_indexes": [],
        "columns": described,
        "attributes": {},
        "creator": {"library": "baselinks", "version": __version__},
    }
    return json.dumps(metadata).encode("utf-8")


def arrow_schema(fields: Iterable[str] = FIELDS) -> pyarrow.Schema:
    """The Arrow schema of these fields of the link record (all by default), in that order."""
    pa = _pyarrow()
    chosen = columns(fields)
    return pa.schema(
        [pa.field(c.name, _arrow_type(pa, c), nullable=c.nullable) for c in chosen],
        metadata={b"pandas": _pandas_metadata(chosen)},
    )


class ParquetSink:
    """A Parquet file being written: :meth:`write` batches of links, then :meth:`close` (the
    footer). ``out``: a path, or a binary stream written in order (never seeked nor closed).

    Links become Arrow columns :data:`BATCH` at a time (a string there is its UTF-8 bytes, not a
    Python object of some 50 bytes more), and a row group of ``row_group`` rows is written as
    soon as that many wait.
    """

    def __init__(
        self,
        out: str | os.PathLike[str] | BinaryIO,
        fields: Iterable[str] | None = None,
        *,
        row_group: int = ROW_GROUP,
        compression: str = COMPRESSION,
    ) -> None:
        pa = _pyarrow()
        self.fields = FIELDS if fields is None else tuple(fields)
        self.schema = arrow_schema(self.fields)
        # each column: where its field is in the record (a computed one too: CHOOSABLE), its
        # Arrow type, and whether its values are the dates' text, to be read as timestamps
        self.arrays = [
            (CHOOSABLE.index(c.field), self.schema.field(c.name).type, c.type == "timestamp")
            for c in columns(self.fields)
        ]
        self.row_group = row_group
        self.batches: list[Any] = []  # Arrow record batches, not yet written
        self.pending: list[Link] = []  # links not yet made Arrow columns
        self.waiting = 0  # the rows of both
        self.count = 0
        self._pa = pa
        sink = os.fspath(out) if isinstance(out, (str, os.PathLike)) else out
        self.writer = pa.parquet.ParquetWriter(sink, self.schema, compression=compression)

    def write(self, links: Sequence[Link]) -> None:
        """Add ``links``; a row group is written each time :data:`ROW_GROUP` are gathered."""
        if not links:
            return
        self.pending.extend(links)
        self.waiting += len(links)
        self.count += len(links)
        if len(self.pending) >= BATCH or self.waiting >= self.row_group:
            self._convert()
        if self.waiting >= self.row_group:
            self._flush(whole=True)

    def _convert(self) -> None:
        """The pending links as one Arrow record batch, a column at a time: a link's own field
        from each link (a list made by C: ``map``, ``itemgetter``); its document's (the
        Origin's) once per document, then repeated by Arrow (``take``), as the links of a
        document share one Origin; a date as its microseconds (pyarrow converts an aware
        datetime ten times as slowly as an int)."""
        links, self.pending = self.pending, []
        if not links:
            return
        pa = self._pa
        places: dict[int, int] = {}  # an Origin's id -> its place among the documents'
        origins = list(map(itemgetter(ORIGIN_AT), links))
        taken = pa.array([places.setdefault(id(origin), len(places)) for origin in origins])
        documents = list({id(origin): origin for origin in origins}.values())
        arrays = []
        for index, kind, dated in self.arrays:
            if index < ORIGIN_AT:
                arrays.append(_array(pa, list(map(itemgetter(index), links)), kind))
                continue
            values = map(itemgetter(index - ORIGIN_AT), documents)
            column = _array(pa, list(map(utc_micros, values) if dated else values), kind)
            arrays.append(column.take(taken))
        self.batches.append(pa.RecordBatch.from_arrays(arrays, schema=self.schema))

    def _flush(self, whole: bool) -> None:
        """The waiting rows written, a row group of ``row_group`` rows at a time; with
        ``whole``, only whole groups (the rest waits: slices, never copies)."""
        table = self._pa.Table.from_batches(self.batches, schema=self.schema)
        size = self.row_group
        while table.num_rows >= size or (not whole and table.num_rows):
            self.writer.write_table(table.slice(0, size), row_group_size=size)
            table = table.slice(size)
        self.batches = table.to_batches()
        self.waiting = table.num_rows

    def close(self) -> int:
        """The last row group and the footer written; how many links were."""
        self._convert()
        if self.waiting:
            self._flush(whole=False)
        self.writer.close()
        return self.count


def _array(pa: Any, values: list[Any], kind: Any) -> Any:
    """``pa.array(values, kind)``; a string no UTF-8 holds (a lone surrogate, in a Link a
    program made: the pipeline makes none) written with U+FFFD in its place, never refused."""
    try:
        return pa.array(values, kind)
    except UnicodeEncodeError:
        return pa.array(list(map(_scalar_value, values)), kind)


def _scalar_value(value: Any) -> Any:
    if isinstance(value, str):
        return scalar(value)
    if isinstance(value, list | tuple):
        return [scalar(item) if isinstance(item, str) else item for item in value]
    return value


def parquet_render(fields: Iterable[str] | None) -> Callable[[Sequence[Link]], list[Link]]:
    """What a document's links become for :meth:`ParquetSink.write`, where they are extracted
    (a worker): the links as they are, or with the computed fields chosen, records holding them
    (:func:`~baselinks.resolve.link.computed`)."""
    wanted = tuple(name for name in fields or () if name in COMPUTED_FIELDS)
    return functools.partial(computed, wanted) if wanted else list


def write_parquet(
    links: Iterable[Link],
    out: str | os.PathLike[str] | BinaryIO,
    fields: Iterable[str] | None = None,
) -> int:
    """Write ``links`` to ``out`` (a path or a binary stream) as Parquet, one row group per
    :data:`ROW_GROUP` links; return how many were written. ``fields``: only these, in order."""
    sink = ParquetSink(out, fields)
    render = parquet_render(sink.fields)
    given = iter(links)
    # Arrow columns a batch at a time: a batch per link made a RecordBatch each (14,510 links:
    # 2.24 s against 0.04 s in batches of 4,096, the file the same)
    while batch := list(islice(given, BATCH)):
        sink.write(render(batch))
    return sink.close()
