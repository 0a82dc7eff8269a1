"""Inputs read as streams: stdin, a pipe that delivers its bytes slowly; and documents in the
encodings the Encoding Standard maps to "replacement"."""

from __future__ import annotations

import os
import threading
import time

import pytest

from baselinks import InputError, extract_links
from baselinks.api import Summary
from baselinks.cli import main
from baselinks.load.encoding import decode
from conftest import FIXTURES

CRAWL = (FIXTURES / "containers" / "crawl.warc").read_bytes()


def _slow_pipe(*pieces: bytes) -> int:
    """The read end of a pipe that receives ``pieces`` 0.2 s apart."""
    read, write = os.pipe()

    def writer() -> None:
        with os.fdopen(write, "wb", buffering=0) as sink:
            for piece in pieces:
                sink.write(piece)
                time.sleep(0.2)

    threading.Thread(target=writer, daemon=True).start()
    return read


def test_a_slow_pipe_delivering_warc_alone_is_read_as_a_warc() -> None:
    # was: sniffed from the 4 bytes that had arrived ("WARC"), read as one HTML document
    summary = Summary()
    with os.fdopen(_slow_pipe(CRAWL[:4], CRAWL[4:]), "rb") as pipe:
        links = extract_links(pipe, name="-", summary=summary)
    assert summary.documents == 5
    assert links == extract_links(CRAWL, name="-")


def test_stdin_in_pieces_through_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with os.fdopen(_slow_pipe(CRAWL[:4], CRAWL[4:100], CRAWL[100:]), "rb") as pipe:
        monkeypatch.setattr("sys.stdin", type("Stdin", (), {"buffer": pipe})())
        assert main(["extract", "--format", "text"]) == 0
    out, err = capsys.readouterr()
    assert "5 documents, 10 links" in err
    assert len(out.splitlines()) == 10


REPLACEMENT_LABELS = ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr"]


@pytest.mark.parametrize("label", [*REPLACEMENT_LABELS, "replacement", " ISO-2022-KR "])
def test_replacement_labels_decode_to_one_replacement_character(label: str) -> None:
    assert decode(b"<a href=x>~{<:Ky2;S{#,~}", label) == ("\ufffd", "replacement", "transport")
    assert decode(b"", label).text == ""


@pytest.mark.parametrize("label", REPLACEMENT_LABELS)
def test_replacement_labels_by_meta_and_by_transport(label: str) -> None:
    # was: "internal error" (LookupError: unknown encoding: replacement)
    html = f'<meta charset="{label}"><a href="x">x</a>'.encode()
    for data, charset in ((html, None), (b'<a href="x">x</a>', label)):
        errors: list[InputError] = []
        summary = Summary()
        links = extract_links(
            data, charset=charset, name="d", on_error=errors.append, summary=summary
        )
        assert links == [] and summary.documents == 1
        assert [str(e) for e in errors] == [
            'd: declared in an encoding the Encoding Standard maps to "replacement" '
            "(ISO-2022-KR, ISO-2022-CN, HZ-GB-2312): decoded as one U+FFFD, nothing of it read"
        ]
