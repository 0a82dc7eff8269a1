"""baselinks.dataflow, the engine-free body of a Spark task: one file in, plain rows out."""

from __future__ import annotations

import io
import json
import pickle
import sys
import types
from pathlib import Path

import pytest

from baselinks import FIELDS, InputError, Summary, iter_warc_links
from baselinks.cli import main
from baselinks.dataflow import ROW_FIELDS
from conftest import FIXTURES, extra

CRAWL = FIXTURES / "containers" / "crawl.warc.gz"


def test_rows_are_the_records_the_cli_writes(capsys: pytest.CaptureFixture[str]) -> None:
    assert (*FIELDS, "warc") == ROW_FIELDS
    rows = list(iter_warc_links(str(CRAWL)))
    main(["extract", "--format", "jsonl", str(CRAWL)])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [dict(zip(ROW_FIELDS, row, strict=True)) for row in rows] == [
        {**record, "warc": str(CRAWL)} for record in records
    ]
    assert all(
        type(value) in (str, int, bool, list) for row in rows for value in row if value is not None
    )
    assert pickle.loads(pickle.dumps(rows)) == rows  # what an engine ships between processes


def test_a_file_url_is_read_as_the_local_file() -> None:
    by_path = list(iter_warc_links(CRAWL))
    by_url = list(iter_warc_links(CRAWL.as_uri()))
    assert [row[:7] for row in by_url] == [row[:7] for row in by_path]
    assert {row[-1] for row in by_url} == {CRAWL.as_uri()}


def test_damage_and_a_missing_file_are_named_errors(tmp_path: Path) -> None:
    errors: list[InputError] = []
    summary = Summary()
    truncated = FIXTURES / "containers" / "crawl-truncated.warc.gz"
    rows = list(iter_warc_links(truncated, on_error=errors.append, summary=summary))
    rows += iter_warc_links(tmp_path / "missing.warc.gz", on_error=errors.append, summary=summary)
    assert len(rows) == 5
    assert [str(error) for error in errors] == [
        f"{truncated}#http://ex: offset 847: record cut short inside its header, before "
        "Content-Length (file truncated?)",
        f"{tmp_path / 'missing.warc.gz'}: No such file or directory",
    ]
    assert summary.failed == 2
    with pytest.raises(InputError, match="No such file"):
        list(iter_warc_links(tmp_path / "missing.warc.gz"))  # without on_error: raised


def test_other_schemes_go_through_fsspec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fsspec", None)  # not installed
    with pytest.raises(
        InputError,
        match=r"s3://b/x\.warc\.gz: reading s3:// needs fsspec: pip install 'baselinks\[fsspec\]'",
    ):
        list(iter_warc_links("s3://b/x.warc.gz"))

    opened: list[str] = []

    class OpenFile:
        def __init__(self, url: str) -> None:
            self.url = url

        def open(self) -> io.BytesIO:
            opened.append(self.url)
            return io.BytesIO(CRAWL.read_bytes())

    fake = types.ModuleType("fsspec")
    fake.open = lambda url, mode: OpenFile(url)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fsspec", fake)
    rows = list(iter_warc_links("s3://b/x.warc.gz"))
    assert opened == ["s3://b/x.warc.gz"]
    assert [row[0] for row in rows] == [row[0] for row in iter_warc_links(CRAWL)]
    assert rows[0][7].startswith("s3://b/x.warc.gz#")


def test_a_remote_path_through_the_real_fsspec() -> None:
    fsspec = extra("fsspec")
    remote = "memory://bucket/crawl.warc.gz"  # fsspec's in-memory filesystem: no network
    with fsspec.open(remote, "wb") as file:
        file.write(CRAWL.read_bytes())
    try:
        rows = list(iter_warc_links(remote))
        local = list(iter_warc_links(CRAWL))
        assert len(rows) == len(local) == 10
        named = (ROW_FIELDS.index("document"), ROW_FIELDS.index("file"))  # the path read
        assert [row[:-1] for row in rows] == [
            tuple(
                value.replace(str(CRAWL), remote) if i in named else value
                for i, value in enumerate(row[:-1])
            )
            for row in local
        ]
        assert {row[-1] for row in rows} == {remote}
    finally:
        fsspec.filesystem("memory").rm("/bucket", recursive=True)
