"""Problem codes: each fires on the input it names and stays quiet on its near miss."""

from __future__ import annotations

import importlib
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from baselinks import CODES, MODES, diagnose, resolve
from baselinks.url.diagnose import _KNOWN_SCHEMES
from baselinks.url.parts import split
from baselinks.url.rfc1738 import CODES as RFC1738_CODES
from baselinks.url.rfc1738 import analyse

BASE = "http://a/b/c/d;p?q#f"

CASES = [
    # (base, embedded, expected codes)
    (BASE, "g", ()),
    ("", "g", ("no-base",)),
    ("", "http://x/", ()),
    ("", "", ()),
    # the reference as written (invalid-character), then the resolved URL's hpath (RFC 1738 §5)
    (BASE, "a b", ("invalid-character", "path-character")),
    (BASE, "caf\u00e9", ("invalid-character", "path-character")),
    (BASE, "x\x01", ("invalid-character", "control-character", "path-character")),
    # from the base: the reference is clean
    ("http://a/b\x1b[2J/", "g", ("control-character", "path-character")),
    (BASE, "x\u2028", ("invalid-character", "control-character", "path-character")),
    # a no-break space is no line separator
    (BASE, "x\u00a0", ("invalid-character", "path-character")),
    *[(BASE, f"x{c}y", ("invalid-character", "path-character")) for c in '<>"{}|\\^`'],
    # RFC 3986 unreserved "~" and IPv6 brackets are not invalid-character; RFC 1738's hsegment
    # (uchar) still excludes them: "~", "[", "]" are "national", unsafe (RFC 1738 §2.2)
    (BASE, "~user/[x]", ("path-character",)),
    (BASE, "100%", ("bad-escape", "path-character")),
    (BASE, "%zz", ("bad-escape", "path-character")),
    (BASE, "%2", ("bad-escape", "path-character")),
    (BASE, "%2F%2f", ()),
    # no "//" after "http:": httpurl = "http://" hostport ... (RFC 1738 §5)
    (BASE, "http:g", ("scheme-relative-loophole", "missing-double-slash")),
    (BASE, "HTTP:g", ("scheme-relative-loophole", "missing-double-slash")),  # case-ignore
    (BASE, "http:", ("scheme-relative-loophole", "missing-double-slash")),
    (BASE, "http:/g", ("scheme-relative-loophole", "missing-double-slash")),
    (BASE, "http://g", ()),
    (BASE, "ftp:g", ("missing-double-slash",)),
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
    # (the segment with the space is gone from the result: http://a/../../g)
    (BASE, "a b/../../../../g", ("invalid-character", "dot-segments-above-root")),
    # only a ".." that really goes above the root: Step 4 leaves "/g/../h" as written, but its
    # ".." stays below the root; a relative path ("ftp:../x", "../g" with no base) has no root
    (BASE, "/g/../h", ()),
    (BASE, "/./g", ()),
    (BASE, "ftp:../x", ("missing-double-slash",)),
    ("", "../g", ("no-base",)),
    ("", "http://a/b/../../g", ("dot-segments-above-root",)),
    # RFC 1808 §5.3's own example: "this" is no scheme any registry knows
    (BASE, "this:that", ("colon-in-first-segment",)),
    (BASE, "mailto:x@y", ()),
    (BASE, "javascript:void(0)", ()),
    (BASE, "this://that/", ()),  # "//" after the colon: written as a scheme
    # a path that would read back as a net_loc (url.recombine writes it "/.//")
    ("http:/b/c", "..//evil/x", ("path-as-netloc", "missing-double-slash")),
    ("file:/home/u/doc.html", "../..//evil/x", ("path-as-netloc", "missing-double-slash")),
    ("foo:/b", ".//x", ("path-as-netloc",)),
    ("http://a", ".//x", ()),  # decision (a): the net_loc is there, nothing is created
    # RFC 1808 §2.3: "The following schemes are never used with relative URLs: ... telnet"
    ("telnet://host/", "g", ("unsuitable-base", "telnet-path")),
    ("telnet://host/", "telnet://other", ()),
    # RFC 1738 on the resolved URL
    (BASE, "//user:pw@host/", ("user-not-allowed",)),
    (BASE, "//host:80:90/", ("invalid-port",)),
    ("ftp://h/d/", "f;type=x", ("invalid-ftptype",)),
]

# The rows whose result is the same in every mode, with the same codes.
EVERY_MODE = [
    (BASE, "//user:pw@host/", ("user-not-allowed",)),
    (BASE, "//ho_st/", ("invalid-hostname",)),
    (BASE, "//a..b/", ("invalid-hostname",)),
    (BASE, "g?a=/b", ("search-character",)),
    ("http:/b/c", "..//evil/x", ("path-as-netloc", "missing-double-slash")),
    ("foo:/b", ".//x", ("path-as-netloc",)),
    ("", "mailto:", ("empty-mailto",)),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("base", "embedded", "codes"), EVERY_MODE)
