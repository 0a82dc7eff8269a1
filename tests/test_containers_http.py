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
    ("body", "expected"),
    [
        (b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n", b"hello world"),
        (b"5\nhello\n0\n\n", b"hello"),  # bare LF
        (b"5\r\nhello\r\n6\r\n wo", b"hello wo"),  # cut short: what arrived
        (b"<html>", None),  # not chunked after all
        (b"+5\r\nhello", None),  # int() would take it; the grammar does not
    ],
)
def test_dechunk(body: bytes, expected: bytes | None) -> None:
    assert httpmsg.dechunk(body) == expected


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
    assert extract_links(response, url="http://example.com/d/p")[0].url == "http://example.com/d/y"


def test_location_is_a_link_only_on_a_redirect() -> None:
    def locations(status: str) -> list[str]:
        response = f"HTTP/1.1 {status}\r\nLocation: /next\r\n\r\n".encode()
        return [link.url for link in extract_links(response, url="http://e.com/a")]

    assert locations("301 Moved") == ["http://e.com/next"]
    assert locations("201 Created") == []
