"""The link graph on Spark: each document's vertex names made in its task by the same code as
``baselinks graph`` (graph/names.py, graph/build.py's filters), then the counts added up, the
names in sorted order numbered (``zipWithIndex``) and the edges joined to them: the one-machine
command's graph, as DataFrames (Parquet), or written in Common Crawl's layout by the driver
(:func:`write_layout`: the same bytes as the one-machine files)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

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
from baselinks.graph.build import GraphOptions
from baselinks.graph.files import GraphFiles
from baselinks.run.batch import display_name
from baselinks.run.revisits import RevisitIndex
from baselinks.spark.links import Counters
from baselinks.spark.revisits import revisit_indexes

# One row per fact a task finds: "pair" (a: src, b: dst, links, pages), "name" (a: a vertex
# without any pair), "member" (a: a domain, b: one of its hosts: n_hosts).
_FACTS = StructType(
    [
        StructField("fact", StringType(), False),
        StructField("a", StringType(), False),
        StructField("b", StringType(), True),
        StructField("links", LongType(), False),
        StructField("pages", LongType(), False),
    ]
)
_IDS = StructType([StructField("name", StringType(), False), StructField("id", LongType(), False)])


def _file_facts(
    path: str,
    options: GraphOptions,
    counters: Counters | None,
    revisits: RevisitIndex | None = None,
) -> Iterator[Row]:
    """One file's facts (graph/build.py's _Builder.add, row by row); its errors printed on the
    executor's stderr and counted, and what it dropped and skipped. ``revisits``: its revisits'
    originals, found in all the files (spark/revisits.py)."""
    summary, errors = Summary(), [0]
    namer = options.namer()
    dropped: dict[str, int] = {}

    def report(error: InputError) -> None:
        errors[0] += 1
        print(f"baselinks: {printable(str(error))}", file=sys.stderr, flush=True)

    def unreadable(name: str, exc: Exception) -> None:
        report(InputError(describe(exc), name))

    try:
        with open_input(path) as stream:
            given = [(stream, display_name(path), True)]
            for page, names in iter_pages(
                given, namer, mode=options.mode, kinds=options.kinds, on_error=report,
                unreadable=unreadable, summary=summary, schemes=options.schemes,
                same_host=options.same_host, external=options.external, url=options.url,
                revisits=revisits if revisits is not None else RevisitIndex(),
            ):  # fmt: skip
                for reason, n in names.dropped:
                    dropped[f"link:{reason}"] = dropped.get(f"link:{reason}", 0) + n
                source, reason = (names.source, "") if names.source else namer.source(page)
                members = names.members or (() if names.source else namer.members(page))
                yield from (("member", *line.split("\t"), 0, 0) for line in members)
                if source is None:
                    dropped[f"document:{reason}"] = dropped.get(f"document:{reason}", 0) + 1
                    continue
                yield ("name", source, None, 0, 0)
                yield from (("pair", source, t.name, t.links, 1) for t in names.targets)
    except Exception as exc:  # no such file, a read failing midway: never the job
        report(InputError(describe(exc), path))
    if counters is not None:
        counters.files.add(1)
        counters.documents.add(summary.documents)
        counters.links.add(summary.links)
        counters.failed_files.add(1 if errors[0] or summary.failed else 0)
        counters.errors.add(errors[0])
        counters.warnings.add(summary.warnings)
        counters.skipped.add(dict(summary.skipped))
        if counters.dropped is not None:
            counters.dropped.add(dropped)


def build_graph(
    spark: SparkSession,
    paths: Iterable[str],
    *,
    level: str = "host",
    keep_www: bool = True,
    private_domains: bool = False,
    counters: Counters | None = None,
    options: GraphOptions | None = None,
) -> tuple[DataFrame, DataFrame]:
    """The link graph of the files, as ``baselinks graph`` makes it (the same files: tested):
    ``(vertices, edges)``, DataFrames of ``id``, ``name`` (at domain level in Common Crawl's
    layout, ``n_hosts`` too) and of ``src``, ``dst`` (with ``options.weights``, ``links`` and
    ``pages``): GraphFrames' columns. ``options`` (graph/build.GraphOptions): the level,
    filters and naming, as the one-machine command takes them (``level``, ``keep_www`` and
    ``private_domains`` are its older spelling).

    One task per file names each document's targets with the one-machine code; then Spark's
    own work, as cc-pyspark's ``hostlinks_to_graph.py``: the pairs' counts added up, the
    distinct names range-sorted and given IDs 0..n-1 by ``zipWithIndex`` (a sort across
    partitions: a window over all names would pull them into one), and two joins. Spark's
    string order is the UTF-8 bytes', Python's."""
    from pyspark.sql import functions as f

    paths = list(paths)
    if options is None:
        options = GraphOptions(level=level, keep_www=keep_www, private_domains=private_domains)
    options = options.checked()

    indexes = revisit_indexes(spark, paths)  # a revisit's original in another file

    def facts_of(given: Iterable[str]) -> Iterator[Row]:
        for path in given:
            yield from _file_facts(path, options, counters, indexes.get(display_name(path)))

    rows = spark.sparkContext.parallelize(paths, max(1, len(paths))).mapPartitions(facts_of)
    facts = spark.createDataFrame(rows, _FACTS).persist()
    pairs = facts.where(f.col("fact") == "pair")
    edges = pairs.groupBy("a", "b").agg(
        f.sum("links").alias("links"), f.sum("pages").alias("pages")
    )
    names = facts.select(f.col("a").alias("name"))
    names = names.union(pairs.select(f.col("b").alias("name"))).distinct()
    ranked = names.orderBy("name").rdd.map(lambda row: row[0]).zipWithIndex()
    ids = spark.createDataFrame(ranked, _IDS).persist()
    sources = ids.withColumnsRenamed({"name": "a", "id": "src"})
    targets = ids.withColumnsRenamed({"name": "b", "id": "dst"})
    columns = ["src", "dst", "links", "pages"] if options.weights else ["src", "dst"]
    joined = edges.join(sources, "a").join(targets, "b").select(*columns)
    vertices = ids.select("id", "name")
    if options.level == "domain" and options.form == "common-crawl":
        members = facts.where(f.col("fact") == "member").select("a", "b").distinct()
        hosts = members.groupBy(f.col("a").alias("name")).agg(f.count("b").alias("n_hosts"))
        vertices = ids.join(hosts, "name").select("id", "name", "n_hosts")
    return vertices.orderBy("id"), joined.orderBy("src", "dst")


def write_layout(
    vertices: DataFrame, edges: DataFrame, folder: str, options: GraphOptions
) -> list[Path]:
    """The graph written by the driver in ``folder`` as the one-machine command writes it
    (graph/files.py: Common Crawl's gzip files, the same bytes), its rows streamed in order
    from the executors (``toLocalIterator``), never all held."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    files = GraphFiles(
        target, options.form, work=target, weights=options.weights, name=options.name
    )
    try:
        hosts = "n_hosts" in vertices.columns
        for row in vertices.toLocalIterator():
            files.vertex(row["id"], row["name"], row["n_hosts"] if hosts else None)
        files.end_vertices()
        for row in edges.toLocalIterator():
            if options.weights:
                files.edge(row["src"], row["dst"], row["links"], row["pages"])
            else:
                files.edge(row["src"], row["dst"])
        return files.commit()
    except BaseException:
        files.discard()
        raise
