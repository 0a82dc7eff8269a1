"""A short, fixed-seed round of the container fuzzer (benchmarks/fuzz.py): every finding is a
bug. The long run (20,000 files and more) is `python benchmarks/fuzz.py`."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("fuzz", ROOT / "benchmarks" / "fuzz.py")
assert _spec is not None and _spec.loader is not None
fuzz = importlib.util.module_from_spec(_spec)
sys.modules["fuzz"] = fuzz
_spec.loader.exec_module(fuzz)


def test_every_seed_is_cut_into_units_that_add_up() -> None:
    seeds = fuzz.load_seeds()
    assert {seed.kind for seed in seeds} == {"gzip-members", "records", "mime", "whole"}
    for seed in seeds:
        assert sum(unit.docs for unit in seed.units) == seed.docs, seed.name
        assert seed.units[0].start == 0 and seed.units[-1].end == len(seed.data)


def test_the_classifier_counts_each_kind_of_finding() -> None:
    mutant = fuzz.Mutant("s", "flip [1]", b"x" * 10, expected=3)
    quiet = {"documents": 1, "errors": [], "crash": "", "stray": "", "grown": 0}
    assert fuzz.classify(mutant, quiet) == [("silent loss", "1 documents, 3 intact")]
    assert fuzz.classify(mutant, {**quiet, "errors": ["s: offset 4: damaged"]}) == []
    assert fuzz.classify(mutant, None) == [("hang", "no answer in time")]
    found = fuzz.classify(
        mutant,
        {
            "documents": 3,
            "errors": ["s: internal error (a bug in baselinks, please report it): X"],
            "crash": "Traceback ...\nValueError: x\n",
            "stray": "warning\n",
            "grown": 1 << 30,
        },
    )
    assert [name for name, _ in found] == ["traceback", "internal error", "stray stderr", "memory"]


@pytest.mark.slow  # ~5 s: a whole fuzz round
def test_a_fixed_seed_round_finds_nothing() -> None:
    report = fuzz.run(count=1500, seed=16, timeout=30)
    assert report.files == 1500
    examples = [(finding, m.seed, m.how, detail) for finding, m, detail in report.examples]
    assert sum(report.findings.values()) == 0, examples
