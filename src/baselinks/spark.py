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

This file is also the driver ``spark-submit`` is handed (see :func:`main`); so it imports
baselinks by absolute name.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

try:
    from pyspark.accumulators import Accumulator
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import (
        ArrayType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
    )
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError(
        f"baselinks.spark needs pyspark: pip install 'baselinks[spark]' ({exc})"
    ) from exc

from baselinks import MODES, InputError, Summary
from baselinks.batch import counted
from baselinks.dataflow import ROW_FIELDS, Row, iter_warc_links
from baselinks.errors import describe
from baselinks.link import ORIGIN_FIELDS

__all__ = ["SCHEMA", "Counters", "extract_links", "main"]

_TYPES = {
    "line": IntegerType(),
    "problems": ArrayType(StringType(), containsNull=False),
    "offset": LongType(),  # a WARC file may pass 2 GiB
    "length": LongType(),
}
# A Link's fields (link.FIELDS, the record every output format writes: README, "Library"), then
# the file each row came from. `line` may be null (a link from an HTTP header has none), and
# so may the origin's fields (link.ORIGIN_FIELDS: no offset outside a WARC, no part outside MIME).
_NULLABLE = frozenset({"line", *ORIGIN_FIELDS})
SCHEMA = StructType(
    [StructField(name, _TYPES.get(name, StringType()), name in _NULLABLE) for name in ROW_FIELDS]
)


class Counters(NamedTuple):
    """Accumulators a run adds to. Spark counts a task's updates again when it runs the task
    again (a retry, or a second action on the same DataFrame): read them after one action."""

    files: Accumulator[int]
    documents: Accumulator[int]
    links: Accumulator[int]
    failed_files: Accumulator[int]
    errors: Accumulator[int]

    @classmethod
    def of(cls, spark: SparkSession) -> Counters:
        context = spark.sparkContext
        return cls(*(context.accumulator(0) for _ in cls._fields))

    def __str__(self) -> str:
        files, documents, links, failed, errors = (counter.value for counter in self)
        return (
            f"{counted(files, 'file')}, {counted(documents, 'document')}, "
            f"{counted(links, 'link')}; {counted(failed, 'file')} failed "
            f"({counted(errors, 'error')})"
        )


def _file_rows(path: str, mode: str, counters: Counters | None) -> Iterator[Row]:
    """One file's rows; its errors printed on the executor's stderr and counted."""
    summary = Summary()
    errors = 0

    def report(error: InputError) -> None:
        nonlocal errors
        errors += 1
        print(f"baselinks: {error}", file=sys.stderr, flush=True)

    try:
        yield from iter_warc_links(path, mode=mode, on_error=report, summary=summary)
    except Exception as exc:  # a read failing midway, or a bug: one file never fails the job
        report(InputError(describe(exc), path))
    if counters is not None:
        counters.files.add(1)
        counters.documents.add(summary.documents)
        counters.links.add(summary.links)
        counters.failed_files.add(1 if errors else 0)
        counters.errors.add(errors)


def _task(mode: str, counters: Counters | None) -> Callable[[Iterable[str]], Iterator[Row]]:
    """The body of one task: each path of its partition (one, as built) streamed to rows."""

    def rows(paths: Iterable[str]) -> Iterator[Row]:
        for path in paths:
            yield from _file_rows(path, mode, counters)

    return rows


def extract_links(
    spark: SparkSession,
    paths: Iterable[str],
    *,
    mode: str = "rfc1808",
    counters: Counters | None = None,
) -> DataFrame:
    """A DataFrame of :data:`SCHEMA`: every link of every file, one task per file.

    ``paths``: local paths or ``file://`` URLs that every executor can read (a shared
    filesystem), or any scheme fsspec reads when it is installed on the executors. Nothing
    runs until an action (``write``, ``count``...).
    """
    paths = list(paths)
    rows = spark.sparkContext.parallelize(paths, max(1, len(paths))).mapPartitions(
        _task(mode, counters)
    )
    return spark.createDataFrame(rows, SCHEMA, verifySchema=False)


def _paths(given: Sequence[str], manifest: str | None) -> list[str]:
    paths = list(given)
    if manifest:
        with open(manifest, encoding="utf-8") as lines:
            paths += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """``spark-submit baselinks/spark.py [PATH ...] [--manifest FILE] --output OUT.parquet``
    (or ``python -m baselinks.spark ... --master local[4]``); exit status 1 if a file failed."""
    parser = argparse.ArgumentParser(
        prog="baselinks.spark",
        description="Every link of many WARC files, one Spark task per file, into Parquet.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="WARC files (path or URL)")
    parser.add_argument("--manifest", help="a file of paths, one per line ('#' comments)")
    parser.add_argument("--output", "-o", required=True, help="the Parquet directory to write")
    parser.add_argument("--mode", default="rfc1808", choices=MODES)
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (local[4])")
    args = parser.parse_args(argv)
    paths = _paths(args.paths, args.manifest)
    if not paths:
        parser.error("no input: give WARC paths or --manifest")
    running = SparkSession.getActiveSession()  # a caller's session is used, and left running
    builder: Any = SparkSession.builder.appName("baselinks")
    if args.master:
        builder = builder.master(args.master)
    spark = running or builder.getOrCreate()
    try:
        counters = Counters.of(spark)
        start = time.monotonic()
        frame = extract_links(spark, paths, mode=args.mode, counters=counters)
        frame.write.mode("overwrite" if args.overwrite else "errorifexists").parquet(args.output)
        seconds = time.monotonic() - start
        print(f"baselinks: {counters}; {seconds:.1f} s", file=sys.stderr)
        return 1 if counters.failed_files.value else 0
    finally:
        if running is None:
            spark.stop()


if __name__ == "__main__":
    sys.exit(main())
