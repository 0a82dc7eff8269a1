"""Containers: MHTML/MIME (RFC 1808 §3.2), WARC/ARC (§3.3), raw HTTP, gzip; damage reported.

Golden files: each fixtures/containers/<case> beside expected/<case>.jsonl (its links) and
expected/<case>.errors (the error lines, when any). Regenerate after a deliberate change with
``BASELINKS_REGENERATE=1 pytest tests/test_containers.py`` and review the diff line by line.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import zlib
from pathlib import Path

import pytest

import baselinks
from baselinks import InputError, extract_links, iter_links
from baselinks.api import Summary
from baselinks.base import Base, BaseSource, encapsulating_base
from baselinks.cli import main
from baselinks.containers import coding, httpmsg
from baselinks.containers.mime import base_header
from baselinks.containers.sniff import Kind, sniff
from baselinks.microsyntax import HeaderLink, parse_link_header
from baselinks.walk import HEADER_LINK_SOURCES
from baselinks.write import write_jsonl
from conftest import FIXTURES

HERE = FIXTURES / "containers"
EXPECTED = HERE / "expected"
with open(HERE / "index.tsv", encoding="utf-8") as _index:
    CASES = list(csv.DictReader(_index, delimiter="\t"))


def _run(case: dict[str, str]) -> tuple[str, str]:
    errors: list[InputError] = []
    links = extract_links(
        HERE / case["case"], url=case["url"] or None, name=case["case"], on_error=errors.append
    )
    out = io.StringIO()
    write_jsonl(links, out)
    return out.getvalue(), "".join(f"{error}\n" for error in errors)


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_golden(case: dict[str, str]) -> None:
    links, errors = _run(case)
    links_path = EXPECTED / f"{case['case']}.jsonl"
    errors_path = EXPECTED / f"{case['case']}.errors"
    if os.environ.get("BASELINKS_REGENERATE"):
        EXPECTED.mkdir(exist_ok=True)
        links_path.write_text(links, encoding="utf-8")
        if errors:
            errors_path.write_text(errors, encoding="utf-8")
        elif errors_path.exists():
            errors_path.unlink()
    assert links == links_path.read_text(encoding="utf-8")
    assert errors == (errors_path.read_text(encoding="utf-8") if errors_path.exists() else "")


def test_every_fixture_is_indexed() -> None:
    on_disk = {p.name for p in HERE.iterdir() if p.is_file()} - {"index.tsv", "make_warc.py"}
    assert on_disk == {c["case"] for c in CASES}
    assert all(c["what it exercises"] for c in CASES)


def _golden(case: str) -> list[dict[str, object]]:
    text = (EXPECTED / f"{case}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_every_header_link_source_has_a_fixture() -> None:
    seen = {(r["tag"], r["attr"]) for c in CASES for r in _golden(c["case"])}
    for source in HEADER_LINK_SOURCES:
        assert ("http", source.attr) in seen, source.attr


# --- RFC 1808 §3 precedence, layer by layer ---------------------------------------------------


def _mime(html: str, *, outer: str = "", part: str = "") -> bytes:
    return (
        "MIME-Version: 1.0\r\n"
        f"{outer}"
        'Content-Type: multipart/related; boundary="b"\r\n\r\n'
        "--b\r\n"
        "Content-Type: text/html\r\n"
        f"{part}\r\n"
        f"{html}\r\n"
        "--b--\r\n"
    ).encode()


@pytest.mark.parametrize(
    ("html", "outer", "part", "url", "expected", "source"),
    [
        # §3.4: nothing anywhere
        ("<a href=x>", "", "", None, ("x", ""), "default"),
        # §3.3: the retrieval URL
        ("<a href=x>", "", "", "http://r.example/d/m", ("http://r.example/d/x",) * 1, "retrieval"),
        # §3.2 over §3.3: the part's Content-Location
        (
            "<a href=x>",
            "",
            "Content-Location: http://p.example/q/page\r\n",
            "http://r.example/",
            ("http://p.example/q/x",),
            "encapsulating",
        ),
        # §3.2 recursively: a relative part location against the multipart's
        (
            "<a href=x>",
            "Content-Location: http://o.example/dir/\r\n",
            "Content-Location: sub/page\r\n",
            None,
            ("http://o.example/dir/sub/x",),
            "encapsulating",
        ),
        # a relative location with nothing absolute around it: §3.3 stands
        (
            "<a href=x>",
            "",
            "Content-Location: sub/page\r\n",
            "http://r.example/",
            ("http://r.example/sub/x",),
            "encapsulating",
        ),
        # §3.1 over everything: the document's <base>, relative to the part's location
        (
            "<base href=../b/><a href=x>",
            "",
            "Content-Location: http://p.example/q/page\r\n",
            "http://r.example/",
            ("http://p.example/b/x",),
            "content",
        ),
        # the legacy headers: Content-Base first, then Base:, then Content-Location
        (
            "<a href=x>",
            "",
            "Content-Location: http://l.example/\r\nContent-Base: http://c.example/cb/\r\n",
            None,
            ("http://c.example/cb/x",),
            "encapsulating",
        ),
        (
            "<a href=x>",
            "",
            "Content-Location: http://l.example/\r\nBase: <URL:http://b.example/ b/>\r\n",
            None,
            ("http://b.example/b/x",),
            "encapsulating",
        ),
        # cid: and mid: are absolute: they stay as they are
        ("<img src=cid:logo@x><a href=mid:m@x>", "", "", "http://r/", ("cid:logo@x",), "retrieval"),
    ],
)
def test_mime_base_precedence(
    html: str, outer: str, part: str, url: str | None, expected: tuple[str, ...], source: str
) -> None:
    links = extract_links(_mime(html, outer=outer, part=part), url=url)
    assert links[0].url == expected[0]
    assert links[0].base_source == source


def test_encapsulating_base_resolves_each_layer_against_the_one_around_it() -> None:
    outer = Base("http://a/b/c", BaseSource.RETRIEVAL)
    assert encapsulating_base(["d/", "e/f"], outer, "rfc1808") == Base(
        "http://a/b/d/e/f", BaseSource.ENCAPSULATING
    )
    assert encapsulating_base([], outer, "rfc1808") is outer
    # still relative (nothing absolute around it), or unresolvable: passed over
    assert encapsulating_base(["d/"], Base("", BaseSource.DEFAULT), "rfc1808").url == ""
    assert encapsulating_base(["http://[bad"], outer, "whatwg") is outer


@pytest.mark.parametrize(
    ("header", "value", "expected"),
    [
        ("Content-Location", "http://a/b", "http://a/b"),
        ("Content-Location", "http://a/very/\r\n long/b", "http://a/very/long/b"),
        ("Base", "<URL:http://a/b/>", "http://a/b/"),
        ("base", "<URL: http://a/\r\n b/ >", "http://a/b/"),
        ("Content-Base", '"http://a/q/"', "http://a/q/"),
    ],
)
def test_base_header_unwrapping(header: str, value: str, expected: str) -> None:
    from email import message_from_bytes, policy

    entity = message_from_bytes(f"{header}: {value}\r\n\r\n".encode(), policy=policy.default)
    assert base_header(entity) == expected


def test_mhtml_snapshot_location_is_the_retrieval_url_when_none_is_given() -> None:
    data = b"Snapshot-Content-Location: http://s.example/d/page\r\n" + _mime("<a href=x>")
    assert extract_links(data)[0].url == "http://s.example/d/x"
    assert extract_links(data, url="http://u.example/")[0].url == "http://u.example/x"


# --- recognising inputs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "name", "kind"),
    [
        (b"WARC/1.0\r\n", "", Kind.WARC),
        (b"filedesc://x.arc 0.0.0.0 2014 text/plain 75\n", "", Kind.ARC),
        (b"\x1f\x8b\x08\x00", "", Kind.GZIP),
        (b"HTTP/1.1 200 OK\r\n", "", Kind.HTTP),
        (b"HTTP/2 301\r\n", "", Kind.HTTP),
        (b"From: a@b\r\nMIME-Version: 1.0\r\n\r\n", "", Kind.MIME),
        (b"From a@b Mon Jan 1\nSubject: x\nContent-Type: text/html\n\n<p>", "", Kind.MIME),
        (b"Subject: no MIME header\n\nhello", "", Kind.TEXT),
        (b"  <!doctype html>", "", Kind.HTML),
        (b"<p>para", "", Kind.HTML),
        (b"<?xml version='1.0'?><html>", "", Kind.HTML),
        (b"\xef\xbb\xbfanything", "", Kind.HTML),
        (b"\x89PNG\r\n\x1a\n", "a.html", Kind.BINARY),
        (b"%PDF-1.4", "", Kind.BINARY),
        (b"function x() {}", "app.js", Kind.TEXT),
        (b"just text", "page.htm", Kind.HTML),
        (b"broken header", "x.warc", Kind.WARC),
    ],
)
def test_sniff(head: bytes, name: str, kind: Kind) -> None:
    assert sniff(head, name) is kind


# --- HTTP --------------------------------------------------------------------------------------


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
def test_decode_body(coding: str, encode: object) -> None:
    body = b"<a href=x>decoded</a>"
    assert callable(encode)
    assert httpmsg.decode_body(encode(body), [("Content-Encoding", coding)]) == body


def test_decode_body_caps_a_decompression_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coding, "MAX_DECODED_BYTES", 1 << 20)
    bomb = gzip.compress(b"\0" * (4 << 20))
    assert len(bomb) < 10_000
    with pytest.raises(InputError, match="larger than 1048576 bytes"):
        httpmsg.decode_body(bomb, [("Content-Encoding", "gzip")])
    with pytest.raises(InputError, match="larger than"):
        httpmsg.decode_body(bomb, [("Content-Encoding", "br, gzip")])  # outer layer first


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


# --- damage ------------------------------------------------------------------------------------


def _members(path: Path) -> list[bytes]:
    """The gzip members of a per-record .warc.gz, each whole."""
    data = path.read_bytes()
    members, pos = [], 0
    while pos < len(data):
        inflater = zlib.decompressobj(31)
        inflater.decompress(data[pos:])
        end = len(data) - len(inflater.unused_data)
        members.append(data[pos:end])
        pos = end
    return members


def test_cutting_a_warc_gz_anywhere_keeps_what_precedes_and_reports_the_loss() -> None:
    members = _members(HERE / "crawl.warc.gz")
    data = b"".join(members)
    starts = [sum(len(m) for m in members[:i]) for i in range(len(members) + 1)]
    # From 2 bytes on: a lone 0x1f byte is not yet a gzip signature (it is read as text).
    for cut in range(2, len(data), 7):
        errors: list[InputError] = []
        links = {
            (link.document, link.url) for link in iter_links(data[:cut], on_error=errors.append)
        }
        complete = max(i for i, start in enumerate(starts) if start <= cut)
        # every link of the records wholly before the cut is there
        before = (
            {(link.document, link.url) for link in extract_links(b"".join(members[:complete]))}
            if complete
            else set()
        )
        assert before <= links
        # beyond them, only the record the cut falls in (as far as it goes) gives links
        assert len({document for document, _ in links - before}) <= 1
        member = members[complete] if complete < len(members) else b""
        # a cut in the first half of a member loses data: it is always reported, with an offset
        if member and 0 < cut - starts[complete] < len(member) // 2:
            assert errors, cut
            assert all(e.offset is not None for e in errors)


def test_a_truncated_warc_gz_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["extract", str(HERE / "crawl-truncated.warc.gz"), "--format", "text"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out.splitlines()[-1] == "http://example.com/docs/img/a.png"
    errors = captured.err.splitlines()
    assert errors[0] == (
        f"baselinks: {HERE / 'crawl-truncated.warc.gz'}#http://ex: offset 847: "
        "record cut short inside its header, before Content-Length (file truncated?)"
    )
    assert errors[1].endswith(
        "1 document, 4 links; skipped 2 (1 warcinfo record, 1 request record); 1 failed"
    )


def test_library_raises_after_the_last_readable_link() -> None:
    path = HERE / "crawl-truncated.warc.gz"
    seen = []
    with pytest.raises(InputError) as caught:
        for link in iter_links(path):
            seen.append(link.url)
    assert len(seen) == 4
    assert caught.value.offset == 847
    with pytest.raises(InputError) as caught:
        extract_links(path)
    assert [link.url for link in caught.value.links] == seen  # type: ignore[attr-defined]


def test_one_bad_file_never_stops_the_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for case in ("crawl-truncated.warc.gz", "mhtml-layers.mhtml", "unexpected_eof.mhtml"):
        (tmp_path / case).write_bytes((HERE / case).read_bytes())
    (tmp_path / "page_files").mkdir()
    (tmp_path / "page_files" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "page_files" / "app.js").write_bytes(b"var x = '<a href=no>';")
    assert main(["extract", str(tmp_path), "--format", "text"]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 4 + 7
    assert captured.err.splitlines()[-1] == (
        "baselinks: 5 files, 5 documents, 11 links; skipped 4 (2 not a document, "
        "1 warcinfo record, 1 request record); 2 failed"
    )


def test_a_warc_on_stdin_is_streamed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Stdin:
        buffer = io.BufferedReader(io.BytesIO((HERE / "crawl.warc.gz").read_bytes()))  # type: ignore[arg-type]

    monkeypatch.setattr("sys.stdin", Stdin)
    assert main(["extract", "--format", "text", "-q"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 9


def test_a_named_file_that_is_no_document_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "photo.html"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    assert main(["extract", str(image), "-q"]) == 1
    assert capsys.readouterr().err == f"baselinks: {image}: not a document: PNG image\n"


def test_input_error_is_exported() -> None:
    assert baselinks.InputError is InputError
    assert issubclass(InputError, baselinks.BaselinksError)


def test_one_bad_part_never_stops_the_other_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from baselinks.containers.doctypes import DocType
    from baselinks.sheets import LOADERS

    real_load = LOADERS[DocType.HTML]

    def load(body: bytes, **options: object) -> object:
        if b"bad" in body:
            raise ValueError("cannot parse")
        return real_load(body, **options)

    monkeypatch.setitem(LOADERS, DocType.HTML, load)  # type: ignore[arg-type]
    message = (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/html\r\n\r\n<a href=bad>\r\n"
        b"--b\r\nContent-Type: text/html\r\n\r\n<a href=good>\r\n--b--\r\n"
    )
    errors: list[InputError] = []
    assert [link.url for link in iter_links(message, on_error=errors.append)] == ["good"]
    assert [str(error) for error in errors] == [
        "-#part-1: internal error (a bug in baselinks, please report it): ValueError: cannot parse"
    ]


def test_an_unlistable_directory_is_one_error_and_the_walk_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b.html").write_bytes(b"<a href=b>")
    real_walk = os.walk

    def walk(top: str, onerror: object = None) -> object:
        # what os.walk does for a directory it cannot list (chmod 0 does not stop root)
        assert callable(onerror)
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "a" / "closed")))
        return real_walk(top, onerror=onerror)

    monkeypatch.setattr("baselinks.cli.os.walk", walk)
    assert main(["extract", str(tmp_path), "--format", "text"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "b\n"
    assert captured.err.splitlines() == [
        f"baselinks: {tmp_path / 'a' / 'closed'}: Permission denied",
        "baselinks: 1 file, 1 document, 1 link; 1 failed",
    ]


def test_a_cut_gzip_page_gives_what_arrived_then_an_error() -> None:
    data = gzip.compress(b"<p><a href=x>text</a> <a href=yy")[:-12]
    errors: list[InputError] = []
    assert [link.url for link in iter_links(data, on_error=errors.append)] == ["x"]
    assert [str(e) for e in errors] == [
        f"-: offset {len(data)}: gzip data cut short after 22 bytes uncompressed"
    ]
