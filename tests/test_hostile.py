"""Hostile inputs: each case runs through the library and the CLI, and its outcome is exact.

Cases that are large by nature (50 MB, 100 MB, a million links) are made when they run.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks import InputError, InputWarning, Summary, extract_links
from baselinks.cli import main
from baselinks.load import containers
from baselinks.load import tokens as tokens_module
from conftest import PARSERS, warc

URL = "http://e.example/dir/page.html"


def _library(data: bytes, **options: object) -> tuple[list[str], list[str], Summary]:
    errors: list[InputError] = []  # the warnings among them (a repair) said "warning: ..."
    summary = Summary()
    links = extract_links(
        data, url=URL, on_error=errors.append, on_warning=errors.append, summary=summary, **options
    )
    said = [f"warning: {e}" if isinstance(e, InputWarning) else str(e) for e in errors]
    return [link.url for link in links], said, summary


def _cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes
) -> tuple[int, list[str], list[str]]:
    path = tmp_path / name
    path.write_bytes(data)
    status = main(["extract", "--format", "text", "--url", URL, str(path)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def _nested(depth: int) -> bytes:
    return (
        b'<a href="before.html">b</a>'
        + b"<div>" * depth
        + b'<a href="deep.html">d</a>'
        + b"</div>" * depth
        + b'<a href="after.html">a</a>'
    )


def _million_links() -> bytes:
    return b"".join(b'<a href="/p%d">%d</a>\n' % (i, i) for i in range(1_000_000))


def _srcset() -> bytes:
    candidates = b", ".join(b"i%d.png %dw" % (i, i + 1) for i in range(100_000))
    return b'<img srcset="' + candidates + b'">'


# CSS that hurts tokenizers: 200,000 escaped backslashes run into "url(" (one identifier, so no
# URL: CSS Syntax §4.3.11); an unclosed url( of 100,000 escapes (closed by the end of the sheet);
# "url" spelt with an escape; 100,000 nested brackets (tinycss2 recurses and fails); an unclosed
# @import string; 300,000 comment openers (one unclosed comment).
_CSS = (
    b"<style>"
    + b"\\\\" * 200_000
    + b"url(no.png)</style><style>a{b:url("
    + b"\\(" * 100_000
    + b"</style><style>u\\72l(esc.png) "
    + b"(" * 100_000
    + b"url(deep.png)</style><style>@import '"
    + b"\\'" * 1000
    + b"</style><style>"
    + b"/* " * 300_000
    + b'url(comment.png)</style><a href="z">'
)

# Entities declared in an internal subset are not HTML's: nothing is expanded, nothing is read
# (the parser is lxml's HTML parser, with no_network). The references stay as written.
_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY lol "lol">'
    + b"".join(
        b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
        for i in range(1, 10)
    )
    + b']><html xmlns="http://www.w3.org/1999/xhtml"><body><a href="&lol9;">&lol9;</a>'
    + b'<a href="x.html">x</a></body></html>'
)


def _pages(n: int) -> list[tuple[str, str, bytes]]:
    return [
        (f"http://w.example/{i}/", "text/html", b'<a href="x%d.html">x</a>' % i) for i in range(n)
    ]


def _truncated_warc_gz() -> bytes:
    # 10 records, cut 40 bytes into the 8th gzip member: not even its header can be read
    data = warc(_pages(10))
    offsets = [m.start() for m in re.finditer(rb"\x1f\x8b\x08", data)]
    return data[: offsets[7] + 40]


def _wrong_length(delta: int) -> bytes:
    """Three records; the middle one's Content-Length changed by ``delta``."""
    first, middle, last = (
        warc([(f"http://w.example/{name}/", "text/html", body)], gzip=False)
        for name, body in [
            ("a", b'<a href="a.html">'),
            ("m", b'<a href="m.html"><a href="cut.html">'),
            ("b", b'<a href="b.html">'),
        ]
    )
    length = re.search(rb"Content-Length: (\d+)", middle)
    assert length is not None
    middle = middle.replace(length.group(), b"Content-Length: %d" % (int(length[1]) + delta))
    return first + middle + last


