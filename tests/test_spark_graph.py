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
from conftest import warc as _warc

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


FILTERS = [
    [],
    ["--kind", "link"],
    ["--kind", "resource"],
    ["--scheme", "https"],
    ["--scheme", "http,android-app"],
    ["--same-host"],
    ["--external"],
]


def _options(given: list[str]) -> dict[str, Any]:
    """The command line's filters as build_graph's and extract_links' keywords."""
    found: dict[str, Any] = {}
    for flag, value in zip(given, [*given[1:], None], strict=False):
        if flag == "--kind":
            found.setdefault("kinds", []).append(value)
        elif flag == "--scheme":
            found["schemes"] = tuple(str(value).split(","))
        elif flag in ("--same-host", "--external"):
            found[flag[2:].replace("-", "_")] = True
    return found


@pytest.mark.slow
@pytest.mark.parametrize("given", FILTERS, ids=lambda f: " ".join(f) or "none")
def test_every_filter_on_spark_as_on_one_machine(
    spark: Any, given: list[str], tmp_path: Path
) -> None:
    from baselinks.graph.build import GraphOptions
    from baselinks.spark import extract_links

    inputs = [*INPUTS, str(tmp_path / "apps.warc.gz")]
    (tmp_path / "apps.warc.gz").write_bytes(APPS)
    keywords = _options(given)
    kinds = keywords.pop("kinds", None)
    options = GraphOptions(level="host", weights=True, kinds=kinds and tuple(kinds), **keywords)
    vertices, edges = build_graph(spark, inputs, options=options)
    assert main(["graph", *inputs, "-q", "--weights", "-o", str(tmp_path / "one"), *given]) == 1
    one = tmp_path / "one"
    expected_vertices = [
        tuple(line.split("\t")) for line in (one / "vertices.tsv").read_text().splitlines()
    ]
    expected_edges = [
        tuple(line.split("\t")) for line in (one / "edges.tsv").read_text().splitlines()
    ]
    assert [(str(r[0]), r[1]) for r in vertices.collect()] == expected_vertices
    assert [tuple(str(v) for v in r) for r in edges.collect()] == expected_edges
    # and Spark's links with the filter are extract's
    frame = extract_links(spark, inputs, kinds=kinds, **keywords)
    urls = sorted(row["url"] for row in frame.select("url").collect())
    main(
        [
            "extract",
            *inputs,
            "-q",
            "--format",
            "tsv",
            "--fields",
            "url",
            "-o",
            str(tmp_path / "l.tsv"),
            *given,
        ]
    )
    assert urls == sorted((tmp_path / "l.tsv").read_text().splitlines()[1:])


APPS = _warc(
    [
        (
            "http://a.example.com/",
            "text/html",
            b'<a href="android-app://com.cnn.mobile.android.phone/x">app</a>'
            b'<img src="https://cdn.example.net/i.png"><a href="http://b.example.org/">b</a>'
            b'<a href="/same">same</a><a href="mailto:x@y.example">mail</a>',
        )
    ]
)


def test_weights_and_the_released_layout_from_the_driver(spark: Any, tmp_path: Path) -> None:
    """The driver writes Common Crawl's files itself: the same bytes as the one-machine
    command's; its summary says what the graph dropped."""
    output = tmp_path / "spark"
    argv = ["--graph", "domain", "--layout", "common-crawl", "--name", "cc-test", "--weights"]
    assert spark_main([*INPUTS, *argv, "--output", str(output)]) == 1  # the damaged file
    assert main(["graph", *INPUTS, "-q", "--level", "domain", "--layout", "common-crawl",
                 "--name", "cc-test", "--weights", "-o", str(tmp_path / "one")]) == 1  # fmt: skip
    for name in ("cc-test-vertices.txt.gz", "cc-test-edges.txt.gz"):
        assert (output / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


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
    # skipped and dropped counted, as the one-machine summary counts them
    assert counters["skipped"]["request record"] >= 1
    assert counters["dropped"]["link:self-loop"] > 0
