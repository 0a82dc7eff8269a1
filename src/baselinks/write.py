"""write: one format per output kind. Formats know :class:`Link` fields, nothing of HTML.

A :class:`Format` is a header (written once) and a renderer that turns one document's links into
text. Rendering is a pure function of the links, so it can run where the links were made (a
worker process, with ``-j``) and the main process only writes. Each ``write_*`` function takes
an iterable of links and a text stream, writes as it goes (output streams), and returns how many
links it wrote. No format lets a value break its record: each renderer says what it escapes
(the README's "Output that cannot be forged" has them side by side).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TextIO

from .compiled import load as load_compiled
from .errors import BIDI, CONTROLS, printable
from .link import DEFAULT_FIELDS, FIELDS, ORIGIN_FIELDS, Link

__all__ = [
    "COLUMNAR",
    "FIELDED",
    "FORMATS",
    "WRITERS",
    "Format",
    "check_fields",
    "output_format",
    "utf8_render",
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


# The fallback encoder (the standard library's), and the reference the fast one is tested
# against: json.dumps(..., ensure_ascii=False) built a new JSONEncoder for each call (any
# non-default option does), which was half the cost of writing a record.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


# JSON escapes the C0 controls; these it may write as they are, and each breaks a line for some
# reader (Python's str.splitlines() splits at U+0085, U+2028 and U+2029; a terminal takes
# U+009B as CSI). Written as \uXXXX escapes they are the same JSON strings. They only occur
# inside strings (the keys are ASCII), so the substitution is on the encoded text.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _json_safe(text: str) -> str:
    """``text`` with :data:`_JSON_UNSAFE` escaped. The regular expression reads 130 MB/s; an
    ASCII text (most of them: ``isascii`` is a flag of the string) needs only DEL looked for."""
    if text.isascii() and "\x7f" not in text:
        return text
    return text if _JSON_UNSAFE.search(text) is None else _JSON_UNSAFE.sub(_json_escape, text)


def _json_lines(keys: tuple[str, ...], rows: Iterable[tuple[Any, ...]], end: str = "}\n") -> str:
    """One JSON object per row, ``keys`` and values in order, as ``json`` writes them (``", "``
    and ``": "`` between items, non-ASCII as it is); the standard library's encoder. ``end``:
    what ends each record after its last value (json's ``}`` and a newline)."""
    encode = _ENCODE
    return _json_safe(
        "".join([encode(dict(zip(keys, row, strict=True)))[:-1] + end for row in rows])
    )


# orjson writes 4 to 10 times as fast as json, in C with no Python step per record, but only
# compact (``{"a":1,"b":[2]}``) or indented two spaces a level; json's separators (``", "``,
# ``": "``), which the JSON Lines output has always had, are neither. So orjson is given no
# dict at all: one list of every record's values, indented (every newline orjson then writes
# is structure: a newline in a string is written \n, so each value is one ``,\n  `` after
# the item before it), with each key between them as an orjson.Fragment (bytes written as
# they are) holding json's separator: ``\x01, "raw":\x02``. Fragments begin with \x01 and
# end with \x02, which orjson writes in no string (a control is written \u0001), so two
# replacements make the records: ``,\n  \x01`` (a value, then a fragment) goes, and
# ``\x02,\n  `` (a fragment, then a value) is ``: ``'s space. After a record's last value the
# fragment holds its end and the next record's first key. A value nested deeper (a list or an
# object but the problems) leaves newlines more than one per record, and the records are then
# written by json; so does what orjson refuses (a lone surrogate, an int past 64 bits). C1
# controls, DEL and U+2028/9 orjson writes raw: escaped as above.
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")  # U+0080..U+009F in UTF-8 (a literal first byte)


def _orjson_lines(keys: tuple[str, ...], rows: Sequence[tuple[Any, ...]], end: str = "}\n") -> str:
    """:func:`_json_lines`'s text, from orjson."""
    count, width = len(rows), len(keys)
    if not count or _ORJSON is None:
        return _json_lines(keys, rows, end)
    dumps, fragment = _ORJSON
    first = f"{{{_ENCODE(keys[0])}:"  # {"url":
    try:
        values = list(chain.from_iterable(rows))
        if len(values) != width * count:  # a row of another width: json's error (zip's)
            return _json_lines(keys, rows, end)
        between = [fragment(f"\x01, {_ENCODE(key)}:\x02".encode()) for key in keys[1:]]
        tail = fragment(f"\x01{end}{first}\x02".encode())  # a lone surrogate: ValueError
        items = [None, *chain.from_iterable(zip(between, repeat(None))), tail] * count
        items[0::2] = values
        if "problems" in keys:  # the list as json writes it, once per distinct list
            at = 2 * keys.index("problems")
            items[at :: 2 * width] = map(_PROBLEMS.__getitem__, items[at :: 2 * width])
        items.insert(0, fragment(f"{first}\x02".encode()))
        data = dumps(items)
    except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError; a list unhashable
        return _json_lines(keys, rows, end)
    data = data.replace(b",\n  \x01", b"").replace(b"\x02,\n  ", b" ")
    # from the first record's "{" to the last one's end, less the "[\n  " and next "{"url":\x02\n]"
    text = str(memoryview(data)[4 : -(len(first.encode()) + 3)], "utf-8")
    if text.count("\n") != count * end.count("\n"):  # a value nested deeper than the problems
        return _json_lines(keys, rows, end)
    if text.isascii():
        return text if "\x7f" not in text else _JSON_UNSAFE.sub(_json_escape, text)
    if "\x7f" in text or "\u2028" in text or "\u2029" in text or _C1_UTF8.search(data):
        return _JSON_UNSAFE.sub(_json_escape, text)
    return text


class _Problems(dict[Any, Any]):
    """A problems tuple -> its JSON as json writes it, an orjson.Fragment; bounded."""

    def __missing__(self, problems: Any) -> Any:
        if len(self) >= 4096:  # codes come from a closed set; anything else stays bounded
            self.clear()
        assert _ORJSON is not None
        encoded = self[problems] = _ORJSON[1](_ENCODE(list(problems)))
        return encoded


_PROBLEMS = _Problems()


def _orjson() -> tuple[Callable[[Any], bytes], Callable[[str | bytes], Any]] | None:
    try:
        import orjson
    except ImportError:  # a dependency; without it, the standard library writes the same bytes
        return None
    return functools.partial(orjson.dumps, option=orjson.OPT_INDENT_2), orjson.Fragment


_ORJSON = _orjson()

# JSON Lines: orjson's, json's where orjson cannot be imported (the same bytes, tested)
_LINES = _json_lines if _ORJSON is None else _orjson_lines


# The compiled writer (_cjsonl.pyx), or None: not built, or BASELINKS_PURE=1 (compiled.py). It
# writes the bytes the Python writer below writes (tests/test_compiled_jsonl.py), in one pass
# over the links with no dict per record: on the corpus 0.5 µs a link against 3.4 µs. What it
# does not write (a lone surrogate, an int past 64 bits) it hands back, and Python writes it.
_cjsonl = load_compiled("baselinks._cjsonl")


def _prefixes(fields: tuple[str, ...]) -> tuple[bytes, ...]:
    """What comes before each value of a record: ``{"url": ``, ``, "raw": ``... (json's
    separators), as UTF-8."""
    return tuple(
        f"{', ' if at else '{'}{_ENCODE(name)}: ".encode() for at, name in enumerate(fields)
    )


_ALL = (tuple(range(len(FIELDS))), _prefixes(FIELDS))
_OWN = len(DEFAULT_FIELDS)  # a Link's own fields; its item _OWN is the Origin


def _compiled_jsonl(
    links: Sequence[Link], indexes: tuple[int, ...], prefixes: tuple[bytes, ...], utf8: bool = False
) -> Any:
    """The compiled writer's lines (fields ``indexes`` of FIELDS; a str, or with ``utf8`` its
    UTF-8 bytes), or None: not built, or the links hold what it leaves to Python."""
    return None if _cjsonl is None else _cjsonl.lines(links, indexes, prefixes, b"}\n", _OWN, utf8)


def _jsonl(links: Sequence[Link]) -> str:
    """One JSON object per line, every field of the record (:data:`~baselinks.link.FIELDS`,
    in order: the origin's too, null where one does not apply); ``problems`` is a list."""
    text: str | None = _compiled_jsonl(links, *_ALL)
    return _python_jsonl(links) if text is None else text


def _python_jsonl(links: Sequence[Link]) -> str:
    """:func:`_jsonl` in Python, the reference the compiled writer is tested against.

    The origin's six keys are the same for every link of a document (one Origin shared): they
    are encoded once per run of links that share it and written as the end of each record,
    after the link's twelve. On the corpus the six keys per link took the JSON Lines stage
    from 0.66 to 1.17 lxml parses when encoded with each link.
    """
    pieces = []
    start, count = 0, len(links)
    while start < count:
        origin = links[start].origin
        end = start + 1
        while end < count and links[end].origin is origin:
            end += 1
        rest = _LINES(ORIGIN_FIELDS, [origin])  # {"file": ..., "part": ...}\n
        twelve = list(map(_TWELVE, links[start:end]))
        pieces.append(_LINES(DEFAULT_FIELDS, twelve, ", " + rest[1:]))
        start = end
    return "".join(pieces)


_TWELVE = itemgetter(slice(0, len(DEFAULT_FIELDS)))


def _jsonl_fields(
    fields: tuple[str, ...],
    indexes: tuple[int, ...],
    prefixes: tuple[bytes, ...],
    links: Sequence[Link],
) -> str:
    """JSON Lines with the chosen fields only, in the order given (``indexes``: theirs in
    :data:`~baselinks.link.FIELDS`, ``prefixes``: :func:`_prefixes`)."""
    text: str | None = _compiled_jsonl(links, indexes, prefixes)
    return _python_jsonl_fields(fields, links) if text is None else text


def _python_jsonl_fields(fields: tuple[str, ...], links: Sequence[Link]) -> str:
    """:func:`_jsonl_fields` in Python, the reference."""
    rows = list(map(Link.values, links))  # the twelve, then the origin's six: FIELDS
    columns = [map(itemgetter(FIELDS.index(name)), rows) for name in fields]
    return _LINES(fields, list(zip(*columns, strict=True)))


def _jsonl_utf8(
    fields: tuple[str, ...],
    indexes: tuple[int, ...],
    prefixes: tuple[bytes, ...],
    links: Sequence[Link],
) -> bytes | str:
    """:func:`_jsonl_fields` as UTF-8 bytes, from the compiled writer; where it leaves the
    links to Python, the str (written as text: the same bytes)."""
    encoded: bytes | None = _compiled_jsonl(links, indexes, prefixes, utf8=True)
    return _python_jsonl_fields(fields, links) if encoded is None else encoded


def utf8_render(
    name: str, fields: Iterable[str] | None = None
) -> Callable[[Sequence[Link]], bytes | str]:
    """What a document's links become for a UTF-8 stream that takes bytes (the command line's
    output, through output.byte_writer): JSON Lines as UTF-8 bytes, from the compiled writer
    (no decoding to str, and no encoding again by the stream: on the corpus they took as long
    as writing the lines); a str where it leaves them to Python, and for every other format.
    A str and bytes of one batch are the same bytes on the stream (tested)."""
    render = output_format(name, fields).render  # the fields checked
    if name != "jsonl" or _cjsonl is None:
        return render
    chosen = FIELDS if fields is None else check_fields(fields)
    indexes = tuple(map(FIELDS.index, chosen))
    return functools.partial(_jsonl_utf8, chosen, indexes, _prefixes(chosen))


def _columns(links: Sequence[Link], indexes: tuple[int, ...]) -> list[Iterator[Any]]:
    """The values of the fields at ``indexes`` of FIELDS, a column each, over ``links``:
    problems space-separated. Iterators in C (itemgetter, map): nothing in Python per link."""
    columns: list[Iterator[Any]] = []
    for index in indexes:
        if index >= _OWN:  # the origin's
            columns.append(map(itemgetter(index - _OWN), map(itemgetter(_OWN), links)))
        elif index == _PROBLEMS_AT:
            columns.append(map(" ".join, map(itemgetter(index), links)))
        else:
            columns.append(map(itemgetter(index), links))
    return columns


_PROBLEMS_AT = FIELDS.index("problems")


def _texts(values: list[Any]) -> tuple[list[Any], str]:
    """A column's values as CSV and TSV write them ("" for None, str() of the rest), and
    their join (one pass of C to look at the whole column)."""
    try:
        return values, "".join(values)
    except TypeError:  # ints (line, offset), None
        values = ["" if value is None else str(value) for value in values]
        return values, "".join(values)


def _csv_quoted(value: str) -> str:
    if "," in value or '"' in value or "\r" in value or "\n" in value:
        return '"' + value.replace('"', '""') + '"'
    return value


def _render_csv(
    dialect: type[csv.Dialect],
    links: Sequence[Link],
    indexes: tuple[int, ...] = _ALL[0][:_OWN],
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
        special = "," in text or '"' in text or "\r" in text or "\n" in text
        columns.append(list(map(_csv_quoted, values)) if special else values)
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
    indexes = tuple(map(FIELDS.index, fields))
    return Format(buffer.getvalue(), functools.partial(_render_csv, dialect, indexes=indexes))


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


def _tsv_column(values: list[Any]) -> list[str]:
    """A column's values as TSV writes them: "" for None, str() of the rest, escaped. A
    column with nothing to escape is found with one join and one pass of C: ``isprintable``
    is false for every character _TSV_SPECIAL escapes but the backslash (tested); only a column
    with one of them, or one that is not printable, is escaped value by value."""
    values, text = _texts(values)
    if text.isprintable() and "\\" not in text:
        return values
    return list(map(_tsv_value, values))


def _tsv_lines(indexes: tuple[int, ...], links: Sequence[Link]) -> str:
    """One line per link, the fields at ``indexes`` of FIELDS tab-separated, each escaped
    (never quoted)."""
    if not links:
        return ""
    columns = [_tsv_column(list(column)) for column in _columns(links, indexes)]
    return "\n".join(map("\t".join, zip(*columns, strict=True))) + "\n"


_tsv = functools.partial(_tsv_lines, _ALL[0][:_OWN])


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
    percent-encode set"): ``a&#10;http://evil/`` stays one line, ``http://h/a%0Ahttp://evil/``."""
    search = _TEXT_ESCAPED.search
    return "".join(
        [
            (link.url if search(link.url) is None else _percent_encoded(link.url)) + "\n"
            for link in links
        ]
    )


# The table's fixed columns; the URL, of any length, comes last so that every row aligns while
# the output streams (a width taken from all the links would wait for the last of them).
_TABLE = "{:<9} {:<13} {:<22} {}\n"


def _cut(value: str, width: int) -> str:
    return value if len(value) <= width else value[: width - 1] + "\u2026"


def _table(links: Sequence[Link]) -> str:
    """Aligned columns for a person at a terminal: kind, base source, where, URL. Control
    characters are shown escaped (``\\x1b``, ``\\n``: :func:`~baselinks.errors.printable`)."""
    return "".join(
        _TABLE.format(
            link.kind,
            link.base_source,
            _cut(
                printable(f"{link.tag} {link.attr}") + (f" :{link.line}" if link.line else ""), 22
            ),
            printable(link.url) + (f"  [{' '.join(link.problems)}]" if link.problems else ""),
        )
        for link in links
    )


FORMATS: dict[str, Format] = {
    "jsonl": Format("", _jsonl),
    "csv": _csv(csv.excel),  # RFC 4180, a header row; problems space-separated
    # a header row; values escaped, never quoted
    "tsv": Format("\t".join(DEFAULT_FIELDS) + "\n", _tsv),
    "text": Format("", _text),
    "table": Format(_TABLE.format("KIND", "BASE", "FROM", "URL"), _table),
}


# The formats whose records are fields, and so can hold fewer (``fields=``, ``--fields``). The
# text format is the URL alone and the table a fixed layout for a person: neither takes them.
FIELDED = ("jsonl", "csv", "tsv")


def check_fields(fields: Iterable[str]) -> tuple[str, ...]:
    """The field names as a tuple, each one a field of :class:`Link` (else ``ValueError``
    naming the valid ones); at least one, none twice."""
    chosen = tuple(fields)
    unknown = [name for name in chosen if name not in FIELDS]
    if unknown or not chosen:
        what = f"unknown field(s) {', '.join(unknown)}" if unknown else "no field"
        raise ValueError(f"{what}: expected some of {', '.join(FIELDS)}")
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
    if name == "jsonl":
        indexes = tuple(map(FIELDS.index, chosen))
        return Format("", functools.partial(_jsonl_fields, chosen, indexes, _prefixes(chosen)))
    if name == "csv":
        return _csv(csv.excel, chosen)
    indexes = tuple(map(FIELDS.index, chosen))
    return Format("\t".join(chosen) + "\n", functools.partial(_tsv_lines, indexes))


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
