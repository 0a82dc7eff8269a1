"""Discovery (issue 27): feeds, sitemaps and robots.txt as documents, through every path.

Golden: each fixtures/discovery/<case> beside expected/<case>.jsonl (its links) and
expected/<case>.errors (the error lines, when any); index.tsv gives each case's retrieval URL
and what it exercises. Regenerate after a deliberate change with ``BASELINKS_REGENERATE=1
pytest tests/test_discovery.py`` and review the diff line by line. The readers one by one:
test_xmlbase.py (xml:base), test_feeds.py (feeds, sitemaps, robots.txt), test_metadata.py
(Open Graph, JSON-LD), test_discovery_fuzz.py (damage).
"""

from __future__ import annotations

import csv
import gzip
import html
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from baselinks import InputError, Link, Summary, extract_links
from baselinks.cli import main
from baselinks.dataflow import iter_warc_links
from baselinks.find.feeds import FEED_SOURCES, NAMESPACES
from baselinks.find.linktable import TEXT
from baselinks.find.robots import ROBOTS_TAG
from baselinks.find.sitemaps import SITEMAP_SOURCES, TEXT_TAG
from baselinks.load.containers.coding import MAX_DECODED_BYTES
from baselinks.load.containers.doctypes import DocType, document_type, file_type, may_be_document
from baselinks.write.formats import write_jsonl
from baselinks.write.stats import Stats
from conftest import FIXTURES, assert_golden

HERE = FIXTURES / "discovery"
EXPECTED = HERE / "expected"
REFERENCE = FIXTURES.parent / "docs" / "reference.md"

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


EXACT = [c for c in CASES if not c["recovery"]]
# A document that is not well-formed XML: what lxml's recovery reads after the first error is
# the library's, and changes with its version (lxml 6.2.0 reads one more <link> after the
# entity bomb than 6.1.3). The promise is tested instead: the error named, every link before
# the damage (index.tsv's ``recovery`` line) kept exactly, nothing expanded after it.
RECOVERED = [c for c in CASES if c["recovery"]]


@pytest.mark.parametrize("case", EXACT, ids=[c["case"] for c in EXACT])
def test_golden(case: dict[str, str]) -> None:
    assert_golden(EXPECTED, case["case"], *_run(case))


def _subsequence(short: str, long: str) -> bool:
    rest = iter(long)
    return all(char in rest for char in short)


def _before(jsonl: str, line: int) -> list[str]:
    return [r for r in jsonl.splitlines() if (json.loads(r)["line"] or 0) < line]


@pytest.mark.parametrize("case", RECOVERED, ids=[c["case"] for c in RECOVERED])
def test_golden_promise_where_the_parser_recovers(case: dict[str, str]) -> None:
    links, errors = _run(case)
    if os.environ.get("BASELINKS_REGENERATE"):
        assert_golden(EXPECTED, case["case"], links, errors)
    expected = (EXPECTED / f"{case['case']}.jsonl").read_text(encoding="utf-8")
    recovery = int(case["recovery"])
    assert _before(links, recovery) == _before(expected, recovery)
    lines = (HERE / case["case"]).read_text(encoding="utf-8").splitlines()
    for record in map(json.loads, links.splitlines()):
        # nothing expanded: every reference is made of its own line's characters, in order
        # (the recovery may drop an undefined entity; it never puts text there)
        assert _subsequence(record["raw"], html.unescape(lines[record["line"] - 1])), record
    expected_error = (EXPECTED / f"{case['case']}.errors").read_text(encoding="utf-8")
    assert errors.count("\n") == 1
    # the file and the damage named (libxml2's own words after "at line" are its own)
    assert errors.partition(" at line ")[0] == expected_error.partition(" at line ")[0]
    assert errors.endswith("; read as far as the XML parser's recovery could\n")


def test_the_promise_test_can_fail() -> None:
    # an expansion puts text in a link that its line does not hold, in that order
    line = "  <item><link>http://bomb.example/&lol9;</link></item>"
    assert _subsequence("http://bomb.example/", line)
    assert not _subsequence("http://bomb.example/lollol", line)
    assert not _subsequence("http://bomb.example/root:x:0:0", line)


def test_every_fixture_is_indexed() -> None:
    on_disk = {p.name for p in HERE.iterdir() if p.is_file()} - {"index.tsv", "make_discovery.py"}
    assert on_disk == {c["case"] for c in CASES}
    assert all(c["what it exercises"] for c in CASES)


