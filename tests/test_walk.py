"""The walker alone: raw_links on parsed HTML, each rule of the link-source table as a row.

Each row is (html, [(raw, tag, attr, kind, problems), ...]): the links found, in order, before
any resolution. The golden fixtures (tests/test_golden.py) show the same rules end to end.
"""

from __future__ import annotations

import pytest

from baselinks.find.walk import attribute_pairs, raw_links, select_roots
from baselinks.load.document import parse_html

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
    # in its table: a <tr> outside one is no element to HTML's parser (docs/guide/parsers.md)
    (
        '<table><tr data-href="row.html"></tr></table>',
        [("row.html", "tr", "data-href", "link", NS)],
    ),
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


# --- the table is the single source of truth, checked at import --------------------------------


def _import_linktable_with(old: str, new: str) -> None:
    """Execute linktable.py with ``old`` replaced by ``new``, as importing it would."""
    import importlib.util
    from pathlib import Path

    from baselinks.find import linktable

    source = Path(linktable.__file__).read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    spec = importlib.util.spec_from_loader("baselinks.find._linktable_probe", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "baselinks.find"
    exec(compile(source.replace(old, new), linktable.__file__, "exec"), module.__dict__)


def test_the_table_as_written_imports() -> None:
    _import_linktable_with('when="type=image"', 'when="type=image"')


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # before the check, a mistyped key was in no condition table, and so held always:
        # <input src> would have been a link on every input
        ('when="type=image"', 'when="type=imgae"', "when 'type=imgae'"),
        ('when="3xx"', 'when="3XX"', "when '3XX'"),  # a header row's
        ('"link", LINK_HEADER', '"link", SRCSET', "syntax 'srcset'"),  # no header reads that
        ('"poster", URL, "resource"', '"poster", URL, "resources"', "kind 'resources'"),
        ('"poster", URL, "resource"', '"poster", "uri", "resource"', "syntax 'uri'"),
        # codebase is the base of <object data>, whether the row says so or not
        ('base=CODEBASE,\n        spec="#attr-object-data', 'spec="#attr-object-data', "base ''"),
    ],
)
def test_a_mistyped_name_in_the_table_fails_at_import(old: str, new: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _import_linktable_with(old, new)


def test_every_row_names_only_what_a_registry_holds() -> None:
    from baselinks.find.linktable import (
        CONDITIONS,
        HEADER_CONDITIONS,
        HEADER_LINK_SOURCES,
        KIND_RULES,
        KINDS,
        LINK_SOURCES,
        TAG_CONDITIONS,
    )

    for source in LINK_SOURCES:
        assert not source.when or source.when in TAG_CONDITIONS.keys() | CONDITIONS.keys()
        assert source.kind in KINDS or source.kind in KIND_RULES
    for source in HEADER_LINK_SOURCES:
        assert not source.when or source.when in HEADER_CONDITIONS
    from baselinks import KINDS as PUBLIC_KINDS
    from baselinks.api import KINDS as API_KINDS

    assert PUBLIC_KINDS is API_KINDS is KINDS  # defined once, with the table


def test_the_plan_cache_stays_bounded() -> None:
    from baselinks.find import walk
    from baselinks.find.linktable import LINK_SOURCES

    table = walk._Table(LINK_SOURCES)
    # a page of distinct custom element names, each with a link attribute
    names = [f"x-e{i}" for i in range(walk._UNNAMED_PLANS * 3)]
    for name in names:
        plan = table.plans.get(name) or table.plan(name)
        # every row for any element applies to a custom element (its two own rows too)
        assert set(plan) == {s.attr for s in LINK_SOURCES if s.tags is None}
    assert len(table.plans) == len(table.named) + walk._UNNAMED_PLANS
    # one plan per answer to the tag conditions, shared by every tag that gives it
    assert len(table.by_class) == 1
    assert table.plan("x-e1") is table.plan(names[-1])
    # tags the table names are kept whatever the page's other names
    assert "srcset" in table.plan("img") and "img" in table.plans


def test_a_page_of_distinct_custom_elements_is_walked_with_few_plans() -> None:
    from baselinks.find import walk

    html = "".join(f'<x-e{i} src="u{i}">' for i in range(3000))
    links = _found(html)
    assert len(links) == 3000
    assert links[-1] == ("u2999", "x-e2999", "src", "other", ())
    assert len(walk._TABLE.plans) <= len(walk._TABLE.named) + walk._UNNAMED_PLANS


# The rules rows name: kind by rel, foreign kind, codebase, <style> text
NAMED_RULES = [
    ('<link rel="Stylesheet" href="s.css">', [("s.css", "link", "href", "resource", ())]),
    ('<link rel="next" href="n.html">', [("n.html", "link", "href", "link", ())]),
    ('<link href="n.html">', [("n.html", "link", "href", "link", ())]),
    ('<svg><a href="a.svg">a</a></svg>', [("a.svg", "a", "href", "link", ())]),
    ('<svg><use href="#i"></use></svg>', [("#i", "use", "href", "resource", ())]),
    (
        "<style>@import 'i.css'; p { background: url(b.png) }</style>",
        [
            ("i.css", "style", "@import", "resource", ()),
            ("b.png", "style", "url()", "resource", ()),
        ],
    ),
    (
        "<svg><style>g { fill: url(f.svg#g) }</style></svg>",
        [("f.svg#g", "style", "url()", "resource", ())],
    ),
]


@pytest.mark.parametrize(("html", "expected"), NAMED_RULES)
def test_the_rules_rows_name(html: str, expected: list[Found]) -> None:
    assert _found(html) == expected


def test_codebase_is_given_to_the_rows_that_name_it() -> None:
    tree = parse_html(
        '<object codebase="cb/" data="d.swf" classid="c.class" usemap="#m"></object>'
        '<applet codebase="ab/" code="A.class" archive="a.jar, b.jar"></applet>'
    )
    found = [(r.tag, r.attr, r.raw, r.codebase) for r in raw_links(tree)]
    assert found == [
        ("object", "data", "d.swf", "cb/"),
        ("object", "codebase", "cb/", None),
        ("object", "classid", "c.class", "cb/"),
        ("object", "usemap", "#m", None),
        ("applet", "codebase", "ab/", None),
        ("applet", "archive", "a.jar", "ab/"),
        ("applet", "archive", "b.jar", "ab/"),
        ("applet", "code", "A.class", "ab/"),
    ]
    # a caller's pair gets it where base.codebase_applies says: <object code> is HTML 4's rule
    pair = raw_links(
        parse_html('<object codebase="cb/" code="X.class"></object>'), None, (("object", "code"),)
    )
    assert [(r.attr, r.codebase) for r in pair] == [("codebase", None), ("code", "cb/")]


# Header links, by the rows of HEADER_LINK_SOURCES: (status, headers, [(raw, attr, kind, rel)])
HEADERS = [
    (301, [("Location", "/moved")], [("/moved", "location", "link", "")]),
    (200, [("Location", "/not-a-redirect")], []),
    (None, [("Location", "/no-status")], []),
    (
        200,
        [("Link", '</s.css>; rel="stylesheet", </n>; rel=next')],
        [("/s.css", "link", "resource", "stylesheet"), ("/n", "link", "link", "next")],
    ),
    (200, [("REFRESH", "5; url=/r")], [("/r", "refresh", "refresh", "")]),
    # the representation's URL, on any status (cc-pyspark's host graph counts it); not a base
    (200, [("Content-Location", "/c")], [("/c", "content-location", "other", "")]),
    (404, [("content-location", "x.en.html")], [("x.en.html", "content-location", "other", "")]),
]


@pytest.mark.parametrize(("status", "headers", "expected"), HEADERS)
def test_header_links_by_their_table(
    status: int | None, headers: list[tuple[str, str]], expected: list[tuple[str, str, str, str]]
) -> None:
    from baselinks.find.walk import header_links

    found = [(r.raw, r.attr, r.kind, r.rel) for r in header_links(status, headers)]
    assert found == expected
    assert all(r.tag == "http" for r in header_links(status, headers))


def test_the_table_is_data_the_walker_reads_not_the_other_way() -> None:
    import ast
    from pathlib import Path

    from baselinks.find import linktable

    tree = ast.parse(Path(linktable.__file__).read_text(encoding="utf-8"))
    imported = {
        "." * node.level + node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    # the base rules (BASE_ELEMENT, CODEBASE) and the whitespace of enumerated attributes; no
    # parser, no walker: a row is added without reading either
    assert "..base.layers" in imported
    assert not imported & {".walk", ".anchor", "..load.document", ".sheets", "..api"}
    assert not {name for name in imported if name.split(".")[0] == "lxml"}
