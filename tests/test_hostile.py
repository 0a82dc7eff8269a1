"""Hostile inputs: each case runs through the library and the CLI, and its outcome is exact.

(Issue 7's battery, begun: the cases below are the ones whose behaviour is settled.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from baselinks import InputError, Summary, extract_links
from baselinks.cli import main

URL = "http://e.example/dir/page.html"


def _library(data: bytes, **options: object) -> tuple[list[str], list[str], Summary]:
    errors: list[InputError] = []
    summary = Summary()
    links = extract_links(data, url=URL, on_error=errors.append, summary=summary, **options)
    return [link.url for link in links], [str(e) for e in errors], summary


def _cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes
) -> tuple[int, list[str], list[str]]:
    path = tmp_path / name
    path.write_bytes(data)
    status = main(["extract", "--format", "text", "--url", URL, str(path)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


DEEP = b'<a href="before.html">b</a>' + b"<div>" * 3000 + b'<a href="deep.html">d</a>'

# (case, bytes, links, error fragments (one per error), exit status)
CASES = [
    ("empty", b"", [], [], 0),
    (
        "nul-bytes",
        b'<a href="a\x00b.html">x</a>\x00<a href="c.html">',
        ["http://e.example/dir/a\ufffdb.html", "http://e.example/dir/c.html"],
        [],
        0,
    ),
    (
        "invalid-utf8",
        b'<a href="caf\xe9.html">\xff\xfe</a>',
        ["http://e.example/dir/caf\u00e9.html"],  # windows-1252, as a browser would
        [],
        0,
    ),
    (
        "utf16-bom",
        b"\xff\xfe" + '<a href="x.html">x</a>'.encode("utf-16-le"),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    (
        "utf16le-no-bom",
        '<a href="x.html">x</a>'.encode("utf-16-le"),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    (
        "utf16be-no-bom",
        '<a href="x.html">x</a>'.encode("utf-16-be"),
        ["http://e.example/dir/x.html"],
        [],
        0,
    ),
    (
        "nested-3000-deep",
        DEEP,
        ["http://e.example/dir/before.html"],
        ["elements nested deeper than libxml2's limit at line 1: the rest of the document"],
        1,
    ),
    (
        "javascript-base",
        b'<base href="javascript:alert(1)"><a href="x">',
        ["http://e.example/dir/x"],  # refused as a base: the retrieval URL stands
        [],
        0,
    ),
    (
        "data-base",
        b'<base href="data:text/html,x"><a href="x">',
        ["http://e.example/dir/x"],
        [],
        0,
    ),
    (
        "bad-host-base",
        b'<base href="http://[bad/"><a href="x">',
        ["http://[bad/x"],  # RFC 1808 does not parse hosts: the base stands, as written
        [],
        0,
    ),
    ("png-named-html", b"\x89PNG\r\n\x1a\n" + bytes(64), [], ["not a document: PNG image"], 1),
]


@pytest.mark.parametrize(
    ("data", "links", "errors", "status"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_library_and_cli(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: bytes,
    links: list[str],
    errors: list[str],
    status: int,
) -> None:
    found, reported, summary = _library(data)
    assert found == links
    assert len(reported) == len(errors)
    for line, fragment in zip(reported, errors, strict=True):
        assert fragment in line
    assert summary.failed == len(errors)

    code, out, err = _cli(tmp_path, capsys, "page.html", data)
    assert code == status
    assert out == links
    assert len(err) == len(errors) + 1  # one line per error, then the summary
    for line, fragment in zip(err[:-1], errors, strict=True):
        assert line.startswith(f"baselinks: {tmp_path / 'page.html'}") and fragment in line
    assert err[-1].endswith(f"; {len(errors)} failed")


def test_utf16_without_bom_is_told_from_utf8_with_nuls() -> None:
    from baselinks.encoding import decode

    assert decode("<p>é</p>".encode("utf-16-le")).source == "utf-16-detected"
    assert decode(b"<p>plain</p>").source == "utf-8-detected"
    assert decode(b"<p>\x00x\x00</p>").source == "utf-8-detected"  # a few NULs are not UTF-16
