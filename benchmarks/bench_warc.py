"""A crawl in a WARC: baselinks' command line against FastWARC + selectolax + ada-url, in CPU.

    python benchmarks/bench_warc.py CORPUS [--copies 4] [--rounds 3] [--json FILE]
                                           [--only RUN,RUN...] [--callgrind]

CORPUS is a directory with an ``index.tsv`` (kind, relpath, retrieval_url; as in
``../shared/corpus``): its ``html`` pages are written at run time into a gzipped WARC (one
``response`` record per page, each with its HTTP head and its retrieval URL as target;
``--copies`` times over, each copy's URLs their own), and into two halves of it. Then each
run is a fresh process, timed by the CPU it and its children used (user + system, from
``getrusage``) and by the wall clock:

    cli-j1               baselinks extract crawl.warc.gz -j 1, JSON Lines to /dev/null
                         (every field of every link, as a crawl pipeline keeps them)
    cli-j1-pairs         the same with --fields document,url (what the peer writes)
    cli-j1-no-revisits   cli-j1 with --no-revisits (the inputs not looked through first)
    cli-j1-parquet       cli-j1 as --format parquet, to a file (the parquet extra)
    cli-j1-lxml          cli-j1 with --parser lxml
    cli-j1-pure          cli-j1 with BASELINKS_PURE=1
    cli-j2               cli-j1 with -j 2
    ceiling              two cli-j1 at once, one on each half: what two processes reach
    peer                 FastWARC's ArchiveIterator (responses, HTTP parsed) + selectolax's
                         lexbor parse + the first <base href> + ada_url.join_url over every
                         [href] and [src], each pair {"document", "url"} written with orjson

The median of the rounds is reported: CPU seconds, pages per CPU second and links per CPU
second, and for -j 2 its pages per wall second as a share of the ceiling's. Needs the
``bench`` extra (fastwarc, selectolax).

The package's byte code is compiled first, as a ``pip install`` does. ``--callgrind`` counts
instructions instead (valgrind's callgrind, each one-process run once:
what a loaded machine does not disturb); ``--only`` chooses the runs.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import write_warc

PEER = r"""
import sys
import ada_url, orjson
from fastwarc.warc import ArchiveIterator, WarcRecordType
from selectolax.lexbor import LexborHTMLParser

out = open(sys.argv[2], "wb")
links = pages = 0
with open(sys.argv[1], "rb") as stream:
    for record in ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True):
        url = record.headers.get("WARC-Target-URI")
        tree = LexborHTMLParser(record.reader.read())
        base = url
        found = tree.css_first("base[href]")
        if found is not None:
            try:
                base = ada_url.join_url(url, found.attributes.get("href") or "")
            except ValueError:
                pass
        pages += 1
        lines = []
        for node in tree.css("[href],[src]"):
            for name in ("href", "src"):
                value = node.attributes.get(name)
                if value is None:
                    continue
                try:
                    joined = ada_url.join_url(base, value.strip())
                except ValueError:
                    continue
                lines.append(orjson.dumps({"document": url, "url": joined}))
        links += len(lines)
        out.write(b"\n".join(lines) + b"\n" if lines else b"")
print(pages, links)
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(commands: list[list[str]], env: dict[str, str]) -> tuple[float, float, list[str]]:
    """CPU seconds (the processes and their children), wall seconds, and each one's stderr."""
    cpu, start = _cpu(), time.monotonic()
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        for c in commands
    ]
    said = [err + out for out, err in (proc.communicate() for proc in procs)]
    for proc, command in zip(procs, commands, strict=True):
        if proc.returncode != 0:
            raise SystemExit(f"{command}: exit {proc.returncode}\n{said}")
    return _cpu() - cpu, time.monotonic() - start, said


def runs(
    whole: Path, halves: list[Path], peer: Path
) -> dict[str, tuple[list[list[str]], dict[str, str]]]:
    cli = [sys.executable, "-m", "baselinks", "extract", "--format", "jsonl", "-o", os.devnull]
    env = {k: v for k, v in os.environ.items() if k not in ("BASELINKS_PURE", "BASELINKS_PARSER")}
    pure = {**env, "BASELINKS_PURE": "1"}
    parquet = [*cli[:4], "--format", "parquet", "-o", str(whole.with_suffix(".parquet"))]
    return {
        "cli-j1": ([[*cli, "-j", "1", str(whole)]], env),
        "cli-j1-pairs": ([[*cli, "-j", "1", "--fields", "document,url", str(whole)]], env),
        "cli-j1-no-revisits": ([[*cli, "-j", "1", "--no-revisits", str(whole)]], env),
        "cli-j1-parquet": ([[*parquet, "-j", "1", str(whole)]], env),
        "cli-j1-lxml": ([[*cli, "-j", "1", "--parser", "lxml", str(whole)]], env),
        "cli-j1-pure": ([[*cli, "-j", "1", str(whole)]], pure),
        "cli-j2": ([[*cli, "-j", "2", str(whole)]], env),
        "ceiling": ([[*cli, "-j", "1", str(half)] for half in halves], env),
        "peer": ([[sys.executable, str(peer), str(whole), os.devnull]], env),
    }


