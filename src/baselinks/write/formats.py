"""write: one format per output kind. Formats know :class:`Link` fields, nothing of HTML.

A :class:`Format` is a header (written once) and a renderer that turns one document's links into
text. Rendering is a pure function of the links, so it can run where the links were made (a
worker process, with ``-j``) and the main process only writes. Each ``write_*`` function takes
an iterable of links and a text stream, writes as it goes (output streams), and returns how many
links it wrote. No format lets a value break its record: each renderer says what it escapes
(docs/guide/failures.md, "Output that cannot be forged", has them side by side).
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TextIO, TypeVar, cast

from ..errors import BIDI, CONTROLS, SCALAR, printable
from ..resolve.link import (
    CHOOSABLE,
    COMPUTED_FIELDS,
    DEFAULT_FIELDS,
    FIELDS,
    ORIGIN_AT,
    Link,
    computed,
)
from . import jsonl

__all__ = [
    "COLUMNAR",
    "FIELDED",
    "FORMATS",
    "MAX_OUTPUT_RATIO",
    "MIN_OUTPUT_BYTES",
    "WRITERS",
    "Format",
    "check_fields",
    "output_budget",
    "output_format",
    "rendered_within",
    "utf8_render",
    "write_csv",
    "write_jsonl",
    "write_table",
    "write_text",
    "write_tsv",
]


T = TypeVar("T")


class Format(NamedTuple):
    """An output format: what comes first, and how a batch of links is written."""

    header: str
    render: Callable[[Sequence[Link]], str]


def utf8_render(
    name: str, fields: Iterable[str] | None = None
) -> Callable[[Sequence[Link]], bytes | str]:
    """What a document's links become for a UTF-8 stream that takes bytes (the command line's
    output, through output.byte_writer): JSON Lines as UTF-8 bytes, from the compiled writer
    (no decoding to str, and no encoding again by the stream: on the corpus they took as long
    as writing the lines); a str where it leaves them to Python, and for every other format.
    A str and bytes of one batch are the same bytes on the stream (tested)."""
    render = output_format(name, fields).render  # the fields checked
    if name != "jsonl" or not jsonl.compiled():
        return render
    chosen = FIELDS if fields is None else check_fields(fields)
    return _computing(chosen, jsonl.UTF8Lines(chosen, tuple(map(CHOOSABLE.index, chosen))))


def _computing(
    chosen: tuple[str, ...], render: Callable[[Sequence[Link]], T]
) -> Callable[[Sequence[Link]], T]:
    """``render``, or where ``chosen`` names computed fields (host, surt...), ``render`` of
    the records :func:`~baselinks.resolve.link.computed` makes: only then are they computed."""
    wanted = tuple(name for name in chosen if name in COMPUTED_FIELDS)
    if not wanted:
        return render
    return functools.partial(_rendered_computed, wanted, render)


def _rendered_computed(
    wanted: tuple[str, ...], render: Callable[[Sequence[Link]], T], links: Sequence[Link]
) -> T:
    return render(computed(wanted, links))


def _columns(links: Sequence[Link], indexes: tuple[int, ...]) -> list[Iterator[Any]]:
    """The values of the fields at ``indexes`` of FIELDS, a column each, over ``links``:
    problems space-separated. Iterators in C (itemgetter, map): nothing in Python per link."""
    columns: list[Iterator[Any]] = []
    for index in indexes:
        if index >= ORIGIN_AT:  # the origin's
            columns.append(map(itemgetter(index - ORIGIN_AT), map(itemgetter(ORIGIN_AT), links)))
        elif index == _PROBLEMS_AT:
            columns.append(map(" ".join, map(itemgetter(index), links)))
        else:
            columns.append(map(itemgetter(index), links))
    return columns


_PROBLEMS_AT = FIELDS.index("problems")
_TWELVE = tuple(range(len(DEFAULT_FIELDS)))  # the default columns


def _texts(values: list[Any]) -> tuple[list[Any], str]:
    """A column's values as CSV and TSV write them ("" for None, str() of the rest), and
    their join (one pass of C to look at the whole column)."""
    try:
        return values, "".join(values)
    except TypeError:  # ints (line, offset), None, bools (nofollow: as JSON writes them)
        values = [
            _BOOLS.get(value, "")
            if value is None or value is True or value is False
            else str(value)
            for value in values
        ]
        return values, "".join(values)


_BOOLS: dict[object, str] = {True: "true", False: "false"}


def _needs_quotes(text: str) -> bool:
    return "," in text or '"' in text or "\r" in text or "\n" in text


def _csv_quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"' if _needs_quotes(value) else value


def _render_csv(
    dialect: type[csv.Dialect],
    links: Sequence[Link],
    indexes: tuple[int, ...] = _TWELVE,
) -> str:
    """The rows, the fields at ``indexes`` of FIELDS. The excel dialect is written here a
    column at a time, as csv writes it (tested): its writer looks at each character with a
    call (10 µs a link on the corpus); only a column holding a comma, a quote, CR or LF is
    looked at value by value."""
    if dialect is not csv.excel:
        buffer = io.StringIO()
        csv.writer(buffer, dialect=dialect).writerows(zip(*_columns(links, indexes), strict=True))
        return buffer.getvalue()
    if not links:
        return ""
    columns = []
    for column in _columns(links, indexes):
        values, text = _texts(list(column))
        columns.append(list(map(_csv_quoted, values)) if _needs_quotes(text) else values)
    if len(columns) == 1:  # csv's row of one empty field: "" (an empty line would be no row)
        columns[0] = [value or '""' for value in columns[0]]
    return "\r\n".join(map(",".join, zip(*columns, strict=True))) + "\r\n"


def _csv(dialect: type[csv.Dialect], fields: tuple[str, ...] = DEFAULT_FIELDS) -> Format:
    """RFC 4180: a value holding a comma, a quote, CR or LF is quoted (a quote doubled)."""
    buffer = io.StringIO()
    csv.writer(buffer, dialect=dialect).writerow(fields)
    # a partial of a module-level function pickles (a closure would not): it goes to workers
    if fields == DEFAULT_FIELDS:
        return Format(buffer.getvalue(), functools.partial(_render_csv, dialect))
    indexes = tuple(map(CHOOSABLE.index, fields))
    render = functools.partial(_render_csv, dialect, indexes=indexes)
    return Format(buffer.getvalue(), _computing(fields, render))


# IANA text/tab-separated-values: "Note that fields that contain tabs are not allowable in
# this encoding". So a value is escaped, never quoted, as PostgreSQL's COPY text format does:
# \t \n \r and \\, the other C0 controls and DEL as \b \f \v or \xHH (COPY reads them all
# back). Every line then has exactly the header's fields for cut -f and awk -F'\t'. The C1
# controls (U+009B is a terminal's CSI), U+2028/U+2029 (line separators to some readers) and
# the bidi overrides are written as the \xHH of their UTF-8 bytes, which COPY reads back as
# those bytes, so the character round-trips and never reaches a terminal raw.
_TSV_SPECIAL = re.compile(rf"[{CONTROLS}{BIDI}\\]")
_TSV_NAMED = {
    "\\": "\\\\",
    "\t": "\\t",
    "\n": "\\n",
    "\r": "\\r",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
}


def _tsv_escape(match: re.Match[str]) -> str:
    char = match.group()
    return _TSV_NAMED.get(char) or "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8"))


def _tsv_value(value: object) -> str:
    text = str(value)
    return text if _TSV_SPECIAL.search(text) is None else _TSV_SPECIAL.sub(_tsv_escape, text)


_C0_DEL = bytes(range(0x20)) + b"\x7f"


def _printable(text: str, allow_backslash: bool = True) -> bool:
    """Whether ``text`` holds none of the characters TSV and the text format escape (none of
    errors.CONTROLS and BIDI is printable: tested), nor, unless ``allow_backslash``, a backslash. An
    ASCII text is looked at as bytes: bytes.translate reads six times as fast as isprintable."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _C0_DEL if allow_backslash else _C0_DEL + b"\\")) == len(
            data
        )
    return text.isprintable() and (allow_backslash or "\\" not in text)


