"""The web graph in Common Crawl's released layout (issue 38 item 2): hosts named as cc-pyspark's
ExtractHostLinksJob names them, domains folded as cc-webgraph's HostToDomainGraph folds them,
files as cc-webgraph's readers expect them (IDs 0..n-1 in the order of the reversed names,
edges sorted numerically, no header, gzip), ranks as process_webgraph.sh writes them.

The tables are theirs, turned into ours, each with where it comes from:
- cc-webgraph src/test/java/org/commoncrawl/webgraph/TestHostToDomainGraph.java (commit
  4c615bd): the host lists and the domain graphs expected of them (hyphenated names, the sort
  order of issues #3 and #33, private domains, multi-part suffixes);
- cc-pyspark wat_extract_links.py (commit 49daea0), ExtractHostLinksJob.get_surt_host: what its
  comments promise (a trailing dot, www.com kept, an IP after www., IDNs as punycode: #35),
  and cc-pyspark#56 (www. kept from the 2026 graphs on).
"""

from __future__ import annotations

import gzip
import itertools
import shutil
import subprocess
import zlib
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from baselinks.graph import build_graph
from baselinks.graph.hosts import domain_of, host_vertex, reverse
from baselinks.graph.ranks import CC_HEADER, compute_ranks, java_double, java_float
from conftest import extra
from conftest import warc as _warc


def warc(pages: list[tuple[str, bytes]]) -> bytes:
    return _warc((url, "text/html", body) for url, body in pages)


# --- host names: cc-pyspark's get_surt_host ---------------------------------------------------

# (url, www kept, www stripped): its comments' promises and the cases around them
HOSTS = [
    ("http://www.example.com/", "com.example.www", "com.example"),
    ("https://WWW.Example.COM:8080/a", "com.example.www", "com.example"),  # urlparse: no port
    ("http://www.com/", "com.www", "com.www"),  # "www.com is a valid domain": 2 labels stay
    ("http://example.com./", "com.example", "com.example"),  # "trailing dot is allowed"
    ("http://www.1.2.3.4/", None, None),  # "including IPs with leading www."
    ("http://10.0.0.1/", None, None),
    ("http://localhost/", None, None),  # "must be at least domain.tld"
    ("http://bücher.de/", "de.xn--bcher-kva", "de.xn--bcher-kva"),  # IDNA 2008 (#35)
    ("http://a_b.example.org/", "org.example.a_b", "org.example.a_b"),  # "allowing underscore"
    ("http://-a.example.org/", None, None),  # a label starts with [a-z0-9]
    ("http://user:pw@host.example.net/", "net.example.host", "net.example.host"),
    ("http://" + "a" * 64 + ".com/", None, None),  # a label of 64
    ("//cdn.example.com/x.js", "com.example.cdn", "com.example.cdn"),  # protocol-relative
    ("mailto:a@b.example", None, None),
    ("http://[::1]/", None, None),  # one "label": no dot
    ("http://ex%41mple.com/", None, None),  # urlparse keeps %41: no label
]


@pytest.mark.parametrize(("url", "kept", "stripped"), HOSTS)
def test_host_names_as_cc_pyspark(url: str, kept: str | None, stripped: str | None) -> None:
    assert host_vertex(url, keep_www=True)[0] == kept
    assert host_vertex(url, keep_www=False)[0] == stripped


# --- domains: cc-webgraph's HostToDomainGraph --------------------------------------------------

