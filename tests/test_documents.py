"""Style sheets and SVG as documents (issue 19, item 4): one registry of document types, the
same answer from a file, a WARC record, a MIME part, an HTTP response and ``headers=``."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from baselinks import InputError, Link, extract_links
from baselinks.api import Summary
from baselinks.cli import main
from baselinks.load.containers.doctypes import (
    HTML_TYPES,
    MEDIA_TYPES,
    UNKNOWN_TYPES,
    DocType,
    document_type,
    file_type,
    may_be_document,
)
from conftest import FIXTURES

CSS = FIXTURES / "css"
SVG = FIXTURES / "svg"


def _rows(links: list[Link]) -> list[tuple[str, str, str, int | None, str]]:
    return [(link.url, link.tag, link.attr, link.line, link.kind) for link in links]


# --- the registry -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("essence", "body", "expected"),
    [
        ("text/html", b"", DocType.HTML),
        ("application/xhtml+xml", b"", DocType.HTML),
        ("text/css", b"", DocType.CSS),
        ("image/svg+xml", b"", DocType.SVG),
        ("", b"<!DOCTYPE html><p>", DocType.HTML),  # an unknown type is sniffed ...
        ("unknown/unknown", b"<html>", DocType.HTML),
        # ... for HTML only: MIME Sniffing never makes a style sheet or an SVG of it
        ("", b"body { background: url(a.png) }", None),
        ("", b'<svg xmlns="http://www.w3.org/2000/svg">', None),
        ("image/png", b"<html>", None),
        ("application/javascript", b"", None),
    ],
)
def test_document_type(essence: str, body: bytes, expected: DocType | None) -> None:
    assert document_type(essence, body) is expected
    # what a reader may skip unread: a type that is neither in the table nor unknown
    assert may_be_document(essence) is (essence in MEDIA_TYPES or essence in UNKNOWN_TYPES)


def test_html_types_are_the_registrys_html_rows() -> None:
    assert {"text/html", "application/xhtml+xml"} == HTML_TYPES


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("site.css", b"body{}", DocType.CSS),
        ("SITE.CSS.gz", b"", DocType.CSS),
        ("logo.svg", b"", DocType.SVG),
        ("logo.svgz", b"", DocType.SVG),
        ("noname", b'<svg xmlns="http://www.w3.org/2000/svg">', DocType.SVG),
        ("noname", (SVG / "drawing.svg").read_bytes()[:8192], DocType.SVG),  # prolog, DTD
        ("noname", b"\xef\xbb\xbf<!-- c --><svg>", DocType.SVG),
        ("page.html", b"<svg></svg>", None),  # named HTML: HTML whatever it holds
        ("noname", b"<svgfoo>", None),
        ("noname", b"<!-- never closed <svg>", None),
        ("noname", b"<html>", None),
    ],
)
def test_file_type(name: str, head: bytes, expected: DocType | None) -> None:
    assert file_type(name, head) is expected


# --- style sheets -------------------------------------------------------------------------

SITE = "http://example.com/static/css/site.css"
SITE_LINKS = [
    ("http://example.com/static/css/reset.css", "css", "@import", 3, "resource"),
    ("http://example.com/static/css/theme/print.css", "css", "@import", 4, "resource"),
    ("https://cdn.example/fonts.css", "css", "@import", 5, "resource"),
    ("http://example.com/static/css/img/bg.png", "css", "url()", 6, "resource"),
    ("http://example.com/static/css/logo.png", "css", "image-set()", 7, "resource"),
    ("http://example.com/static/css/logo@2x.png", "css", "url()", 7, "resource"),
    ("http://example.com/static/icons/sprite.svg#home", "css", "url()", 8, "resource"),
    ("http://example.com/static/css/image.png", "css", "url()", 9, "resource"),
    ("http://example.com/fonts/f.woff2", "css", "url()", 10, "resource"),
    ("data:font/woff2;base64,AAAA", "css", "url()", 10, "resource"),
]


def test_a_style_sheet_file_gives_its_links_against_its_own_url() -> None:
    # before: "1 document, 0 links" (the sheet was parsed as HTML)
    links = extract_links(str(CSS / "site.css"), url=SITE)
    assert _rows(links) == SITE_LINKS
    assert {(link.base, link.base_source) for link in links} == {(SITE, "retrieval")}


def test_a_style_sheet_without_a_url_reports_its_links_as_written() -> None:
    links = extract_links(str(CSS / "site.css"))
    assert links[0].url == "reset.css" and links[0].problems == ("no-base",)


@pytest.mark.parametrize(
    ("data", "charset", "expected"),
    [
        # CSS Syntax §3.2: @charset decides when nothing outside does ...
        (b'@charset "iso-8859-1"; a { b: url(caf\xe9.png) }', None, "café.png"),
        # ... the transport's charset wins over it ...
        ('@charset "iso-8859-1"; a { b: url(café.png) }'.encode(), "utf-8", "café.png"),
        (b'@charset "utf-8"; a { b: url(caf\xe9.png) }', "latin1", "café.png"),
        # ... and a byte order mark over both
        ((CSS / "bom-utf8.css").read_bytes(), "latin1", "café.png"),
        # "utf-16" in @charset means UTF-8 (the bytes are ASCII-compatible, or it could
        # not have been read)
        ('@charset "utf-16"; a { b: url(café.png) }'.encode(), None, "café.png"),
        # neither: UTF-8
        ("a { b: url(café.png) }".encode(), None, "café.png"),
    ],
)
def test_style_sheet_decoding(data: bytes, charset: str | None, expected: str) -> None:
    links = extract_links(
        data, headers={"Content-Type": "text/css" + (f"; charset={charset}" if charset else "")}
    )
    assert [link.raw for link in links] == [expected]


def test_a_style_sheets_query_is_utf8_in_whatwg_mode_whatever_its_encoding() -> None:
    # CSS Values 4 parses url() with no encoding (UTF-8); an HTML page in windows-1252
    # would send %E9 (Chrome does for CSS too: docs/reference.md, browser differences)
    links = extract_links(str(CSS / "charset-latin1.css"), url=SITE, mode="whatwg")
    assert links[1].url == "http://example.com/static/css/search?q=%C3%A9"


def test_select_matches_nothing_in_a_style_sheet() -> None:
    assert extract_links(str(CSS / "site.css"), url=SITE, select="body") == []


# --- SVG ----------------------------------------------------------------------------------

DRAWING = "http://example.com/img/drawing.svg"


def test_an_svg_file_gives_what_the_same_svg_inline_in_html_gives() -> None:
    data = (SVG / "drawing.svg").read_bytes()
    links = extract_links(data, url=DRAWING)
    assert [(link.raw, link.tag, link.attr, link.kind, link.text) for link in links] == [
        ("svg-theme.css", "style", "@import", "resource", ""),
        ("#grad", "style", "url()", "resource", ""),
        ("textures/paper.png", "style", "url()", "resource", ""),
        ("gradients.svg#base", "lineargradient", "xlink:href", "resource", ""),
        ("patterns.svg#dots", "pattern", "href", "resource", ""),
        ("photos/cat.jpg", "image", "xlink:href", "resource", ""),  # an internal entity
        ("filters.svg#blur", "image", "style", "resource", ""),
        ("img/new.png", "image", "href", "resource", ""),
        ("../about.html", "a", "href", "link", "About us"),
        ("contact.html", "a", "xlink:href", "link", "Contact"),  # prefix "l", not "xlink"
        ("#grad", "use", "href", "resource", ""),
        ("app.js", "script", "href", "resource", ""),
        ("fo.png", "img", "src", "resource", ""),  # XHTML inside foreignObject
    ]
    assert links[8].url == "http://example.com/about.html"
    assert [link.line for link in links][3:] == [14, 15, 17, 18, 18, 19, 20, 21, 22, 24]
    # the same markup inside an HTML page: the same links (the HTML parser drops the CDATA
    # markers' meaning, so <style> is left out; xlink:href needs its usual prefix there)
    inline = data.split(b"]>", 1)[1].replace(b"l:href", b"xlink:href")
    inline = inline.replace(b"&photo;", b"photos/cat.jpg")
    html = b"<!DOCTYPE html><html><body>" + inline + b"</body></html>"
    in_html = extract_links(html, url=DRAWING)
    assert [(k.raw, k.tag, k.attr, k.kind, k.text) for k in in_html if k.tag != "style"] == [
        (k.raw, k.tag, k.attr, k.kind, k.text) for k in links if k.tag != "style"
    ]


def test_an_svg_that_is_not_well_formed_gives_its_links_and_an_error_naming_it() -> None:
    errors: list[InputError] = []
    links = extract_links(str(SVG / "broken.svg"), url=DRAWING, on_error=errors.append)
    # read as HTML: the <image> after the root element is an HTML <img href>, no link (in XML
    # it is not part of the document at all)
    assert [(link.raw, link.tag, link.attr) for link in links] == [
        ("before.png", "image", "href"),
        ("inside.html", "a", "href"),
    ]
    assert [str(error) for error in errors] == [
        f"{SVG / 'broken.svg'}: SVG not well-formed at line 5: Opening and ending tag "
        "mismatch: g line 3 and svg, line 5, column 7; read as HTML instead"
    ]


def test_an_svg_nested_past_libxml2s_limit_keeps_every_link() -> None:
    # XML recovery stops at 2048 levels and loses the rest; the HTML parser's flattening
    # (load.py) reads on, as for a page
    deep = b'<svg xmlns="http://www.w3.org/2000/svg">' + b"<g>" * 5000
    deep += b'<image href="deep.png"/>' + b"</g>" * 5000 + b'<a href="after.html">x</a></svg>'
    errors: list[InputError] = []
    links = extract_links(deep, headers={"Content-Type": "image/svg+xml"}, on_error=errors.append)
    assert [link.raw for link in links] == ["deep.png", "after.html"]
    assert len(errors) == 1 and "Excessive depth" in str(errors[0])


def test_an_svg_never_reads_an_external_entity() -> None:
    # <!ENTITY secret SYSTEM "file:///etc/hostname">: not read, not expanded
    links = extract_links(str(SVG / "external-entity.svg"), url=DRAWING)
    assert [(link.raw, link.text) for link in links] == [("x.html", ""), ("y.png", "")]


def test_an_svg_billion_laughs_is_an_error_not_a_hang() -> None:
    entities = '<!ENTITY l0 "lollollollollollollollollollol">' + "".join(
        f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10)
    )
    svg = (
        f'<?xml version="1.0"?><!DOCTYPE svg [{entities}]>'
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="a.png"/><a href="&l9;">x</a></svg>'
    ).encode()
    errors: list[InputError] = []
    links = extract_links(svg, headers={"Content-Type": "image/svg+xml"}, on_error=errors.append)
    assert [link.raw for link in links] == ["a.png", "&l9;"]  # never expanded
    assert len(errors) == 1 and "SVG not well-formed" in str(errors[0])
    assert "amplification" in str(errors[0])


def test_an_svgs_transport_charset_wins_over_its_xml_declaration() -> None:
    svg = (
        b'<?xml version="1.0" encoding="utf-8"?>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><a href="caf\xe9.html">x</a></svg>'
    )
    links = extract_links(svg, headers={"Content-Type": "image/svg+xml; charset=iso-8859-1"})
    assert [link.raw for link in links] == ["café.html"]


def test_an_empty_svg_is_no_damage() -> None:
    assert extract_links(b" \n", headers={"Content-Type": "image/svg+xml"}) == []


def test_a_gzipped_svg_is_read() -> None:
    data = gzip.compress((SVG / "drawing.svg").read_bytes(), mtime=0)
    assert len(extract_links(data, name="drawing.svgz", url=DRAWING)) == 13


# --- the same documents in every container -------------------------------------------------


def _warc_record(uri: str, block: bytes, content_type: str, rec_type: str = "response") -> bytes:
    head = (
        f"WARC/1.1\r\nWARC-Type: {rec_type}\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
        f"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
        f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def _http(content_type: str, body: bytes) -> bytes:
    return f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n".encode() + body


SHEET = b"@import 'a.css'; p { background: url(../img/b.png) }"
DRAWN = b'<svg xmlns="http://www.w3.org/2000/svg"><image href="c.png"/></svg>'


def test_warc_records_of_style_sheets_and_svg_are_documents() -> None:
    warc = (
        _warc_record(SITE, _http("text/css", SHEET), "application/http; msgtype=response")
        + _warc_record(DRAWING, _http("image/svg+xml", DRAWN), "application/http; msgtype=response")
        + _warc_record("http://example.com/x.js", _http("text/javascript", b"url(x)"), "application/http")
        + _warc_record("http://example.com/r.css", SHEET, "text/css", "resource")
    )  # fmt: skip
    summary = Summary()
    links = extract_links(warc, summary=summary)
    assert [(link.url, link.tag, link.document) for link in links] == [
        ("http://example.com/static/css/a.css", "css", f"-#{SITE}"),
        ("http://example.com/static/img/b.png", "css", f"-#{SITE}"),
        ("http://example.com/img/c.png", "image", f"-#{DRAWING}"),
        ("http://example.com/a.css", "css", "-#http://example.com/r.css"),
        # RFC 1808 §5.2 keeps a ".." above the root (rfc1808 mode, the default)
        ("http://example.com/../img/b.png", "css", "-#http://example.com/r.css"),
    ]
    assert summary.skipped == {"not HTML (text/javascript)": 1}


def test_mime_parts_of_style_sheets_and_svg_are_documents_with_their_own_location() -> None:
    message = (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n'
        b"Snapshot-Content-Location: http://example.com/page.html\r\n\r\n"
        b"--b\r\nContent-Type: text/html\r\nContent-Location: http://example.com/page.html\r\n\r\n"
        b"<link rel=stylesheet href=static/css/site.css>\r\n"
        b"--b\r\nContent-Type: text/css\r\nContent-Location: " + SITE.encode() + b"\r\n\r\n"
        + SHEET + b"\r\n"
        b"--b\r\nContent-Type: image/svg+xml\r\nContent-Location: " + DRAWING.encode() + b"\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n"
        + __import__("base64").encodebytes(DRAWN) + b"\r\n--b--\r\n"
    )  # fmt: skip
    links = extract_links(message)
    assert [(link.url, link.base_source) for link in links] == [
        ("http://example.com/static/css/site.css", "encapsulating"),
        ("http://example.com/static/css/a.css", "encapsulating"),
        ("http://example.com/static/img/b.png", "encapsulating"),
        ("http://example.com/img/c.png", "encapsulating"),
    ]


def test_an_http_response_file_and_headers_given_by_a_crawler(tmp_path: Path) -> None:
    response = tmp_path / "sheet.http"
    response.write_bytes(_http("text/css; charset=utf-8", SHEET))
    expected = ["http://example.com/static/css/a.css", "http://example.com/static/img/b.png"]
    assert [link.url for link in extract_links(str(response), url=SITE)] == expected
    fetched = extract_links(SHEET, url=SITE, headers={"Content-Type": "text/css"})
    assert [link.url for link in fetched] == expected


def test_a_directory_walk_reads_style_sheets_and_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "page_files"
    folder.mkdir()
    (tmp_path / "page.html").write_bytes(b"<link rel=stylesheet href=page_files/site.css>")
    (folder / "site.css").write_bytes(SHEET)
    (folder / "logo.svg").write_bytes(DRAWN)
    (folder / "app.js").write_bytes(b"var x = 'url(a.png)';")
    (folder / "pixel.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["extract", str(tmp_path), "--format", "tsv", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[1] for line in out[1:]] == [
        "page_files/site.css", "c.png", "a.css", "../img/b.png",
    ]  # fmt: skip
    assert main(["extract", str(tmp_path), "--format", "tsv"]) == 0
    assert capsys.readouterr().err.endswith(
        "5 files, 3 documents, 4 links; 4 links without a base (relative, as written): give "
        "--url or --root-url; skipped 2 (2 not a document); 0 failed\n"
    )


def test_a_media_type_added_to_the_registry_reaches_every_reader(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # one table for the four readers (HTTP, WARC, MIME, headers=): a row added there is read
    # everywhere, and nowhere before it is added
    odd = "text/x-sheet"
    warc = _warc_record(SITE, _http(odd, SHEET), "application/http; msgtype=response")
    response = tmp_path / "sheet.http"
    response.write_bytes(_http(odd, SHEET))
    message = (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: " + odd.encode() + b"\r\n\r\n" + SHEET + b"\r\n--b--\r\n"
    )

    def found() -> list[int]:
        return [
            len(extract_links(warc)),
            len(extract_links(str(response), url=SITE)),
            len(extract_links(message, url=SITE)),
            len(extract_links(SHEET, url=SITE, headers={"Content-Type": odd})),
        ]

    assert found() == [0, 0, 0, 0]
    monkeypatch.setitem(MEDIA_TYPES, odd, DocType.CSS)
    assert found() == [2, 2, 2, 2]


def test_a_style_sheet_built_to_hurt_gives_every_link() -> None:
    # 100,000 nested brackets (the scanner keeps a stack, no recursion), then a later rule
    css = b"a{b:" + b"(" * 100_000 + b"url(x.png)" + b")" * 100_000 + b"} c{d:url(y.png)}"
    links = extract_links(css, headers={"Content-Type": "text/css"})
    assert [link.raw for link in links] == ["x.png", "y.png"]


@pytest.mark.parametrize(
    ("url", "found"),
    [
        ("http://e.example/site.css", 10),  # a name that says nothing: the URL's path tells
        ("http://e.example/site.css?v=2", 10),
        ("http://e.example/page", 0),  # nothing tells: HTML, and a sheet has no elements
        ("http://[bad/site.css", 0),
    ],
)
def test_bytes_or_stdin_take_their_type_from_the_url_when_their_name_says_nothing(
    url: str, found: int
) -> None:
    sheet = (CSS / "site.css").read_bytes()
    assert len(extract_links(sheet, url=url)) == found


def test_a_page_at_a_style_sheet_url_is_still_a_page() -> None:
    page = b"<!DOCTYPE html><a href=x.html>x</a>"
    assert [link.raw for link in extract_links(page, url="http://e.example/s.css")] == ["x.html"]
