"""The compiled CSS scanner and srcset parser (_csyntax.pyx) against css.py and microsyntax.py.

The pure functions are the reference: each comparison asks both and wants the same list, record
for record, on the spec tables, on every style sheet, ``<style>`` text, ``style`` attribute and
``srcset`` of the fixtures, and on generated text. Skipped, with the reason, where the module
is not built or BASELINKS_PURE=1 turns it off (CI's compiled run sets BASELINKS_REQUIRE_COMPILED,
and there a missing build fails instead).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks import compiled
from baselinks.find import css, microsyntax, walk
from baselinks.load.document import parse_html
from conftest import FIXTURES, compared
from test_css import _CSS_FRAGMENTS, CSS
from test_microsyntax import SRCSET

_csyntax = compiled.load("baselinks.find._csyntax")
compared(_csyntax is not None, "_csyntax, the compiled CSS and srcset,")


def _same_css(text: str) -> list[css.CSSURL]:
    found: list[css.CSSURL] = _csyntax.css_urls(text)
    assert found == css.css_urls(text)
    assert all(type(item) is css.CSSURL for item in found)
    return found


def _same_srcset(value: str) -> list[microsyntax.Candidate]:
    found: list[microsyntax.Candidate] = _csyntax.parse_srcset(value)
    assert found == microsyntax.parse_srcset(value)
    assert all(type(item) is microsyntax.Candidate for item in found)
    return found


def test_the_compiled_walk_calls_them() -> None:
    # else test_compiled's comparison of the two walks would not reach this code
    if walk._cwalk is None:
        pytest.skip(f"the compiled walk is not in use ({compiled.status()})")
    assert walk._SYNTAX["css_urls"] is _csyntax.css_urls
    assert walk._SYNTAX["parse_srcset"] is _csyntax.parse_srcset


@pytest.mark.parametrize(("text", "expected"), CSS)
def test_css_table(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(u.url, u.syntax) for u in _same_css(text)] == expected


@pytest.mark.parametrize(("value", "expected"), SRCSET)
def test_srcset_table(value: str, expected: list[tuple[str, bool]]) -> None:
    assert [(c.url, c.valid) for c in _same_srcset(value)] == expected


def _fixture_values() -> tuple[list[str], list[str]]:
    """Every style sheet, <style> text and style attribute, and every srcset, of the fixtures."""
    sheets: list[str] = []
    srcsets: list[str] = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.suffix == ".css":
            sheets.append(path.read_text("utf-8", errors="replace"))
        elif path.suffix in (".html", ".htm", ".svg", ".xhtml"):
            # (the documents inside archives and MIME: test_compiled's walks of every fixture)
            tree: Any = parse_html(path.read_text("utf-8", errors="replace"))
            sheets += [e.text or "" for e in tree.iter("style")]
            sheets += tree.xpath("//@style")
            srcsets += tree.xpath("//@srcset | //@imagesrcset")
    return sheets, srcsets


def test_every_fixture() -> None:
    sheets, srcsets = _fixture_values()
    found = [url for sheet in sheets for url in _same_css(sheet)]
    candidates = [c for value in srcsets for c in _same_srcset(value)]
    # not blind: 13 sheets with 32 URLs, 10 srcsets with 25 candidates when this was written
    assert len(sheets) >= 10 and len(found) >= 25
    assert len(srcsets) >= 8 and len(candidates) >= 20


# Beyond test_css's fragments: what the compiled loops look at character by character (the
# preprocessing's \r \f \0, characters past Latin-1, the two whose lower case holds ASCII,
# comments in every place, function names in other cases, an escape before a newline).
_MORE_CSS = [
    *_CSS_FRAGMENTS,
    "\r",
    "\f",
    "\x00",
    "\u0130",  # İ: lower case "i" + U+0307
    "\u212a",  # Kelvin sign: lower case "k"
    "\u0131mport",
    "\U0001f600",
    "/**/",
    "/*/",
    "*/*",
    "Src(",
    "sEt(",
    "IMAGE-SET(",
    "Image-Set(",
    "@Import",
    "@import url(",
    "@import/**/'i.css'",
    "\\\n",
    "\\\\",
    '"\\',
    "url()",
    "url(\t'x')",
    "url(a b)",
    "url(a\u00a0b)",
    " 1x",
    ", ",
    # what css.py once handed to tinycss2, read by css.py's helpers from both (issue 36)
    "u\\72l(",
    "\\75rl('e')",
    "@\\69mport 'i';",
    "url(\\41 b)",
    "url(\\D800)",
    'url(a"b)',
    "'nl\n",
    '"\\9\n',
    "#\\75rl(",
    "5\\75rl(",
]


@settings(max_examples=4000)
@given(st.lists(st.sampled_from(_MORE_CSS), max_size=40).map("".join))
@example("@import/**/'i.css';a{b:url(c)}")
@example("\u0130mage-set('x' 1x)")
@example("p{background:u\u212al(x)}")
@example("a{b:-web\u212ait-image-set('k.png' 1x)}")  # the Kelvin sign lowers to "k"
@example("a{b:\u00e9url(x) \u00e9-image-set('y' 1x)}")
def test_generated_css(text: str) -> None:
    _same_css(text)


@settings(max_examples=1000)
@given(st.text(alphabet=st.sampled_from("urlsceimag-t()@'\"\\/* \n\r{}[];,x1\u0130é"), max_size=60))
def test_css_from_its_letters(text: str) -> None:
    _same_css(text)


def test_only_two_characters_past_ascii_lower_to_ascii() -> None:
    # _csyntax's first test lowers ASCII letters alone, where css.css_urls lowers the whole
    # text; these two are why that gives the same answer (read _may_hold_url)
    lowering = [
        code
        for code in range(0x80, 0x110000)
        if any(ord(char) < 0x80 for char in chr(code).lower())
    ]
    assert lowering == [0x130, 0x212A]


_SRCSET_PIECES = [
    " ",
    "\t",
    "\n",
    "\x0c",
    "\r",
    "\u00a0",
    ",",
    ",,",
    "(",
    ")",
    "a.png",
    "b,c.png",
    "data:x,y",
    "1x",
    "2x",
    "1.5x",
    ".5x",
    "1.x",
    "-0x",
    "-1x",
    "+1x",
    "1e1x",
    "1E+2x",
    "1e400x",
    "1e-400x",
    "-1e-400x",
    "100w",
    "0w",
    "00w",
    "0100w",
    "+1w",
    "50h",
    "0h",
    "\u0661w",
    "w",
    "x",
    "h",
    "foo",
    "é",
]


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_SRCSET_PIECES), max_size=16).map("".join))
@example("a.png (1x, 2x) 1x, b.png")
@example("a.png 1x 2x")
@example("a.png 100w 50h 1x")
def test_generated_srcset(value: str) -> None:
    _same_srcset(value)


@given(st.text(max_size=40))
def test_any_srcset(value: str) -> None:
    _same_srcset(value)


def test_a_sheet_that_once_went_to_tinycss2() -> None:
    # an escape in a function's name: read by css.py's helpers, in both
    assert [u.url for u in _same_css("p{background:\\75rl(x.png)}")] == ["x.png"]
    # a string broken by a newline: it ends there, and what follows is read again
    assert [u.url for u in _same_css('p{content:"broken\n} q{background:url(y)}')] == ["y"]


def test_kinds_of_text() -> None:
    # the three storage widths of a str (1, 2 and 4 bytes a character), and a long sheet
    for filler in ("é", "\u0101", "\U0001f600"):
        text = f"/* {filler} */ a{{b:url({filler}.png)}} @import '{filler}.css';"
        assert [u.url for u in _same_css(text)] == [f"{filler}.png", f"{filler}.css"]
        assert _same_srcset(f"{filler}.png 1x, {filler}2.png 2x")[1].url == f"{filler}2.png"
    sheet = "a { color: red; background: url(x.png) }\n" * 20_000
    assert len(_same_css(sheet)) == 20_000


def test_a_document_through_both_walks() -> None:
    page = (
        "<style>a{b:url(s.png)}\n@import 'i.css';</style>"
        "<p style='background:image-set(\"p.png\" 1x)'><img srcset='a.png 1x, b.png 3q'>"
    )
    tree = parse_html(page)
    fast = walk.raw_links(tree)
    assert fast == walk.raw_links(tree, pure=True)
    assert [(r.raw, r.attr) for r in fast] == [
        ("s.png", "url()"),
        ("i.css", "@import"),
        ("p.png", "style"),
        ("a.png", "srcset"),
        ("b.png", "srcset"),
    ]
    assert fast[-1].problems == ("invalid-srcset-descriptor",)
