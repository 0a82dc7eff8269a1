"""Issue 21, item 4: ``--format parquet`` (the parquet extra), read back with pyarrow and compared
with JSON Lines record for record; the column types derived from the link record; row groups.

pyarrow is the `parquet` extra; CI installs it and sets BASELINKS_REQUIRE_PARQUET, so there these
tests run or fail. Without it, the one test that needs no pyarrow (the usage error naming the
install) still runs.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import baselinks
from baselinks.cli import main
from baselinks.resolve.link import DEFAULT_FIELDS, FIELDS, ORIGIN_FIELDS
from baselinks.write.schema import COLUMNS, SQL_NAMES, Column, column_types, columns, utc_timestamp
from conftest import FIXTURES, extra

CONTAINERS = FIXTURES / "containers"
# Every kind of input, damaged ones among them (their readable links are written too), and a
# page whose links carry problem codes and no line (a header link) beside ones with a line.
INPUTS = [
    str(CONTAINERS),
    str(FIXTURES / "html" / "base-late.html"),
    str(FIXTURES / "html"),
]


def _jsonl(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    main(["extract", "--format", "jsonl", "-q", *argv])
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()]


def _as_columns(record: dict[str, Any]) -> dict[str, Any]:
    """A JSON Lines record as its Parquet row: ``offset`` is ``record_offset``, ``date`` a
    UTC datetime."""
    return {
        SQL_NAMES.get(name, name): utc_timestamp(value) if name == "date" else value
        for name, value in record.items()
    }


def _parquet(path: Path) -> list[dict[str, Any]]:
    parquet = extra("parquet")
    return parquet.read_table(path).to_pylist()  # type: ignore[no-any-return]


# --- the column types: one place, the record's annotations ------------------------------------


def test_the_columns_are_the_record_fields_typed_by_its_annotations() -> None:
    assert tuple(column.field for column in COLUMNS) == FIELDS
    assert [column.name for column in COLUMNS if column.name != column.field] == ["record_offset"]
    types = {column.field: (column.type, column.nullable) for column in COLUMNS}
    assert types["line"] == ("int64", True)  # a link from an HTTP header has no line
    assert types["problems"] == ("strings", False)
    own = DEFAULT_FIELDS  # the link's twelve; then its document's Origin, flattened
    assert {types[name] for name in own if name not in ("line", "problems")} == {("string", False)}
    assert [types[name] for name in ORIGIN_FIELDS] == [
        ("string", True),  # file
        ("int64", True),  # offset: a WARC may pass 2 GiB
        ("int64", True),  # length
        ("string", True),  # record_id
        ("timestamp", True),  # date: WARC-Date, a UTC instant
        ("string", True),  # part
        ("string", True),  # page_url: None when no URL is known
        ("string", True),  # revisit_of: None for a record's own payload
    ]
    assert columns(["problems", "url", "offset"]) == (
        Column("problems", "strings", False, "problems"),
        Column("url", "string", False, "url"),
        Column("record_offset", "int64", True, "offset"),
    )


def test_a_field_added_to_the_record_is_a_column_with_no_other_line() -> None:
    # what a provenance field (issue 21, item 1) looks like: offsets and names that may be absent
    class Record(NamedTuple):
        url: str
        offset: int | None
        record_id: str | None
        codes: tuple[str, ...]

    assert column_types(Record) == {
        "url": ("string", False),
        "offset": ("int64", True),
        "record_id": ("string", True),
        "codes": ("strings", False),
    }

    class Odd(NamedTuple):
        url: str
        weight: float

    with pytest.raises(TypeError, match=r"Odd\.weight: no column type for <class 'float'>"):
        column_types(Odd)


# --- written by the CLI, read back ------------------------------------------------------------


def test_parquet_read_back_is_the_jsonl_record_for_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("parquet")  # the writer needs pyarrow (skipped, or with BASELINKS_REQUIRE_*, failed)
    output = tmp_path / "links.parquet"
    assert main(["extract", *INPUTS, "--format", "parquet", "-o", str(output), "-q"]) == 1
    capsys.readouterr()  # the damaged fixtures' error lines, the same in both runs
    rows = _parquet(output)
    expected = _jsonl(INPUTS, capsys)
    assert len(rows) == len(expected) > 400
    # same fields, order, values; line an int or None, problems a list, date a datetime
    assert rows == [_as_columns(record) for record in expected]
    assert any(row["date"] is not None for row in rows)
    assert any(row["line"] is None for row in rows) and any(row["problems"] for row in rows)


def test_the_schema_is_typed_as_the_spark_job_s(tmp_path: Path) -> None:
    parquet = extra("parquet")
    output = tmp_path / "links.parquet"
    assert main(["extract", str(FIXTURES / "html"), "--format", "parquet", "-o", str(output)]) == 0
    schema = parquet.read_schema(output)
    import pyarrow as pa

    assert schema.names == [SQL_NAMES.get(name, name) for name in FIELDS]
    assert schema.field("date").type == pa.timestamp("us", tz="UTC")
    assert schema.field("line").type == pa.int64() and schema.field("line").nullable
    assert schema.field("problems").type == pa.list_(pa.field("element", pa.string(), False))
    assert not schema.field("url").nullable and schema.field("url").type == pa.string()


def test_fields_choose_the_columns_and_their_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("parquet")
    output = tmp_path / "links.parquet"
    argv = [str(CONTAINERS / "crawl.warc.gz"), "--fields", "line,url,problems"]
    assert main(["extract", *argv, "--format", "parquet", "-o", str(output), "-q"]) == 0
    assert _parquet(output) == _jsonl(argv, capsys)
    assert list(_parquet(output)[0]) == ["line", "url", "problems"]
    argv[-1] = "offset,date"  # by the field's name; the column as SQL takes it
    assert main(["extract", *argv, "--format", "parquet", "-o", str(output), "-q"]) == 0
    assert _parquet(output) == [_as_columns(record) for record in _jsonl(argv, capsys)]
    assert list(_parquet(output)[0]) == ["record_offset", "date"]


def test_jobs_write_the_same_rows(tmp_path: Path) -> None:
    extra("parquet")
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    for output, jobs in ((one, "1"), (two, "2")):
        argv = ["extract", str(CONTAINERS), "--format", "parquet", "-o", str(output), "-q"]
        assert main([*argv, "-j", jobs]) == 1
    assert _parquet(one) == _parquet(two)


def test_unique_run_and_filters_apply_before_the_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("parquet")
    output = tmp_path / "links.parquet"
    argv = [str(CONTAINERS / "dupes.warc.gz"), "--external", "--unique=run"]
    assert main(["extract", *argv, "--format", "parquet", "-o", str(output), "-q"]) == 0
    rows = _parquet(output)
    assert rows == [_as_columns(record) for record in _jsonl(argv, capsys)] and len(rows) == 2


def test_pandas_reads_line_as_nullable_integers(tmp_path: Path) -> None:
    extra("parquet")
    pandas = pytest.importorskip("pandas", reason="pandas (the spark extra) is not installed")
    output = tmp_path / "links.parquet"
    assert main(["extract", str(CONTAINERS / "crawl.warc.gz"), "--format", "parquet", "-o",
                 str(output), "-q"]) == 0  # fmt: skip
    frame = pandas.read_parquet(output)
    assert str(frame["line"].dtype) == "Int64"  # not float64: a null is <NA>
    assert frame["line"].isna().sum() == 4 and frame["line"].dropna().tolist() == [2, 2, 1, 1, 1, 1]


def test_row_groups_keep_memory_to_one_group(tmp_path: Path) -> None:
    parquet = extra("parquet")
    from baselinks.write.parquet import ParquetSink

    links = baselinks.extract_links(CONTAINERS / "crawl.warc.gz")
    sink = ParquetSink(tmp_path / "links.parquet", row_group=4)
    waiting = []
    for start in (0, 3, 6, 9):  # documents of 3 links (the last of 1)
        sink.write(links[start : start + 3])
        waiting.append(sink.waiting)
    assert sink.close() == 10
    assert waiting == [3, 2, 1, 2]  # never a group's worth held: written as soon as it is whole
    metadata = parquet.ParquetFile(tmp_path / "links.parquet").metadata
    assert [metadata.row_group(n).num_rows for n in range(metadata.num_row_groups)] == [4, 4, 2]
    assert parquet.read_table(tmp_path / "links.parquet").to_pylist() == [
        _as_columns(link.as_dict()) for link in links
    ]


def test_the_library_writer_to_a_stream_and_to_a_path(tmp_path: Path) -> None:
    parquet = extra("parquet")
    from baselinks.write.parquet import write_parquet

    links = baselinks.extract_links(CONTAINERS / "crawl.warc.gz")
    stream = io.BytesIO()
    assert write_parquet(links, stream, fields=["url"]) == 10
    assert parquet.read_table(stream).column("url").to_pylist() == [link.url for link in links]
    assert write_parquet(iter(links), tmp_path / "all.parquet") == 10
    assert parquet.read_table(tmp_path / "all.parquet").to_pylist() == [
        _as_columns(link.as_dict()) for link in links
    ]


def test_written_to_a_pipe(tmp_path: Path) -> None:
    parquet = extra("parquet")
    command = [sys.executable, "-m", "baselinks", "extract", "--format", "parquet", "-q"]
    proc = subprocess.run(
        [*command, str(CONTAINERS / "crawl.warc.gz")], capture_output=True, check=False
    )
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout.startswith(b"PAR1") and proc.stdout.endswith(b"PAR1")
    assert parquet.read_table(io.BytesIO(proc.stdout)).num_rows == 10


# --- refused --------------------------------------------------------------------------------


def test_refused_to_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    extra("parquet")
    controller, terminal = os.openpty()
    try:
        argv = ["extract", str(CONTAINERS / "crawl.warc.gz"), "--format", "parquet"]
        assert main([*argv, "-o", os.ttyname(terminal)]) == 2
    finally:
        os.close(controller)
        os.close(terminal)
    assert capsys.readouterr().err == (
        "baselinks: --format parquet writes a binary file: give -o FILE, or redirect the output\n"
    )


def test_without_pyarrow_a_usage_error_names_the_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "pyarrow"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow: ImportError
    output = tmp_path / "links.parquet"
    argv = ["extract", str(CONTAINERS / "crawl.warc.gz"), "--format", "parquet"]
    assert main([*argv, "-o", str(output)]) == 2
    assert capsys.readouterr().err == (
        "baselinks: --format parquet needs pyarrow: pip install 'baselinks[parquet]'\n"
    )
    assert not output.exists() and os.listdir(tmp_path) == []  # no file, no temporary one


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full (Linux has one)")
def test_a_full_disk_is_one_line_naming_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    extra("parquet")
    argv = ["extract", str(CONTAINERS / "crawl.warc.gz"), "--format", "parquet", "-q"]
    assert main([*argv, "-o", "/dev/full"]) == 1
    assert capsys.readouterr().err == "baselinks: /dev/full: No space left on device\n"


# --- plain SQL: column names no engine reserves, date a timestamp ----------------------------


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2017-03-01T12:00:00Z", "2017-03-01T12:00:00+00:00"),  # WARC 1.0 §5.4
        ("2017-03-01T12:00:00.123456Z", "2017-03-01T12:00:00.123456+00:00"),  # WARC 1.1
        ("2017-03-01T14:00:00+02:00", "2017-03-01T12:00:00+00:00"),  # an offset: converted
        ("2017-03-01T12:00:00", "2017-03-01T12:00:00+00:00"),  # no zone: read as UTC
        ("2017-03-01", "2017-03-01T00:00:00+00:00"),
        ("yesterday", None),  # no date: null in the column, as written in the text formats
        ("", None),
    ],
)
def test_a_warc_date_is_a_utc_instant(text: str, instant: str | None) -> None:
    moment = utc_timestamp(text)
    assert (None if moment is None else moment.isoformat()) == instant


def test_duckdb_reads_every_column_with_plain_sql(tmp_path: Path) -> None:
    """Every column named without quotes, the date compared as a timestamp: what `offset`
    (reserved in DuckDB, Spark SQL with ANSI keywords, PostgreSQL) and a date as text did not
    allow."""
    duckdb = extra("duckdb")  # pyarrow too: the extra brings both
    output = tmp_path / "links.parquet"
    argv = ["extract", str(CONTAINERS / "crawl.warc.gz"), "--format", "parquet", "-q"]
    assert main([*argv, "-o", str(output)]) == 0
    names = ", ".join(column.name for column in COLUMNS)
    rows = duckdb.sql(f"SELECT {names} FROM '{output}'").fetchall()
    assert len(rows) == 10
    ((found,),) = duckdb.sql(
        f"SELECT count(*) FROM '{output}' WHERE date >= TIMESTAMPTZ '2000-01-01 00:00:00+00' "
        "AND record_offset IS NOT NULL"
    ).fetchall()
    assert found == sum(link.offset is not None for link in baselinks.extract_links(
        CONTAINERS / "crawl.warc.gz"))  # fmt: skip
    for word in (column.name for column in COLUMNS):  # none is a reserved word to DuckDB
        category = duckdb.sql(
            f"SELECT keyword_category FROM duckdb_keywords() WHERE keyword_name = '{word}'"
        ).fetchall()
        assert category in ([], [("unreserved",)], [("column_name",)], [("type_function",)])