# testConvertNodesHyphenatedDomains: the hosts, and the domain graph (name, n_hosts)
HYPHENATED = [
    "ac.e-bike", "ac.e-bikes", "ac.e-com", "ac.e.subdomain", "ac.eagle",
    "ac.gov",  # domain name public suffix only
    "ac.gov.ascension", "ac.gov.ascension-island", "ac.gov.ascension.mail",
    "ac.gov.conservation-ascension-island", "ac.gov.postoffice",
]  # fmt: skip
HYPHENATED_DOMAINS = [
    ("ac.e", 1), ("ac.e-bike", 1), ("ac.e-bikes", 1), ("ac.e-com", 1), ("ac.eagle", 1),
    ("ac.gov.ascension", 2), ("ac.gov.ascension-island", 1),
    ("ac.gov.conservation-ascension-island", 1), ("ac.gov.postoffice", 1),
]  # fmt: skip
# testConvertNodesHyphenatedDomainsIncludingMultiPartSuffixes: ac.gov is a domain of its own
HYPHENATED_MULTIPART = [*HYPHENATED_DOMAINS[:5], ("ac.gov", 1), *HYPHENATED_DOMAINS[5:]]
# testConvertNodesHyphenatedDomainsSubDomainOnly
SUBDOMAIN_ONLY = [
    "ac.gov.ascension-island", "ac.gov.ascension.mail", "ac.gov.conservation-ascension-island",
    "ac.gov.postoffice",
]  # fmt: skip
SUBDOMAIN_ONLY_DOMAINS = [
    ("ac.gov.ascension", 1), ("ac.gov.ascension-island", 1),
    ("ac.gov.conservation-ascension-island", 1), ("ac.gov.postoffice", 1),
]  # fmt: skip
# testConvertNodesDuplicatedDomain: os.hordaland.no is a suffix, hordaland.no is not
DUPLICATED = [
    "no.hordaland", "no.hordaland-teater", "no.hordaland.os", "no.hordaland.os.bibliotek",
    "no.hordaland.oygarden", "no.hordalandfolkemusikklag",
]  # fmt: skip
DUPLICATED_DOMAINS = [
    ("no.hordaland", 2), ("no.hordaland-teater", 1), ("no.hordaland.os.bibliotek", 1),
    ("no.hordalandfolkemusikklag", 1),
]  # fmt: skip
# testConvertNodesEnsureSortedOutputA and B (issue #33: the domain output was not sorted when a
# domain is a string prefix of a suffix that comes later)
IN_SUFFIX_A = [
    "no.hedland", "no.hedmark-folkemusikklag", "no.hedmark-trafikk", "no.hedmark.m",
    "no.hedmark.os.www", "no.hedmark.www", "no.hedmarktrafikk",
]  # fmt: skip
IN_SUFFIX_A_DOMAINS = [
    ("no.hedland", 1), ("no.hedmark", 2), ("no.hedmark-folkemusikklag", 1),
    ("no.hedmark-trafikk", 1), ("no.hedmark.os.www", 1), ("no.hedmarktrafikk", 1),
]  # fmt: skip
IN_SUFFIX_B = [host for host in IN_SUFFIX_A if host != "no.hedmark.m"]
IN_SUFFIX_B_DOMAINS = [(n, 1 if n == "no.hedmark" else k) for n, k in IN_SUFFIX_A_DOMAINS]
# testConvertPrivateDomain (private domains and multi-part suffixes): forgot.his.name is in
# the list's private section, name in its ICANN section
PRIVATE = [
    "name.hiro", "name.hiropo", "name.his.forgot.adam", "name.his.forgot.ben",
    "name.his.forgot.never", "name.his.prz", "name.hista.tac", "name.history",
    "name.history.0.aba", "name.hit",
]  # fmt: skip
PRIVATE_DOMAINS = [
    ("name.hiro", 1), ("name.hiropo", 1), ("name.his", 1), ("name.his.forgot.adam", 1),
    ("name.his.forgot.ben", 1), ("name.his.forgot.never", 1), ("name.hista", 1),
    ("name.history", 2), ("name.hit", 1),
]  # fmt: skip

# Not taken: testConvertNodesSimple's hosts end in "," (an artefact of the Java test: no host
# name holds one), testConvertStripWww is the --aggregation-level host-without-www mode (hosts
# without www., not domains: --www strip at host level here), testConvertNodesNotSorted is the
# Java reader refusing unsorted input (ours sorts its own).
DOMAIN_TABLES: dict[str, tuple[list[str], list[tuple[str, int]], dict[str, Any]]] = {
    "hyphenated": (HYPHENATED, HYPHENATED_DOMAINS, {}),
    "hyphenated-multipart": (HYPHENATED, HYPHENATED_MULTIPART, {"multipart": True}),
    "subdomain-only": (SUBDOMAIN_ONLY, SUBDOMAIN_ONLY_DOMAINS, {}),
    "duplicated": (DUPLICATED, DUPLICATED_DOMAINS, {}),
    "issue-33-a": (IN_SUFFIX_A, IN_SUFFIX_A_DOMAINS, {}),
    "issue-33-b": (IN_SUFFIX_B, IN_SUFFIX_B_DOMAINS, {}),
    "private": (PRIVATE, PRIVATE_DOMAINS, {"private_domains": True, "multipart": True}),
}


def _lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8", newline="\n") as text:
        return text.read().splitlines()


