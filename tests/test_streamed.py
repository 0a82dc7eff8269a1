"""A document read as it comes (a sitemap, a feed, a robots.txt: pipeline.STREAMED) hands its
links on as they are found, a piece at a time, to the library and to the command line alike
(issue 36: a sitemap of a million URLs held them all to its end: 40 MB, 426 MB through the
library, 1.2 GB through the command line). What a document's links are, how they are counted,
filtered, made unique and cut at the output budget is the same as for one read whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baselinks import InputError, Summary, iter_links
from baselinks.cli import main
from baselinks.find.walk import RawLink
from baselinks.resolve.link import MEMO_KEPT, Linker

_SITEMAP = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
URL = "http://e.example/sitemap.xml"


def _sitemap(locs: list[str]) -> bytes:
    entries = b"".join(b"<url><loc>%s</loc></url>" % loc.encode() for loc in locs)
    return _SITEMAP + entries + b"</urlset>"


@pytest.fixture
def pieces(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pieces of 10 links (pipeline.CHUNK), and the sizes of those made so far."""
    from baselinks import pipeline

    made: list[int] = []
    real = pipeline._chunks

    def counted(links: Iterator[Any]) -> Iterator[list[Any]]:
        for chunk in real(links):
            made.append(len(chunk))
            yield chunk

    monkeypatch.setattr(pipeline, "CHUNK", 10)
    monkeypatch.setattr(pipeline, "_chunks", counted)
    return made


def test_a_sitemaps_links_are_handed_on_as_they_are_found(pieces: list[int]) -> None:
    links = iter_links(_sitemap([f"/p{n}" for n in range(1000)]), url=URL)
    first = next(links)
    assert first.url == "http://e.example/p0"
    assert pieces == [10]  # one piece made, not a thousand links
    assert sum(1 for _ in links) == 999
    assert sum(pieces) == 1000


def test_a_streamed_document_is_counted_once_with_all_its_links(pieces: list[int]) -> None:
    summary = Summary()
    links = list(iter_links(_sitemap([f"/p{n}" for n in range(95)]), url=URL, summary=summary))
    assert (summary.documents, summary.links, summary.failed) == (1, 95, 0)
    assert [link.url for link in links] == [f"http://e.example/p{n}" for n in range(95)]


def test_unique_and_kinds_hold_over_the_whole_document(
    pieces: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the repeats are in other pieces than their first
    locs = [f"/p{n % 25}" for n in range(100)]
    page = tmp_path / "sitemap.xml"
    page.write_bytes(_sitemap(locs))
    assert main(["extract", str(page), "--url", URL, "--unique", "--format", "text"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"http://e.example/p{n}" for n in range(25)]
    assert err.splitlines()[-1] == "baselinks: 1 file, 1 document, 25 links; 0 failed"
    assert main(["extract", str(page), "--url", URL, "--kind", "resource"]) == 0
    assert capsys.readouterr().err.splitlines()[-1].endswith("0 links; 0 failed")


def test_the_output_budget_holds_over_the_whole_document(
    pieces: list[int], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from baselinks.write import formats

    monkeypatch.setattr(formats, "MIN_OUTPUT_BYTES", 500)
    monkeypatch.setattr(formats, "MAX_OUTPUT_RATIO", 0)
    data = _sitemap([f"/p{n:04d}" for n in range(100)])
    monkeypatch.setattr("sys.stdin", _Stdin(data))
    assert main(["extract", "-", "--url", URL, "--format", "text"]) == 1
    out, err = capsys.readouterr()
    written = out.splitlines()
    assert written == [f"http://e.example/p{n:04d}" for n in range(len(written))]
    assert len("\n".join(written)) <= 500 < len("\n".join([*written, "http://e.example/p9999"]))
    assert err.splitlines() == [
        f"baselinks: -: output over 500 bytes (the limit for a document of this size): the "
        f"last {100 - len(written)} links not written",
        f"baselinks: 1 file, 1 document, {len(written)} links; 1 failed",
    ]


class _Stdin:
    """Standard input holding ``data`` (its binary buffer, as the command line reads it)."""

    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


def test_what_could_not_be_read_follows_the_links_read_before_it(pieces: list[int]) -> None:
    errors: list[InputError] = []
    broken = _sitemap([f"/p{n}" for n in range(30)])[:-20] + b"<url><loc>&nbsp;</loc>"
    links = list(iter_links(broken, url=URL, on_error=errors.append))
    assert len(links) >= 25
    assert [error.message.split(" at ")[0] for error in errors] == ["sitemap not well-formed XML"]


def test_a_failure_midway_keeps_the_pieces_before_it(
    pieces: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from baselinks.find import sitemaps

    real = sitemaps.text_of
    calls = [0]

    def failing(element: Any) -> str:
        calls[0] += 1
        if calls[0] > 25:
            raise MemoryError
        return real(element)

    monkeypatch.setattr(sitemaps, "text_of", failing)
    summary, errors = Summary(), []
    links = list(
        iter_links(
            _sitemap([f"/p{n}" for n in range(100)]),
            url=URL,
            summary=summary,
            on_error=errors.append,
        )
    )
    assert [link.url for link in links] == [f"http://e.example/p{n}" for n in range(20)]
    assert (summary.documents, summary.links, summary.failed) == (1, 20, 1)
    assert [str(error) for error in errors] == ["-: out of memory: not read"]


def test_workers_give_the_records_one_process_gives(
    pieces: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for n in range(3):
        path = tmp_path / f"sitemap{n}.xml"
        path.write_bytes(_sitemap([f"/s{n}/p{m}" for m in range(40)]))
        files.append(str(path))
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        assert main(["extract", *files, "--url", URL, "-j", jobs, "-o", str(out)]) == 0
        outputs.append([json.loads(line)["url"] for line in out.read_text().splitlines()])
    assert outputs[0] == outputs[1] and len(outputs[0]) == 120
    capsys.readouterr()


def test_a_linker_keeps_at_most_memo_kept_references() -> None:
    # a document of more distinct references than that: the memo starts again, where it
    # held every one to the document's end
    from baselinks.base.layers import Base, BaseSource

    linker = Linker(Base("http://e.example/", BaseSource.RETRIEVAL), "rfc1808", "d")
    for n in range(MEMO_KEPT + 100):
        linker.link(RawLink(f"/p{n}", "a", "href", "link", 1))
    assert len(linker.memo) <= MEMO_KEPT
    assert linker.link(RawLink("/p7", "a", "href", "link", 1)).url == "http://e.example/p7"
