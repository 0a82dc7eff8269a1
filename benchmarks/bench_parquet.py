"""The cost of ``--format parquet`` against JSON Lines: wall time, output size, peak RSS.

    python -m pip install -e ".[parquet]"
    python benchmarks/bench_parquet.py CORPUS [--rounds 3] [--sizes 100,400] [--crawl 4x25]

On the corpus folder, then on WARC files of ``--sizes`` MB built from its clean WARCs
(bench_memory.py's builder; 0 to skip), then on a crawl of ``--crawl`` N gzip WARCs of M MB
each (issue 30's case: "1.33x JSONL's CPU on a 4-WARC crawl"), ``baselinks extract -q -o OUT``
runs with ``--format jsonl`` and ``--format parquet`` in alternate rounds (the machine's speed
drifts: the pairs are taken in the same minutes), each in a process of its own. Reported per
input and format: the median wall time and CPU time (user + system, ``wait4``'s), the output's
size, and the peak RSS of that process (exact per child). Flat memory means the Parquet row's
peak RSS does not grow with the WARC's size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import build, clean_warcs

FORMATS = ("jsonl", "parquet")


def run(inputs: list[str], fmt: str, out: Path) -> tuple[float, float, float]:
    """One run: wall seconds, CPU seconds, and the process's peak RSS in MB."""
    command = [sys.executable, "-m", "baselinks", "extract", "-q", "--format", fmt]
    start = time.perf_counter()
    child = subprocess.Popen(
        [*command, "-o", str(out), *inputs], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu, usage.ru_maxrss / 1024


def measure(label: str, inputs: list[str], rounds: int, folder: Path) -> None:
    times: dict[str, list[float]] = {fmt: [] for fmt in FORMATS}
    cpus: dict[str, list[float]] = {fmt: [] for fmt in FORMATS}
    peaks: dict[str, float] = dict.fromkeys(FORMATS, 0.0)
    sizes: dict[str, int] = {}
    for _ in range(rounds):
        for fmt in FORMATS:
            out = folder / f"out.{fmt}"
            seconds, cpu, peak = run(inputs, fmt, out)
            times[fmt].append(seconds)
            cpus[fmt].append(cpu)
            peaks[fmt] = max(peaks[fmt], peak)
            sizes[fmt] = out.stat().st_size
    base, base_cpu = statistics.median(times["jsonl"]), statistics.median(cpus["jsonl"])
    for fmt in FORMATS:
        median, cpu = statistics.median(times[fmt]), statistics.median(cpus[fmt])
        print(
            f"| {label} | {fmt} | {median:.1f} | {median / base:.2f} | {cpu:.1f} | "
            f"{cpu / base_cpu:.2f} | {sizes[fmt] / 1e6:,.1f} | {peaks[fmt]:.0f} |",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="100,400", help="WARC sizes in MB (0: none)")
    parser.add_argument("--crawl", default="4x25", help="N gzip WARCs of M MB: NxM (0: none)")
    args = parser.parse_args()
    print(
        "| input | format | median wall s | vs jsonl | CPU s | vs jsonl | output MB | peak RSS MB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="baselinks-parquet-") as temp:
        folder = Path(temp)
        measure(f"corpus ({args.corpus.name})", [str(args.corpus)], args.rounds, folder)
        sizes = [int(size) for size in args.sizes.split(",") if int(size)]
        warcs = clean_warcs(args.corpus) if sizes else []
        for megabytes in sizes:
            path = folder / "big.warc"
            build(warcs, megabytes, path)
            label = f"{path.stat().st_size / 1e6:,.0f} MB WARC"
            measure(label, [str(path)], args.rounds, folder)
            path.unlink()
        if args.crawl != "0":
            count, megabytes = (int(n) for n in args.crawl.split("x"))
            gzipped = clean_warcs(args.corpus, compress=True)
            crawl = [folder / f"crawl-{n}.warc.gz" for n in range(count)]
            for path in crawl:
                build(gzipped, megabytes, path)
            label = f"crawl of {count} .warc.gz, {megabytes} MB each"
            measure(label, [str(path) for path in crawl], args.rounds, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