@pytest.mark.parametrize("table", DOMAIN_TABLES)
def test_the_domain_graph_as_host_to_domain_graph_makes_it(table: str, tmp_path: Path) -> None:
    hosts, expected, options = DOMAIN_TABLES[table]
    # one page per host, each linking to the next: the hosts are the host graph's vertices
    pages = [
        (f"http://{reverse(host)}/", f'<a href="http://{reverse(after)}/">x</a>'.encode())
        for host, after in zip(hosts, [*hosts[1:], hosts[0]], strict=True)
    ]
    build_graph([warc(pages)], tmp_path, level="domain", form="common-crawl", name="tab", **options)
    vertices = _lines(tmp_path / "tab-vertices.txt.gz")
    assert vertices == [f"{i}\t{name}\t{n}" for i, (name, n) in enumerate(expected)]
    ids = {name: i for i, (name, _) in enumerate(expected)}
    private, multipart = options.get("private_domains", False), options.get("multipart", False)
    domains = [domain_of(host, private, multipart) for host in hosts]
    expected_edges = sorted(
        {
            (ids[a], ids[b])
            for a, b in zip(domains, [*domains[1:], domains[0]], strict=True)
            if a is not None and b is not None and a != b
        }
    )
    edges = [tuple(map(int, line.split("\t"))) for line in _lines(tmp_path / "tab-edges.txt.gz")]
    assert edges == expected_edges


def test_the_host_graph_files_as_cc_webgraph_reads_them(tmp_path: Path) -> None:
    hosts = [
        *HYPHENATED,
        *DUPLICATED,
        *IN_SUFFIX_A,
        "com.example",
        "com.example-a",
        "com.example.www",
    ]
    pages = [
        (f"http://{reverse(host)}/", "".join(f'<a href="http://{reverse(t)}/">x</a>' for t in hosts[i::7]).encode())
        for i, host in enumerate(hosts)
    ]  # fmt: skip
    archive = tmp_path / "in.warc.gz"
    archive.write_bytes(warc(pages))
    out = tmp_path / "graph"
    assert main(["graph", str(archive), "-q", "-o", str(out), "--layout", "common-crawl",
                 "--name", "cc-main-test-host"]) == 0  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == [
        "cc-main-test-host-edges.txt.gz",
        "cc-main-test-host-vertices.txt.gz",
    ]
    for path in out.iterdir():
        raw = path.read_bytes()
        # one gzip member, no file name, no time: the same bytes each time
        assert raw[:4] == b"\x1f\x8b\x08\x00" and raw[4:8] == b"\x00\x00\x00\x00"
        member = zlib.decompressobj(wbits=31)
        member.decompress(raw)
        assert member.eof and member.unused_data == b""  # one member: Java's GZIPInputStream
    vertices = _lines(out / "cc-main-test-host-vertices.txt.gz")
    names = [line.split("\t")[1] for line in vertices]
    assert [int(line.split("\t")[0]) for line in vertices] == list(range(len(vertices)))
    # the order of HostToDomainGraph's check (String.compareTo: UTF-16 code units, here ASCII)
    assert all(a < b for a, b in itertools.pairwise(names))
    assert set(names) == set(hosts)
    edges = [
        tuple(map(int, line.split("\t"))) for line in _lines(out / "cc-main-test-host-edges.txt.gz")
    ]
    assert edges == sorted(set(edges)) and all(s != d and d < len(names) for s, d in edges)
    if shutil.which("sort"):  # process_webgraph.sh's own check of the order: sort -c
        text = "\n".join(f"{s}\t{d}" for s, d in edges) + "\n"
        checked = subprocess.run(["sort", "-c", "-t\t", "-k1,1n", "-k2,2n"], input=text,
                                 text=True, env={"LC_ALL": "C"}, capture_output=True)  # fmt: skip
        assert checked.returncode == 0, checked.stderr
        vertex_text = "\n".join(vertices) + "\n"
        checked = subprocess.run(["sort", "-c", "-t\t", "-k2,2"], input=vertex_text,
                                 text=True, env={"LC_ALL": "C"}, capture_output=True)  # fmt: skip
        assert checked.returncode == 0, checked.stderr


def test_www_keep_and_strip_in_the_released_layout(tmp_path: Path) -> None:
    pages = [("http://www.example.com/", b'<a href="http://www.example.org/">o</a>')]
    archive = tmp_path / "in.warc.gz"
    archive.write_bytes(warc(pages))
    for policy, expected in (("keep", ["com.example.www", "org.example.www"]),
                             ("strip", ["com.example", "org.example"])):  # fmt: skip
        out = tmp_path / policy
        assert main(["graph", str(archive), "-q", "-o", str(out), "--layout", "common-crawl",
                     "--www", policy]) == 0  # fmt: skip
        vertices = _lines(out / f"{policy}-vertices.txt.gz")  # the name: the folder's
        assert vertices == [f"{i}\t{name}" for i, name in enumerate(expected)]


def test_a_bad_name_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "in.warc.gz"
    archive.write_bytes(warc([("http://a.example/", b"")]))
    assert main(["graph", str(archive), "-o", str(tmp_path / "g"), "--layout", "common-crawl",
                 "--name", "a b"]) == 2  # fmt: skip
    assert "cc-webgraph's rule" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


# --- ranks ----------------------------------------------------------------------------------

