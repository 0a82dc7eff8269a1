"""records: ``baselinks extract``'s own output read back as a graph's input, by its content.

    links.jsonl[.gz]   one JSON object a line, with at least ``url`` and ``page_url`` (extract's
                       default fields have both; ``--fields`` must keep them, and ``kind`` for
                       ``--kind``): each run of lines with the same ``document`` and
                       ``page_url`` is one document, as extract writes them
    links.parquet      the same columns (``--format parquet``; pyarrow, the parquet extra)

A file is recognised by its first bytes (gzip, ``PAR1``, ``{``), not its name. A document
without links is not in extract's output, so it is no vertex here (the archive read itself
makes it one). Each record is filtered by the graph's own filters (--kind, --scheme,
--same-host, --external: run/options.Keep, as extract applies them), so that the graph of
extract's output equals the graph of its inputs. A line that is no JSON object, or a file
without the two fields, is one error line naming the file (and line), never a silent
0 vertices; the lines before it are kept.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Collection, Iterator
from itertools import groupby
from typing import Any, BinaryIO, NamedTuple

from ..errors import InputError
from ..run.options import Keep

__all__ = ["Record", "is_links_file", "read_documents"]

_NEEDED = ("url", "page_url")
_PEEK = 4096


class Record(NamedTuple):
    """A link as extract wrote it: what a graph needs of it."""

    url: str
    page_url: str | None
    kind: str | None
    document: str | None


def _peek(path: str | os.PathLike[str]) -> bytes:
    try:
        with open(path, "rb") as opened:
            head = opened.read(_PEEK)
            if head[:2] == b"\x1f\x8b":
                opened.seek(0)
                with gzip.GzipFile(fileobj=opened) as unpacked:
                    return b"gz:" + unpacked.read(_PEEK)
            return head
    except (OSError, EOFError, gzip.BadGzipFile):
        return b""


def is_links_file(path: object) -> bool:
    """Whether ``path`` (a local file) holds extract's JSON Lines or Parquet, by content."""
    if not isinstance(path, str | os.PathLike) or not os.path.isfile(path):
        return False
    head = _peek(path)
    if head.startswith(b"PAR1"):
        return True
    text = head.removeprefix(b"gz:").lstrip()
    if not text.startswith(b"{"):
        return False
    first = text.split(b"\n", 1)[0]
    try:
        record = json.loads(first)
    except ValueError:
        return len(text) >= _PEEK and b'"url"' in first  # a first line longer than the peek
    return isinstance(record, dict) and "url" in record


def _jsonl(path: str, name: str, report: Callable[[InputError], None]) -> Iterator[Record]:
    opener: Any = gzip.open if _peek(path).startswith(b"gz:") else open
    stream: BinaryIO
    with opener(path, "rb") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                reason = getattr(exc, "msg", str(exc))
                report(InputError(f"line {number}: not JSON ({reason}): not read", name))
                continue
            if not isinstance(record, dict) or any(key not in record for key in _NEEDED):
                missing = "a JSON object" if not isinstance(record, dict) else "url and page_url"
                report(InputError(f"line {number}: not extract's record (no {missing})", name))
                if number == 1:
                    return  # a file of other records: one line for the file
                continue
            yield Record(record["url"], record["page_url"] or None, record.get("kind"),
                         record.get("document"))  # fmt: skip


def _parquet(path: str, name: str, report: Callable[[InputError], None]) -> Iterator[Record]:
    import pyarrow.parquet as pq

    table = pq.ParquetFile(path)
    columns = set(table.schema_arrow.names)
    if not set(_NEEDED) <= columns:
        report(InputError("not extract's Parquet (no url and page_url columns)", name))
        return
    wanted = [c for c in ("url", "page_url", "kind", "document") if c in columns]
    for batch in table.iter_batches(columns=wanted):
        rows = batch.to_pydict()
        size = batch.num_rows
        for i in range(size):
            yield Record(
                rows["url"][i],
                rows["page_url"][i] or None,
                rows["kind"][i] if "kind" in rows else None,
                rows["document"][i] if "document" in rows else None,
            )


def read_documents(
    path: str,
    name: str,
    report: Callable[[InputError], None],
    kinds: Collection[str] | None = None,
    keep: Keep | None = None,
) -> Iterator[tuple[str | None, list[Record], int]]:
    """Each document of extract's output at ``path``: its page URL, its records as the
    graph's filters keep them, and how many it had (before them)."""
    read = _parquet if _peek(path).startswith(b"PAR1") else _jsonl
    if kinds is not None and read is _jsonl:
        kinds = frozenset(kinds)
    try:
        records = read(path, name, report)
        for (_, page_url), group in groupby(records, key=lambda r: (r.document, r.page_url)):
            found = list(group)
            kept = found if kinds is None else [r for r in found if r.kind in kinds]
            if keep is not None:  # Keep reads a link's url alone: a Record has it
                kept = keep(kept, page_url or "")  # type: ignore[arg-type,assignment]
            yield page_url, kept, len(found)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        report(InputError(f"cut short or unreadable: {exc}", name))
