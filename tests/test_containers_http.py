"""Containers: raw HTTP responses (containers/httpmsg.py): headers, chunked transfer coding,
content codings, Link and Location headers; a body a crawler hands over with its headers."""

from __future__ import annotations

import gzip
import zlib

import pytest

from baselinks import InputError, extract_links
from baselinks.api import Summary
from baselinks.find.microsyntax import HeaderLink, parse_link_header
from baselinks.load.containers import coding, httpmsg


def test_parse_response_and_media_type() -> None:
    response = httpmsg.parse_response(
        b'HTTP/1.1 200 OK\r\nContent-Type: text/html;\r\n charset="KOI8-R"\r\nX: 1\r\n\r\nbody'
    )
    assert response.status == 200
    assert response.header("content-type") == 'text/html; charset="KOI8-R"'
    assert httpmsg.media_type(response.headers) == ("text/html", "KOI8-R")
    assert response.body == b"body"
    with pytest.raises(InputError, match="not an HTTP response"):
        httpmsg.parse_response(b"HTTPX/1.1 200 OK\r\n\r\n")


@pytest.mark.parametrize(
    ("body", "expected", "problem"),
    [
        (b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n", b"hello world", ""),
        (b"5\nhello\n0\n\n", b"hello", ""),  # bare LF
        (
            b"5\r\nhello\r\n6\r\n wo",
            b"hello wo",
            " cut short: a chunk of 6 bytes at byte 10, 3 there",
        ),
        (b"5\r\nhello\r\n", b"hello", " cut short: no last chunk"),  # was: no error
        (
            b"5\r\nhello\r\nzz\r\n world\r\n0\r\n",
            b"hello",
            ": the line at byte 10, 'zz', is no chunk size",
        ),
        # a huge size: the 30 bytes there kept (was: "larger than 268435456 bytes", none kept)
        (
            b"ffffffffffff\r\n" + b"x" * 30,
            b"x" * 30,
            " cut short: a chunk of 281,474,976,710,655 bytes at byte 0, 30 there",
        ),
        (b"<html>", None, None),  # not chunked after all
        (b"+5\r\nhello", None, None),  # int() would take it; the grammar does not
    ],
)
def test_dechunk(body: bytes, expected: bytes | None, problem: str | None) -> None:
    decoded = httpmsg.dechunk(body)
    if expected is None:
        assert decoded is None
    else:
        assert decoded == (expected, f"chunked body{problem}" if problem else "")


@pytest.mark.parametrize(
    "body",
    [
        b"0\n<a href=x>",  # a de-chunked page that begins with "0": was read as empty
        b"5\r\nhello",  # no last chunk: not a whole chunked body
        b"5\r\nhello\r\nzz\r\n",
        b"a\r\nhello",
    ],
)
def test_a_body_a_client_dechunked_is_taken_as_it_came(body: bytes) -> None:
    assert httpmsg.dechunk(body, strict=False) is None
    headers = [("Transfer-Encoding", "chunked"), ("Content-Type", "text/html")]
    assert httpmsg.decode_content(body, headers, framed=False) == (body, "")


def test_a_whole_chunked_body_a_client_hands_over_is_dechunked() -> None:
    body = b"a\r\n<a href=x>\r\n0\r\n\r\n"
    assert httpmsg.dechunk(body, strict=False) == (b"<a href=x>", "")
    links = extract_links(body, url="http://e.com/", headers={"Transfer-Encoding": "chunked"})
    assert [link.url for link in links] == ["http://e.com/x"]


@pytest.mark.parametrize(
    ("coding", "encode"),
    [
        ("gzip", lambda b: gzip.compress(b)),
        ("x-gzip", lambda b: gzip.compress(b[:3]) + gzip.compress(b[3:])),  # two members
        ("deflate", zlib.compress),
        ("deflate", lambda b: zlib.compress(b, wbits=-15)),  # raw deflate, as servers send
        ("br", lambda b: __import__("brotli").compress(b)),
        ("identity", lambda b: b),
        ("gzip", lambda b: b),  # kept decoded under its old header: taken as it is
    ],
)
def test_decode_content(coding: str, encode: object) -> None:
    body = b"<a href=x>decoded</a>"
    assert callable(encode)
    assert httpmsg.decode_content(encode(body), [("Content-Encoding", coding)]).data == body


def test_decode_content_caps_a_decompression_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coding, "MAX_DECODED_BYTES", 1 << 20)
    bomb = gzip.compress(b"\0" * (4 << 20))
    assert len(bomb) < 10_000
    with pytest.raises(InputError, match="larger than 1048576 bytes"):
        httpmsg.decode_content(bomb, [("Content-Encoding", "gzip")])
    with pytest.raises(InputError, match="larger than"):
        httpmsg.decode_content(bomb, [("Content-Encoding", "br, gzip")])  # outer layer first


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("</a>; rel=next", [HeaderLink("/a", "next")]),
        (
            '<a.css>; rel="preload Stylesheet"; as=style, <b>; title="x, y"; rel=prev',
            [HeaderLink("a.css", "preload stylesheet"), HeaderLink("b", "prev")],
        ),
        ('<a>; rel="first"; rel="second"', [HeaderLink("a", "first")]),  # RFC 8288 §3.3
        ("<a>, junk, <b>", [HeaderLink("a", ""), HeaderLink("b", "")]),
        ('<a>; title="quoted \\" quote"; rel=x', [HeaderLink("a", "x")]),
        ("<unclosed", []),
    ],
)
def test_parse_link_header(value: str, expected: list[HeaderLink]) -> None:
    assert parse_link_header(value) == expected


