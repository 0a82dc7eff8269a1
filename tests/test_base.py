"""The base stage alone: RFC 1808 §3's layers, each function called directly, a table per layer.

    §3.1  establish_base       the first <base href>, over whatever fallback it is handed
    §3.2  encapsulating_base   the enclosing entities' headers, outermost first; srcdoc_fallback
    §3.3  retrieval_base       the retrieval URL, else a "saved from url" comment
    §3.4  retrieval_base       else the empty string

Each row is named (its pytest id) by the rule it shows. The golden fixtures
(tests/test_golden.py, tests/test_containers.py) show the same layers end to end.
"""

from __future__ import annotations

import pytest

from baselinks.base.layers import (
    DEFAULT,
    Base,
    BaseSource,
    codebase_applies,
    encapsulating_base,
    establish_base,
    retrieval_base,
    srcdoc_fallback,
)
from baselinks.load.document import parse_html

CONTENT, ENCAPSULATING, RETRIEVAL = (
    BaseSource.CONTENT,
    BaseSource.ENCAPSULATING,
    BaseSource.RETRIEVAL,
)
FETCHED = Base("http://r.example/a/b", RETRIEVAL)

# --- §3.1: "the base URL is embedded in the document's content" --------------------------------
# (html, mode, the base established over FETCHED; None: FETCHED itself stands)
CONTENT_ROWS = [
    pytest.param(
        '<base href="http://b.example/d/">',
        "rfc1808",
        Base("http://b.example/d/", CONTENT),
        id="an absolute href is the base",
    ),
    pytest.param(
        '<base href="sub/"><p>x',
        "rfc1808",
        Base("http://r.example/a/sub/", CONTENT),
        id="a relative href resolves against the fallback",
    ),
    pytest.param(
        '<base href="http://one.example/"><base href="http://two.example/">',
        "rfc1808",
        Base("http://one.example/", CONTENT),
        id="the first base wins (lxml and wget take the last)",
    ),
    pytest.param(
        '<base target="_top"><base href="http://h.example/">',
        "rfc1808",
        Base("http://h.example/", CONTENT),
        id="a base without href is passed over",
    ),
    pytest.param(
        '<p>x</p><a href="y">y</a><base href="http://late.example/">',
        "rfc1808",
        Base("http://late.example/", CONTENT),
        id="a base after the links is still the document's",
    ),
    pytest.param(
        '<base href=" \thttp://s.example/ \n">',
        "rfc1808",
        Base("http://s.example/", CONTENT),
        id="ASCII whitespace around the href is stripped",
    ),
    pytest.param("<p>no base</p>", "rfc1808", None, id="no base: the fallback"),
    pytest.param(
        '<template><base href="http://t.example/"></template>',
        "rfc1808",
        None,
        id="a base in a template is inert",
    ),
    pytest.param(
        '<noscript><base href="http://n.example/"></noscript>',
        "rfc1808",
        None,
        id="a base in noscript is text with scripting enabled",
    ),
    pytest.param(
        '<svg><base href="http://s.example/"></svg>', "rfc1808", None, id="an SVG base is none"
    ),
    pytest.param(
        '<math><base href="http://m.example/"></math>', "rfc1808", None, id="a MathML base is none"
    ),
    pytest.param(
        '<base href="javascript:void(0)">', "rfc1808", None, id="a javascript: base is refused"
    ),
    pytest.param('<base href="DATA:text/html,x">', "rfc1808", None, id="a data: base is refused"),
    pytest.param(
        '<base href="http://[bad">',
        "whatwg",
        None,
        id="a base the mode cannot parse is passed over",
    ),
    pytest.param(
        '<base href="http://[bad">',
        "rfc1808",
        Base("http://[bad", CONTENT),
        id="rfc1808 has no host syntax to refuse it",
    ),
    pytest.param(
        '<base href="HTTP://Example.COM/a/../b">',
        "rfc1808",
        Base("HTTP://Example.COM/a/../b", CONTENT),
        id="rfc1808 keeps an absolute base as written",
    ),
    pytest.param(
        '<base href="HTTP://Example.COM/a/../b">',
        "rfc3986",
        Base("HTTP://Example.COM/b", CONTENT),
        id="rfc3986 removes its dot segments",
    ),
    pytest.param(
        '<base href="HTTP://Example.COM/a/../b">',
        "whatwg",
        Base("http://example.com/b", CONTENT),
        id="whatwg serialises it",
    ),
]


@pytest.mark.parametrize(("html", "mode", "expected"), CONTENT_ROWS)
def test_embedded_in_the_content(html: str, mode: str, expected: Base | None) -> None:
    assert establish_base(parse_html(html), FETCHED, mode) == (expected or FETCHED)


def test_a_relative_base_with_nothing_to_anchor_it_is_no_base() -> None:
    # §3.4's empty base: <base href="/x/"> stays relative, so the document has no base
    assert establish_base(parse_html('<base href="/x/">'), DEFAULT, "rfc1808") == DEFAULT


