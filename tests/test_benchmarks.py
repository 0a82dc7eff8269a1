"""benchmarks/run.py, the one runner: every script of benchmarks/ is one of its named cases (a
new script that is not would never be run by it), and it runs a case by its name. The cases
themselves run for minutes on the shared corpus: on demand, never here (test_readme.py checks
that each command the docs give names options its script takes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
HELPERS = {"run.py", "common.py", "bench_docs.py"}  # the runner and what cases import


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / "run.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def _cases() -> dict[str, str]:
    listed = _run("--list")
    assert listed.returncode == 0, listed.stderr
    return {line.split()[0]: line.split()[1] for line in listed.stdout.splitlines() if line}


def test_every_script_is_a_case() -> None:
    scripts = {path.name for path in BENCHMARKS.glob("*.py")} - HELPERS
    cases = _cases()
    assert sorted(scripts) == sorted(cases.values())
    assert len(set(cases.values())) == len(cases)  # one name each


def test_a_case_runs_by_its_name_with_its_own_options() -> None:
    done = _run("warc", "--help")
    assert done.returncode == 0, done.stderr
    assert "--callgrind" in done.stdout and "FastWARC" in done.stdout
    done = _run("floors", "--help")
    assert done.returncode == 0 and "--write-docs" in done.stdout


def test_an_unknown_case_is_refused_by_name() -> None:
    done = _run("no-such-case")
    assert done.returncode == 2 and "no-such-case" in done.stderr
