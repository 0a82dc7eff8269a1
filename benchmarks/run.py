"""The benchmark suite: one runner, named cases.

    python benchmarks/run.py --list
    python benchmarks/run.py CASE [ARGUMENTS...]
    python benchmarks/run.py floors ../shared/corpus

Each case is a script of this folder with its own options (``python benchmarks/run.py CASE
--help`` shows them), run in a fresh interpreter with the arguments after its name; what the
cases share (the corpus's pages, the lxml parse they are measured in, the WARC they are built
into) is common.py, and no case imports another. ``floors`` runs the measurements issue 35's
floors are judged by and prints the table docs/benchmarks.md quotes (its ``--write-docs``
writes it there).

A new benchmark is a script with a ``--help`` and a line in :data:`CASES` below (its name, its
file, what it measures); tests/test_benchmarks.py fails for a ``bench_*.py`` that is no case.
Nothing here is run by the tests but ``--help``: the cases run for minutes, on demand.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent


class Case(NamedTuple):
    script: str  # a file of this folder
    what: str


CASES: dict[str, Case] = {
    "floors": Case("bench_floors.py", "issue 35's floors, one table (pages, a crawl, the paths)"),
    "peers": Case("bench_peers.py", "pages: baselinks against lxml, Scrapy, selectolax + ada-url"),
    "stages": Case("bench_stages.py", "pages: each stage of the pipeline, in lxml parses"),
    "warc": Case("bench_warc.py", "a crawl: the CLI against FastWARC + selectolax + ada-url"),
    "jobs": Case("bench_jobs.py", "-j N against -j 1 and the machine's own ceiling"),
    "memory": Case("bench_memory.py", "peak memory on big WARC files: flat in the input"),
    "parquet": Case("bench_parquet.py", "--format parquet against JSON Lines"),
    "write": Case("bench_write.py", "each output format, in lxml parses (or instructions)"),
    "overhead": Case("bench_overhead.py", "iter_links, the CLI and the containers over the stages"),
    "startup": Case("bench_startup.py", "start-up: --version and one small file"),
    "hostile": Case("bench_hostile.py", "time and memory of hostile inputs at n and 4n"),
    "resolve": Case("bench_resolve.py", "resolution alone on real pairs, against urljoin, ada"),
    "discovery": Case("bench_discovery.py", "metadata, JSON-LD, feeds, sitemaps, robots.txt"),
    "graph": Case("bench_graph.py", "the link graph: its own work at scale"),
    "coverage": Case("bench_coverage.py", "coverage's peak memory as a crawl grows to 100,000"),
    "spark": Case("bench_spark.py", "baselinks.spark against the CLI (the spark extra)"),
    "compiled": Case("bench_compiled.py", "mypyc and Cython over the pure URL modules"),
    "paths": Case("profile_paths.py", "one document's stages on each path"),
    "links": Case("compare_links.py", "links found: baselinks against iterlinks, Scrapy"),
    "containers": Case("compare_containers.py", "documents found in archives and messages"),
    "browser": Case("browser_oracle.py", "headless Chromium as the whatwg mode's oracle"),
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "--list"):
        if args[:1] != ["--list"]:  # --list: the cases alone, a line each
            print(__doc__.strip(), end="\n\n")
        for name, case in CASES.items():
            print(f"{name:12} {case.script:24} {case.what}")
        return 0 if args else 2
    name, rest = args[0], args[1:]
    case = CASES.get(name)
    if case is None:
        print(f"run.py: no case {name!r} (--list names them)", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, str(HERE / case.script), *rest])


if __name__ == "__main__":
    sys.exit(main())
