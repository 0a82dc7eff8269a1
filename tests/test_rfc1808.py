"""RFC 1808 §4 resolution against the RFC's own §5 examples, laid out as §5.1 and §5.2 lay them.

A comment marks each row where ``urllib.parse.urljoin`` answers otherwise: those rows are the
point of this mode, so nobody should "fix" them.
"""

from __future__ import annotations

import pytest

from baselinks import Resolver, explain, parse, resolve
from conftest import suite

BASE = "http://a/b/c/d;p?q#f"  # RFC 1808 §5: "Base: <URL:http://a/b/c/d;p?q#f>"

# RFC 1808 §5.1 Normal Examples
NORMAL = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),  # ada-url: http://g/ (WHATWG adds the root path)
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/d;x"),  # urljoin, RFC 3986, ada-url: http://a/b/c/;x
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 1808 §5.2 Abnormal Examples
ABNORMAL = [
    # "An empty reference resolves to the complete base URL"
    ("", "http://a/b/c/d;p?q#f"),  # RFC 3986, ada-url: drop the base's fragment
    # "Note that the ".." syntax cannot be used to change the <net_loc> of a URL."
    ("../../../g", "http://a/../g"),  # urljoin, RFC 3986, ada-url: http://a/g
    ("../../../../g", "http://a/../../g"),  # urljoin, RFC 3986, ada-url: http://a/g
    # "parsers must avoid treating "." and ".." as special when they are not complete
    # components of a relative path."
    ("/./g", "http://a/./g"),  # urljoin, RFC 3986, ada-url: http://a/g
    ("/../g", "http://a/../g"),  # urljoin, RFC 3986, ada-url: http://a/g
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    # "unnecessary or nonsensical forms of the "." and ".." complete path segments"
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    # "a loophole in prior specifications of partial URLs"
    ("http:g", "http:g"),  # urljoin, ada-url: http://a/b/c/g
    ("http:", "http:"),  # urljoin, ada-url: http://a/b/c/d;p?q
]


@pytest.mark.parametrize(("embedded", "expected"), NORMAL)
def test_normal_examples(embedded: str, expected: str) -> None:
    assert resolve(BASE, embedded) == expected


@pytest.mark.parametrize(("embedded", "expected"), ABNORMAL)
def test_abnormal_examples(embedded: str, expected: str) -> None:
    assert resolve(BASE, embedded) == expected


def test_tables_are_the_rfc_text() -> None:
    """The two tables above are the 39 rows of fixtures/conformance/rfc1808.json, in order."""
    rows = suite("rfc1808")
    assert all(row["base"] == BASE for row in rows)
    assert [(r["ref"], r["expected"]) for r in rows if r["section"] == "5.1"] == NORMAL
    assert [(r["ref"], r["expected"]) for r in rows if r["section"] == "5.2"] == ABNORMAL


# Where RFC 1808 is silent: the decisions written in resolve.py's docstring and docs/reference.md.
DECISIONS = [
    # (a) a net_loc with an empty path: RFC 1738 §3.1 puts "/" between host and url-path
    ("http://a", "g", "http://a/g"),
    ("http://a", "../g", "http://a/../g"),
    ("http://a", "?y", "http://a/?y"),
    ("http://a", ";x", "http://a/;x"),
    ("http://a", "#s", "http://a#s"),
    # ...and it is the directory before Step 6 appends the path, so 6a sees it: "/" + ".//x",
    # then "./" removed, leaves "//x" (the empty segment stays; decision (b))
    ("http://a", ".//x", "http://a//x"),
    # (b) an empty segment is a complete segment, so ".." removes it (Step 6c and 6d)
    ("http://a/b/c", "x//../y", "http://a/b/x/y"),
    ("http://a/b//c", "../g", "http://a/b/g"),
    ("http://a/b/c", "x//..", "http://a/b/x/"),
    # (c) an empty but present net_loc keeps its "//" (RFC 1738 §3.10 file URLs)
    ("file:///a/b", "c", "file:///a/c"),
    ("file:///usr/share/doc/x.html", "../y/z.html", "file:///usr/share/y/z.html"),
    ("file:///a/b", "/etc/hosts", "file:///etc/hosts"),
    ("file:///a/b", "#top", "file:///a/b#top"),
    ("file:///a/b", "?q", "file:///a/b?q"),
    ("file:///a/b", "", "file:///a/b"),
    # (d) "#" alone is not "entirely empty" (Step 2a): the base without its fragment
    ("http://a/b/c/d;p?q#f", "#", "http://a/b/c/d;p?q"),
    # RFC 1808 folds empty into absent: a bare delimiter inherits (Step 5) or vanishes
    ("http://a/b/c/d;p?q#f", "?", "http://a/b/c/d;p?q"),
    ("http://a/b/c/d;p?q#f", "g?", "http://a/b/c/g"),
    # ...and an empty net_loc is absent too, so "///x" inherits the base's (Step 3)
    ("http://a/b/c/d;p?q#f", "///x", "http://a/x"),
    # §2.4.3: the net_loc runs to the next "/" and may hold "?" and ";" (§2.2 grammar)
    ("http://a/b/c/d;p?q#f", "//g?y", "http://g?y"),
    ("http://a?q", "#s", "http://a?q#s"),
    # Step 1: an empty base leaves the embedded URL as written
    ("", "../g", "../g"),
    # A base that is not generic-RL: the algorithm still runs (diagnose reports it)
    ("mailto:joe@example.com", "g", "mailto:g"),
    # Dot segments in the base's own path are removed with the new path's (Step 6)
    ("http://a/b/./c/d", "g", "http://a/b/c/g"),
]


