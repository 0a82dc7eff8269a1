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
