"""baselinks wat: a WAT file as Common Crawl writes one, from WARC, ARC and WACZ inputs.

What is checked, each against something baselinks did not write:
- offsets and lengths are warcio's index's (Container.Offset, Gzip-Metadata.Deflate-Length), and
  a gzip member's CRC and inflated length are zlib's;
- every key of a record's JSON, and every link path, is one of keys.py's table, made from the
  WAT extractor's source (its constants, with provenance); the keys of a real Common Crawl WAT
  (fixtures/wat/cc-main-2019-22.wat.jsonl) are in that table too;
- the extractor's own test (webarchive-commons' ExtractingParseObserverTest on its
  link-extraction-test.warc): the links and paths it expects, where baselinks has the source;
- the WAT is a WARC warcio reads, one gzip member per record, a warcinfo record first, then one
  metadata record per input record, each naming it (WARC-Refers-To, WARC-Target-URI).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

from baselinks.cli import main
from baselinks.errors import InputError
from baselinks.wat import WatOptions, write_wat
from baselinks.wat.keys import ADDITIONS, ADDITIONS_KEY, KEYS, LINK_SOURCES, paths_of
from baselinks.wat.record import WatDate
from conftest import FIXTURES, warc

CONTAINERS = FIXTURES / "containers"
WAT_FIXTURES = FIXTURES / "wat"
INPUTS = [
    CONTAINERS / "crawl.warc.gz",
    CONTAINERS / "crawl.warc",
    CONTAINERS / "example.arc",
    CONTAINERS / "example-wpull.warc.gz",
    CONTAINERS / "dupes.warc.gz",
    CONTAINERS / "IAH-20080430204825-00000-blackbook-truncated.arc",
    WAT_FIXTURES / "link-extraction-test.warc",
]
_DATE = WatDate(WatDate().moment.replace(year=2026, month=1, day=2, hour=3, minute=4, second=5))


def _wat(paths: list[Path], additions: bool = False) -> tuple[bytes, list[InputError]]:
    out = io.BytesIO()
    errors: list[InputError] = []
    write_wat(
        [(path, path.name) for path in paths],
        out,
        filename="test.warc.wat.gz",
        options=WatOptions(additions=additions, date=_DATE),
        on_error=errors.append,
    )
    return out.getvalue(), errors


def _members(data: bytes) -> list[bytes]:
    """Each gzip member's inflated bytes, split as the members are."""
    found = []
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        found.append(inflater.decompress(data))
        assert inflater.eof
        data = inflater.unused_data
    return found


def _records(data: bytes) -> list[tuple[Any, Any]]:
    """(headers, JSON or block) of each WAT record, as warcio reads them."""
    found = []
    for record in ArchiveIterator(io.BytesIO(data)):
        block = record.content_stream().read()
        body = json.loads(block) if record.rec_type == "metadata" else block
        found.append((record.rec_headers, body))
    return found


def _index(path: Path) -> list[tuple[int, int, str | None]]:
    """warcio's index of a file: offset, length and WARC-Record-ID of each record."""
    found = []
    with open(path, "rb") as stream:
        records = ArchiveIterator(stream, arc2warc=True, no_record_parse=True)
        for record in records:
            record_id = record.rec_headers.get_header("WARC-Record-ID")
            record.raw_stream.read()  # (warcio's brotli decoder fails with brotli 1.2)
            found.append((records.get_record_offset(), records.get_record_length(), record_id))
    return found


