"""wat: one WAT file per WARC on Spark, as Common Crawl makes them (``baselinks wat`` per file).

One task per file, as for the links: it writes the file's WAT into the output folder, named as
Common Crawl names it (``X.warc.gz`` → ``X.warc.wat.gz``), the bytes ``baselinks wat X -o
DIR/`` writes (its records' date the driver's, one for the job). A revisit's original in
another file is found first by Spark (spark/revisits.py). A local folder (or ``file://``)
every executor can write, or any scheme fsspec writes where it is installed on the executors.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any, BinaryIO, NamedTuple

from pyspark.sql import SparkSession

from baselinks.dataflow import local_path
from baselinks.errors import InputError, describe, printable
from baselinks.load.html5 import choose
from baselinks.run.batch import display_name
from baselinks.run.revisits import RevisitIndex
from baselinks.spark.links import Counters
from baselinks.spark.revisits import revisit_indexes
from baselinks.wat import WatOptions, WatSummary, wat_name, write_wat
from baselinks.wat.record import WatDate

__all__ = ["WatFile", "write_wats"]


class WatFile(NamedTuple):
    """One input's WAT: where it was written (None: it could not be), what it holds."""

    path: str
    wat: str | None
    records: int
    documents: int
    links: int
    errors: int


def _written(target: str) -> Any:
    """The stream a WAT is written to: a temporary file beside a local target (renamed over
    it at the end), else fsspec's file."""
    local = local_path(target)
    if local is None:
        import fsspec

        return fsspec.open(target, "wb")
    return _Atomic(local)


class _Atomic:
    def __init__(self, path: str) -> None:
        self.path = path
        descriptor, self.temporary = tempfile.mkstemp(
            prefix=".baselinks-", dir=os.path.dirname(path) or "."
        )
        self.stream: BinaryIO = os.fdopen(descriptor, "wb")

    def __enter__(self) -> BinaryIO:
        return self.stream

    def __exit__(self, kind: object, *rest: object) -> None:
        self.stream.close()
        if kind is None:
            os.chmod(self.temporary, 0o644)
            os.replace(self.temporary, self.path)
        else:
            os.unlink(self.temporary)


def _task(
    output: str, options: WatOptions, indexes: dict[str, RevisitIndex], counters: Counters | None
) -> Any:
    def wats(numbered: Iterable[tuple[int, str]]) -> Iterator[WatFile]:
        for _, path in numbered:
            label = display_name(path)
            target = f"{output.rstrip('/')}/{wat_name(label)}"
            errors = 0

            def report(error: InputError) -> None:
                nonlocal errors
                errors += 1
                print(f"baselinks: {printable(str(error))}", file=sys.stderr, flush=True)

            given = replace(options, revisits=indexes.get(label) or RevisitIndex())
            summary = WatSummary()
            written: str | None = target
            try:
                with _written(target) as stream:
                    summary = write_wat(
                        [(path, label)], stream, filename=wat_name(label), options=given,
                        on_error=report,
                    )  # fmt: skip
            except Exception as exc:  # a file that fails never fails the job
                report(InputError(describe(exc), target))
                written = None
            if counters is not None:
                counters.files.add(1)
                counters.documents.add(summary.documents)
                counters.links.add(summary.links)
                counters.failed_files.add(1 if errors else 0)
                counters.errors.add(errors)
            yield WatFile(path, written, summary.records, summary.documents, summary.links, errors)

    return wats


def write_wats(
    spark: SparkSession,
    paths: Sequence[str],
    output: str,
    *,
    additions: bool = False,
    mode: str = "rfc1808",
    parser: str | None = None,
    counters: Counters | None = None,
) -> list[WatFile]:
    """Write each file's WAT into the folder ``output`` (made if missing, on a local
    filesystem), one task per file; what each holds. Errors are printed on the executors'
    stderr and counted in ``counters``, never fatal."""
    paths = list(paths)
    local = local_path(output)
    if local is not None:
        os.makedirs(local, exist_ok=True)
    options = WatOptions(mode, choose(parser), additions, WatDate())
    indexes = revisit_indexes(spark, paths)
    numbered = spark.sparkContext.parallelize(list(enumerate(paths)), max(1, len(paths)))
    return numbered.mapPartitions(_task(output, options, indexes, counters)).collect()
