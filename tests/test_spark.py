"""baselinks.spark on a local Spark (local[2]): one task per file, the CLI's rows, damage counted.

pyspark is the `spark` extra; CI installs it and sets BASELINKS_REQUIRE_SPARK, so there these
tests run or fail, never skip. A new user's `pip install -e ".[test]"` has no pyspark: skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks import MODES, InputError, Summary
from baselinks.cli import main
from baselinks.dataflow import ROW_FIELDS, iter_warc_links
from conftest import FIXTURES, extra, warc

pyspark_sql = extra("spark")
from baselinks.spark import SCHEMA, Counters, extract_links  # noqa: E402
from baselinks.spark import main as spark_main  # noqa: E402

CONTAINERS = FIXTURES / "containers"


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("baselinks-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Four inputs: a WARC with a <base> and a redirect, a generated one, a damaged one, and a
    path that does not exist."""
    folder = tmp_path_factory.mktemp("warcs")
    made = folder / "made.warc.gz"
    made.write_bytes(
        warc(
            (f"http://m.example/{n}/", "text/html", b'<base href="/b/"><a href="%d.html">' % n)
            for n in range(5)
        )
    )
    return [
        str(CONTAINERS / "crawl.warc.gz"),
        made.as_uri(),  # a file:// URL
        str(CONTAINERS / "crawl-truncated.warc.gz"),
        str(folder / "missing.warc.gz"),
    ]


def _cli_rows(paths: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    local = [path.removeprefix("file://") for path in paths]
    main(["extract", "--format", "jsonl", *local])
    out, _ = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    for row in rows:  # the CLI names a file as given; the URL was given to Spark
        for path, given in zip(local, paths, strict=True):
            if row["document"].startswith(path):
                row["document"] = given + row["document"][len(path) :]
                row["file"] = row["warc"] = given
    return rows


def test_rows_are_the_cli_records_one_task_per_file(
    spark: Any, warcs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    counters = Counters.of(spark)
    frame = extract_links(spark, warcs, counters=counters)
    assert frame.schema == SCHEMA
    assert frame.rdd.getNumPartitions() == len(warcs)
    functions = pyspark_sql.functions
    collected = frame.withColumn("task", functions.spark_partition_id()).collect()
    assert str(counters) == "4 files, 11 documents, 18 links; 2 files failed (2 errors)"

    rows = [row.asDict() for row in collected]
    tasks = {row.pop("task"): row["warc"] for row in rows}
    assert sorted(tasks.values()) == sorted(set(warcs[:3]))  # each file in a task of its own
    assert rows == _cli_rows(warcs[:3], capsys)
    assert len(rows) == 18
    # RFC 1808 §3.1: the page's <base> wins over the record's target URI
    made = [row for row in rows if row["warc"] == warcs[1]]
    assert [(row["url"], row["base_source"]) for row in made] == [
        (f"http://m.example/b/{n}.html", "content") for n in range(5)
    ]


def test_the_engine_free_rows_match_the_dataframe(spark: Any, warcs: list[str]) -> None:
    errors: list[InputError] = []
    summary = Summary()
    rows = [
        row
        for path in warcs
        for row in iter_warc_links(path, on_error=errors.append, summary=summary)
    ]
    assert [tuple(row) for row in extract_links(spark, warcs).collect()] == rows
    assert all(len(row) == len(ROW_FIELDS) for row in rows)
    assert [error.name for error in errors] == [
        f"{warcs[2]}#http://ex",  # the record cut short, named with its offset
        warcs[3],
    ]
    assert errors[1].message == "No such file or directory"
    assert (summary.documents, summary.links, summary.failed) == (11, 18, 2)


def test_the_driver_writes_parquet_and_says_what_failed(
    spark: Any, warcs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "manifest.txt"
    manifest.write_text("# one path per line\n" + "\n".join(warcs[1:]) + "\n")
    output = tmp_path / "links.parquet"
    status = spark_main([warcs[0], "--manifest", str(manifest), "--output", str(output)])
    _, err = capsys.readouterr()
    assert status == 1  # a file failed; the others were written
    assert err.splitlines()[-1].startswith(
        "baselinks: 4 files, 11 documents, 18 links; 2 files failed (2 errors); "
    )
    written = spark.read.parquet(str(output))
    assert written.count() == 18
    assert sorted(row.warc for row in written.select("warc").distinct().collect()) == sorted(
        warcs[:3]
    )
    assert spark.sparkContext._jsc is not None  # the caller's session was left running


def test_the_driver_offers_every_mode_of_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        spark_main(["--help"])
    assert exit_.value.code == 0
    help_text = capsys.readouterr().out
    assert f"--mode {{{','.join(MODES)}}}" in " ".join(help_text.split())
