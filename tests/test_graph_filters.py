"""Filters are one thing everywhere (issue 37 items 3-5): --kind, --scheme, --same-host and
--external mean in `graph` what they mean in `extract`, so the graph of the inputs with a filter
equals the graph of extract's output with that filter (JSON Lines or Parquet read back), and
the graph of extract's whole output with the filter applied to the records. Web hosts only by
default (an app's identifier, android-app://..., is no vertex), --scheme widens it. Weighted
edges (issue 38 item 3) equal a count made with jq | sort | uniq -c from extract's output.
The Spark paths are compared with these in test_spark_graph.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import baselinks
from baselinks.cli import main
from baselinks.graph import build_graph
from baselinks.graph.names import namer, page_name
from baselinks.url.canonical import domain
from conftest import FIXTURES, extra
from conftest import warc as _warc

PAGES = [
    ("http://a.example.com/", b"""<link rel=stylesheet href="https://cdn.example.net/s.css">
      <a href="/x">same host</a><a href="http://b.example.org/1">b</a><a href="http://b.example.org/2">b</a>
      <img src="https://cdn.example.net/i.png"><a href="android-app://com.cnn.mobile.android.phone/x">app</a>
      <a href="mailto:q@b.example.org">mail</a><a href="ftp://ftp.example.org/pub/">ftp</a>
      <a href="https://www.b.example.org/">www</a>"""),
    ("http://b.example.org/1", b"""<base href="https://c.example.com/"><a href="rel">c</a>
      <a href="http://a.example.com/">a</a><a href="javascript:void(0)">js</a>
      <script src="//cdn.example.net/app.js"></script>"""),
    ("https://cdn.example.net/", b"<p>no links</p>"),
    ("http://a.example.com/2", b"""<a href="http://b.example.org/1">b</a>
      <form action="https://d.example.com/submit"></form><a href="http://b.example.org/1#again">b</a>"""),
]  # fmt: skip
FILTERS = [
    [],
    ["--kind", "link"],
    ["--kind", "resource"],
    ["--kind", "link", "--kind", "form"],
    ["--scheme", "https"],
    ["--scheme", "http,android-app"],
    ["--same-host"],
    ["--external"],
    ["--kind", "link", "--external"],
]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crawl") / "crawl.warc.gz"
    path.write_bytes(_warc((url, "text/html", body) for url, body in PAGES))
    return path


def graph_names(folder: Path) -> tuple[list[str], list[tuple[str, str, int, int]]]:
    """The vertex names and the edges as (name, name, links, pages), from vertices/edges.tsv."""
    names = [line.split("\t")[1] for line in (folder / "vertices.tsv").read_text().splitlines()]
    edges = []
    for line in (folder / "edges.tsv").read_text().splitlines():
        src, dst, *counts = (int(field) for field in line.split("\t"))
        links, pages = counts or (0, 0)
        edges.append((names[src], names[dst], links, pages))
    return names, edges


def run(*argv: str) -> None:
    assert main([*argv, "-q"]) == 0


@pytest.mark.parametrize("level", ["page", "host", "domain"])
@pytest.mark.parametrize("given", FILTERS, ids=lambda f: " ".join(f) or "none")
def test_every_filter_through_every_path(
    given: list[str], level: str, crawl: Path, tmp_path: Path
) -> None:
    common = ["--level", level, "--weights"]
    run("graph", str(crawl), "-o", str(tmp_path / "direct"), *common, *given)
    # extract with the filter, its JSON Lines the graph's input (the filter given again: a
    # --scheme also says which schemes name hosts; on records it kept, it keeps them all)
    run("extract", str(crawl), "--format", "jsonl", "-o", str(tmp_path / "f.jsonl"), *given)
    run("graph", str(tmp_path / "f.jsonl"), "-o", str(tmp_path / "jsonl"), *common, *given)
    # extract without, the filter applied to its records
    run("extract", str(crawl), "--format", "jsonl", "-o", str(tmp_path / "all.jsonl.gz"))
    run("graph", str(tmp_path / "all.jsonl.gz"), "-o", str(tmp_path / "records"), *common, *given)
    direct, jsonl, records = (graph_names(tmp_path / n) for n in ("direct", "jsonl", "records"))
    # the same edges and counts whichever way; a document is a vertex when it is read (the
    # archive: every one; extract's output: those with a link, before the filter or after)
    assert jsonl[1] == records[1] == direct[1]
    assert set(jsonl[0]) <= set(records[0]) <= set(direct[0])
    # those missing: the pages that keep no link under the filter (none in extract's output)
    kept = {
        json.loads(line)["page_url"] for line in (tmp_path / "f.jsonl").read_text().splitlines()
    }
    lonely = {namer(level)(url)[0] for url, _ in PAGES if url not in kept}
    assert set(direct[0]) - set(jsonl[0]) <= lonely


def test_parquet_output_read_back(crawl: Path, tmp_path: Path) -> None:
    extra("parquet")
    run("extract", str(crawl), "--format", "parquet", "-o", str(tmp_path / "l.parquet"))
    run("extract", str(crawl), "--format", "jsonl", "-o", str(tmp_path / "l.jsonl"))
    run("graph", str(tmp_path / "l.parquet"), "-o", str(tmp_path / "p"), "--kind", "link")
    run("graph", str(tmp_path / "l.jsonl"), "-o", str(tmp_path / "j"), "--kind", "link")
    assert graph_names(tmp_path / "p") == graph_names(tmp_path / "j")


def test_web_hosts_only_by_default(crawl: Path, tmp_path: Path) -> None:
    made = build_graph([crawl], tmp_path / "web")
    names, _edges = graph_names(tmp_path / "web")
    assert not any("cnn" in name for name in names)  # android-app://: an app, no host
    assert "org.example.ftp" in names  # ftp://: a host, as Common Crawl's graph has it
    assert made.dropped_links["not-web"] == 3  # android-app:, mailto:, javascript:
    build_graph([crawl], tmp_path / "apps", schemes=["http", "android-app"])
    names, _ = graph_names(tmp_path / "apps")
    assert "phone.android.mobile.cnn.com" in names and "org.example.ftp" not in names
    assert "net.example.cdn" in names  # a page of its own: every document is a vertex


def test_weights_equal_jq_sort_uniq_c(crawl: Path, tmp_path: Path) -> None:
    jq = shutil.which("jq")
    if jq is None:
        pytest.skip("jq is not installed (apt-get install jq): this test counts with it")
    run("graph", str(crawl), "-o", str(tmp_path / "g"), "--weights")
    _, edges = graph_names(tmp_path / "g")
    run("extract", str(crawl), "--format", "jsonl", "-o", str(tmp_path / "l.jsonl"))
    # each link's page host and target host, reversed (the fixture's hosts are plain LDH), web
    # links only, no self-loop: then counted, per link and per page (document) once
    host = r'capture("^(https?|ftp)://(?<h>[^/:?#]+)").h | ascii_downcase | split(".") | reverse | join(".")'
    program = (
        f'select(.url | test("^(https?|ftp)://")) | [.document, (.page_url | {host}), (.url | {host})]'
        " | select(.[1] != .[2]) | @tsv"
    )  # fmt: skip
    shell = f"""jq -r '{program}' {tmp_path / "l.jsonl"} > {tmp_path / "pairs"}
