"""What discovery (issue 27) costs: the metadata rows and JSON-LD on a corpus's pages, and the
speed of feeds, sitemaps and robots.txt per MB.

    python benchmarks/bench_discovery.py CORPUS [--rounds 5] [--json FILE] [--walk-only]

**The metadata rows.** The corpus's HTML pages (as bench_peers.py loads them) are parsed once,
then walked (find/walk.py ``raw_links``, the stage the rows are in) with four tables, in turn,
each round: the whole table; without the three ``<meta>`` rows (Open Graph, Twitter cards,
msapplication); without the JSON-LD row; without either. A row's cost is the difference of the
walks, per page and in bare lxml parses of the same pages (bench_peers.py's unit, timed in the
same process), for the compiled walk and for BASELINKS_PURE=1 (each in a fresh interpreter);
with the links those rows give. The medians of the rounds are reported: the machine is shared.

**Feeds, sitemaps, robots.txt.** Documents made of the fixtures' own entries, repeated to a
size (a 50 MB sitemap, the protocol's limit; a 10 MB RSS feed whose items hold escaped HTML; a
10 MB Atom feed with nested xml:base and inline XHTML; a 1 MB robots.txt), each given to
``extract_links`` with its media type: MB per second, links per second, both paths.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from common import load_corpus, lxml_parse

TABLES = ("whole", "no-meta", "no-json-ld", "neither")


def _tables() -> dict[str, Any]:
    from baselinks.find import walk
    from baselinks.find.linktable import JSON_LD, LINK_SOURCES, METADATA

    meta = {
        source for source in LINK_SOURCES if source.tags == {"meta"} and source.problem in METADATA
    }
    json_ld = {source for source in LINK_SOURCES if source.syntax == JSON_LD}
    kept = {
        "whole": LINK_SOURCES,
        "no-meta": tuple(s for s in LINK_SOURCES if s not in meta),
        "no-json-ld": tuple(s for s in LINK_SOURCES if s not in json_ld),
        "neither": tuple(s for s in LINK_SOURCES if s not in meta | json_ld),
    }
    return {name: walk._Table(rows) for name, rows in kept.items()}


def _use(table: Any) -> None:
    """Make ``table`` the one raw_links walks with (its cache of tables emptied)."""
    from baselinks.find import walk

    walk._TABLE = table
    walk._table.cache_clear()


def _walk_round(corpus: str) -> dict[str, Any]:
    """One round in this process: each table's walk of every page, and the lxml parse."""
    from baselinks.find import walk
    from baselinks.load.document import load

    docs = load_corpus(Path(corpus))
    trees = [load(data).tree for data, _ in docs]
    tables = _tables()
    for table in tables.values():  # warm: each table's plans, steps and compiled scanner
        _use(table)
        for tree in trees:
            walk.raw_links(tree)
    start = time.perf_counter()
    lxml_parse(docs)
    parse = time.perf_counter() - start
    times, links = dict.fromkeys(tables, 0.0), {}
    for _ in range(3):  # each table in turn, three times: a drift of the machine falls on all
        for name, table in tables.items():
            _use(table)
            start = time.perf_counter()
            links[name] = sum(len(walk.raw_links(tree)) for tree in trees)
            times[name] += (time.perf_counter() - start) / 3
    start = time.perf_counter()
    lxml_parse(docs)
    parse = (parse + time.perf_counter() - start) / 2
    return {"pages": len(docs), "parse": parse, "times": times, "links": links}


def _make(kind: str) -> tuple[bytes, str, str]:
    """A document of the fixtures' entries repeated: (bytes, media type, retrieval URL)."""
    if kind == "sitemap":
        entry = (
            "<url><loc>http://shop.example/catalog/item-{0}.html</loc>"
            "<lastmod>2024-01-01</lastmod><changefreq>daily</changefreq>"
            "<image:image><image:loc>http://img.example/{0}.jpg</image:loc></image:image>"
            '<xhtml:link rel="alternate" hreflang="de" href="http://shop.example/de/{0}"/>'
            "</url>\n"
        )
        head = (
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        )
        return (
            _repeat(head, entry, "</urlset>\n", 50),
            "application/xml",
            "http://shop.example/catalog/sitemap.xml",
        )
    if kind == "rss":
        entry = (
            "<item><title>Item {0}</title><link>/items/{0}</link><guid>/items/{0}</guid>"
            '<enclosure url="/audio/{0}.mp3" length="1" type="audio/mpeg"/>'
            "<description>&lt;p&gt;Read &lt;a href=&quot;/items/{0}/more&quot;&gt;more&lt;/a&gt;"
            " &lt;img src=&quot;/img/{0}.jpg&quot; srcset=&quot;/img/{0}@2x.jpg 2x&quot;&gt;"
            "&lt;/p&gt;</description></item>\n"
        )
        return (
            _repeat(
                '<rss version="2.0"><channel><link>/</link>\n', entry, "</channel></rss>\n", 10
            ),
            "application/rss+xml",
            "http://news.example/rss",
        )
    if kind == "atom":
        entry = (
            '<entry xml:base="{0}/"><id>http://news.example/blog/{0}</id><link href="post.html"/>'
            '<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>'
            '<a href="more.html">more</a> <img src="i.png"/></p></div></content></entry>\n'
        )
        head = '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://news.example/blog/">\n'
        return (
            _repeat(head, entry, "</feed>\n", 10),
            "application/atom+xml",
            "http://news.example/feed.atom",
        )
    entry = "Disallow: /private/{0}/\nSitemap: /sitemaps/{0}.xml\n"
    return _repeat("User-agent: *\n", entry, "", 1), "text/plain", "http://shop.example/robots.txt"


