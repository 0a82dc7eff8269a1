"""Inputs (run/inputs.py): URLs read through fsspec, file:// as the local file, a directory in
the library as the command line walks it, and a terminal's stdin ended by one Ctrl-D.

Every server here is ours, on 127.0.0.1, in a thread; nothing leaves the machine."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from baselinks import InputError, Link, Summary, extract_links
from baselinks.cli import main
from baselinks.run.inputs import is_url
from conftest import FIXTURES, extra

CRAWL = FIXTURES / "containers" / "crawl.warc.gz"
ROBOTS = FIXTURES / "discovery" / "robots.txt"
SITEMAP = FIXTURES / "discovery" / "sitemap.txt"
FEED = FIXTURES / "discovery" / "rss2-sample.xml"
INDEX = FIXTURES / "discovery" / "sitemap-index.xml.gz"
PAGE = b'<a href="next.html">n</a><img src="/logo.png">'
# windows-1252 bytes that the HTTP charset says are KOI8-R: the transport's label wins (HTML
# "the encoding sniffing algorithm", step: the transport layer's character encoding)
KOI8 = '<meta charset="windows-1252"><a href="\u0436.html">x</a>'.encode("koi8-r")


class _Handler(http.server.BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {
        "/dir/page.html": (200, {"Content-Type": "text/html"}, PAGE),
        "/moved": (301, {"Location": "/dir/page.html"}, b""),
        "/crawl.warc.gz": (200, {"Content-Type": "application/warc"}, CRAWL.read_bytes()),
        "/koi8.html": (200, {"Content-Type": "text/html; charset=koi8-r"}, KOI8),
        # discovery documents as servers send them: typed by URL and Content-Type (and a
        # plain-text body by its document element), as the same file is on disk
        "/robots.txt": (200, {"Content-Type": "text/plain"}, ROBOTS.read_bytes()),
        "/sitemap.txt": (200, {"Content-Type": "text/plain; charset=utf-8"}, SITEMAP.read_bytes()),
        "/raw/feed": (200, {"Content-Type": "text/plain"}, FEED.read_bytes()),
        "/feed.rss": (200, {"Content-Type": "application/rss+xml"}, FEED.read_bytes()),
        "/sitemap-index.xml.gz": (
            200,
            {"Content-Type": "application/octet-stream"},
            INDEX.read_bytes(),
        ),
        "/notes.html": (200, {"Content-Type": "text/plain"}, PAGE),  # text, not a page
    }
    asked: ClassVar[list[str]] = []
    accepted: ClassVar[set[str | None]] = set()  # each request's Accept-Encoding

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        self._answer(body=True)

    def _answer(self, body: bool) -> None:
        self.asked.append(f"{self.command} {self.path}")
        self.accepted.add(self.headers.get("Accept-Encoding"))
        status, headers, content = self.routes.get(self.path, (404, {}, b"not here"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if "Content-Length" not in headers:  # (a route may claim more than it sends)
            self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        if body:
            self.wfile.write(content)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """A server on 127.0.0.1 (a free port), in a thread, stopped after the test."""
    extra("fsspec")
    reason = "fsspec reads http through aiohttp: pip install -e '.[fsspec]'"
    pytest.importorskip("aiohttp", reason=reason)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Handler.asked = []
    _Handler.accepted = set()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_what_is_a_url() -> None:
    assert [is_url(s) for s in ("http://a/", "file:///x", "s3://b/k", "memory://x")] == [True] * 4
    # a path, a Windows drive, bytes and a scheme without "//" are none
    assert [is_url(s) for s in ("a/http://x", "C://x", b"http://x", "mailto:x@y", "-")] == [
        False
    ] * 5


def test_an_http_page_is_resolved_against_its_own_url(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page = f"{server}/dir/page.html"
    status, out, err = _cli(["extract", page, "--format", "text"], capsys)
    assert (status, out) == (0, [f"{server}/dir/next.html", f"{server}/logo.png"])
    assert err == ["baselinks: 1 file, 1 document, 2 links; 0 failed"]
    links = extract_links(page)
    assert [(link.base, link.base_source, link.page_url, link.file) for link in links[:1]] == [
        (page, "retrieval", page, page)
    ]
    # one HEAD (fsspec asks the size), one GET for the body: never a link followed
    assert _Handler.asked == ["HEAD /dir/page.html", "GET /dir/page.html"] * 2


def test_a_redirect_is_followed_and_its_end_is_the_retrieval_url(server: str) -> None:
    """RFC 1808 §3.3: the base is "the URL used to retrieve the document": where the server's
    redirect ended, not the URL given (as a browser's document URL is)."""
    links = extract_links(f"{server}/moved")
    assert [link.url for link in links] == [f"{server}/dir/next.html", f"{server}/logo.png"]
    assert {link.page_url for link in links} == {f"{server}/dir/page.html"}
    assert {link.document for link in links} == {f"{server}/moved"}  # as given


def test_an_archive_by_url_keeps_its_records_urls_and_says_nothing_of_it(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _cli(["extract", f"{server}/crawl.warc.gz", "--format", "text"], capsys)
    local = extract_links(CRAWL)
    assert (status, out) == (0, [link.url for link in local])
    assert err == [  # (a remote input is fetched once: not looked through for originals)
        "baselinks: 1 file, 5 documents, 10 links; skipped 5 (1 warcinfo record, 1 request "
        "record, 1 not HTML, 1 revisit record, 1 metadata record); 1 revisit without its "
        f"original in the inputs ({server}/crawl.warc.gz#http://example.com/a/page); 0 failed"
    ]


def test_the_http_charset_wins_over_the_pages_meta(server: str) -> None:
    (link,) = extract_links(f"{server}/koi8.html")
    assert link.url == f"{server}/\u0436.html"  # ж, read as KOI8-R (as windows-1252: Ö)


@pytest.mark.parametrize(
    ("path", "local"),
    [
        ("/robots.txt", ROBOTS),
        ("/sitemap.txt", SITEMAP),
        ("/raw/feed", FEED),
        ("/feed.rss", FEED),
        ("/sitemap-index.xml.gz", INDEX),
    ],
)
def test_a_discovery_document_at_a_url_is_read_as_the_same_file_is(
    server: str, path: str, local: Path
) -> None:
    """A robots.txt served as text/plain was skipped ("not HTML (text/plain)"), though the same
    file on disk, or in a WARC record, gives its Sitemap lines."""
    summary = Summary()
    fetched = extract_links(server + path, summary=summary)
    on_disk = extract_links(local, url=server + path)
    assert fetched and [_said(link) for link in fetched] == [_said(link) for link in on_disk]
    assert (summary.documents, sum(summary.skipped.values())) == (1, 0)


def _said(link: Link) -> tuple[str, str, str, str]:
    return link.url, link.tag, link.attr, link.kind


def test_plain_text_at_a_url_is_no_page(server: str) -> None:
    summary = Summary()
    assert extract_links(f"{server}/notes.html", summary=summary) == []
    assert summary.skipped == {"not HTML (text/plain)": 1}


def test_a_url_that_cannot_be_read_is_one_line_and_the_others_are_read(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused = socket_port_closed()
    inputs = [f"{server}/gone.html", refused, f"{server}/dir/page.html"]
    status, out, err = _cli(["extract", *inputs, "--format", "text"], capsys)
    assert (status, out) == (1, [f"{server}/dir/next.html", f"{server}/logo.png"])
    assert err == [
        f"baselinks: {server}/gone.html: cannot open: HTTP 404 Not Found",
        f"baselinks: {refused}: cannot open: Connection refused",
        "baselinks: 1 file, 1 document, 2 links; 2 failed",
    ]


def socket_port_closed() -> str:
    """A URL on 127.0.0.1 where nothing listens (a port bound, then let go)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/x.html"


def test_without_fsspec_a_url_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "fsspec", None)  # as if not installed
    status, out, err = _cli(["extract", "https://example.com/", "--format", "text"], capsys)
    assert (status, out) == (1, [])
    assert err == [
        "baselinks: https://example.com/: reading https:// needs fsspec: pip install "
        "'baselinks[fsspec]' (and the scheme's own driver: aiohttp for http, s3fs, gcsfs...)",
        "baselinks: 0 files, 0 documents, 0 links; 1 failed",
    ]
    with pytest.raises(InputError, match=r"pip install 'baselinks\[fsspec\]'"):
        extract_links("https://example.com/")


def test_a_file_url_is_the_local_file_and_its_url_the_retrieval_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(PAGE)
    url = page.as_uri()
    status, out, _ = _cli(["extract", url, "--format", "text", "-q"], capsys)
    assert (status, out) == (0, [(tmp_path / "next.html").as_uri(), "file:///logo.png"])
    # a saved page's own record of its URL wins over where its copy lies
    page.write_bytes(b"<!-- saved from url=(0023)https://e.example/a/b -->\n" + PAGE)
    assert [link.url for link in extract_links(url)] == [
        "https://e.example/a/next.html",
        "https://e.example/logo.png",
    ]
    # url= given wins over the input's own URL
    assert extract_links(url, url="https://given.example/")[0].url == (
        "https://given.example/next.html"
    )


def test_a_directory_in_the_library_is_walked_as_the_command_line_walks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "index.html").write_bytes(b'<a href="docs/">d</a>')
    (site / "docs" / "a.html").write_bytes(b'<a href="../index.html">i</a><img src="x.png">')
    (site / "docs" / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # no document: skipped
    os.symlink(site / "docs", site / "loop")  # not followed
    summary = Summary()
    links = extract_links(site, root_url="https://e.example/", summary=summary)
    assert [(link.file, link.url) for link in links] == [
        (str(site / "index.html"), "https://e.example/docs/"),  # a folder's files first
        (str(site / "docs" / "a.html"), "https://e.example/index.html"),
        (str(site / "docs" / "a.html"), "https://e.example/docs/x.png"),
    ]
    assert (summary.files, summary.failed) == (3, 0)  # the image opened, then skipped
    assert sorted(summary.skipped) == [
        "not a document (PNG image)",
        "symbolic link to a directory (not followed)",
    ]
    main(["extract", str(site), "--root-url", "https://e.example/", "--format", "text", "-q"])
    assert capsys.readouterr().out.splitlines() == [link.url for link in links]


def test_summary_read_counts_the_bytes_of_the_inputs() -> None:
    summary = Summary()
    extract_links(CRAWL, summary=summary)
    assert summary.read == CRAWL.stat().st_size


@pytest.mark.skipif(sys.platform == "win32", reason="a pty is POSIX")
def test_one_ctrl_d_ends_stdin_on_a_terminal() -> None:
    """The README's promise: on a terminal, one Ctrl-D ends the input (the sniffer, gzip and the
    readers each read again past the end, and each read waited for another: three were
    needed)."""
    primary, secondary = os.openpty()
    command = [sys.executable, "-m", "baselinks", "extract", "--url", "http://e.example/"]
    ran = subprocess.Popen(
        [*command, "--format", "text", "-q"],
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(secondary)
    try:
        time.sleep(0.5)
        os.write(primary, b'<a href="x">x</a>\n')
        os.write(primary, b"\x04")  # VEOF at the start of a line: a read of 0 bytes
        out, err = ran.communicate(timeout=60)
    finally:
        if ran.poll() is None:
            ran.kill()
            ran.wait()
        os.close(primary)
    note = b"baselinks: reading standard input (end it with Ctrl-D; --help for the options)\n"
    assert (ran.returncode, out, err) == (0, b"http://e.example/x\n", note)


# --- issue 36: asked as identity, decoded here, a short or undecodable body is damage --------

_TWO = b'<a href="one.html">1</a>' + b" " * 3000 + b'<a href="two.html">2</a>'


def _coded(coding: str, body: bytes) -> bytes:
    import gzip
    import zlib

    import brotli

    return {
        "gzip": gzip.compress,
        "deflate": zlib.compress,
        "raw-deflate": lambda data: zlib.compress(data)[2:-4],
        "br": brotli.compress,
    }[coding](body)


@pytest.mark.parametrize("coding", ["gzip", "deflate", "raw-deflate", "br"])
def test_a_coded_body_is_asked_as_identity_and_decoded_here(server: str, coding: str) -> None:
    # the streaming GET asked for "gzip, deflate, br, zstd" and aiohttp decoded what came
    header = "deflate" if coding == "raw-deflate" else coding
    _Handler.routes["/coded.html"] = (
        200,
        {"Content-Type": "text/html", "Content-Encoding": header},
        _coded(coding, _TWO),
    )
    links = extract_links(f"{server}/coded.html")
    assert [link.raw for link in links] == ["one.html", "two.html"]
    assert _Handler.accepted == {"identity"}


def test_a_body_shorter_than_its_content_length_is_damage_after_its_links(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was "internal error (a bug in baselinks ...): ClientPayloadError", the links lost
    headers = {"Content-Type": "text/html", "Content-Length": str(len(_TWO) + 1000)}
    _Handler.routes["/short.html"] = (200, headers, _TWO)
    url = f"{server}/short.html"
    status, out, err = _cli(["extract", url, "--format", "text"], capsys)
    assert (status, out) == (1, [f"{server}/one.html", f"{server}/two.html"])
    assert err == [
        f"baselinks: {url}: the body ended after {len(_TWO):,} of its {len(_TWO) + 1000:,} "
        "bytes (Content-Length): what arrived was read",
        "baselinks: 1 file, 1 document, 2 links; 1 failed",
    ]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            b"\x00\x01\x02 binary " * 50,
            "Content-Encoding gzip: does not decode (Error -3 while decompressing data: "
            "incorrect header check): nothing of the body is read",
        ),
        (None, "Content-Encoding gzip: cut short: the {} bytes decoded were read"),
    ],
)
def test_a_body_that_does_not_decode_is_damage_after_what_decoded(
    server: str, body: bytes | None, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # a Content-Encoding: gzip body that is not gzip was an internal error; one cut short
    # gave what decoded and no error at all
    import zlib

    coded = _coded("gzip", _TWO)[:-40] if body is None else body
    headers = {"Content-Type": "text/html", "Content-Encoding": "gzip"}
    _Handler.routes["/bad.html"] = (200, headers, coded)
    url = f"{server}/bad.html"
    status, out, err = _cli(["extract", url, "--format", "text"], capsys)
    decoded = zlib.decompressobj(31).decompress(coded) if body is None else b""
    assert status == 1
    assert out == ([f"{server}/one.html"] if body is None else [])
    assert err[0] == f"baselinks: {url}: " + said.format(len(decoded))


def test_a_gzip_bomb_at_a_url_stops_at_the_cap_of_a_file(
    server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2 MB of gzip peaked at 1.38 GB before the 256 MiB cap spoke: aiohttp decoded it whole.
    # Decoded here as it is read, the cap of a document read whole stops it (1 MiB here)
    import zlib

    from baselinks.load import containers

    monkeypatch.setattr(containers, "MAX_INPUT_BYTES", 1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(b"<a href=x>") + packer.compress(bytes(64 << 20)) + packer.flush()
    headers = {"Content-Type": "text/html", "Content-Encoding": "gzip"}
    _Handler.routes["/bomb.html"] = (200, headers, bomb)
    url = f"{server}/bomb.html"
    status, out, err = _cli(["extract", url, "--format", "text"], capsys)
    assert (status, out) == (1, [])
    assert err[0] == f"baselinks: {url}: input larger than 1048576 bytes: not read"
    assert _Handler.accepted == {"identity"}