def _tsv_column(values: list[Any]) -> list[str]:
    """A column's values as TSV writes them: "" for None, str() of the rest, escaped. A
    column with nothing to escape is found with one join and one pass of C: ``isprintable``
    is false for every character _TSV_SPECIAL escapes but the backslash (tested); only a column
    with one of them, or one that is not printable, is escaped value by value."""
    values, text = _texts(values)
    if _printable(text, allow_backslash=False):
        return values
    return list(map(_tsv_value, values))


def _tsv_lines(indexes: tuple[int, ...], links: Sequence[Link]) -> str:
    """One line per link, the fields at ``indexes`` of FIELDS tab-separated, each escaped
    (never quoted)."""
    if not links:
        return ""
    columns = [_tsv_column(list(column)) for column in _columns(links, indexes)]
    return "\n".join(map("\t".join, zip(*columns, strict=True))) + "\n"


_tsv = functools.partial(_tsv_lines, _TWELVE)


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8"))


# What the text format percent-encodes: the controls and line separators (errors.CONTROLS),
# and the bidirectional embeddings, overrides and isolates, which reorder what a terminal shows
# (`http://e.com/\u202egnp.exe` reads as ...exe.png; errors.printable escapes the same ones).
_TEXT_ESCAPED = re.compile(rf"[{CONTROLS}{BIDI}]")


