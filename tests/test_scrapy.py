"""baselinks.scrapy.LinkExtractor on Scrapy HtmlResponses: Scrapy's answers where Scrapy is
right, and the right answer where it is not.

Scrapy is the `scrapy` extra; CI installs it (BASELINKS_REQUIRE_SCRAPY), so these tests run
there or fail. A new user's `pip install -e ".[test]"` has no Scrapy: skipped.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import extra

scrapy_http = extra("scrapy")
from scrapy.linkextractors import LinkExtractor as ScrapyLinkExtractor  # noqa: E402
from scrapy.spiders import Rule  # noqa: E402

from baselinks.scrapy import LinkExtractor  # noqa: E402

URL = "http://site.example/dir/page.html"

PAGE = """<html><head><title>t</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="about.html" rel="nofollow">About</a></div>
<div id="main" class="content">
  <a href="a.html">A</a> <a href="a.html">A again</a>
  <a href="b.html#part">B
      with   space</a>
  <a href=" c.html ">C</a>
  <a href="http://other.example/x">Other</a>
  <a href="http://sub.other.example/y">Sub</a>
  <a href="doc.pdf">PDF</a> <a href="pic.JPG">JPG</a>
  <a href="mailto:someone@example.com">mail</a> <a href="javascript:go('z.html')">js</a>
  <a href="Q?b=2&amp;a=1">query</a>
  <area href="map.html" alt="Map">
  <img src="i.gif">
  <link rel="stylesheet" href="s.css">
