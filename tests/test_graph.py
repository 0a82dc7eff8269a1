"""baselinks graph and build_graph: page, host and domain graphs, one machine, bounded memory.

The graph of a WARC against an independent build from the same links (the jq + sort -u
pipeline of docs/guide/graphs.md, here in plain Python: sets and sorted()); vertex IDs in name
order; a document without links still a vertex; garbage never a vertex, each drop counted; the
same files whatever the run size (how many temporary runs the sort makes) and -j.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import baselinks
from baselinks.cli import main
from baselinks.graph import build_graph
from baselinks.graph.names import Target, host_name, page_name
from baselinks.graph.sort import ExternalGraph
from conftest import FIXTURES, extra
from conftest import warc as _warc

CRAWL = FIXTURES / "containers" / "crawl.warc.gz"


def warc(pages: list[tuple[str, bytes]]) -> bytes:
    """A WARC of these HTML pages (url, body)."""
    return _warc((url, "text/html", body) for url, body in pages)


def _read(folder: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The vertex names by ID (checked 0..n-1 in order) and the edges as name pairs."""
    names = []
    for number, line in enumerate((folder / "vertices.tsv").read_text("utf-8").splitlines()):
        vertex_id, name = line.split("\t")
        assert int(vertex_id) == number
        names.append(name)
    assert names == sorted(names) and len(set(names)) == len(names)
    edges = [
        tuple(map(int, line.split("\t")))
        for line in (folder / "edges.tsv").read_text("ascii").splitlines()
    ]
    assert edges == sorted(set(edges))  # sorted by (src, dst), each once
    assert all(src != dst for src, dst in edges)  # no self-loop
    return names, [(names[src], names[dst]) for src, dst in edges]


