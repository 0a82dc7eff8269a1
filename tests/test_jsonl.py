"""JSON Lines from orjson, byte for byte the lines the standard library's json writes.

write.py writes JSON Lines with orjson (a dependency) and falls back to ``json`` where orjson
cannot be imported. orjson knows only compact and indented output, so write.py takes the
indentation out again (jsonl._orjson_lines); these tests hold both paths to one reference:
``json.dumps(record, ensure_ascii=False)`` with DEL, the C1 controls and U+2028/U+2029 written
as ``\\uXXXX``, one record per line, keys in :data:`~baselinks.resolve.link.FIELDS` order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.cli import main
from baselinks.resolve.link import FIELDS, ORIGIN_FIELDS, OWN_FIELDS, Link, Origin
from baselinks.write import jsonl
from baselinks.write.formats import FORMATS, output_format
from baselinks.write.jsonl import _json_lines, _orjson_lines

ROOT = Path(__file__).resolve().parent.parent

# Every character, lone surrogates too (which orjson refuses: json then writes the line).
ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)
# Mostly what the corpus has, with the characters that are escaped or that break a line.
LIKELY_TEXT = st.text(
    # \x01 and \x02 too: what the orjson writer marks its fragments with (jsonl._orjson_lines)
    st.sampled_from('ab/:?#,"\\\n\r\t\x00\x01\x02\x1b\x7f\x85\x9b\xa0\u2028\u2029\u202e é{}[]: '),
    max_size=12,
)
TEXT = st.one_of(ANY_TEXT, LIKELY_TEXT)
LINE = st.one_of(st.none(), st.integers(min_value=0, max_value=2**31), st.integers())


OPTIONAL_TEXT = st.one_of(st.none(), TEXT)
OFFSET = st.one_of(st.none(), st.integers(min_value=0, max_value=2**40))


@st.composite
def links(draw: st.DrawFn) -> Link:
    values = {
        name: draw(TEXT) for name in OWN_FIELDS if name not in ("line", "problems", "nofollow")
    }  # every field a str but these three: derived, so that a field added later is drawn too
    origin = Origin(
        **{
            name: draw(OFFSET if name in ("offset", "length") else OPTIONAL_TEXT)
            for name in ORIGIN_FIELDS
        }
    )  # the document's provenance: strings, integers and nulls
    return Link(
        **values,
        line=draw(LINE),
        problems=tuple(draw(st.lists(TEXT, max_size=3))),
        nofollow=draw(st.booleans()),
        origin=origin,
    )


def _reference(keys: tuple[str, ...], rows: list[tuple[object, ...]]) -> str:
    """What JSON Lines have always been, written character by character."""
    text = "".join(
        json.dumps(dict(zip(keys, row, strict=True)), ensure_ascii=False) + "\n" for row in rows
    )
    return "".join(
        f"\\u{ord(char):04x}"
        if char == "\x7f" or "\x80" <= char <= "\x9f" or char in "\u2028\u2029"
        else char
        for char in text
    )


@settings(max_examples=300)
@given(st.lists(links(), max_size=6))
def test_orjson_and_json_write_the_same_bytes(records: list[Link]) -> None:
    expected = _reference(FIELDS, [tuple(link.as_dict().values()) for link in records])
    rows = [link.values() for link in records]  # the link's own, then the origin's seven
    assert _json_lines(FIELDS, rows) == expected
    assert _orjson_lines(FIELDS, rows) == expected
    assert FORMATS["jsonl"].render(records) == expected
    assert jsonl._python_jsonl(records) == expected  # the reference of the compiled writer
    own = [link[:-1] for link in records]
    end = ", " + _json_lines(ORIGIN_FIELDS, [records[0].origin])[1:] if records else "}\n"
    ended = [link._replace(origin=records[0].origin).values() for link in records]
    assert _json_lines(OWN_FIELDS, own, end) == _reference(FIELDS, ended) and (
        _orjson_lines(OWN_FIELDS, own, end) == _reference(FIELDS, ended)
    )


@settings(max_examples=200)
@given(st.lists(links(), max_size=4), st.permutations(FIELDS), st.integers(1, len(FIELDS)))
def test_chosen_fields_are_the_same_bytes(
    records: list[Link], order: list[str], count: int
) -> None:
    fields = tuple(order[:count])
    rows = [tuple(link.as_dict()[name] for name in fields) for link in records]
    assert output_format("jsonl", fields).render(records) == _reference(fields, rows)
    assert _orjson_lines(fields, rows) == _json_lines(fields, rows)


@pytest.mark.parametrize(
    "value",
    [
        [["nested"], "list"],  # a list in a list: indented deeper than the rules undo
        {"a": 1, "b": [2, 3]},  # an object as a value
        2**64,  # an int orjson refuses
        "\ud800",  # a lone surrogate: orjson refuses it
        [],
        {},
        "",
    ],
    ids=["list-in-list", "object", "int-past-64-bits", "surrogate", "empty-list", "empty", "''"],
)
def test_what_the_fast_path_does_not_cover_is_written_by_json(value: object) -> None:
    # a record type with provenance fields (another session adds them) may hold such values
    keys = ("url", "value", "problems")
    rows = [("http://a/", value, ("p", "q")), ("http://b/", 'x, "y": z', ())]
    assert _orjson_lines(keys, rows) == _json_lines(keys, rows) == _reference(keys, rows)


def test_without_orjson_the_command_writes_the_same_bytes(tmp_path: Path) -> None:
    # orjson made unimportable in a fresh interpreter: write.py falls back to json, silently
    fixture = ROOT / "fixtures" / "html"
    probe = (
        "import sys\n"
        "sys.modules['orjson'] = None  # import orjson raises ImportError\n"
        "import os; os.environ['BASELINKS_PURE'] = '1'  # nor the compiled writer\n"
        "from baselinks import jsonl\n"
        "assert jsonl._LINES is jsonl._json_lines, jsonl._LINES\n"
        "assert not jsonl.compiled()\n"
        "from baselinks.cli import main\n"
        f"sys.exit(main(['extract', '-q', '-o', sys.argv[1], {str(fixture)!r}]))\n"
    )
    without = tmp_path / "without.jsonl"
    ran = subprocess.run([sys.executable, "-c", probe, str(without)], capture_output=True)
    assert ran.returncode in (0, 1), ran.stderr
    with_orjson = tmp_path / "with.jsonl"
    assert main(["extract", "-q", "-o", str(with_orjson), str(fixture)]) == ran.returncode
    assert without.read_bytes() == with_orjson.read_bytes()
    assert without.read_bytes().count(b"\n") > 100  # the fixtures' links, not an empty file