</div>
</body></html>"""


def _response(body: str, url: str = URL, **options: Any) -> Any:
    return scrapy_http.HtmlResponse(
        url, body=body.encode(options.pop("encoding", "utf-8")), **options
    )


def _process(value: str) -> str | None:
    if value.startswith("javascript:"):
        return value.split("'")[1]
    return None if "about" in value else value


# Option sets whose meaning is the same in both: Scrapy's answer is the answer.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"allow": r"/dir/"},
    {"allow": [r"a\.html", r"b\.html"], "deny": r"#"},
    {"deny": "other"},
    {"allow_domains": "other.example"},
    {"allow_domains": ["sub.other.example"]},
    {"deny_domains": "other.example"},
    {"deny_extensions": []},
    {"deny_extensions": ["html"]},
    {"restrict_css": "#main"},
    {"restrict_css": ["#nav", ".content"]},
    {"restrict_xpaths": "//div[@id='nav']"},
    {"restrict_xpaths": "//div[@id='nav']", "restrict_css": "#main"},
    {"tags": "a"},
    {"tags": ("a", "area", "link"), "attrs": "href"},
    {"tags": "*", "deny_tags": "link"},
    {"attrs": ("href", "src"), "tags": ("img",), "deny_extensions": []},
    {"unique": False},
    {"canonicalize": True},
    {"canonicalize": True, "unique": False},
    {"process_value": _process},
    {"restrict_text": "^A"},
    {"strip": False},
]


@pytest.mark.parametrize("options", OPTIONS, ids=[repr(o)[:60] for o in OPTIONS])
def test_the_same_links_as_scrapy_where_scrapy_is_right(options: dict[str, Any]) -> None:
    response = _response(PAGE)
    theirs = ScrapyLinkExtractor(**options).extract_links(response)
    ours = LinkExtractor(**options).extract_links(response)
    assert [(link.url, link.nofollow) for link in ours] == [
        (link.url, link.nofollow) for link in theirs
    ]
    # the text, whitespace collapsed; an <area>'s is its alt, where Scrapy has none
    assert [link.text for link in ours if "map" not in link.url] == [
        " ".join(link.text.split()) for link in theirs if "map" not in link.url
    ]


def test_the_options_mean_what_they_say() -> None:
    response = _response(PAGE)
    urls = [
        link.url for link in LinkExtractor(allow_domains="site.example").extract_links(response)
    ]
    assert urls == [
        "http://site.example/",
        "http://site.example/dir/about.html",
        "http://site.example/dir/a.html",
        "http://site.example/dir/b.html#part",
        "http://site.example/dir/c.html",
        "http://site.example/dir/Q?b=2&a=1",
        "http://site.example/dir/map.html",
    ]
    extractor = LinkExtractor(allow="a", deny_domains="other.example")
    assert extractor.matches("http://site.example/a") and not extractor.matches(
        "http://other.example/a"
    )


def test_a_base_after_4kb_of_head_is_honoured_scrapy_3017() -> None:
    """Scrapy looks for <base> in the first 4096 characters only; the HTML standard, and
    baselinks, take the first <base> wherever it is."""
    head = "<head>" + '<meta name="x" content="y">' * 200 + '<base href="http://cdn.example/b/">'
    response = _response(head + '</head><body><a href="x.html">x</a></body>')
    assert len(head) > 4096
    assert [link.url for link in ScrapyLinkExtractor().extract_links(response)] == [
        "http://site.example/dir/x.html"  # Scrapy: wrong
    ]
    assert [link.url for link in LinkExtractor().extract_links(response)] == [
        "http://cdn.example/b/x.html"
    ]


def test_fragment_text_and_nofollow_are_filled_scrapy_1202() -> None:
    response = _response(
        '<a href="p.html#top" rel="NoFollow noopener">  To\n the   top </a><area href="m" alt="Map">'
    )
    links = LinkExtractor().extract_links(response)
    assert [(link.url, link.text, link.fragment, link.nofollow) for link in links] == [
        ("http://site.example/dir/p.html#top", "To the top", "top", True),
        ("http://site.example/dir/m", "Map", "", False),
    ]
    theirs = ScrapyLinkExtractor().extract_links(response)
    assert [link.fragment for link in theirs] == ["", ""]  # Scrapy never fills it


def test_srcset_and_a_refused_base() -> None:
    page = (
        '<base href="javascript:void(0)"><img srcset="small.jpg 1x, big.jpg 2x">'
        '<a href="n.html">n</a>'
    )
    response = _response(page)
    ours = LinkExtractor(tags=("img", "a"), attrs=("srcset", "href"), deny_extensions=[])
    assert [link.url for link in ours.extract_links(response)] == [
        "http://site.example/dir/small.jpg",
        "http://site.example/dir/big.jpg",
        "http://site.example/dir/n.html",
    ]
    theirs = ScrapyLinkExtractor(tags=("img", "a"), attrs=("srcset", "href"), deny_extensions=[])
    assert "http://site.example/dir/small.jpg%201x,%20big.jpg%202x" in [
        link.url for link in theirs.extract_links(response)
    ]  # Scrapy takes the whole srcset as one URL


def test_the_response_encoding_and_final_url_are_used() -> None:
    body = '<a href="caf\u00e9.html?q=\u00e9">caf\u00e9</a>'
    response = _response(
        body,
        url="http://site.example/final/",
        encoding="cp1252",
        headers={"Content-Type": "text/html; charset=windows-1252"},
    )
    ours = LinkExtractor().extract_links(response)
    theirs = ScrapyLinkExtractor().extract_links(response)
    assert [link.text for link in ours] == ["caf\u00e9"]
    assert [link.url for link in ours] == [link.url for link in theirs]
    assert ours[0].url.startswith("http://site.example/final/caf%C3%A9.html")


def test_it_serves_as_a_crawl_rule() -> None:
    rule = Rule(LinkExtractor(allow=r"a\.html"), follow=True)
    links = rule.link_extractor.extract_links(_response(PAGE))
    assert [link.url for link in links] == ["http://site.example/dir/a.html"]


CARDS = """<html><body>
<div data-url="card.html">a card</div> <div data-url=" /spaced.html ">spaced</div>
<a href="plain.html" data-url="from-a.html">plain</a>
<span data-url="span.html">not asked for</span>
<img data-src="lazy.jpg">
</body></html>"""


@pytest.mark.parametrize(
    "options",
    [
        {"tags": "div", "attrs": "data-url"},
        {"tags": ("a", "div"), "attrs": ("href", "data-url")},
        {"tags": "img", "attrs": "data-src", "deny_extensions": []},
    ],
    ids=repr,
)
def test_any_tag_and_attribute_pair_scrapy_reads(options: dict[str, Any]) -> None:
    # Scrapy's own idiom for a site's data attributes: it read nothing here before (the pairs
    # were only a filter over baselinks' table).
    response = _response(CARDS)
    theirs = [link.url for link in ScrapyLinkExtractor(**options).extract_links(response)]
    ours = [link.url for link in LinkExtractor(**options).extract_links(response)]
    assert ours == theirs
    assert ours


def test_a_process_value_that_cannot_be_resolved_skips_that_link_only() -> None:
    # issue 29: the URLError of one rewritten value lost the page's every link (Scrapy skips
    # the link it cannot join); a bytes value was written "b'...'"
    page = '<a href="a.html">A</a> <a href="b.html">B</a> <a href="c.html">C</a>'

    def rewrite(value: str) -> str | bytes:
        if value.endswith("a.html"):
            return "http://[::1"  # no URL the whatwg parser takes
        if value.endswith("b.html"):
            return b"/bytes.html"
        return value

    links = LinkExtractor(process_value=rewrite).extract_links(_response(page))
    assert [link.url for link in links] == [
        "http://site.example/bytes.html",
        "http://site.example/dir/c.html",
    ]