def _repeat(head: str, entry: str, tail: str, megabytes: int) -> bytes:
    parts, size, number = [head], len(head), 0
    while size < megabytes * 1_000_000:
        part = entry.format(number)
        parts.append(part)
        size += len(part)
        number += 1
    parts.append(tail)
    return "".join(parts).encode()


def _documents_round() -> dict[str, Any]:
    from baselinks import extract_links

    found = {}
    for kind in ("sitemap", "rss", "atom", "robots"):
        data, media_type, url = _make(kind)
        start = time.perf_counter()
        links = extract_links(data, url=url, headers={"Content-Type": media_type})
        found[kind] = {
            "seconds": time.perf_counter() - start,
            "bytes": len(data),
            "links": len(links),
        }
    return found


def _child(corpus: str, pure: bool, walk_only: bool) -> dict[str, Any]:
    env = {**os.environ, "BASELINKS_PURE": "1" if pure else ""}
    done = subprocess.run(
        [sys.executable, __file__, corpus, "--worker", *(["--walk-only"] if walk_only else [])],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write every round here")
    parser.add_argument("--walk-only", action="store_true", help="the metadata rows' cost alone")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        documents = {} if args.walk_only else _documents_round()
        print(json.dumps({"walk": _walk_round(args.corpus), "documents": documents}))
        return 0
    rounds: dict[str, list[dict[str, Any]]] = {"compiled": [], "pure": []}
    for number in range(args.rounds):
        for path in rounds:
            rounds[path].append(_child(args.corpus, path == "pure", args.walk_only))
        print(f"round {number + 1} done", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(rounds, indent=1))
    _report(rounds)
    return 0


def _report(rounds: dict[str, list[dict[str, Any]]]) -> None:
    print("| path | rows | links | cost per page, ms | x lxml parse |")
    print("|---|---|---:|---:|---:|")
    for path, runs in rounds.items():
        pages = runs[0]["walk"]["pages"]
        for label, less in (
            ("metadata <meta>", "no-meta"),
            ("JSON-LD", "no-json-ld"),
            ("both", "neither"),
        ):
            costs = [r["walk"]["times"]["whole"] - r["walk"]["times"][less] for r in runs]
            units = [cost / r["walk"]["parse"] for cost, r in zip(costs, runs, strict=True)]
            links = runs[0]["walk"]["links"]["whole"] - runs[0]["walk"]["links"][less]
            print(
                f"| {path} | {label} | {links:,} | {1000 * statistics.median(costs) / pages:.3f} "
                f"| {statistics.median(units):.3f} |"
            )
        whole = [r["walk"]["times"]["whole"] / r["walk"]["parse"] for r in runs]
        total = runs[0]["walk"]["links"]["whole"]
        print(f"| {path} | (the whole walk) | {total:,} | | {statistics.median(whole):.3f} |")
    print()
    print("| path | document | MB | links | MB/s | links/s |")
    print("|---|---|---:|---:|---:|---:|")
    for path, runs in rounds.items():
        for kind in runs[0]["documents"]:
            seconds = statistics.median(r["documents"][kind]["seconds"] for r in runs)
            size = runs[0]["documents"][kind]["bytes"] / 1e6
            links = runs[0]["documents"][kind]["links"]
            rate = f"{size / seconds:.1f} | {links / seconds:,.0f}"
            print(f"| {path} | {kind} | {size:.1f} | {links:,} | {rate} |")


if __name__ == "__main__":
    raise SystemExit(main())
