"""The readers of feeds (find/feeds.py), sitemaps (find/sitemaps.py) and robots.txt
(find/robots.py), one rule at a time; their fixtures' golden output is test_discovery.py's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from baselinks import InputError, Link, extract_links
from baselinks.find.sitemaps import OUTSIDE_SITEMAP, RELATIVE_LOC, _Scope

URL = "http://e.example/dir/feed.xml"


def _links(body: bytes, content_type: str, url: str = URL) -> list[Link]:
    errors: list[InputError] = []
    links = extract_links(
        body, url=url, headers={"Content-Type": content_type}, on_error=errors.append
    )
    assert errors == []
    return links


def _rss(item: str) -> bytes:
    return f'<rss version="2.0"><channel><item>{item}</item></channel></rss>'.encode()


# --- robots.txt -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Sitemap: http://a.example/s.xml", "http://a.example/s.xml"),
        ("sitemap:http://a.example/s.xml", "http://a.example/s.xml"),
        ("  SITEMAP  :  /s.xml  ", "http://e.example/s.xml"),
        ("Site-map: /s.xml", "http://e.example/s.xml"),
        ("Sitemaps: /s.xml", "http://e.example/s.xml"),  # Google: the key starts with "sitemap"
        ("Sitemap /s.xml", "http://e.example/s.xml"),  # two words, no colon
        ("Sitemap: /s.xml # a comment", "http://e.example/s.xml"),
        ("Sitemap: /s.xml#not-a-fragment", "http://e.example/s.xml"),  # "#" starts a comment
        ("Sitemap /s.xml and more", None),  # no colon and more than two words
        ("Sitemap:", None),
        ("# Sitemap: /s.xml", None),
        ("Disallow: /s.xml", None),
        ("Allow: /", None),
        ("Host: e.example", None),
        ("Mapa do site: /s.xml", None),
    ],
)
def test_a_robots_txt_line(line: str, expected: str | None) -> None:
    body = f"User-agent: *\n{line}\n".encode()
    links = _links(body, "text/plain", "http://e.example/robots.txt")
    assert [link.url for link in links] == ([] if expected is None else [expected])
    assert all(
        (link.tag, link.attr, link.kind, link.line) == ("robots", "sitemap", "link", 2)
        for link in links
    )


def test_robots_txt_lines_end_at_lf_cr_lf_or_cr_and_a_bom_is_passed_over() -> None:
    body = b"\xef\xbb\xbfSitemap: /a.xml\r\nSitemap: /b.xml\rSitemap: /c.xml\nSitemap: /d.xml"
    links = _links(body, "text/plain", "http://e.example/robots.txt")
    assert [(link.url, link.line) for link in links] == [
        ("http://e.example/a.xml", 1),
        ("http://e.example/b.xml", 2),
        ("http://e.example/c.xml", 3),
        ("http://e.example/d.xml", 4),
    ]


# --- sitemaps ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        ("http://shop.example/catalog/a.html", ()),
        ("http://shop.example/catalog/", ()),
        ("HTTP://Shop.Example:80/catalog/a", ()),  # scheme and host in any case, a default port
        ("http://shop.example:8080/catalog/a", (OUTSIDE_SITEMAP,)),
        ("https://shop.example/catalog/a", (OUTSIDE_SITEMAP,)),
        ("http://shop.example/catalogue/a", (OUTSIDE_SITEMAP,)),  # another directory
        ("http://shop.example/a", (OUTSIDE_SITEMAP,)),
        ("http://www.shop.example/catalog/a", (OUTSIDE_SITEMAP,)),  # hosts, not sites
        ("a.html", (RELATIVE_LOC,)),
        ("../a.html", (RELATIVE_LOC, OUTSIDE_SITEMAP)),
        ("//cdn.example/catalog/a", (RELATIVE_LOC, OUTSIDE_SITEMAP)),
        ("mailto:x@shop.example", (OUTSIDE_SITEMAP,)),
    ],
)
def test_the_scope_of_a_sitemap(loc: str, expected: tuple[str, ...]) -> None:
    assert _Scope("http://shop.example/catalog/sitemap.xml").problems(loc) == expected


def test_without_the_sitemaps_url_only_a_relative_loc_is_told() -> None:
    scope = _Scope("")
    assert scope.problems("a.html") == (RELATIVE_LOC,)
    assert scope.problems("http://elsewhere.example/") == ()


def test_a_sitemap_with_google_s_former_namespace_or_none() -> None:
    for namespace in ("http://www.google.com/schemas/sitemap/0.84", ""):
        xmlns = f' xmlns="{namespace}"' if namespace else ""
        body = f"<urlset{xmlns}><url><loc>http://e.example/dir/a</loc></url></urlset>".encode()
        assert [link.url for link in _links(body, "text/xml")] == ["http://e.example/dir/a"]


@pytest.mark.parametrize("inside", ["\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\x1c"])
@pytest.mark.parametrize("name", ["sitemap.txt", "robots.txt"])
def test_a_text_line_ends_at_lf_cr_lf_or_cr_only(name: str, inside: str, tmp_path: Path) -> None:
    # issue 36: the text sitemap was split with str.splitlines(), which ends a line at a form
    # feed, a vertical tab, NEL, U+2028, U+2029 and the file separators too: one URL became
    # two links, the tail resolved as a URL of its own
    key = "Sitemap: " if name == "robots.txt" else ""
    path = tmp_path / name
    text = f"{key}http://e.example/a{inside}b\r\n{key}http://e.example/c\r{key}/d\n"
    path.write_bytes(text.encode())
    links = extract_links(path, url="http://e.example/" + name)
    assert [(link.raw, link.line) for link in links] == [
        (f"http://e.example/a{inside}b", 1),
        ("http://e.example/c", 2),
        ("/d", 3),
    ]


def test_a_loc_outside_an_entry_and_cdata_are_read() -> None:
    body = b"<urlset><loc><![CDATA[http://e.example/dir/a?x=1&y=2]]></loc></urlset>"
    assert [link.url for link in _links(body, "application/xml")] == [
        "http://e.example/dir/a?x=1&y=2"
    ]


def test_a_sitemap_holds_no_element_it_has_read_past(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 36: 5 million elements the table does not know, between two <url> entries, were
    # held in the tree to the next entry's end (654 MB for 20 MB: no event was asked for them,
    # so none was released). After each piece fed, every closed element is dropped: the tree
    # holds the open chain and what one piece (64 KiB) adds, however many elements came before.
    from baselinks.find import sitemaps, xmlparse

    sizes: list[int] = []
    real = xmlparse.prune

    def measured(root: object, holds: object) -> None:
        real(root, holds)  # type: ignore[arg-type]
        sizes.append(sum(1 for _ in root.iter()))  # type: ignore[attr-defined]

    monkeypatch.setattr(xmlparse, "prune", measured)
    body = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + b"<url><loc>http://e.example/dir/a</loc></url>"
        + b"<x><y/></x>" * 100_000
        + b"<url><loc>http://e.example/dir/b</loc>"
        + b"<z/>" * 100_000
        + b"<loc>http://e.example/dir/c</loc></url></urlset>"
    )
    found = list(sitemaps.sitemap_links(xmlparse.load_xml(body), URL))
    assert [link.raw for link in found if not isinstance(link, str)] == [
        "http://e.example/dir/a",
        "http://e.example/dir/b",
        "http://e.example/dir/c",
    ]
    assert len(sizes) > 20 and max(sizes) < 20_000  # a piece holds some 12,000 of them


# --- feeds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guid", "expected"),
    [
        ("<guid>http://e.example/p/1</guid>", ["http://e.example/p/1"]),
        ("<guid>12345</guid>", []),  # a post's number, no permalink
        ('<guid isPermaLink="true">p/1</guid>', ["http://e.example/dir/p/1"]),
        ('<guid isPermaLink=" TRUE ">p/1</guid>', ["http://e.example/dir/p/1"]),
        ('<guid isPermaLink="false">http://e.example/p/1</guid>', []),
        ("<guid></guid>", []),
    ],
)
def test_an_rss_guid_is_a_link_when_it_is_a_permalink(guid: str, expected: list[str]) -> None:
    assert [link.url for link in _links(_rss(guid), "application/rss+xml")] == expected


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("<id>http://e.example/1</id>", ["http://e.example/1"]),
        ("<id>tag:e.example,2024:1</id>", []),
        ("<id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>", []),
        ('<link href="a"/>', ["http://e.example/dir/a"]),
        ('<link rel="enclosure" href="a.mp3"/>', ["http://e.example/dir/a.mp3"]),
        ('<link href=""/>', [URL]),  # the base itself
        ("<link/>", []),
        ('<content type="text/html" src="c.html"/>', ["http://e.example/dir/c.html"]),
    ],
)
def test_atom_elements(element: str, expected: list[str]) -> None:
    body = f'<feed xmlns="http://www.w3.org/2005/Atom"><entry>{element}</entry></feed>'.encode()
    assert [link.url for link in _links(body, "application/atom+xml")] == expected


def test_an_atom_links_kind_and_rel() -> None:
    body = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><link rel="ENCLOSURE" href="a.mp3"/>'
        b'<link href="b"/><link rel="http://example.org/Rel" href="c"/></feed>'
    )
    links = _links(body, "application/atom+xml")
    assert [(link.kind, link.rel) for link in links] == [
        ("resource", "enclosure"),
        ("link", ""),
        ("link", "http://example.org/Rel"),  # an IRI keeps its case
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('<summary type="html">&lt;a href="x"&gt;x&lt;/a&gt;</summary>', ["x"]),
        ('<summary type="HTML"><![CDATA[<a href="x">x</a>]]></summary>', ["x"]),
        ('<summary type="text">&lt;a href="x"&gt;</summary>', []),
        ('<summary>&lt;a href="x"&gt;</summary>', []),  # text, the default
        (
            '<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="x"/></div></title>',
            ["x"],
        ),
        (
            '<content type="application/xhtml+xml"><x:div xmlns:x="http://www.w3.org/1999/xhtml"><x:a href="x"/></x:div></content>',
            ["x"],
        ),
        ('<rights type="html">&lt;a href="x"&gt;</rights>', ["x"]),
        ('<content type="image/png">iVBORw0KGgo=</content>', []),
    ],
)
def test_the_html_an_atom_entry_holds(content: str, expected: list[str]) -> None:
    body = f'<feed xmlns="http://www.w3.org/2005/Atom"><entry>{content}</entry></feed>'.encode()
    links = _links(body, "application/atom+xml")
    assert [link.raw for link in links] == expected
    assert all(link.base_source == "encapsulating" for link in links)


@pytest.mark.parametrize(
    ("mode", "body", "expected"),
    [
        ("escaped", "&lt;a href='x'&gt;", ["x"]),
        ("base64", "PGEgaHJlZj0neCc+", ["x"]),  # <a href='x'>
        ("base64", "not base64 at all!", []),
        ("xml", '<div xmlns="http://www.w3.org/1999/xhtml"><a href="x"/></div>', ["x"]),
    ],
)
def test_atom_0_3_modes(mode: str, body: str, expected: list[str]) -> None:
    feed = (
        f'<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry>'
        f'<content type="text/html" mode="{mode}">{body}</content></entry></feed>'
    ).encode()
    assert [link.raw for link in _links(feed, "application/atom+xml")] == expected


def test_an_undeclared_usual_prefix_is_read_and_is_no_damage() -> None:
    body = _rss('<media:thumbnail url="t.jpg"/><feedburner:origLink>o.html</feedburner:origLink>')
    links = _links(body, "application/rss+xml")
    assert [(link.tag, link.attr, link.url) for link in links] == [
        ("media:thumbnail", "url", "http://e.example/dir/t.jpg"),
        ("feedburner:origLink", "#text", "http://e.example/dir/o.html"),
    ]


def test_an_element_of_the_html_is_no_row_of_the_feed() -> None:
    # "naked" markup in an RSS description: its <link> is the HTML's (none), its <a> a link
    body = _rss('<description><link>not-a-feed-link</link><a href="a">a</a></description>')
    assert [(link.tag, link.raw) for link in _links(body, "application/rss+xml")] == [("a", "a")]


def test_inline_xhtml_splits_at_each_element_with_its_own_xml_base() -> None:
    body = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry xml:base="http://b.example/e/">'
        b'<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
        b'<a href="1"/><p xml:base="p/"><a href="2"/><span xml:base="/s/"><a href="3"/></span>'
        b'<a href="4"/></p><a href="5"/></div></content></entry></feed>'
    )
    links = _links(body, "application/atom+xml")
    assert sorted(link.url for link in links) == [
        "http://b.example/e/1",
        "http://b.example/e/5",
        "http://b.example/e/p/2",
        "http://b.example/e/p/4",
        "http://b.example/s/3",
    ]
    assert {link.base_source for link in links} == {"encapsulating"}


def test_a_feed_in_another_encoding_and_the_transport_charset_winning() -> None:
    latin1 = '<?xml version="1.0" encoding="iso-8859-1"?><rss><channel><link>/café</link></channel></rss>'
    links = _links(latin1.encode("latin-1"), "application/rss+xml")
    assert [link.raw for link in links] == ["/café"]
    # RFC 7303 §3.2: the transport's charset wins over the declaration
    wrong = latin1.replace("iso-8859-1", "utf-8").encode("latin-1")
    links = _links(wrong, "application/rss+xml; charset=iso-8859-1")
    assert [link.raw for link in links] == ["/café"]


def test_an_empty_feed_gives_nothing_and_no_error() -> None:
    assert _links(b"", "application/rss+xml") == []
    assert _links(b"  \n", "application/atom+xml") == []


def test_a_feed_with_no_element_is_an_error_naming_it() -> None:
    errors: list[InputError] = []
    links = extract_links(
        b"<?xml version='1.0'?> junk", name="f.xml", headers={"Content-Type": "application/rss+xml"},
        on_error=errors.append,
    )  # fmt: skip
    assert links == []
    assert [(error.name, error.message.split(":")[0]) for error in errors] == [
        ("f.xml", "feed not well-formed XML at line 1")
    ]


def test_nesting_past_the_parsers_limit_is_an_error_and_keeps_what_came_before() -> None:
    deep = "<x>" * 20_000
    body = f"<rss><channel><link>/before</link>{deep}<link>/deep</link></channel></rss>".encode()
    errors: list[InputError] = []
    links = extract_links(
        body, url=URL, headers={"Content-Type": "text/xml"}, on_error=errors.append
    )
    assert [link.url for link in links][:1] == ["http://e.example/before"]
    assert len(errors) == 1 and "not well-formed XML" in errors[0].message


def test_select_matches_no_element_of_a_feed_a_sitemap_or_a_robots_txt() -> None:
    feed = _rss("<link>a</link><description>&lt;a href=b&gt;</description>")
    assert (
        extract_links(feed, url=URL, select="a", headers={"Content-Type": "application/rss+xml"})
        == []
    )
    robots = b"Sitemap: /s.xml\n"
    assert extract_links(robots, url="http://e/robots.txt", select="*") == []


# --- feedparser's own tests -------------------------------------------------------------------

DISCOVERY = Path(__file__).parent.parent / "fixtures" / "discovery"
# feedparser's tests/wellformed/base/ files copied into fixtures (fixtures/README.md), each
# with its "Expect:" line; those whose answer is a URL (not a text construct's base)
FEEDPARSER = sorted(
    path.name
    for path in DISCOVERY.glob("*.xml")
    if re.search(rb"^Expect:.*\] == u?'[^']*(://|href=)", path.read_bytes(), re.MULTILINE)
    and b"['base'] ==" not in path.read_bytes()
)


@pytest.mark.parametrize("name", FEEDPARSER)
def test_feedparsers_expected_url_is_a_link(name: str) -> None:
    """The URL feedparser's Expect line gives (wfw:commentRSS, Atom 0.3's id, an RSS body or
    fullitem's link...) is among the links, against the URL the case is served at (index.tsv)."""
    text = (DISCOVERY / name).read_bytes()
    expect = re.search(rb"^Expect:.*\] == u?'([^']*)'", text, re.MULTILINE)
    assert expect is not None and b"['base']" not in expect[0]
    value = expect[1].decode("unicode_escape")  # (an IRI written as \u escapes)
    srcsets = re.findall(r'srcset="([^"]+)"', value)
    candidates = [each.split()[0] for srcset in srcsets for each in srcset.split(",")]
    urls = re.findall(r' (?:href|src)="([^"]+)"', value) + candidates or [value]
    served = {
        row.split("\t")[0]: row.split("\t")[1]
        for row in (DISCOVERY / "index.tsv").read_text(encoding="utf-8").splitlines()
    }
    found = {link.url for link in extract_links(text, url=served[name] or None, name=name)}
    assert set(urls) <= found
