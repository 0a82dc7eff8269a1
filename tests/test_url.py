"""RFC 1808 §2.4 parsing, RFC 1738 §3.1 login, §4 Step 7 recombination."""

from __future__ import annotations

import pickle

import pytest

from baselinks import URLParts, parse, resolve
from baselinks.url.parts import Login, recombine

# (url, scheme, netloc, path, params, query, fragment), each row exercising §2.4's order.
PARSE = [
    ("http://a/b/c/d;p?q#f", "http", "a", "/b/c/d", "p", "q", "f"),
    # §2.4.1 first: the fragment is removed before anything else, so "#" hides a later "?"
    ("g#s?y", "", "", "g", "", "", "s?y"),
    ("g#s:t", "", "", "g", "", "", "s:t"),
    # §2.4.2: a colon "after the first character", scheme characters only before it
    ("g:h", "g", "", "h", "", "", ""),
    (":h", "", "", ":h", "", "", ""),
    ("a_b:c", "", "", "a_b:c", "", "", ""),
    ("1+a.b-c:d", "1+a.b-c", "", "d", "", "", ""),
    ("http:", "http", "", "", "", "", ""),
    # §2.4.3: net_loc up to the next "/"; the §2.2 grammar allows ";" and "?" in it
    ("//g", "", "g", "", "", "", ""),
    ("http://a?q", "http", "a?q", "", "", "", ""),
    ("http://a;p/x", "http", "a;p", "/x", "", "", ""),
    # §2.4.4 before §2.4.5: the query is cut first, so ";" in the query stays there
    ("g?y;x", "", "", "g", "", "y;x", ""),
    ("g;x?y", "", "", "g", "x", "y", ""),
    # §2.4.5: after the first ";", even in a middle segment
    ("/a;x/b;y", "", "", "/a", "x/b;y", "", ""),
    # §2.4.6: the path keeps the slash that precedes it
    ("/g", "", "", "/g", "", "", ""),
    ("", "", "", "", "", "", ""),
]


@pytest.mark.parametrize(("url", "scheme", "netloc", "path", "params", "query", "fragment"), PARSE)
def test_parse_in_the_rfcs_order(
    url: str, scheme: str, netloc: str, path: str, params: str, query: str, fragment: str
) -> None:
    assert parse(url) == (scheme, netloc, path, params, query, fragment)


@pytest.mark.parametrize("url", [row[0] for row in PARSE if row[0] not in ("http://a?q",)])
def test_recombination_gives_back_the_url(url: str) -> None:
    assert str(parse(url)) == url


LOGIN = [
    ("ftp://@host.com/", Login("", None, "host.com", None)),
    ("ftp://host.com/", Login(None, None, "host.com", None)),
    ("ftp://foo:@host.com/", Login("foo", "", "host.com", None)),
    ("ftp://foo:bar@host.com:21/", Login("foo", "bar", "host.com", "21")),
    ("ftp://:pw@host.com/", Login("", "pw", "host.com", None)),
    ("http://host:/", Login(None, None, "host", "")),
    ("http://[::1]:8080/", Login(None, None, "[::1]", "8080")),
    ("http://[::1]/", Login(None, None, "[::1]", None)),
    # RFC 1808 runs the net_loc to the next "/", so the "\\" is in the login: host good.com. A
    # browser (ada-url, the whatwg mode) ends an http authority at "\\" too: host evil.com.
    ("http://evil.com\\@good.com/", Login("evil.com\\", None, "good.com", None)),
    # two "@": the last one ends the login, as the URL Standard's authority state reads it
    ("http://a@b@c/", Login("a@b", None, "c", None)),
    # the first ":" ends the user, and the host ends at the first ":" after the login: host
    # holds no ":" (RFC 1738 §5); check() reports what had to be tolerated
    ("ftp://a:b:c@h/", Login("a", "b:c", "h", None)),
    ("http://host:80:90/", Login(None, None, "host", "80:90")),
    ("http://u:p@host:80:90/", Login("u", "p", "host", "80:90")),
    ("http://[::1]:80:90/", Login(None, None, "[::1]", "80:90")),
    ("http://[::1/", Login(None, None, "[::1", None)),
    ("file:///etc/hosts", Login(None, None, "", None)),
    ("mailto:x@y", Login(None, None, "", None)),
]


@pytest.mark.parametrize(("url", "login"), LOGIN)
def test_login_keeps_absent_apart_from_empty(url: str, login: Login) -> None:
    assert parse(url).login() == login


def test_a_browser_reads_the_backslash_as_the_end_of_the_host() -> None:
    # w3lib's counterexample: the two readings url.login_bounds' docstring sets side by side
    url = "http://evil.com\\@good.com/"
    assert parse(url).login().host == "good.com"
    assert resolve("", url, mode="whatwg") == "http://evil.com/@good.com/"


def test_empty_netloc_that_was_written_survives() -> None:
    parts = parse("file:///usr/share/doc/x.html")
    assert parts.netloc == "" and parts.has_netloc
    assert str(parts) == "file:///usr/share/doc/x.html"
    assert not parse("file:/usr/share").has_netloc
    assert parts != parse("file:/usr/share/doc/x.html")
    assert repr(parts).endswith("netloc_present=True)")
    assert str(parts._replace(path="/b")) == "file:///b"
    assert not parts._replace(netloc="").has_netloc
    assert pickle.loads(pickle.dumps(parts)) == parts
    assert len({parts, parse("file:/usr/share/doc/x.html")}) == 2


def test_urlparts_is_a_six_tuple() -> None:
    scheme, netloc, path, params, query, fragment = parse("http://a/b;p?q#f")
    assert (scheme, netloc, path, params, query, fragment) == ("http", "a", "/b", "p", "q", "f")
    assert URLParts._fields == ("scheme", "netloc", "path", "params", "query", "fragment")
    assert parse("http://a/b") == ("http", "a", "/b", "", "", "")


@pytest.mark.parametrize(
    ("parts", "url"),
    [
        (URLParts("http", "a", "g"), "http://a/g"),  # RFC 1738 §3.1 "/" before the url-path
        (URLParts("http", "a", "", "", "y"), "http://a/?y"),  # else "?y" joins the net_loc
        (URLParts("http", "a", "", "x"), "http://a/;x"),
        (URLParts("http", "a"), "http://a"),
        (URLParts("http", "", "/g"), "http:/g"),
        (URLParts("", "", "g", "", "", "s"), "g#s"),
    ],
)
def test_recombination_rules(parts: URLParts, url: str) -> None:
    assert str(parts) == url


def test_a_path_that_would_read_as_a_netloc_is_written_with_a_dot() -> None:
    # RFC 3986 §3.3: without an authority "the path cannot begin with two slash characters"
    assert recombine("http", "", "//evil/x", "", "", "") == "http:/.//evil/x"
    assert parse("http:/.//evil/x").netloc == ""
    assert str(URLParts("", "", "//x")) == "/.//x"
    assert recombine("http", "a", "//x", "", "", "") == "http://a//x"  # a net_loc: no dot
    assert recombine("file", "", "//x", "", "", "", netloc_present=True) == "file:////x"


def test_recombine_writes_an_empty_netloc_only_when_asked() -> None:
    assert recombine("file", "", "/a", "", "", "") == "file:/a"
    assert recombine("file", "", "/a", "", "", "", netloc_present=True) == "file:///a"