def _gzip_bomb_warc() -> bytes:
    # 300 MiB of zeros as a gzip Content-Encoding: 300 KB in the file, over the 256 MiB limit
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(2**20)
    bomb = b"".join(packer.compress(zeros) for _ in range(300)) + packer.flush()
    return (
        warc([("http://w.example/a/", "text/html", b'<a href="a.html">')])
        + warc([("http://w.example/bomb/", "text/html", bomb)], ("Content-Encoding", "gzip"))
        + warc([("http://w.example/b/", "text/html", b'<a href="b.html">')])
    )


_NO_BOUNDARY = (
    b"MIME-Version: 1.0\r\nContent-Type: multipart/related\r\n\r\n"
    b"--XYZ\r\nContent-Type: text/html\r\nContent-Location: http://m.example/p/\r\n\r\n"
    b'<a href="x.html">x</a>\r\n--XYZ--\r\n'
)


def _rfc822_nested(depth: int) -> bytes:
    inner = (
        b"Content-Type: text/html\r\nContent-Location: http://m.example/deep/\r\n\r\n"
        b'<a href="deep.html">d</a>\r\n'
    )
    for _ in range(depth):
        inner = b"Content-Type: message/rfc822\r\n\r\n" + inner
    return b"From: a@example.org\r\n" + inner


class Case(NamedTuple):
    id: str
    data: Callable[[], bytes]  # made when the case runs: some are 100 MB
    links: Callable[[], list[str]] | list[str]
    errors: list[str]  # a regular expression found in each error line, in order; "^warning: "
    #                    for a warning (an oddity repaired, nothing lost)
    status: int
    name: str = "page.html"


def _is(data: bytes) -> Callable[[], bytes]:
    return lambda: data