def _golden_records() -> list[dict[str, object]]:
    records = []
    for case in CASES:
        text = (EXPECTED / f"{case['case']}.jsonl").read_text(encoding="utf-8")
        records += [json.loads(line) for line in text.splitlines()]
    return records


def _feed_tag(namespace: str, local: str) -> str:
    prefix = NAMESPACES[namespace]
    return f"{prefix}:{local}" if prefix else local


def _attr(attr: str) -> str:
    # rdf:about, as the output names it
    return "rdf:" + attr.rpartition("}")[2] if attr.startswith("{") else attr


def test_every_row_of_the_feed_and_sitemap_tables_has_a_fixture() -> None:
    seen = {(r["tag"], r["attr"]) for r in _golden_records()}
    attrs = {attr for _, attr in seen}
    missing = []
    for source in FEED_SOURCES:
        if source.local == "*":
            missing += [] if _attr(source.attr) in attrs else [source.attr]
            continue
        tags = {_feed_tag(namespace, source.local) for namespace in source.namespaces}
        if not any((tag, _attr(source.attr)) in seen for tag in tags):
            missing.append(f"{source.local}[{source.attr}]")
    for row in SITEMAP_SOURCES:
        tag = f"{row.prefix}:{row.local}" if row.prefix else row.local
        if (tag, row.attr) not in seen:
            missing.append(f"{tag}[{row.attr}]")
    assert missing == []
    assert {(ROBOTS_TAG, "sitemap"), (TEXT_TAG, "line")} <= seen
    # every kind of HTML a feed holds was read as a document of its own
    nested = {str(r["document"]).rpartition("#")[2].partition("@")[0] for r in _golden_records()}
    assert {"content", "summary", "description", "content:encoded"} <= nested


def _reference() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def test_the_reference_lists_every_row_and_code() -> None:
    reference = _reference()
    for source in FEED_SOURCES:
        if source.local == "*":
            assert f"| any element | `{_attr(source.attr)}` |" in reference, source.attr
            continue
        for namespace in source.namespaces:
            tag = _feed_tag(namespace, source.local)
            attr = "element text" if source.attr == TEXT else f"`{source.attr}`"
            assert f"| {tag} | {attr} |" in reference, (tag, source.attr)
    for row in SITEMAP_SOURCES:
        tag = f"{row.prefix}:{row.local}" if row.prefix else row.local
        attr = "element text" if row.attr == TEXT else f"`{row.attr}`"
        assert f"| {tag} | {attr} |" in reference, (tag, row.attr)
    codes = reference.split("## Problem codes", 1)[1].split("\n## ", 1)[0]
    for code in ("relative-loc", "loc-outside-sitemap"):
        assert f"`{code}`" in codes


# --- the registry of document types ------------------------------------------------------------

ATOM = b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><id>x</id></feed>'
RSS = b"<rss version='2.0'><channel/></rss>"
RDF = (
    b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    b'xmlns="http://purl.org/rss/1.0/"><channel/></rdf:RDF>'
)
OTHER_RDF = b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>'
URLSET = b'<?xml version="1.0"?>\n<!-- a comment --><urlset xmlns="x"><url/></urlset>'


@pytest.mark.parametrize(
    ("essence", "body", "url", "expected"),
    [
        ("application/atom+xml", b"", None, DocType.FEED),
        ("application/rss+xml", b"", None, DocType.FEED),
        ("application/rdf+xml", OTHER_RDF, None, DocType.FEED),  # the type says so
        ("text/xml", ATOM, None, DocType.FEED),
        ("application/xml", URLSET, None, DocType.SITEMAP),
        ("text/xml", b"<svg xmlns='http://www.w3.org/2000/svg'/>", None, DocType.SVG),
        ("text/xml", b"<config/>", None, None),  # XML that is no document
        ("text/xml", OTHER_RDF, None, None),  # RDF that is no RSS, sniffed
        # MIME Sniffing §7.2, a mislabeled feed: text/html whose document element is a feed's
        ("text/html", RSS, None, DocType.FEED),
        ("text/html", RDF, None, DocType.FEED),
        ("text/html", URLSET, None, DocType.HTML),  # §7.2 names feeds only
        ("", RSS, None, DocType.FEED),
        ("", URLSET, None, DocType.SITEMAP),
        ("application/x-gzip", gzip.compress(URLSET), None, DocType.SITEMAP),
        ("application/gzip", gzip.compress(RSS), None, DocType.FEED),
        ("application/x-gzip", gzip.compress(b"<html>"), None, None),
        ("application/octet-stream", gzip.compress(URLSET), "http://e/s.xml.gz", DocType.SITEMAP),
        ("text/plain", b"User-agent: *", "http://e.example/robots.txt", DocType.ROBOTS),
        ("text/plain", b"User-agent: *", "http://e.example/a/robots.txt", None),
        ("text/plain", b"http://e/a", "http://e.example/sitemap.txt", DocType.SITEMAP_TEXT),
        ("text/plain", b"http://e/a", "http://e.example/sitemap_news-1.txt", DocType.SITEMAP_TEXT),
        ("text/plain", b"http://e/a", "http://e.example/notes.txt", None),
        ("", b"User-agent: *", "http://e.example/robots.txt", DocType.ROBOTS),
        # a soft 404 of no type at /robots.txt is a page; served as text/plain, robots.txt
        ("", b"<!DOCTYPE html><p>Not found", "http://e.example/robots.txt", DocType.HTML),
        ("text/plain", b"<!DOCTYPE html><p>", "http://e.example/robots.txt", DocType.ROBOTS),
        ("text/html", b"User-agent: *", "http://e.example/robots.txt", DocType.HTML),
    ],
)
def test_document_type(essence: str, body: bytes, url: str | None, expected: DocType) -> None:
    assert document_type(essence, body, url) is expected
    if expected is not None:
        assert may_be_document(essence, url)