@pytest.mark.parametrize(
    "name", ["crawl.warc.gz", "crawl.warc", "example-wpull.warc.gz", "dupes.warc.gz"]
)
def test_one_record_per_input_record_at_warcios_offsets(name: str) -> None:
    path = CONTAINERS / name
    data, errors = _wat([path])
    assert errors == []
    members = _members(data)
    records = _records(data)
    assert len(members) == len(records)  # one gzip member per record, as published
    assert all(member.startswith(b"WARC/1.0\r\n") for member in members)
    assert records[0][0].get_header("WARC-Type") == "warcinfo"
    assert records[0][0].get_header("WARC-Filename") == "test.warc.wat.gz"
    indexed = _index(path)
    assert len(records) == 1 + len(indexed)
    for (headers, body), (offset, length, record_id) in zip(records[1:], indexed, strict=True):
        assert headers.get_header("WARC-Type") == "metadata"
        assert headers.get_header("Content-Type") == "application/json"
        assert headers.get_header("WARC-Refers-To") == record_id
        container = body["Container"]
        assert container["Filename"] == name
        assert container["Offset"] == str(offset)
        assert container["Compressed"] is name.endswith(".gz")
        if name.endswith(".gz"):
            assert container["Gzip-Metadata"]["Deflate-Length"] == str(length)
        else:
            assert "Gzip-Metadata" not in container


def test_gzip_metadata_is_the_members_own() -> None:
    path = CONTAINERS / "crawl.warc.gz"
    data, _ = _wat([path])
    raw = path.read_bytes()
    for _headers, body in _records(data)[1:]:
        member = body["Container"]["Gzip-Metadata"]
        offset, length = int(body["Container"]["Offset"]), int(member["Deflate-Length"])
        stored = raw[offset : offset + length]
        inflated = gzip.decompress(stored)
        crc = zlib.crc32(inflated)
        assert int(member["Inflated-CRC"]) % (1 << 32) == crc
        assert int(member["Inflated-Length"]) == len(inflated)
        assert member["Header-Length"] == "10" and member["Footer-Length"] == "8"
        block_length = int(body["Envelope"]["Payload-Metadata"]["Actual-Content-Length"])
        header_length = int(body["Envelope"]["WARC-Header-Length"])
        slop = int(body["Envelope"]["Payload-Metadata"]["Trailing-Slop-Length"])
        assert header_length + block_length + slop == len(inflated)
        assert inflated[header_length - 4 : header_length] == b"\r\n\r\n"


def _folded(path: str) -> str:
    """A key path with its free names (headers, fields) as ``*``."""
    for under in (
        "Headers.",
        "WARC-Header-Metadata.",
        "WARC-Info-Metadata.",
    ):
        head, found, _ = path.partition(under)
        if found:
            return f"{head}{under}*"
    return path


_KNOWN = {key.path for key in KEYS}
_ADDED = _KNOWN | {key.path for key in ADDITIONS}


def _link_paths(body: Any) -> set[str]:
    html = body["Envelope"]["Payload-Metadata"].get("HTTP-Response-Metadata", {})
    html = html.get("HTML-Metadata", {})
    arrays = [
        html.get("Links", []),
        *(html.get("Head", {}).get(k, []) for k in ("Link", "Scripts")),
    ]
    return {entry["path"] for array in arrays for entry in array}


_EXTRACTOR_PATHS = {
    "STYLE/#text" if place.tag == "style" else f"{place.tag.upper()}@/{place.attr}"
    for place in LINK_SOURCES
}


@pytest.mark.parametrize("additions", [False, True], ids=["default", "additions"])
def test_every_key_and_path_is_the_extractors(additions: bool) -> None:
    data, _ = _wat(INPUTS, additions)
    records = _records(data)
    seen: set[str] = set()
    for _, body in records[1:]:
        keys = {_folded(path) for path in paths_of(body)}
        assert keys <= (_ADDED if additions else _KNOWN), keys - _KNOWN
        seen |= keys
        for path in _link_paths(body):
            _tag, at, attr = path.partition("@/")
            # a global attribute's path names its element (DIV@/data-href): the attribute's
            known = path in _EXTRACTOR_PATHS or f"*@/{attr}" in {
                f"*@/{place.attr}" for place in LINK_SOURCES if place.tag == "*"
            }
            assert at or path == "STYLE/#text"
            assert known, path
    assert "Envelope.Payload-Metadata.HTTP-Response-Metadata.HTML-Metadata.Links[].path" in seen
    assert ("Envelope.Payload-Metadata.Baselinks.Links[].url" in seen) is additions