def _percent_encoded(url: str) -> str:
    return _TEXT_ESCAPED.sub(_percent, url)


def _text(links: Sequence[Link]) -> str:
    """The absolute URL, one per line. A control character (or a line separator, or a bidi
    override) in a URL is percent-encoded, as a URL serializer would (WHATWG URL "C0 control
    percent-encode set"): ``a&#10;http://evil/`` stays one line, ``http://h/a%0Ahttp://evil/``.
    URLs that are all printable (none of those is: tested) are joined at once."""
    urls = list(map(itemgetter(0), links))
    if urls and _printable("".join(urls)):
        return "\n".join(urls) + "\n"
    search = _TEXT_ESCAPED.search
    return "".join(
        [
            (link.url if search(link.url) is None else _percent_encoded(link.url)) + "\n"
            for link in links
        ]
    )


# The table's fixed columns; the URL, of any length, comes last so that every row aligns while
# the output streams (a width taken from all the links would wait for the last of them).
_TABLE = "{:<9} {:<13} {:<24} {:<22} {}\n"


def _cut(value: str, width: int) -> str:
    return value if len(value) <= width else value[: width - 1] + "\u2026"


def _document(link: Link, width: int = 24) -> str:
    """The document's name in ``width`` characters: its file's name without the folders, then
    the record's URI or the part (``crawl.warc.gz#http://e.com/a``), cut at the start when too
    long: where names differ is their end (the page, the record), not their folder."""
    name, file = link.document, link.file
    if file and name.startswith(file):
        name = file.rstrip("/").rpartition("/")[2] + name[len(file) :]
    name = printable(name)
    return name if len(name) <= width else "\u2026" + name[len(name) - width + 1 :]


def _table(links: Sequence[Link]) -> str:
    """Aligned columns for a person at a terminal: kind, base source, the document it was found
    in, where in it, URL. Control characters are shown escaped (``\\x1b``, ``\\n``:
    :func:`~baselinks.errors.printable`)."""
    if not links:
        return ""
    first = _document(links[0])  # a batch is one document's links (an srcdoc's are named apart)
    return "".join(
        _TABLE.format(
            link.kind,
            link.base_source,
            first if link.document == links[0].document else _document(link),
            _cut(
                printable(f"{link.tag} {link.attr}") + (f" :{link.line}" if link.line else ""), 22
            ),
            printable(link.url) + (f"  [{' '.join(link.problems)}]" if link.problems else ""),
        )
        for link in links
    )


FORMATS: dict[str, Format] = {
    "jsonl": Format("", jsonl.lines),
    "csv": _csv(csv.excel),  # RFC 4180, a header row; problems space-separated
    # a header row; values escaped, never quoted
    "tsv": Format("\t".join(DEFAULT_FIELDS) + "\n", _tsv),
    "text": Format("", _text),
    "table": Format(_TABLE.format("KIND", "BASE", "DOCUMENT", "FROM", "URL"), _table),
}


# The formats whose records are fields, and so can hold fewer (``fields=``, ``--fields``). The
# text format is the URL alone and the table a fixed layout for a person: neither takes them.
FIELDED = ("jsonl", "csv", "tsv")


def check_fields(fields: Iterable[str]) -> tuple[str, ...]:
    """The field names as a tuple, each one a field of :class:`Link` or a computed one
    (:data:`~baselinks.resolve.link.CHOOSABLE`; else ``ValueError`` naming the valid ones); at
    least one, none twice."""
    chosen = tuple(fields)
    unknown = [name for name in chosen if name not in CHOOSABLE]
    if unknown or not chosen:
        what = f"unknown field(s) {', '.join(unknown)}" if unknown else "no field"
        raise ValueError(f"{what}: expected some of {', '.join(CHOOSABLE)}")
    if len(set(chosen)) < len(chosen):
        raise ValueError(f"a field named twice: {', '.join(chosen)}")
    return chosen


def output_format(name: str, fields: Iterable[str] | None = None) -> Format:
    """``FORMATS[name]``, or with ``fields`` the same format writing only those fields, in
    that order (jsonl, csv and tsv: :data:`FIELDED`)."""
    if fields is None:
        return FORMATS[name]
    chosen = check_fields(fields)
    if name not in FIELDED:
        raise ValueError(f"the {name} format has no fields to choose: use {', '.join(FIELDED)}")
    indexes = tuple(map(CHOOSABLE.index, chosen))
    if name == "jsonl":
        lines = functools.partial(jsonl.chosen_lines, chosen, indexes, jsonl.key_prefixes(chosen))
        return Format("", _computing(chosen, lines))
    if name == "csv":
        return _csv(csv.excel, chosen)
    return Format(
        "\t".join(chosen) + "\n", _computing(chosen, functools.partial(_tsv_lines, indexes))
    )


