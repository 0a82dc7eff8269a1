"""The compiled JSON Lines writer (_cjsonl.pyx) against the Python writer (write.py).

jsonl._python_jsonl and jsonl._python_jsonl_fields are the reference (orjson, or json where
orjson cannot be imported, themselves held to json.dumps by tests/test_jsonl.py). The
comparisons need the compiled writer built and in use: where it is not (no C compiler at
install, or BASELINKS_PURE=1 for the suite's pure run), they are skipped with that reason; CI's
first run sets BASELINKS_REQUIRE_COMPILED, and there a missing build fails instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.cli import main
from baselinks.resolve.link import FIELDS, ORIGIN_AT, OWN_FIELDS, Link, Origin
from baselinks.write import formats as write
from baselinks.write import jsonl
from conftest import FIXTURES, compared
from test_jsonl import ANY_TEXT, links

compared(jsonl.compiled(), "the compiled JSON Lines writer")

# Every character one at a time, where the escapes and the UTF-8 lengths change: the C0
# controls, DEL, the C1 controls, the edges of 2, 3 and 4 bytes, the surrogates, U+2028/9.
EDGES = [
    *range(0x00, 0x21),
    0x22,
    0x2F,
    0x5C,
    0x7E,
    *range(0x7F, 0xA2),
    0xFF,
    0x100,
    0x7FF,
    0x800,
    0xD7FF,
    0xD800,
    0xDBFF,
    0xDC00,
    0xDFFF,
    0xE000,
    0x2027,
    0x2028,
    0x2029,
    0x202A,
    0x202E,
    0xFEFF,
    0xFFFF,
    0x10000,
    0x10FFFF,
]


def _link(value: str = "v", line: object = 1, problems: tuple[object, ...] = ()) -> Link:
    origin = Origin("file", 12, None, "<urn:uuid:1>", "2026-11-23T00:00:00Z", "1.2")
    return Link(
        f"http://a/{value}", value, "http://a/", "retrieval", "a", "href", line,  # type: ignore[arg-type]
        "doc", value, "", "link", problems, True, value, origin,  # type: ignore[arg-type]
    )  # fmt: skip


def _compiled(records: list[Link], fields: tuple[str, ...] = FIELDS) -> str | None:
    indexes = tuple(map(FIELDS.index, fields))
    return jsonl._compiled_jsonl(records, indexes, jsonl.key_prefixes(fields))


@settings(max_examples=300)
@given(st.lists(links(), max_size=6))
def test_every_field_as_the_python_writer_writes_it(records: list[Link]) -> None:
    text = _compiled(records)
    reference = jsonl._python_jsonl(records)
    if text is None:  # handed back: only for what UTF-8 or 64 bits cannot hold
        assert _surrogate(records) or _past_64_bits(records)
    else:
        assert text == reference
    assert write.FORMATS["jsonl"].render(records) == reference


@settings(max_examples=200)
@given(st.lists(links(), max_size=4), st.permutations(FIELDS), st.integers(1, len(FIELDS)))
def test_chosen_fields_as_the_python_writer_writes_them(
    records: list[Link], order: list[str], count: int
) -> None:
    fields = tuple(order[:count])
    reference = jsonl._python_jsonl_fields(fields, records)
    text = _compiled(records, fields)
    assert text is None or text == reference
    assert write.output_format("jsonl", fields).render(records) == reference


@pytest.mark.parametrize("code", EDGES, ids=[f"U+{code:04X}" for code in EDGES])
def test_each_character(code: int) -> None:
    char = chr(code)
    records = [_link(f"a{char}b{char}", problems=(char, "x")), _link(char * 3)]
    text = _compiled(records)
    if 0xD800 <= code < 0xE000:
        assert text is None  # a lone surrogate: the Python writer writes it as json does
    else:
        assert text == jsonl._python_jsonl(records)
        assert text.count("\n") == 2  # one record a line, whatever the character
    assert jsonl.lines(records) == jsonl._python_jsonl(records)


@pytest.mark.parametrize(
    "line",
    [None, 0, 1, 9, 10, 65535, -1, -(2**63), 2**63 - 1, 2**63, -(2**63) - 1, 2**100],
)
def test_integers(line: int | None) -> None:
    records = [_link(line=line)]
    text = _compiled(records)
    if line is not None and not -(2**63) <= line < 2**63:
        assert text is None  # past 64 bits: left to Python
    else:
        assert text == jsonl._python_jsonl(records)
    assert jsonl.lines(records) == jsonl._python_jsonl(records)


@pytest.mark.parametrize(
    ("line", "problems"),
    [
        (1.5, ()),  # a float
        (1, ["a"]),  # a list, not the tuple a Link holds
        (1, ("a", 2)),  # a code that is not a str
        (1, ("a", ("b",))),  # nested
    ],
    ids=["float", "list", "int-code", "nested"],
)
def test_what_it_does_not_know_is_left_to_python(
    line: object, problems: tuple[object, ...]
) -> None:
    records = [_link(), _link(line=line, problems=problems)]
    assert _compiled(records) is None
    assert jsonl.lines(records) == jsonl._python_jsonl(records)


def test_records_of_another_shape_are_left_to_python() -> None:
    short = ("http://a/",) * 5
    assert jsonl._cjsonl.lines([short], *jsonl._ALL, b"}\n", ORIGIN_AT) is None
    assert jsonl._cjsonl.lines([object()], *jsonl._ALL, b"}\n", ORIGIN_AT) is None
    no_origin = (*tuple(_link())[:-1], "not an origin")
    assert jsonl._cjsonl.lines([no_origin], *jsonl._ALL, b"}\n", ORIGIN_AT) is None
    # the link's own fields only: the origin is not read
    own = tuple(range(ORIGIN_AT))
    text = jsonl._cjsonl.lines([no_origin], own, jsonl.key_prefixes(OWN_FIELDS), b"}\n", ORIGIN_AT)
    assert text == jsonl._python_jsonl_fields(OWN_FIELDS, [_link()])
    with pytest.raises(ValueError, match="one prefix per field"):
        jsonl._cjsonl.lines([], (0, 1), (b"{",), b"}\n", ORIGIN_AT)


@given(st.lists(ANY_TEXT, min_size=1, max_size=3))
def test_long_values_grow_the_buffer(values: list[str]) -> None:
    # the buffer starts at 256 bytes a link: a value of megabytes grows it, maybe mid-record
    records = [_link(value * (1 + 100_000 // (1 + len(value)))) for value in values]
    text = _compiled(records)
    assert text is None or text == jsonl._python_jsonl(records)


@pytest.mark.parametrize("value", [True, False])
def test_a_bool_is_written_as_json_writes_it_not_as_the_int_it_is_to_python(value: bool) -> None:
    # nofollow's type; a bool is an int to Python, "true" to json
    records = [_link(line=value), _link()._replace(nofollow=value)]
    assert _compiled(records) == jsonl._python_jsonl(records)
    assert f'"line": {str(value).lower()}' in jsonl._python_jsonl(records)
    assert f'"nofollow": {str(value).lower()}' in jsonl._python_jsonl(records)


def test_a_value_of_another_field_type_is_written_by_its_own_type() -> None:
    records = [_link(line="7"), _link(line=None)]  # type: ignore[arg-type]
    assert _compiled(records) == jsonl._python_jsonl(records)
    assert '"line": "7"' in jsonl._python_jsonl(records)


@pytest.mark.parametrize("char", ["a", "\u00e9", "\x85", "\u20ac", "\u2028", "\U0001f600", "\n"])
def test_values_over_chunk_boundaries(char: str) -> None:
    # the buffer's room is made 4,096 characters at a time: each kind of string across it
    records = [_link("x" * 4095 + char * 4099), _link(char * 12_289)]
    assert _compiled(records) == jsonl._python_jsonl(records)
    assert _compiled([_link("a" * 4097 + char + "\udc80")]) is None  # past a chunk: Python


@settings(max_examples=200)
@given(
    st.lists(st.lists(st.integers(0, 3), min_size=len(FIELDS), max_size=len(FIELDS)), max_size=6),
    st.permutations(FIELDS),
)
def test_a_value_repeated_from_the_record_before_is_written_as_itself(
    picks: list[list[int]], order: list[str]
) -> None:
    # the writer copies a value's bytes from the record before when it is the same object
    # (a document's name, its base, the origin's seven): records whose fields take values
    # from a small pool of objects, the same one or another from record to record, field by
    # field; and values equal but not the same object
    pool: list[list[object]] = [
        ["\u00e9" + chr(0x2028) + str(n), f"a{n}", "", "\x85" * n] for n in range(len(FIELDS))
    ]
    for at in (FIELDS.index("line"), FIELDS.index("offset"), FIELDS.index("length")):
        pool[at] = [None, 7, 2**40, -3]
    pool[FIELDS.index("problems")] = [(), ("a",), ("a", "\u00e9"), ("a",)]
    pool[FIELDS.index("nofollow")] = [True, False, True, False]
    own = len(OWN_FIELDS)
    records = []
    for pick in picks:
        values = [pool[at][choice] for at, choice in enumerate(pick)]
        records.append(Link(*values[:own], Origin(*values[own:])))  # type: ignore[arg-type]
    fields = tuple(order)
    assert _compiled(records, fields) == jsonl._python_jsonl_fields(fields, records)
    assert _compiled(records) == jsonl._python_jsonl(records)


@settings(max_examples=100)
@given(st.lists(st.integers(0, 3000), max_size=8), st.integers(0, 20_000))
def test_the_lines_within_a_budget_are_the_python_writers_first_ones(
    lengths: list[int], budget: int
) -> None:
    # formats.rendered_within: the compiled writer stops at the record that would pass the
    # budget; the generic way renders slices and measures them: the same lines, as many
    records = [_link("v" * length) for length in lengths]
    render = jsonl.UTF8Lines(FIELDS, tuple(range(len(FIELDS))))
    data, count = write.rendered_within(render, records, budget)
    assert isinstance(data, bytes)
    whole = jsonl._python_jsonl(records).encode()
    ends = [at + 1 for at, byte in enumerate(whole) if byte == 10]
    fits = sum(1 for end in ends if end <= budget)
    assert (data, count) == (whole[: ends[fits - 1]] if fits else b"", fits)
    text, written = write.rendered_within(lambda links: render(links), records, budget)
    # (nothing within the budget is "" there: no piece to tell bytes from text)
    assert (text if isinstance(text, bytes) else text.encode(), written) == (data, count)


def test_no_links() -> None:
    assert _compiled([]) == "" == jsonl._python_jsonl([])


def test_the_command_writes_the_same_bytes_both_ways(tmp_path: Path) -> None:
    # every fixture (HTML, MHTML, WARC, HTTP), all fields and chosen ones, with and without
    # the compiled writer (BASELINKS_PURE=1 in a fresh interpreter: the pure path whole)
    for fields in ([], ["--fields", "part,url,line,problems,offset"]):
        pure = tmp_path / "pure.jsonl"
        command = [sys.executable, "-m", "baselinks", "extract", "-q", "-o", str(pure)]
        env = {**os.environ, "BASELINKS_PURE": "1"}
        ran = subprocess.run([*command, *fields, str(FIXTURES)], env=env, capture_output=True)
        assert ran.returncode in (0, 1), ran.stderr
        fast = tmp_path / "fast.jsonl"
        assert main(["extract", "-q", "-o", str(fast), *fields, str(FIXTURES)]) == ran.returncode
        assert fast.read_bytes() == pure.read_bytes()
        assert fast.read_bytes().count(b"\n") > 400  # the fixtures' links, not an empty file


def _surrogate(records: list[Link]) -> bool:
    texts = [value for link in records for value in (*link.values(), *link.problems)]
    return any(
        isinstance(text, str) and any("\ud800" <= char <= "\udfff" for char in text)
        for text in texts
    )


def _past_64_bits(records: list[Link]) -> bool:
    numbers = [value for link in records for value in link.values() if isinstance(value, int)]
    return any(not -(2**63) <= number < 2**63 for number in numbers)