def test_a_common_crawl_wat_has_only_keys_of_the_table() -> None:
    """A real WAT of Common Crawl (CC-MAIN-2019-22, fixtures/README.md): its keys are in the
    table the builders take their names from."""
    lines = (WAT_FIXTURES / "cc-main-2019-22.wat.jsonl").read_text("utf-8").splitlines()
    for line in lines:
        keys = {_folded(path) for path in paths_of(json.loads(line))}
        assert keys <= _KNOWN, keys - _KNOWN


# webarchive-commons' ExtractingParseObserverTest.testLinkExtraction: the (url, path) each page
# of link-extraction-test.warc gives (its __base__ is Head.Base, its __meta_refresh__ a Metas
# entry's content), as Common Crawl's fork writes them (entities decoded: "&", not "&amp;").
# The sources that are no links to baselinks are left out, each said: data-uri (DIV@/data-uri)
# and onclick scripts (DIV@/onclick, INPUT@/onclick), its last page's seven.
_EXPECTED = [
    [
        ("http://www.example.com/", "__base__"),
        ("http://www.example.com/redirected.html", "__meta_refresh__"),
        ("background.jpg", "BODY@/background"),
        ("http://www.example.com/a-href.html", "A@/href"),
        ("#anchor", "A@/href"),
        ("image.png", "IMG@/src"),
        ("image.gif", "IMG@/src"),
        ("http://example.com/image-description.html#image.gif", "IMG@/longdesc"),
        ("helloworld.swf", "OBJECT@/data"),
        ("http://www.example.com/shakespeare.html", "Q@/cite"),
        ("http://www.example.com/shakespeare-long.html", "BLOCKQUOTE@/cite"),
    ],
    [
        ("http:///www.example.com/video.html", "LINK@/href"),
        ("video.rss", "LINK@/href"),
        ("https://archive.org/download/WebmVp8Vorbis/webmvp8.gif", "VIDEO@/poster"),
        ("https://archive.org/download/WebmVp8Vorbis/webmvp8.webm", "SOURCE@/src"),
        ("https://archive.org/download/WebmVp8Vorbis/webmvp8_512kb.mp4", "SOURCE@/src"),
        ("https://archive.org/download/WebmVp8Vorbis/webmvp8.ogv", "SOURCE@/src"),
    ],
    [("http://www.example.com/", "A@/href")],
    [
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "BLOCKQUOTE@/cite"),
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "A@/href"),
        ("https://www.facebook.com/facebook/", "A@/href"),
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "DIV@/data-href"),
    ],
    [
        ("standard.css", "LINK@/href"),
        ("https://www.facebook.com/elegantthemes/videos/10153760379211923/", "DIV@/data-href"),
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "DIV@/data-href"),
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "BLOCKQUOTE@/cite"),
        ("https://www.facebook.com/facebook/videos/10153231379946729/", "A@/href"),
        ("https://www.facebook.com/facebook/", "A@/href"),
        ("//edge.flowplayer.org/bauhaus.webm", "SOURCE@/src"),
        ("//edge.flowplayer.org/bauhaus.mp4", "SOURCE@/src"),
        ("//edge.flowplayer.org/functional.webm", "BUTTON@/data-href"),
        ("/content-page", "ARTICLE@/data-href"),
        ("/content-page", "A@/href"),
        ("/tags/content", "A@/href"),
        ("/tags/headlines", "A@/href"),
        ("http://grabaperch.com", "DIV@/data-href"),
        ("green.css", "LINK@/data-href"),
        ("blue.css", "LINK@/data-href"),
        ("http://codecanyon.net/user/CodingJack", "A@/data-href"),
        ("jackbox/img/thumbs/4.jpg", "IMG@/src"),
        ("//venobox-destination", "A@/data-href"),
        ("#", "A@/href"),
        (
            "http://www.youtube.com/v/itTskyFLSS8&rel=0&autohide=1&showinfo=0&autoplay=1",
            "DIV@/data-href",
        ),
        ("#", "A@/href"),
        ("http://www.youtube.com/v/itTskyFLSS8&rel=0&autohide=1&showinfo=0", "IFRAME@/src"),
    ],
    [
        ("https://developers.facebook.com/docs/plugins/comments#configurator", "DIV@/data-href"),
        (
            "https://www.facebook.com/zuck/posts/10102735452532991?comment_id=1070233703036185",
            "DIV@/data-href",
        ),
        ("https://www.facebook.com/zuck", "DIV@/data-href"),
        ("https://developers.facebook.com/docs/plugins/", "DIV@/data-href"),
        ("https://www.facebook.com/facebook", "DIV@/data-href"),
        ("https://www.facebook.com/facebook", "BLOCKQUOTE@/cite"),
        ("https://www.facebook.com/facebook", "A@/href"),
        ("http://www.your-domain.com/your-page.html", "DIV@/data-href"),
    ],
    [],  # onclick scripts only: DIV@/onclick, INPUT@/onclick (no links to baselinks)
]


