"""Text is valid Unicode at one boundary (issue 36 item 1): every string a reader hands on is
made of Unicode scalar values where it enters the pipeline (a lone surrogate is U+FFFD, as CSS
Syntax and the Encoding Standard make it), and every writer refuses nothing.

A lone surrogate comes from what an escape spells (CSS ``url(\\D800)``, JSON ``"\\ud800"``, an
HTML or XML character reference), from bytes that are not UTF-8 (``ED A0 80``, a surrogate's
bytes in "WTF-8"), and from a command-line argument Python decoded with surrogateescape. Before
the fix, one such character in a ``<style>`` or a JSON-LD block ended the run with a
UnicodeEncodeError traceback in every writer, and the inputs after it were lost.

Each reader below is fed every noncharacter (scalar values: kept as they are) and lone
surrogates of both halves, in every form it reads, and its links are written in every format."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks import InputError, Link, extract_links
from baselinks.cli import main
from baselinks.errors import scalar
from conftest import warc

# Every noncharacter: U+FDD0..U+FDEF, and the last two code points of each of the 17 planes.
NONCHARACTERS = [
    *range(0xFDD0, 0xFDF0),
    *(plane + end for plane in range(0, 0x110000, 0x10000) for end in (0xFFFE, 0xFFFF)),
]
# Lone surrogates: each half's ends, and the range surrogateescape uses for a byte (DC80-DCFF).
SURROGATES = [0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDCFF, 0xDFFF]
CODE_POINTS = NONCHARACTERS + SURROGATES


def _bytes(code: int) -> bytes:
    """A code point's UTF-8 bytes; a surrogate's as "WTF-8" writes them (no UTF-8 holds one)."""
    return chr(code).encode("utf-8", "surrogatepass")


def _reference(code: int) -> bytes:
    return b"&#x%X;" % code


def _css_escape(code: int) -> bytes:
    return b"\\%X " % code  # the space ends the escape (CSS Syntax: one white space is its own)


def _json_escape(code: int) -> bytes:
    if code > 0xFFFF:  # a pair of escapes, as JSON writes a code point past the BMP
        return json.dumps(chr(code)).strip('"').encode()
    return b"\\u%04x" % code


def _html(links: Callable[[int], bytes]) -> bytes:
    return b"".join(links(code) for code in CODE_POINTS)


# A reader, and a document that holds each code point in a link of its own, in the form it
# reads; the file name says what it is where the content does not (a style sheet, robots.txt).
READERS: dict[str, tuple[str, bytes]] = {
    "html attribute, character reference": (
        "page.html",
        _html(lambda c: b'<a href="x%sy">t</a>\n' % _reference(c)),
    ),
    "html attribute, bytes": (
        "page.html",
        b'<meta charset="utf-8">' + _html(lambda c: b'<a href="x%sy">t</a>\n' % _bytes(c)),
    ),
    "html text and srcset": (
        "page.html",
        _html(
            lambda c: b'<a href="x">t%s</a><img srcset="i%s 1x">\n' % (_reference(c), _reference(c))
        ),
    ),
    "style element, CSS escapes": (
        "page.html",
        b"<style>"
        + _html(
            lambda c: (
                b'a{b:url(x%sy)} i{b:url("x%sy")} @import "x%sy"; '
                % (_css_escape(c), _css_escape(c), _css_escape(c))
            )
        )
        + b"</style>",
    ),
    "style attribute, CSS escapes": (
        "page.html",
        _html(
            lambda c: (
                b"<p style=\"b:url(x%sy); c:image-set('i%s' 1x)\">\n"
                % (_css_escape(c), _css_escape(c))
            )
        ),
    ),
    "style sheet": ("sheet.css", _html(lambda c: b"a{b:url(x%sy)}\n" % _css_escape(c))),
    "JSON-LD": (
        "page.html",
        b'<script type="application/ld+json">['
        + b",".join(b'{"url": "x%sy"}' % _json_escape(c) for c in CODE_POINTS)
        + b"]</script>",
    ),
    "JSON-LD, broken": (
        "page.html",
        b'<script type="application/ld+json">['
        + b",".join(b'{"url": "x%sy",}' % _json_escape(c) for c in CODE_POINTS)
        + b"]</script>",
    ),
    "SVG": (
        "image.svg",
        b'<svg xmlns="http://www.w3.org/2000/svg">'
        + _html(lambda c: b'<a href="x%sy"/>' % _bytes(c))
        + b"</svg>",
    ),
    "feed": (
        "feed.atom",
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        + _html(
            lambda c: (
                b'<link href="x%sy"/><content type="html">&lt;a href="x&amp;#x%X;y"&gt;'
                b"&lt;/a&gt;</content>" % (_bytes(c), c)
            )
        )
        + b"</entry></feed>",
    ),
    "sitemap": (
        "sitemap.xml",
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + _html(lambda c: b"<url><loc>http://e.example/x%sy</loc></url>" % _bytes(c))
        + b"</urlset>",
    ),
    "text sitemap": ("sitemap.txt", _html(lambda c: b"http://e.example/x%sy\n" % _bytes(c))),
    "robots.txt": ("robots.txt", _html(lambda c: b"Sitemap: http://e.example/x%sy\n" % _bytes(c))),
    "WARC headers": (
        "crawl.warc",
        warc([("http://e.example/0", "text/html", b'<a href="x">t</a>')], gzip=False).replace(
            b"http://e.example/0", b"http://e.example/0" + _bytes(0xD800) + _bytes(0xFFFE)
        ),
    ),
    "MHTML Content-Location": (
        "page.mht",
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
        + b"".join(
            b"--b\r\nContent-Type: text/html\r\nContent-Location: http://m.example/%s/\r\n\r\n"
            b'<a href="x">t</a>\r\n' % _bytes(c)
            for c in CODE_POINTS
        )
        + b"--b--\r\n",
    ),
}


def _text_fields(link: Link) -> list[str]:
    return [value for value in (*link[:-1], *link.origin) if isinstance(value, str)] + list(
        link.problems
    )


def _assert_scalar(links: list[Link]) -> None:
    for link in links:
        for value in _text_fields(link):
            assert scalar(value) == value, (link, value)
            value.encode("utf-8")  # strict: a lone surrogate raises


@pytest.mark.parametrize("reader", list(READERS))
def test_every_reader_hands_on_scalar_values_only(reader: str, tmp_path: Path) -> None:
    name, data = READERS[reader]
    path = tmp_path / name
    path.write_bytes(data)
    errors: list[InputError] = []
    links = extract_links(str(path), url="http://e.example/d/", on_error=errors.append)
    assert links, reader
    _assert_scalar(links)
    assert not [e for e in errors if "internal error" in str(e)]
    # every noncharacter is a scalar value, kept as it is wherever the reader keeps its text
    # (a reference in HTML is one, U+FFFE too: HTML's "noncharacter-character-reference" is
    # a parse error that keeps the character)
    if reader in ("html attribute, character reference", "html attribute, bytes", "JSON-LD"):
        raws = "".join(link.raw for link in links)
        assert all(chr(code) in raws for code in NONCHARACTERS), reader
        assert "\ufffd" in raws


_FORMATS = ("jsonl", "csv", "tsv", "text", "table", "parquet")


def _records(fmt: str, data: bytes) -> int:
    text = data.decode("utf-8")  # strict: what no UTF-8 holds was never written
    if fmt == "jsonl":
        return len([json.loads(line) for line in text.splitlines()])
    if fmt == "csv":
        return len(list(csv.reader(io.StringIO(text, newline="")))) - 1
    if fmt == "tsv":
        return len(text.split("\n")) - 2  # the header, and the empty string after the last \n
    return len(text.splitlines())


@pytest.mark.parametrize("reader", list(READERS))
def test_every_reader_into_every_format(
    reader: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, data = READERS[reader]
    path = tmp_path / name
    path.write_bytes(data)
    count = len(extract_links(str(path), url="http://e.example/d/", on_error=lambda e: None))
    for fmt in _FORMATS:
        if fmt == "parquet":
            pytest.importorskip("pyarrow.parquet", reason="pip install -e '.[parquet]'")
        out = tmp_path / f"out.{fmt}"
        status = main(
            ["extract", str(path), "--url", "http://e.example/d/", "--format", fmt, "-o", str(out)]
        )
        err = capsys.readouterr().err
        assert status in (0, 1), (fmt, err)
        assert "internal error" not in err and "Traceback" not in err, err
        if fmt == "parquet":
            import pyarrow.parquet as pq

            assert pq.read_table(out).num_rows == count
        elif fmt != "table":
            assert _records(fmt, out.read_bytes()) == count, fmt
        else:
            out.read_bytes().decode("utf-8")


def test_a_surrogate_in_an_argument_is_u_fffd_in_every_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "--url $'http://e.example/\xff/'": Python holds the byte as U+DCFF (surrogateescape)
    page = tmp_path / "a.html"
    page.write_bytes(b'<a href="x">t</a>')
    out = tmp_path / "out.jsonl"
    status = main(["extract", str(page), "--url", "http://e.example/\udcff/", "-o", str(out)])
    assert status == 0, capsys.readouterr().err
    [record] = map(json.loads, out.read_text(encoding="utf-8").splitlines())
    assert record["url"] == record["page_url"] + "x" == "http://e.example/\ufffd/x"


def test_the_writers_refuse_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A Link a program made with a lone surrogate in it (the pipeline makes none): each format
    # writes U+FFFD in its place, where its encoder refused it and the run ended
    from baselinks.write.formats import FORMATS
    from baselinks.write.output import open_output

    [link] = extract_links(b'<a href="x">t</a>', url="http://e.example/")
    bad = link._replace(url="http://e.example/\ud800", text="t\udfff")
    for fmt in ("jsonl", "csv", "tsv", "text", "table"):
        output = open_output(str(tmp_path / f"out.{fmt}"))
        output.stream.write(FORMATS[fmt].header)
        output.stream.write(FORMATS[fmt].render([bad]))
        output.commit()
        written = (tmp_path / f"out.{fmt}").read_bytes().decode("utf-8")
        # (the table, for a person, shows it as Python writes it)
        assert ("\\ud800" if fmt == "table" else "\ufffd") in written, fmt
    pytest.importorskip("pyarrow.parquet", reason="pip install -e '.[parquet]'")
    import pyarrow.parquet as pq

    from baselinks.write.parquet import write_parquet

    with open(tmp_path / "out.parquet", "wb") as sink:
        write_parquet([bad], sink)
    assert pq.read_table(tmp_path / "out.parquet").column("url")[0].as_py().endswith("\ufffd")


def test_one_bad_input_costs_no_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the reproducer: a CSS escape of a surrogate first, a plain page after it; both
    # are written (the traceback lost the second)
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    first.write_bytes(b"<style>a{b:url(\\D800)}</style>")
    second.write_bytes(b'<a href="after.html">t</a>')
    out = tmp_path / "out.tsv"
    status = main(
        [
            "extract",
            str(first),
            str(second),
            "--url",
            "http://e.example/",
            "--format",
            "tsv",
            "-o",
            str(out),
        ]
    )
    assert status == 0, capsys.readouterr().err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[0] for line in lines[1:]] == [
        "http://e.example/\ufffd",
        "http://e.example/after.html",
    ]


_ESCAPES: dict[str, Callable[[int], bytes]] = {
    "css url()": lambda c: b"<style>a{b:url(x%s)}</style>" % _css_escape(c),
    "css string": lambda c: b"<p style=\"b:url('x%s')\">" % _css_escape(c),
    "json-ld": lambda c: (
        b'<script type="application/ld+json">{"url": "x%s"}</script>' % _json_escape(c)
    ),
    "reference": lambda c: b'<a href="x%s">' % _reference(c),
}


@settings(max_examples=200)
@given(
    st.one_of(st.integers(0xD800, 0xDFFF), st.sampled_from(NONCHARACTERS)),
    st.sampled_from(list(_ESCAPES)),
)
def test_any_escaped_code_point_is_scalar_in_the_link(code: int, form: str) -> None:
    [link] = extract_links(_ESCAPES[form](code), url="http://e.example/")
    expected = "\ufffd" if 0xD800 <= code <= 0xDFFF else chr(code)
    assert link.raw == "x" + expected
