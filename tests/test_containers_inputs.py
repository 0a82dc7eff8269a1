"""Containers: the inputs of a batch: a bad file, a directory that cannot be listed, and the
error type that names them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import baselinks
from baselinks import InputError
from baselinks.cli import main
from conftest import FIXTURES

HERE = FIXTURES / "containers"


def test_one_bad_file_never_stops_the_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for case in ("crawl-truncated.warc.gz", "mhtml-layers.mhtml", "unexpected_eof.mhtml"):
        (tmp_path / case).write_bytes((HERE / case).read_bytes())
    (tmp_path / "page_files").mkdir()
    (tmp_path / "page_files" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "page_files" / "app.js").write_bytes(b"var x = '<a href=no>';")
    assert main(["extract", str(tmp_path), "--format", "text"]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 5 + 7
    # the truncated WARC lost its end: a failure; the MHTML without its closing boundary
    # was read to its end: a warning
    assert captured.err.splitlines()[-1] == (
        "baselinks: 5 files, 5 documents, 12 links; skipped 4 (2 not a document, "
        "1 warcinfo record, 1 request record); 1 warning; 1 failed"
    )


def test_input_error_is_exported() -> None:
    assert baselinks.InputError is InputError
    assert issubclass(InputError, baselinks.BaselinksError)


def test_an_unlistable_directory_is_one_error_and_the_walk_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b.html").write_bytes(b"<a href=b>")
    real_walk = os.walk

    def walk(top: str, onerror: object = None) -> object:
        # what os.walk does for a directory it cannot list (chmod 0 does not stop root)
        assert callable(onerror)
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "a" / "closed")))
        return real_walk(top, onerror=onerror)

    monkeypatch.setattr("baselinks.cli.app.os.walk", walk)
    assert main(["extract", str(tmp_path), "--format", "text"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "b\n"
    assert captured.err.splitlines() == [
        f"baselinks: {tmp_path / 'a' / 'closed'}: Permission denied",
        "baselinks: 1 file, 1 document, 1 link; 1 link without a base (relative, as written): "
        "give --url or --root-url; 1 failed",
    ]
