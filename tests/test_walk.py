"""The walker alone: raw_links on parsed HTML, each rule of the link-source table as a row.

Each row is (html, [(raw, tag, attr, kind, problems), ...]): the links found, in order, before
any resolution. The golden fixtures (tests/test_golden.py) show the same rules end to end.
"""

from __future__ import annotations

import pytest

from baselinks.load import parse_html
from baselinks.walk import attribute_pairs, raw_links, select_roots

Found = tuple[str, str, str, str, tuple[str, ...]]
NS = ("nonstandard-attribute",)


def _found(html: str, attributes: tuple[tuple[str, str], ...] = ()) -> list[Found]:
    tree = parse_html(html)
    return [(r.raw, r.tag, r.attr, r.kind, r.problems) for r in raw_links(tree, None, attributes)]


# https://html.spec.whatwg.org/#tables-2: background on table, thead, tbody, tfoot, tr, td, th
BACKGROUND = [
    (
        '<table><thead background="h.gif"><tr><th>x',
        [("h.gif", "thead", "background", "resource", ())],
    ),
    (
        '<table><tbody background="b.gif"><tr><td>x',
        [("b.gif", "tbody", "background", "resource", ())],
    ),
    (
        '<table><tfoot background="f.gif"><tr><td>x',
        [("f.gif", "tfoot", "background", "resource", ())],
    ),
    ('<div background="d.gif">x</div>', []),  # no rule for a div
]

# The <svg> and <math> elements' own href (the check looked at ancestors only)
FOREIGN_ROOT = [
    ('<svg href="s.svg"></svg>', [("s.svg", "svg", "href", "resource", ())]),
    ('<svg xlink:href="x.svg"></svg>', [("x.svg", "svg", "xlink:href", "resource", ())]),
    ('<math href="m.html"><mi>x</mi></math>', [("m.html", "math", "href", "link", ())]),
    ('<math><mi href="mi.html">x</mi></math>', [("mi.html", "mi", "href", "link", ())]),
    ('<p href="p.html">x</p>', []),
]

# https://html.spec.whatwg.org/#form-submission-algorithm: an absent action is "", the
# document's URL (resolved in api.py); formaction has no such default
FORMS = [
    ("<form><input></form>", [("", "form", "action", "form", ())]),
    ('<form action="">x</form>', [("", "form", "action", "form", ())]),
    ('<form action="s">x</form>', [("s", "form", "action", "form", ())]),
    (
        '<form action="s"><button>b</button></form>',
        [("s", "form", "action", "form", ())],
    ),
    ('<button formaction="">b</button>', [("", "button", "formaction", "form", ())]),
]

# Where a link lives: inside <template> (inert) or <noscript> (text with scripting enabled)
PLACEMENT = [
    (
        '<template><a href="t.html">t</a></template>',
        [("t.html", "a", "href", "link", ("inert-template",))],
    ),
    (
        '<noscript><img src="n.gif"></noscript>',
        [("n.gif", "img", "src", "resource", ("in-noscript",))],
    ),
    (
        '<noscript><template><a href="b.html">b</a></template></noscript>',
        [("b.html", "a", "href", "link", ("inert-template", "in-noscript"))],
    ),
    (
        '<template><template><a href="tt.html">x</a></template></template>',
        [("tt.html", "a", "href", "link", ("inert-template",))],
    ),
    (
        "<noscript><style>p { background: url(s.png) }</style></noscript>",
        [("s.png", "style", "url()", "resource", ("in-noscript",))],
    ),
    (
        '<template><img srcset="a.png 1.x"></template>',
        [("a.png", "img", "srcset", "resource", ("invalid-srcset-descriptor", "inert-template"))],
    ),
    ('<template></template><a href="after.html">x</a>', [("after.html", "a", "href", "link", ())]),
]

# Lazy loading: rows of the table, outside the standard
LAZY = [
    ('<img data-src="l.jpg">', [("l.jpg", "img", "data-src", "resource", NS)]),
    (
        '<img data-srcset="a.jpg 1x, b.jpg 2x">',
        [
            ("a.jpg", "img", "data-srcset", "resource", NS),
            ("b.jpg", "img", "data-srcset", "resource", NS),
        ],
    ),
    ('<div data-bg="bg.jpg"></div>', [("bg.jpg", "div", "data-bg", "resource", NS)]),
    ('<tr data-href="row.html"></tr>', [("row.html", "tr", "data-href", "link", NS)]),
    ('<div data-lazy-load="yes" data-url="u.html"></div>', []),  # not lazy-load URLs
    (
        '<img src="p.gif" data-original="o.jpg">',
        [
            ("p.gif", "img", "src", "resource", ()),
            ("o.jpg", "img", "data-original", "resource", NS),
        ],
    ),
]


@pytest.mark.parametrize(("html", "expected"), BACKGROUND + FOREIGN_ROOT + FORMS + PLACEMENT + LAZY)
def test_rules(html: str, expected: list[Found]) -> None:
    assert _found(html) == expected


