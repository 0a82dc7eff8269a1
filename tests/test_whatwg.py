"""The whatwg mode against WHATWG urltestdata.json (web-platform-tests, via ada-url's copy)."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import pytest

from baselinks import URLError, extract_links, resolve
from baselinks.cli import main
from conftest import CONFORMANCE, warc

_DATA = json.loads((CONFORMANCE / "whatwg_urltestdata.json").read_text(encoding="utf-8"))
_TESTS: list[dict[str, Any]] = [entry for entry in _DATA if isinstance(entry, dict)]


def _param(case: dict[str, Any]) -> Any:
    return pytest.param(
        case["base"] or "", case["input"], case.get("href"), id=repr(case["input"])[:60]
    )


WITH_BASE = [_param(c) for c in _TESTS if c["base"] is not None and not c.get("failure")]
FAILURES = [_param(c) for c in _TESTS if c.get("failure")]
ABSOLUTE = [_param(c) for c in _TESTS if c["base"] is None and not c.get("failure")]


def test_the_suite_is_whole() -> None:
    assert (len(_TESTS), len(WITH_BASE), len(FAILURES)) == (891, 274, 267)


@pytest.mark.parametrize(("base", "ref", "href"), WITH_BASE)
def test_every_case_with_a_base(base: str, ref: str, href: str) -> None:
    assert resolve(base, ref, mode="whatwg") == href


@pytest.mark.parametrize(("base", "ref", "href"), ABSOLUTE)
def test_every_case_without_a_base(base: str, ref: str, href: str) -> None:
    assert resolve(base, ref, mode="whatwg") == href


@pytest.mark.parametrize(("base", "ref", "href"), FAILURES)
def test_every_failure_raises_a_url_error(base: str, ref: str, href: None) -> None:
    with pytest.raises(URLError) as info:
        resolve(base, ref, mode="whatwg")
    assert repr(ref) in str(info.value)
    assert isinstance(info.value, ValueError)


# HTML standard, "encoding-parse a URL": a link's query is encoded in the document's encoding
# (the URL Standard's query state), for special schemes other than ws and wss; what the
# encoding cannot hold is sent as its numeric character reference, percent-encoded. The path
# and fragment are UTF-8 whatever the document. (Browsers agree: web-platform-tests
# html/infrastructure/urls/resolving-urls/query-encoding.)
QUERY_ENCODING = [
    ("windows-1252", "?q=caf\u00e9#caf\u00e9", "http://e.com/d/p?q=caf%E9#caf%C3%A9"),
    ("windows-1252", "?q=\u20ac", "http://e.com/d/p?q=%80"),
    ("windows-1252", "?q=\u2603", "http://e.com/d/p?q=%26%239731%3B"),
    ("windows-1252", "caf\u00e9?q=\u00e9", "http://e.com/d/caf%C3%A9?q=%E9"),
    ("windows-1252", "#x?\u00e9", "http://e.com/d/p#x?%C3%A9"),
    ("windows-1252", "mailto:a?s=\u00e9", "mailto:a?s=%C3%A9"),
    ("windows-1252", "ws://h/?\u00e9", "ws://h/?%C3%A9"),
    ("windows-1252", "ftp://h/?\u00e9", "ftp://h/?%E9"),
    ("iso-8859-2", "?q=\u20ac\u0159", "http://e.com/d/p?q=%26%238364%3B%F8"),
    ("shift_jis", "?q=\u8868", "http://e.com/d/p?q=%95\\"),
    ("euc-kr", "?q=\ud55c", "http://e.com/d/p?q=%C7%D1"),
    ("gb18030", "?q=\u4e2d 1", "http://e.com/d/p?q=%D6%D0%201"),
    ("iso-2022-jp", "?q=\u8868a", "http://e.com/d/p?q=%1B$BI=%1B(Ba"),
    ("utf-16le", "?q=\u00e9", "http://e.com/d/p?q=%C3%A9"),
    ("utf-8", "?q=\u00e9", "http://e.com/d/p?q=%C3%A9"),
]


@pytest.mark.parametrize(("charset", "href", "expected"), QUERY_ENCODING)
def test_a_query_is_encoded_in_the_document_encoding(
    charset: str, href: str, expected: str
) -> None:
    # what the encoding cannot hold is written as a character reference, as an editor saves it
    page = f'<a href="{href}">x</a>'.encode(codecs.lookup(charset).name, "xmlcharrefreplace")
    [link] = extract_links(page, url="http://e.com/d/p", charset=charset, mode="whatwg")
    assert (link.raw, link.url) == (href, expected)
    # the other modes keep the reference as written
    [link] = extract_links(page, url="http://e.com/d/p", charset=charset)
    assert href in link.url


def test_the_base_element_query_is_encoded_too() -> None:
    page = '<base href="/x/?b=\u00e9"><a href="">a</a><a href="y?q=\u00e9">b</a>'.encode("cp1252")
    links = extract_links(page, url="http://e.com/p", charset="windows-1252", mode="whatwg")
    assert [(link.base, link.url) for link in links] == [
        ("http://e.com/x/?b=%E9", "http://e.com/x/?b=%E9"),
        ("http://e.com/x/?b=%E9", "http://e.com/x/y?q=%E9"),
    ]


# An ASCII-only page that declares no encoding: decoded as UTF-8 (the same text in any
# ASCII-compatible encoding), but a browser gives it windows-1252, and that encodes its queries.
UNDECLARED = [
    (b'<a href="?q=&#255;">x</a>', "http://e.com/d/p?q=%FF"),  # ASCII bytes: windows-1252
    (b'<a href="?q=&#8364;">x</a>', "http://e.com/d/p?q=%80"),
    ('<a href="?q=&#255;">\u00e9</a>'.encode(), "http://e.com/d/p?q=%C3%BF"),  # UTF-8 text
    (b'<meta charset="utf-8"><a href="?q=&#255;">x</a>', "http://e.com/d/p?q=%C3%BF"),  # declared
]


@pytest.mark.parametrize(("page", "expected"), UNDECLARED)
def test_an_ascii_page_without_a_declaration_encodes_queries_as_windows_1252(
    page: bytes, expected: str
) -> None:
    [link] = extract_links(page, url="http://e.com/d/p", mode="whatwg")
    assert link.url == expected
    # its text is decoded as before: the reference is the same, and rfc1808 mode keeps it
    [same] = extract_links(page, url="http://e.com/d/p")
    assert same.raw == link.raw
    assert same.url == "http://e.com/d/p" + link.raw


# The base field as the mode's URL parser writes it: whatwg serialises, the RFC modes keep the
# retrieval URL as passed (RFC 1808 has no normal form; RFC 3986 §5.2.1 makes it optional).
BASE_FIELD = [
    ("https://sass-ag.de", "whatwg", "https://sass-ag.de/"),
    ("HTTP://Example.COM:80/a/../b", "whatwg", "http://example.com/b"),
    ("https://b\u00fccher.example/x", "whatwg", "https://xn--bcher-kva.example/x"),
    ("https://sass-ag.de", "rfc1808", "https://sass-ag.de"),
    ("https://sass-ag.de", "rfc3986", "https://sass-ag.de"),
    ("https://b\u00fccher.example/x", "rfc1808", "https://b\u00fccher.example/x"),
    # the parser fails (a space in the host): kept as passed ("not a url" was the case before
    # url= was checked: absolute, with a scheme)
    ("http://exa mple.com/", "whatwg", "http://exa mple.com/"),
]


@pytest.mark.parametrize(("url", "mode", "base"), BASE_FIELD)
def test_the_base_field_is_written_by_the_mode(url: str, mode: str, base: str) -> None:
    [link] = extract_links(b'<a href="https://abs.example/">x</a>', url=url, mode=mode)
    assert (link.base, link.base_source) == (base, "retrieval")


def test_an_empty_action_is_the_document_url_as_the_parser_writes_it() -> None:
    page = b'<base href="http://cdn.example/"><form action="">x</form><form></form>'
    links = extract_links(page, url="https://sass-ag.de", mode="whatwg")
    assert [(link.url, link.base) for link in links] == [("https://sass-ag.de/",) * 2] * 2


def test_an_action_of_spaces_only_is_the_document_url_as_a_browser_submits() -> None:
    # Blink and WebKit strip the action's spaces before "if action is the empty string"
    page = b'<base href="http://cdn.example/"><form action=" \t\n"><button formaction="  ">'
    links = extract_links(page, url="https://sass-ag.de/p", mode="whatwg")
    assert [(link.raw, link.url, link.base) for link in links] == [
        (" \t\n", "https://sass-ag.de/p", "https://sass-ag.de/p"),
        ("  ", "https://sass-ag.de/p", "https://sass-ag.de/p"),
    ]


# issue 29, item 4: the page's base in whatwg mode as the URL parser writes it (Chromium's
# document.baseURI), by every path a document comes in by. Each gave "https://sass-ag.de/" on
# this tree; the rows keep every path so.
_PAGE = b'<a href="x">x</a><form action=""></form><iframe srcdoc="<a href=y>"></iframe>'


def _http(url: str) -> bytes:
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: </s.css>; rel=stylesheet\r\n\r\n"
        + _PAGE
    )


def _mime(url: str) -> bytes:
    return (
        b"MIME-Version: 1.0\r\nSnapshot-Content-Location: " + url.encode()
        + b'\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n--b\r\n'
        b"Content-Type: text/html\r\n\r\n" + _PAGE + b"\r\n--b--\r\n"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("source", "options"),
    [
        (lambda url: _PAGE, lambda url: {"url": url}),
        (
            lambda url: b"<!-- saved from url=(%04d)%s -->" % (len(url), url.encode()) + _PAGE,
            lambda url: {},
        ),
        (_http, lambda url: {"url": url}),
        (lambda url: warc([(url, "text/html", _PAGE)]), lambda url: {}),
        (lambda url: warc([(url, "text/html", _PAGE)]), lambda url: {"workers": 2}),
        (_mime, lambda url: {}),
        (lambda url: _PAGE, lambda url: {"url": url, "headers": {"Content-Type": "text/html"}}),
    ],
)
@pytest.mark.parametrize("url", ["https://sass-ag.de", "HTTPS://Sass-AG.de:443"])
def test_the_page_base_is_written_as_the_parser_writes_it_by_every_path(
    source: Any, options: Any, url: str
) -> None:
    links = extract_links(source(url), mode="whatwg", **options(url))
    assert links and {link.base for link in links} == {"https://sass-ag.de/"}


def test_the_command_line_writes_the_page_base_as_the_parser_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(_PAGE)
    archive = tmp_path / "p.warc.gz"
    archive.write_bytes(warc([("https://sass-ag.de", "text/html", _PAGE)]))
    for extra in ([], ["-j", "2"], ["--unique=run"]):
        command = [str(page), str(archive), "--url", "https://sass-ag.de", *extra]
        assert main(["extract", "--mode", "whatwg", "-q", "--format", "jsonl", *command]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(records) >= 3 and {record["base"] for record in records} == {
            "https://sass-ag.de/"
        }