def test_a_crawler_hands_over_body_url_and_headers() -> None:
    body = "<a href='страница'>ссылка</a>".encode("koi8-r")
    links = extract_links(
        gzip.compress(body),
        url="http://example.ru/a/final",
        headers={
            "Content-Type": "text/html; charset=koi8-r",
            "Content-Encoding": "gzip",
            "Link": "</style.css>; rel=stylesheet",
        },
    )
    assert [(link.url, link.tag, link.kind) for link in links] == [
        ("http://example.ru/style.css", "http", "resource"),
        ("http://example.ru/a/страница", "a", "link"),
    ]
    # the crawler's HTTP library already decoded the body: the same links
    decoded = extract_links(
        body,
        url="http://example.ru/a/final",
        headers=[("Content-Encoding", "gzip")],
        charset="koi8-r",
    )
    assert decoded[0].url == "http://example.ru/a/страница"
    # a body the headers say is not HTML gives no links, and no error
    summary = Summary()
    assert (
        extract_links(b"<a href=x>", headers={"Content-Type": "image/png"}, summary=summary) == []
    )
    assert summary.skipped == {"not HTML (image/png)": 1}


def test_http_content_location_is_not_a_base() -> None:
    response = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
        b"Content-Location: http://elsewhere.example/x/\r\n\r\n<a href=y>"
    )
    links = extract_links(response, url="http://example.com/d/p")
    assert [(link.url, link.attr, link.kind) for link in links] == [
        ("http://elsewhere.example/x/", "content-location", "other"),  # a link (cc-pyspark's too)
        ("http://example.com/d/y", "href", "link"),  # resolved against the retrieval URL
    ]


def test_location_is_a_link_only_on_a_redirect() -> None:
    def locations(status: str) -> list[str]:
        response = f"HTTP/1.1 {status}\r\nLocation: /next\r\n\r\n".encode()
        return [link.url for link in extract_links(response, url="http://e.com/a")]

    assert locations("301 Moved") == ["http://e.com/next"]
    assert locations("201 Created") == []


# --- issue 29: HTTP framing read as RFC 9112 frames it, or said --------------------------------

_OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"


