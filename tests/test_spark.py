"""baselinks.spark on a local Spark (local[2]): one task per file, the CLI's rows, damage counted.

pyspark is the `spark` extra; CI installs it and sets BASELINKS_REQUIRE_SPARK, so there these
tests run or fail, never skip. A new user's `pip install -e ".[test]"` has no pyspark: skipped.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks import MODES, InputError, Summary
from baselinks.cli import main
from baselinks.dataflow import ROW_FIELDS, iter_warc_links
from baselinks.write.schema import SQL_NAMES, utc_timestamp
from conftest import FIXTURES, extra, warc

pyspark_sql = extra("spark")
import baselinks.spark.driver as spark_driver  # noqa: E402
import baselinks.spark.links as spark_links  # noqa: E402
from baselinks.spark import SCHEMA, Counters, extract_links, to_pandas  # noqa: E402
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


def _as_spark(row: dict[str, Any]) -> dict[str, Any]:
    """A record as Spark's row holds it: ``offset`` named ``record_offset``, the date an
    instant (collected as Python does a TimestampType: naive, in the local zone)."""
    moment = utc_timestamp(row.get("date"))
    if "date" in row:
        row["date"] = None if moment is None else moment.astimezone().replace(tzinfo=None)
    return {SQL_NAMES.get(name, name): value for name, value in row.items()}


def _cli_rows(
    paths: list[str], capsys: pytest.CaptureFixture[str], *options: str
) -> list[dict[str, Any]]:
    local = [path.removeprefix("file://") for path in paths]
    main(["extract", "--format", "jsonl", *local, *options])
    out, _ = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    for row in rows:  # the CLI names a file as given; the URL was given to Spark
        for path, given in zip(local, paths, strict=True):
            if "document" in row and row["document"].startswith(path):
                row["document"] = given + row["document"][len(path) :]
                row["file"] = row["warc"] = given
    return [_as_spark(row) for row in rows]


def test_rows_are_the_cli_records_one_task_per_file(
    spark: Any, warcs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    counters = Counters.of(spark)
    frame = extract_links(spark, warcs, counters=counters)
    assert frame.schema == SCHEMA
    assert frame.rdd.getNumPartitions() == len(warcs)
    functions = pyspark_sql.functions
    collected = frame.withColumn("task", functions.spark_partition_id()).collect()
    assert str(counters) == (
        "4 files, 11 documents, 20 links; skipped 7 (2 warcinfo record, 2 request record, 1 not "
        "HTML, 1 revisit record, 1 metadata record); 1 revisit without its original in the "
        f"inputs ({warcs[0]}#http://example.com/a/page); 2 files failed (2 errors)"  # the CLI's
    )

    rows = [row.asDict() for row in collected]
    tasks = {row.pop("task"): row["warc"] for row in rows}
    assert sorted(tasks.values()) == sorted(set(warcs[:3]))  # each file in a task of its own
    assert rows == _cli_rows(warcs[:3], capsys)
    assert len(rows) == 20
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
    assert [row.asDict() for row in extract_links(spark, warcs).collect()] == [
        _as_spark(row._asdict()) for row in rows
    ]
    assert all(len(row) == len(ROW_FIELDS) for row in rows)
    assert [error.name for error in errors] == [
        f"{warcs[2]}#http://ex",  # the record cut short, named with its offset
        warcs[3],
    ]
    assert errors[1].message == "No such file or directory"
    assert (summary.documents, summary.links, summary.failed) == (11, 20, 2)


def test_the_driver_writes_parquet_and_says_what_failed(
    spark: Any, warcs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "manifest.txt"
    manifest.write_text("# one path per line\n" + "\n".join(warcs[1:]) + "\n")
    output = tmp_path / "links.parquet"
    status = spark_main([warcs[0], "--manifest", str(manifest), "--output", str(output)])
    _, err = capsys.readouterr()
    assert status == 1  # a file failed; the others were written
    assert err.splitlines()[-1].startswith("baselinks: 4 files, 11 documents, 20 links; skipped ")
    assert " 2 files failed (2 errors); " in err.splitlines()[-1]
    written = spark.read.parquet(str(output))
    assert written.count() == 20
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
    # the filters' help is extract's (run/options.add_filters): nothing of its options the
    # driver has not (it had "any -j" in --unique=run's)
    assert re.search(r"(^|[\s(])(-j|--jobs)\b", help_text) is None
    options = {
        option for action in spark_driver._parser()._actions for option in action.option_strings
    }
    assert set(re.findall(r"(?<![\w-])--[a-z][\w-]*", help_text)) <= options  # (--url was)


# --- issue 21, item 5: the driver as cc-pyspark's, the schema of the CLI's Parquet ------------


def _driver(warcs: list[str], output: Path | str, *options: str) -> tuple[int, list[str]]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = spark_main([*warcs, "--output", str(output), *options])
    return status, err.getvalue().splitlines()


def test_the_schema_is_the_record_s_and_the_cli_parquet_s(
    spark: Any, warcs: list[str], tmp_path: Path
) -> None:
    types = pyspark_sql.types
    assert SCHEMA["line"] == types.StructField("line", types.LongType(), True)  # 64 bits
    assert [field.name for field in SCHEMA.fields] == [SQL_NAMES.get(f, f) for f in ROW_FIELDS]
    assert SCHEMA["date"] == types.StructField("date", types.TimestampType(), True)
    parquet = extra("parquet")
    output, cli = tmp_path / "spark.parquet", tmp_path / "cli.parquet"
    assert _driver(warcs[:1], output)[0] == 0
    assert main(["extract", warcs[0], "--format", "parquet", "-o", str(cli), "-q"]) == 0
    written = parquet.read_table(output).schema.remove_metadata()
    assert (
        written.remove(written.get_field_index("warc"))
        == parquet.read_schema(cli).remove_metadata()
    )


def test_an_existing_output_is_one_line_before_spark_starts(
    warcs: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_spark(args: Any) -> Any:
        raise AssertionError("Spark was started")

    monkeypatch.setattr(spark_driver, "_session", no_spark)
    output = tmp_path / "links.parquet"
    output.mkdir()
    assert _driver(warcs[:1], output) == (
        2,
        [f"baselinks: {output}: exists (--overwrite replaces it)"],
    )
    assert _driver(warcs[:1], output.as_uri())[0] == 2  # a file:// URL is looked at too
    fsspec = extra("fsspec")  # a remote output: through fsspec (memory://, no network here)
    fsspec.filesystem("memory").mkdir("/out/links.parquet")
    try:
        assert _driver(warcs[:1], "memory://out/links.parquet") == (
            2,
            ["baselinks: memory://out/links.parquet: exists (--overwrite replaces it)"],
        )
    finally:
        fsspec.filesystem("memory").rm("/out", recursive=True)


def test_an_existing_output_spark_finds_is_one_line_too(
    spark: Any, warcs: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a remote output fsspec cannot look at (no driver, no credentials): Spark's own check
    monkeypatch.setattr(spark_driver, "_exists", lambda output: None)
    output = tmp_path / "links.parquet"
    output.mkdir()
    status, err = _driver(warcs[:1], output)
    assert status == 1
    [line] = err
    assert line.startswith(f"baselinks: {output}: [PATH_ALREADY_EXISTS] Path file:{output} ")


def test_overwrite_partitions_compression_and_the_counters_file(
    spark: Any, warcs: list[str], tmp_path: Path
) -> None:
    output = tmp_path / "links.parquet"
    output.mkdir()
    (output / "old.parquet").write_bytes(b"stale")
    options = ["--overwrite", "--num-output-partitions", "1", "--output-compression", "zstd"]
    status, err = _driver(warcs, output, *options)
    assert status == 1  # a file failed; the others were written
    assert err[-2:] == [
        f"baselinks: counters in {output}/_baselinks.json",
        err[-1],
    ] and err[-1].startswith("baselinks: 4 files, 11 documents, 20 links; skipped 7 ")
    [part] = sorted(output.glob("part-*"))  # one file, the old one gone
    assert part.name.endswith(".zstd.parquet")
    parquet = extra("parquet")
    metadata = parquet.ParquetFile(part).metadata
    assert metadata.num_rows == 20
    assert metadata.row_group(0).column(0).compression == "ZSTD"
    counters = json.loads((output / "_baselinks.json").read_text())
    seconds = counters.pop("seconds")
    assert counters == {
        "files": 4,
        "documents": 11,
        "links": 20,
        "failed_files": 2,
        "errors": 2,
        "warnings": 0,
        "skipped": {
            "request record": 2,
            "warcinfo record": 2,
            "not HTML (image/png)": 1,
            "revisit record (its original is not in the inputs)": 1,
            "metadata record": 1,
        },
        "unresolved": {f"{CONTAINERS / 'crawl.warc.gz'}#http://example.com/a/page": 1},
        "inputs": 4,
        "mode": "rfc1808",
    }
    assert err[-1].endswith(f"; {seconds:.1f} s")
    assert spark.read.parquet(str(output)).count() == 20  # _baselinks.json is no part of it
    # pandas on Spark's files (no pandas metadata in them): nullable integers when asked
    pandas = pytest.importorskip("pandas", reason="pandas comes with the spark extra")
    lines = pandas.read_parquet(output, dtype_backend="numpy_nullable")["line"]
    assert str(lines.dtype) == "Int64" and lines.isna().any() and lines.notna().any()


def test_cc_pyspark_spellings_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    args = spark_driver._parser().parse_args(
        ["--output", "o", "--log_level", "error", "--num_output_partitions", "3",
         "--output_compression", "GZIP"]
    )  # fmt: skip
    assert (args.log_level, args.num_output_partitions, args.output_compression) == (
        "ERROR",
        3,
        "gzip",
    )
    with pytest.raises(SystemExit):
        spark_driver._parser().parse_args(["--output", "o", "--output-compression", "lzo"])
    assert "invalid choice: 'lzo'" in capsys.readouterr().err


def test_to_pandas_keeps_integers_integers(spark: Any, warcs: list[str]) -> None:
    frame = extract_links(spark, warcs[:1])
    assert str(frame.toPandas()["line"].dtype) == "float64"  # Spark's own: why to_pandas is
    table = to_pandas(frame)
    assert str(table["line"].dtype) == "Int64"
    assert table["line"].isna().sum() == 4 and table["line"].dropna().tolist() == [2, 2, 1, 1, 1, 1]
    assert table["url"].tolist() == [row.url for row in frame.collect()]

    class Spark35:  # a DataFrame of pyspark 3.5: no toArrow
        schema = frame.schema

        def toPandas(self) -> Any:
            return frame.toPandas()

    assert to_pandas(Spark35())["line"].tolist() == table["line"].tolist()


@pytest.mark.slow
def test_the_driver_logs_at_warn_and_ends_with_its_summary(
    warcs: list[str], tmp_path: Path
) -> None:
    # a JVM of its own, as spark-submit or python -m would start it (the session here is running)
    command = [sys.executable, "-m", "baselinks.spark", "--master", "local[1]"]
    proc = subprocess.run(
        [*command, *warcs[:3], "--output", str(tmp_path / "links.parquet")],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = proc.stderr.splitlines()
    assert proc.returncode == 1, proc.stderr
    assert not [line for line in lines if " INFO " in line]
    assert "[Stage " not in proc.stderr  # no console progress bar to run into the summary
    assert lines[-2] == f"baselinks: counters in {tmp_path / 'links.parquet'}/_baselinks.json"
    assert lines[-1].startswith("baselinks: 3 files, 11 documents, 20 links; skipped 7 (")


def test_an_error_line_of_the_executor_is_escaped(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # issue 29: a WARC-Target-URI's ESC, BEL and U+202E reached the terminal raw
    hostile = "http://e.example/\x1b]0;owned\x07\u202e"
    data = warc([(hostile, "text/html", b"<a href=x>" + b" " * 100)], gzip=False)
    cut = tmp_path / "cut.warc"
    cut.write_bytes(data[: len(data) - 50])  # inside the record's block: named by its URI
    rows = list(
        spark_links._file_rows(
            str(cut), spark_links.Filters("rfc1808", None, False, None, False, False), None
        )
    )
    err = capfd.readouterr().err
    assert len(rows) == 1 and err.startswith("baselinks: ")
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert "\\x1b]0;owned\\x07\\u202e" in err


def test_feeds_sitemaps_and_robots_txt_records_on_spark(spark: Any) -> None:
    # issue 27: a WARC of what a crawler fetches first, its documents typed by their headers
    path = str(FIXTURES / "discovery" / "crawl-discovery.warc.gz")
    rows = [row.asDict() for row in extract_links(spark, [path]).collect()]
    assert rows == [_as_spark(row._asdict()) for row in iter_warc_links(path)]
    tags = {row["tag"] for row in rows}
    assert {"robots", "loc", "image:loc", "sitemap-text", "enclosure", "meta", "script"} <= tags


@pytest.mark.parametrize("which", ["missing", "directory"])
def test_a_manifest_that_cannot_be_read_is_one_line_and_exit_2(
    which: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_spark(args: Any) -> Any:
        raise AssertionError("Spark was started")

    monkeypatch.setattr(spark_driver, "_session", no_spark)
    manifest = tmp_path / "manifest.txt"
    if which == "directory":
        manifest.mkdir()
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = spark_main(["--manifest", str(manifest), "--output", str(tmp_path / "o")])
    reason = "No such file or directory" if which == "missing" else "Is a directory"
    assert (status, stderr.getvalue()) == (2, f"baselinks: --manifest {manifest}: {reason}\n")


# --- issue 30, item 5: the CLI's filters and fields, its summary's breakdown ----------------


@pytest.mark.parametrize(
    "options",
    [
        ["--kind", "resource"],
        ["--scheme", "https,file"],
        # the Content-Location header's two only: no other link of these files leaves its host
        ["--external"],
        ["--same-host", "--unique"],
        ["--unique=run"],
        ["--unique=run", "--fields", "page_url,url,offset,date"],
    ],
)
def test_the_filters_and_fields_give_the_cli_s_rows(
    spark: Any, warcs: list[str], options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = spark_driver._parser().parse_args([*warcs[:3], "--output", "o", *options])
    frame = extract_links(
        spark, warcs[:3], kinds=args.kinds, unique=args.unique or False, schemes=args.schemes,
        same_host=args.same_host, external=args.external, fields=args.fields,
    )  # fmt: skip
    rows = [row.asDict() for row in frame.collect()]
    expected = _cli_rows(warcs[:3], capsys, *options)
    if args.fields is None:
        assert rows == expected
    else:  # the CLI's fields, by name; Spark's columns as SQL names them
        assert list(rows[0]) == ["page_url", "url", "record_offset", "date"]
        assert rows == expected
    assert len(rows) < 20 and (rows or args.external)  # each one leaves some, keeps some


def test_the_driver_takes_the_filters(
    spark: Any, warcs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "links.parquet"
    status, err = _driver(warcs[:1], output, "--kind", "link", "--fields", "url,kind")
    assert status == 0 and err[-1].startswith("baselinks: 1 file, 5 documents, 7 links; skipped")
    written = spark.read.parquet(str(output))
    assert written.columns == ["url", "kind"]
    assert [row.asDict() for row in written.collect()] == _cli_rows(
        warcs[:1], capsys, "--kind", "link", "--fields", "url,kind"
    )
