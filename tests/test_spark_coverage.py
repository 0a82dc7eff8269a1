"""Coverage on Spark (baselinks.spark.coverage) equals the one-machine command's on the same
WARC files: the same records, in the same order, value for value; and the DataFrame holds
them with the columns ``--format parquet`` writes.

pyspark is the `spark` extra (CI requires it: these tests run or fail there, never skip).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from baselinks.coverage import OUTPUT_FIELDS
from conftest import FIXTURES, extra

pyspark_sql = extra("spark")
from baselinks.spark.coverage import coverage_rows, coverage_table  # noqa: E402

INPUTS = [
    str(FIXTURES / "coverage" / "site.warc.gz"),
    str(FIXTURES / "containers" / "crawl.warc.gz"),
    str(FIXTURES / "containers" / "dupes.warc.gz"),  # revisits whose originals are elsewhere
    str(FIXTURES / "containers" / "example-wpull.warc.gz"),
    str(FIXTURES / "containers" / "IAH-20080430204825-00000-blackbook-truncated.arc"),
]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("baselinks-coverage-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "3")
        .config("spark.default.parallelism", "3")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _one_machine(tmp_path: Path) -> list[tuple[Any, ...]]:
    out = tmp_path / "coverage.jsonl"
    assert main(["coverage", *INPUTS, "-q", "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [tuple(_plain(r[name]) for name in OUTPUT_FIELDS) for r in records]


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.slow
def test_the_spark_records_equal_the_one_machine_records(spark: Any, tmp_path: Path) -> None:
    expected = _one_machine(tmp_path)
    found = [tuple(map(_plain, row)) for row in coverage_rows(spark, INPUTS).collect()]
    assert len(found) == len(expected) > 100
    assert found == expected
    captures = {row[OUTPUT_FIELDS.index("capture")] for row in found}
    assert captures == {"captured", "redirected", "error", "missing", "out-of-scope"}


def test_the_spark_table(spark: Any) -> None:
    frame = coverage_table(spark, INPUTS[:1])
    assert frame.columns == [
        "record_offset" if name == "offset" else name for name in OUTPUT_FIELDS
    ]
    types = dict(frame.dtypes)
    assert types["date"] == types["page_date"] == "timestamp"
    assert types["status"] == "bigint"
    rows = frame.where("capture = 'redirected'").select("raw", "final_url", "status").collect()
    assert ("old", "http://site.example/new", 200) in {tuple(row) for row in rows}
