"""HTML encoding sniffing: BOM, transport, the <meta> prescan, UTF-8 detection, default."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.load.encoding import decode, prescan, prescan_reference

PRESCAN = [
    (b'<meta charset="utf-8">', "utf-8"),
    (b"<meta charset=iso-8859-1>", "windows-1252"),  # WHATWG: latin1 labels mean windows-1252
    (b"<META CHARSET='Shift_JIS'>", "shift_jis"),
    (b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', "koi8-r"),
    (b'<meta content="text/html; charset=koi8-r" http-equiv="content-type">', "koi8-r"),
    (b'<meta content="text/html; charset=koi8-r">', None),  # content without the pragma
    (b"<meta charset=utf-16le>", "utf-8"),  # an ASCII declaration cannot mean UTF-16
    (b"<meta charset=x-user-defined>", "windows-1252"),
    (b"<meta charset=bogus><meta charset=big5>", "big5"),  # unknown label: keep scanning
    (b"<!-- <meta charset=big5> --><meta charset=euc-kr>", "euc-kr"),  # comments skipped
    (b'<p title="<meta charset=big5>"><meta charset=gbk>', "gbk"),  # attribute values skipped
    (b"<metax charset=big5>", None),
    (b" " * 1020 + b"<meta charset=big5>", None),  # beyond the first 1024 bytes
    (b"<meta charset=", None),
    (b"<meta charset=big5", None),  # the 1024 bytes end inside the tag
    (b'<a b= "x><meta charset=big5>', None),  # the quote runs to the end: all in one value
    (b"<a b=><meta charset=big5>", "big5"),
    (b"<!--><meta charset=big5>-->", "big5"),  # "<!-->" is a whole comment
    (b"<!---><meta charset=big5>-->", "big5"),  # and so is "<!--->"
    (b"</ <meta charset=big5>><meta charset=gbk>", "gbk"),  # "</ " starts a bogus comment
    (b"<meta name=viewport content=width=device-width><meta charset=big5>", "big5"),
    (b'<meta charset="big5"x=y>', "big5"),
    (b"<meta charset = big5 >", "big5"),
    (b"", None),
]


@pytest.mark.parametrize(("data", "encoding"), PRESCAN)
def test_prescan(data: bytes, encoding: str | None) -> None:
    assert prescan(data) == encoding
    assert prescan_reference(data) == encoding


# The fast prescan (an expression over what the loop passes over, and over each attribute)
# against the standard's byte-by-byte steps (prescan_reference), where they could part: tags
# and their attributes in every form, quotes that do not close, comments and bogus comments,
# "=", "/" and ">" in odd places, the 1024 bytes ending anywhere.
_OPENINGS = [b"<meta ", b"<META/", b"<p ", b"</a ", b"<metax ", b"<!", b"<?", b"<", b"</"]
_NAMES = [b"charset", b"content", b"http-equiv", b"a", b"=", b"/"]
_VALUES = [b"big5", b"content-type", b"charset=koi8-r", b"", b">", b"a b"]
_FORMS = [b"", b"=%s", b" = %s", b'="%s"', b"='%s'", b'="%s', b"= '%s", b"=%s>"]
_AFTER = [b" ", b"", b"/", b"\t"]
_ENDS = [b">", b"/>", b"", b"\"'>"]


def _attribute(name: bytes, form: bytes, value: bytes, after: bytes) -> bytes:
    return name + (form % value if b"%" in form else form) + after


def test_fast_prescan_agrees_on_every_tag_of_one_attribute() -> None:
    for opening, name, form, value, after, end in itertools.product(
        _OPENINGS, _NAMES, _FORMS, _VALUES, _AFTER, _ENDS
    ):
        tag = opening + _attribute(name, form, value, after) + end
        for data in (tag + b"<meta charset=gbk>", b" " * (1024 - len(tag)) + tag):
            assert prescan(data) == prescan_reference(data), data


@st.composite
def _tag(draw: st.DrawFn) -> bytes:

    def pick(choices: list[bytes]) -> bytes:
        return draw(st.sampled_from(choices))

    attributes = [
        _attribute(pick(_NAMES), pick(_FORMS), pick(_VALUES), pick(_AFTER))
        for _ in range(draw(st.integers(0, 3)))
    ]
    return pick(_OPENINGS) + b"".join(attributes) + pick(_ENDS)


_TEXT = [b"x", b"<!--", b"-->", b"<!-->", b"--", b"<meta charset=gbk>", b" " * 300, b"\xff"]


@settings(max_examples=100)
@given(st.lists(st.one_of(_tag(), st.sampled_from(_TEXT)), max_size=8))
def test_fast_prescan_agrees_with_the_standards_steps(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    for end in range(len(data) + 1):  # the head ending anywhere, inside a tag or a comment too
        assert prescan(data[:end]) == prescan_reference(data[:end])


@settings(max_examples=200)
@given(st.binary(max_size=80), st.binary(max_size=80))
def test_fast_prescan_agrees_on_any_bytes(before: bytes, after: bytes) -> None:
    data = before + b"<meta " + after + b"<meta charset=big5>"
    assert prescan(data) == prescan_reference(data)


@pytest.mark.parametrize(
    ("data", "transport", "text", "encoding", "source"),
    [
        (b"\xef\xbb\xbfcaf\xc3\xa9", "windows-1252", "café", "utf-8", "bom"),  # BOM beats transport
        (b"\xff\xfec\x00a\x00f\x00\xe9\x00", None, "café", "utf-16le", "bom"),
        (b"\xfe\xff\x00c\x00a\x00f\x00\xe9", None, "café", "utf-16be", "bom"),
        (
            b"<meta charset=utf-8>caf\xe9",
            "iso-8859-1",
            "<meta charset=utf-8>café",
            "windows-1252",
            "transport",
        ),
        (
            b"<meta charset=utf-8>caf\xe9",
            "no-such-charset",
            "<meta charset=utf-8>caf\ufffd",
            "utf-8",
            "meta",
        ),
        (b"caf\xc3\xa9", None, "café", "utf-8", "utf-8-detected"),
        (b"caf\xe9", None, "café", "windows-1252", "default"),
        (b"\x80", None, "€", "windows-1252", "default"),
        (b"", None, "", "utf-8", "utf-8-detected"),
    ],
)
def test_decode(data: bytes, transport: str | None, text: str, encoding: str, source: str) -> None:
    assert tuple(decode(data, transport)) == (text, encoding, source)