CASES = [
    Case("empty", _is(b""), [], [], 0),
    Case(
        "nul-bytes",
        _is(b'<a href="a\x00b.html">x</a>\x00<a href="c.html">'),
        ["http://e.example/dir/a\ufffdb.html", "http://e.example/dir/c.html"],
        [],
        0,
    ),
    Case(
        "invalid-utf8",
        _is(b'<a href="caf\xe9.html">\xff\xfe</a>'),
        ["http://e.example/dir/caf\u00e9.html"],  # windows-1252, as a browser would
        [],
        0,
    ),
    Case(
        "utf16-bom",
        _is(b"\xff\xfe" + '<a href="x.html">x</a>'.encode("utf-16-le")),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    Case(
        "utf16le-no-bom",
        _is('<a href="x.html">x</a>'.encode("utf-16-le")),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    Case(
        "utf16be-no-bom",
        _is('<a href="x.html">x</a>'.encode("utf-16-be")),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    Case(
        "single-line-50mb",
        lambda: b"<p>" + b"x" * (50 * 2**20) + b'<a href="end.html">e</a>',
        ["http://e.example/dir/end.html"],
        [],
        0,
    ),
    *(
        Case(
            f"nested-{depth}-deep",
            lambda depth=depth: _nested(depth),  # type: ignore[misc]
            [f"http://e.example/dir/{name}.html" for name in ("before", "deep", "after")],
            [],
            0,
        )
        for depth in (3000, 100_000)
    ),
    Case(
        "million-links",
        _million_links,
        lambda: [f"http://e.example/p{i}" for i in range(1_000_000)],
        [],
        0,
    ),
    Case(
        "attribute-10mb",
        lambda: b'<a href="x" title="' + b"t" * (10 * 2**20) + b'">x</a><a href="y">',
        ["http://e.example/dir/x", "http://e.example/dir/y"],
        [],
        0,
    ),
    Case(
        "data-url-100mb",
        lambda: b'<img src="data:,' + b"A" * (100 * 2**20) + b'"><a href="y">',
        lambda: ["data:," + "A" * (100 * 2**20), "http://e.example/dir/y"],
        [],
        0,
    ),
    Case(
        "srcset-100000",
        _srcset,
        lambda: [f"http://e.example/dir/i{i}.png" for i in range(100_000)],
        [],
        0,
    ),
    Case(
        "css-pathological",
        _is(_CSS),
        [
            "http://e.example/dir/" + "(" * 100_000,
            "http://e.example/dir/esc.png",
            "http://e.example/dir/deep.png",
            "http://e.example/dir/" + "'" * 1000,
            "http://e.example/dir/z",
        ],
        [],
        0,
    ),
    Case(
        "xhtml-billion-laughs",
        _is(_LAUGHS),
        # "&lol9;" kept as written; RFC 1808 drops its empty ";" params (docs/reference.md: empty is absent)
        ["http://e.example/dir/&lol9", "http://e.example/dir/x.html"],
        [],
        0,
    ),
    Case(
        "javascript-base",
        _is(b'<base href="javascript:alert(1)"><a href="x">'),
        ["http://e.example/dir/x"],  # refused as a base: the retrieval URL stands
        [],
        0,
    ),
    Case(
        "data-base",
        _is(b'<base href="data:text/html,x"><a href="x">'),
        ["http://e.example/dir/x"],
        [],
        0,
    ),
    Case(
        "bad-host-base",
        _is(b'<base href="http://[bad/"><a href="x">'),
        ["http://[bad/x"],  # RFC 1808 does not parse hosts: the base stands, as written
        [],
        0,
    ),
    Case(
        "png-named-html",
        _is(b"\x89PNG\r\n\x1a\n" + bytes(64)),
        [],
        ["not a document: PNG image"],
        1,
    ),
    Case(
        "truncated-warc-gz",
        _truncated_warc_gz,
        [f"http://w.example/{i}/x{i}.html" for i in range(7)],
        [r"-?: offset \d+: 40 bytes after the last complete record cannot be read as a record"],
        1,
        "crawl.warc.gz",
    ),
    Case(
        "warc-content-length-short",
        lambda: _wrong_length(-12),
        ["http://w.example/a/a.html", "http://w.example/m/m.html", "http://w.example/b/b.html"],
        [r"#http://w\.example/m/: offset 422: record not followed by an empty line"],
        1,
        "crawl.warc",
    ),
    Case(
        "warc-content-length-long",
        lambda: _wrong_length(5000),
        [
            "http://w.example/a/a.html",
            "http://w.example/m/m.html",
            "http://w.example/m/cut.html",
            "http://w.example/m/b.html",  # the next record, read as the end of this one
        ],
        [r"#http://w\.example/m/: offset 422: record cut short: \d+ of its \d+ bytes"],
        1,
        "crawl.warc",
    ),
    Case(
        "warc-gzip-bomb",
        _gzip_bomb_warc,
        ["http://w.example/a/a.html", "http://w.example/b/b.html"],
        [r"#http://w\.example/bomb/: offset \d+: decoded body larger than 268435456 bytes"],
        1,
        "crawl.warc.gz",
    ),
    Case(
        "mime-missing-boundary",
        _is(_NO_BOUNDARY),
        ["http://m.example/p/x.html"],
        [
            "^warning: .*multipart without a boundary parameter: using the first delimiter line's, 'XYZ'"
        ],
        0,  # repaired, read in full: a warning
        "page.mhtml",
    ),
    Case(
        "rfc822-nested-1000-deep",
        lambda: _rfc822_nested(1000),
        [],
        ["MIME entities nested too deep for the parser"],
        1,
        "mail.eml",
    ),
]


# The cases that take a second or more (measured: million-links ~20 s, data-url-100mb ~4.5 s,
# the others 1.5-2.7 s); kept whole, their size is what they prove. `-m "not slow"` skips them.
_SLOW = {
    "million-links",
    "data-url-100mb",
    "srcset-100000",
    "css-pathological",
    "warc-gzip-bomb",
    "nested-100000-deep",
}
assert {case.id for case in CASES} >= _SLOW, "a slow case that is not a case"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, id=case.id, marks=[pytest.mark.slow] * (case.id in _SLOW))
        for case in CASES
    ],
)
def test_library_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Case) -> None:
    data = case.data()
    links = case.links() if callable(case.links) else case.links
    found, reported, summary = _library(data)
    assert found == links
    assert len(reported) == len(case.errors)
    for line, fragment in zip(reported, case.errors, strict=True):
        assert re.search(fragment, line)
    warned = sum(fragment.startswith("^warning: ") for fragment in case.errors)
    assert (summary.warnings, summary.failed) == (warned, len(case.errors) - warned)
    del found

    path = tmp_path / case.name
    path.write_bytes(data)
    del data
    status = main(["extract", "--format", "text", "--url", URL, str(path)])
    out, err = capsys.readouterr()
    assert status == case.status
    assert out.splitlines() == links
    errors = err.splitlines()
    if "warc" in case.name:  # an archive's records carry their own URLs (tests/test_mirror.py)
        assert errors.pop(0) == f"baselinks: {path}: --url not used: the records of an " + (
            "archive carry the URL each was retrieved from (WARC-Target-URI, RFC 1808 §3.3), "
            "which no option overrides"
        )
    assert len(errors) == len(case.errors) + 1  # one line per error, then the summary
    for line, fragment in zip(errors[:-1], case.errors, strict=True):
        said = line.removeprefix("baselinks: ")
        assert said.removeprefix("warning: ").startswith(str(path)) and re.search(fragment, said)
    ending = f"; {len(case.errors) - warned} failed"
    if warned:
        ending = f"; {warned} warning{'s' if warned > 1 else ''}{ending}"
    assert errors[-1].endswith(ending)