def _found(html: dict[str, Any]) -> list[tuple[str, str]]:
    """The (url, path) pairs of a page's HTML-Metadata, as the extractor's test reads them."""
    head = html.get("Head", {})
    found = []
    if "Base" in head:
        found.append((head["Base"], "__base__"))
    for meta in head.get("Metas", []):
        if meta.get("http-equiv", "").lower() == "refresh":
            target = meta["content"].split("URL=", 1)[-1]
            found.append((target, "__meta_refresh__"))
    for entry in [*html.get("Links", []), *head.get("Link", [])]:
        found.append((entry["url"], entry["path"]))
    return found


def test_the_extractors_own_test_page_by_page() -> None:
    data, errors = _wat([WAT_FIXTURES / "link-extraction-test.warc"])
    assert errors == []
    pages = []
    for _, body in _records(data)[1:]:
        if body["Envelope"]["WARC-Header-Metadata"]["WARC-Type"] == "response":
            response = body["Envelope"]["Payload-Metadata"]["HTTP-Response-Metadata"]
            pages.append(response.get("HTML-Metadata", {}))
    assert len(pages) == len(_EXPECTED)
    for html, expected in zip(pages, _EXPECTED, strict=True):
        assert Counter(_found(html)) == Counter(expected)


def test_html_metadata_of_a_page_of_every_source() -> None:
    page = b"""<!DOCTYPE html><html lang="en"><head><title>  A   page\n</title>
<base href="/b/"><base href="/ignored/">
<meta charset="utf-8"><meta name="description" content="d"><meta itemprop="x" content="y">
<meta property="og:image" content="data:image/png;base64,AAAA">
<link rel="stylesheet" type="text/css" href="s.css"><script src="j.js" type="module"></script>
<style>@import "i.css"; p { background: url('u.png') } q { background: image-set("x.png" 1x) }
</style></head><body background="bg.png">
<a href="a.html" target="_blank" rel="nofollow" title="t" hreflang="fr">an  <b>anchor</b>
<script>no</script></a>
<img src="i.png" alt="alt" srcset="s1.png 1x, s2.png 2x" data-src="lazy.png">
<form action="/f" method="post"><input type="image" src="in.png"><button formaction="/b">
</button></form><form></form><div style="background:url(st.png)" data-href="/card"></div>
<iframe src="fr.html"></iframe><q cite="/q"></q></body></html>"""
    data, errors = _wat_of(warc([("http://h.example/p/page", "text/html", page)]), True)
    assert errors == []
    body = _records(data)[1][1]
    payload = body["Envelope"]["Payload-Metadata"]
    html = payload["HTTP-Response-Metadata"]["HTML-Metadata"]
    assert html["Head"] == {
        "Title": "A page",
        "Base": "/b/",  # the first: the one the links resolve against
        "Metas": [
            {"name": "HTML@/lang", "content": "en"},
            {"name": "description", "content": "d"},
            {"content": "data:image/png;base64,", "property": "og:image"},
        ],
        "Link": [
            {
                "path": "LINK@/href",
                "url": "s.css",
                "rel": "stylesheet",
                "type": "text/css",
                "Baselinks": {
                    "url": "http://h.example/b/s.css",
                    "base": "http://h.example/b/",
                    "base_source": "content",
                    "kind": "resource",
                },
            }
        ],
        "Scripts": [
            {
                "path": "SCRIPT@/src",
                "url": "j.js",
                "type": "module",
                "Baselinks": {
                    "url": "http://h.example/b/j.js",
                    "base": "http://h.example/b/",
                    "base_source": "content",
                    "kind": "resource",
                },
            }
        ],
    }
    links = [{k: v for k, v in entry.items() if k != "Baselinks"} for entry in html["Links"]]
    assert links == [
        {"path": "STYLE/#text", "href": "i.css"},
        {"path": "STYLE/#text", "href": "u.png"},
        {"path": "BODY@/background", "url": "bg.png"},
        {
            "path": "A@/href",
            "url": "a.html",
            "target": "_blank",
            "title": "t",
            "rel": "nofollow",
            "hreflang": "fr",
            "text": "an anchor",
        },
        {"path": "IMG@/src", "url": "i.png", "alt": "alt"},
        {"path": "FORM@/action", "url": "/f", "method": "post"},
        {"path": "INPUT@/src", "url": "in.png"},
        {"path": "BUTTON@/formaction", "url": "/b"},
        {"path": "DIV@/data-href", "url": "/card"},
        {"path": "IFRAME@/src", "url": "fr.html"},
        {"path": "Q@/cite", "url": "/q"},
    ]
    extra = payload["Baselinks"]
    assert extra["Base"] == "http://h.example/b/" and extra["Base-Source"] == "content"
    others = {(one["path"], one["raw"]) for one in extra["Links"]}
    assert others >= {
        ("STYLE/#text", "x.png"),  # image-set() with a string: no url(), no place
        ("IMG@/srcset", "s1.png"),
        ("IMG@/srcset", "s2.png"),
        ("IMG@/data-src", "lazy.png"),
        ("DIV@/style", "st.png"),
        ("FORM@/action", ""),  # a form without action: its document (no place: none written)
        ("META@/content", "data:image/png;base64,AAAA"),
    }


