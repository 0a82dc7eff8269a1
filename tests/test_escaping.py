"""Output that cannot be forged: every format reads back to the fields it was given, one record
per line, and nothing from an input reaches a terminal as a raw control character.

Each reader below is the one a downstream tool would use: ``json.loads`` per line, Python's
``csv``, PostgreSQL COPY's unescaping for TSV (with ``cut -f``'s view of the fields), the
percent-decoding of the controls for ``text``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from baselinks import Link, extract_links
from baselinks.api import FIELDS
from baselinks.cli import main
from baselinks.errors import printable
from baselinks.resolve.link import DEFAULT_FIELDS, Origin
from baselinks.write.formats import FORMATS, WRITERS
from conftest import warc

# Every character that has broken a record somewhere: a tab, the line breaks, a quote, a comma,
# a backslash, ESC (a terminal's escape sequences), NUL, DEL, a C1 control (NEL), the Unicode
# line separator, and a bidirectional override.
HOSTILE = 'a\tb\nc\rd"e,f\\g\x1b]0;title\x07\x1b[2J\x00h\x7fi\x85j\u2028k\u2029l\u202em'


def _link(value: str) -> Link:
    return Link(
        url="http://e.example/" + value,
        raw=value,
        base="http://e.example/" + value,
        base_source="retrieval",
        tag="a",
        attr="href",
        line=7,
        document="page.warc#http://e.example/" + value,
        text=value,
        rel=value,
        kind="link",
        problems=("invalid-character", "control-character"),
        nofollow=True,
        hreflang=value,
        # a file name may hold any character but "/" and NUL; a record ID is the header's
        origin=Origin("dir/" + value.replace("\x00", ""), 3, 9, f"<urn:{value}>", "2026", "1.2"),
    )


LINKS = [_link(HOSTILE), _link(""), _link("plain"), _link("\r"), _link('"'), _link("\\t")]


def _rendered(name: str, fields: tuple[str, ...] | None = None) -> str:
    out = io.StringIO()
    assert WRITERS[name](LINKS, out, fields) == len(LINKS)
    return out.getvalue()


def _as_strings(link: Link, fields: tuple[str, ...] = DEFAULT_FIELDS) -> list[str]:
    """The fields as the delimited formats write them (by default the twelve of the link)."""
    values = list(link.values()[: len(fields)])
    values[FIELDS.index("line")] = "" if link.line is None else str(link.line)
    values[FIELDS.index("problems")] = " ".join(link.problems)
    if len(fields) > FIELDS.index("nofollow"):
        values[FIELDS.index("nofollow")] = "true" if link.nofollow else "false"
    return ["" if value is None else str(value) for value in values]


def test_jsonl_reads_back_one_record_per_line_for_every_line_splitter() -> None:
    out = _rendered("jsonl")
    # str.splitlines() splits at \x85, \u2028, \u2029, \x1c-\x1e, \v, \f too
    assert len(out.splitlines()) == len(LINKS) == out.count("\n")
    assert [json.loads(line) for line in out.splitlines()] == [link.as_dict() for link in LINKS]
    assert re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", out.replace("\n", "")) is None


@pytest.mark.parametrize("fields", [DEFAULT_FIELDS, FIELDS], ids=["default", "all"])
def test_csv_reads_back_to_the_same_rows(fields: tuple[str, ...]) -> None:
    out = _rendered("csv", None if fields == DEFAULT_FIELDS else fields)
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert rows == [list(fields)] + [_as_strings(link, fields) for link in LINKS]


def _copy_unescape(value: str) -> str:
    """PostgreSQL COPY text format: backslash escapes (the ones it documents); ``\\xHH`` is a
    byte, and the field's bytes are then decoded in the database's encoding (UTF-8)."""
    named = {"b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t", "v": b"\v", "\\": b"\\"}
    out = bytearray()
    pos = 0
    for match in re.finditer(r"\\(x[0-9a-fA-F]{1,2}|[bfnrtv\\])", value):
        out += value[pos : match.start()].encode("utf-8")
        escape = match.group(1)
        out += bytes([int(escape[1:], 16)]) if escape.startswith("x") else named[escape]
        pos = match.end()
    out += value[pos:].encode("utf-8")
    return out.decode("utf-8")


@pytest.mark.parametrize("fields", [DEFAULT_FIELDS, FIELDS], ids=["default", "all"])
def test_tsv_has_the_header_fields_on_every_line_and_reads_back_by_copy_rules(
    fields: tuple[str, ...],
) -> None:
    out = _rendered("tsv", None if fields == DEFAULT_FIELDS else fields)
    lines = out.split("\n")
    assert lines.pop() == ""  # the last line ends with \n
    assert lines[0].split("\t") == list(fields)
    # what cut -f and awk -F'\t' see: the header's number of fields on every line, no quotes
    assert {len(line.split("\t")) for line in lines} == {len(fields)}
    assert "\r" not in out
    assert [[_copy_unescape(v) for v in line.split("\t")] for line in lines[1:]] == [
        _as_strings(link, fields) for link in LINKS
    ]
    assert re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]", out) is None


def test_tsv_writes_plain_values_as_they_are() -> None:
    out = io.StringIO()
    WRITERS["tsv"]([_link('plain "quoted", with comma')], out)
    assert out.getvalue().split("\n")[1].split("\t")[1] == 'plain "quoted", with comma'


# the percent-encoded controls, line separators and bidi overrides (E2 80 AA-AE, E2 81 A6-A9)
_CONTROL = re.compile(
    r"%(0[0-9A-F]|1[0-9A-F]|7F|C2%(?:8[0-9A-F]|9[0-9A-F])|E2%80%A[89A-E]|E2%81%A[6-9])"
)


def test_text_is_one_url_per_line_with_controls_percent_encoded() -> None:
    out = _rendered("text")
    lines = out.split("\n")
    assert lines.pop() == ""
    assert len(lines) == len(LINKS) == len(out.splitlines())
    decoded = [_CONTROL.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode(), line)
               for line in lines]  # fmt: skip
    assert decoded == [link.url for link in LINKS]
    assert lines[0].startswith('http://e.example/a%09b%0Ac%0Dd"e,f\\g%1B]0;title%07%1B[2J%00h')


def test_table_shows_controls_escaped() -> None:
    out = _rendered("table")
    assert len(out.splitlines()) == len(LINKS) + 1 == out.count("\n")
    assert re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202e]", out) is None
    assert 'http://e.example/a\\tb\\nc\\rd"e,f\\g\\x1b]0;title\\x07\\x1b[2J\\x00h\\x7fi' in out


def test_printable_escapes_as_repr_does_and_leaves_the_rest() -> None:
    assert printable("plain é ☃ \\ text") == "plain é ☃ \\ text"
    assert printable("a\x1b[2J\n\t\r\x00\x7f\x9b\u2028\u202e") == (
        "a\\x1b[2J\\n\\t\\r\\x00\\x7f\\x9b\\u2028\\u202e"
    )
    assert printable("name-\udcff.html") == "name-\\xff.html"  # a byte that was not UTF-8


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_is_one_line_per_link_from_a_real_document(name: str) -> None:
    page = (
        b'<a href="a&#10;http://evil/">one</a>'
        b'<a href="b&#9;c&#13;d&quot;e,f\\g&#27;]0;x&#7;">two\tthree</a>'
        b'<a href="&#27;[2J">&#x85;&#x2028;</a>'
    )
    links = extract_links(page, url="http://e.example/")
    out = io.StringIO()
    WRITERS[name](links, out)
    header = 1 if FORMATS[name].header else 0
    if name == "csv":  # RFC 4180: a line break inside a quoted value is the value's
        assert len(list(csv.reader(io.StringIO(out.getvalue(), newline="")))) == 3 + header
    else:
        assert len(out.getvalue().splitlines()) == out.getvalue().count("\n") == 3 + header
    if name == "text":
        assert out.getvalue().splitlines()[0] == "http://e.example/a%0Ahttp://evil/"


def test_text_format_on_the_command_line_prints_one_url_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b'<a href="a&#10;http://evil/">x</a>')
    assert main(["extract", str(page), "--format", "text", "--url", "http://e.example/"]) == 0
    assert capsys.readouterr().out == "http://e.example/a%0Ahttp://evil/\n"
    assert main(["extract", str(page), "--url", "http://e.example/", "-q"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["url"] == "http://e.example/a\nhttp://evil/"
    assert record["problems"] == [
        "invalid-character",
        "colon-in-first-segment",
        "control-character",
        "path-character",  # RFC 1738 §5 hsegment: the LF, checked on the resolved URL
    ]


def test_error_lines_and_the_summary_show_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "gone\x1b]0;pwned\x07\x1b[2J\nbaselinks: forged.html"
    assert main(["extract", str(missing), "--format", "text"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert err.splitlines() == [
        f"baselinks: {tmp_path}/gone\\x1b]0;pwned\\x07\\x1b[2J\\nbaselinks: forged.html: "
        "No such file or directory",
        "baselinks: 0 files, 0 documents, 0 links; 1 failed",
    ]


def test_a_warc_target_uri_with_escapes_reaches_neither_the_table_nor_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = "http://w.example/\x1b[2J\x1b]2\x07/"
    archive = warc([(target, "text/html", b'<a href="x">x</a>'), (target, "text/html", b"<a")])
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(archive[:-30])  # the last record cut short: an error naming its target
    status = main(["extract", str(path), "--format", "table"])
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out and "\x07" not in captured.out
    assert (
        "http://w.example/\\x1b[2J\\x1b]2\\x07/x  [control-character path-character]"
        in captured.out
    )
    assert status == 1
    assert "\x1b" not in captured.err and "\x07" not in captured.err
    assert "crawl.warc.gz#http://w.example/\\x1b[2J\\x1b]2\\x07/" in captured.err


def test_text_format_percent_encodes_bidi_overrides() -> None:
    # U+202E reorders what a terminal shows: x<RLO>gnp.exe reads as xexe.png
    links = extract_links(b'<a href="x&#x202e;gnp.exe">', url="http://e.example/")
    assert FORMATS["text"].render(links) == "http://e.example/x%E2%80%AEgnp.exe\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "--json", "-"],
        ["check", "--json", "-"],
        ["resolve", "--json", "http://e.example/", "-"],
    ],
)
def test_the_url_commands_json_is_one_record_per_line_for_every_line_splitter(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 36: NEL, U+2028, U+2029 and the C1 controls stayed raw in parse/check/resolve
    # --json, and str.splitlines() made five lines of one record; JSON Lines writes them \uXXXX
    url = "http://e.example/a\x85b\u2028c\u2029d\x9be\x7ff"
    monkeypatch.setattr("sys.stdin", io.StringIO(url + "\n"))
    main(argv)
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1, out
    record = json.loads(out)
    assert record["url" if argv[0] != "resolve" else "ref"] == url


def test_the_url_commands_write_a_surrogate_as_u_fffd(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # an argument of bytes that are not UTF-8 ($'\xff': U+DCFF to Python) was written raw into
    # the JSON (standard output's surrogateescape), or refused by a strict encoder
    main(["resolve", "--json", "http://e.example/\udcff/", "x"])
    record = json.loads(capsys.readouterr().out)
    assert record["url"] == "http://e.example/\ufffd/x"
    main(["parse", "--json", "http://e.example/\ud800"])
    assert json.loads(capsys.readouterr().out)["path"] == "/\ufffd"


def test_the_records_counted_within_the_output_budget_are_those_written() -> None:
    # rendered_within counted a whole step for the last slice, shorter than it: a document of
    # 2,000 links read within the budget was counted 2,002 in the summary
    from baselinks.write.formats import _within

    links = extract_links(b"".join(b'<a href="/%d">x</a>' % n for n in range(2_000)))
    text, written = _within(FORMATS["text"].render, links, 10**9)
    assert written == 2_000 and text == FORMATS["text"].render(links)
    text, written = _within(FORMATS["text"].render, links, 1_000)
    assert text == FORMATS["text"].render(links[:written]) and len(text) <= 1_000 < len(
        FORMATS["text"].render(links[: written + 1])
    )
