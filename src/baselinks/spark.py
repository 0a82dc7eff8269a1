"""Links of many WARC files on Apache Spark: one task per file, rows into a DataFrame.

    pip install "baselinks[spark]"

    from baselinks.spark import Counters, extract_links
    counters = Counters.of(spark)
    frame = extract_links(spark, ["a.warc.gz", "b.warc.gz"], counters=counters)
    frame.write.parquet("links.parquet")
    print(counters)  # documents, links, failed files: exact after the one action

The pattern of Common Crawl's cc-pyspark and the Archives Unleashed Toolkit: the paths are
parallelized one per partition (a gzip WARC cannot be split), each task streams its file
through :func:`baselinks.dataflow.iter_warc_links` in bounded memory, and a file that fails is
logged on the executor's stderr and counted, never fatal. Unlike them, links are resolved
against the page's ``<base>`` (RFC 1808 §3.1) before the record's URI.

This file is also the driver ``spark-submit`` is handed (see :func:`main`), with cc-pyspark's
options; so it imports baselinks by absolute name. The schema is the link record's own
(:mod:`baselinks.write.schema`, the CLI's Parquet has the same columns), then ``warc``;
:func:`to_pandas` keeps its integer columns integers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, NamedTuple

try:
    from pyspark.accumulators import Accumulator, AccumulatorParam
    from pyspark.sql import DataFrame, SparkSession, Window, functions
    from pyspark.sql.types import (
        ArrayType,
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

from baselinks import MODES, InputError, InputWarning, Summary
from baselinks.dataflow import ROW_FIELDS, Row, iter_warc_links, local_path
from baselinks.errors import describe
from baselinks.run.batch import counted, skipped_text
from baselinks.run.options import add_filters, keep_only
from baselinks.url.resolve import Mode
from baselinks.write.schema import SQL_NAMES, Column, columns, utc_timestamp

__all__ = ["COUNTERS_FILE", "SCHEMA", "Counters", "extract_links", "main", "to_pandas"]

# The column types of baselinks.write.schema (one table for Parquet and Spark), as Spark's.
_SPARK_TYPES = {
    "string": StringType(),
    "int64": LongType(),
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

    @classmethod
    def of(cls, spark: SparkSession) -> Counters:
        context = spark.sparkContext
        files, documents, links, failed, errors, warned = (context.accumulator(0) for _ in "123456")
        skipped = context.accumulator({}, _Counts())
        return cls(files, documents, links, failed, errors, warned, skipped)

    def __str__(self) -> str:
        """As the CLI's summary line: ``4 files, 11 documents, 18 links; skipped 9 (5 request
        records, ...); 2 files failed (2 errors)``."""
        text = f"{counted(self.files.value, 'file')}, "
        text += f"{counted(self.documents.value, 'document')}, {counted(self.links.value, 'link')}"
        if self.skipped.value:
            text += f"; {skipped_text(self.skipped.value)}"
        if self.warnings.value:
            text += f"; {counted(self.warnings.value, 'warning')}"
        failed = counted(self.failed_files.value, "file")
        return text + f"; {failed} failed ({counted(self.errors.value, 'error')})"


def _file_rows(path: str, filters: Filters, counters: Counters | None) -> Iterator[Row]:
    """One file's rows, their dates as timestamps; its errors and warnings printed on the
    executor's stderr and counted."""
    summary = Summary()
    errors = 0

    def report(error: InputError) -> None:
        nonlocal errors
        errors += 1
        print(f"baselinks: {error}", file=sys.stderr, flush=True)

    def warn(warning: InputWarning) -> None:
        print(f"baselinks: warning: {warning}", file=sys.stderr, flush=True)

    mode, kinds, unique, schemes, same_host, external = filters
    try:
        for row in iter_warc_links(
            path, mode=mode, kinds=kinds, unique=unique, on_error=report, summary=summary,
            schemes=schemes, same_host=same_host, external=external, on_warning=warn,
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


def _task(
    filters: Filters, counters: Counters | None, placed: bool
) -> Callable[[Iterable[tuple[int, str]]], Iterator[Row]]:
    """The body of one task: each path of its partition (one, as built) streamed to rows;
    ``placed``: each row followed by its place in the run (its file's number, its own)."""

    def rows(paths: Iterable[tuple[int, str]]) -> Iterator[Row]:
        for number, path in paths:
            found = _file_rows(path, filters, counters)
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
) -> DataFrame:
    """A DataFrame of :data:`SCHEMA`: every link of every file, one task per file.

    ``paths``: local paths or ``file://`` URLs that every executor can read (a shared
    filesystem), or any scheme fsspec reads when it is installed on the executors. Nothing
    runs until an action (``write``, ``count``...). The filters are the CLI's: ``kinds``,
    ``schemes``, ``same_host``, ``external`` and ``unique`` (``True`` or ``"document"``: in each
    document, in its task; ``"run"``: the first row of each URL in input order, a window over
    ``url``, which shuffles the rows by URL and sorts them back); ``fields``: only these
    columns (field names: ``offset`` is the column ``record_offset``), in that order.
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
    )
    numbered = spark.sparkContext.parallelize(list(enumerate(paths)), max(1, len(paths)))
    rows = numbered.mapPartitions(_task(filters, counters, run))
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


def _paths(given: list[str], manifest: str | None) -> list[str]:
    paths = list(given)
    if manifest:
        with open(manifest, encoding="utf-8") as lines:
            paths += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return paths


# cc-pyspark's options (its spellings with "_" too): --log_level, --num_output_partitions,
# --output_compression. Spark's Parquet codecs that need no native library of Hadoop's.
LOG_LEVELS = ("ALL", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "OFF")
COMPRESSIONS = ("none", "snappy", "gzip", "zstd", "lz4")
COUNTERS_FILE = "_baselinks.json"  # in the output folder: Spark and pyarrow skip "_" names


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baselinks.spark",
        description="Every link of many WARC files, one Spark task per file, into Parquet.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="WARC files (path or URL)")
    parser.add_argument("--manifest", help="a file of paths, one per line ('#' comments)")
    parser.add_argument("--output", "-o", required=True, help="the Parquet directory to write")
    parser.add_argument("--mode", default="rfc1808", choices=MODES)
    add_filters(parser, "the Parquet columns, by field name")  # baselinks extract's filters
    parser.add_argument(
        "--overwrite", action="store_true", help="replace an existing output (else: an error)"
    )
    parser.add_argument("--master", help="Spark master when not run by spark-submit (local[4])")
    parser.add_argument(
        "--log-level",
        "--log_level",
        type=str.upper,
        choices=LOG_LEVELS,
        help="Spark's log level (default WARN; a running session's is left as it is)",
    )
    parser.add_argument(
        "--num-output-partitions",
        "--num_output_partitions",
        type=int,
        metavar="N",
        help="write N files (coalesced; default: one per input file)",
    )
    parser.add_argument(
        "--output-compression",
        "--output_compression",
        default="snappy",
        type=str.lower,
        choices=COMPRESSIONS,
        help="the Parquet files' codec (default snappy)",
    )
    return parser


def _exists(path: str) -> bool | None:
    """Whether the output exists; None when that cannot be known here (a remote path without
    fsspec and its driver: Spark's own check then says it, in one line too)."""
    local = local_path(path)
    if local is not None:
        return os.path.lexists(local)
    try:
        import fsspec

        filesystem, inner = fsspec.core.url_to_fs(path)
        return bool(filesystem.exists(inner))
    except Exception:  # no fsspec, no driver (s3fs...), no credentials: Spark will know
        return None


def _write_counters(output: str, record: dict[str, Any]) -> str | None:
    """The counters as JSON in the output folder; where, or None when it could not be."""
    target = f"{output.rstrip('/')}/{COUNTERS_FILE}"
    text = json.dumps(record, indent=2) + "\n"
    try:
        local = local_path(target)
        if local is not None:
            with open(local, "w", encoding="utf-8") as file:
                file.write(text)
        else:
            import fsspec

            with fsspec.open(target, "w", encoding="utf-8") as file:
                file.write(text)
    except Exception as exc:  # the links are written; the counters are said on stderr anyway
        print(f"baselinks: {target}: counters not written: {describe(exc)}", file=sys.stderr)
        return None
    return target


def _session(args: argparse.Namespace) -> tuple[SparkSession, bool]:
    """A caller's running session (left running), or a new one: logging at ``--log-level``
    from its start, and no console progress bar (it would run into the summary)."""
    running = SparkSession.getActiveSession()
    if running is not None:
        if args.log_level is not None:  # else the caller's level stays
            running.sparkContext.setLogLevel(args.log_level)
        return running, False
    level = args.log_level or "WARN"
    builder: Any = (
        SparkSession.builder.appName("baselinks")
        .config("spark.log.level", level)
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(level)  # a session spark-submit made has its own
    return spark, True


def main(argv: Sequence[str] | None = None) -> int:
    """``spark-submit baselinks/spark.py [PATH ...] [--manifest FILE] --output OUT.parquet``
    (or ``python -m baselinks.spark ... --master local[4]``), with cc-pyspark's options. Exit
    status 1 if a file failed; 2 for a usage error, an existing output among them (without
    ``--overwrite``), found before Spark starts. The summary is the last line on stderr; the
    counters are also written as JSON in the output folder (:data:`COUNTERS_FILE`)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        paths = _paths(args.paths, args.manifest)
    except (OSError, UnicodeDecodeError) as exc:  # missing, a directory, not text: one line
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"baselinks: --manifest {args.manifest}: {reason}", file=sys.stderr)
        return 2
    if not paths:
        parser.error("no input: give WARC paths or --manifest")
    if args.num_output_partitions is not None and args.num_output_partitions < 1:
        parser.error(f"--num-output-partitions: expected 1 or more: {args.num_output_partitions}")
    if not args.overwrite and _exists(args.output):
        print(f"baselinks: {args.output}: exists (--overwrite replaces it)", file=sys.stderr)
        return 2
    spark, owned = _session(args)
    try:
        counters = Counters.of(spark)
        start = time.monotonic()
        frame = extract_links(
            spark, paths, mode=args.mode, counters=counters, kinds=args.kinds,
            unique=args.unique or False, schemes=args.schemes, same_host=args.same_host,
            external=args.external, fields=args.fields,
        )  # fmt: skip
        if args.num_output_partitions is not None:
            frame = frame.coalesce(args.num_output_partitions)
        try:
            _write(frame, args)
        except Exception as exc:  # AnalysisException: the output appeared meanwhile...
            print(f"baselinks: {args.output}: {_first_line(exc)}", file=sys.stderr)
            return 1
        seconds = time.monotonic() - start
        record = {name: counter.value for name, counter in counters._asdict().items()}
        record.update(inputs=len(paths), seconds=round(seconds, 1))
        written = _write_counters(args.output, {**record, "mode": args.mode})
    finally:
        if owned:
            spark.stop()
    # after Spark has stopped, so that nothing of its own follows: the summary's lines last
    if written is not None:
        print(f"baselinks: counters in {written}", file=sys.stderr)
    print(f"baselinks: {counters}; {seconds:.1f} s", file=sys.stderr)
    return 1 if record["failed_files"] else 0


# Spark writes a timestamp as INT96 by default, a type Parquet deprecated, read back without
# its zone; as TIMESTAMP_MICROS it is what the CLI's Parquet has: timestamp[us, UTC].
_TIMESTAMPS = "spark.sql.parquet.outputTimestampType"


def _write(frame: DataFrame, args: argparse.Namespace) -> None:
    """``frame`` as Parquet at ``--output``, its dates as the CLI writes them (the session's
    setting put back after)."""
    conf = frame.sparkSession.conf
    before = conf.get(_TIMESTAMPS, None)
    conf.set(_TIMESTAMPS, "TIMESTAMP_MICROS")
    try:
        writer = frame.write.mode("overwrite" if args.overwrite else "errorifexists")
        writer.option("compression", args.output_compression).parquet(args.output)
    finally:
        if before is None:
            conf.unset(_TIMESTAMPS)
        else:
            conf.set(_TIMESTAMPS, before)


def _first_line(exc: BaseException) -> str:
    """An exception's message without a Java stack trace: an AnalysisException's first line,
    a Py4JJavaError's Java exception ("An error occurred while calling o57.parquet" says
    nothing)."""
    java = getattr(exc, "java_exception", None)
    lines = str(exc if java is None else java.toString()).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