def instructions(command: list[str], env: dict[str, str]) -> tuple[int, str]:
    """The instructions ``command`` executes (callgrind), and the last line it said."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or collected is None:
        raise SystemExit(f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}")
    said = [line for line in done.stderr.splitlines() if not line.startswith("==")]
    return int(collected.group(1)), (said[-1] if said else "")


def _counted(chosen: dict[str, tuple[list[list[str]], dict[str, str]]], pages: int) -> dict:
    rows = {}
    for name, (commands, env) in chosen.items():
        if len(commands) == 1 and name != "cli-j2":
            count, said = instructions(commands[0], env)
            rows[name] = {"instructions": count, "said": said}
            print(f"{name}: {count / 1e6:,.0f} M instructions", file=sys.stderr)
    peer = rows.get("peer", {}).get("instructions")
    print("| run | M instructions | per page (M) | x the peer's | what it said |")
    print("|---|---:|---:|---:|---|")
    for name, row in rows.items():
        ratio = f"{row['instructions'] / peer:.2f}" if peer else "-"
        count = row["instructions"]
        print(
            f"| {name} | {count / 1e6:,.0f} | {count / 1e6 / pages:.1f} | {ratio} | {row['said']} |"
        )
    return rows


def _timed(chosen: dict[str, tuple[list[list[str]], dict[str, str]]], rounds: int) -> dict:
    results: dict[str, list[tuple[float, float]]] = {}
    found: dict[str, str] = {}
    for number in range(rounds):
        for name, (commands, env) in chosen.items():
            cpu, wall, said = timed(commands, env)
            results.setdefault(name, []).append((cpu, wall))
            found[name] = " | ".join(line.strip().splitlines()[-1] for line in said if line.strip())
        line = ", ".join(f"{n} {r[-1][0]:.1f}s" for n, r in results.items())
        print(f"round {number + 1}: CPU {line}; load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return {
        name: {
            "cpu": statistics.median(c for c, _ in times),
            "wall": statistics.median(w for _, w in times),
            "said": found[name],
        }
        for name, times in results.items()
    }


def _print_timed(rows: dict, pages: int) -> None:
    print("| run | CPU s | wall s | pages / CPU s | vs peer (CPU) | what it said |")
    print("|---|---:|---:|---:|---:|---|")
    for name, row in rows.items():
        ratio = f"{row['cpu'] / rows['peer']['cpu']:.2f}" if "peer" in rows else "-"
        print(
            f"| {name} | {row['cpu']:.2f} | {row['wall']:.2f} | {pages / row['cpu']:,.0f} | "
            f"{ratio} | {row['said']} |"
        )
    if "ceiling" in rows and "cli-j2" in rows:
        share = rows["ceiling"]["wall"] / rows["cli-j2"]["wall"]
        print(
            f"\n-j 2 reaches {share:.0%} of the ceiling (two -j 1 on the halves), pages per wall s"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--copies", type=int, default=4, help="the corpus this many times over")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", help="comma-separated runs (default: all)")
    parser.add_argument("--callgrind", action="store_true", help="instructions, not time")
    args = parser.parse_args(argv)
    # the byte code, as a pip install compiles it: with PYTHONDONTWRITEBYTECODE=1 (set here)
    # and an editable install, every run would compile the package from source (1.2 G
    # instructions of the CLI's 8.4 G on one copy of the corpus)
    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "src"), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        whole, halves, pages = write_warc(args.corpus, args.copies, where)
        peer = where / "peer.py"
        peer.write_text(PEER, encoding="utf-8")
        size = whole.stat().st_size
        print(f"{pages} pages, {size / 1e6:.1f} MB gzipped", file=sys.stderr)
        chosen = runs(whole, halves, peer)
        if args.only:
            names = args.only.split(",")
            unknown = set(names) - set(chosen)
            if unknown:
                parser.error(f"unknown runs {sorted(unknown)}: {', '.join(chosen)}")
            chosen = {name: chosen[name] for name in names}
        if args.callgrind:
            rows = _counted(chosen, pages)
        else:
            rows = _timed(chosen, args.rounds)
            _print_timed(rows, pages)
    if args.json:
        args.json.write_text(json.dumps({"pages": pages, "bytes": size, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
