"""HTML encoding sniffing: BOM, transport, the <meta> prescan, UTF-8 detection, default."""

from __future__ import annotations

import pytest

from baselinks.encoding import decode, prescan

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
    (b"", None),
]


@pytest.mark.parametrize(("data", "encoding"), PRESCAN)
def test_prescan(data: bytes, encoding: str | None) -> None:
    assert prescan(data) == encoding


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
