"""``baselinks extract -j N`` against ``-j 1``: wall time, CPU time, peak RSS, same output.

    python benchmarks/bench_jobs.py CORPUS [--documents 500] [--jobs 1,2] [--rounds 3]
                                           [--warc]

A batch of ``--documents`` HTML files is built in a temporary directory from the corpus's HTML
(``index.tsv`` rows of kind html, or every ``*.html``), cycling through them when the corpus
has fewer. With ``--warc`` the same documents go into one WARC file instead (response records
with their retrieval URLs), so the main process reads and the workers extract. Each round runs
the CLI once per ``-j`` value (interleaved, so drift of a shared machine hits all alike); the
table gives medians and the speedup over ``-j 1``. Every run's output must be byte-identical
to ``-j 1``'s: the script stops otherwise. For the batch of files, the last column is the
machine's own ceiling: the files split in N shares, N independent ``-j 1`` processes at once.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import load_corpus


def build_batch(corpus: Path, documents: int, directory: Path, warc: bool) -> list[str]:
    docs = load_corpus(corpus)
    chosen = [docs[i % len(docs)] for i in range(documents)]
    if not warc:
        for number, (data, _) in enumerate(chosen):
            (directory / f"{number:05d}.html").write_bytes(data)
        return [str(directory)]
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = directory / "batch.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for number, (data, url) in enumerate(chosen):
            target = url or f"http://batch.invalid/{number}.html"
            headers = StatusAndHeaders(
                "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
            )
            record = writer.create_warc_record(
                f"{target}#{number}",
                "response",
                payload=io.BytesIO(data),
                length=len(data),
                http_headers=headers,
            )
            writer.write_record(record)
    return [str(path)]


def ceiling(directory: Path, parts: int) -> float:
    """Wall time of ``parts`` independent ``-j 1`` runs at once, each on its share of the files.

    No pipes, no pool, no ordering: what the machine gives when ``parts`` processes extract
    side by side (shared caches and memory bandwidth, other tenants). ``-j N`` cannot beat it.
    """
    files = sorted(directory.glob("*.html"))
    shares = [files[i::parts] for i in range(parts)]
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        command = [sys.executable, "-m", "baselinks", "extract", "-q", "-o"]
        running = [
            subprocess.Popen([*command, os.path.join(scratch, f"{index}.jsonl"), *map(str, share)])
            for index, share in enumerate(shares)
        ]
        for process in running:
            process.wait()
        return time.perf_counter() - start


def run(paths: list[str], jobs: int) -> dict[str, float | str]:
    # The output goes to a file (-o), as the ceiling's does: read back through a pipe, the
    # benchmark's own reading would take a core's share from -j N and not from the ceiling.
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "links.jsonl")
        command = [sys.executable, "-m", "baselinks", "extract", "-q", "-j", str(jobs)]
        start = time.perf_counter()
        # `time -f` would give the children's peak too; getrusage(RUSAGE_CHILDREN) gives the
        # largest child's, which for -j N is the largest worker or the main process.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([*command, "-o", out, *paths], capture_output=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise SystemExit(f"-j {jobs} failed: {done.stderr.decode(errors='replace')}")
        written = Path(out).read_bytes()
    return {
        "wall": wall,
        "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "peak_mb": after.ru_maxrss / 1024,
        "digest": hashlib.sha256(written).hexdigest(),
        "lines": float(written.count(b"\n")),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--jobs", default="1,2", help="comma-separated -j values")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warc", action="store_true", help="the batch as one .warc.gz")
    args = parser.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    if 1 not in jobs:
        jobs.insert(0, 1)

    with tempfile.TemporaryDirectory(prefix="baselinks-jobs-") as temp:
        paths = build_batch(args.corpus, args.documents, Path(temp), args.warc)
        runs: dict[int, list[dict[str, float | str]]] = {j: [] for j in jobs}
        ceilings: dict[int, list[float]] = {j: [] for j in jobs if j > 1}
        for _ in range(args.rounds):
            for j in jobs:
                runs[j].append(run(paths, j))
                if j > 1 and not args.warc:
                    ceilings[j].append(ceiling(Path(temp), j))
    reference = runs[1][0]["digest"]
    for j, results in runs.items():
        for result in results:
            if result["digest"] != reference:
                raise SystemExit(f"-j {j} wrote different output from -j 1")
    base = statistics.median(float(r["wall"]) for r in runs[1])
    kind = "one .warc.gz" if args.warc else "files"
    print(
        f"{args.documents} documents ({kind}), {int(runs[1][0]['lines']):,} links, "
        f"median of {args.rounds}; output identical for every -j"
    )
    print(
        "| -j | wall s | speedup | CPU s | peak RSS MB (largest process) "
        "| ceiling: N independent -j 1 runs on N shares, speedup |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for j, results in runs.items():
        wall = statistics.median(float(r["wall"]) for r in results)
        cpu = statistics.median(float(r["cpu"]) for r in results)
        peak = max(float(r["peak_mb"]) for r in results)
        bound = f"{base / statistics.median(ceilings[j]):.2f}" if ceilings.get(j) else "-"
        print(f"| {j} | {wall:.2f} | {base / wall:.2f} | {cpu:.2f} | {peak:.0f} | {bound} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