def _independent(links: list[baselinks.Link], level: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The graph of these links by the simplest code: a set of names, a set of pairs."""
    name: Callable[[str], tuple[str | None, str]] = host_name if level == "host" else page_name
    vertices, edges = set(), set()
    for link in links:
        source = link.page_url and name(link.page_url)[0]
        if source is None:
            continue
        vertices.add(source)
        target = name(link.url)[0]
        if target is not None and target != source:
            vertices.add(target)
            edges.add((source, target))
    return vertices, edges


@pytest.mark.parametrize("level", ["host", "page"])
def test_graph_of_a_warc_equals_an_independent_build(level: str, tmp_path: Path) -> None:
    arc = FIXTURES / "containers" / "IAH-20080430204825-00000-blackbook-truncated.arc"
    archives = [*sorted((FIXTURES / "containers").glob("*.warc.gz")), arc]
    made = build_graph(archives, tmp_path, level=level, on_error=lambda error: None)
    names, edges = _read(tmp_path)
    links = [
        link for path in archives for link in baselinks.iter_links(path, on_error=lambda e: None)
    ]
    vertices, expected = _independent(links, level)
    # every document is a vertex, with or without links: the independent build sees only
    # those with links, so its vertices are among ours
    assert vertices <= set(names) and set(edges) == expected
    assert (made.vertices, made.edges) == (len(names), len(edges))


def test_the_host_graph_of_the_crawl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", str(CRAWL), "-o", str(tmp_path)]) == 0
    # one edge: the Content-Location header's, to another host
    assert (tmp_path / "vertices.tsv").read_text() == "0\tcom.example\n1\texample.ignored\n"
    assert (tmp_path / "edges.tsv").read_text() == "0\t1\n"
    assert capsys.readouterr().err.splitlines()[-1] == (
        "baselinks: host graph: 2 vertices, 1 edge; dropped 9 links (1 no-source, 8 self-loop); "
        "dropped 1 document (1 no-host)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["edges.tsv", "vertices.tsv"]  # no more


def test_page_level_names_vertices_by_surt(tmp_path: Path) -> None:
    build_graph([CRAWL], tmp_path, level="page", kinds={"link"})
    names, edges = _read(tmp_path)
    assert ("com,example)/a/page", "com,example)/next") in edges
    assert "com,example)/untyped" in names  # a page whose only link is another kind's


PAGES = [
    ("http://www.a.example.com/", b'<a href="http://b.example.org/x">b</a> <a href="http://www.a.example.com/self">s</a>'),
    ("http://b.example.org/x", b"<p>no links at all</p>"),
    ("http://c.example.net/", b'<a href="http://127.0.0.1/">ip</a><a href="http://xn--a.example/">idna</a>'
     b'<a href="http://' + b"a." * 300 + b'com/">long</a><a href="mailto:x@y.example">mail</a>'
     b'<a href="http://localhost/">one label</a><a href="http://bad_.example.com/">label</a>'
     b'<a href="http://B.Example.ORG./y">b again</a><a href="http://b.example.org/z">b again</a>'),
    ("http://10.0.0.1/", b'<a href="http://d.example.com/">from an IP</a>'),
]  # fmt: skip


def test_garbage_is_never_a_vertex_and_each_drop_is_counted(tmp_path: Path) -> None:
    made = build_graph([warc(PAGES)], tmp_path, level="host", keep_www=False)
    names, edges = _read(tmp_path)
    # xn--a is no valid punycode, but cc-pyspark takes an ASCII label as it is: so here
    assert names == ["com.example.a", "example.xn--a", "net.example.c", "org.example.b"]
    assert edges == [
        ("com.example.a", "org.example.b"),
        ("net.example.c", "example.xn--a"),
        ("net.example.c", "org.example.b"),
    ]
    assert dict(made.dropped_links) == {
        "self-loop": 1,
        "ip-address": 1,
        "host-too-long": 1,
        "not-web": 1,
        "single-label": 1,
        "invalid-label": 1,
        "no-source": 1,
    }
    assert dict(made.dropped_documents) == {"ip-address": 1}
    assert "org.example.b" in names  # the page without links is a vertex (and a target)


def test_a_page_without_links_is_a_vertex(tmp_path: Path) -> None:
    build_graph([warc([("http://lonely.example.com/", b"<p>nothing</p>")])], tmp_path)
    assert _read(tmp_path) == (["com.example.lonely"], [])


def test_keep_www_and_domain_level(tmp_path: Path) -> None:
    pages = [
        (
            "http://www.news.bbc.co.uk/",
            b'<a href="http://www.bbc.co.uk/a">a</a><a href="http://x.blogspot.com/">x</a>',
        )
    ]
    build_graph([warc(pages)], tmp_path / "host")  # www. kept: Common Crawl's since 2026
    assert _read(tmp_path / "host")[0] == ["com.blogspot.x", "uk.co.bbc.news.www", "uk.co.bbc.www"]
    build_graph([warc(pages)], tmp_path / "strip", keep_www=False)
    assert _read(tmp_path / "strip")[0] == ["com.blogspot.x", "uk.co.bbc", "uk.co.bbc.news"]
    build_graph([warc(pages)], tmp_path / "domain", level="domain")
    assert _read(tmp_path / "domain")[1] == [("uk.co.bbc", "com.blogspot")]
    build_graph([warc(pages)], tmp_path / "private", level="domain", private_domains=True)
    assert _read(tmp_path / "private")[1] == [("uk.co.bbc", "com.blogspot.x")]


def _synthetic(seed: int, documents: int) -> list[tuple[str, list[str]]]:
    rng = random.Random(seed)
    hosts = [f"h{n}.example.com" for n in range(60)]
    return [
        (
            f"{rng.choice(hosts)}/p{d}",
            [f"{rng.choice(hosts)}/p{rng.randrange(200)}" for _ in range(rng.randrange(0, 12))],
        )
        for d in range(documents)
    ]


class _Collect:
    def __init__(self) -> None:
        self.vertices: list[tuple[int, str]] = []
        self.edges: list[tuple[int, int]] = []
        self.counts: list[tuple[int, int]] = []

    def vertex(self, vertex_id: int, name: str, hosts: int | None) -> None:
        self.vertices.append((vertex_id, name))

    def end_vertices(self) -> None:
        pass

    def edge(self, src: int, dst: int, links: int, pages: int) -> None:
        self.edges.append((src, dst))
        self.counts.append((links, pages))


@pytest.mark.parametrize("run_size", [1, 7, 100, 1_000_000])
def test_the_external_sort_equals_sets_and_sorted_whatever_the_run_size(
    run_size: int, tmp_path: Path
) -> None:
    documents = _synthetic(28, 400)
    graph = ExternalGraph(str(tmp_path), run_size)
    links: Counter[tuple[str, str]] = Counter()
    pages: Counter[tuple[str, str]] = Counter()
    for source, targets in documents:
        found = Counter(t for t in targets if t != source)
        graph.add(source, [Target(t, n) for t, n in sorted(found.items())])
        links.update({(source, t): n for t, n in found.items()})
        pages.update((source, t) for t in found)
    runs = sum(len(paths) for paths in graph.saved().values())
    sink = _Collect()
    assert graph.finish(sink) == (len(sink.vertices), len(sink.edges))
    names = sorted({s for s, _ in documents} | {t for _, ts in documents for t in ts})
    ids = {name: i for i, name in enumerate(names)}
    assert sink.vertices == list(enumerate(names))
    expected = sorted({(ids[s], ids[t]) for s, ts in documents for t in ts if t != s})
    assert sink.edges == expected
    # the counts added up across runs: links per pair, pages (documents) per pair
    assert sink.counts == [
        (links[names[s], names[d]], pages[names[s], names[d]]) for s, d in expected
    ]
    assert list(tmp_path.iterdir()) == []  # its temporary runs removed
    assert runs >= (0 if run_size > 1000 else 2)


@pytest.mark.slow
def test_the_same_files_with_workers_and_any_run_size(tmp_path: Path) -> None:
    archives = sorted(str(p) for p in (FIXTURES / "containers").glob("*.warc.gz"))
    for name, options in {"one": [], "jobs": ["-j", "2"]}.items():
        assert (
            main(
                ["graph", *archives, "-q", "--level", "page", "-o", str(tmp_path / name), *options]
            )
            == 1
        )
    build_graph(archives, tmp_path / "runs", level="page", run_size=3, on_error=lambda e: None)
    for name in ("jobs", "runs"):
        for file in ("vertices.tsv", "edges.tsv"):
            assert (tmp_path / name / file).read_bytes() == (tmp_path / "one" / file).read_bytes()


def test_parquet_files(tmp_path: Path) -> None:
    pq = extra("parquet")
    build_graph([warc(PAGES)], tmp_path, form="parquet")
    vertices, edges = (
        pq.read_table(tmp_path / "vertices.parquet"),
        pq.read_table(tmp_path / "edges.parquet"),
    )
    assert [(f.name, str(f.type), f.nullable) for f in vertices.schema] == [
        ("id", "int64", False),
        ("name", "string", False),
    ]
    assert [(f.name, str(f.type), f.nullable) for f in edges.schema] == [
        ("src", "int64", False),
        ("dst", "int64", False),
    ]
    assert vertices.column("name").to_pylist() == [
        "com.example.a.www",
        "example.xn--a",
        "net.example.c",
        "org.example.b",
    ]
    assert list(
        zip(edges.column("src").to_pylist(), edges.column("dst").to_pylist(), strict=True)
    ) == [(0, 3), (2, 1), (2, 3)]


def test_a_damaged_input_is_one_error_line_and_the_rest_make_the_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "cut.warc.gz"
    bad.write_bytes(CRAWL.read_bytes()[:900])
    status = main(
        [
            "graph",
            str(bad),
            str(FIXTURES / "containers" / "dupes.warc.gz"),
            "-o",
            str(tmp_path / "g"),
        ]
    )
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert re.search(r"cut\.warc\.gz.*offset \d+", err)
    assert (tmp_path / "g" / "vertices.tsv").read_text().count("\n") >= 1


def test_an_interrupted_build_leaves_no_half_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baselinks.graph import build as module

    def stop(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(module._Builder, "add", stop)
    with pytest.raises(KeyboardInterrupt):
        build_graph([CRAWL], tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_tsv_files_are_read_by_graph_tools_as_they_are(tmp_path: Path) -> None:
    igraph = extra("ranks")
    build_graph([warc(PAGES)], tmp_path)
    graph = igraph.Graph.Read_Edgelist(str(tmp_path / "edges.tsv"), directed=True)
    assert graph.get_edgelist() == [(0, 3), (2, 1), (2, 3)]


def test_unknown_level_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", str(CRAWL), "-o", "x", "--level", "site"]) == 2
    assert "invalid choice: 'site'" in capsys.readouterr().err


def test_sort_order_is_lc_all_c_sort(tmp_path: Path) -> None:
    if shutil.which("sort") is None:
        pytest.skip("no sort(1) on this machine")
    build_graph([warc(PAGES)], tmp_path, level="page")
    names = [line.split("\t")[1] for line in (tmp_path / "vertices.tsv").read_text().splitlines()]
    ran = subprocess.run(
        ["sort"],
        input="\n".join(names) + "\n",
        capture_output=True,
        text=True,
        env={"LC_ALL": "C"},
        check=True,
    )
    assert ran.stdout.splitlines() == names