# Java's Float.toString and Double.toString (JDK 19 on, the shortest that reads back)
JAVA = [
    (1.0, "1.0", "1.0"),
    (0.0, "0.0", "0.0"),
    (1 / 3, "0.33333334", "0.3333333333333333"),
    (1e7, "1.0E7", "1.0E7"),
    (9999999.0, "9999999.0", "9999999.0"),
    (0.001, "0.001", "0.001"),
    (0.000999, "9.99E-4", "9.99E-4"),
    (2.5e-5, "2.5E-5", "2.5E-5"),
    (12345678.9, "1.2345679E7", "1.23456789E7"),
    (123.456, "123.456", "123.456"),
]


@pytest.mark.parametrize(("value", "as_float", "as_double"), JAVA)
def test_numbers_as_java_writes_them(value: float, as_float: str, as_double: str) -> None:
    assert (java_float(value), java_double(value)) == (as_float, as_double)


def test_the_ranks_file_as_process_webgraph_writes_it(tmp_path: Path) -> None:
    extra("ranks")
    pages = [
        ("http://a.example.com/", b'<a href="http://c.example.com/">c</a>'),
        ("http://b.example.com/", b'<a href="http://c.example.com/">c</a><a href="http://a.example.com/">a</a>'),
        ("http://c.example.com/", b""),
    ]  # fmt: skip
    build_graph([warc(pages)], tmp_path, form="common-crawl", name="ggg")
    ranks = compute_ranks(tmp_path)
    assert ranks.path == tmp_path / "ggg-ranks.txt.gz"
    lines = _lines(tmp_path / "ggg-ranks.txt.gz")
    assert lines[0] == CC_HEADER == "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev"
    rows = [line.split("\t") for line in lines[1:]]
    assert [row[0] for row in rows] == ["1", "2", "3"]  # sorted by harmonic position
    # c: reached from a (1) and b (1), a from b: 1; b from none: 0 (in-paths, not normalised)
    assert [(row[4], row[1]) for row in rows] == [
        ("com.example.c", "2.0"),
        ("com.example.a", "1.0"),
        ("com.example.b", "0.0"),
    ]
    assert sorted(int(row[2]) for row in rows) == [1, 2, 3]
    assert all(float(row[3]) > 0 for row in rows)
    build_graph([warc(pages)], tmp_path / "d", level="domain", form="common-crawl", name="ddd")
    compute_ranks(tmp_path / "d")
    lines = _lines(tmp_path / "d" / "ddd-ranks.txt.gz")
    assert lines == [CC_HEADER + "\t#n_hosts", "1\t0.0\t1\t1.0\tcom.example\t3"]


def test_the_host_graph_takes_what_common_crawls_takes(tmp_path: Path) -> None:
    """Links, a redirect's Location, a Link or Content-Location header, a robots.txt's Sitemap:
    line: each an edge, as cc-pyspark's ExtractHostLinksJob takes them (process_redirect,
    extract_http_header_links, process_robotstxt)."""
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    for url, status, headers, body in [
        ("http://a.example.com/robots.txt", "200 OK", [("Content-Type", "text/plain")],
         b"User-agent: *\nSitemap: https://sitemaps.example.org/s.xml\n"),
        ("http://a.example.com/old", "301 Moved Permanently",
         [("Location", "https://b.example.net/new"), ("Content-Type", "text/html")], b""),
        ("http://c.example.com/", "200 OK",
         [("Content-Type", "text/html"), ("Link", "<https://cdn.example.org/x.css>; rel=preload")],
         b'<a href="http://d.example.com/">d</a>'),
        ("http://e.example.com/", "200 OK",
         [("Content-Type", "text/html"), ("Content-Location", "https://f.example.org/e.en")],
         b"<p>no link</p>"),
    ]:  # fmt: skip
        http = StatusAndHeaders(status, headers, "HTTP/1.1")
        record = writer.create_warc_record(
            url, "response", payload=io.BytesIO(body), length=len(body), http_headers=http
        )
        writer.write_record(record)
    build_graph([out.getvalue()], tmp_path)
    names = [line.split("\t")[1] for line in (tmp_path / "vertices.tsv").read_text().splitlines()]
    edges = [
        (names[int(s)], names[int(d)])
        for s, d in (line.split("\t") for line in (tmp_path / "edges.tsv").read_text().splitlines())
    ]
    assert sorted(edges) == [
        ("com.example.a", "net.example.b"),  # the redirect
        ("com.example.a", "org.example.sitemaps"),  # robots.txt's Sitemap:
        ("com.example.c", "com.example.d"),  # a link
        ("com.example.c", "org.example.cdn"),  # the Link header
        ("com.example.e", "org.example.f"),  # the Content-Location header
    ]