cut -f2,3 {tmp_path / "pairs"} | LC_ALL=C sort | uniq -c
echo ---
LC_ALL=C sort -u {tmp_path / "pairs"} | cut -f2,3 | LC_ALL=C sort | uniq -c"""
    out = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, check=True).stdout
    by_links, by_pages = out.split("---\n")
    links = {tuple(line.split()[1:]): int(line.split()[0]) for line in by_links.splitlines()}
    pages = {tuple(line.split()[1:]): int(line.split()[0]) for line in by_pages.splitlines()}
    assert {(s, d): n for s, d, n, _ in edges} == links
    assert {(s, d): n for s, d, _, n in edges} == pages
    assert max(links.values()) > 1 and links != pages  # the fixture has counts to tell apart


@pytest.mark.parametrize("level", ["page", "domain"])
def test_weights_at_page_and_domain_level(level: str, crawl: Path, tmp_path: Path) -> None:
    build_graph([crawl], tmp_path, level=level, weights=True)
    _, edges = graph_names(tmp_path)
    field = "surt" if level == "page" else "domain"
    source: Callable[[str], str | None] = {"page": lambda u: page_name(u)[0], "domain": domain}[
        level
    ]
    links: Counter[tuple[str, str]] = Counter()
    pages: set[tuple[str, str, str]] = set()
    for link in baselinks.iter_links(crawl):
        if not link.url.startswith(("http://", "https://", "ftp://")):
            continue
        target = getattr(link, field)
        src = source(link.page_url or "")
        if level == "domain":
            src = ".".join(reversed(src.split("."))) if src else src
            target = ".".join(reversed(target.split("."))) if target else target
        if src and target and src != target:
            links[src, target] += 1
            pages.add((link.document, src, target))
    assert {(s, d): n for s, d, n, _ in edges} == dict(links)
    assert {(s, d): n for s, d, _, n in edges} == dict(Counter((s, d) for _, s, d in pages))


def test_a_mirror_and_a_saved_page(tmp_path: Path) -> None:
    site = FIXTURES / "mirror" / "example.com"  # wget -m's folder: each file at its URL
    run("graph", str(site), "-o", str(tmp_path / "m"), "--level", "page",
        "--root-url", "https://example.com/")  # fmt: skip
    names, edges = graph_names(tmp_path / "m")
    assert names[:3] == ["com,example)/", "com,example)/docs", "com,example)/docs/guide.html"]
    assert ("com,example)/", "com,example)/docs", 0, 0) in edges
    saved = FIXTURES / "saved" / "chrome" / "A Post.html"  # its "saved from url" comment
    run("graph", str(saved), "-o", str(tmp_path / "s"), "--level", "page")
    names, edges = graph_names(tmp_path / "s")
    assert ("example,blog)/2024/post.html", "example,blog)/2024/other.html", 0, 0) in edges


def test_a_file_of_other_json_is_an_error_line_not_an_empty_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text('{"url": "http://a.example/"}\n{"url": "http://b.example/"}\n')
    assert main(["graph", str(other), "-o", str(tmp_path / "g")]) == 1
    err = capsys.readouterr().err
    assert "other.jsonl" in err and "not extract's record" in err and "Traceback" not in err
