"""The whatwg mode's fast path (resolve._WHATWG._serialised) against ada-url itself: every answer
it gives must be the URL parser's, on the shapes it takes, on the near misses it must refuse,
and on arbitrary text."""

from __future__ import annotations

import ada_url
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baselinks import Resolver, explain, resolve
from baselinks.errors import URLError


def ada(base: str, ref: str) -> str | None:
    """What the URL parser itself answers (None: it fails)."""
    try:
        return ada_url.join_url(base, ref) if base else ada_url.URL(ref).href
    except ValueError:
        return None


def fast(base: str, ref: str) -> str | None:
    resolver = Resolver(base, "whatwg")
    return resolver._serialised(ref) if resolver._valid else None  # type: ignore[attr-defined]


BASE = "https://example.com/a/b?q#f"

# The four shapes it answers, each as the URL parser writes it.
TAKEN = [
    (
        BASE,
        "http://www.example.org/x/y.html?a=1&b=%20#top",
        "http://www.example.org/x/y.html?a=1&b=%20#top",
    ),
    ("", "https://a-b.example/", "https://a-b.example/"),
    (BASE, "//cdn.example.net/s.js", "https://cdn.example.net/s.js"),
    (BASE, "/c/d;p?x=y", "https://example.com/c/d;p?x=y"),
    ("http://u:pw@example.com:8080/a", "/g", "http://u:pw@example.com:8080/g"),
    (BASE, "#section-2", "https://example.com/a/b?q#section-2"),
    (BASE, "#", "https://example.com/a/b?q#"),
]


@pytest.mark.parametrize(("base", "ref", "expected"), TAKEN)
def test_the_fast_shapes(base: str, ref: str, expected: str) -> None:
    assert fast(base, ref) == expected == ada(base, ref)
    assert resolve(base, ref, mode="whatwg") == expected


# What the parser changes, or may, or refuses: each goes to ada-url, and resolve() still
# answers as ada-url does.
REFUSED = [
    (BASE, "HTTP://example.com/"),  # scheme in upper case
    (BASE, "http://Example.com/"),  # host in upper case
    (BASE, "http://example.com"),  # no path: the parser adds "/"
    (BASE, "http://example.com:80/"),  # a default port, removed
    (BASE, "http://example.com:8080/"),  # any port
    (BASE, "http://u@example.com/"),  # userinfo
    (BASE, "http://192.168.0.1/"),  # an IPv4 address
    (BASE, "http://example.0x1f/"),  # the last label a number: an IPv4 address, or a failure
    (BASE, "http://1.2.3/"),
    (BASE, "http://xn--nxasmq6b.com/"),  # Punycode, checked
    (BASE, "http://xn--a/"),  # Punycode that does not decode: a failure
    (BASE, "http://example.com./"),  # a trailing dot
    (BASE, "http://a..b/"),
    (BASE, "http://exa_mple.com/"),
    (BASE, "http://example.com/a/./b"),  # dot segments
    (BASE, "http://example.com/a/../b"),
    (BASE, "http://example.com/a/%2e%2E/b"),
    (BASE, "http://example.com/a/.%2e"),
    (BASE, "/a/.."),
    (BASE, "#/../x"),
    (BASE, "http://example.com/a b"),  # characters of the percent-encode sets
    (BASE, "http://example.com/a^b"),
    (BASE, "http://example.com/a{b}"),
    (BASE, "http://example.com/a`b"),
    (BASE, "http://example.com/?a'b"),
    (BASE, "http://example.com/#a`b"),
    (BASE, "http://example.com/a\\b"),  # a backslash is a slash
    (BASE, "http://example.com/a\tb"),  # tab and newline are removed
    (BASE, "http://example.com/a\nb"),
    (BASE, "http://example.com/é"),
    (BASE, "http://ex\u00e4mple.com/"),
    (BASE, "//Example.com/x"),
    (BASE, "//example.com"),
    (BASE, "///x"),
    (BASE, "/\\x"),
    (BASE, "?q"),
    (BASE, "g"),
    (BASE, "ftp://example.com/"),
    ("http://[bad/", "http://example.com/"),  # a base the parser refuses fails every reference
    ("HTTP://Example.com/a", "/g"),  # a base the parser would rewrite
    ("http://example.com/a/../b", "/g"),
    ("mailto:x@example.com", "#f"),  # not an http(s) base
    ("file:///a/b", "/g"),
    ("", "/g"),  # no base
    ("", "#f"),
]


@pytest.mark.parametrize(("base", "ref"), REFUSED)
def test_near_misses_go_to_the_parser(base: str, ref: str) -> None:
    assert fast(base, ref) is None
    expected = ada(base, ref)
    if expected is None:
        with pytest.raises(URLError):
            resolve(base, ref, mode="whatwg")
    else:
        assert resolve(base, ref, mode="whatwg") == expected


def test_explain_goes_through_the_parser() -> None:
    steps = explain(BASE, "/g", mode="whatwg").steps
    assert [step.rule for step in steps] == ["URL parser"]


# Text dense in the characters that decide the shapes, the hosts and the percent-encode sets.
PIECES = [
    *"aZ09-._~!$&'()*+,;=:@%/?#\\ ^`{}|[]<>\"\t\né\x00",
    "http://",
    "https://",
    "HTTP://",
    "//",
    "/.",
    "/..",
    "%2e",
    "%2E",
    "xn--",
    "example.com",
    "1.2.3.4",
    "0x1f",
    ":80",
]
URLISH = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
# References shaped like the four the fast path takes, with near misses in each part.
_GOOD = [*"ab-_~;=&:@/?#!'()*+,$", "%20", "x1"]
_NEAR = ["..", "./", "%2e", "%2E", "`", "^", "\\", " ", "é", "{", "|", "\t", "\n", "%", "'"]
SHAPED = st.tuples(
    st.sampled_from(["http://", "https://", "//", "/", "#", "HTTP://", "http:", ""]),
    st.sampled_from(
        ["example.com", "a-b.c9", "xn--a.b", "1.2.3.4", "a.0x1f", "ex_a.com", "A.com", "a..b", ""]
    ),
    st.sampled_from(["/", "", ":80/"]),
    st.one_of(st.lists(st.sampled_from(_GOOD)), st.lists(st.sampled_from(_GOOD + _NEAR))).map(
        "".join
    ),
).map("".join)
BASES = st.sampled_from(
    [BASE, "", "http://a/b/c/d;p?q", "https://u:p@h.example:8443/x/", "http://[::1]/p", "foo:bar"]
)


@given(BASES, URLISH)
@settings(max_examples=500)
@example(BASE, "http://a.b/c")
@example(BASE, "//a.b/c?d#e")
def test_the_fast_path_agrees_with_the_parser(base: str, ref: str) -> None:
    answer = fast(base, ref)
    if answer is not None:
        assert answer == ada(base, ref)


@given(BASES, SHAPED)
@settings(max_examples=1500)
def test_the_fast_path_agrees_with_the_parser_on_its_shapes(base: str, ref: str) -> None:
    # about one case in six is answered by the fast path; the rest go to the parser
    answer = fast(base, ref)
    if answer is not None:
        assert answer == ada(base, ref)