class Writer(Protocol):
    def __call__(
        self, links: Iterable[Link], out: TextIO, fields: Iterable[str] | None = None
    ) -> int: ...


def _writer(name: str) -> Writer:
    def write(links: Iterable[Link], out: TextIO, fields: Iterable[str] | None = None) -> int:
        header, render = output_format(name, fields)
        out.write(header)
        count = 0
        for link in links:  # one at a time: the output streams as the links come
            out.write(render((link,)))
            count += 1
        return count

    write.__name__ = f"write_{name}"
    write.__doc__ = f"Write ``links`` to ``out`` as {name}; return how many were written." + (
        " ``fields``: only these, in this order." if name in FIELDED else ""
    )
    return write


# One writer per format, derived: a format added to FORMATS has its writer (and its --format
# choice in the CLI) with no other line.
WRITERS: dict[str, Writer] = {name: _writer(name) for name in FORMATS}

write_jsonl = WRITERS["jsonl"]
write_csv = WRITERS["csv"]
write_tsv = WRITERS["tsv"]
write_text = WRITERS["text"]
write_table = WRITERS["table"]


# Formats of columns, written as bytes (never to a terminal): Parquet (parquet.py, the `parquet`
# extra; pyarrow is imported only when one is written). Fielded as jsonl, csv and tsv are; each
# is a ParquetSink over a path or a binary stream, fed the links a document at a time.
COLUMNAR = ("parquet",)


_R = TypeVar("_R")  # what a render makes of links: text, bytes, or the links


# A document's records, rendered (JSON Lines, CSV...), are held whole until they are written
# (run/batch.py: the main process writes a worker's in one piece): at most MAX_OUTPUT_RATIO
# times its bytes, or MIN_OUTPUT_BYTES when that is more. Without it an 80 KB page with a
# 40 KB <base> and 4,000 links (each record repeats its base: 80 KB a record) took 483 MB;
# iter_links, which hands out the links themselves, sharing their strings, streams the page
# in 26 MB and has no such limit.
MAX_OUTPUT_RATIO = 64
MIN_OUTPUT_BYTES = 16 << 20


def output_budget(size: int) -> int:
    """How many bytes of records a document of ``size`` bytes may make."""
    return max(MIN_OUTPUT_BYTES, MAX_OUTPUT_RATIO * size)


# Links rendered at a time past the first slice, at most: a slice is sized to about _STEP bytes.
_FIRST_SLICE = 256
_STEP = 1 << 20


def rendered_within(
    render: Callable[[list[Link]], _R], links: list[Link], budget: int
) -> tuple[_R, int]:
    """``render(links)``, and how many of ``links`` it holds: all, unless the text (or bytes)
    would pass ``budget``, then the first ones whose text stays within it. A render that makes
    no text (the links themselves, for iter_links or Parquet) is not measured. A render with a
    ``within(links, budget)`` (jsonl.UTF8Lines) measures itself as it writes: one pass."""
    within = getattr(render, "within", None)
    if within is not None:
        found = within(links, budget)
        if found is not None:
            return cast(tuple[_R, int], found)
    first = render(links[:_FIRST_SLICE])
    if len(links) <= _FIRST_SLICE:
        if isinstance(first, str | bytes) and len(first) > budget:
            return _within(render, links, budget)
        return first, len(links)
    if not isinstance(first, str | bytes):
        return render(links), len(links)
    average = len(first) / _FIRST_SLICE
    if average * len(links) <= budget / 2:  # nearly every document: one call more
        whole = render(links)
        if len(cast(str | bytes, whole)) <= budget:
            return whole, len(links)
    return _within(render, links, budget)


def _within(render: Callable[[list[Link]], _R], links: list[Link], budget: int) -> tuple[_R, int]:
    """The text of the first of ``links`` whose text stays within ``budget``, rendered a slice
    of about _STEP bytes at a time (never the whole, whose text is what is too large)."""
    pieces: list[str | bytes] = []
    size = done = 0
    step = 1
    while done < len(links):
        chosen = links[done : done + step]
        piece = cast(str | bytes, render(chosen))
        if size + len(piece) > budget:
            if step == 1:
                break
            step = max(1, step // 2)  # the last slice again, smaller, to the last link that fits
            continue
        pieces.append(piece)
        size += len(piece)
        done += len(chosen)  # (the last slice may be shorter than the step: 2,002 of 2,000)
        step = max(1, min(4096, int(step * _STEP / max(len(piece), 1))))
    if any(isinstance(piece, bytes) for piece in pieces):  # (a UTF-8 stream's: the same bytes)
        text: str | bytes = b"".join(
            p if isinstance(p, bytes) else p.encode("utf-8", SCALAR) for p in pieces
        )
    else:
        text = "".join(cast(list[str], pieces))
    return cast(_R, text), done
