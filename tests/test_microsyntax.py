"""srcset, declarative refresh and space-separated lists, each against its spec's cases."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks.find import microsyntax
from baselinks.find.microsyntax import _srcset_steps, parse_refresh, parse_srcset, split_urls

# HTML standard "shared declarative refresh steps": (content, URL or None)
REFRESH = [
    ("5; URL='x.html'", "x.html"),
    ('5; URL="x.html"', "x.html"),
    ("0,url=x.html", "x.html"),
    ("5; x.html", "x.html"),
    ("5 x.html", "x.html"),
    (' 0 ; url = "x y.html" trailing', "x y.html"),  # quote truncates
    ("0; url='unterminated", "unterminated"),
    ("3; Url=a.html?u=1", "a.html?u=1"),
    ("0;URL=", ""),  # an empty URL: the document itself
    ("5;  URLfoo", "URLfoo"),  # "URL" not followed by "=": the whole rest is the URL
    ("5; ur=x", "ur=x"),
    (".5; x", "x"),  # a time may start with "."
    ("1.5.6; x", "x"),
    ("5", None),  # no URL: the page refreshes itself
    ("5;", None),
    ("", None),
    ("soon; url=x", None),  # no digits: the steps return
    ("5x; url=y", None),  # after the time only ";", "," or whitespace may follow
]


@pytest.mark.parametrize(("content", "url"), REFRESH)
def test_refresh(content: str, url: str | None) -> None:
    assert parse_refresh(content) == url


# HTML standard "parse a srcset attribute": (value, [(url, valid)])
SRCSET = [
    ("a.png", [("a.png", True)]),
    ("a.png 1x, b.png 2x", [("a.png", True), ("b.png", True)]),
    ("a,b.png 1x,c.png 2x", [("a,b.png", True), ("c.png", True)]),  # commas inside URLs
    ("a.png,b.png", [("a.png,b.png", True)]),  # no whitespace: one URL
    ("a.png, b.png", [("a.png", True), ("b.png", True)]),
    ("a.png,, b.png", [("a.png", True), ("b.png", True)]),  # trailing commas removed
    ("  a.png   100w ,  b.png 200w  ", [("a.png", True), ("b.png", True)]),
    ("a.png 100w 50h", [("a.png", True)]),
    ("a.png 1x 2x", [("a.png", False)]),  # two densities
    ("a.png 50h", [("a.png", False)]),  # h without w
    ("a.png 0w", [("a.png", False)]),
    ("a.png -1x", [("a.png", False)]),
    ("a.png foo", [("a.png", False)]),
    # x by https://html.spec.whatwg.org/#valid-floating-point-number, not Python's float()
    ("a.png 1.x", [("a.png", False)]),  # a full stop needs digits after it
    ("a.png 1\u00a0x", [("a.png", False)]),  # float() strips the NBSP
    ("a.png +1x", [("a.png", False)]),  # no leading plus
    ("a.png 1_0x", [("a.png", False)]),  # float() reads 10
    ("a.png infx", [("a.png", False)]),
    ("a.png 1e400x", [("a.png", False)]),  # beyond a double: the parsing rules' error
    ("a.png 1e1x", [("a.png", True)]),  # an exponent is allowed
    ("a.png 1E+1x", [("a.png", True)]),
    ("a.png .5x", [("a.png", True)]),
    ("a.png 1.5x", [("a.png", True)]),
    ("a.png -0x", [("a.png", True)]),  # minus zero is not below zero
    ("a.png 0x", [("a.png", True)]),
    # w and h by https://html.spec.whatwg.org/#valid-non-negative-integer
    ("a.png +100w", [("a.png", False)]),
    ("a.png 1.0w", [("a.png", False)]),
    ("a.png 100w 0h", [("a.png", False)]),
    ("a.png \u0661w", [("a.png", False)]),  # an Arabic-Indic digit is no ASCII digit
    ("a.png 0100w", [("a.png", True)]),
    ("a.png (1x, 2x) 1x, b.png", [("a.png", False), ("b.png", True)]),  # parens keep the comma
    ("data:image/png;base64,AAAA 1x", [("data:image/png;base64,AAAA", True)]),
    ("", []),
    (" , , ", []),
]


@pytest.mark.parametrize(("value", "expected"), SRCSET)
def test_srcset(value: str, expected: list[tuple[str, bool]]) -> None:
    assert [(c.url, c.valid) for c in parse_srcset(value)] == expected


def test_srcset_keeps_descriptors() -> None:
    assert parse_srcset("a.png 100w 50h")[0].descriptors == ("100w", "50h")


def test_split_urls_splits_on_ascii_whitespace_only() -> None:
    assert split_urls(" a  b\tc\nd ") == ["a", "b", "c", "d"]
    assert split_urls("a\u00a0b c") == ["a\u00a0b", "c"]  # NBSP is not a separator
    # nor are the ASCII separators str.split() takes for whitespace (this once split them)
    assert split_urls("a\x0bb c\x1cd\x1f") == ["a\x0bb", "c\x1cd\x1f"]
    assert split_urls("a.jar, b.jar ,,c.jar", ",") == ["a.jar", "b.jar", "c.jar"]


# parse_srcset answers a value without "(" from whole runs (_srcset_without_parens); the
# standard's steps one code point at a time (_srcset_steps) are the reference it must equal.
_SRCSET_PIECES = [
    *(" ", "\t", "\n", "\x0c", "\r", "\x0b", "\x1c", "\u00a0", "\u2003"),
    *(",", ",,", ")", "a.png", "b,c.png", "data:x,y", "é", "foo"),
    *("1x", "2x", "1.5x", ".5x", "1.x", "-0x", "-1x", "+1x", "1e1x", "1e400x"),
    *("100w", "0w", "00w", "+1w", "50h", "0h", "\u0661w", "w", "x", "h"),
]


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_SRCSET_PIECES), max_size=16).map("".join))
@example("a.png 1x,b.png 2x")
@example("a.png 1x ,b.png")
@example("a.png, , b.png 100w 50h")
@example("a.png\x0b1x")  # a vertical tab is no ASCII whitespace in HTML
def test_srcset_without_parens_is_the_steps(value: str) -> None:
    assert "(" not in value
    assert parse_srcset(value) == _srcset_steps(value)


@given(st.text(alphabet=st.characters(exclude_characters="("), max_size=30))
def test_srcset_any_text_without_parens(value: str) -> None:
    assert parse_srcset(value) == _srcset_steps(value)


def test_srcset_validity_is_kept_bounded() -> None:
    for width in range(1, 3000):
        parse_srcset(f"a.png {width}w")
    kept = microsyntax._candidate_valid.cache_info()
    assert 0 < kept.currsize <= kept.maxsize == 1024
    assert parse_srcset("a.png 0w, b.png 7w") == _srcset_steps("a.png 0w, b.png 7w")
