"""Where the time of one document goes, stage by stage, on each path, in units of one lxml parse.

    python benchmarks/profile_paths.py CORPUS [--rounds 5]

CORPUS as for bench_peers.py (``../shared/corpus``: its ``html`` rows with their retrieval
URLs). Each path runs in its own interpreter: ``compiled`` (what the install built) and ``pure``
(``BASELINKS_PURE=1``), alternating, round after round. In a round, each document is parsed bare
(``etree.fromstring`` with an ``HTMLParser``: the unit) and then taken through the stages of
``api._document_links`` one at a time, each timed with the CPU clock of the process
(``time.process_time``: the machine is shared, and another process's load then counts less):

    load     bytes → Document: encoding sniffing, decoding, lxml's parse (load.py)
    base     the retrieval base and establish_base's <base> rules (base.py)
    walk     raw_links: the walk over the link-source table (walk.py, _cwalk.pyx)
    link     Linker.link for each raw link: resolve, diagnose, the Link record (link.py)

and then once more whole (``iter_links``, rfc1808 mode), the figure bench_peers.py reports.
Each figure is the median over the rounds of (that stage's time summed over the documents) /
(the bare parses' time summed); the stages do not add up to the whole exactly (iter_links also
batches, counts and checks its inputs).
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

STAGES = ("load", "base", "walk", "link", "iter_links")


def _worker(corpus: Path) -> dict[str, float]:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_peers import load_corpus
    from lxml import etree

    from baselinks import iter_links
    from baselinks.base.layers import establish_base, retrieval_base, written_base
    from baselinks.find.walk import raw_links
    from baselinks.load.document import load
    from baselinks.resolve.link import Linker

    docs = load_corpus(corpus)
    parser = etree.HTMLParser()
    clock = time.process_time
    spent = dict.fromkeys(("parse", *STAGES), 0.0)
    for data, url in docs[:10]:  # warm up: imports, caches
        list(iter_links(data, url=url))
    for data, url in docs:
        start = clock()
        etree.fromstring(data, parser)
        loaded = clock()
        document = load(data)
        based = clock()
        fallback = written_base(retrieval_base(url, document.text), "rfc1808")
        base = establish_base(document.tree, fallback, "rfc1808", None)
        walked = clock()
        raws = raw_links(document.tree)
        linked = clock()
        link = Linker(base, "rfc1808", "-", None, fallback).link
        for raw in raws:
            if not raw.nested:
                link(raw)
        whole = clock()
        for _ in iter_links(data, url=url):
            pass
        end = clock()
        spent["parse"] += loaded - start
        spent["load"] += based - loaded
        spent["base"] += walked - based
        spent["walk"] += linked - walked
        spent["link"] += whole - linked
        spent["iter_links"] += end - whole
    return {stage: spent[stage] / spent["parse"] for stage in STAGES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.corpus)))
        return
    paths = {"compiled": {"BASELINKS_PURE": ""}, "pure": {"BASELINKS_PURE": "1"}}
    runs: dict[str, list[dict[str, float]]] = {path: [] for path in paths}
    for _ in range(args.rounds):
        for path, env in paths.items():
            ran = subprocess.run(
                [sys.executable, __file__, str(args.corpus), "--worker"],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, **env},
            )
            runs[path].append(json.loads(ran.stdout.splitlines()[-1]))
    version = subprocess.run(
        [sys.executable, "-m", "baselinks", "--version"], capture_output=True, text=True
    ).stdout.strip()
    print(f"{version}; median of {args.rounds} rounds; in units of one lxml parse (CPU time)\n")
    print("| stage | " + " | ".join(paths) + " |")
    print("|---|" + "---:|" * len(paths))
    for stage in STAGES:
        cells = [f"{statistics.median(r[stage] for r in runs[path]):.2f}" for path in paths]
        print(f"| {stage} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
