"""What writing costs, per format, in lxml parses: the links are made once, then rendered.

    python benchmarks/bench_write.py CORPUS [--rounds 5] [--formats jsonl,csv,...]
    python benchmarks/bench_write.py CORPUS --callgrind FORMAT[,FORMAT...]

Each round runs in a fresh interpreter: the documents are loaded (as bench_peers.py loads
them), each one's links made by ``iter_links`` (rfc1808), then each format's renderer is timed
over every document's links, one document at a time, as the command line renders them to a file
or a pipe (``write.utf8_render(name)``: JSON Lines as UTF-8 bytes from the compiled writer where
it is built); ``jsonl-str`` is ``write.output_format("jsonl").render``, the str a library caller
gets. Each time is divided by the bare lxml
parse of the same documents timed before and after in the same process (bench_peers.py's
unit); the median of the rounds is given, with the microseconds per link.

``--callgrind FORMAT,...``: the instructions (valgrind's callgrind, deterministic where the clock
is not) of rendering every document's links in FORMAT, less those of a run that only loads the
links (pickled beforehand, so that extraction is not run under valgrind); and the unit, the
bare lxml parse of the same pages (less loading them).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from common import Docs, load_corpus, lxml_parse

FORMATS = ("jsonl", "jsonl-str", "csv", "tsv", "text")


def extracted(docs: Docs) -> list[list[Any]]:
    """Each document's links, as the command line holds them (one list a document)."""
    from baselinks import iter_links

    errors: list[object] = []
    return [list(iter_links(data, url=url, on_error=errors.append)) for data, url in docs]


def timings(docs: Docs, formats: tuple[str, ...]) -> dict[str, float]:
    from baselinks.write.formats import output_format, utf8_render

    batches = extracted(docs)
    renders = {
        name: output_format(name.removesuffix("-str")).render
        if name.endswith("-str")
        else utf8_render(name)
        for name in formats
    }
    floor = _parse_seconds(docs)
    seconds: dict[str, float] = {}
    for name, render in renders.items():
        for batch in batches[:10]:  # warm-up: first-use caches
            render(batch)
        start = time.perf_counter()
        for batch in batches:
            render(batch)
        seconds[name] = time.perf_counter() - start
    seconds["floor"] = (floor + _parse_seconds(docs)) / 2
    seconds["links"] = float(sum(map(len, batches)))
    return seconds


def _parse_seconds(docs: Docs) -> float:
    start = time.perf_counter()
    lxml_parse(docs)
    return time.perf_counter() - start


def measure(corpus: Path, rounds: int, formats: tuple[str, ...]) -> dict[str, list[float]]:
    multiples: dict[str, list[float]] = {name: [] for name in formats}
    micros: dict[str, list[float]] = {name: [] for name in formats}
    for _ in range(rounds):
        command = [
            sys.executable,
            __file__,
            str(corpus),
            "--worker",
            "--formats",
            ",".join(formats),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        seconds = json.loads(done.stdout)
        for name in formats:
            multiples[name].append(seconds[name] / seconds["floor"])
            micros[name].append(seconds[name] / seconds["links"] * 1e6)
    return {
        name: [statistics.median(multiples[name]), statistics.median(micros[name])]
        for name in formats
    }


_PROBE = """
import pickle, sys
from baselinks.write.formats import output_format, utf8_render
batches = pickle.load(open(sys.argv[1], "rb"))
if sys.argv[2] == "lxml-parse":  # the unit: the bare parse of the same pages
    sys.path.insert(0, sys.argv[3])
    from common import load_corpus, lxml_parse
    docs = load_corpus(__import__("pathlib").Path(sys.argv[4]))
    if sys.argv[5] == "parse":
        lxml_parse(docs)
elif sys.argv[2] != "-":
    name = sys.argv[2]
    render = output_format(name[:-4]).render if name.endswith("-str") else utf8_render(name)
    render(batches[0])
    for batch in batches:
        render(batch)
"""


def callgrind(corpus: Path, names: list[str]) -> dict[str, int]:
    """Instructions of rendering the corpus's links in each of ``names``, less loading them."""
    with tempfile.TemporaryDirectory() as scratch:
        links = os.path.join(scratch, "links.pickle")
        with open(links, "wb") as out:
            pickle.dump(extracted(load_corpus(corpus)), out)
        loading = _instructions(links, "-")
        counts = {name: _instructions(links, name) - loading for name in names}
        here = str(Path(__file__).parent)
        unit = [
            _instructions(links, "lxml-parse", here, str(corpus), what) for what in ("-", "parse")
        ]
    return {**counts, "lxml-parse": unit[1] - unit[0]}


def _instructions(links: str, *what: str) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*command, sys.executable, "-c", _PROBE, links, *what], capture_output=True, text=True
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"no instruction count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--callgrind", metavar="FORMATS")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    formats = tuple(args.formats.split(","))
    if args.callgrind:
        counts = callgrind(args.corpus, args.callgrind.split(","))
        for name, count in counts.items():
            print(
                f"{name}: {count:,} instructions, {count / counts['lxml-parse']:.3f} x lxml parse"
            )
        return 0
    if args.worker:
        print(json.dumps(timings(load_corpus(args.corpus), formats)))
        return 0
    print("| format | x lxml parse | µs per link |\n|---|---:|---:|")
    for name, (multiple, micro) in measure(args.corpus, args.rounds, formats).items():
        print(f"| {name} | {multiple:.2f} | {micro:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
