"""Peak memory of ``baselinks extract`` on big WARC files: flat as the input grows.

    python benchmarks/bench_memory.py CORPUS [--sizes 100,1000] [--gzip] [--jobs 1]

A WARC of each size (MB) is built in a temporary directory by repeating the records of the
corpus's WARC files (those that read without any error, so the figure is not about damage),
then the CLI extracts it to /dev/null. Reported per size: the file's size, records, links, wall
time, and the peak RSS of the process (the largest of the processes with ``--jobs`` > 1).
Without ``--gzip`` the WARC is uncompressed; with it, each record is a gzip member, as crawlers
write them (the same records: 1 GB of .warc.gz holds about 4 times as many).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import build, clean_warcs


def measure(path: Path, jobs: int) -> dict[str, float]:
    command = [sys.executable, "-m", "baselinks", "extract", "-j", str(jobs), str(path)]
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    summary = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return {"wall": wall, "peak": peak, "summary": summary[0] if summary else ""}  # type: ignore[dict-item]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--sizes", default="100,1000", help="sizes in MB, comma-separated")
    parser.add_argument("--gzip", action="store_true", help="build .warc.gz (per record)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    warcs = clean_warcs(args.corpus, args.gzip)
    print(f"{len(warcs)} clean WARC files, {sum(map(len, warcs)) / 1e6:.1f} MB")
    print("| size MB | copies of the corpus WARCs | wall s | MB/s | peak RSS MB | summary |")
    print("|---:|---:|---:|---:|---:|---|")
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: sizes go smallest first
    for megabytes in sorted(int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="baselinks-memory-") as temp:
            path = Path(temp) / ("big.warc.gz" if args.gzip else "big.warc")
            copies = build(warcs, megabytes, path)
            size = path.stat().st_size / 1e6
            result = measure(path, args.jobs)
        print(
            f"| {size:,.0f} | {copies} | {result['wall']:.1f} | {size / result['wall']:.1f} | "
            f"{result['peak']:.0f} | {result['summary']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