# attributes=: (tag, attr) pairs read besides the table
ADDED = [
    (
        (("div", "data-url"),),
        '<div data-url="u.html"></div>',
        [("u.html", "div", "data-url", "other", NS)],
    ),
    ((("div", "data-url"),), '<p data-url="u.html"></p>', []),  # another element
    ((("*", "data-url"),), '<p data-url="u.html"></p>', [("u.html", "p", "data-url", "other", NS)]),
    (
        (("a", "href"),),
        '<a href="a.html">a</a>',
        [("a.html", "a", "href", "link", ())],
    ),  # not twice
    (
        (("*", "data-src"),),
        '<img data-src="l.jpg">',
        [("l.jpg", "img", "data-src", "resource", NS)],
    ),
    # href on a div: the pair reads it; inside SVG the table's own row does, once
    ((("*", "href"),), '<div href="d.html"></div>', [("d.html", "div", "href", "other", NS)]),
    ((("*", "href"),), '<svg><g href="g.svg"></g></svg>', [("g.svg", "g", "href", "resource", ())]),
    (
        (("div", "data-hires-srcset"),),
        '<div data-hires-srcset="a.jpg 1x, b.jpg 2x"></div>',
        [
            ("a.jpg", "div", "data-hires-srcset", "other", NS),
            ("b.jpg", "div", "data-hires-srcset", "other", NS),
        ],
    ),
]


@pytest.mark.parametrize(("pairs", "html", "expected"), ADDED)
def test_added_attribute_pairs(
    pairs: tuple[tuple[str, str], ...], html: str, expected: list[Found]
) -> None:
    assert _found(html, pairs) == expected
    # without the pair, the table's own links only (a pair's links have kind "other")
    assert _found(html) == [f for f in expected if f[3] != "other"]


def test_attribute_pairs_are_checked_and_lower_cased() -> None:
    assert attribute_pairs([("DIV", " Data-URL "), ("div", "data-url")]) == (("div", "data-url"),)
    assert attribute_pairs(None) == ()
    for wrong in (["div:data-url"], [("div",)], [("", "x")], [("div", 1)], [7]):
        with pytest.raises(ValueError, match="attributes"):
            attribute_pairs(wrong)  # type: ignore[arg-type]


def test_a_selected_root_inside_a_template_is_marked() -> None:
    tree = parse_html('<template><div id="x"><a href="in.html">i</a></div></template>')
    roots = select_roots(tree, "div")
    assert roots
    links = raw_links(tree, roots)
    assert [(r.raw, r.problems) for r in links] == [("in.html", ("inert-template",))]


# https://html.spec.whatwg.org/#parsing-main-inbody: a late <html>/<body> start tag adds the
# attributes its element lacks (libxml2 drops the tag)
LATE = [
    ('<p>x<body background="a&amp;b.png">', [("a&b.png", "body", "background", "resource", ())]),
    (
        '<p>x<body background="c.png"><!-- never closed',
        [("c.png", "body", "background", "resource", ())],
    ),
    ('<p>x<textarea><body background="t.png"></textarea>', []),
    ('<p>x<!--><body background="e.png">', [("e.png", "body", "background", "resource", ())]),
    ('<p>x<body background="unclosed.png"', []),  # the text ends inside the tag: no tag
    (
        '<p>x</p><html manifest="m.appcache"><body background="bg.png">',
        [
            ("m.appcache", "html", "manifest", "resource", ()),
            ("bg.png", "body", "background", "resource", ()),
        ],
    ),
    (
        '<body background="first.png"><p>x<body background="second.png" style="background:url(s.png)">',
        [
            ("first.png", "body", "background", "resource", ()),
            ("s.png", "body", "style", "resource", ()),
        ],
    ),
    ('<body><template><body background="t.png"></template>', []),
    ('<body><noscript><body background="n.png"></noscript>', []),
    ("<body><script>x = '<body background=\"js.png\">'</script>", []),
    ('<body><!-- <body background="c.png"> -->', []),
    (
        '<p>x</p><BODY BACKGROUND="upper.png" background="dup.png">',
        [("upper.png", "body", "background", "resource", ())],
    ),
]


@pytest.mark.parametrize(("html", "expected"), LATE)
def test_late_html_and_body_attributes(html: str, expected: list[Found]) -> None:
    assert _found(html) == expected


def test_attributes_reach_extract_links_in_every_worker_count() -> None:
    from baselinks import extract_links

    page = b'<div data-url="card.html"></div>'
    for workers in (1, 2):
        links = extract_links(
            page, url="http://e.com/", attributes=[("div", "data-url")], workers=workers
        )
        assert [(link.url, link.problems) for link in links] == [
            ("http://e.com/card.html", ("nonstandard-attribute",))
        ]
    assert extract_links(page, url="http://e.com/") == []
    with pytest.raises(ValueError, match="attributes"):
        extract_links(page, attributes=["div:data-url"])  # type: ignore[list-item]


def test_an_iframe_srcdoc_in_noscript_gives_its_links_the_mark() -> None:
    from baselinks import extract_links

    page = b'<noscript><iframe srcdoc="<a href=in.html>x</a>"></iframe></noscript>'
    [link] = extract_links(page, url="http://e.com/")
    assert (link.url, link.problems) == ("http://e.com/in.html", ("in-noscript",))


def test_a_base_in_noscript_is_no_base_but_a_later_one_is() -> None:
    # a browser with scripting enabled reads noscript content as text (HTML #parsing-main-inhead)
    from baselinks import extract_links

    page = b'<noscript><base href="http://ns.example/"></noscript><a href="x">x</a>'
    [link] = extract_links(page, url="http://e.com/d/")
    assert (link.url, link.base_source) == ("http://e.com/d/x", "retrieval")
    later = page + b'<base href="http://real.example/">'
    [link] = extract_links(later, url="http://e.com/d/")
    assert (link.url, link.base_source) == ("http://real.example/x", "content")
