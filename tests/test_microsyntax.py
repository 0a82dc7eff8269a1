"""srcset, declarative refresh and space-separated lists, each against its spec's cases."""

from __future__ import annotations

import pytest

from baselinks.microsyntax import parse_refresh, parse_srcset, split_urls

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
    assert split_urls("a.jar, b.jar ,,c.jar", ",") == ["a.jar", "b.jar", "c.jar"]
