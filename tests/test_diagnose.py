"""Problem codes: each fires on the input it names and stays quiet on its near miss."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselinks import CODES, diagnose, resolve
from baselinks.url import split

BASE = "http://a/b/c/d;p?q#f"

CASES = [
    # (base, embedded, expected codes)
    (BASE, "g", ()),
    ("", "g", ("no-base",)),
    ("", "http://x/", ()),
    ("", "", ()),
    (BASE, "a b", ("invalid-character",)),
    (BASE, "caf\u00e9", ("invalid-character",)),
    (BASE, "x\x01", ("invalid-character", "control-character")),
    ("http://a/b\x1b[2J/", "g", ("control-character",)),  # from the base: the reference is clean
    (BASE, "x\u2028", ("invalid-character", "control-character")),
    (BASE, "x\u00a0", ("invalid-character",)),  # a no-break space is no line separator
    *[(BASE, f"x{c}y", ("invalid-character",)) for c in '<>"{}|\\^`'],
    (BASE, "~user/[x]", ()),  # RFC 3986 unreserved "~" and IPv6 brackets are not flagged
    (BASE, "100%", ("bad-escape",)),
    (BASE, "%zz", ("bad-escape",)),
    (BASE, "%2", ("bad-escape",)),
    (BASE, "%2F%2f", ()),
    (BASE, "http:g", ("scheme-relative-loophole",)),
    (BASE, "HTTP:g", ("scheme-relative-loophole",)),  # RFC 1738 §5: case-ignore
    (BASE, "http:", ("scheme-relative-loophole",)),
    (BASE, "http:/g", ("scheme-relative-loophole",)),
    (BASE, "http://g", ()),
    (BASE, "ftp:g", ()),
    (BASE, "a_b:c", ("colon-in-first-segment",)),
    (BASE, ":x", ("colon-in-first-segment",)),
    (BASE, "1a:b", ("colon-in-first-segment",)),
    (BASE, "./this:that", ()),
    (BASE, "g/h:i", ()),
    ("mailto:joe@example.com", "g", ("unsuitable-base",)),
    ("news:comp.infosystems.www", "g", ("unsuitable-base",)),
    ("DATA:text/plain,x", "g", ("unsuitable-base",)),
    ("foo:bar", "g", ("unsuitable-base",)),
    ("mailto:joe@example.com", "http://x/", ()),
    ("file:///a/b", "g", ()),
    (BASE, "../../../g", ("dot-segments-above-root",)),
    (BASE, "/../g", ("dot-segments-above-root",)),
    (BASE, "../../g", ()),
    (BASE, "..g", ()),
    (BASE, "a b/../../../../g", ("invalid-character", "dot-segments-above-root")),
]


@pytest.mark.parametrize(("base", "embedded", "codes"), CASES)
def test_codes(base: str, embedded: str, codes: tuple[str, ...]) -> None:
    assert diagnose(base, embedded, resolve(base, embedded)) == codes


def test_unresolvable_when_the_resolver_failed() -> None:
    assert diagnose("http://a/", "http://[bad", None) == ("unresolvable",)


def test_codes_come_in_a_stable_order() -> None:
    assert diagnose("", "a b%", None) == (
        "no-base",
        "unresolvable",
        "invalid-character",
        "bad-escape",
    )
    assert list(CODES) == [
        "no-base",
        "unresolvable",
        "invalid-character",
        "bad-escape",
        "scheme-relative-loophole",
        "colon-in-first-segment",
        "unsuitable-base",
        "dot-segments-above-root",
        "control-character",
    ]


def _literal_diagnose(base: str, embedded: str, result: str | None) -> tuple[str, ...]:
    """The table in diagnose.py read literally: every URL split by RFC 1808 §2.4 first."""
    found: set[str] = set()
    if result is None:
        found.add("unresolvable")
    if re.search(r'[\x00-\x20\x7f-\U0010ffff<>"{}|\\^`]', embedded):
        found.add("invalid-character")
    if re.search(r"%(?![0-9A-Fa-f]{2})", embedded):
        found.add("bad-escape")
    base_scheme, _, base_path, _, _, _ = split(base)
    base_netloc = split(base)[1]
    opaque_base = base_scheme.lower() in {
        "mailto",
        "news",
        "data",
        "javascript",
        "urn",
        "tel",
        "sms",
        "about",
        "cid",
        "mid",
        "blob",
    } or (bool(base_scheme) and base_netloc is None and not base_path.startswith("/"))
    scheme, netloc, path, _, _, _ = split(embedded)
    if scheme:
        if netloc is None and base and scheme.lower() == base_scheme.lower():
            found.add("scheme-relative-loophole")
        if not re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", embedded):
            found.add("colon-in-first-segment")
    else:
        if ":" in path.split("/", 1)[0]:
            found.add("colon-in-first-segment")
        if embedded and not base:
            found.add("no-base")
        elif base and opaque_base:
            found.add("unsuitable-base")
    if result and ".." in split(result)[2].split("/"):
        found.add("dot-segments-above-root")
    if result and any(unicodedata.category(c) == "Cc" or c in "\u2028\u2029" for c in result):
        found.add("control-character")
    return tuple(code for code in CODES if code in found)


_URLISH = st.text(alphabet="ab:/?#;.%2F@[] é\n\x1b\x7f\x85\u2028", max_size=14)


@given(
    base=st.sampled_from(
        ["", BASE, "http:", "mailto:x", "foo:bar", "file:///a/b", "HTTP://A", "http://a/\x1b/"]
    ),
    embedded=_URLISH,
    resolvable=st.booleans(),
)
def test_the_fast_tests_agree_with_a_literal_reading(
    base: str, embedded: str, resolvable: bool
) -> None:
    result = resolve(base, embedded) if resolvable else None
    assert diagnose(base, embedded, result) == _literal_diagnose(base, embedded, result)
