"""Rows for dataflow engines (Spark, Dask, Beam...): one file in, plain rows out, streamed.

An engine runs one task per WARC file (a gzip WARC cannot be split), and a task needs rows it
can ship: tuples of strings, ints and a list of strings, never lxml objects. This module is that
task's body and knows no engine; :mod:`baselinks.spark` wraps it for Spark.

    for row in iter_warc_links("crawl.warc.gz", on_error=print):
        ...  # a LinkRow, a named tuple: row.url, row.page_url, row.offset... (url, raw, base,
             #  base_source, tag, attr, line, document, text, rel, kind, problems, file,
             #  offset, length, record_id, date, part, page_url, warc): the fields of
             #  ``baselinks extract``, then the path read

The rows are the records ``baselinks extract`` writes for that file, in the same order.
"""

from __future__ import annotations

import os
from collections import namedtuple
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, Literal

from .api import iter_links
from .errors import InputError, InputWarning, raise_first
from .resolve.link import FIELDS
from .run.batch import Summary, display_name
from .run.inputs import local_path, open_input  # here for spark.py and older callers
from .run.revisits import RevisitIndex
from .url.resolve import Mode

__all__ = ["ROW_FIELDS", "LinkRow", "Row", "iter_warc_links", "local_path", "open_input"]

ROW_FIELDS = (*FIELDS, "warc")  # the link's fields, then the path or URL of the file read
# problems is a list in a row (an engine's array), a tuple in the record; wherever it stands,
# fields added to the record after it (provenance) keep their places
_PROBLEMS = FIELDS.index("problems")
Row = tuple[Any, ...]
# A row with its names (row.url, row.page_url): a named tuple, a plain tuple to an engine (Spark
# takes it as one). Made from ROW_FIELDS, so that a field added to the record is one here too.
LinkRow = namedtuple("LinkRow", ROW_FIELDS)  # type: ignore[misc]


def iter_warc_links(
    path: str | os.PathLike[str],
    *,
    mode: Mode = "rfc1808",
    kinds: Collection[str] | None = None,
    unique: bool | Literal["document"] = False,
    on_error: Callable[[InputError], None] | None = None,
    summary: Summary | None = None,
    schemes: Iterable[str] | None = None,
    same_host: bool = False,
    external: bool = False,
    on_warning: Callable[[InputWarning], None] | None = None,
    parser: str | None = None,
    revisits: bool | RevisitIndex = True,
) -> Iterator[Row]:
    """Every link of the file at ``path`` (a WARC, or anything ``baselinks extract`` reads), as
    a :class:`LinkRow` of :data:`ROW_FIELDS` (a named tuple: ``row.url``, ``row.page_url``),
    streamed record by record in bounded memory. ``kinds``, ``unique`` (in each document),
    ``schemes``, ``same_host``, ``external``: :func:`~baselinks.iter_links`' filters.

    Damage goes to ``on_error`` and the rest of the file is still read; a file that cannot be
    opened at all is one :class:`InputError` naming it. Without ``on_error``, the first error is
    raised after the last row. ``summary`` counts documents, links and failures; an oddity
    repaired goes to ``on_warning`` (:class:`~baselinks.InputWarning`). ``parser``: "html5" or
    "lxml" (:func:`baselinks.iter_links`). ``revisits``: as :func:`~baselinks.iter_links`'
    (an engine hands each file's task the originals it found in all the files).
    """
    given = os.fspath(path)
    name = display_name(given)  # a file name that is not UTF-8: its bytes shown as \xNN
    errors: list[InputError] = []
    report = errors.append if on_error is None else on_error
    tally = summary if summary is not None else Summary()
    # a path, or a URL (run/inputs.py: file://, or through fsspec), opened as the CLI opens it
    links = iter_links(
        given, name=name, mode=mode, kinds=kinds, unique=unique, on_error=report, summary=tally,
        schemes=schemes, same_host=same_host, external=external, on_warning=on_warning,
        parser=parser, revisits=revisits,
    )  # fmt: skip
    for link in links:
        values = link.values()  # the link's own, then the origin's seven (link.FIELDS)
        problems = list(link.problems)
        yield _row((*values[:_PROBLEMS], problems, *values[_PROBLEMS + 1 :], name))
    raise_first(errors)


_row = LinkRow._make