def test_codes_in_every_mode(base: str, embedded: str, codes: tuple[str, ...], mode: str) -> None:
    if mode == "whatwg" and base.startswith("http:/b"):
        base = "foo:/b/c"  # the URL Standard reads "http:/b/c" as http://b/c
    result = resolve(base, embedded, mode=mode)
    if mode == "whatwg" and base == "foo:/b/c":
        codes = ("path-as-netloc",)
    assert diagnose(base, embedded, result) == codes


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
        "path-as-netloc",
        "control-character",
        *RFC1738_CODES,
        "saved-copy",  # given by api from the disk, after diagnose (tests/test_saved.py)
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
        "telnet",
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
        if not re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", embedded) or (
            netloc is None and scheme.lower() not in _KNOWN_SCHEMES
        ):
            found.add("colon-in-first-segment")
    else:
        if ":" in path.split("/", 1)[0]:
            found.add("colon-in-first-segment")
        if embedded and not base:
            found.add("no-base")
        elif base and opaque_base:
            found.add("unsuitable-base")
    if result is not None:
        _, result_netloc, result_path, _, _, _ = split(result)
        if result_path.startswith("/"):
            # "<segment>/.." pairs cancelled until none is left: a ".." left first is above
            segments = [s for s in result_path.split("/")[1:] if s != "."]
            pairs = True
            while pairs:
                pairs = False
                for i in range(len(segments) - 1):
                    if segments[i] != ".." and segments[i + 1] == "..":
                        del segments[i : i + 2]
                        pairs = True
                        break
            if segments[:1] == [".."]:
                found.add("dot-segments-above-root")
        if any(unicodedata.category(c) == "Cc" or c in "\u2028\u2029" for c in result):
            found.add("control-character")
        if result_netloc is None and result_path.startswith("/.//"):
            found.add("path-as-netloc")
        # analyse() is the slow path of rfc1738.codes(): the fast path must agree with it
        found |= {problem.code for problem in analyse(result).problems}
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


# Absolute http(s) references, which diagnose answers at once when the resolver leaves them
# as they are and rfc1738.FAST vouches for them: each character that could add a code beside.
_HTTPISH = st.lists(
    st.sampled_from(
        [
            "http://",
            "https://",
            "HTTP://",
            "a",
            "b.c",
            "/",
            "..",
            ".",
            "%",
            "%2F",
            "#",
            "?",
            ":",
            "@",
            " ",
            "\x1b",
            "\u2028",
            "é",
            "~",
            "/.//",
            ";",
            "|",
        ]
    ),
    max_size=10,
).map("".join)


@given(
    base=st.sampled_from(["", BASE, "http:", "https://x/y", "mailto:x"]),
    embedded=st.one_of(_HTTPISH, _HTTPISH.map(lambda text: "http://" + text)),
    resolvable=st.booleans(),
)
@example(base=BASE, embedded="http://a/b", resolvable=True)
@example(base=BASE, embedded="http://a/../b", resolvable=True)
@example(base=BASE, embedded="http://a/%zz", resolvable=True)
@example(base=BASE, embedded="http://a/b#\x1b", resolvable=True)
@example(base=BASE, embedded="http://a/.//b", resolvable=True)
def test_the_well_formed_http_shortcut_agrees_with_a_literal_reading(
    base: str, embedded: str, resolvable: bool
) -> None:
    result = resolve(base, embedded) if resolvable else None
    assert diagnose(base, embedded, result) == _literal_diagnose(base, embedded, result)


def test_every_code_is_documented() -> None:
    reference = Path(__file__).resolve().parents[1] / "docs" / "reference.md"
    section = reference.read_text(encoding="utf-8").split("## Problem codes", 1)[1]
    section = section.split("\n## Decoding", 1)[0]  # with "RFC 1738 rules checked"
    assert [code for code in CODES if f"`{code}`" not in section] == []


def test_the_table_in_diagnose_lists_every_code_in_order() -> None:
    table = importlib.import_module("baselinks.url.diagnose").__doc__ or ""
    missing = [code for code in CODES if f"``{code}``" not in table]
    assert missing == []
    places = [table.index(f"``{code}``") for code in CODES]
    assert places == sorted(places)


def test_control_characters_are_never_printable() -> None:
    # diagnose asks str.isprintable() before CONTROL_CHARACTERS.search: only right while no
    # character of the class is printable
    from baselinks.url.diagnose import CONTROL_CHARACTERS

    assert not [
        c for c in map(chr, range(0x110000)) if CONTROL_CHARACTERS.match(c) and c.isprintable()
    ]
