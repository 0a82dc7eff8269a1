"""write: one writer per output format. Writers know :class:`Link` fields, nothing of HTML.

Each writer takes an iterable of links and a text stream, writes as it goes (nothing is held
back, so output streams), and returns how many links it wrote.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable
from typing import TextIO

from .api import FIELDS, Link

__all__ = ["WRITERS", "write_csv", "write_jsonl", "write_text", "write_tsv"]


def write_jsonl(links: Iterable[Link], out: TextIO) -> int:
    """One JSON object per line, every field of the record; ``problems`` is a list."""
    count = 0
    for link in links:
        out.write(json.dumps(link.as_dict(), ensure_ascii=False) + "\n")
        count += 1
    return count


def _row(link: Link) -> list[object]:
    record = link.as_dict()
    record["problems"] = " ".join(link.problems)
    record["line"] = "" if link.line is None else link.line
    return [record[field] for field in FIELDS]


def _write_delimited(links: Iterable[Link], out: TextIO, dialect: type[csv.Dialect]) -> int:
    writer = csv.writer(out, dialect=dialect)
    writer.writerow(FIELDS)
    count = 0
    for link in links:
        writer.writerow(_row(link))
        count += 1
    return count


def write_csv(links: Iterable[Link], out: TextIO) -> int:
    """RFC 4180 CSV with a header row; ``problems`` space-separated."""
    return _write_delimited(links, out, csv.excel)


class _TSV(csv.excel_tab):
    lineterminator = "\n"


def write_tsv(links: Iterable[Link], out: TextIO) -> int:
    """Tab-separated with a header row; a value holding a tab, newline or quote is quoted."""
    return _write_delimited(links, out, _TSV)


def write_text(links: Iterable[Link], out: TextIO) -> int:
    """The absolute URL, one per line."""
    count = 0
    for link in links:
        out.write(link.url + "\n")
        count += 1
    return count


WRITERS: dict[str, Callable[[Iterable[Link], TextIO], int]] = {
    "jsonl": write_jsonl,
    "csv": write_csv,
    "tsv": write_tsv,
    "text": write_text,
}