# §5.2: "Note that the ".." syntax cannot be used to change the <net_loc> of a URL." Step 6 can
# leave a path beginning with "//" where neither URL has a net_loc; recombined plainly it would
# be read back (§2.4.3) with net_loc "evil". It is written "/.//" (url.recombine).
NO_NEW_NETLOC = [
    ("http:/b/c", "..//evil/x", "http:/.//evil/x"),
    ("file:/home/u/doc.html", "../..//evil/x", "file:/.//evil/x"),
    ("foo:/b", ".//x", "foo:/.//x"),
    ("http:/b/c", "./..//evil", "http:/.//evil"),
    ("file:///home/u/doc.html", "../..//evil/x", "file:////evil/x"),  # a net_loc: none created
]


@pytest.mark.parametrize("mode", ["rfc1808", "rfc3986"])
@pytest.mark.parametrize(("base", "embedded", "expected"), NO_NEW_NETLOC)
def test_resolution_never_creates_a_netloc(
    base: str, embedded: str, expected: str, mode: str
) -> None:
    result = resolve(base, embedded, mode=mode)
    assert result == expected
    assert parse(result).has_netloc == parse(base).has_netloc


@pytest.mark.parametrize(("base", "embedded", "expected"), DECISIONS)
def test_decisions_where_rfc1808_is_silent(base: str, embedded: str, expected: str) -> None:
    assert resolve(base, embedded) == expected


def test_scheme_compared_case_insensitively_is_still_absolute() -> None:
    # Step 2b: any scheme makes the embedded URL absolute, whatever its case.
    assert resolve(BASE, "HTTP:g") == "HTTP:g"
    assert resolve(BASE, "Mailto:x@y") == "Mailto:x@y"


def test_a_hash_before_the_colon_hides_the_scheme() -> None:
    # §2.4.1 removes the fragment first, so "g#s:t" has no scheme.
    assert resolve(BASE, "g#s:t") == "http://a/b/c/g#s:t"


def test_resolver_parses_the_base_once_and_agrees_with_resolve() -> None:
    resolver = Resolver(BASE)
    assert [resolver.resolve(e) for e, _ in NORMAL + ABNORMAL] == [x for _, x in NORMAL + ABNORMAL]
    assert repr(resolver) == "Resolver('http://a/b/c/d;p?q#f', mode='rfc1808')"


def test_unknown_mode_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown mode 'rfc2396'"):
        resolve(BASE, "g", mode="rfc2396")
    with pytest.raises(ValueError, match="unknown mode"):
        Resolver(BASE, "nope")


STEPS = [
    ("", ["Step 2a"]),
    ("g:h", ["Step 2b"]),
    ("//g", ["Step 2", "Step 2c", "Step 3", "Step 7"]),
    ("/g", ["Step 2", "Step 2c", "Step 3", "Step 4", "Step 7"]),
    (";x", ["Step 2", "Step 2c", "Step 3", "Step 5a", "Step 7"]),
    ("?y", ["Step 2", "Step 2c", "Step 3", "Step 5b", "Step 7"]),
    ("g", ["Step 2", "Step 2c", "Step 3", "Step 6", "Step 7"]),
    ("../g", ["Step 2", "Step 2c", "Step 3", "Step 6", "Step 6a-d", "Step 7"]),
]


@pytest.mark.parametrize(("embedded", "rules"), STEPS)
def test_explain_names_each_step_taken(embedded: str, rules: list[str]) -> None:
    exp = explain(BASE, embedded)
    assert [step.rule for step in exp.steps] == rules
    assert exp.result == resolve(BASE, embedded)


def test_explain_shows_the_components_after_each_step() -> None:
    steps = {step.rule: step.parts for step in explain(BASE, "../g;x?y#s").steps}
    assert steps["Step 3"].netloc == "a"
    assert steps["Step 6"].path == "/b/c/../g"
    assert steps["Step 6a-d"].path == "/b/g"
    assert str(steps["Step 7"]) == "http://a/b/g;x?y#s"
    assert explain("", "g").steps[0].rule == "Step 1"


def test_a_path_of_two_slashes_by_step_4_does_not_become_a_host() -> None:
    # Step 4 passes an absolute path on as written; "//x" after a base without a net_loc
    # would read back as the host x (decision (e), found in issue 17's review)
    assert resolve("http:/b/c", "////x") == "http:/.//x"
    assert explain("http:/b/c", "////x").result == "http:/.//x"
    assert resolve("http://a/b", "////x") == "http://a//x"  # a net_loc: nothing to protect
