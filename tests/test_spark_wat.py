"""Spark: one WAT per WARC (the bytes ``baselinks wat -o DIR/`` writes), and revisits whose
original is in another file, for the links, the graph and the WATs alike."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from conftest import FIXTURES, extra

pyspark_sql = extra("spark")
from baselinks.spark import Counters, build_graph, extract_links  # noqa: E402
from baselinks.spark import main as spark_main  # noqa: E402
from baselinks.spark.wat import write_wats  # noqa: E402

DEDUP = FIXTURES / "containers" / "dedup"
SPLIT = [str(DEDUP / "round2.warc.gz"), str(DEDUP / "round1.warc.gz")]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("baselinks-wat-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_one_wat_per_warc_the_bytes_of_the_command(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the driver's date, one for the job
    paths = [*SPLIT, str(FIXTURES / "containers" / "crawl.warc.gz")]
    counters = Counters.of(spark)
    made = write_wats(spark, paths, str(tmp_path / "spark"), additions=True, counters=counters)
    assert [Path(one.wat).name for one in made if one.wat] == [
        "round2.warc.wat.gz",
        "round1.warc.wat.gz",
        "crawl.warc.wat.gz",
    ]
    assert main(["wat", *paths, "-o", f"{tmp_path / 'cli'}/", "-q", "--additions"]) == 0
    for one in made:
        name = Path(one.path).name.replace(".warc.gz", ".warc.wat.gz")
        assert (tmp_path / "spark" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert counters.files.value == 3 and counters.failed_files.value == 0


def test_a_revisits_original_in_another_file_gives_its_links(spark: Any) -> None:
    frame = extract_links(spark, SPLIT)
    revisited = {row["page_url"] for row in frame.collect() if row["revisit_of"]}
    assert revisited == {"http://a.example/", "http://b.example/x", "http://mirror.example/"}


def test_the_graph_of_the_deduplicated_crawl_is_the_full_ones(spark: Any) -> None:
    def edges(paths: list[str]) -> list[tuple[str, str]]:
        vertices, found = build_graph(spark, paths, level="host")
        names = {row["id"]: row["name"] for row in vertices.collect()}
        return [(names[row["src"]], names[row["dst"]]) for row in found.collect()]

    assert edges(SPLIT) == edges([str(DEDUP / "full.warc.gz")])


def test_the_driver_writes_wats(tmp_path: Path) -> None:
    output = tmp_path / "wats"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = spark_main([*SPLIT, "--wat", "--output", str(output), "--master", "local[2]"])
    assert status == 0, err.getvalue()
    assert sorted(p.name for p in output.iterdir()) == [
        "_baselinks.json",
        "round1.warc.wat.gz",
        "round2.warc.wat.gz",
    ]
