"""At scale: workers give the same output in the same order; memory is held per document.

Speed itself is measured by benchmarks/ (never asserted here); these tests pin the behaviour
that the fast paths must keep.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

import baselinks.load.containers.warcrecord as warcrecord_module
from baselinks import InputError, Summary, extract_links, iter_links
from baselinks.cli import main
from baselinks.run.workers import ordered_map, resolve_workers
from baselinks.write.formats import FORMATS, WRITERS
from conftest import warc

FIXTURES = Path(__file__).parent.parent / "fixtures"


PAGES = [
    (f"http://site.example/{n}/page.html", "text/html", f'<a href="../{n}.html">{n}</a>'.encode())
    for n in range(40)
]


def test_workers_give_the_links_of_one_process_in_the_same_order() -> None:
    data = warc(PAGES)
    one = extract_links(data)
    assert [link.url for link in one] == [f"http://site.example/{n}.html" for n in range(40)]
    assert extract_links(data, workers=2) == one


def test_damage_among_workers_is_reported_in_its_place_and_counted() -> None:
    whole = warc(PAGES[:3])
    cut = whole[: len(whole) - 40]  # inside the last record's gzip member
    outcomes = []
    for workers in (1, 2):
        errors: list[InputError] = []
        summary = Summary()
        links = list(iter_links(cut, workers=workers, on_error=errors.append, summary=summary))
        outcomes.append(([link.url for link in links], [str(e) for e in errors], str(summary)))
    assert outcomes[0] == outcomes[1]
    urls, errors_seen, summary_line = outcomes[0]
    assert urls == ["http://site.example/0.html", "http://site.example/1.html"]
    assert len(errors_seen) == 1 and "offset" in errors_seen[0]
    assert summary_line.endswith("1 failed")


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("output", ["jsonl", "csv", "tsv", "text"])
def test_cli_jobs_write_the_same_bytes_as_one_job(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    batch = tmp_path / "batch"
    shutil.copytree(FIXTURES / "html", batch / "html")
    shutil.copytree(FIXTURES / "containers", batch / "containers")
    (batch / "big.warc.gz").write_bytes(warc(PAGES))  # a file the main process reads
    (batch / "broken.html.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"cut")
    one = _cli(["extract", "--format", output, "-j", "1", str(batch)], capsys)
    two = _cli(["extract", "--format", output, "-j", "2", str(batch)], capsys)
    assert one[0] == two[0] == 1  # something failed: the broken gzip, the damaged fixtures
    assert one[1] == two[1]
    assert one[2] == two[2]  # the same error lines, in the same order, the same summary
    assert "broken.html.gz" in two[2]


def test_cli_jobs_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "-j", "-1", "x"]) == 2
    assert "expected a number of processes" in capsys.readouterr().err
    assert resolve_workers(0) >= 1
    with pytest.raises(ValueError, match="workers must be"):
        resolve_workers(-2)


def test_ordered_map_keeps_order_and_bounds_what_is_in_flight() -> None:
    pulled = 0

    def items() -> object:
        nonlocal pulled
        for n in range(50):
            pulled += 1
            yield n

    results = ordered_map(abs, items(), workers=2, window=4)  # type: ignore[arg-type]
    assert next(results) == 0
    assert pulled <= 5  # the window, plus the one that made it full: no read-ahead
    assert list(results) == list(range(1, 50))


def test_a_non_html_record_is_skipped_after_its_head_never_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A record larger than the limit cannot be held; a non-HTML one never needs to be.
    monkeypatch.setattr(warcrecord_module, "MAX_RECORD_BYTES", 100_000)
    video = (b"\x00\x00\x00\x18ftypmp42" + bytes(300_000), "video/mp4")
    data = warc(
        [
            ("http://a.example/v.mp4", video[1], video[0]),
            ("http://a.example/p.html", "text/html", b'<a href="q">q</a>'),
        ]
    )
    summary = Summary()
    links = extract_links(data, summary=summary)
    assert [link.url for link in links] == ["http://a.example/q"]
    assert summary.skipped == {"not HTML (video/mp4)": 1}
    # an HTML record over the limit is still an error, named
    big = warc([("http://a.example/big.html", "text/html", b"<p>" + bytes(200_000))])
    with pytest.raises(InputError, match="record larger than 100000 bytes"):
        extract_links(big)


def test_the_writers_stream_what_the_formats_render() -> None:
    links = extract_links((FIXTURES / "html" / "base-late.html").read_bytes())
    for name, write in WRITERS.items():
        out = io.StringIO()
        assert write(links, out) == len(links)
        header, render = FORMATS[name]
        assert out.getvalue() == header + render(links)


def test_links_cross_process_boundaries_unchanged() -> None:
    page = (FIXTURES / "html" / "base-late.html").read_bytes()
    assert extract_links(page, workers=2) == extract_links(page)