def _wat_of(data: bytes, additions: bool = False) -> tuple[bytes, list[InputError]]:
    out = io.BytesIO()
    errors: list[InputError] = []
    write_wat(
        [(data, "page.warc.gz")],
        out,
        filename="page.warc.wat.gz",
        options=WatOptions(additions=additions, date=_DATE),
        on_error=errors.append,
    )
    return out.getvalue(), errors


def test_data_urls_are_cut_as_common_crawl_cuts_them() -> None:
    long_data = "data:text/plain;base64," + "A" * 300
    page = f'<a href="{long_data}">x</a><img src="data:{"x" * 200}">'.encode()
    data, _ = _wat_of(warc([("http://h.example/", "text/html", page)]))
    html = _records(data)[1][1]["Envelope"]["Payload-Metadata"]["HTTP-Response-Metadata"]
    urls = [entry["url"] for entry in html["HTML-Metadata"]["Links"]]
    assert urls == ["data:text/plain;base64,", "data:" + "x" * 123]


def test_a_document_read_as_it_comes_is_in_its_records_additions() -> None:
    """A sitemap and a robots.txt (documents read as they come, their links handed on in
    pieces) give their links to their record's additions, as a page's unplaced links; and a
    Content-Location header its link (cc-pyspark's host graph counts it)."""
    sitemap = (
        b"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
        + b"".join(
            b"<url><loc>p%d.html</loc></url>" % n
            for n in range(5000)  # more than one piece
        )
        + b"</urlset>"
    )
    robots = b"User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"
    data, errors = _wat_of(
        warc(
            [
                ("http://h.example/sitemap.xml", "application/xml", sitemap),
                ("http://h.example/robots.txt", "text/plain", robots),
            ]
        ),
        additions=True,
    )
    assert errors == []
    added = [
        body["Envelope"]["Payload-Metadata"][ADDITIONS_KEY]["Links"]
        for _, body in _records(data)[1:]
    ]
    assert [link["url"] for link in added[0]] == [
        f"http://h.example/p{n}.html" for n in range(5000)
    ]
    assert [link["url"] for link in added[1]] == ["http://h.example/sitemap.xml"]
    page = warc([("http://h.example/", "text/html", b"<p>")], ("Content-Location", "/en/"))
    data, errors = _wat_of(page, additions=True)
    added = _records(data)[1][1]["Envelope"]["Payload-Metadata"][ADDITIONS_KEY]["Links"]
    assert [link["url"] for link in added] == ["http://h.example/en/"]


