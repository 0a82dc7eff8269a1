"""jsonl: the JSON Lines writers of formats.py, three that write the same bytes (tested).

    the compiled writer   _cjsonl.pyx: one pass over the links into one UTF-8 buffer, where built
    orjson                the Python writer, and the reference the compiled one is tested against
    json                  the standard library's, where orjson cannot be imported

Each record is one line: the keys and values as ``json.dumps(record, ensure_ascii=False)``
writes them (``", "`` and ``": "`` between items), then DEL, the C1 controls and U+2028/U+2029
written as ``\\u00XX`` (each breaks a line for some reader). tests/test_jsonl.py holds the Python
writers to that reference character by character, tests/test_compiled_jsonl.py the compiled one
to them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from ..compiled import load as load_compiled
from ..resolve.link import CHOOSABLE, FIELDS, ORIGIN_AT, ORIGIN_FIELDS, OWN_FIELDS, Link

__all__ = ["UTF8Lines", "chosen_lines", "compiled", "key_prefixes", "lines", "utf8_lines"]


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
            items[at :: 2 * width] = map(_problems_json, items[at :: 2 * width])
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


@functools.lru_cache(maxsize=4096)  # codes come from a closed set; anything else stays bounded
def _problems_json(problems: tuple[str, ...]) -> Any:
    """A problems tuple -> its JSON as json writes it, an orjson.Fragment."""
    assert _ORJSON is not None
    return _ORJSON[1](_ENCODE(list(problems)))


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
# over the links with no dict per record: the corpus's links in 505 M instructions against
# orjson's 1,954 M (0.14 and 0.55 lxml parses; bench_write.py --callgrind). What it does not
# write (a lone surrogate, an int past 64 bits) it hands back, and Python writes it.
_cjsonl = load_compiled("baselinks.write._cjsonl")


def key_prefixes(fields: tuple[str, ...]) -> tuple[bytes, ...]:
    """What comes before each value of a record: ``{"url": ``, ``, "raw": ``... (json's
    separators), as UTF-8."""
    return tuple(
        f"{', ' if at else '{'}{_ENCODE(name)}: ".encode() for at, name in enumerate(fields)
    )


_ALL = (tuple(range(len(FIELDS))), key_prefixes(FIELDS))


def _compiled_jsonl(
    links: Sequence[Link], indexes: tuple[int, ...], prefixes: tuple[bytes, ...], utf8: bool = False
) -> Any:
    """The compiled writer's lines (fields ``indexes`` of FIELDS; a str, or with ``utf8`` its
    UTF-8 bytes), or None: not built, or the links hold what it leaves to Python."""
    if _cjsonl is None:
        return None
    return _cjsonl.lines(links, indexes, prefixes, b"}\n", ORIGIN_AT, utf8)


def lines(links: Sequence[Link]) -> str:
    """One JSON object per line, every field of the record (:data:`~baselinks.resolve.link.FIELDS`,
    in order: the origin's too, null where one does not apply); ``problems`` is a list."""
    text: str | None = _compiled_jsonl(links, *_ALL)
    return _python_jsonl(links) if text is None else text


def _python_jsonl(links: Sequence[Link]) -> str:
    """:func:`lines` in Python, the reference the compiled writer is tested against.

    The origin's seven keys are the same for every link of a document (one Origin shared): they
    are encoded once per run of links that share it and written as the end of each record,
    after the link's own fields. On the corpus the six keys per link took the JSON Lines stage
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
        own = list(map(_OWN, links[start:end]))
        pieces.append(_LINES(OWN_FIELDS, own, ", " + rest[1:]))
        start = end
    return "".join(pieces)


_OWN = itemgetter(slice(0, ORIGIN_AT))


def chosen_lines(
    fields: tuple[str, ...],
    indexes: tuple[int, ...],
    prefixes: tuple[bytes, ...],
    links: Sequence[Link],
) -> str:
    """JSON Lines with the chosen fields only, in the order given (``indexes``: theirs in
    :data:`~baselinks.resolve.link.FIELDS`, ``prefixes``: :func:`key_prefixes`)."""
    text: str | None = _compiled_jsonl(links, indexes, prefixes)
    return _python_jsonl_fields(fields, links) if text is None else text


def _python_jsonl_fields(fields: tuple[str, ...], links: Sequence[Link]) -> str:
    """:func:`chosen_lines` in Python, the reference."""
    rows = list(map(Link.values, links))  # the link's own, the origin's seven, any computed
    columns = [map(itemgetter(CHOOSABLE.index(name)), rows) for name in fields]
    return _LINES(fields, list(zip(*columns, strict=True)))


def utf8_lines(
    fields: tuple[str, ...],
    indexes: tuple[int, ...],
    prefixes: tuple[bytes, ...],
    links: Sequence[Link],
) -> bytes | str:
    """:func:`chosen_lines` as UTF-8 bytes, from the compiled writer; where it leaves the
    links to Python, the str (written as text: the same bytes)."""
    encoded: bytes | None = _compiled_jsonl(links, indexes, prefixes, utf8=True)
    return _python_jsonl_fields(fields, links) if encoded is None else encoded


class UTF8Lines:
    """:func:`utf8_lines` of the chosen fields, as a render of write/formats.py: called with a
    document's links; :meth:`within` too (formats.rendered_within), which the compiled writer
    answers in one pass, stopping at the record that would pass the budget. Picklable (a
    worker renders)."""

    def __init__(self, fields: tuple[str, ...], indexes: tuple[int, ...]) -> None:
        self.fields, self.indexes = fields, indexes
        self.prefixes = key_prefixes(fields)

    def __call__(self, links: Sequence[Link]) -> bytes | str:
        return utf8_lines(self.fields, self.indexes, self.prefixes, links)

    def within(self, links: Sequence[Link], budget: int) -> tuple[bytes, int] | None:
        """The UTF-8 lines of the first of ``links`` that stay within ``budget`` bytes, and
        how many; None where the compiled writer leaves them to Python."""
        if _cjsonl is None:
            return None
        found: tuple[bytes, int] | None = _cjsonl.within(
            links, self.indexes, self.prefixes, b"}\n", ORIGIN_AT, budget
        )
        return found


def compiled() -> bool:
    """Whether the compiled writer is built and in use (:func:`utf8_lines` then gives bytes)."""
    return _cjsonl is not None
