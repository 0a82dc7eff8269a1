"""rows: records that are no :class:`~baselinks.resolve.link.Link` (a coverage record: a link
and more fields) written as formats.py writes links: JSON Lines, CSV, TSV, with the same
escaping, the same bytes for the same values (tests/test_coverage_output.py compares them).

A record is a tuple of values in the order of its field names: str, int, None, or a tuple of
str (``problems``: a JSON list; space-separated in CSV and TSV).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from typing import Any

# The escaping of each format is formats.py's and jsonl.py's, shared rather than copied: one
# place says what a TSV value or a JSON line may hold.
from .formats import _csv_quoted, _needs_quotes, _texts, _tsv_column
from .jsonl import _LINES

__all__ = ["ROW_FORMATS", "row_format"]

ROW_FORMATS = ("jsonl", "csv", "tsv")

Row = tuple[Any, ...]


def _columns(rows: Sequence[Row], width: int) -> list[list[Any]]:
    """The rows' values a column each, a tuple of strings (problems) space-separated."""
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[]] * width
    return [
        [" ".join(v) if isinstance(v, tuple) else v for v in column]
        if any(isinstance(v, tuple) for v in column)
        else column
        for column in columns
    ]


def _tsv(rows: Sequence[Row]) -> str:
    if not rows:
        return ""
    columns = [_tsv_column(column) for column in _columns(rows, len(rows[0]))]
    return "\n".join(map("\t".join, zip(*columns, strict=True))) + "\n"


def _csv(rows: Sequence[Row]) -> str:
    if not rows:
        return ""
    columns = []
    for column in _columns(rows, len(rows[0])):
        values, text = _texts(column)
        columns.append(list(map(_csv_quoted, values)) if _needs_quotes(text) else values)
    if len(columns) == 1:  # csv's row of one empty field: "" (an empty line would be no row)
        columns[0] = [value or '""' for value in columns[0]]
    return "\r\n".join(map(",".join, zip(*columns, strict=True))) + "\r\n"


def row_format(name: str, keys: tuple[str, ...]) -> tuple[str, Callable[[Sequence[Row]], str]]:
    """The header and the renderer of rows of ``keys`` in the format ``name`` (of
    :data:`ROW_FORMATS`)."""
    if name == "jsonl":
        return "", lambda rows: _LINES(keys, rows) if rows else ""
    if name == "tsv":
        return "\t".join(keys) + "\n", _tsv
    if name == "csv":
        buffer = io.StringIO()
        csv.writer(buffer).writerow(keys)
        return buffer.getvalue(), _csv
    raise ValueError(f"unknown format {name!r}: expected one of {', '.join(ROW_FORMATS)}")
