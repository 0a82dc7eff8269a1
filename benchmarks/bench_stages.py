"""Where baselinks' time goes: the pipeline's stages timed one at a time, in lxml parses.

    python benchmarks/bench_stages.py CORPUS [--rounds 5]

(``bench_peers.py --profile`` runs the same for its table, once per path.) Each round runs in a
fresh interpreter: the documents are loaded into memory (as bench_peers.py loads them), then
each document goes through the stages, each timed apart, each given what the one before made:

    load       load.load(bytes): the browser's encoding sniffing, the decoding, the lxml parse
    base       RFC 1808 §3: the retrieval URL, then establish_base (the first <base href>)
    walk       walk.raw_links(tree): every link source of the table, RawLink per link
    resolve    resolve.encoding_parse and diagnose.diagnose for each distinct reference of
               each document (Linker keeps one answer per reference, as here)
    records    Linker.link over every RawLink, less the resolve stage: stripping, the
               per-document memo, the codebase and form rules, the Link tuple
    jsonl      write.utf8_render("jsonl") of each document's links: what the command line
               writes to a file or a pipe (UTF-8 bytes from the compiled writer where built)

and ``iter_links`` over the same document, whole (containers' sniffing, batch's counting and
the generators besides the stages above), beside the sum of the stages.

Each is divided by the bare lxml parse of the same documents (bench_peers.py's unit), timed
before and after the stages in the same process. iframe ``srcdoc`` documents are left out of
the stages (a few links), not of ``iter_links``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from common import Docs, load_corpus, lxml_parse

STAGES = ("load", "base", "walk", "resolve", "records", "jsonl")
EXTRACTION = ("load", "base", "walk", "resolve", "records")
MODE = "rfc1808"


def _timed(step: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = step()
    return time.perf_counter() - start, value


def stages(docs: Docs) -> dict[str, float]:
    """Seconds per stage over ``docs``, one document at a time (as the pipeline holds them),
    and ``floor``: the lxml parse of the same documents."""
    from baselinks import iter_links
    from baselinks.base.layers import (
        encapsulating_base,
        establish_base,
        retrieval_base,
        written_base,
    )
    from baselinks.find.walk import raw_links
    from baselinks.load.document import load
    from baselinks.load.tokens import ASCII_WHITESPACE
    from baselinks.resolve.link import Linker
    from baselinks.url.diagnose import diagnose
    from baselinks.url.resolve import encoding_parse
    from baselinks.write.formats import utf8_render

    render = utf8_render("jsonl")
    seconds = dict.fromkeys((*STAGES, "iter_links"), 0.0)
    floor = _timed(lambda: lxml_parse(docs))[0]
    errors: list[object] = []
    count = 0
    document = None
    for data, url in docs:
        clock = time.perf_counter()
        # The previous page's tree is freed here, before the next is parsed, as the bare
        # parse frees each; glibc merges its freed blocks at the next large allocation, the
        # load's. Freed by `document = load(...)` instead, after its parse, the merging fell
        # to the base stage's first regular expression: 0.05-0.08 of its 0.13.
        document = None
        document = load(data, name="-")
        now = time.perf_counter()
        seconds["load"] += now - clock
        clock = now
        retrieval = written_base(retrieval_base(url, document.content), MODE)
        fallback = encapsulating_base((), retrieval, MODE)
        linker = Linker(
            establish_base(document.tree, fallback, MODE, None), MODE, "-", None, fallback
        )
        now = time.perf_counter()
        seconds["base"] += now - clock
        clock = now
        raws = [raw for raw in raw_links(document.tree, None, ()) if not raw.nested]
        now = time.perf_counter()
        seconds["walk"] += now - clock
        clock = now
        resolver = linker.resolver
        for value in {raw.raw.strip(ASCII_WHITESPACE) for raw in raws}:
            diagnose(resolver.base, value, encoding_parse(resolver, value, None))
        now = time.perf_counter()
        resolving = now - clock
        seconds["resolve"] += resolving
        clock = now
        links = list(map(linker.link, raws))
        # Its memo of the page's references is freed here, with the records it served: left
        # to the next page's `linker =`, it was 0.08 of the base stage's 0.13.
        del linker
        now = time.perf_counter()
        seconds["records"] += max(0.0, now - clock - resolving)
        clock = now
        render(links)
        now = time.perf_counter()
        seconds["jsonl"] += now - clock
        clock = now
        whole = list(iter_links(data, url=url, on_error=errors.append))
        seconds["iter_links"] += time.perf_counter() - clock
        count += len(whole)
    seconds["floor"] = (floor + _timed(lambda: lxml_parse(docs))[0]) / 2
    seconds["links"] = float(count)
    return seconds


def measure(corpus: Path, rounds: int, env: dict[str, str] | None = None) -> dict[str, float]:
    """Each stage's median multiple of the lxml parse over ``rounds`` fresh interpreters."""
    multiples: dict[str, list[float]] = {stage: [] for stage in (*STAGES, "iter_links")}
    for _ in range(rounds):
        command = [sys.executable, __file__, str(corpus), "--worker"]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        seconds = json.loads(done.stdout)
        for stage, values in multiples.items():
            values.append(seconds[stage] / seconds["floor"])
    return {stage: statistics.median(values) for stage, values in multiples.items()}


WHAT = {
    "load": "decoding (browser sniffing) and the parse (the default parser's, into an lxml tree)",
    "base": "the retrieval URL, the first `<base href>`",
    "walk": "every link source of the table: elements, attributes, CSS, srcset; RawLink",
    "resolve": "RFC 1808 §4 and the problem codes, per distinct reference of a document",
    "records": "per link: the memo, the codebase and form rules, the `Link` tuple",
    "jsonl": "JSON Lines, when written (the compiled writer's UTF-8; orjson on the pure path)",
}


def table(columns: dict[str, dict[str, float]]) -> str:
    """Markdown: one row per stage, one column per path; then iter_links whole, and the share
    that JSON Lines add to it."""
    names = list(columns)
    lines = [
        "| stage | " + " | ".join(f"x lxml parse, {name}" for name in names) + " | what |",
        "|---|" + "---:|" * len(names) + "---|",
    ]

    def row(label: str, cells: list[str], what: str) -> None:
        lines.append(f"| {label} | {' | '.join(cells)} | {what} |")

    for stage in STAGES:
        row(stage, [f"{columns[name][stage]:.2f}" for name in names], WHAT[stage])
    row(
        "sum of the stages but jsonl",
        [f"{sum(columns[name][stage] for stage in EXTRACTION):.2f}" for name in names],
        "extraction, stage by stage",
    )
    row(
        "**iter_links**, whole",
        [f"**{columns[name]['iter_links']:.2f}**" for name in names],
        "extraction as the library runs it (containers, batch, generators too)",
    )
    row(
        "jsonl / iter_links",
        [f"{columns[name]['jsonl'] / columns[name]['iter_links']:.0%}" for name in names],
        "what writing JSON Lines adds to the extraction",
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        docs = load_corpus(args.corpus)
        stages(docs[:10])  # warm-up: lazy imports, first-use caches
        print(json.dumps(stages(docs)))
        return 0
    print(table({"default path": measure(args.corpus, args.rounds)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
