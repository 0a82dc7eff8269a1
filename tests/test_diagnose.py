"""Problem codes: each fires on the input it names and stays quiet on its near miss."""

from __future__ import annotations

import pytest

from baselinks import CODES, diagnose, resolve

BASE = "http://a/b/c/d;p?q#f"

CASES = [
    # (base, embedded, expected codes)
    (BASE, "g", ()),
    ("", "g", ("no-base",)),
    ("", "http://x/", ()),
    ("", "", ()),
    (BASE, "a b", ("invalid-character",)),
    (BASE, "caf\u00e9", ("invalid-character",)),
    (BASE, "x\x01", ("invalid-character",)),
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
    ]
