"""The library API: extract_links / iter_links and their options."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from baselinks import Link, SelectError, extract_links, iter_links
from baselinks.resolve.link import ORIGIN_FIELDS
from conftest import FIXTURES

PAGE = b"""<html><head><base href="/b/"></head><body>
<nav><a href="home.html">Home</a><a href="about.html">About</a></nav>
<main><a href="story.html">Story</a><img src="pic.png"><a href="home.html">Home again</a>
<form action="/go"></form></main>
</body></html>"""
URL = "http://example.com/dir/page.html"


def urls(links: list[Link]) -> list[str]:
    return [link.url for link in links]


def test_bytes_with_a_retrieval_url() -> None:
    links = extract_links(PAGE, url=URL)
    assert urls(links)[:2] == ["http://example.com/b/home.html", "http://example.com/b/about.html"]
    assert {link.base_source for link in links} == {"content"}
    assert {link.document for link in links} == {"-"}


def test_a_path_names_the_document(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    assert {link.document for link in extract_links(path, url=URL)} == {str(path)}
    assert {link.document for link in extract_links(str(path), url=URL)} == {str(path)}
    assert {link.document for link in extract_links(PAGE, name="mine")} == {"mine"}


def test_select_keeps_links_inside_matching_elements() -> None:
    assert urls(extract_links(PAGE, url=URL, select="nav")) == [
        "http://example.com/b/home.html",
        "http://example.com/b/about.html",
    ]
    # nested matches are walked once; the <base> still applies although it is outside
    assert urls(extract_links(PAGE, url=URL, select="main, main img")) == [
        "http://example.com/b/story.html",
        "http://example.com/b/pic.png",
        "http://example.com/b/home.html",
        "http://example.com/go",
    ]
    assert extract_links(PAGE, url=URL, select="aside") == []


def test_an_invalid_selector_is_a_select_error() -> None:
    with pytest.raises(SelectError, match="invalid CSS selector 'a\\['"):
        extract_links(PAGE, select="a[")


def test_kinds_and_unique() -> None:
    assert urls(extract_links(PAGE, url=URL, kinds={"form", "resource"})) == [
        "http://example.com/b/pic.png",
        "http://example.com/go",
    ]
    unique = extract_links(PAGE, url=URL, unique=True)
    assert len(urls(unique)) == len(set(urls(unique))) == 5
    assert unique[0].text == "Home"  # the first occurrence is the one kept
    with pytest.raises(ValueError, match="unknown kind"):
        extract_links(PAGE, kinds={"links"})


def test_modes_differ_where_the_rfcs_do() -> None:
    page = b'<a href="../../../g">x</a><a href=";x">y</a>'
    base = "http://a/b/c/d;p?q"
    assert urls(extract_links(page, url=base)) == ["http://a/../g", "http://a/b/c/d;x"]
    assert urls(extract_links(page, url=base, mode="rfc3986")) == ["http://a/g", "http://a/b/c/;x"]
    assert urls(extract_links(page, url=base, mode="whatwg")) == ["http://a/g", "http://a/b/c/;x"]
    with pytest.raises(ValueError, match="unknown mode"):
        extract_links(page, mode="rfc2396")


def test_a_link_whatwg_cannot_parse_is_kept_with_unresolvable() -> None:
    links = extract_links(
        b'<a href="http://[bad">x</a><a href="ok">y</a>', url="http://e.com/", mode="whatwg"
    )
    assert [(link.url, link.problems) for link in links] == [
        ("http://[bad", ("unresolvable",)),
        ("http://e.com/ok", ()),
    ]


def test_a_bad_base_element_falls_back_to_the_retrieval_url() -> None:
    for href in ("http://[bad", "data:text/html,x", " JavaScript:void(0)"):
        page = f'<base href="{href}"><a href="g">x</a>'.encode()
        link = extract_links(page, url="http://e.com/d/", mode="whatwg")[0]
        assert (link.url, link.base_source) == ("http://e.com/d/g", "retrieval")


def test_a_relative_base_with_nothing_to_anchor_it_is_ignored() -> None:
    (link,) = extract_links(b'<base href="/x/"><a href="g">x</a>')
    assert (link.url, link.base, link.base_source, link.problems) == (
        "g",
        "",
        "default",
        ("no-base",),
    )


def test_whitespace_around_a_value_is_stripped_but_raw_keeps_it() -> None:
    (link,) = extract_links(b'<a href=" \n g.html\t">x</a>', url="http://e.com/")
    assert (link.url, link.raw) == ("http://e.com/g.html", " \n g.html\t")


def test_transport_charset_beats_the_meta_prescan() -> None:
    page = '<meta charset="utf-8"><a href="\u00e9.html">x</a>'.encode("cp1252")
    assert extract_links(page, charset="iso-8859-1")[0].raw == "\u00e9.html"
    assert extract_links(page)[0].raw == "\ufffd.html"  # what a browser shows too


def test_line_numbers_survive_the_end_tag_repair() -> None:
    page = b"<html><body>\n</html >\n\n<a href=x>x</a>"
    assert [(link.raw, link.line) for link in extract_links(page)] == [("x", 4)]


def test_empty_and_textless_documents_have_no_links() -> None:
    assert extract_links(b"") == []
    assert extract_links(b"   \n") == []
    assert extract_links(b"just text") == []


def test_nested_srcdoc_is_followed_to_a_limit() -> None:
    inner = '<a href="deep.html">d</a>'
    for _ in range(12):
        inner = (
            '<iframe srcdoc="' + inner.replace("&", "&amp;").replace('"', "&quot;") + '"></iframe>'
        )
    links = extract_links(inner.encode(), url="http://e.com/")
    assert links == []  # nested 12 deep: beyond MAX_SRCDOC_DEPTH (8), not followed
    shallow = '<iframe srcdoc="&lt;a href=&quot;s.html&quot;&gt;s&lt;/a&gt;"></iframe>'
    (link,) = extract_links(shallow.encode(), url="http://e.com/")
    assert (link.url, link.base_source, link.document) == (
        "http://e.com/s.html",
        "encapsulating",
        "-#srcdoc@1",
    )


def test_records_are_immutable_and_serialisable() -> None:
    link = extract_links(PAGE, url=URL)[0]
    with pytest.raises(AttributeError):
        link.url = "x"  # type: ignore[misc]
    record = link.as_dict()
    assert list(record) == [
        "url",
        "raw",
        "base",
        "base_source",
        "tag",
        "attr",
        "line",
        "document",
        "text",
        "rel",
        "kind",
        "problems",
        "nofollow",
        "hreflang",
        "file",  # then where the document is stored (the link's origin), flattened
        "offset",
        "length",
        "record_id",
        "date",
        "part",
        "page_url",
        "revisit_of",  # a revisit record's page: its original's record ID
    ]
    assert record["problems"] == []
    # bytes: the file is "-", nothing else applies; the page's URL is the one given
    assert [record[name] for name in ORIGIN_FIELDS] == [
        "-",
        None,
        None,
        None,
        None,
        None,
        URL,
        None,
    ]
    assert pickle.loads(pickle.dumps(link)) == link  # rows cross process boundaries (workers)


def test_the_links_of_a_document_share_one_origin() -> None:
    path = FIXTURES / "containers" / "crawl.warc.gz"
    links = extract_links(path)
    origins = {id(link.origin): link.origin for link in links}
    # one object per document (no work per link), read as the link's own fields
    assert len(origins) == len({link.document for link in links}) == 5
    assert [(link.file, link.offset, link.part) for link in links[:2]] == [
        (str(path), 374, None)
    ] * 2


def test_iter_links_is_lazy() -> None:
    stream = iter_links(PAGE, url=URL)
    assert next(stream).url == "http://example.com/b/home.html"


def test_saved_from_comment_only_when_no_url_is_given() -> None:
    page = (FIXTURES / "html" / "saved-from.html").read_bytes()
    assert extract_links(page)[0].base == "https://www.example.org/news/a/b.html"
    assert extract_links(page, url="http://given.example/")[0].base == "http://given.example/"
    marker = b"<!-- saved from url=(0014)about:internet -->\n<a href=g>x</a>"
    assert extract_links(marker)[0].base_source == "default"  # a zone marker, not a URL


@pytest.mark.parametrize(
    ("anchor", "text"),
    [
        ("<a href=x>Home</a>", "Home"),
        ("<a href=x>  two\n  words </a>", "two words"),
        ("<a href=x> a <!-- comment --> b<?pi x?> <b>bold</b>tail</a>", "a b boldtail"),
        ("<a href=x>caf&eacute; &amp; <span>&#x1F600;</span></a>", "café & 😀"),
        ("<a href=x><img src=i.png alt=' Logo  here '></a>", "Logo here"),
        ("<a href=x><img src=i.png></a>", ""),
        ("<map><area href=x alt='A  region'></map>", "A region"),
    ],
)
def test_anchor_text_is_the_string_value_or_the_image_alt(anchor: str, text: str) -> None:
    # XPath string-value: every descendant text node, never comments or processing
    # instructions; whitespace collapsed. An image-only link takes its image's alt.
    links = [link for link in extract_links(anchor.encode(), url=URL) if link.attr == "href"]
    assert [link.text for link in links] == [text]


# --- issue 29: a wrong argument, or no memory, is not "a bug in baselinks" ----------------------


@pytest.mark.parametrize(
    ("source", "options", "said"),
    [
        (123, {}, "source must be bytes, a path or a binary file, not int"),
        (None, {}, "source must be bytes, a path or a binary file, not NoneType"),
        (b"<a href=x>", {"url": 5}, "url must be a str, not int"),
        (b"<a href=x>", {"name": b"n"}, "name must be a str, not bytes"),
        (b"<a href=x>", {"charset": 8}, "charset must be a str, not int"),
        (b"<a href=x>", {"workers": "2"}, "workers must be an int, not str"),
    ],
)
def test_a_wrong_argument_type_is_a_type_error_at_once(
    source: object, options: dict[str, object], said: str
) -> None:
    # was: read on, and each failure reported as "internal error (a bug in baselinks ...)"
    with pytest.raises(TypeError, match=f"^{said}$"):
        extract_links(source, **options)  # type: ignore[arg-type]


def test_a_text_stream_is_refused_with_what_to_do(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b"<a href=x>")
    with open(page, encoding="utf-8") as text, pytest.raises(TypeError, match="binary mode"):
        extract_links(text)  # type: ignore[arg-type]


def test_running_out_of_memory_is_said_and_is_no_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    from baselinks import api

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(api, "part_links", no_memory)
    errors: list[object] = []
    assert extract_links(b"<a href=x>", on_error=errors.append) == []
    assert [str(error) for error in errors] == ["-: out of memory: not read"]


def test_libxml2_out_of_memory_is_said_as_such_not_as_a_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 36: libxml2's failed allocation reaches Python as lxml's "XMLSyntaxError: unknown
    # error" (its code XML_ERR_NO_MEMORY): a 50 MB page under a 700 MB address-space limit
    # was "internal error (a bug in baselinks ...)". The error as lxml raises it then:
    from lxml import etree

    from baselinks import api

    def libxml2_out_of_memory(*args: object, **kwargs: object) -> None:
        raise etree.XMLSyntaxError("unknown error", 2, 0, 0)

    monkeypatch.setattr(api, "part_links", libxml2_out_of_memory)
    errors: list[object] = []
    assert extract_links(b"<a href=x>", on_error=errors.append) == []
    assert [str(error) for error in errors] == ["-: out of memory: not read"]


@pytest.mark.slow  # ~6 s: a 20 MB page parsed under an address-space limit, in a child
def test_a_page_too_large_for_the_memory_left_is_said_out_of_memory(tmp_path: Path) -> None:
    import subprocess
    import sys

    page = tmp_path / "big.html"
    page.write_bytes(b"".join(b'<div><a href="/p%d">x</a></div>' % i for i in range(600_000)))
    # the child's limit: what it has mapped once baselinks is loaded, and 150 MB more (the
    # tree of a 20 MB page takes some 600 MB)
    child = (
        "import resource, sys\n"
        "from baselinks.cli import main\n"
        "import baselinks.api, lxml.etree\n"
        "size = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + (150 << 20),) * 2)\n"
        "sys.exit(main(['extract', '-q', '-o', '/dev/null', sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child, str(page)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"baselinks: {page}: out of memory: not read\n"