# --- §3.2: "the base URL of the entity in which the document is encapsulated" --------------------
# (Content-Location headers outermost first, the fallback around them, mode, expected)
ENCAPSULATING_ROWS = [
    pytest.param((), FETCHED, "rfc1808", FETCHED, id="no header: the fallback"),
    pytest.param(
        ("http://m.example/page.html",),
        FETCHED,
        "rfc1808",
        Base("http://m.example/page.html", ENCAPSULATING),
        id="an absolute Content-Location",
    ),
    pytest.param(
        ("page.html",),
        FETCHED,
        "rfc1808",
        Base("http://r.example/a/page.html", ENCAPSULATING),
        id="a relative one against the retrieval URL",
    ),
    pytest.param(
        ("http://o.example/dir/", "inner/p.html"),
        FETCHED,
        "rfc1808",
        Base("http://o.example/dir/inner/p.html", ENCAPSULATING),
        id="nested: each against the entity around it",
    ),
    pytest.param(
        ("p.html",),
        DEFAULT,
        "rfc1808",
        DEFAULT,
        id="relative with nothing absolute around: passed over (no thismessage:/)",
    ),
    pytest.param(
        ("http://[bad/",),
        FETCHED,
        "whatwg",
        FETCHED,
        id="one the mode cannot resolve: passed over",
    ),
    pytest.param(
        ("http://[bad/", "q.html"),
        FETCHED,
        "whatwg",
        Base("http://r.example/a/q.html", ENCAPSULATING),
        id="the next resolves against the base that stood",
    ),
]


@pytest.mark.parametrize(("locations", "fallback", "mode", "expected"), ENCAPSULATING_ROWS)
def test_the_encapsulating_entity(
    locations: tuple[str, ...], fallback: Base, mode: str, expected: Base
) -> None:
    assert encapsulating_base(locations, fallback, mode) == expected


SRCDOC_ROWS = [
    pytest.param(
        Base("http://c.example/", CONTENT),
        Base("http://c.example/", ENCAPSULATING),
        id="the container's base, as the encapsulating entity's",
    ),
    pytest.param(FETCHED, Base(FETCHED.url, ENCAPSULATING), id="whatever layer set it"),
    pytest.param(DEFAULT, DEFAULT, id="an empty base stays the default"),
]


@pytest.mark.parametrize(("container", "expected"), SRCDOC_ROWS)
def test_an_iframe_srcdoc_falls_back_on_its_container(container: Base, expected: Base) -> None:
    assert srcdoc_fallback(container) == expected


def test_an_iframe_srcdoc_document_s_own_base_wins() -> None:
    inner = srcdoc_fallback(Base("http://c.example/d/", CONTENT))
    tree = parse_html('<base href="own/"><a href="x">x</a>')
    assert establish_base(tree, inner, "rfc1808") == Base("http://c.example/d/own/", CONTENT)


# --- §3.3 "the URL used to retrieve the document", §3.4 the default -------------------------------
SAVED = "<!-- saved from url=(0021)http://example.com/a/ -->\n<html>"
RETRIEVAL_ROWS = [
    pytest.param("http://u.example/", "", Base("http://u.example/", RETRIEVAL), id="the URL given"),
    pytest.param(None, SAVED, Base("http://example.com/a/", RETRIEVAL), id="a saved-from comment"),
    pytest.param(
        "http://u.example/",
        SAVED,
        Base("http://u.example/", RETRIEVAL),
        id="the URL given beats the comment",
    ),
    pytest.param(
        None,
        "<!-- saved from url=(0014)about:internet -->",
        DEFAULT,
        id="about:internet marks a zone, not a URL",
    ),
    pytest.param(
        None,
        "<!-- saved from url=(0010)page1.html -->",
        DEFAULT,
        id="a comment without a scheme",
    ),
    pytest.param(None, " " * 4096 + SAVED, DEFAULT, id="a comment past the first 4 KB"),
    pytest.param(None, "<html>", DEFAULT, id="nothing: §3.4, the empty string"),
    pytest.param("", "", DEFAULT, id="an empty URL is none"),
]


@pytest.mark.parametrize(("url", "text", "expected"), RETRIEVAL_ROWS)
def test_the_retrieval_url_else_the_default(url: str | None, text: str, expected: Base) -> None:
    assert retrieval_base(url, text) == expected


# --- the layers together: each inner one wins over those around it -------------------------------
# (html, Content-Location headers, retrieval URL, expected)
PRECEDENCE = [
    pytest.param(
        '<base href="http://content.example/">',
        ("http://mime.example/",),
        "http://fetched.example/",
        Base("http://content.example/", CONTENT),
        id="§3.1 over §3.2 over §3.3",
    ),
    pytest.param(
        "<p>x",
        ("http://mime.example/",),
        "http://fetched.example/",
        Base("http://mime.example/", ENCAPSULATING),
        id="§3.2 over §3.3",
    ),
    pytest.param(
        "<p>x",
        (),
        "http://fetched.example/",
        Base("http://fetched.example/", RETRIEVAL),
        id="§3.3 alone",
    ),
    pytest.param("<p>x", (), None, DEFAULT, id="§3.4"),
    pytest.param(
        '<base href="c/">',
        ("m/",),
        "http://fetched.example/r/",
        Base("http://fetched.example/r/m/c/", CONTENT),
        id="each relative layer against the one around it",
    ),
]


@pytest.mark.parametrize(("html", "locations", "url", "expected"), PRECEDENCE)
def test_the_layers_nest(
    html: str, locations: tuple[str, ...], url: str | None, expected: Base
) -> None:
    fallback = encapsulating_base(locations, retrieval_base(url, html), "rfc1808")
    assert establish_base(parse_html(html), fallback, "rfc1808") == expected


# HTML 4 §13.3, §13.4: which attributes resolve against the element's codebase
CODEBASE_ROWS = [
    ("object", "data", True),
    ("object", "classid", True),
    ("object", "archive", True),
    ("applet", "code", True),
    ("applet", "archive", True),
    ("object", "codebase", False),  # the codebase itself resolves against the document's base
    ("object", "usemap", False),
    ("embed", "src", False),
    ("img", "data", False),
]


@pytest.mark.parametrize(("tag", "attr", "applies"), CODEBASE_ROWS)
def test_the_codebase_rule(tag: str, attr: str, applies: bool) -> None:
    assert codebase_applies(tag, attr) is applies
