"""What the pipeline costs beyond its stages, in lxml parses of the same documents.

    python benchmarks/bench_overhead.py CORPUS [--rounds 5] [--only html|containers]

``html``: the files of ``CORPUS/html``, as the command line finds them (no ``--url``):

    lxml parse   etree.fromstring of each file's bytes (the unit)
    iter_links   iter_links(bytes) per file: bench_stages.py's row, the library's own path
    by path      iter_links(path) per file: opening and reading it, the saved-copy check too
    jsonl        write.FORMATS["jsonl"].render of each file's links (as read by path)
    cli          ``baselinks extract CORPUS/html -o /dev/null -q``, in-process (cli.main)
    reading      by path - iter_links: what a file adds over its bytes
    cli extra    cli - by path - jsonl: what the command adds to the library and the writer
    over bytes   cli - iter_links - jsonl: reading and cli extra together

``containers``: per folder (``warc``, ``mhtml``, ``eml``):

    lxml parse   of the documents inside (the HTML bodies the containers hand on)
    files        iter_links(path) per file, as a directory walk reads it
    as html      iter_links(body) per document inside, as if it were a plain HTML file (its
                 retrieval URL as url=, its transport charset as charset=)
    extra        files - as html: what reading the container adds, per document in µs too

CPU time of this one process (``time.process_time``: less disturbed by other processes on a
shared machine than wall-clock time), the rows measured one after the other in each round,
medians over the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

from baselinks import Link, iter_links
from baselinks.cli import main as cli_main
from baselinks.load.containers import Part, iter_entries
from baselinks.run.batch import Source
from baselinks.write.formats import FORMATS

Step = Callable[[], object]


def _files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


def _parse(bodies: list[bytes]) -> Step:
    def run() -> None:
        parser = etree.HTMLParser()
        for body in bodies:
            etree.fromstring(body, parser)

    return run


def _links(sources: list[tuple[Source, dict[str, Any]]]) -> Step:
    def run() -> None:
        errors: list[object] = []
        for source, options in sources:
            for _ in iter_links(source, on_error=errors.append, strict=False, **options):
                pass

    return run


def _jsonl(per_file: list[list[Link]]) -> Step:
    render = FORMATS["jsonl"].render

    def run() -> None:
        for links in per_file:
            render(links)

    return run


def _cli(folder: Path) -> Step:
    def run() -> None:
        cli_main(["extract", str(folder), "-o", os.devnull, "-q"])

    return run


def _medians(steps: dict[str, Step], rounds: int) -> dict[str, float]:
    for step in steps.values():
        step()  # warm-up: imports, first-use caches
    seconds: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(rounds):
        for name, step in steps.items():
            start = time.process_time()
            step()
            seconds[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in seconds.items()}


def html(corpus: Path, rounds: int) -> None:
    files = _files(corpus / "html")
    bodies = [path.read_bytes() for path in files]
    per_file = [list(iter_links(str(path))) for path in files]
    timed = _medians(
        {
            "lxml parse": _parse(bodies),
            "iter_links": _links([(body, {}) for body in bodies]),
            "by path": _links([(str(path), {}) for path in files]),
            "jsonl": _jsonl(per_file),
            "cli": _cli(corpus / "html"),
        },
        rounds,
    )
    timed["reading"] = timed["by path"] - timed["iter_links"]
    timed["cli extra"] = timed["cli"] - timed["by path"] - timed["jsonl"]
    timed["over bytes"] = timed["cli"] - timed["iter_links"] - timed["jsonl"]
    links = sum(map(len, per_file))
    print(f"html: {len(files)} files, {links:,} links; x lxml parse ({timed['lxml parse']:.3f} s)")
    for name, value in timed.items():
        each = value / len(files) * 1e6
        print(f"  {name:<11} {value / timed['lxml parse']:6.3f}  {each:8.1f} µs a file")


def containers(corpus: Path, rounds: int) -> None:
    for folder in ("warc", "mhtml", "eml"):
        files = _files(corpus / folder)
        parts: list[Part] = []
        for path in files:
            with open(path, "rb") as stream:
                found = iter_entries(stream, str(path), named=False)
                parts.extend(e for e in found if isinstance(e, Part) and e.body)
        documents: list[tuple[Source, dict[str, Any]]] = [
            (part.body or b"", {"url": part.retrieval, "charset": part.charset}) for part in parts
        ]
        timed = _medians(
            {
                "lxml parse": _parse([part.body for part in parts if part.body]),
                "files": _links([(str(path), {}) for path in files]),
                "as html": _links(documents),
            },
            rounds,
        )
        extra = timed["files"] - timed["as html"]
        unit = timed["lxml parse"]
        print(f"{folder}: {len(files)} files, {len(parts)} documents; x lxml parse ({unit:.3f} s)")
        for name, value in timed.items():
            print(f"  {name:<11} {value / unit:6.3f}")
        print(f"  {'extra':<11} {extra / unit:6.3f}  {extra / len(parts) * 1e6:8.1f} µs a document")


def _main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("html", "containers"))
    args = parser.parse_args()
    if args.only != "containers":
        html(args.corpus, args.rounds)
    if args.only != "html":
        containers(args.corpus, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
