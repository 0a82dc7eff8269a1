"""The link graph's cost: time and memory of ``baselinks graph``'s own work at scale, and what it
adds to extraction on real archives.

    python benchmarks/bench_graph.py synthetic --links 1000000 --level host [--run-size 250000]
    python benchmarks/bench_graph.py corpus CORPUS/warc [--levels host,domain,page] [--rounds 3]

``synthetic``: page_url/url pairs with a crawl's shape (Zipf popularity of hosts and pages, about
50 links a page, 63% to the page's own host, 10% to its domain's, 24% elsewhere in a web 5 times
the crawl, 3% garbage: mailto:, relative leftovers, invalid hosts; deterministic, seed 28; the
research's generator) named, sorted and written exactly as the command does after extraction
(graph.names.DocumentNamer per document, ExternalGraph, GraphFiles): time here, peak memory
with ``/usr/bin/time -v`` around it (docs/benchmarks.md has the figures). ``corpus``: the CPU
time of ``baselinks extract -j 1`` (JSON Lines to /dev/null) against ``baselinks graph -j 1`` at
each level on the same inputs, medians of ``--rounds``, interleaved.
"""

from __future__ import annotations

import argparse
import bisect
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from baselinks.graph.build import GraphOptions, GraphSummary, _Builder
from baselinks.graph.files import GraphFiles
from baselinks.graph.records import Record
from baselinks.graph.sort import RUN_SIZE, ExternalGraph

SUFFIXES = (
    ["com"] * 40 + ["org"] * 8 + ["net"] * 6 + ["de"] * 6 + ["co.uk"] * 4 + ["fr", "io", "jp"]
)
PRIVATE = ["blogspot.com", "github.io"]
SUBS = ["www"] * 10 + ["", "", "blog", "cdn", "static", "m", "shop", "news", "api", "www2"]
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "news",
    "shop",
    "blog",
    "data",
    "cloud",
    "web",
    "net",
    "home",
    "city",
    "sport",
    "music",
]
GARBAGE = [
    "mailto:info@example.com", "javascript:void(0)", "#top", "/relative/left.html",
    "http://exa mple.com/", "http://" + "a." * 200 + "com/", "http://xn--a.example/", "http://localhost/x",
]  # fmt: skip


def _zipf(n: int, s: float) -> list[float]:
    weights = [1.0 / (i + 1) ** s for i in range(n)]
    total, acc, cdf = sum(weights), 0.0, []
    for weight in weights:
        acc += weight / total
        cdf.append(acc)
    return cdf


def _pick(rng: random.Random, cdf: list[float]) -> int:
    return min(bisect.bisect_left(cdf, rng.random()), len(cdf) - 1)


def _hosts(rng: random.Random, domains: int, tag: str) -> list[str]:
    hosts = []
    for d in range(domains):
        r = rng.random()
        if r < 0.03:
            hosts.append(f"{rng.choice(WORDS)}{tag}{d}.{rng.choice(PRIVATE)}")
        elif r < 0.035:
            hosts.append(".".join(str(rng.randint(1, 254)) for _ in range(4)))
        else:
            name = f"{rng.choice(WORDS)}{rng.choice(WORDS)}{tag}{d}"
            suffix = rng.choice(SUFFIXES)
            for sub in rng.sample(SUBS, min(len(SUBS), max(1, int(rng.paretovariate(2.0))))):
                hosts.append(f"{sub}.{name}.{suffix}" if sub else f"{name}.{suffix}")
    return hosts


def synthetic(links: int, seed: int = 28) -> Iterator[tuple[str, list[str]]]:
    """(page_url, [url...]) per document, ``links`` links in all."""
    rng = random.Random(seed)
    domains = max(10, links // 1000)
    hosts = _hosts(rng, domains, "")
    web = hosts + _hosts(random.Random(seed + 1), domains * 4, "x")
    host_cdf, web_cdf, page_cdf = _zipf(len(hosts), 1.05), _zipf(len(web), 0.95), _zipf(2000, 0.9)

    def page(host: str, number: int) -> str:
        return f"https://{host}/{WORDS[number % len(WORDS)]}/{number}.html"

    made = 0
    while made < links:
        own = hosts[_pick(rng, host_cdf)]
        count = min(max(0, int(rng.lognormvariate(3.6, 0.8))), links - made)
        targets = []
        for _ in range(count):
            r = rng.random()
            if r < 0.73:
                targets.append(page(own, _pick(rng, page_cdf)))
            elif r < 0.97:
                targets.append(page(web[_pick(rng, web_cdf)], _pick(rng, page_cdf)))
            else:
                targets.append(rng.choice(GARBAGE))
        made += max(count, 1)
        yield page(own, _pick(rng, page_cdf)), targets


def build_synthetic(
    links: int, level: str, run_size: int, folder: Path, weights: bool = False
) -> GraphSummary:
    options = GraphOptions(level=level, weights=weights)
    made = GraphSummary(level)
    files = GraphFiles(folder, "tsv", weights=weights)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        graph = ExternalGraph(scratch, run_size)
        builder = _Builder(options, graph, made)
        for page_url, urls in synthetic(links):
            records = [Record(u, page_url, "link", page_url) for u in urls]
            builder.add(page_url, builder.namer(records))
        made.vertices, made.edges = graph.finish(files)
    files.commit()
    return made


def _cpu(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def corpus(path: str, levels: list[str], rounds: int) -> None:
    command = [sys.executable, "-m", "baselinks"]
    times: dict[str, list[float]] = {"extract": [], **{level: [] for level in levels}}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            times["extract"].append(
                _cpu([*command, "extract", path, "-q", "--format", "jsonl", "-o", "/dev/null"])
            )
            for level in levels:
                times[level].append(
                    _cpu([*command, "graph", path, "-q", "--level", level, "-o", f"{out}/{level}"])
                )
    base = statistics.median(times["extract"])
    print(f"{'run':<10} {'CPU s':>7} {'vs extract':>11}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<10} {median:7.2f} {100 * (median / base - 1):+10.0f}%")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    syn = sub.add_parser("synthetic")
    syn.add_argument("--links", type=int, default=1_000_000)
    syn.add_argument("--level", default="host", choices=["page", "host", "domain"])
    syn.add_argument("--run-size", type=int, default=RUN_SIZE)
    cor = sub.add_parser("corpus")
    cor.add_argument("path")
    cor.add_argument("--levels", default="host,domain,page")
    cor.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.what == "corpus":
        corpus(args.path, args.levels.split(","), args.rounds)
        return 0
    start, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        made = build_synthetic(args.links, args.level, args.run_size, Path(folder))
    print(
        f"{args.links:,} links, {args.level}: {made.vertices:,} vertices, {made.edges:,} edges; "
        f"{time.perf_counter() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
