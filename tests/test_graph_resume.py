"""graph --resume (issue 37 item 6) and the graph's folder (issue 36 item 3).

A run interrupted (Ctrl-C, a kill, SIGKILL) and started again with the same command goes on
after the last input checkpointed, and its files are the same bytes as an uninterrupted run's:
cut at every batch in-process, and killed at random points (a fixed seed) as a process. Two
runs into one folder: one wins whole, the other says so. -o naming a file, a path under a file
or a device: one error line. ``ranks`` reads its folder as untrusted.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from baselinks.cli import main
from baselinks.graph import build as module
from baselinks.graph import build_graph
from conftest import FIXTURES, extra
from conftest import warc as _warc

CONTAINERS = FIXTURES / "containers"


def _inputs(folder: Path, copies: int) -> list[Path]:
    """Small archives and pages, each under a name of its own (many inputs, a few seconds)."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    sources = [
        CONTAINERS / "crawl.warc.gz",
        CONTAINERS / "example-wpull.warc.gz",
        CONTAINERS / "IAH-20080430204825-00000-blackbook-truncated.arc",
    ]
    for n in range(copies):
        for source in sources:
            target = folder / f"{n:03d}-{source.name}"
            shutil.copyfile(source, target)
            made.append(target)
        page = folder / f"{n:03d}-page.warc.gz"
        body = f'<a href="http://h{n % 7}.example.com/">x</a><img src="https://cdn{n % 3}.example.net/i">'
        page.write_bytes(_warc([(f"http://p{n % 11}.example.org/{n}", "text/html", body.encode())]))
        made.append(page)
    return made


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("layout", [["--layout", "common-crawl", "--name", "res"], []])
def test_cut_after_every_batch_and_resumed_the_same_bytes(
    layout: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = [str(p) for p in _inputs(tmp_path / "in", 6)]
    command = ["graph", *inputs, "-q", "--level", "domain", "--weights", *layout]
    assert main([*command, "-o", str(tmp_path / "whole")]) == 0
    expected = _files(tmp_path / "whole")
    monkeypatch.setattr(module, "CHECKPOINT_SECONDS", 0.0)  # a checkpoint after every batch
    pages = module._Builder.pages
    batches = -(-len(inputs) // 4)
    for cut in range(1, batches + 1):
        out = tmp_path / f"cut{cut}"
        calls = [0]

        def cut_short(
            self: object, *args: object, _cut: int = cut, _calls: list[int] = calls
        ) -> None:
            _calls[0] += 1
            if _calls[0] == _cut:
                raise KeyboardInterrupt
            pages(self, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(module._Builder, "pages", cut_short)
        assert main([*command, "-o", str(out), "--resume"]) == 130  # "interrupted"
        assert [p.name for p in out.iterdir()] == [".baselinks-graph-resume"]  # no half graph
        monkeypatch.setattr(module._Builder, "pages", pages)
        assert main([*command, "-o", str(out), "--resume"]) == 0
        assert _files(out) == expected, f"cut before batch {cut}"


@pytest.mark.slow
def test_killed_at_random_points_and_resumed_the_same_bytes(tmp_path: Path) -> None:
    inputs = [str(p) for p in _inputs(tmp_path / "in", 150)]  # a run of some seconds
    arguments = [
        "graph",
        *inputs,
        "-q",
        "--weights",
        "--layout",
        "common-crawl",
        "--name",
        "killed",
    ]
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "baselinks", *arguments, "-o", str(tmp_path / "whole")],
                   check=True)  # fmt: skip
    took = time.monotonic() - started
    expected = _files(tmp_path / "whole")
    rng = random.Random(37)
    out = tmp_path / "killed"
    state = out / ".baselinks-graph-resume" / "state.json"
    # the same command, checkpointing after every batch (as a fast machine's run far longer would)
    command = [sys.executable, "-c", "import sys; import baselinks.graph.build as b; "
               "b.CHECKPOINT_SECONDS = 0.0; from baselinks.cli import main; sys.exit(main())",
               *arguments]  # fmt: skip
    kills = 0
    for _ in range(6):  # six runs, each cut by a random signal at a random point after it
        # checkpointed (a fixed time would cut a fast machine's runs before their first one)
        before = state.stat().st_mtime_ns if state.is_file() else 0
        process = subprocess.Popen([*command, "-o", str(out), "--resume"])
        deadline = time.monotonic() + 20 * took + 10
        while process.poll() is None and time.monotonic() < deadline:
            if state.is_file() and state.stat().st_mtime_ns != before:
                break  # this run checkpointed: the next one goes on from here
            time.sleep(0.005)
        try:
            process.wait(timeout=rng.uniform(0.0, took * 0.3))
        except subprocess.TimeoutExpired:
            process.send_signal(rng.choice([signal.SIGKILL, signal.SIGTERM, signal.SIGINT]))
            process.wait()
            kills += 1
            continue
        assert process.returncode == 0  # it ended by itself: its files are whole
        break
    subprocess.run([*command, "-o", str(out), "--resume"], check=True)
    assert kills >= 2, f"the fixed seed is meant to cut it a few times ({took:.1f} s a run)"
    assert _files(out) == expected


def test_another_command_is_refused_saying_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = [str(p) for p in _inputs(tmp_path / "in", 2)]
    out = tmp_path / "g"
    monkeypatch.setattr(module, "CHECKPOINT_SECONDS", 0.0)
    pages = module._Builder.pages
    calls = [0]

    def cut_short(self: object, *args: object) -> None:
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        pages(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(module._Builder, "pages", cut_short)
    assert main(["graph", *inputs, "-q", "-o", str(out), "--resume"]) == 130
    monkeypatch.setattr(module._Builder, "pages", pages)
    capsys.readouterr()
    # another level: refused, in one line, saying what differs; the checkpoint kept
    assert main(["graph", *inputs, "-q", "-o", str(out), "--resume", "--level", "domain"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--level: 'host', now 'domain'" in err
    # an input changed since: refused too
    Path(inputs[0]).write_bytes(Path(inputs[0]).read_bytes() + b"\n")
    assert main(["graph", *inputs, "-q", "-o", str(out), "--resume"]) == 1
    assert f"input 1 changed: {inputs[0]}" in capsys.readouterr().err
    # without --resume: the graph made afresh, the checkpoint gone
    assert main(["graph", *inputs, "-q", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["edges.tsv", "vertices.tsv"]
    # the same command goes on after the inputs checkpointed, and says so
    out2 = tmp_path / "h"
    monkeypatch.setattr(module._Builder, "pages", cut_short)
    calls[0] = 0
    assert main(["graph", *inputs, "-q", "-o", str(out2), "--resume"]) == 130
    monkeypatch.setattr(module._Builder, "pages", pages)
    assert main(["graph", *inputs, "-o", str(out2), "--resume"]) == 0
    assert f"--resume: going on after input 4 ({inputs[3]})" in capsys.readouterr().err
    assert _files(out2) == _files(out)


def test_two_runs_into_one_folder_one_wins_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from baselinks.graph.folder import GraphFolder

    held = GraphFolder.open(tmp_path / "g")  # a run writing there now
    try:
        assert main(["graph", str(CONTAINERS / "crawl.warc.gz"), "-o", str(tmp_path / "g")]) == 1
        err = capsys.readouterr().err
        assert (
            err
            == f"baselinks: {tmp_path / 'g'}: another baselinks run is writing in it: not written\n"
        )
    finally:
        held.close()
    assert list((tmp_path / "g").iterdir()) == []
    # two processes at once: each wins whole or says so, never a mix
    archives = [str(p) for p in sorted(CONTAINERS.glob("*.warc.gz"))]
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "baselinks",
                "graph",
                *archives[i::2],
                "-q",
                "-o",
                str(tmp_path / "both"),
                "--level",
                level,
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, level in enumerate(("page", "host"))
    ]
    said = [run.communicate()[1] for run in runs]
    refused = [s for s in said if "another baselinks run is writing in it" in s]
    assert len(refused) <= 1
    names = (tmp_path / "both" / "vertices.tsv").read_text().splitlines()
    edges = (tmp_path / "both" / "edges.tsv").read_text().splitlines()
    n = len(names)
    assert all(int(a) < n and int(b) < n for a, b in (e.split("\t") for e in edges))
    assert sorted(p.name for p in (tmp_path / "both").iterdir()) == ["edges.tsv", "vertices.tsv"]


@pytest.mark.parametrize("where", ["file", "under-file", "device"])
def test_the_output_folder_checked_in_one_line(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "f").write_text("x")
    out = {"file": tmp_path / "f", "under-file": tmp_path / "f" / "g", "device": Path(os.devnull)}[
        where
    ]
    assert main(["graph", str(CONTAINERS / "crawl.warc.gz"), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"baselinks: {out}: ") and "Traceback" not in err
    assert (tmp_path / "f").read_text() == "x"


# --- ranks reads its folder as untrusted --------------------------------------------------------

BAD = {
    "edge past the vertices": (
        "0\ta\n1\tb\n",
        "0\t2000000000\n",
        "an edge to vertex 2,000,000,000",
    ),
    "negative": ("0\ta\n1\tb\n", "0\t-1\n", "'-1' is no vertex ID"),
    "not a number": ("0\ta\n1\tb\n", "0\tx\n", "'x' is no vertex ID"),
    "ids out of order": ("0\ta\n2\tb\n", "0\t1\n", "vertex ID 2 where 1 was expected"),
    "one field": ("0\ta\n1\tb\n", "0\n", "expected src<TAB>dst"),
    "binary": ("0\ta\n1\t\xff\n", "0\t1\n", None),
}


@pytest.mark.parametrize("case", BAD)
def test_ranks_refuses_a_folder_that_is_no_graph_in_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("ranks")
    vertices, edges, said = BAD[case]
    (tmp_path / "vertices.tsv").write_bytes(vertices.encode("latin-1"))
    (tmp_path / "edges.tsv").write_text(edges)
    assert main(["ranks", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(tmp_path) in err
    if said is not None:
        assert said in err
    assert not (tmp_path / "ranks.tsv").exists()


def test_ranks_escapes_names_for_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra("ranks")
    (tmp_path / "vertices.tsv").write_text("0\tcom.example\n1\tevil\x1b]0;owned\x07\n")
    (tmp_path / "edges.tsv").write_text("0\t1\n")
    assert main(["ranks", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "evil\\x1b]0;owned\\x07" in out


def test_ranks_of_a_graph_built_with_resume_equal(tmp_path: Path) -> None:
    extra("ranks")
    inputs = _inputs(tmp_path / "in", 2)
    build_graph(inputs, tmp_path / "g", form="common-crawl", name="abc", resume=True)
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == [
        "abc-edges.txt.gz",
        "abc-vertices.txt.gz",
    ]
    assert main(["ranks", str(tmp_path / "g")]) == 0
    assert (tmp_path / "g" / "abc-ranks.txt.gz").is_file()
