"""Start-up time of the command: ``--version`` and one small file, against ``python -c pass``.

    python benchmarks/bench_startup.py [--rounds 21] [--file PATH] [--before SRC]

Each round runs every command once, alternating (hyperfine-style, so that the drift of a shared
machine hits all alike); the table gives medians and minima in milliseconds, and each median's
excess over ``python -c pass``. ``--before SRC``: also the same commands with another source
tree first on ``sys.path`` (``git archive main src | tar -x -C /tmp/before`` gives one), as a
before/after in the same minutes. The byte code is compiled first (``compileall``), as a
``pip install`` does: with PYTHONDONTWRITEBYTECODE=1 and an editable install every run would
compile the package from source (a third of its start-up here). ``python -X importtime -c
'from baselinks.cli import main; main(["--version"])'`` says which imports take the time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "fixtures" / "html" / "base-first-wins.html"


def commands(small: Path, before: Path | None) -> dict[str, list[str]]:
    run = "import sys; from baselinks.cli import main; sys.exit(main(sys.argv[1:]))"
    found = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "baselinks --version": [sys.executable, "-c", run, "--version"],
        f"baselinks extract {small.name}": [sys.executable, "-c", run, "extract", "-q", str(small)],
    }
    if before is not None:
        first = f"import sys; sys.path.insert(0, {str(before)!r}); "
        found["before: baselinks --version"] = [sys.executable, "-c", first + run, "--version"]
        found[f"before: baselinks extract {small.name}"] = [
            sys.executable,
            "-c",
            first + run,
            "extract",
            "-q",
            str(small),
        ]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--file", type=Path, default=SMALL, help="the small file extracted")
    parser.add_argument("--before", type=Path, help="another source tree (its src/ folder)")
    args = parser.parse_args()
    for tree in (ROOT / "src", args.before):
        if tree is not None:
            compileall.compile_dir(str(tree), quiet=1)
    runs = commands(args.file, args.before)
    times: dict[str, list[float]] = {name: [] for name in runs}
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # the byte code above, not new
    for _ in range(args.rounds):
        for name, argv in runs.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=False, env=env)
            times[name].append((time.perf_counter() - start) * 1000)
    floor = statistics.median(times["python -c pass"])
    print(f"{args.rounds} rounds, alternating; milliseconds")
    print("| command | median | min | median - python -c pass |")
    print("|---|---:|---:|---:|")
    for name, each in times.items():
        median = statistics.median(each)
        print(f"| {name} | {median:.0f} | {min(each):.0f} | {median - floor:+.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