def test_utf16_without_bom_is_told_from_utf8_with_nuls() -> None:
    from baselinks.load.encoding import decode

    assert decode("<p>é</p>".encode("utf-16-le")).source == "utf-16-detected"
    assert decode(b"<p>plain</p>").source == "utf-8-detected"
    assert decode(b"<p>\x00x\x00</p>").source == "utf-8-detected"  # a few NULs are not UTF-16


def test_a_directory_with_unreadable_entries_and_a_symlink_loop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every readable page is extracted; each entry that cannot be read is one error line."""
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "a.html").write_bytes(b'<a href="a2.html">')
    (site / "sub" / "b.html").write_bytes(b'<a href="b2.html">')
    (site / "sub" / "loop").symlink_to(site)  # a directory loop: not followed
    (site / "self.html").symlink_to(site / "self.html")  # a symlink to itself: ELOOP
    (site / "gone.html").symlink_to(site / "nowhere.html")  # dangling
    # A socket found in a walk is no regular file: skipped, counted (tests/test_faults.py).
    # Named, it cannot be opened as a file, even by root (for whom chmod 000 changes nothing).
    unreadable = socket.socket(socket.AF_UNIX)
    unreadable.bind(str(site / "socket.html"))
    try:
        status = main(["extract", "--format", "text", "--url", URL, str(site)])
        named = main(["extract", "--format", "text", str(site / "socket.html")])
    finally:
        unreadable.close()
    out, err = capsys.readouterr()
    assert (status, named) == (1, 1)
    assert out.splitlines() == ["http://e.example/dir/a2.html", "http://e.example/dir/b2.html"]
    assert err.splitlines() == [
        f"baselinks: {site}: --url gives every file under it the same URL, {URL} "
        "(a mirrored site: --root-url gives each file its own)",
        f"baselinks: {site / 'gone.html'}: No such file or directory",
        f"baselinks: {site / 'self.html'}: Too many levels of symbolic links",
        # files read; the socket skipped, the loop not followed (tests/test_cli_symlinks.py)
        "baselinks: 2 files, 2 documents, 2 links; skipped 2 (1 not a regular file, "
        "1 symbolic link to a directory); 2 failed",
        f"baselinks: {site / 'socket.html'}: No such device or address",
        "baselinks: 0 files, 0 documents, 0 links; 1 failed",
    ]


def test_an_input_over_the_size_limit_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(containers, "MAX_INPUT_BYTES", 1000)
    big, small = tmp_path / "big.html", tmp_path / "small.html"
    big.write_bytes(b'<a href="big.html">' + b" " * 1000)
    small.write_bytes(b'<a href="small.html">')
    status = main(["extract", "--format", "text", "--url", URL, str(big), str(small)])
    out, err = capsys.readouterr()
    assert status == 1
    assert out.splitlines() == ["http://e.example/dir/small.html"]
    assert err.splitlines()[0] == f"baselinks: {big}: input larger than 1000 bytes: not read"
    errors: list[InputError] = []
    assert extract_links(big, on_error=errors.append) == []
    assert [str(e) for e in errors] == [f"{big}: input larger than 1000 bytes: not read"]


def test_nesting_that_flattening_cannot_bring_under_the_limit_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second parse is flattened below MAX_NESTING; set above libxml2's own limit, it
    fails as the first did, and the error says what was not read (lxml's parser: the HTML5
    one flattens below its own limit, html5.MAX_DEPTH)."""
    monkeypatch.setattr(tokens_module, "MAX_NESTING", 5000)
    found, reported, summary = _library(_nested(3000), parser="lxml")
    assert found == ["http://e.example/dir/before.html"]
    assert reported == [
        "-: elements nested deeper than libxml2's limit at line 1: "
        "the rest of the document is not read"
    ]
    assert summary.failed == 1