def test_what_may_be_a_document_is_told_before_the_body_is_read() -> None:
    assert may_be_document("text/xml") and may_be_document("application/x-gzip")
    assert not may_be_document("text/plain") and not may_be_document("application/json")
    assert not may_be_document("text/plain", "http://e.example/readme.txt")
    assert may_be_document("application/octet-stream", "http://e.example/sitemap.xml.gz")


@pytest.mark.parametrize(
    ("name", "head", "url", "expected"),
    [
        ("robots.txt", b"User-agent: *", None, DocType.ROBOTS),
        ("mirror/e.com/ROBOTS.TXT", b"", None, DocType.ROBOTS),
        ("sitemap.txt", b"http://e/a", None, DocType.SITEMAP_TEXT),
        ("urllist.txt.gz", b"", None, DocType.SITEMAP_TEXT),
        ("notes.txt", b"http://e/a", None, None),
        ("feed.xml", ATOM, None, DocType.FEED),
        ("noname", RSS, None, DocType.FEED),
        ("noname", RDF, None, DocType.FEED),
        ("noname", OTHER_RDF, None, None),
        ("sitemap.xml", URLSET, None, DocType.SITEMAP),
        ("-", b"\xef\xbb\xbf<sitemapindex>", None, DocType.SITEMAP),
        ("feed.html", RSS, None, None),  # named HTML: HTML whatever it holds
        ("-", b"User-agent: *\nSitemap: /s.xml", "http://e.example/robots.txt", DocType.ROBOTS),
        ("-", b"http://e/a", "http://e.example/sitemap.txt?x=1", DocType.SITEMAP_TEXT),
    ],
)
def test_file_type(name: str, head: bytes, url: str | None, expected: DocType | None) -> None:
    assert file_type(name, head, url) is expected


# --- the same links through every path ----------------------------------------------------

WARC = HERE / "crawl-discovery.warc.gz"
FEED = HERE / "atom-nested-xml-base.xml"
FEED_URL = "http://news.example/feed.atom"


def _keys(links: list[Link]) -> list[tuple[object, ...]]:
    return [
        (link.url, link.base, link.base_source, link.tag, link.attr, link.kind) for link in links
    ]


def test_a_feed_gives_the_same_links_from_a_file_bytes_headers_a_warc_and_mime() -> None:
    from_file = _keys(extract_links(FEED, url=FEED_URL))
    body = FEED.read_bytes()
    assert _keys(extract_links(body, url=FEED_URL)) == from_file
    for content_type in ("application/atom+xml", "application/xml", "text/html", ""):
        headers = {"Content-Type": content_type} if content_type else {}
        assert _keys(extract_links(body, url=FEED_URL, headers=headers)) == from_file
    warc = _warc(FEED_URL, "application/atom+xml; charset=utf-8", body)
    assert _keys(extract_links(warc)) == from_file
    message = (
        b"MIME-Version: 1.0\r\nContent-Type: application/atom+xml\r\n"
        b"Content-Location: " + FEED_URL.encode() + b"\r\n\r\n" + body
    )
    # a MIME part's base is its Content-Location (§3.2): the same base, another source
    mime = extract_links(message)
    assert [key[:2] + key[3:] for key in _keys(mime)] == [k[:2] + k[3:] for k in from_file]


