"""The graph's two readers of files it did not make, fuzzed at a fixed seed: ``graph`` reading
extract's JSON Lines back (graph/records.py) and ``ranks`` reading a graph's folder
(graph/ranks.py), each fed real files mutated (bytes flipped, cut, duplicated, inserted). Every
mutant ends in lines that start ``baselinks:`` and an exit status of 0 or 1: never a
traceback, never an internal error, never igraph handed a vertex past the vertices.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from baselinks.cli import main
from conftest import FIXTURES, extra

SEED, MUTANTS = 38, 120


def _mutate(data: bytes, rng: random.Random) -> bytes:
    how = rng.randrange(5)
    at = rng.randrange(len(data) + 1)
    if how == 0:  # a byte flipped
        if not data:
            return b"\x00"
        at = min(at, len(data) - 1)
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    if how == 1:  # cut short
        return data[:at]
    if how == 2:  # a span repeated
        end = min(len(data), at + rng.randrange(1, 40))
        return data[:end] + data[at:end] + data[end:]
    if how == 3:  # garbage inserted
        return (
            data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))) + data[at:]
        )
    return (
        data[:at] + rng.choice([b"\t", b"\n", b"-1", b"99999999999", b"\xff\xfe", b"{"]) + data[at:]
    )


def _said_well(err: str) -> bool:
    lines = err.splitlines()
    return all(line.startswith("baselinks: ") for line in lines) and "internal error" not in err


def test_extracts_output_mutated_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    links = tmp_path / "links.jsonl"
    archive = str(FIXTURES / "containers" / "crawl.warc.gz")
    assert main(["extract", archive, "-q", "--format", "jsonl", "-o", str(links)]) == 0
    data = links.read_bytes()
    rng = random.Random(SEED)
    for number in range(MUTANTS):
        mutant = tmp_path / f"m{number}.jsonl"
        mutant.write_bytes(_mutate(data, rng))
        status = main(["graph", str(mutant), "-q", "-o", str(tmp_path / "g")])
        err = capsys.readouterr().err
        assert status in (0, 1) and _said_well(err), (number, status, err)


def test_a_graph_folder_mutated_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("ranks")
    made = tmp_path / "made"
    archives = [str(p) for p in sorted((FIXTURES / "containers").glob("*.warc.gz"))]
    assert main(["graph", *archives, "-q", "--level", "page", "-o", str(made)]) == 1
    files = {name: (made / name).read_bytes() for name in ("vertices.tsv", "edges.tsv")}
    rng = random.Random(SEED)
    for number in range(MUTANTS):
        folder = tmp_path / f"m{number}"
        folder.mkdir()
        hit = rng.choice(sorted(files))
        for name, data in files.items():
            (folder / name).write_bytes(_mutate(data, rng) if name == hit else data)
        status = main(["ranks", str(folder)])
        err = capsys.readouterr().err
        assert status in (0, 1) and _said_well(err), (number, hit, status, err)
