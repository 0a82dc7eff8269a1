"""The link graph on Spark: each document's vertex names made in its task by the same code as
``baselinks graph`` (graph/names.py), then ``distinct``, the names in sorted order numbered
(``zipWithIndex``) and the edges joined to them: the one-machine command's files, as Parquet."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

try:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import LongType, StringType, StructField, StructType
except ImportError as exc:  # an optional dependency: say how to get it
    raise ImportError(
        f"baselinks.spark needs pyspark: pip install 'baselinks[spark]' ({exc})"
    ) from exc

from baselinks import InputError, Summary
from baselinks.api import iter_pages
from baselinks.dataflow import Row, open_input
from baselinks.errors import describe, printable
from baselinks.graph.names import DocumentNamer
from baselinks.run.batch import display_name
from baselinks.run.revisits import RevisitIndex
from baselinks.spark.links import Counters
from baselinks.spark.revisits import revisit_indexes

_PAIRS = StructType([StructField("s", StringType(), False), StructField("t", StringType(), True)])
_IDS = StructType([StructField("name", StringType(), False), StructField("id", LongType(), False)])


def _file_pairs(
    path: str,
    namer: DocumentNamer,
    counters: Counters | None,
    revisits: RevisitIndex | None = None,
) -> Iterator[Row]:
    """One file's (source, target) name pairs, (source, None) for a document without any (it
    is a vertex all the same); its errors printed on the executor's stderr and counted."""
    summary, errors = Summary(), [0]

    def report(error: InputError) -> None:
        errors[0] += 1
        print(f"baselinks: {printable(str(error))}", file=sys.stderr, flush=True)

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))

    try:
        with open_input(path) as stream:
            given = [(stream, display_name(path), True)]
            # a revisit's original: found in all the files (spark/revisits.py), read again
            index = revisits if revisits is not None else RevisitIndex()
            for page, names in iter_pages(
                given, namer, on_error=report, unreadable=unreadable, summary=summary,
                revisits=index,
            ):  # fmt: skip
                source = names.source or namer.source(page)[0]
                if source is not None:
                    yield from ((source, target) for target in names.targets or (None,))
    except Exception as exc:  # no such file, a read failing midway: never the job
        report(InputError(describe(exc), path))
    if counters is not None:
        counters.files.add(1)
        counters.documents.add(summary.documents)
        counters.links.add(summary.links)
        counters.failed_files.add(1 if errors[0] or summary.failed else 0)
        counters.errors.add(errors[0])


def build_graph(
    spark: SparkSession,
    paths: Iterable[str],
    *,
    level: str = "host",
    keep_www: bool = False,
    private_domains: bool = False,
    counters: Counters | None = None,
) -> tuple[DataFrame, DataFrame]:
    """The link graph of the files, as ``baselinks graph`` makes it (the same files: tested):
    ``(vertices, edges)``, DataFrames of ``id``, ``name`` and of ``src``, ``dst`` (GraphFrames'
    columns). One task per file names each document's targets with the one-machine code
    (:class:`~baselinks.graph.names.DocumentNamer`); then Spark's own work, as cc-pyspark's
    ``hostlinks_to_graph.py``: the distinct edges, the distinct names range-sorted and given
    IDs 0..n-1 by ``zipWithIndex`` (a sort across partitions: a window over all names would
    pull them into one), and two joins. Spark's string order is the UTF-8 bytes', Python's."""
    from pyspark.sql import functions

    paths = list(paths)
    namer = DocumentNamer(level, keep_www, private_domains)
    indexes = revisit_indexes(spark, paths)

    def pairs_of(given: Iterable[str]) -> Iterator[Row]:
        for path in given:
            yield from _file_pairs(path, namer, counters, indexes.get(display_name(path)))

    rows = spark.sparkContext.parallelize(paths, max(1, len(paths))).mapPartitions(pairs_of)
    pairs = spark.createDataFrame(rows, _PAIRS).persist()
    edges = pairs.where(functions.col("t").isNotNull()).distinct()
    names = pairs.select(functions.col("s").alias("name"))
    names = names.union(edges.select(functions.col("t").alias("name"))).distinct()
    ranked = names.orderBy("name").rdd.map(lambda row: row[0]).zipWithIndex()
    ids = spark.createDataFrame(ranked, _IDS).persist()
    sources = ids.withColumnsRenamed({"name": "s", "id": "src"})
    targets = ids.withColumnsRenamed({"name": "t", "id": "dst"})
    joined = edges.join(sources, "s").join(targets, "t").select("src", "dst")
    return ids.select("id", "name").orderBy("id"), joined.orderBy("src", "dst")
