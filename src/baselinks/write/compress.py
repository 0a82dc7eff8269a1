"""-o NAME.gz, .bz2, .zst: the output compressed by its suffix's codec, as output.py opens it.

Standard library only: gzip and bz2, zstd from Python 3.14 (``compression.zstd``) or
``backports.zstd``, a dependency. Imported when an output is compressed.
"""

from __future__ import annotations

import io
import os
from typing import Any, BinaryIO, cast

__all__ = ["COMPRESSIONS", "Compressing", "compression"]


# -o NAME.gz, .bz2, .zst: compressed by the suffix's codec (a .jsonl.gz reads with zcat; the
# standard library's gzip and bz2, zstd from Python 3.14 or backports.zstd, a dependency)
COMPRESSIONS = (".gz", ".bz2", ".zst")


def compression(path: str | None) -> str | None:
    """The compression ``-o path`` asks for by its suffix (``.gz``, ``.bz2``, ``.zst``), or
    None; a device or ``/dev/stdout`` is written as it is."""
    if path is None:
        return None
    suffix = os.path.splitext(path)[1].lower()
    return suffix if suffix in COMPRESSIONS else None


def _compressor(suffix: str, under: BinaryIO) -> BinaryIO:
    if suffix == ".gz":
        import gzip

        # no file name or time in the header: the same links, the same bytes (gzip -n)
        return cast(BinaryIO, gzip.GzipFile(filename="", fileobj=under, mode="wb", mtime=0))
    if suffix == ".bz2":
        import bz2

        return cast(BinaryIO, bz2.BZ2File(under, "wb"))
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]  # 3.14+
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
    return cast(BinaryIO, zstd.ZstdFile(under, "wb"))


class Compressing(io.BufferedIOBase):
    """A compressor over a file: closing it ends the compressed stream, then the file (the
    compressors close only what they opened). ``flush`` waits for the end: gzip's would end a
    deflate block each time an error line is said."""

    def __init__(self, suffix: str, under: io.BufferedWriter) -> None:
        super().__init__()
        self.under = under
        self.compressor = _compressor(suffix, cast(BinaryIO, under))

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self.compressor.write(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        if not self.closed:
            try:
                self.compressor.close()
                self.under.close()
            finally:
                super().close()
