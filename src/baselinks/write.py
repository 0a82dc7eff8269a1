"""write: one format per output kind. Formats know :class:`Link` fields, nothing of HTML.

A :class:`Format` is a header (written once) and a renderer that turns one document's links into
text. Rendering is a pure function of the links, so it can run where the links were made (a
worker process, with ``-j``) and the main process only writes. Each ``write_*`` function takes
an iterable of links and a text stream, writes as it goes (output streams), and returns how many
links it wrote.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, TextIO

from .api import FIELDS, Link

__all__ = [
    "FORMATS",
    "WRITERS",
    "Format",
    "write_csv",
    "write_jsonl",
    "write_table",
    "write_text",
    "write_tsv",
]


class Format(NamedTuple):
    """An output format: what comes first, and how a batch of links is written."""

    header: str
    render: Callable[[Sequence[Link]], str]


# One encoder for every record: json.dumps(..., ensure_ascii=False) built a new JSONEncoder for
# each call (any non-default option does), which was half the cost of writing a record.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _jsonl(links: Sequence[Link]) -> str:
    """One JSON object per line, every field of the record; ``problems`` is a list."""
    encode = _ENCODE
    return "".join([encode(link.as_dict()) + "\n" for link in links])


def _row(link: Link) -> list[object]:
    record = link.as_dict()
    record["problems"] = " ".join(link.problems)
    record["line"] = "" if link.line is None else link.line
    return [record[field] for field in FIELDS]


class _TSV(csv.excel_tab):
    lineterminator = "\n"


def _render_delimited(dialect: type[csv.Dialect], links: Sequence[Link]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, dialect=dialect).writerows(_row(link) for link in links)
    return buffer.getvalue()


def _delimited(dialect: type[csv.Dialect]) -> Format:
    buffer = io.StringIO()
    csv.writer(buffer, dialect=dialect).writerow(FIELDS)
    # a partial of a module-level function pickles (a closure would not): it goes to workers
    return Format(buffer.getvalue(), functools.partial(_render_delimited, dialect))


def _text(links: Sequence[Link]) -> str:
    """The absolute URL, one per line."""
    return "".join(link.url + "\n" for link in links)


# The table's fixed columns; the URL, of any length, comes last so that every row aligns while
# the output streams (a width taken from all the links would wait for the last of them).
_TABLE = "{:<9} {:<13} {:<22} {}\n"


def _cut(value: str, width: int) -> str:
    return value if len(value) <= width else value[: width - 1] + "\u2026"


def _table(links: Sequence[Link]) -> str:
    """Aligned columns for a person at a terminal: kind, base source, where, URL."""
    return "".join(
        _TABLE.format(
            link.kind,
            link.base_source,
            _cut(f"{link.tag} {link.attr}" + (f" :{link.line}" if link.line else ""), 22),
            link.url + (f"  [{' '.join(link.problems)}]" if link.problems else ""),
        )
        for link in links
    )


FORMATS: dict[str, Format] = {
    "jsonl": Format("", _jsonl),
    "csv": _delimited(csv.excel),  # RFC 4180, a header row; problems space-separated
    "tsv": _delimited(_TSV),  # a header row; a value with a tab, newline or quote is quoted
    "text": Format("", _text),
    "table": Format(_TABLE.format("KIND", "BASE", "FROM", "URL"), _table),
}


def _writer(name: str) -> Callable[[Iterable[Link], TextIO], int]:
    header, render = FORMATS[name]

    def write(links: Iterable[Link], out: TextIO) -> int:
        out.write(header)
        count = 0
        for link in links:  # one at a time: the output streams as the links come
            out.write(render((link,)))
            count += 1
        return count

    write.__name__ = f"write_{name}"
    write.__doc__ = f"Write ``links`` to ``out`` as {name}; return how many were written."
    return write


write_jsonl = _writer("jsonl")
write_csv = _writer("csv")
write_tsv = _writer("tsv")
write_text = _writer("text")
write_table = _writer("table")

WRITERS: dict[str, Callable[[Iterable[Link], TextIO], int]] = {
    "jsonl": write_jsonl,
    "csv": write_csv,
    "tsv": write_tsv,
    "text": write_text,
    "table": write_table,
}
