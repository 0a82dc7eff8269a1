"""baselinks.spark against the single-process CLI on the same WARC files; peak memory of each.

    python -m pip install -e ".[spark]"
    python benchmarks/bench_spark.py CORPUS [--files 4] [--megabytes 25] [--big 1000]

Builds ``--files`` .warc.gz files of ``--megabytes`` MB each from the corpus's clean WARCs
(bench_memory.py's builder), then times, on the same files:

- the CLI, ``baselinks extract -o /dev/null``, one file after another (one process), and
  the same with ``--format parquet`` to a file (the Spark job's columns, from one process);
- Spark ``local[1]`` (one task at a time, so a task's rate is not shared with another), the
  rows written to the ``noop`` sink (extraction and the hand-over to the JVM) and to Parquet.

Rows per second per task = rows / wall time of the one-at-a-time Spark job, next to the CLI's
links per second. With ``--big`` MB (0 to skip), one file of that size is run through Spark
``local[2]`` to Parquet while /proc is polled every 0.2 s: the peak RSS of the JVM (driver and,
in local mode, executor) and of the largest Python worker process is reported.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import build, clean_warcs
from pyspark.sql import SparkSession

from baselinks.spark import Counters, extract_links


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


class PeakRSS(threading.Thread):
    """Polls the process tree of this process: peak RSS per kind (java, python worker)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peaks: dict[str, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            for pid in _tree(os.getpid()):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        command = f.read().replace(b"\0", b" ").decode(errors="replace")
                    with open(f"/proc/{pid}/status") as f:
                        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
                except (OSError, StopIteration):
                    continue
                if pid == os.getpid():
                    kind = "python driver"
                elif "java" in command.split(" ")[0]:
                    kind = "JVM (driver + executor)"
                elif "pyspark" in command or "python" in command:
                    kind = "python worker (largest)"
                else:
                    continue
                self.peaks[kind] = max(self.peaks.get(kind, 0), rss)


def session(master: str) -> SparkSession:
    spark = (
        SparkSession.builder.master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_run(spark: SparkSession, paths: list[str], sink: str, out: Path) -> tuple[float, str]:
    counters = Counters.of(spark)
    frame = extract_links(spark, paths, counters=counters)
    start = time.perf_counter()
    if sink == "noop":
        frame.write.format("noop").mode("overwrite").save()
    else:
        frame.write.mode("overwrite").parquet(str(out))
    return time.perf_counter() - start, str(counters)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--megabytes", type=int, default=25)
    parser.add_argument("--big", type=int, default=1000, help="MB of the memory run (0: none)")
    args = parser.parse_args()
    warcs = clean_warcs(args.corpus, compress=True)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for n in range(args.files):
            path = Path(folder, f"part-{n}.warc.gz")
            build(warcs, args.megabytes, path)
            paths.append(str(path))
        links = 0
        for fmt, out in (("jsonl", os.devnull), ("parquet", str(Path(folder, "cli.parquet")))):
            start = time.perf_counter()
            cli = subprocess.run(
                [sys.executable, "-m", "baselinks", "extract", "--format", fmt, "-o", out, *paths],
                capture_output=True,
                text=True,
                check=False,
            )
            cli_seconds = time.perf_counter() - start
            links = int(cli.stderr.split(" links")[0].rsplit(" ", 1)[1].replace(",", ""))
            if fmt == "jsonl":
                print(f"{args.files} files of {args.megabytes} MB, {links:,} links")
            print(
                f"  CLI, one process -> {fmt:7} {cli_seconds:5.1f} s  "
                f"{links / cli_seconds:9,.0f} links/s"
            )
        spark = session("local[1]")
        spark_run(spark, paths[:1], "noop", Path(folder, "warm.parquet"))  # JVM and workers up
        for sink in ("noop", "parquet"):
            seconds, counted = spark_run(spark, paths, sink, Path(folder, "out.parquet"))
            print(
                f"  Spark local[1] -> {sink:8} {seconds:7.1f} s  {links / seconds:9,.0f} rows/s"
                f" per task  ({counted})"
            )
        spark.stop()
        if args.big:
            big = Path(folder, "big.warc.gz")
            build(warcs, args.big, big)
            spark = session("local[2]")
            peaks = PeakRSS()
            peaks.start()
            seconds, counted = spark_run(spark, [str(big)], "parquet", Path(folder, "big.parquet"))
            peaks.stop.set()
            peaks.join()
            spark.stop()
            print(f"{big.stat().st_size / 1e6:,.0f} MB .warc.gz through Spark local[2] to Parquet:")
            print(f"  {seconds:.1f} s ({counted})")
            for kind, kb in sorted(peaks.peaks.items()):
                print(f"  peak RSS {kind:26} {kb / 1024:7.0f} MB")


if __name__ == "__main__":
    main()