def _read(data: bytes, **options: object) -> tuple[list[str], list[str]]:
    errors: list[InputError] = []
    links = extract_links(data, url="http://e.com/", on_error=errors.append, **options)  # type: ignore[arg-type]
    return [link.url for link in links], [error.message for error in errors]


@pytest.mark.parametrize(
    ("body", "urls", "said"),
    [
        # a chunk-size line that is no hex number: was the end of the body, said nothing
        (
            b"5\r\n<a hr\r\nzz\r\nef=x>\r\n0\r\n\r\n",
            [],
            "the line at byte 10, 'zz', is no chunk size",
        ),
        (b"a\r\n<a href=x>\r\n", ["http://e.com/x"], "cut short: no last chunk"),  # was unsaid
        # a huge declared size: was "chunked body larger than 268435456 bytes", nothing read
        (
            b"ffffffffffff\r\n<a href=x><a href=y> 30 bytes",
            ["http://e.com/x", "http://e.com/y"],
            "cut short: a chunk of 281,474,976,710,655 bytes",
        ),
    ],
)
def test_broken_chunked_framing_keeps_what_came_and_says_so(
    body: bytes, urls: list[str], said: str
) -> None:
    found, errors = _read(_OK + b"Transfer-Encoding: chunked\r\n\r\n" + body)
    assert found == urls
    assert len(errors) == 1 and said in errors[0] and errors[0].startswith("chunked body")


@pytest.mark.parametrize(
    "head",
    [
        b"Transfer-Encoding: gzip, chunked\r\n",  # was not decoded
        b"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",  # one list, two lines
    ],
)
def test_a_transfer_coding_besides_chunked_is_decoded(head: bytes) -> None:
    packed = gzip.compress(b"<a href=x>")
    body = b"%x\r\n" % len(packed) + packed + b"\r\n0\r\n\r\n"
    assert _read(_OK + head + b"\r\n" + body) == (["http://e.com/x"], [])


def test_every_content_encoding_line_is_decoded() -> None:
    # two Content-Encoding lines are one list (RFC 9110 §5.3): was one gzip undone of two
    twice = gzip.compress(gzip.compress(b"<a href=x>"))
    head = b"Content-Encoding: gzip\r\nContent-Encoding: gzip\r\n\r\n"
    assert _read(_OK + head + twice) == (["http://e.com/x"], [])


@pytest.mark.parametrize(
    "interim",
    [
        b"HTTP/1.1 100 Continue\r\n\r\n",  # was: "skipped (not HTML)"
        b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n",  # was: the hint alone
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n",
    ],
)
def test_interim_responses_before_the_final_one_are_passed_over(interim: bytes) -> None:
    response = interim + _OK + b"Link: </p.css>; rel=stylesheet\r\n\r\n<a href=x>"
    assert _read(response) == (["http://e.com/p.css", "http://e.com/x"], [])
    assert httpmsg.parse_response(response).status == 200


def test_an_arc_record_without_its_file_header_is_an_arc_record() -> None:
    # was sniffed as MIME ("http:" reads as a header name): no base, a false error
    body = _OK + b"\r\n<a href=x>"
    record = b"http://e.com/a/ 1.2.3.4 20200101000000 text/html %d\n" % len(body) + body + b"\n"
    errors: list[InputError] = []
    links = extract_links(record * 2, on_error=errors.append)
    assert [(link.url, link.base) for link in links] == [
        ("http://e.com/a/x", "http://e.com/a/")
    ] * 2
    assert errors == []


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (
            b"X: " + b"a" * (1 << 20) + b"\r\n",
            "HTTP header block larger than 1,048,576 bytes: not read",
        ),
        (b"a: b\r\n" * 10_000, "HTTP header block of more than 10,000 lines: not read"),
    ],
)
def test_an_http_head_over_the_limits_is_reported(head: bytes, said: str) -> None:
    with pytest.raises(InputError, match=said):
        httpmsg.parse_response(_OK + head + b"\r\n<a href=x>")
    assert _read(_OK + head + b"\r\n<a href=x>") == ([], [said])
