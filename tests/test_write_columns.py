"""CSV, TSV and text written a column at a time (write._columns), byte for byte as they were written a
row at a time.

The reference below is the writer as it was before (a dict per link, each value looked at in
Python); write.py now reads each field's column with itemgetter and map, lets csv write None as
"", and escapes a TSV column value by value only where one join of it is not printable or holds
a backslash.
"""

from __future__ import annotations

import csv
import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.errors import BIDI, CONTROLS
from baselinks.resolve.link import DEFAULT_FIELDS, FIELDS, ORIGIN_FIELDS, OWN_FIELDS, Link, Origin
from baselinks.write import formats as write
from test_jsonl import links


def _row(link: Link, fields: tuple[str, ...]) -> list[object]:
    record = dict(zip(OWN_FIELDS, link[:-1], strict=True))
    record["problems"] = " ".join(link.problems)
    record["nofollow"] = "true" if link.nofollow else "false"  # as JSON writes a bool
    record.update(zip(ORIGIN_FIELDS, link.origin, strict=True))
    return ["" if (value := record[field]) is None else value for field in fields]


def _reference_csv(records: list[Link], fields: tuple[str, ...]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, dialect=csv.excel).writerows(_row(link, fields) for link in records)
    return buffer.getvalue()


def _reference_tsv(records: list[Link], fields: tuple[str, ...]) -> str:
    special = re.compile(rf"[{CONTROLS}{BIDI}\\]")

    def value(item: object) -> str:
        text = str(item)
        return special.sub(write._tsv_escape, text)

    return "".join("\t".join(map(value, _row(link, fields))) + "\n" for link in records)


# every field's value from the whole of Unicode (lone surrogates too), as test_jsonl draws them
@settings(max_examples=300)
@given(st.lists(links(), max_size=5), st.permutations(FIELDS), st.integers(1, len(FIELDS)))
def test_csv_and_tsv_as_row_by_row(records: list[Link], order: list[str], count: int) -> None:
    fields = tuple(order[:count])
    assert write.output_format("csv", fields).render(records) == _reference_csv(records, fields)
    assert write.output_format("tsv", fields).render(records) == _reference_tsv(records, fields)
    twelve = DEFAULT_FIELDS
    assert write.FORMATS["csv"].render(records) == _reference_csv(records, twelve)
    assert write.FORMATS["tsv"].render(records) == _reference_tsv(records, twelve)


@given(
    st.lists(
        st.one_of(st.none(), st.sampled_from(["", " ", ",", '"', "\r", "\n", "a", "\r\n"])),
        max_size=4,
    )
)
def test_a_single_field(values: list[str | None]) -> None:
    # csv writes a row of one empty field as "" (an empty line would read back as no row)
    records = [Link(*([""] * 12), origin=Origin(record_id=value)) for value in values]  # type: ignore[arg-type]
    fields = ("record_id",)
    assert write.output_format("csv", fields).render(records) == _reference_csv(records, fields)
    assert write.output_format("tsv", fields).render(records) == _reference_tsv(records, fields)


def test_every_character_tsv_escapes_is_not_printable() -> None:
    # what lets a printable column skip the escaping (the backslash is looked for apart), and
    # a text format's printable URLs be written at once
    escaped = re.compile(rf"[{CONTROLS}{BIDI}]")
    found = [code for code in range(0x110000) if escaped.match(chr(code))]
    assert len(found) > 64 + 2 + 9  # C0, DEL, C1, U+2028/9, the bidi controls
    assert not any(chr(code).isprintable() for code in found)


@given(st.text(st.characters(blacklist_categories=()), max_size=8))
def test_printable_reads_ascii_as_bytes_the_same(text: str) -> None:
    for ascii_text in (text.encode("ascii", "ignore").decode(), "".join(map(chr, range(128)))):
        expected = ascii_text.isprintable()
        assert write._printable(ascii_text) is expected
        assert write._printable(ascii_text, allow_backslash=False) is (
            expected and "\\" not in ascii_text
        )
    assert write._printable(text) is text.isprintable()


@settings(max_examples=200)
@given(st.lists(links(), max_size=5))
def test_text_as_url_by_url(records: list[Link]) -> None:
    escaped = re.compile(rf"[{CONTROLS}{BIDI}]")
    expected = "".join(
        escaped.sub(write._percent, link.url) + "\n" for link in records
    )  # the writer as it was, a URL at a time
    assert write.FORMATS["text"].render(records) == expected


def test_a_column_of_values_that_need_escaping() -> None:
    assert write._tsv_column(["a", "b\\c", "d"]) == ["a", "b\\\\c", "d"]
    assert write._tsv_column(["a\u00a0", "b\tc"]) == ["a\u00a0", "b\\tc"]  # NBSP: not printable
    assert write._tsv_column([None, 7, "x"]) == ["", "7", "x"]
    assert write._tsv_column([]) == []
