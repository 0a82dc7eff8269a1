"""Containers: WARC/ARC (containers/warc.py): a cut or damaged .warc.gz keeps what precedes
and reports the loss; a WARC on stdin is streamed."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pytest

from baselinks import InputError, extract_links, iter_links
from baselinks.cli import main
from conftest import FIXTURES

HERE = FIXTURES / "containers"


def _members(path: Path) -> list[bytes]:
    """The gzip members of a per-record .warc.gz, each whole."""
    data = path.read_bytes()
    members, pos = [], 0
    while pos < len(data):
        inflater = zlib.decompressobj(31)
        inflater.decompress(data[pos:])
        end = len(data) - len(inflater.unused_data)
        members.append(data[pos:end])
        pos = end
    return members


def test_cutting_a_warc_gz_anywhere_keeps_what_precedes_and_reports_the_loss() -> None:
    members = _members(HERE / "crawl.warc.gz")
    data = b"".join(members)
    starts = [sum(len(m) for m in members[:i]) for i in range(len(members) + 1)]
    # From 2 bytes on: a lone 0x1f byte is not yet a gzip signature (it is read as text).
    for cut in range(2, len(data), 7):
        errors: list[InputError] = []
        links = {
            (link.document, link.url) for link in iter_links(data[:cut], on_error=errors.append)
        }
        complete = max(i for i, start in enumerate(starts) if start <= cut)
        # every link of the records wholly before the cut is there
        before = (
            {(link.document, link.url) for link in extract_links(b"".join(members[:complete]))}
            if complete
            else set()
        )
        assert before <= links
        # beyond them, only the record the cut falls in (as far as it goes) gives links
        assert len({document for document, _ in links - before}) <= 1
        member = members[complete] if complete < len(members) else b""
        # a cut in the first half of a member loses data: it is always reported, with an offset
        if member and 0 < cut - starts[complete] < len(member) // 2:
            assert errors, cut
            assert all(e.offset is not None for e in errors)


def test_a_truncated_warc_gz_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["extract", str(HERE / "crawl-truncated.warc.gz"), "--format", "text"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out.splitlines()[-1] == "http://example.com/docs/img/a.png"
    errors = captured.err.splitlines()
    assert errors[0] == (
        f"baselinks: {HERE / 'crawl-truncated.warc.gz'}#http://ex: offset 847: "
        "record cut short inside its header, before Content-Length (file truncated?)"
    )
    assert errors[1].endswith(
        "1 document, 4 links; skipped 2 (1 warcinfo record, 1 request record); 1 failed"
    )


def test_library_raises_after_the_last_readable_link() -> None:
    path = HERE / "crawl-truncated.warc.gz"
    seen = []
    with pytest.raises(InputError) as caught:
        for link in iter_links(path):
            seen.append(link.url)
    assert len(seen) == 4
    assert caught.value.offset == 847
    with pytest.raises(InputError) as caught:
        extract_links(path)
    assert [link.url for link in caught.value.links] == seen  # type: ignore[attr-defined]


def test_a_warc_on_stdin_is_streamed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Stdin:
        buffer = io.BufferedReader(io.BytesIO((HERE / "crawl.warc.gz").read_bytes()))  # type: ignore[arg-type]

    monkeypatch.setattr("sys.stdin", Stdin)
    assert main(["extract", "--format", "text", "-q"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 9


# --- issue 29: header blocks within limits; empty lines read in bulk -------------------------

_PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>"


def _record(uri: bytes, extra: bytes = b"", payload: bytes = _PAGE) -> bytes:
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + b"\r\n" + extra
    return head + b"Content-Length: %d\r\n\r\n" % len(payload) + payload + b"\r\n\r\n"


def _gzip(*pieces: bytes) -> bytes:
    """One gzip member of ``pieces`` (compressed as they come: 100 MB of one byte is 100 KB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return b"".join([*(packer.compress(piece) for piece in pieces), packer.flush()])


def _read(data: bytes) -> tuple[list[str], list[InputError]]:
    errors: list[InputError] = []
    links = extract_links(data, name="f", on_error=errors.append)
    return [link.url for link in links], errors


def test_a_header_line_with_no_end_stops_at_the_limit_and_the_next_record_is_read() -> None:
    # issue 29: 100 KB of gzip, a header line of 100 MB with no end: warcio read it whole,
    # with a copy per buffer (353 MB); 400 KB took 1.3 GB
    first, last = _gzip(_record(b"http://e.example/a")), _gzip(_record(b"http://e.example/b"))
    long_line = _gzip(b"WARC/1.0\r\nX-Long: ", b"a" * (1 << 20), b"a" * (4 << 20))
    urls, errors = _read(first + long_line + last)
    assert urls == ["http://e.example/x", "http://e.example/x"]
    assert [(e.offset, e.message) for e in errors] == [
        (
            len(first),
            "cannot read the record: header block larger than 1,048,576 bytes; bytes "
            f"{len(first)}-{len(first) + len(long_line)} skipped, read on from the next record "
            f"at offset {len(first) + len(long_line)}",
        )
    ]


@pytest.mark.parametrize(("lines", "failed"), [(9_990, False), (10_001, True), (200_000, True)])
def test_a_header_block_of_too_many_lines_is_reported_and_the_next_record_read(
    lines: int, failed: bool
) -> None:
    # issue 29: millions of header lines (300 KB of gzip) took 5.3 GB and 204 s, exit 0
    first, last = _gzip(_record(b"http://e.example/a")), _gzip(_record(b"http://e.example/b"))
    many = _gzip(_record(b"http://e.example/m", b"X-Folded: a\r\n" + b" b\r\n" * lines))
    urls, errors = _read(first + many + last)
    assert len(urls) == (2 if failed else 3)
    assert [e.message.split(";")[0] for e in errors] == (
        ["cannot read the record: header block of more than 10,000 lines"] if failed else []
    )


@pytest.mark.parametrize("gzipped", [False, True])
def test_empty_lines_between_records_are_read_in_bulk(gzipped: bool) -> None:
    # issue 29: 20 MiB of empty lines, one readline each: 10 s (44 s on a loaded machine)
    first, last = _record(b"http://e.example/a"), _record(b"http://e.example/b")
    empty = b"\r\n" * (2 << 20) + b"\n" * 1000 + b"\r" * 3 + b"\n"
    data = _gzip(first) + _gzip(empty) + _gzip(last) if gzipped else first + empty + last
    urls, errors = _read(data)
    assert (urls, errors) == (["http://e.example/x"] * 2, [])


def test_a_wrong_length_followed_by_empty_lines_is_still_reported() -> None:
    # the first line after a block is read as warcio reads it: not empty, the length is wrong
    record = _record(b"http://e.example/a", payload=_PAGE + b" tail")
    shorter = record.replace(
        b"Content-Length: %d" % (len(_PAGE) + 5), b"Content-Length: %d" % len(_PAGE)
    )
    urls, errors = _read(shorter + b"\r\n" * 1000 + record)
    assert urls == ["http://e.example/x"] * 2
    assert [e.message for e in errors] == [
        "record not followed by an empty line: its Content-Length is probably wrong"
    ]
