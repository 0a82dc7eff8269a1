"""The rfc3986 mode: RFC 3986 §5.4 examples, §5.2.4's own walk-throughs, and other suites.

Each row that another suite expects differently is a strict xfail naming why: those suites
normalise, follow RFC 2396, or take the non-strict option of §5.2.2.
"""

from __future__ import annotations

from typing import Any

import pytest

from baselinks import resolve
from baselinks.url.rfc3986 import parse, recompose, remove_dot_segments
from conftest import suite


def _cases(name: str, known: dict[str, str], rows: list[dict[str, Any]] | None = None) -> list[Any]:
    rows = suite(name) if rows is None else rows
    params = []
    for row in rows:
        marks = (
            [pytest.mark.xfail(strict=True, reason=known[row["id"]])] if row["id"] in known else []
        )
        params.append(
            pytest.param(row["base"], row["ref"], row["expected"], id=row["id"], marks=marks)
        )
    assert set(known) <= {row["id"] for row in rows}, "a known deviation names a row that is gone"
    return params


@pytest.mark.parametrize(("base", "ref", "expected"), _cases("rfc3986", {}))
def test_rfc3986_section_5_4(base: str, ref: str, expected: str) -> None:
    assert resolve(base, ref, mode="rfc3986") == expected


def test_rfc3986_suite_is_complete() -> None:
    assert len(suite("rfc3986")) == 42
    assert resolve("http://a/b/c/d;p?q", "http:g", mode="rfc3986") == "http:g"  # strict


# RFC 3986 §5.2.4 walks two inputs through the algorithm step by step.
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("", ""),
        ("/.", "/"),
        ("/..", "/"),
        ("../../x", "x"),
        ("/a/b/..", "/a/"),
        ("a//../b", "a/b"),
        (".", ""),
        ("..", ""),
    ],
)
def test_remove_dot_segments(path: str, expected: str) -> None:
    assert remove_dot_segments(path) == expected


def test_components_keep_defined_but_empty_apart_from_undefined() -> None:
    assert parse("g?") == (None, None, "g", "", None)
    assert recompose(parse("http://a/b?#")) == "http://a/b?#"
    assert resolve("http://a/b/c/d;p?q", "g?", mode="rfc3986") == "http://a/b/c/g?"
    assert resolve("http://a/b/c/d;p?q", "?", mode="rfc3986") == "http://a/b/c/d;p?"


def test_scheme_must_start_with_a_letter() -> None:
    # §3.1: "1a:b" and "a_b:c" are not schemes, so these are relative paths.
    assert resolve("http://a/b/c", "a_b:c", mode="rfc3986") == "http://a/b/a_b:c"
    assert resolve("http://a/b/c", "1a:b", mode="rfc3986") == "http://a/b/1a:b"


def test_empty_base_leaves_relative_references_alone() -> None:
    assert resolve("", "../g", mode="rfc3986") == "../g"
    assert resolve("", "http://a/./b/../c", mode="rfc3986") == "http://a/c"


_GO: dict[str, str] = {}

_RUBY_BASE_NORMALISED = (
    "URI::Generic#merge removes dot segments from the base path before merging; RFC 3986 §5.2.3 "
    "merges the base path as it is, so a final '..' segment is dropped as the last segment"
)
_RUBY = {f"ruby-0{n}": _RUBY_BASE_NORMALISED for n in range(59, 64)}

_APACHE_2396 = (
    "java.net.URI follows RFC 2396: leading '..' and '.' segments are kept above the root"
)
_APACHE_ABSOLUTE = (
    "java.net.URI leaves an absolute reference's path as written; RFC 3986 removes its dot segments"
)
_APACHE = {
    "httpclient-006": "URIUtils.resolve adds '/' to an empty path after an authority (normalisation)",
    "httpclient-025": _APACHE_2396,
    "httpclient-026": _APACHE_2396,
    "httpclient-027": _APACHE_2396,
    "httpclient-028": _APACHE_2396,
    "httpclient-044": _APACHE_ABSOLUTE,
    "httpclient-045": _APACHE_ABSOLUTE,
    "httpclient-046": _APACHE_ABSOLUTE + ", and lower-cases the scheme",
}


@pytest.mark.parametrize(("base", "ref", "expected"), _cases("go_net_url", _GO))
def test_go_net_url(base: str, ref: str, expected: str) -> None:
    assert resolve(base, ref, mode="rfc3986") == expected


@pytest.mark.parametrize(("base", "ref", "expected"), _cases("ruby_uri", _RUBY))
def test_ruby_uri(base: str, ref: str, expected: str) -> None:
    assert resolve(base, ref, mode="rfc3986") == expected


@pytest.mark.parametrize(("base", "ref", "expected"), _cases("apache_httpclient_uriutils", _APACHE))
def test_apache_httpclient(base: str, ref: str, expected: str) -> None:
    assert resolve(base, ref, mode="rfc3986") == expected


_CPYTHON_RFC3986_ROWS = [r for r in suite("urlparse_join") if r["test"] == "test_RFC3986"]
_CPYTHON = {
    r[
        "id"
    ]: "CPython's test_RFC3986 asserts the non-strict reading of §5.2.2 (http:g -> http://a/b/c/g)"
    for r in _CPYTHON_RFC3986_ROWS
    if r["ref"] == "http:g" and r["expected"] != "http:g"
}


@pytest.mark.parametrize(
    ("base", "ref", "expected"), _cases("urlparse_join", _CPYTHON, _CPYTHON_RFC3986_ROWS)
)
def test_cpython_rfc3986_rows(base: str, ref: str, expected: str) -> None:
    assert resolve(base, ref, mode="rfc3986") == expected
