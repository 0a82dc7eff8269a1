"""The link graph on Spark (baselinks.spark.build_graph, the driver's --graph) equals the
one-machine command's (baselinks graph) on the same inputs: the same vertices with the same
IDs, the same edges, at each level; a damaged or missing file counted, the rest in the graph.

pyspark is the `spark` extra (CI requires it: these tests run or fail there, never skip).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from conftest import FIXTURES, extra

pyspark_sql = extra("spark")
from baselinks.spark import Counters, build_graph  # noqa: E402
from baselinks.spark import main as spark_main  # noqa: E402

CONTAINERS = FIXTURES / "containers"
INPUTS = [
    str(CONTAINERS / "crawl.warc.gz"),
    str(CONTAINERS / "crawl.wacz"),
    str(CONTAINERS / "dupes.warc.gz"),
    str(CONTAINERS / "example-wpull.warc.gz"),
    str(CONTAINERS / "IAH-20080430204825-00000-blackbook-truncated.arc"),
    str(CONTAINERS / "crawl-truncated.warc.gz"),  # damaged: its error counted
]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("baselinks-graph-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "3")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _one_machine(level: str, folder: Path) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    assert main(["graph", *INPUTS, "-q", "--level", level, "-o", str(folder)]) == 1
    vertices = [line.split("\t") for line in (folder / "vertices.tsv").read_text().splitlines()]
    edges = [line.split("\t") for line in (folder / "edges.tsv").read_text().splitlines()]
    return [(int(i), name) for i, name in vertices], [(int(s), int(d)) for s, d in edges]


@pytest.mark.parametrize("level", ["page", "host", "domain"])
def test_the_spark_graph_equals_the_one_machine_graph(
    spark: Any, level: str, tmp_path: Path
) -> None:
    counters = Counters.of(spark)
    vertices, edges = build_graph(spark, INPUTS, level=level, counters=counters)
    expected_vertices, expected_edges = _one_machine(level, tmp_path)
    assert [tuple(row) for row in vertices.collect()] == expected_vertices
    assert [tuple(row) for row in edges.collect()] == expected_edges
    assert len(expected_edges) > 0
    assert counters.files.value == len(INPUTS) and counters.failed_files.value == 1


def test_the_driver_writes_the_graph_beside_its_counters(spark: Any, tmp_path: Path) -> None:
    pq = extra("parquet")
    output = tmp_path / "graph"
    status = spark_main(
        [*INPUTS, "--graph", "host", "--output", str(output), "--num-output-partitions", "1"]
    )
    assert status == 1  # the damaged file
    expected_vertices, expected_edges = _one_machine("host", tmp_path / "one")
    vertices = pq.read_table(output / "vertices.parquet").to_pylist()
    edges = pq.read_table(output / "edges.parquet").to_pylist()
    assert [(row["id"], row["name"]) for row in vertices] == expected_vertices
    assert [(row["src"], row["dst"]) for row in edges] == expected_edges
    counters = json.loads((output / "_baselinks.json").read_text())
    assert (counters["graph"], counters["files"], counters["failed_files"]) == ("host", 6, 1)