def test_a_damaged_file_is_said_and_the_records_around_it_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cut.warc.wat.gz"
    status = main(["wat", str(CONTAINERS / "crawl-truncated.warc.gz"), "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 1
    assert "crawl-truncated.warc.gz: offset 847:" in err
    records = _records(out.read_bytes())
    offsets = [body["Container"]["Offset"] for _, body in records[1:]]
    assert offsets == ["0", "176", "374"]  # the records before the cut


def test_a_folder_gets_one_wat_per_input_named_as_common_crawl_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "wat"
    paths = [str(CONTAINERS / "crawl.warc.gz"), str(CONTAINERS / "example.arc")]
    assert main(["wat", *paths, "-o", f"{folder}/", "-q"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["crawl.warc.wat.gz", "example.arc.wat.gz"]
    arc = _records((folder / "example.arc.wat.gz").read_bytes())
    envelope = arc[2][1]["Envelope"]
    assert envelope["Format"] == "ARC"
    assert envelope["ARC-Header-Metadata"]["Target-URI"] == "http://example.com/"
    assert arc[2][0].get_header("WARC-Refers-To") == "<urn:arc:example.arc:151>"
    assert arc[2][0].get_header("WARC-Date") == "2014-02-16T05:02:21Z"  # the ARC record's own


def test_the_same_inputs_give_the_same_bytes_with_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    paths = [str(path) for path in INPUTS]
    (tmp_path / "1").mkdir()
    (tmp_path / "3").mkdir()
    one, four = tmp_path / "1" / "crawl.wat.gz", tmp_path / "3" / "crawl.wat.gz"
    assert main(["wat", *paths, "-o", str(one), "-q"]) == 0
    assert main(["wat", *paths, "-o", str(four), "-q", "-j", "3"]) == 0
    assert one.read_bytes() == four.read_bytes()
    first = _records(one.read_bytes())[0][0]
    assert first.get_header("WARC-Date") == "2026-01-01T00:00:00Z"


def test_no_wat_to_a_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main(["wat", str(CONTAINERS / "crawl.warc.gz")]) == 2
    assert "give -o FILE" in capsys.readouterr().err


def test_a_file_that_is_no_archive_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    data, errors = _wat([FIXTURES / "html" / "base-late.html"])
    assert [error.message for error in errors] == ["not a WARC, ARC or WACZ file (html)"]
    assert len(_records(data)) == 1  # the warcinfo record alone


# --- damage, fuzzed: every record wholly outside the damage is written ----------------------


def _member_spans(data: bytes) -> list[tuple[int, int]]:
    """Each gzip member's (start, end) in a .warc.gz."""
    spans, start = [], 0
    while start < len(data):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        inflater.decompress(data[start:])
        end = len(data) - len(inflater.unused_data)
        spans.append((start, end))
        start = end
    return spans


def _written_offsets(data: bytes, name: str) -> tuple[set[int], list[InputError]]:
    out = io.BytesIO()
    errors: list[InputError] = []
    write_wat(
        [(data, name)],
        out,
        filename="fuzz.warc.wat.gz",
        options=WatOptions(date=_DATE),
        on_error=errors.append,
    )
    offsets = set()
    for record in ArchiveIterator(io.BytesIO(out.getvalue())):
        if record.rec_type == "metadata":
            body = json.loads(record.content_stream().read())
            if "Offset" in body["Container"]:
                offsets.add(int(body["Container"]["Offset"]))
    return offsets, errors


@pytest.mark.parametrize(
    "name", ["crawl.warc.gz", "example-wpull.warc.gz", "dupes.warc.gz", "dedup/revisits.warc.gz"]
)
def test_a_damaged_member_costs_that_record_alone(name: str) -> None:
    import random

    data = (CONTAINERS / name).read_bytes()
    spans = _member_spans(data)
    rng = random.Random(38)
    for _ in range(40):
        start, end = rng.choice(spans)
        how = rng.choice(("flip", "truncate", "junk", "delete"))
        if how == "flip":  # bytes of one member changed
            at = rng.randrange(start, end)
            mutant = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
            kept = {s for s, e in spans if (s, e) != (start, end)}
        elif how == "truncate":  # the file cut inside a member
            at = rng.randrange(start, end)
            mutant = data[:at]
            kept = {s for s, e in spans if e <= at}
        elif how == "junk":  # junk written between two members
            mutant = data[:end] + b"junk\x00\x1f\x8b" * rng.randrange(1, 30) + data[end:]
            kept = {s if s < end else s + len(mutant) - len(data) for s, _ in spans}
        else:  # a member's middle deleted
            cut = rng.randrange(start, end)
            mutant = data[:cut] + data[min(cut + rng.randrange(1, 50), end) :]
            shift = len(data) - len(mutant)
            kept = {s if s < start else s - shift for s, e in spans if (s, e) != (start, end)}
        offsets, errors = _written_offsets(mutant, name)
        assert kept <= offsets, (how, sorted(kept - offsets), [str(e) for e in errors])
        if how != "flip" or offsets != {s for s, _ in spans}:
            assert errors or how == "flip", how  # damage is said (a flip in a block may not be)


@pytest.mark.parametrize("name", ["crawl.warc", "example.arc", "example-trunc.warc"])
def test_an_uncompressed_file_cut_anywhere_keeps_the_records_before_the_cut(name: str) -> None:
    data = (CONTAINERS / name).read_bytes()
    whole, _ = _written_offsets(data, name)
    ends = {offset: length for offset, length, _ in _index(CONTAINERS / name)}
    for at in range(0, len(data), max(1, len(data) // 60)):
        offsets, errors = _written_offsets(data[:at], name)
        assert {o for o in whole if o + ends.get(o, 0) <= at} <= offsets, at
        if at and not {o for o in whole if o < at} <= offsets | {o for o in whole if o >= at}:
            assert errors


def test_bytes_after_a_record_in_its_member_are_said_as_such() -> None:
    """Damage inside a gzip member after its record: said of those bytes (it once read "no
    WARC or ARC record starts here (first line 'WARC/1.0')", of the member's intact start), and
    the record after the member written."""
    first = warc([("http://h.example/a", "text/html", b"<a href=x>")], gzip=False)
    last = warc([("http://h.example/b", "text/html", b"<a href=y>")], gzip=False)
    members = gzip.compress(first + b"\x00garbage\r\n\r\n") + gzip.compress(last)
    data, errors = _wat_of(members)
    assert [e.message.split(";")[0] for e in errors] == [
        "the bytes after a record in its gzip member start no record (damaged data?)"
    ]
    targets = [headers.get_header("WARC-Target-URI") for headers, _ in _records(data)]
    assert "http://h.example/b" in targets
