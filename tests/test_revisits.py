"""Revisit records: a page stored as a revisit gives its original payload's links, found in the
inputs, under the revisit's URL and date, marked ``revisit_of``.

The floor (issue 38): a crawl written with deduplication gives the same graph as the same crawl
written without it. fixtures/containers/dedup/ holds one crawl written by warcio both ways
(make_dedup.py): full.warc.gz (every capture a response), revisits.warc.gz (each capture of a
payload stored before a revisit: by record ID, by URI and date, by payload digest, and one
URL-agnostic: another URL's payload), and the deduplicated crawl split by round, so that read
round2 first each revisit comes before its original, in another file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import baselinks
from baselinks.cli import main
from baselinks.run import revisits
from conftest import FIXTURES

DEDUP = FIXTURES / "containers" / "dedup"
FULL = [DEDUP / "full.warc.gz"]
WITH_REVISITS = [DEDUP / "revisits.warc.gz"]
REVISITS_FIRST = [DEDUP / "round2.warc.gz", DEDUP / "round1.warc.gz"]


def _graph(paths: list[Path], folder: Path, level: str, *options: str) -> list[str]:
    """The graph's edges as name pairs, as ``baselinks graph`` writes them."""
    assert (
        main(["graph", *map(str, paths), "-o", str(folder), "--level", level, "-q", *options]) == 0
    )
    names = dict(
        line.split("\t") for line in (folder / "vertices.tsv").read_text("utf-8").splitlines()
    )
    return [
        "\t".join(names[one] for one in line.split("\t"))
        for line in (folder / "edges.tsv").read_text("ascii").splitlines()
    ]


@pytest.mark.parametrize("level", ["page", "host"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_deduplicated_crawl_gives_the_graph_of_the_full_one(
    tmp_path: Path, level: str, jobs: str
) -> None:
    full = _graph(FULL, tmp_path / "full", level, "-j", jobs)
    assert _graph(WITH_REVISITS, tmp_path / "dedup", level, "-j", jobs) == full
    assert _graph(REVISITS_FIRST, tmp_path / "split", level, "-j", jobs) == full
    # the mirror's edges come only from its revisit (URL-agnostic: a.example's payload)
    assert any("mirror" in edge.split("\t")[0] for edge in full)


def test_without_the_originals_the_graph_is_not_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above can fail: with no original found, the revisits' edges are missing."""
    full = _graph(FULL, tmp_path / "full", "host")
    monkeypatch.setattr(revisits, "index_revisits", lambda inputs: revisits.RevisitIndex())
    assert _graph(WITH_REVISITS, tmp_path / "dedup", "host") != full


def _key(link: baselinks.Link) -> tuple[Any, ...]:
    """What a link is but where it is stored (record, offset, date differ by design)."""
    return (link.page_url, link.url, link.tag, link.attr, link.text, link.kind, link.base)


def test_revisit_links_are_the_originals_under_the_revisits_url_and_date(tmp_path: Path) -> None:
    # a folder is read in name order: the revisits (a-...) before their originals (b-...)
    (tmp_path / "a-round2.warc.gz").write_bytes(REVISITS_FIRST[0].read_bytes())
    (tmp_path / "b-round1.warc.gz").write_bytes(REVISITS_FIRST[1].read_bytes())
    full = baselinks.extract_links(FULL[0])
    dedup = baselinks.extract_links(tmp_path)
    assert sorted(map(_key, full)) == sorted(map(_key, dedup))
    revisited = [link for link in dedup if link.revisit_of is not None]
    assert {link.page_url for link in revisited} == {
        "http://a.example/",
        "http://b.example/x",
        "http://mirror.example/",
    }
    for link in revisited:
        assert link.date == "2026-02-01T00:00:00Z"  # the revisit's date, not the original's
        assert link.file == str(tmp_path / "a-round2.warc.gz")  # where the revisit is stored
        assert link.record_id != link.revisit_of
    mirror = {link.revisit_of for link in revisited if link.page_url == "http://mirror.example/"}
    assert mirror == {"<urn:uuid:00000000-0000-0000-0000-000000000001>"}  # a.example/'s
    own = [link for link in dedup if link.revisit_of is None]
    assert own and all(link.date for link in own)


def test_a_revisit_whose_original_is_absent_is_counted_and_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", str(DEDUP / "round2.warc.gz"), "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    assert "skipped 3 (3 revisit record)" in err
    assert (
        "3 revisits without their originals in the inputs ("
        f"{DEDUP / 'round2.warc.gz'}#http://a.example/"
    ) in err
    summary = baselinks.Summary()
    assert baselinks.extract_links(DEDUP / "round2.warc.gz", summary=summary)
    assert summary.unresolved == 3 and len(summary.unresolved_names) == 3


def test_the_index_holds_the_revisits_only() -> None:
    """Memory: one entry per revisit, not per record."""
    inputs = [(str(path), str(path)) for path in REVISITS_FIRST]
    index = revisits.index_revisits(inputs)
    assert len(index.originals) == 3
    assert all(original is not None for original in index.originals.values())
    assert index.files == {str(REVISITS_FIRST[0])}


def test_a_revisit_in_bytes_finds_its_original_in_the_same_bytes() -> None:
    data = WITH_REVISITS[0].read_bytes()
    links = baselinks.extract_links(data)
    assert {link.page_url for link in links if link.revisit_of} == {
        "http://a.example/",
        "http://b.example/x",
        "http://mirror.example/",
    }


def test_one_look_or_two_the_same_originals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records' names kept from the first look (few inputs), or a second look for them
    (more names than CANDIDATES_KEPT): the same originals."""
    inputs = [(str(path), str(path)) for path in [*REVISITS_FIRST, *WITH_REVISITS]]
    once = revisits.index_revisits(inputs)
    monkeypatch.setattr(revisits, "CANDIDATES_KEPT", 1)
    twice = revisits.index_revisits(inputs)
    assert once == twice
    assert len(once.originals) == 6 and None not in once.originals.values()


def test_no_revisits_reads_each_input_once_and_skips_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--no-revisits: the inputs are not looked through first (a crawl whose originals are in
    an earlier crawl: the look finds none), each revisit skipped as a revisit record."""

    def looked(*_: Any, **__: Any) -> None:
        raise AssertionError("the inputs were looked through for originals")

    monkeypatch.setattr(revisits, "index_revisits", looked)
    argv = ["extract", *map(str, WITH_REVISITS), "--format", "tsv", "-o", "/dev/null"]
    assert main([*argv, "--no-revisits"]) == 0
    line = capsys.readouterr().err.splitlines()[-1]
    assert "revisit record)" in line or "revisit record," in line
    assert "without" not in line
    with pytest.raises(AssertionError, match="looked through"):
        main(argv)  # (without it, the look)
