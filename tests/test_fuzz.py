"""A short, fixed-seed round of the container fuzzer (fuzz/fuzz.py): every finding is a
bug. The long run (20,000 files and more) is `python fuzz/fuzz.py`."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("fuzz", ROOT / "fuzz" / "fuzz.py")
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


# --- issue 29: the families that check the promise (fuzz/fuzz_families.py) --------------
# Short fixed-seed rounds; `python fuzz/fuzz.py --long` runs each at length. A finding of
# any family is a bug; the time per byte is the long run's report, never asserted here.


def test_a_damaged_made_archive_says_which_records_are_intact() -> None:
    import random

    sys.path.insert(0, str(ROOT / "fuzz"))
    import fuzz_families

    made = fuzz_families.make_archive(random.Random(1), "warc.gz", 5)
    assert [r.url for r in made.records] == [f"http://e.example/l{n}" for n in range(5)]
    case = fuzz_families.Damaged(made, "none", made.data, made.records)
    result = {"urls": [r.url for r in made.records[:4]], "errors": ["bytes 0-1 skipped"]}
    assert fuzz_families.check_lost(case, result) == [
        ("intact record lost", f"1 of 5; first at {made.records[4].start}")
    ]
    spanning = {
        "urls": [r.url for r in made.records],
        "errors": [f"bytes 0-{len(made.data)} skipped"],
    }
    assert [f for f, _ in fuzz_families.check_lost(case, spanning)] == [
        "span over an intact record"
    ]


@pytest.mark.slow  # ~25 s: 120 made archives and messages, damaged, in a child process
@pytest.mark.xfail(
    strict=True,
    reason="issue 29 leaves 4 findings at this seed: one ARC record lost after a span deleted "
    "at its edge, and three spans said skipped whose start warcio's offset puts at or before a "
    "record that was read (the message wrong, no record lost): docs/guide/reliability.md",
)
def test_nothing_lost_a_fixed_seed_round() -> None:
    [family] = fuzz.run_families(("lost",), count=120, seed=29)
    assert family.cases == 120
    assert sum(family.findings.values()) == 0, family.examples


@pytest.mark.slow  # ~20 s: every dimension and shape at 1, 4 and 16 times, under RLIMIT_AS
def test_bounded_a_fixed_round() -> None:
    # issue 29's dimensions (memory against the input), and issue 36's shapes, each beside a
    # baseline of its size read in the same child (fuzz/fuzz_shapes.py): on the sources before
    # issue 36 this round finds 33 (every reproducer of its findings), here none
    [family] = fuzz.run_families(("bounded",), count=0, seed=29)
    shapes = sys.modules["fuzz_shapes"].SHAPES
    assert family.cases == 3 * (len(sys.modules["fuzz_families"].DIMENSIONS) + len(shapes))
    # A known deviation of the pure path, asserted exactly so that it cannot hide another:
    # its child starts smaller (no compiled module loaded), and a 300 MiB record's member in
    # gzip inside gzip, inflated up to MAX_MEMBER_BYTES (32 MiB) before the oversize rule
    # stops it, grows its peak by 83 MB, over the family's 64 MB floor (the compiled child
    # stays under it). Next: that member inflated a piece at a time (warcreader._decompress).
    known = (
        [("memory", "records over the limit in gzip inside gzip x16 (63,132 bytes)")]
        if os.environ.get("BASELINKS_PURE")
        else []
    )
    assert [(finding, label) for finding, label, _ in family.examples] == known, family.examples


def test_each_shape_has_a_baseline_of_its_size() -> None:
    sys.path.insert(0, str(ROOT / "fuzz"))
    import fuzz_shapes

    for name, shape in fuzz_shapes.SHAPES.items():
        if shape.baseline is not None:
            assert len(shape.make(1)) == len(shape.baseline(1)), name
            assert shape.make(1) != shape.baseline(1), name


def test_the_shapes_judge_finds_what_is_out_of_proportion() -> None:
    sys.path.insert(0, str(ROOT / "fuzz"))
    import fuzz_shapes

    shape = fuzz_shapes.SHAPES["a robots.txt of short lines"]
    quiet = {"grown": 10 << 20, "cpu": 0.2, "urls": ["u"], "errors": []}
    assert fuzz_shapes.judge(shape, 1, 1 << 20, quiet, quiet) == []
    heavy = {**quiet, "grown": 800 << 20, "cpu": 20.0, "urls": ["u", "v"]}
    assert [name for name, _ in fuzz_shapes.judge(shape, 1, 1 << 20, heavy, quiet)] == [
        "memory over its baseline",
        "CPU time over its baseline",
        "wrong links",
    ]
    # linear against linear: none; quadratic against linear: found; against a baseline too
    # fast to measure, linear is what it grows as
    assert fuzz_shapes.judge_growth([(100, 0.5, 0.2), (400, 2.0, 0.8)]) == []
    assert [f for f, _ in fuzz_shapes.judge_growth([(100, 0.5, 0.2), (400, 8.0, 0.8)])] == [
        "CPU time grows faster than its baseline's"
    ]
    assert fuzz_shapes.judge_growth([(100, 0.4, 0.01), (400, 2.5, 0.01)]) == []
    assert len(fuzz_shapes.judge_growth([(100, 0.4, 0.01), (400, 6.4, 0.01)])) == 1


@pytest.mark.slow  # ~10 s: 60 documents, each written in five formats, in a child process
def test_unicode_a_fixed_seed_round() -> None:
    # issue 36: on the sources before it, this round finds 13 tracebacks (UnicodeEncodeError)
    [family] = fuzz.run_families(("unicode",), count=60, seed=36)
    assert family.cases == 60
    assert sum(family.findings.values()) == 0, family.examples


@pytest.mark.slow  # ~15 s: 40 inputs read four ways (library, -j 1, -j 2, pure)
def test_differential_a_fixed_seed_round() -> None:
    [family] = fuzz.run_families(("differential",), count=40, seed=29)
    assert family.cases == 40
    assert sum(family.findings.values()) == 0, family.examples


def test_each_coverage_guided_target_replays_its_seeds() -> None:
    # atheris runs on demand (fuzz/fuzz_atheris.py); its targets, here on their seeds
    # without it, keep working: a traceback or an "internal error" fails them
    sys.path.insert(0, str(ROOT / "fuzz"))
    import fuzz_atheris

    for target in fuzz_atheris.TARGETS:
        seeds = fuzz_atheris.seeds(target)
        assert seeds, target
        assert fuzz_atheris.replay(target, seeds[:25]) == len(seeds[:25])
