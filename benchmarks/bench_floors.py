"""Issue 35's floors in one table: pages against a bare lxml parse and selectolax + ada-url, a
crawl against FastWARC + selectolax + ada-url, Parquet against JSON Lines, -j 2 against the
machine's ceiling, the pure path and lxml's parser.

    python benchmarks/bench_floors.py CORPUS [--rounds 5] [--copies 4] [--callgrind]
                                             [--write-docs]

It composes two cases: bench_peers.py's tools on the corpus's pages, and bench_warc.py's runs on
the corpus written into a gzipped WARC (``--copies`` times over). Timed (the default), each
figure is the median of ``--rounds`` interleaved rounds, each run divided by a bare lxml parse
timed around it in the same process (pages) or by the peer's CPU seconds in the same round (the
crawl). ``--callgrind`` counts instructions instead (valgrind, once each: what a loaded machine
does not disturb; the pages' tools as the difference of a run with and without the tool, the
corpus loaded and warmed up in both), and leaves out what only time can tell (-j 2).
``--write-docs`` puts the table in docs/benchmarks.md between ``<!-- bench_floors -->`` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "docs" / "benchmarks.md"
MARKER = "bench_floors"

# bench_peers.py's tools for the pages' floors: the unit, the peer, baselinks' paths
PAGE_TOOLS = (
    "lxml-parse",
    "selectolax-ada",
    "baselinks-rfc1808",
    "baselinks-jsonl",
    "baselinks-rfc1808-lxml",
    "baselinks-rfc1808-pure",
)
# bench_warc.py's runs for the crawl's floors
CRAWL_RUNS = ("peer", "cli-j1", "cli-j1-pairs", "cli-j1-parquet", "cli-j2", "ceiling")

_COUNT = r"""
import sys
sys.path.insert(0, {here!r})
from pathlib import Path
from bench_peers import TOOLS
from common import load_corpus
docs = load_corpus(Path({corpus!r}))
TOOLS[{tool!r}](docs[:10])
if {run}:
    TOOLS[{tool!r}](docs)
"""


def _instructions(code: str, env: dict[str, str]) -> int:
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def pages_counted(corpus: Path) -> dict[str, float]:
    """Each tool's instructions on the pages, in bare lxml parses of them."""
    counts = {}
    for tool in PAGE_TOOLS:
        env = {k: v for k, v in os.environ.items() if k != "BASELINKS_PURE"}
        if tool.endswith("-pure"):
            env["BASELINKS_PURE"] = "1"
        with_tool, without = (
            _instructions(
                _COUNT.format(here=str(HERE), corpus=str(corpus), tool=tool, run=run), env
            )
            for run in (True, False)
        )
        counts[tool] = with_tool - without
        print(f"{tool}: {counts[tool] / 1e6:,.0f} M instructions", file=sys.stderr)
    return {tool: count / counts["lxml-parse"] for tool, count in counts.items()}


def pages_timed(corpus: Path, rounds: int, where: Path) -> dict[str, float]:
    """Each tool's median multiple of a bare lxml parse (bench_peers.py)."""
    out = where / "peers.json"
    command = [sys.executable, str(HERE / "bench_peers.py"), str(corpus), "--rounds", str(rounds)]
    subprocess.run([*command, "--tools", ",".join(PAGE_TOOLS), "--json", str(out)], check=True)
    rows = json.loads(out.read_text())["summary"]
    return {row["tool"]: row["ratio"] for row in rows if row.get("ratio") is not None}


def crawl(corpus: Path, copies: int, rounds: int, callgrind: bool, where: Path) -> dict:
    """bench_warc.py's rows (CPU seconds, or instructions)."""
    out = where / "warc.json"
    runs = [r for r in CRAWL_RUNS if not (callgrind and r in ("cli-j2", "ceiling"))]
    command = [sys.executable, str(HERE / "bench_warc.py"), str(corpus), "--copies", str(copies)]
    command += ["--rounds", str(rounds), "--only", ",".join(runs), "--json", str(out)]
    subprocess.run([*command, *(["--callgrind"] if callgrind else [])], check=True)
    return dict(json.loads(out.read_text()))


