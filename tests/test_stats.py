"""--stats and Summary(stats=Stats()): the run's links counted by kind, base source, problem
code and host (stats.py), the same with -j N, after --unique=run, and bounded in hosts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from baselinks import Link, Summary, extract_links
from baselinks.cli import main
from baselinks.write.stats import HOSTS_BOUND, Stats

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ARCHIVES = [
    FIXTURES / "containers" / name
    for name in ("crawl.warc", "dupes.warc.gz", "example-wpull.warc.gz", "mhtml-layers.mhtml")
]


def _counted(links: list[Link]) -> dict[str, Counter[str]]:
    """The counts made the plain way, from the records themselves."""
    from urllib.parse import urlsplit

    return {
        "kinds": Counter(link.kind for link in links),
        "base_sources": Counter(link.base_source for link in links),
        "problems": Counter(code for link in links for code in link.problems),
        # urlsplit agrees with RFC 1808's host on these links (checked by the assertion)
        "hosts": Counter(h for link in links if (h := urlsplit(link.url).hostname)),
    }


def test_the_counts_are_the_links_own() -> None:
    summary = Summary(stats=Stats())
    links = [link for path in ARCHIVES for link in extract_links(path, summary=summary)]
    stats = summary.stats
    assert stats is not None
    expected = _counted(links)
    assert stats.kinds == expected["kinds"]
    assert stats.base_sources == expected["base_sources"]
    assert stats.problems == expected["problems"]
    assert stats.hosts == expected["hosts"]
    assert stats.no_host == len(links) - expected["hosts"].total()
    assert summary.links == len(links) == stats.kinds.total()
    assert len(stats.hosts) > 3 and stats.other_hosts == 0


def test_without_stats_nothing_is_counted_but_the_no_base_links() -> None:
    summary = Summary()
    extract_links(b"<a href=x>x</a><a href=http://a/>a</a><a href=y>", summary=summary)
    assert summary.stats is None
    assert (summary.links, summary.no_base) == (3, 2)


def _stats_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, object]]:
    assert main(["extract", *map(str, ARCHIVES), "--format", "text", "--stats=json", *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, json.loads(captured.err.splitlines()[-1])


def test_stats_json_is_the_last_line_of_stderr_and_the_same_with_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, one = _stats_json(capsys)
    links = [link for path in ARCHIVES for link in extract_links(path)]
    expected = _counted(links)
    assert one["links"] == len(links) == len(out.splitlines())
    assert one["kinds"] == dict(expected["kinds"])
    assert one["hosts"] == dict(expected["hosts"].most_common(10))
    assert list(one) == [
        "files",
        "documents",
        "links",
        "no_base",
        "warnings",
        "failed",
        "skipped",
        "kinds",
        "base_sources",
        "problems",
        "hosts",
        "distinct_hosts",
        "hosts_bounded",
        "other_hosts",
        "no_host",
    ]
    assert _stats_json(capsys, "-j", "2") == (out, one)


def test_stats_count_the_links_written_after_unique_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, counts = _stats_json(capsys, "--unique=run")
    assert counts["links"] == len(out.splitlines()) == len(set(out.splitlines()))
    assert sum(counts["kinds"].values()) == counts["links"]  # type: ignore[attr-defined]
    assert _stats_json(capsys, "--unique=run", "-j", "2") == (out, counts)


def test_the_stats_table_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(
        b'<a href="x">x</a><a href="http://a.example/">a</a><img src="http://A.example/i">'
        b'<a href="mailto:m@b.example">m</a><a href="http://b.example/">b</a>'
        b'<a href="http://e\x1b[31mvil/">e</a>'
    )
    assert main(["extract", str(page), "--format", "text", "--stats", "-q"]) == 0
    assert capsys.readouterr().err == (
        "1 document, 6 links, 0 failed\n"
        "kind\n"
        "  link                         5\n"
        "  resource                     1\n"
        "base_source\n"
        "  default                      6\n"
        "problem\n"
        "  no-base                      1\n"
        "  invalid-character            1\n"
        "  control-character            1\n"
        "  invalid-hostname             1\n"
        "host (top 3 of 3)\n"
        "  a.example                    2\n"
        "  b.example                    1\n"
        "  e\\x1b[31mvil                 1\n"  # a host comes from input: escaped
        "  (no host)                    2\n"
    )


def test_hosts_are_counted_one_by_one_up_to_the_bound_then_together() -> None:
    run = Stats()
    for n in range(HOSTS_BOUND + 5):
        document = Stats()
        document.hosts[f"h{n}.example"] = 2
        run.merge(document)
    run.merge(Stats(hosts=Counter({"h0.example": 3})))  # one already counted still counts
    assert len(run.hosts) == HOSTS_BOUND
    assert run.hosts["h0.example"] == 5
    assert run.other_hosts == 10
    assert run.as_dict()["hosts_bounded"] is True
    assert run.table()[-1].split() == ["(other", "hosts)", "10"]


@pytest.mark.parametrize(
    "url",
    [
        "http://User:pw@Host.Example:80/a",
        "http://[::1]:8080/",
        "HTTP://A.example",
        "http://a.example?q",  # RFC 1808: the net_loc runs to the next "/"
        "//h.example/x",
        "http://a.example#frag/x",
        "mailto:m@b.example",
        "file:///etc/hosts",
        "http://",
        "x",
        "",
    ],
)
def test_a_link_s_host_is_the_parser_s(url: str) -> None:
    from baselinks.url.parts import parse
    from baselinks.write.stats import _hosts

    link = Link(url, url, "", "default", "a", "href", 1, "-", "", "", "link", ())
    assert _hosts([link, link]) == [parse(url).hostname] * 2


def test_the_no_base_count_is_of_the_links_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.html").write_bytes(b"<a href=x>1</a><a href=x>2</a><a href=http://h/>")
    pages = [tmp_path / "a.html", tmp_path / "b.html"]
    for unique, workers, expected in [
        (False, 1, (6, 4)),
        (False, 2, (6, 4)),
        ("document", 1, (4, 2)),
    ]:
        summary = Summary(stats=Stats())
        for page in pages:  # one summary over many calls, as iter_links's docstring says
            extract_links(page, unique=unique, workers=workers, summary=summary)
        assert (summary.links, summary.no_base) == expected, (unique, workers)
        assert summary.stats is not None
        assert summary.stats.problems["no-base"] == summary.no_base
        assert summary.stats.kinds.total() == summary.links
    # --unique=run: the run is the command's, over both files
    for jobs in ("1", "2"):
        argv = ["extract", *map(str, pages), "--unique=run", "--stats=json", "-j", jobs]
        assert main([*argv, "--format", "text"]) == 0
        out, err = capsys.readouterr()
        assert out.splitlines() == ["x", "http://h/"]
        summary_line, counts = err.splitlines()
        assert "2 links; 1 link without a base (relative, as written)" in summary_line
        assert (counts and json.loads(counts)["no_base"]) == 1
        assert json.loads(counts)["problems"] == {"no-base": 1}
