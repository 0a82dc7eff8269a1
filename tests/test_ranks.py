"""baselinks ranks (graph/ranks.py): PageRank and harmonic centrality by igraph, checked on a
graph whose scores are known by hand, and written beside the graph. The ranks extra."""

from __future__ import annotations

from pathlib import Path

import pytest

from baselinks.cli import main
from conftest import extra

igraph = extra("ranks")
from baselinks.graph.ranks import compute_ranks  # noqa: E402


def _graph(folder: Path, names: list[str], edges: list[tuple[int, int]]) -> Path:
    folder.mkdir()
    (folder / "vertices.tsv").write_text("".join(f"{i}\t{n}\n" for i, n in enumerate(names)))
    (folder / "edges.tsv").write_text("".join(f"{s}\t{d}\n" for s, d in edges))
    return folder


def test_harmonic_centrality_by_hand_and_an_isolated_vertex(tmp_path: Path) -> None:
    # a -> b -> c, d -> c; e alone (the last ID, on no edge: still a vertex)
    folder = _graph(tmp_path / "g", ["a", "b", "c", "d", "e"], [(0, 1), (1, 2), (3, 2)])
    ranks = compute_ranks(folder)
    harmonic = {rank.name: rank.harmonic for rank in ranks.ranks}
    # incoming: c is reached by b and d at 1, by a at 2: 1 + 1 + 1/2
    assert harmonic == {"c": 2.5, "b": 1.0, "a": 0.0, "d": 0.0, "e": 0.0}
    assert [rank.name for rank in ranks.ranks][:2] == ["c", "b"]
    assert abs(sum(rank.pagerank for rank in ranks.ranks) - 1) < 1e-9
    lines = (folder / "ranks.tsv").read_text().splitlines()
    assert lines[0] == "harmonic_position\tharmonic\tpagerank_position\tpagerank\tname"
    assert lines[1].startswith("1\t2.5\t1\t") and lines[1].endswith("\tc")
    assert len(lines) == 6


def test_the_command_prints_the_top(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _graph(tmp_path / "g", ["a", "b", "c"], [(0, 2), (1, 2)])
    assert main(["ranks", str(folder), "--top", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["#", "harmonic", "pagerank", "name"]
    assert out[1].split()[:2] == ["1", "2.0"] and out[1].endswith(" c") and len(out) == 2


def test_over_the_limit_pagerank_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _graph(tmp_path / "g", ["a", "b", "c"], [(0, 2), (1, 2)])
    assert main(["ranks", str(folder), "--harmonic-limit", "2"]) == 0
    err = capsys.readouterr().err
    assert "harmonic centrality left out: over 2 vertices" in err
    assert compute_ranks(folder, harmonic_limit=2).ranks[0].harmonic is None


def test_no_graph_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ranks", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith(f"baselinks: {tmp_path}: ")