def table(pages: dict[str, float], crawled: dict, callgrind: bool) -> str:
    rows = crawled["rows"]
    unit = "instructions" if callgrind else "cpu"
    cost = {name: row[unit] for name, row in rows.items()}
    ours, peer = pages.get("baselinks-rfc1808"), pages.get("selectolax-ada")
    lines = [
        "| floor | measured | met |",
        "|---|---:|:---:|",
    ]

    def add(floor: str, value: float | None, met: bool | None, form: str = "{:.2f}") -> None:
        shown = "-" if value is None else form.format(value)
        lines.append(f"| {floor} | {shown} | {'-' if met is None else 'yes' if met else 'no'} |")

    if ours is not None:
        add("pages, compiled, default parser: x a bare lxml parse (≤ 1.00)", ours, ours <= 1.0)
    if ours is not None and peer is not None:
        add(
            "pages: selectolax + ada-url, x a bare lxml parse (baselinks below it)",
            peer,
            ours < peer,
        )
    if "baselinks-jsonl" in pages:
        add("pages, written as JSON Lines: x a bare lxml parse", pages["baselinks-jsonl"], None)
    for tool, what in (
        ("baselinks-rfc1808-lxml", "pages, --parser lxml"),
        ("baselinks-rfc1808-pure", "pages, pure Python (BASELINKS_PURE=1)"),
    ):
        if tool in pages:
            add(f"{what}: x a bare lxml parse", pages[tool], None)
    if "peer" in cost and "cli-j1" in cost:
        ratio = cost["cli-j1"] / cost["peer"]
        add(f"a crawl, CLI, JSON Lines, -j 1: x the peer's {unit} (< 1.00)", ratio, ratio < 1)
    if "cli-j1-pairs" in cost and "peer" in cost:
        ratio = cost["cli-j1-pairs"] / cost["peer"]
        add("the same, --fields document,url (the peer's pairs)", ratio, ratio < 1)
    if "cli-j1-parquet" in cost and "cli-j1" in cost:
        ratio = cost["cli-j1-parquet"] / cost["cli-j1"]
        add("a crawl, Parquet: x JSON Lines (≤ 1.20)", ratio, ratio <= 1.2)
    if "cli-j2" in rows and "ceiling" in rows:
        share = rows["ceiling"]["wall"] / rows["cli-j2"]["wall"]
        add(
            "a crawl, -j 2: share of the ceiling, pages per wall s (≥ 90%)",
            share,
            share >= 0.9,
            "{:.0%}",
        )
    return "\n".join(lines)


def write_docs(text: str) -> None:
    page = DOCS.read_text(encoding="utf-8")
    start, end = f"<!-- {MARKER} -->", f"<!-- /{MARKER} -->"
    if start not in page:
        raise SystemExit(f"{DOCS}: no {start} marker")
    before, _, rest = page.partition(start)
    _, _, after = rest.partition(end)
    DOCS.write_text(f"{before}{start}\n{text}\n{end}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--copies", type=int, default=4, help="the crawl: the corpus this many times"
    )
    parser.add_argument("--callgrind", action="store_true", help="instructions, not time")
    parser.add_argument("--write-docs", action="store_true", help=f"into {DOCS.name}")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        if args.callgrind:
            pages = pages_counted(args.corpus)
        else:
            pages = pages_timed(args.corpus, args.rounds, where)
        crawled = crawl(args.corpus, args.copies, args.rounds, args.callgrind, where)
    how = "instructions (callgrind)" if args.callgrind else f"the median of {args.rounds} rounds"
    said = (
        f"Last run: {datetime.now(UTC):%Y-%m-%d}, {crawled['pages']} pages in the crawl "
        f"({args.copies} copies of the corpus), {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; {how}; load average "
        f"{os.getloadavg()[0]:.1f} at the end."
    )
    text = f"{said}\n\n{table(pages, crawled, args.callgrind)}"
    print(text)
    if args.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