def _warc(uri: str, content_type: str, body: bytes) -> bytes:
    response = (
        f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    head = (
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
        f"WARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(response)}\r\n\r\n"
    ).encode()
    return head + response + b"\r\n\r\n"


def test_workers_the_cli_stdin_and_the_dataflow_rows_give_the_same_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    links = extract_links(WARC)
    assert extract_links(WARC, workers=2) == links
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["extract", str(WARC), "-q", "-o", str(one)]) == 0
    assert main(["extract", str(WARC), "-q", "-j", "2", "-o", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert len(one.read_text().splitlines()) == len(links)
    rows = list(iter_warc_links(str(WARC)))
    assert [row[0] for row in rows] == [link.url for link in links]
    # stdin: a robots.txt known by its URL
    robots = HERE / "robots.txt"
    done = subprocess.run(
        [sys.executable, "-m", "baselinks", "extract", "-", "--url",
         "http://www.example.com/robots.txt", "--format", "text", "-q"],
        input=robots.read_bytes(), capture_output=True, check=True,
    )  # fmt: skip
    assert done.stdout.decode().splitlines() == ["http://www.example.com/sitemap.xml"]


def test_the_pure_path_gives_the_same_records(tmp_path: Path) -> None:
    out = {}
    for pure in ("", "1"):
        env = {**os.environ, "BASELINKS_PURE": pure}
        done = subprocess.run(
            [sys.executable, "-m", "baselinks", "extract", str(WARC), str(FEED), "-q"],
            capture_output=True, check=True, env=env,
        )  # fmt: skip
        out[pure] = done.stdout
    assert out[""] == out["1"] and out[""].count(b"\n") > 30


def test_stats_count_the_new_codes_and_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["extract", str(WARC), "--stats=json", "-q", "-o", os.devnull])
    assert status == 0
    stats = json.loads(capsys.readouterr().err.splitlines()[-1])
    assert stats["problems"]["open-graph"] == 2 and stats["problems"]["json-ld"] == 2
    assert stats["problems"]["loc-outside-sitemap"] == 1
    assert stats["base_sources"]["content"] == 2  # the feed's xml:base
    summary = Summary(stats=Stats())
    links = extract_links(WARC, summary=summary, kinds={"resource"})
    assert summary.stats is not None and summary.stats.kinds == {"resource": len(links)}


def test_kind_and_filters_treat_discovered_links_as_links(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", str(WARC), "--kind", "resource", "--format", "text", "-q"]) == 0
    resources = capsys.readouterr().out.splitlines()
    assert resources == [
        "https://img.example/sale.jpg",
        "http://news.example/rss/1.mp3",
        "http://news.example/img/story.jpg",
        "http://news.example/img/story-4x3.jpg",
    ]
    assert main(["extract", str(WARC), "--external", "--format", "text", "-q"]) == 0
    external = capsys.readouterr().out.splitlines()
    assert "https://cdn.example/shop/news-sitemap.xml" in external
    assert "http://shop.example/sitemaps/item-1.html" not in external
    select = extract_links(WARC, select="a")
    assert {link.tag for link in select} == {"a"}  # no element of a feed or sitemap matches


# --- bad input --------------------------------------------------------------------------------


def test_a_gzip_bomb_in_a_record_stops_at_the_cap_and_the_rest_is_read(tmp_path: Path) -> None:
    # a sitemap's start, then 257 MiB of spaces: a quarter of a megabyte, gzip'd
    start = b'<?xml version="1.0"?><urlset><url><loc>http://e.example/a</loc></url>'
    bomb = gzip.compress(start + b" " * (MAX_DECODED_BYTES + (1 << 20)), 9, mtime=0)
    robots = b"Sitemap: http://e.example/s.xml\n"
    archive = tmp_path / "bomb.warc"
    archive.write_bytes(
        _warc("http://e.example/sitemap.xml.gz", "application/x-gzip", bomb)
        + _warc("http://e.example/robots.txt", "text/plain", robots)
    )
    errors: list[InputError] = []
    links = extract_links(archive, on_error=errors.append)
    assert [link.url for link in links] == ["http://e.example/s.xml"]
    assert [error.message for error in errors] == [
        f"decoded body larger than {MAX_DECODED_BYTES} bytes: not read"
    ]
    assert errors[0].name == f"{archive}#http://e.example/sitemap.xml.gz"


def test_a_gzip_sitemap_cut_short_gives_what_decoded_and_says_so() -> None:
    data = gzip.compress(b"<urlset>" + b"<url><loc>http://e/a</loc></url>" * 50 + b"</urlset>")
    errors: list[InputError] = []
    links = extract_links(
        data[:-12], url="http://e/s.xml.gz", headers={"Content-Type": "application/x-gzip"},
        on_error=errors.append,
    )  # fmt: skip
    assert links and all(link.url == "http://e/a" for link in links)
    # the cut, and the XML it left unclosed
    assert [error.message.split(" after ")[0] for error in errors] == [
        "sitemap not well-formed XML at line 1: expected '>' (and 1 more errors); read as far "
        "as the XML parser's recovery could",
        "gzip data cut short",
    ]


def test_external_entities_and_dtds_are_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a FIFO: opening it to read would block; a connection would be refused loudly
    import socket
    import threading

    fifo = tmp_path / "entities.dtd"
    os.mkfifo(fifo)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    feed = (
        f'<?xml version="1.0"?><!DOCTYPE rss SYSTEM "{fifo.as_uri()}" ['
        f'<!ENTITY local SYSTEM "{fifo}"><!ENTITY remote SYSTEM "http://127.0.0.1:9/x">'
        f'<!ENTITY % dtd SYSTEM "{fifo.as_uri()}"> %dtd;]>'
        "<rss><channel><link>http://e.example/&local;&remote;</link>"
        "<item><link>http://e.example/after</link></item></channel></rss>"
    ).encode()
    readers: list[str] = []

    def release() -> None:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            readers.append("a reader was waiting")
        except OSError:
            pass

    watchdog = threading.Timer(20, release)
    watchdog.start()
    try:
        for content_type in ("application/rss+xml", "text/xml"):
            links = extract_links(feed, headers={"Content-Type": content_type})
            assert [link.raw for link in links] == [
                "http://e.example/&local;&remote;",
                "http://e.example/after",
            ]
    finally:
        watchdog.cancel()
    release()
    assert readers == []


@pytest.mark.slow  # a 50 MB sitemap, read in a child process to measure its peak memory
def test_a_50_mb_sitemap_is_read_in_bounded_memory(tmp_path: Path) -> None:
    entry = (
        "<url><loc>http://e.example/section/{0}/a-long-article-slug-{0}.html</loc>"
        "<lastmod>2024-01-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority>"
        "<image:image><image:loc>http://img.example/{0}.jpg</image:loc></image:image></url>\n"
    )
    path = tmp_path / "sitemap.xml"
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        )
        while out.tell() < 50_000_000:
            out.write(entry.format(count))
            count += 1
        out.write("</urlset>\n")
    # the child's peak RSS above what it had with the input in memory, while the sitemap's raw
    # links are counted as they come: the reader holds one <url> at a time (lxml's tree of the
    # whole file would be seven times the input: 355 MB measured). extract_links then holds
    # the records it returns, about 600 bytes a link.
    script = (
        "import resource, sys\n"
        "from baselinks.find.sitemaps import sitemap_links\n"
        "from baselinks.find.xmlparse import load_xml\n"
        "data = open(sys.argv[1], 'rb').read()\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "found = sitemap_links(load_xml(data), 'http://e.example/sitemap.xml')\n"
        "count = sum(1 for link in found if not isinstance(link, str))\n"
        "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024\n"
        "print(count, grown)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, check=True, text=True
    )
    links, grown = map(int, done.stdout.split())
    assert links == 2 * count
    assert grown < 16 << 20, grown  # 50 MB read with a few megabytes at most


def test_an_xml_or_gzip_record_that_is_no_document_is_told_by_its_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # their type leaves it to the body; its first 64 KiB tell, and a record over the size
    # limit that is none is skipped without being held (as a video is)
    from baselinks.load.containers import warcrecord

    monkeypatch.setattr(warcrecord, "MAX_RECORD_BYTES", 100_000)
    tarball = gzip.compress(b"ustar" + bytes(300_000), mtime=0) + bytes(150_000)
    records = [
        _warc("http://e.example/api.xml", "application/xml", b"<answer>" + b" " * 200_000),
        _warc("http://e.example/src.tar.gz", "application/x-gzip", tarball),
        _warc("http://e.example/robots.txt", "text/plain", b"Sitemap: /s.xml\n"),
    ]
    summary = Summary()
    links = extract_links(b"".join(records), summary=summary)
    assert [link.url for link in links] == ["http://e.example/s.xml"]
    assert summary.skipped == {"not HTML (application/xml)": 1, "not HTML (application/x-gzip)": 1}
    assert summary.failed == 0
