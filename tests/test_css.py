"""CSS url(), @import and image-set(): the scanner against its cases and against tinycss2."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks.find import css
from baselinks.find.css import CSSURL, _scan, css_urls, css_urls_tinycss2

CSS = [
    ('@import "a.css";', [("a.css", "@import")]),
    ("@import 'a.css' screen;", [("a.css", "@import")]),
    ("@import url(a.css);", [("a.css", "@import")]),
    ('@import url("a.css");', [("a.css", "@import")]),
    ('@IMPORT "a.css";', [("a.css", "@import")]),
    ("p { background: url(a.png) }", [("a.png", "url()")]),
    ("p { background: URL( 'a.png' ) }", [("a.png", "url()")]),
    ("p { background: url(a\\29 b.png) }", [("a)b.png", "url()")]),  # escapes decoded
    ("/* url(no.png) */ p { color: red }", []),  # comments are not CSS
    ('p { content: "url(no.png)" }', []),  # a string is not a url()
    (
        'p { background: image-set("a.png" 1x, url(b.png) 2x) }',
        [("a.png", "image-set()"), ("b.png", "url()")],
    ),
    ('p { background: -webkit-image-set("a.png" 1x) }', [("a.png", "image-set()")]),
    ('@font-face { src: url(f.woff2) format("woff2") }', [("f.woff2", "url()")]),
    ("@media print { p { background: url(print.png) } }", [("print.png", "url()")]),
    ("p { background: url(unclosed.png", [("unclosed.png", "url()")]),
    ("color: red", []),
]


@pytest.mark.parametrize(("css", "expected"), CSS)
def test_css_urls(css: str, expected: list[tuple[str, str]]) -> None:
    assert [(u.url, u.syntax) for u in css_urls(css)] == expected


def test_css_lines_count_from_one() -> None:
    assert css_urls("a{}\n\nb{background:url(x)}") == [CSSURL("x", "url()", 3)]


# The fast CSS scanner against tinycss2 (the reference) on generated CSS. Fragments are chosen
# to meet every branch: strings with escapes, comments, nested blocks and functions, look-alike
# names (myurl(, #url(, @imports), unquoted and quoted url(), src(), image-set(), @import.
_CSS_FRAGMENTS = [
    " ",
    "\n",
    "\r\n",
    "\t",
    "a",
    "p",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ":",
    "/",
    "*",
    "/*",
    "*/",
    '"',
    "'",
    '"x.png"',
    "'y.css'",
    '"a\\"b"',
    '"\\41 \\42"',
    '"c\\\nd"',
    "\\",
    "\\9",
    "\\75rl(",
    "url(",
    "URL(",
    "url( ",
    "url(a.png)",
    "url( b.png )",
    'url("q.png")',
    "url('r.png' 'z')",
    "myurl(",
    "x-url(",
    "#url(",
    "@url(",
    "src(",
    'src("f.woff")',
    "image-set(",
    "-webkit-image-set(",
    '"i.png" 1x',
    "@import",
    "@IMPORT",
    "@imports",
    "@import ",
    "rgba(0,0,0,.5)",
    "calc(1px + 2px)",
    "var(--x)",
    "5url(",
    ".url(",
    "é",
    "💡",
    # escapes in names and url tokens, bad strings and bad urls (issue 36: each once sent the
    # whole sheet to tinycss2)
    "\\72",
    "u\\72l(",
    "\\55 RL(",
    "\\31 ",
    "-\\77 ebkit-image-set(",
    "image-\\73 et(",
    "\\73rc(",
    "#\\75rl(",
    "@\\69mport",
    "@im\\70ort ",
    "url(\\41)",
    "url(a\\29 b)",
    "url(\\D800)",
    "url(a b)",
    'url(a"b)',
    "url(a(b)",
    "url(\\))",
    "url(\\",
    "url(a\\\n)",
    "url(\x01)",
    "url(\xa0)",
    "\\\n",
    '"open',
    "'nl\n'",
    '"\\',
    "\x0c",
    "\x00",
]


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_CSS_FRAGMENTS), max_size=40).map("".join))
@example("src(/**/)\\75rl(")  # found by this test: a comment in src() ended the scan
def test_css_scanner_agrees_with_tinycss2(css: str) -> None:
    assert _scan(css) == css_urls_tinycss2(css)


def test_a_comment_inside_a_function_does_not_end_the_scan() -> None:
    # the comment's end offset once overwrote the scan's end: every later URL was lost
    css = 'a{b:image-set(/**/ "a.png" 1x)} c{background:url(x.png)} d{e:src(/* */) url(y)}'
    assert [u.url for u in css_urls(css)] == ["a.png", "x.png", "y"]
    assert _scan(css) == css_urls_tinycss2(css)


def test_css_scanner_reads_what_it_once_deferred() -> None:
    # issue 36: each of these handed the whole sheet to tinycss2, whose tree of 3 MB of nested
    # "{" took 930 MB; the scanner reads them now, as tinycss2 does
    assert _scan("p{background:url(a\\29 b.png)}") == [CSSURL("a)b.png", "url()", 1)]
    assert _scan("p{background:\\75rl(x)}") == [CSSURL("x", "url()", 1)]
    assert _scan("p{background:\\75rl('x')}") == [CSSURL("x", "url()", 1)]
    assert _scan('@\\69mport "i.css";') == [CSSURL("i.css", "@import", 1)]
    assert _scan('p{content:"broken\n} q{b:url(y)}') == [CSSURL("y", "url()", 2)]
    assert _scan("p{b:url(a b) c:url(d)}") == [CSSURL("d", "url()", 1)]  # a bad url, no URL
    assert _scan("p{color:red\\9}") == []  # an IE hack: an escape, but not in a name


def test_a_sheet_with_an_escape_is_not_handed_whole_to_tinycss2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from baselinks.find import css as css_module

    def refused(css: str) -> list[CSSURL]:
        raise AssertionError("handed to tinycss2")

    monkeypatch.setattr(css_module, "css_urls_tinycss2", refused)
    sheet = "a{background:url(\\41)}" + "{" * 100_000
    assert css_urls(sheet) == [CSSURL("A", "url()", 1)]


def test_a_name_code_point_is_what_css_py_writes_as_ascii() -> None:
    # css._NAME is written as the ASCII it is not (it compiles 200 times faster); it must be
    # the set the CSS syntax names, [\w\-\u0080-\U0010ffff], at every code point
    written = re.compile(css._NAME)
    reference = re.compile(r"[\w\-\u0080-\U0010ffff]")
    differ = [
        code
        for code in range(0x110000)
        if (written.match(chr(code)) is None) != (reference.match(chr(code)) is None)
    ]
    assert differ == []