def test_flattened_elements_keep_their_links_and_lose_their_content() -> None:
    """Past the depth a browser stops nesting at, an element is a sibling, and the text after
    its start tag belongs to its parent (as in Blink): the deep link has no anchor text."""
    links = extract_links(_nested(5000), url=URL)
    assert [(link.raw, link.text) for link in links] == [
        ("before.html", "b"),
        ("deep.html", ""),
        ("after.html", "a"),
    ]


def test_no_file_and_no_network_is_touched_but_the_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DTD, external entities and a parameter entity point at a local file and a local
    server; nothing may read the one or connect to the other.

    The local file is a FIFO: opening it to read would block until a writer comes, so a
    watchdog releases any reader after 20 s and records that one was there. The server
    listens without accepting: a connection would wait in its backlog. Python-level
    connections are refused outright.
    """
    fifo = tmp_path / "entities.dtd"
    os.mkfifo(fifo)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.setblocking(False)
    remote = f"http://127.0.0.1:{server.getsockname()[1]}"

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)

    page = tmp_path / "page.xhtml"
    page.write_text(
        f'<?xml version="1.0"?><!DOCTYPE html SYSTEM "{fifo.as_uri()}" ['
        f'<!ENTITY local SYSTEM "{fifo}"><!ENTITY remote SYSTEM "{remote}/entity">'
        f'<!ENTITY % dtd SYSTEM "{remote}/dtd"> %dtd;]>'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
        '<a href="&local;">&local;</a><a href="&remote;">&remote;</a>'
        f'<img src="{remote}/img.png"/><a href="x.html">x</a></body></html>'
    )
    expected = [
        "http://e.example/dir/&local",  # the reference as written (";" is RFC 1808's params)
        "http://e.example/dir/&remote",
        f"{remote}/img.png",  # found, never fetched
        "http://e.example/dir/x.html",
    ]

    readers: list[str] = []

    def release() -> None:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            readers.append("a reader was waiting")
        except OSError:  # ENXIO: nobody has it open to read
            pass

    watchdog = threading.Timer(20, release)
    watchdog.start()
    try:
        found = [link.url for link in extract_links(page, url=URL)]
        status = main(["extract", "--format", "text", "--url", URL, str(page)])
    finally:
        watchdog.cancel()
    release()
    out, _ = capsys.readouterr()
    assert (found, status, out.splitlines()) == (expected, 0, expected)
    assert readers == []
    with pytest.raises(BlockingIOError):
        server.accept()  # nothing in the backlog: no connection was made
    server.close()


# Properties over the loader and the walker: whatever comes in, nothing escapes but errors
# about the input, every url is a string, and every raw value was in the document.

_BUG = re.compile(r"internal error")

_HEADS = st.sampled_from(
    [
        b"",
        b"<html>",
        b"\xef\xbb\xbf",
        b"\xff\xfe",
        b"\x1f\x8b\x08\x00",
        b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 40\r\n\r\n",
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        b"<?xml version='1.0'?><!DOCTYPE html [<!ENTITY e 'x'>]>",
    ]
)


@given(_HEADS, st.binary(max_size=3000))
@settings(max_examples=400)
def test_any_bytes_give_links_or_named_errors(head: bytes, body: bytes) -> None:
    errors: list[InputError] = []
    links = extract_links(head + body, url=URL, on_error=errors.append, on_warning=errors.append)
    assert all(type(link.url) is str and type(link.raw) is str for link in links)
    assert not [str(error) for error in errors if _BUG.search(str(error))]


# HTML-like text with nothing a decoder rewrites (no character references, CSS escapes, CR or
# NUL): every raw value must then occur, as it is, in the document.
_PIECES = st.sampled_from(
    [
        "<a", "<img", "<link", "<base", "<meta", "<area", "<form", "<iframe", "<svg>", "<use",
        "<image", "<video", "<source", "<object", "<style>", "</style>", "<script>", "</script>",
        "<template>", "<!--", "-->", "<p>", "</a>", ">", "/>", " ", "\n", '"', "'", "=",
        " href=", " src=", " srcset=", " ping=", " style=", " action=", " poster=", " data=",
        " xlink:href=", " srcdoc=", " http-equiv=refresh content=", " content=", " background=",
        "url(", ")", "@import ", ", ", " 1x", " 2w", ";", "0; url=", "x.png", "http://h/",
        "//h2/p", "../", "./", "?q", "#f", "javascript:", "data:,x", "mailto:a@b", "\t", "é",
        "background:url(", "image-set(", "src(", "/*", "*/",
    ]
)  # fmt: skip
_HTMLISH = st.lists(
    st.one_of(
        _PIECES,
        st.text(
            st.characters(exclude_categories=["Cs"], exclude_characters="&\\\r\x00"), max_size=8
        ),
    ),
    max_size=60,
).map("".join)


@given(_HTMLISH)
@settings(max_examples=400)
@example('<a href="x"><style>a{b:url(y)}</style><img srcset="a 1x, b 2x">')
def test_every_raw_value_is_in_the_document(text: str) -> None:
    errors: list[InputError] = []
    links = extract_links(text.encode(), url=URL, charset="utf-8", on_error=errors.append)
    for link in links:
        assert type(link.url) is str
        assert link.raw in text, link
    assert not [str(error) for error in errors if _BUG.search(str(error))]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_with_one_line_and_leaves_no_output_file(
    tmp_path: Path, jobs: str
) -> None:
    out = tmp_path / "links.jsonl"
    page = tmp_path / "page.html"
    page.write_bytes(b'<a href="x">')
    proc = subprocess.Popen(
        [sys.executable, "-m", "baselinks", "extract", "-j", jobs, "-o", str(out), str(page), "-"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b'<a href="y">')  # stdin stays open: the run waits for the rest
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".baselinks-*.tmp")) and time.monotonic() < deadline:
        time.sleep(0.02)  # polled: the output file is made once the signals are handled
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().splitlines() == ["baselinks: interrupted"]
    assert list(tmp_path.iterdir()) == [page]  # neither the output nor its temporary file


# --- attributes per element (issue 29) ----------------------------------------------------


def _many_attributes(count: int, svg: bool = False) -> bytes:
    attributes = b"".join(b'a%d="1" ' % i for i in range(count))
    if svg:
        return (
            b'<svg xmlns="http://www.w3.org/2000/svg">\n<a '
            + attributes
            + b'href="x"/>\n<a href="y"/></svg>'
        )
    return b"<p>\n<a " + attributes + b'href="x">x</a>\n<a href="y">y</a>'


@pytest.mark.parametrize("svg", [False, True])
@pytest.mark.parametrize("count", [255, 40_000])
def test_attributes_past_the_limit_are_left_out_and_said(count: int, svg: bool) -> None:
    # issue 29: libxml2 (HTML and XML alike) compares each attribute of an element with every
    # one before it: 40,000 on one element took 14 s for a page, 44 s for an SVG. Past 256 the
    # rest are left out before parsing, said with the element's line and byte offset; the
    # elements after it are read. (The time: benchmarks/bench_hostile.py.)
    headers = {"Content-Type": "image/svg+xml"} if svg else None
    errors: list[InputError] = []
    links = extract_links(
        _many_attributes(count, svg), url=URL, headers=headers, on_error=errors.append
    )
    offset = 41 if svg else 4
    if count <= tokens_module.MAX_ATTRIBUTES:
        assert ([link.raw for link in links], errors) == (["x", "y"], [])
        return
    assert [link.raw for link in links] == ["y"]  # the href was the 40,001st
    assert [error.message for error in errors] == [
        f"an element with {count + 1:,} attributes at line 2 (byte {offset}): the "
        f"{count + 1 - 256:,} after the first 256 are not read"
    ]


def test_the_attributes_kept_are_the_first_and_the_lines_stay() -> None:
    data = b"<p>\n<a " + b"".join(b"a%d\n" % i for i in range(300)) + b" href=x>\n<a href=y>"
    capped, found = tokens_module.cap_attributes(data)
    assert found == [(4, 301)]
    assert capped.count(b"\n") == data.count(b"\n")
    assert (
        capped
        == b"<p>\n<a " + b"".join(b"a%d\n" % i for i in range(256)) + b"\n" * 44 + b">\n<a href=y>"
    )
    links = extract_links(data, url=URL, on_error=lambda error: None)
    assert [(link.raw, link.line) for link in links] == [("y", 303)]


@pytest.mark.parametrize("parser", PARSERS)
def test_repeats_of_a_name_do_not_count_against_the_attribute_limit(parser: str) -> None:
    # issue 36 (w3lib's test): "<base " 30,000 times is one element whose attributes are all
    # named "<base", then "href": two names. A browser drops the repeats (HTML §13.2.5.33,
    # duplicate-attribute) and uses the base; the cap counted 30,001 and lost the href.
    page = b"<html><head>" + b"<base " * 30_000 + b'<base href="http://b.example/d/"></head>'
    errors: list[InputError] = []
    links = extract_links(page + b"<a href=x>", url=URL, parser=parser, on_error=errors.append)
    assert [(link.url, str(link.base_source)) for link in links] == [
        ("http://b.example/d/x", "content")
    ]
    assert errors == []


def test_the_attribute_limit_counts_distinct_names_and_keeps_the_first_of_each() -> None:
    # 600 attributes of 200 names (each three times, the first with value 1), then href: read
    # whole, the first of each kept; an unquoted value before a repeat left out does not run
    # into the attribute after it
    attributes = b"".join(b"a%d=1 a%d=2 A%d='3'" % (i, i, i) for i in range(200))
    page = b"<p>\n<a " + attributes + b'href="x" hidden>y</a>'
    data, capped = tokens_module.cap_attributes(page)
    assert capped == []
    assert data.count(b"=1") == 200 and b"=2" not in data and b"'3'" not in data
    assert b" a0=1 a1=1 a2=1 " in data and b' a199=1 href="x" hidden>' in data
    errors: list[InputError] = []
    assert [link.raw for link in extract_links(page, url=URL, on_error=errors.append)] == ["x"]
    assert errors == []
    # past 256 names, the count said is of names
    many = b"<p>\n<a " + b"".join(b"a%d=1 a%d=1 " % (i, i) for i in range(300)) + b"href=x>"
    _, capped = tokens_module.cap_attributes(many)
    assert capped == [(4, 301)]


def test_svg_attribute_names_are_compared_as_written() -> None:
    # XML names keep their case: viewBox and viewbox are two attributes, and "href" once more
    # is a repeat
    attributes = b"".join(b'a%d="1" A%d="1" ' % (i, i) for i in range(150))
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><a ' + attributes + b'href="x"/></svg>'
    _, capped = tokens_module.cap_attributes(svg, xml=True)
    assert capped == [(40, 301)]
    _, capped = tokens_module.cap_attributes(svg)
    assert capped == []
