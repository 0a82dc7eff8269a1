"""-o NAME.gz, .bz2, .zst: the output compressed by its suffix (issue 30, item 4).

Each reads back (zcat, bzcat, zstd -d) to the bytes the plain file holds, whatever the format
and -j; Parquet, which compresses itself, refuses such a name.
"""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

import pytest

from baselinks.cli import main
from conftest import FIXTURES

WARC = str(FIXTURES / "containers" / "crawl.warc.gz")


def _zstd(data: bytes) -> bytes:
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
    return zstd.decompress(data)  # type: ignore[no-any-return]


OPENERS = {".gz": gzip.decompress, ".bz2": bz2.decompress, ".zst": _zstd}


@pytest.mark.parametrize("suffix", list(OPENERS))
@pytest.mark.parametrize("form", ["jsonl", "csv", "text"])
def test_a_compressed_name_holds_the_plain_bytes_compressed(
    tmp_path: Path, suffix: str, form: str
) -> None:
    plain, packed = tmp_path / f"links.{form}", tmp_path / f"links.{form}{suffix}"
    assert main(["extract", WARC, "--format", form, "-q", "-o", str(plain)]) == 0
    assert main(["extract", WARC, "--format", form, "-q", "-o", str(packed), "-j", "2"]) == 0
    data = packed.read_bytes()
    assert data != plain.read_bytes()
    assert OPENERS[suffix](data) == plain.read_bytes() and plain.stat().st_size > 100


def test_gzip_output_is_the_same_bytes_each_run(tmp_path: Path) -> None:
    # no name, no time in its header (as gzip -n): a rerun does not change the file
    one, two = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    for path in (one, two):
        assert main(["extract", WARC, "-q", "-o", str(path)]) == 0
    assert one.read_bytes() == two.read_bytes()


def test_parquet_refuses_a_compressed_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "links.parquet.gz"
    assert main(["extract", WARC, "--format", "parquet", "-o", str(target)]) == 2
    assert "compresses itself" in capsys.readouterr().err
    assert not target.exists()
