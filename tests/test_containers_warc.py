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
        "1 document, 5 links; skipped 2 (1 warcinfo record, 1 request record); 1 failed"
    )


def test_library_raises_after_the_last_readable_link() -> None:
    path = HERE / "crawl-truncated.warc.gz"
    seen = []
    with pytest.raises(InputError) as caught:
        for link in iter_links(path):
            seen.append(link.url)
    assert len(seen) == 5
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
    assert len(capsys.readouterr().out.splitlines()) == 10


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


# --- issue 36: the oversize rule (warcrecord.py) ----------------------------------------------


def _oversize(uri: bytes, size: int, content_type: bytes = b"text/html") -> tuple[bytes, ...]:
    """A response record whose block is ``size`` bytes of NULs after its HTTP head, as pieces
    (for _gzip: a gigabyte of NULs is a megabyte of gzip)."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type + b"\r\n\r\n"
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + b"\r\n"
    head += b"Content-Length: %d\r\n\r\n" % (len(http) + size)
    chunk = bytes(1 << 20)
    return (head + http, *([chunk] * (size >> 20)), bytes(size & 0xFFFFF), b"\r\n\r\n")


@pytest.fixture
def inflated(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes the WARC reader's gzip decompressor gives, call by call."""
    from baselinks.load.containers import warcreader

    counted: list[int] = []
    real = warcreader._Reader._decompress

    def counting(self: object, data: bytes) -> bytes:
        out = real(self, data)  # type: ignore[arg-type]
        counted.append(len(out))
        return out

    monkeypatch.setattr(warcreader._Reader, "_decompress", counting)
    return counted


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    """MAX_RECORD_BYTES at 1 MiB, and the member limit at 32 MiB (past what one block of 16
    KiB of gzip inflates to): a test of the rule inflates megabytes, not the 256 MiB the real
    limit takes."""
    from baselinks.load.containers import warcreader, warcrecord

    monkeypatch.setattr(warcrecord, "MAX_RECORD_BYTES", 1 << 20)
    monkeypatch.setattr(warcreader, "MAX_MEMBER_BYTES", 32 << 20)
    return 1 << 20


def test_an_oversize_record_is_not_inflated_and_the_next_is_read(
    small_limit: int, inflated: list[int]
) -> None:
    # issue 36: a record over the limit was refused, but warcio inflated it to its end to find
    # the next record (gzip inside gzip: 20 KB of file, a 12 GiB record, 20 s of CPU). Its
    # block is now not read past its head: the next gzip member is found in the compressed
    # bytes, and nothing of the 64 MiB of NULs is inflated
    first, last = _gzip(_record(b"http://e.example/a")), _gzip(_record(b"http://e.example/b"))
    big = _gzip(*_oversize(b"http://e.example/big", 64 << 20))
    urls, errors = _read(first + big + last)
    assert urls == ["http://e.example/x", "http://e.example/x"]
    assert [(e.name, e.offset, e.message) for e in errors] == [
        ("f#http://e.example/big", len(first), f"record larger than {small_limit} bytes: not read")
    ]
    assert sum(inflated) < 20 << 20  # one block of 16 KiB of gzip at most (was 64 MiB)


def test_an_oversize_record_that_holds_no_document_is_skipped_unread(
    small_limit: int, inflated: list[int]
) -> None:
    from baselinks import Summary

    big = _gzip(*_oversize(b"http://e.example/video", 64 << 20, b"video/mp4"))
    last = _gzip(_record(b"http://e.example/b"))
    summary = Summary()
    errors: list[InputError] = []
    links = extract_links(big + last, name="f", on_error=errors.append, summary=summary)
    assert ([link.url for link in links], errors) == (["http://e.example/x"], [])
    assert dict(summary.skipped) == {"not HTML (video/mp4)": 1}
    assert sum(inflated) < 20 << 20  # one block of 16 KiB of gzip at most (was 64 MiB)


def test_an_oversize_record_in_an_uncompressed_warc_is_passed_over_by_its_length(
    small_limit: int,
) -> None:
    big = b"".join(_oversize(b"http://e.example/big", 4 << 20))
    urls, errors = _read(_record(b"http://e.example/a") + big + _record(b"http://e.example/b"))
    assert urls == ["http://e.example/x", "http://e.example/x"]
    assert [e.message for e in errors] == [f"record larger than {small_limit} bytes: not read"]


def test_no_gzip_member_is_inflated_past_the_member_limit(
    small_limit: int, inflated: list[int]
) -> None:
    # a record whose Content-Length is small, its member holding 256 MiB of empty lines after
    # it: the member is damage past 32 MiB, and the reading goes on at the next member
    first = _gzip(_record(b"http://e.example/a"), *[b"\r\n" * (1 << 19)] * 256)
    last = _gzip(_record(b"http://e.example/b"))
    urls, errors = _read(first + last)
    assert urls == ["http://e.example/x", "http://e.example/x"]
    [error] = errors
    assert error.message.startswith("gzip member larger than 33,554,432 bytes inflated")
    assert error.message.endswith(f"read on from the next record at offset {len(first)}")
    assert sum(inflated) < 64 << 20


def test_an_oversize_record_in_one_gzip_stream_inside_gzip_ends_the_reading(
    small_limit: int,
) -> None:
    # gzip inside gzip, the inner one stream for all records: passing over the record would
    # inflate it (a million bytes a byte of the file): the reading ends there, said
    import gzip

    plain = _record(b"http://e.example/a") + b"".join(_oversize(b"http://e.example/big", 4 << 20))
    inner = gzip.compress(plain + _record(b"http://e.example/b"))
    urls, errors = _read(gzip.compress(inner))
    assert urls == ["http://e.example/x"]
    assert [e.message for e in errors] == [
        f"record larger than {small_limit} bytes: not read; it is in a gzip stream of many "
        "records inside another gzip layer, and the records after it are not read (passing "
        "over it would inflate it)"
    ]


@pytest.mark.slow  # ~10 s: a gigabyte of NULs compressed, then read past
def test_the_issues_reproducer_a_gigabyte_record_in_gzip_inside_gzip(
    inflated: list[int],
) -> None:
    import gzip

    first, last = _gzip(_record(b"http://e.example/a")), _gzip(_record(b"http://e.example/b"))
    inner = first + _gzip(*_oversize(b"http://e.example/big", 1 << 30)) + last
    urls, errors = _read(gzip.compress(inner))
    assert urls == ["http://e.example/x", "http://e.example/x"]
    assert [e.message for e in errors] == ["record larger than 268435456 bytes: not read"]
    assert sum(inflated) < 20 << 20  # one block of 16 KiB of gzip at most (was 1 GiB)
