"""The links of many WARC files as a DataFrame: one task per file (a gzip WARC cannot be split),
each streaming its file through :func:`baselinks.dataflow.iter_warc_links`; a file that fails
is logged on the executor's stderr and counted. The schema is the link record's own
(:mod:`baselinks.write.schema`), then ``warc``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, NamedTuple

try:
    from pyspark.accumulators import Accumulator, AccumulatorParam
    from pyspark.sql import DataFrame, SparkSession, Window, functions
    from pyspark.sql.types import (
        ArrayType,
        BooleanType,
        LongType,
        StringType,
        StructField,
        StructType,
        TimestampType,
    )
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError(
        f"baselinks.spark needs pyspark: pip install 'baselinks[spark]' ({exc})"
    ) from exc

from baselinks import InputError, InputWarning, Summary
from baselinks.dataflow import ROW_FIELDS, Row, iter_warc_links
from baselinks.errors import describe, printable
from baselinks.run.batch import counted, display_name, skipped_text
from baselinks.run.options import keep_only
from baselinks.run.revisits import UNRESOLVED_NAMED, RevisitIndex, unresolved_text
from baselinks.url.resolve import Mode
from baselinks.write.schema import SQL_NAMES, Column, columns, utc_timestamp

# The column types of baselinks.write.schema (one table for Parquet and Spark), as Spark's.
_SPARK_TYPES = {
    "string": StringType(),
    "int64": LongType(),
    "bool": BooleanType(),
    "strings": ArrayType(StringType(), containsNull=False),
    "timestamp": TimestampType(),  # an instant: the date in UTC, shown in the session's zone
}
# A Link's fields (link.FIELDS, the record every output format writes: docs/guide/library.md), then
# the file each row came from, named as SQL takes them (`offset` is `record_offset`: schema.py).
# `line` may be null (a link from an HTTP header has none), and so may the origin's fields
# (link.ORIGIN_FIELDS: no offset outside a WARC, no part outside MIME).
SCHEMA = StructType(
    [
        StructField(column.name, _SPARK_TYPES[column.type], column.nullable)
        for column in (*columns(ROW_FIELDS[:-1]), Column("warc", "string", False, "warc"))
    ]
)
_DATE = ROW_FIELDS.index("date")  # the WARC-Date's text in a row, a timestamp in the column
# --unique=run: each row's place in the run (its file's, its own in the file), to keep the first
_PLACE = [StructField("_input", LongType(), False), StructField("_row", LongType(), False)]


class Filters(NamedTuple):
    """What a task keeps of each file's links: :func:`~baselinks.dataflow.iter_warc_links`'
    options (the CLI's --kind, --unique, --scheme, --same-host, --external)."""

    mode: Mode
    kinds: tuple[str, ...] | None
    unique: bool  # in each document (a run's: in the driver, a window over url)
    schemes: tuple[str, ...] | None
    same_host: bool
    external: bool
    parser: str | None = None  # "html5" or "lxml" (None: iter_links' choice, on the executor)


class _Counts(AccumulatorParam[dict[str, int]]):
    """Counts by name, added up (the skips by reason)."""

    def zero(self, value: dict[str, int]) -> dict[str, int]:
        return {}

    def addInPlace(self, first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
        for name, n in second.items():
            first[name] = first.get(name, 0) + n
        return first


class Counters(NamedTuple):
    """Accumulators a run adds to. Spark counts a task's updates again when it runs the task
    again (a retry, or a second action on the same DataFrame): read them after one action."""

    files: Accumulator[int]
    documents: Accumulator[int]
    links: Accumulator[int]
    failed_files: Accumulator[int]
    errors: Accumulator[int]
    warnings: Accumulator[int]
    skipped: Accumulator[dict[str, int]]  # by reason, as the CLI's summary counts them
    # the graph's drops: "link:REASON", "document:REASON" (spark/graph.py)
    dropped: Accumulator[dict[str, int]] | None = None
    # the revisits whose original is in none of the files, by name (run/revisits.py)
    unresolved: Accumulator[dict[str, int]] | None = None

    @classmethod
    def of(cls, spark: SparkSession) -> Counters:
        context = spark.sparkContext
        files, documents, links, failed, errors, warned = (context.accumulator(0) for _ in "123456")
        skipped = context.accumulator({}, _Counts())
        dropped = context.accumulator({}, _Counts())
        unresolved = context.accumulator({}, _Counts())
        return cls(files, documents, links, failed, errors, warned, skipped, dropped, unresolved)

    def dropped_text(self) -> str:
        """The graph's drops as its summary line says them: ``dropped 3 links (2 self-loop,
        1 not-web); dropped 1 document (1 no-host)`` ("" when none)."""
        found = {} if self.dropped is None else self.dropped.value
        parts = []
        for what in ("link", "document"):
            mine = {k.partition(":")[2]: n for k, n in found.items() if k.startswith(what + ":")}
            if mine:
                reasons = ", ".join(f"{n:,} {reason}" for reason, n in sorted(mine.items()))
                parts.append(f"dropped {counted(sum(mine.values()), what)} ({reasons})")
        return "; ".join(parts)

    def __str__(self) -> str:
        """As the CLI's summary line: ``4 files, 11 documents, 18 links; skipped 9 (5 request
        records, ...); 2 files failed (2 errors)``."""
        text = f"{counted(self.files.value, 'file')}, "
        text += f"{counted(self.documents.value, 'document')}, {counted(self.links.value, 'link')}"
        if self.skipped.value:
            text += f"; {skipped_text(self.skipped.value)}"
        if self.warnings.value:
            text += f"; {counted(self.warnings.value, 'warning')}"
        if self.unresolved is not None and self.unresolved.value:
            names = sorted(self.unresolved.value)
            text += f"; {unresolved_text(len(names), names[:UNRESOLVED_NAMED])}"
        failed = counted(self.failed_files.value, "file")
        return text + f"; {failed} failed ({counted(self.errors.value, 'error')})"


def _file_rows(
    path: str,
    filters: Filters,
    counters: Counters | None,
    revisits: bool | RevisitIndex = True,
) -> Iterator[Row]:
    """One file's rows, their dates as timestamps; its errors and warnings printed on the
    executor's stderr and counted."""
    summary = Summary()
    errors = 0

    def report(error: InputError) -> None:
        nonlocal errors
        errors += 1
        # escaped: a WARC-Target-URI's ESC, BEL or U+202E reached the terminal raw
        print(f"baselinks: {printable(str(error))}", file=sys.stderr, flush=True)

    def warn(warning: InputWarning) -> None:
        print(f"baselinks: warning: {printable(str(warning))}", file=sys.stderr, flush=True)

    mode, kinds, unique, schemes, same_host, external, parser = filters
    try:
        for row in iter_warc_links(
            path, mode=mode, kinds=kinds, unique=unique, on_error=report, summary=summary,
            schemes=schemes, same_host=same_host, external=external, on_warning=warn,
            parser=parser, revisits=revisits,
        ):  # fmt: skip
            yield (*row[:_DATE], utc_timestamp(row[_DATE]), *row[_DATE + 1 :])
    except Exception as exc:  # a read failing midway, or a bug: one file never fails the job
        report(InputError(describe(exc), path))
    if counters is not None:
        counters.files.add(1)
        counters.documents.add(summary.documents)
        counters.links.add(summary.links)
        counters.failed_files.add(1 if errors else 0)
        counters.errors.add(errors)
        counters.warnings.add(summary.warnings)
        counters.skipped.add(dict(summary.skipped))
        if counters.unresolved is not None and summary.unresolved:
            counters.unresolved.add(dict.fromkeys(summary.unresolved_names, 1))


def _task(
    filters: Filters,
    counters: Counters | None,
    placed: bool,
    revisits: dict[str, RevisitIndex] | None = None,
) -> Callable[[Iterable[tuple[int, str]]], Iterator[Row]]:
    """The body of one task: each path of its partition (one, as built) streamed to rows;
    ``placed``: each row followed by its place in the run (its file's number, its own);
    ``revisits``: each file's revisits and their originals, found in all the files (None:
    each file looks in itself)."""

    def rows(paths: Iterable[tuple[int, str]]) -> Iterator[Row]:
        for number, path in paths:
            index: bool | RevisitIndex = True
            if revisits is not None:
                index = revisits.get(display_name(path)) or RevisitIndex()
            found = _file_rows(path, filters, counters, index)
            if placed:
                yield from ((*row, number, n) for n, row in enumerate(found))
            else:
                yield from found

    return rows


def extract_links(
    spark: SparkSession,
    paths: Iterable[str],
    *,
    mode: Mode = "rfc1808",
    counters: Counters | None = None,
    kinds: Iterable[str] | None = None,
    unique: bool | Literal["document", "run"] = False,
    schemes: Iterable[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    fields: Sequence[str] | None = None,
    parser: str | None = None,
) -> DataFrame:
    """A DataFrame of :data:`SCHEMA`: every link of every file, one task per file.

    ``paths``: local paths or ``file://`` URLs that every executor can read (a shared
    filesystem), or any scheme fsspec reads when it is installed on the executors. Nothing
    runs until an action (``write``, ``count``...). The filters are the CLI's: ``kinds``,
    ``schemes``, ``same_host``, ``external`` and ``unique`` (``True`` or ``"document"``: in each
    document, in its task; ``"run"``: the first row of each URL in input order, a window over
    ``url``, which shuffles the rows by URL and sorts them back); ``fields``: only these
    columns (field names: ``offset`` is the column ``record_offset``), in that order.
    ``parser``: "html5" or "lxml", chosen on each executor as :func:`baselinks.iter_links`
    chooses (None: html5 where it is built).
    """
    paths = list(paths)
    keep_only(schemes, same_host, external)  # a conflict fails here, in the driver
    run = unique == "run"
    filters = Filters(
        mode,
        None if kinds is None else tuple(kinds),
        bool(unique),  # "run" is "document" in each task first: fewer rows to shuffle
        None if schemes is None else tuple(schemes),
        same_host,
        external,
        parser,
    )
    from baselinks.spark.revisits import revisit_indexes

    numbered = spark.sparkContext.parallelize(list(enumerate(paths)), max(1, len(paths)))
    # a revisit's original in another file: found by a first job over all of them
    rows = numbered.mapPartitions(_task(filters, counters, run, revisit_indexes(spark, paths)))
    schema = StructType([*SCHEMA.fields, *_PLACE]) if run else SCHEMA
    frame = spark.createDataFrame(rows, schema, verifySchema=False)
    if run:
        first = Window.partitionBy("url").orderBy("_input", "_row")
        frame = (
            frame.withColumn("_first", functions.row_number().over(first))
            .where("_first = 1")
            .orderBy("_input", "_row")
            .drop("_first", "_input", "_row")
        )
    if fields is not None:
        frame = frame.select(*(SQL_NAMES.get(name, name) for name in fields))
    return frame


# --- the link graph: names made in the task by the one-machine code, the rest Spark's joins ---


def to_pandas(frame: DataFrame) -> Any:
    """``frame`` as a pandas DataFrame whose integer columns are pandas' nullable ``Int64``.

    Spark's own ``toPandas()`` makes an integer column holding a null float64 (``line``: 1.0,
    NaN); through Arrow (``toArrow``, pyspark 4) each stays an integer and a null is ``<NA>``.
    """
    import pandas
    import pyarrow

    integers = {pyarrow.int64(): pandas.Int64Dtype(), pyarrow.int32(): pandas.Int64Dtype()}
    if hasattr(frame, "toArrow"):
        return frame.toArrow().to_pandas(types_mapper=integers.get)
    # pyspark 3.5 has no toArrow: its float64 column back to integers, exact below 2**53
    table: Any = frame.toPandas()
    for field in frame.schema.fields:
        if isinstance(field.dataType, LongType):
            table[field.name] = table[field.name].astype("Int64")
    return table
