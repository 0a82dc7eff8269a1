"""Metadata links in HTML (issue 27, item 3): <meta> Open Graph, Twitter card and msapplication
URLs (find/metadata.py, linktable.py's rows) and JSON-LD (find/jsonld.py); the golden page is
fixtures/html/metadata.html (test_golden.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks import Link, extract_links
from baselinks.find.jsonld import INVALID, Found, jsonld_urls
from baselinks.find.metadata import METADATA_URLS

URL = "http://e.example/dir/page.html"


def _links(markup: str) -> list[Link]:
    return extract_links(markup.encode(), url=URL)


def _rows(links: list[Link]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return [(link.url, link.attr, link.kind, link.problems) for link in links]


# --- <meta> -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ('<meta property="og:image" content="i.png">', ("resource", ("open-graph",))),
        ('<meta name="OG:URL" content="i.png">', ("link", ("open-graph",))),
        ('<meta property="og:video:secure_url" content="i.png">', ("resource", ("open-graph",))),
        ('<meta property="og:image og:image:url" content="i.png">', ("resource", ("open-graph",))),
        ('<meta name="twitter:image:src" content="i.png">', ("resource", ("twitter-card",))),
        ('<meta property="twitter:url" content="i.png">', ("link", ("twitter-card",))),
        ('<meta name="msapplication-TileImage" content="i.png">', ("resource", ("msapplication",))),
        ('<meta name="msapplication-starturl" content="i.png">', ("link", ("msapplication",))),
        # of two families, once, by the first
        (
            '<meta name="twitter:image" property="og:image" content="i.png">',
            ("resource", ("open-graph",)),
        ),
    ],
)
def test_a_meta_with_a_url_valued_name(meta: str, expected: tuple[str, tuple[str, ...]]) -> None:
    [link] = _links(f"<head>{meta}</head>")
    assert (link.url, link.tag, link.attr) == ("http://e.example/dir/i.png", "meta", "content")
    assert (link.kind, link.problems) == expected


@pytest.mark.parametrize(
    "meta",
    [
        '<meta property="og:title" content="https://e.example/">',
        '<meta property="og:image:width" content="1200">',
        '<meta name="twitter:card" content="summary">',
        '<meta name="description" content="/a/path">',
        '<meta name="msapplication-notification" content="frequency=30;polling-uri=http://x">',
        '<meta property="og:image">',  # no content: no link
    ],
)
def test_a_meta_of_text_is_never_a_link(meta: str) -> None:
    assert _links(f"<head>{meta}</head>") == []


def test_every_family_has_urls_and_kinds() -> None:
    assert set(METADATA_URLS) == {"open-graph", "twitter-card", "msapplication"}
    for urls in METADATA_URLS.values():
        assert urls and set(urls.values()) <= {"link", "resource"}
        assert all(name == name.lower() for name in urls)


def test_a_meta_in_a_noscript_is_placed_as_any_link() -> None:
    [link] = _links('<body><noscript><meta property="og:image" content="i.png"></noscript>')
    assert link.problems == ("open-graph", "in-noscript")


# --- JSON-LD ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ('{"url": "a"}', [("a", "url", "link")]),
        ('[{"url": "a"}, {"url": "b"}]', [("a", "url", "link"), ("b", "url", "link")]),
        (
            '{"@graph": [{"sameAs": ["a", "b"]}]}',
            [("a", "sameAs", "link"), ("b", "sameAs", "link")],
        ),
        ('{"image": {"@type": "ImageObject", "url": "i"}}', [("i", "url", "resource")]),
        ('{"image": [{"url": "i"}, "j"]}', [("i", "url", "resource"), ("j", "image", "resource")]),
        (
            '{"publisher": {"url": "p", "logo": {"url": "l"}}}',
            [("p", "url", "link"), ("l", "url", "resource")],
        ),
        (
            '{"schema:url": "a", "https://schema.org/image": "i"}',
            [("a", "url", "link"), ("i", "image", "resource")],
        ),
        # an @id names a node, not a page to follow: other (JSON-LD 1.1 §3.3)
        ('{"@id": "https://e/#org"}', [("https://e/#org", "@id", "other")]),
        ('{"@id": "#org", "x": {"@id": "_:b0"}}', []),
        ('{"name": "https://e/", "headline": "/a", "@context": "https://schema.org"}', []),
        ('{"url": 3, "image": null, "sameAs": ["", "  "]}', []),
        (
            '{"itemListElement": [{"item": "/b"}, {"item": {"@id": "/c"}}]}',
            [("/b", "item", "link"), ("/c", "@id", "other")],
        ),
    ],
)
def test_a_json_ld_blocks_urls(block: str, expected: list[tuple[str, str, str]]) -> None:
    assert jsonld_urls(block) == ([Found(*row) for row in expected], False)


@pytest.mark.parametrize(
    "wrapped",
    [
        '<!--{"url": "a"}-->',
        '  //<![CDATA[\n{"url": "a"}\n//]]>  ',
        '/*<![CDATA[*/{"url": "a"}/*]]>*/',
        '<![CDATA[{"url": "a"}]]>',
    ],
)
def test_wrappers_around_a_block_are_taken_off(wrapped: str) -> None:
    assert jsonld_urls(wrapped) == ([Found("a", "url", "link")], False)


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ('{"url": "a", "sameAs": ["b",], }', [("a", "url"), ("b", "sameAs")]),  # trailing commas
        ('{"url": "a" "image": "i"}', [("a", "url"), ("i", "image")]),  # a missing comma
        ('{"url": "a\\u00e9\\/x", "name": "https://n/"', [("aé/x", "url")]),  # cut short
        ('{"url": "a\\q"}', [("a\\q", "url")]),  # a bad escape: as written
        ('{"url": "unterminated', []),
        ('{"url": "a\\"b",}', [('a"b', "url")]),  # an escaped quote inside
    ],
)
def test_a_broken_block_costs_none_of_its_links(
    block: str, expected: list[tuple[str, str]]
) -> None:
    found, broken = jsonld_urls(block)
    assert broken
    assert [(one.url, one.key) for one in found] == expected


def test_a_raw_line_break_in_a_string_is_no_breakage() -> None:
    # strict=False: browsers' structured-data readers accept it, and pages write it
    assert jsonld_urls('{"url": "a\nb"}') == ([Found("a\nb", "url", "link")], False)


def test_nesting_deeper_than_the_json_parser_goes_is_scanned() -> None:
    block = '{"a":' * 100_000 + '{"url": "deep"}' + "}" * 100_000
    found, broken = jsonld_urls(block)
    assert broken and found == [Found("deep", "url", "link")]


def test_scanning_an_unclosed_string_of_escaped_quotes_reads_each_quote_once() -> None:
    # a regular expression restarting at every quote took the square of the length
    block = '{"url": "x", "name": "' + '\\"' * 200_000
    found, broken = jsonld_urls(block)
    assert broken and found == [Found("x", "url", "link")]


# A JSON value as JSON-LD blocks nest them: objects of URL and other properties (prefixed,
# expanded), arrays, scalars, the strings the walk tells apart (blank nodes, fragments, blanks).
_JSON_VALUES = st.recursive(
    st.sampled_from(
        ["http://a/", "#x", "_:b", " ", "", "r/p", "é", 'a"b', "\\", 1, 2.5, None, True]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["url", "image", "logo", "name", "@id", "item", "schema:url", "x", "thumbnail"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=1000)
@given(_JSON_VALUES, st.sampled_from([None, 1]))
def test_a_block_read_as_it_comes_gives_what_the_parsed_walk_gives(
    value: object, indent: int | None
) -> None:
    # issue 36: a block over MAX_PARSED_BYTES is read as it comes (jsonld._streamed), never made
    # Python objects whole; it finds what json.loads and the walk find, in the same order
    from baselinks.find import jsonld

    text = json.dumps(value, indent=indent)
    assert jsonld._streamed(text) == list(jsonld._walked(json.loads(text)))


@pytest.mark.parametrize("block", ["[", '{"url": "a"', "[}", '{"url": tru}', '{"url": "x"}}'])
def test_a_block_read_as_it_comes_that_is_no_json_is_scanned(block: str) -> None:
    from baselinks.find import jsonld

    assert jsonld._streamed(block) is None


def test_a_large_block_is_never_parsed_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 36: a 30 MB block of ten million empty arrays took 1.5 GB through json.loads
    from baselinks.find import jsonld

    real = json.loads

    def small_only(text: str, **options: object) -> object:
        assert len(text) < 1000, "a whole block parsed"
        return real(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(jsonld.json, "loads", small_only)
    block = "[" + "[]," * (jsonld.MAX_PARSED_BYTES // 3) + '{"url": "x", "image": {"url": "i"}}]'
    assert jsonld_urls(block) == ([Found("x", "url", "link"), Found("i", "url", "resource")], False)
    assert jsonld_urls(block[:-1]) == (  # no JSON: the strings scanned, as a broken block's
        [Found("x", "url", "link"), Found("i", "url", "link")],
        True,
    )


def test_json_ld_links_in_a_page() -> None:
    links = _links(
        '<script type="application/ld+json">{"url": "/a", "image": "i.png"}</script>'
        '<script type="Application/LD+JSON; charset=utf-8">{"sameAs": "https://s/"}</script>'
        '<script type="text/javascript">{"url": "/not"}</script>'
        '<script type="application/ld+json">{"url": "/broken",</script>'
        '<script type="application/ld+json" src="/external.json"></script>'
    )
    assert _rows(links) == [
        ("http://e.example/a", "url", "link", ("json-ld",)),
        ("http://e.example/dir/i.png", "image", "resource", ("json-ld",)),
        ("https://s/", "sameAs", "link", ("json-ld",)),
        ("http://e.example/broken", "url", "link", (INVALID, "json-ld")),
        ("http://e.example/external.json", "src", "resource", ()),  # a script's src, as ever
    ]


def test_the_compiled_and_pure_walks_agree_on_metadata() -> None:
    from baselinks.find.walk import raw_links
    from baselinks.load.document import load

    page = (
        b'<meta property="og:image" content="a"><meta name="twitter:image" content="b">'
        b'<script type="application/ld+json">{"url": "c", "logo": {"url": "d"}}</script>'
        b'<template><script type=\'application/ld+json\'>[{"sameAs": "e"},]</script></template>'
        b"<style>a{background:url(f)}</style>"
    )
    tree = load(page).tree
    assert raw_links(tree) == raw_links(tree, pure=True)
    assert [raw.raw for raw in raw_links(tree)] == ["a", "b", "c", "d", "e", "f"]


def test_a_links_record_writes_its_json_ld_property() -> None:
    [link] = _links('<script type="application/ld+json">{"contentUrl": "v.mp4"}</script>')
    assert json.loads(json.dumps(link.as_dict()))["attr"] == "contentUrl"
