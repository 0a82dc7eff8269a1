"""Warnings apart from failures (issue 30, item 3).

An oddity repaired, the input read in full, nothing lost: an InputWarning, said on its own
``warning:`` line, counted apart, exit 0 (1 with ``--strict``), never raised by the library.
Where data may be lost it stays an InputError: a failure, exit 1. One case of each class of
docs/reference.md's table ("Warnings and failures").
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path

import pytest
from warcio.warcwriter import WARCWriter

from baselinks import InputError, InputWarning, Summary, extract_links
from baselinks.cli import main
from conftest import FIXTURES, warc

CONTAINERS = FIXTURES / "containers"
PAGE = b'<a href="x.html">x</a>'


def _damaged_request_record() -> bytes:
    """A .warc.gz whose request record claims 99 bytes and holds 36 (cut where its gzip
    member ends), then an intact response: the request holds no links, nothing is lost."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    request = b"GET /p HTTP/1.1\r\nHost: e.example\r\n\r\n"
    record = writer.create_warc_record(
        "http://e.example/p", "request", payload=io.BytesIO(request), length=len(request)
    )
    writer.write_record(record)
    first = out.getvalue()
    response = warc([("http://e.example/p", "text/html", PAGE)])
    text = zlib.decompress(first, 16 + zlib.MAX_WBITS)
    return gzip.compress(text.replace(b"Content-Length: 36", b"Content-Length: 99")) + response


def _read(data: bytes | Path) -> tuple[list[str], list[InputError], list[InputWarning], Summary]:
    errors: list[InputError] = []
    warned: list[InputWarning] = []
    summary = Summary()
    links = extract_links(
        data, name="f", on_error=errors.append, on_warning=warned.append, summary=summary
    )
    return [link.url for link in links], errors, warned, summary


# (what, the input, the message's start) of the oddities repaired: warnings
REPAIRED = [
    ("a damaged request record", _damaged_request_record(), "record cut short: 40 of its 99"),
    (
        "a record split over gzip members",
        CONTAINERS / "example-wrong-chunks.warc.gz.bad",
        "record split over gzip members",
    ),
    (
        "an MHTML without a boundary parameter",
        CONTAINERS / "missing_boundary_header.mhtml",
        "multipart without a boundary parameter",
    ),
    (
        "a header line without a colon",
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/html\r\nbroken line\r\n"
        b"Content-Location: http://one.example/\r\n\r\n<a href=x>\r\n--b--\r\n",
        "MIME header line without a colon",
    ),
]


@pytest.mark.parametrize(("what", "data", "message"), REPAIRED, ids=[r[0] for r in REPAIRED])
def test_a_repaired_oddity_is_a_warning_not_a_failure(
    what: str, data: bytes | Path, message: str
) -> None:
    _, errors, warned, summary = _read(data)
    assert errors == [] and summary.failed == 0
    assert warned and warned[0].message.startswith(message)
    assert summary.warnings == len(warned)
    assert isinstance(warned[0], InputError) and isinstance(warned[0], UserWarning)


def test_the_request_record_s_warning_says_why_and_the_response_is_read() -> None:
    urls, _, warned, _ = _read(_damaged_request_record())
    assert urls == ["http://e.example/x.html"]
    assert [str(w) for w in warned] == [
        "f#http://e.example/p: offset 0: record cut short: 40 of its 99 bytes: a request "
        "record, which holds no links; the next record is read"
    ]


# What loses data stays a failure: a file cut short, a response record's page cut.
LOST = [
    ("a truncated archive", CONTAINERS / "crawl-truncated.warc.gz", "record cut short"),
    ("a cut gzip body", CONTAINERS / "example-trunc.warc", "Content-Encoding gzip: cut short"),
]


@pytest.mark.parametrize(("what", "path", "message"), LOST, ids=[r[0] for r in LOST])
def test_lost_data_is_a_failure(what: str, path: Path, message: str) -> None:
    _, errors, warned, summary = _read(path)
    assert errors and errors[0].message.startswith(message)
    assert not any(isinstance(error, InputWarning) for error in errors)
    assert summary.failed == len(errors) and warned == []


def test_the_library_never_raises_a_warning_it_issues_it() -> None:
    path = CONTAINERS / "example-wrong-chunks.warc.gz.bad"
    with pytest.warns(InputWarning, match="record split over gzip members"):
        links = extract_links(path)  # no on_error, no on_warning: nothing raised
    assert [link.url for link in links] == ["http://www.iana.org/domains/example"]


def test_workers_give_the_same_warnings() -> None:
    data = _damaged_request_record() + _damaged_request_record()
    one = _read(data)
    errors: list[InputError] = []
    warned: list[InputWarning] = []
    links = extract_links(
        data, name="f", workers=2, on_error=errors.append, on_warning=warned.append
    )
    assert [link.url for link in links] == one[0] and errors == []
    assert [str(w) for w in warned] == [str(w) for w in one[2]] and len(warned) == 2


def test_the_command_line_says_warning_counts_it_apart_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "req.warc.gz"
    path.write_bytes(_damaged_request_record())
    assert main(["extract", str(path), "--format", "text"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "http://e.example/x.html\n"
    lines = captured.err.splitlines()
    assert lines[0].startswith(f"baselinks: warning: {path}#http://e.example/p: offset 0: ")
    assert lines[-1] == "baselinks: 1 file, 1 document, 1 link; 1 warning; 0 failed"
    # --strict: a warning fails the run; the links are written all the same
    assert main(["extract", str(path), "--format", "text", "--strict", "-q"]) == 1
    assert capsys.readouterr().out == "http://e.example/x.html\n"
    assert main(["extract", str(path), "--format", "text", "--stats=json", "-q"]) == 0
    stats = json.loads(capsys.readouterr().err.splitlines()[-1])
    assert (stats["warnings"], stats["failed"]) == (1, 0)


def test_a_failure_and_a_warning_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(CONTAINERS / "crawl-truncated.warc.gz"), str(CONTAINERS / "unexpected_eof.mhtml")]
    assert main(["extract", *argv, "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.startswith("baselinks: warning: ") for line in err[:-1]] == [False, True]
    assert err[-1].endswith("; 1 warning; 1 failed")
