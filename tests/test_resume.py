"""``extract --resume -o FILE``: a run interrupted (Ctrl-C, a full disk, SIGKILL) at random
points and started again with the same command goes on after the last input written in full,
and FILE is the same bytes as an uninterrupted run's (without ``--resume`` too), plain and
compressed, with one worker and two; the summary line counts the whole run. A journal that
cannot be followed (another command, inputs changed) is refused, saying why.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baselinks.cli import main
from baselinks.write import output as output_module
from conftest import FIXTURES

# Documents of every kind, one that fails (a truncated ARC: exit 1 and "1 failed" after a
# resume too), and inputs that are no document (skipped, counted)
INPUTS = [
    FIXTURES / "html",
    FIXTURES / "containers" / "crawl.warc.gz",
    FIXTURES / "containers" / "IAH-20080430204825-00000-blackbook-truncated.arc",
    FIXTURES / "discovery",
    FIXTURES / "containers" / "example-wpull.warc.gz",
    FIXTURES / "saved",
]


def _argv(out: Path, *more: str) -> list[str]:
    return ["extract", *map(str, INPUTS), "--format", "tsv", "-o", str(out), *more]


def _reference(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, bytes, str]:
    """An uninterrupted run without --resume: its status, its output's bytes, its summary."""
    out = tmp_path / ("reference-" + name)
    status = main(_argv(out))
    summary = capsys.readouterr().err.splitlines()[-1]
    return status, out.read_bytes(), summary


def _interrupt(after: int, what: BaseException) -> Callable[[Any, bytes], int]:
    """The output's writes, cut after ``after`` bytes by ``what`` (KeyboardInterrupt: Ctrl-C;
    an OSError ENOSPC: a full disk), where baselinks writes every file (output._Whole)."""
    write = output_module._Whole.write
    written = 0

    def cut(stream: Any, data: bytes) -> int:
        nonlocal written
        if written + len(data) > after:
            raise what
        written += len(data)
        return write(stream, data)

    return cut


@pytest.mark.parametrize("name", ["links.tsv", "links.tsv.gz"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_interrupted_at_random_points_goes_on_to_the_same_bytes(
    name: str,
    jobs: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, expected, summary = _reference(tmp_path, name, capsys)
    assert status == 1 and len(expected) > 10_000  # the ARC fails; the rest is read
    size = len(gzip.decompress(expected) if name.endswith(".gz") else expected)
    rng = random.Random(f"{name} {jobs}")  # fixed: CI sees the same points each run
    out = tmp_path / name
    goes_on = 0
    for point in range(10):
        out.unlink(missing_ok=True)
        what = (
            KeyboardInterrupt() if point % 2 else OSError(errno.ENOSPC, "No space left on device")
        )
        # a chain of interruptions, each run going on from the last, then a run to the end
        for _ in range(rng.randrange(1, 4)):
            # past the records' length: while the partial output is compressed into FILE
            cut = _interrupt(rng.randrange(size + size // 10), what)
            monkeypatch.setattr(output_module._Whole, "write", cut)
            stopped = main(_argv(out, "--resume", "-j", jobs))
            monkeypatch.undo()
            err = capsys.readouterr().err
            if stopped in (0, 1):
                break  # the cut came after the last byte: the run ended
            assert stopped == (130 if isinstance(what, KeyboardInterrupt) else 1), err
            assert not out.exists()  # nothing half-written where the output goes
        goes_on += Path(f"{out}.resume").exists()
        assert main(_argv(out, "--resume", "-j", jobs)) == status
        err = capsys.readouterr().err
        assert out.read_bytes() == expected, point
        assert err.splitlines()[-1] == summary  # the whole run counted
        assert not Path(f"{out}.resume").exists() and not Path(f"{out}.partial").exists()
    assert goes_on >= 5  # most points are mid-run, with inputs written before them


def test_a_journal_marks_each_input_with_the_outputs_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal's format (run/resume.py): the command, then a line per input written."""
    out = tmp_path / "links.tsv"
    monkeypatch.setattr(output_module._Whole, "write", _interrupt(30_000, KeyboardInterrupt()))
    assert main(_argv(out, "--resume")) == 130
    header, *lines = [json.loads(line) for line in Path(f"{out}.resume").read_text().splitlines()]
    assert header["journal"] == "baselinks resume" and header["version"] == 1
    assert header["command"]["paths"] == [str(path) for path in INPUTS]
    assert "jobs" not in header["command"] and "quiet" not in header["command"]
    assert [line["input"] for line in lines] == list(range(1, len(lines) + 1))
    offsets = [line["offset"] for line in lines]
    assert offsets == sorted(offsets) and offsets[-1] <= 30_000
    assert lines[0]["name"] == str(FIXTURES / "html" / sorted(os.listdir(FIXTURES / "html"))[0])
    size = os.stat(lines[0]["name"]).st_size
    assert lines[0]["stamp"][0] == size
    assert set(lines[-1]["counts"]) >= {"files", "documents", "links", "failed", "skipped"}
    capsys.readouterr()


def test_another_command_is_refused_and_the_journal_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "links.tsv"
    monkeypatch.setattr(output_module._Whole, "write", _interrupt(20_000, KeyboardInterrupt()))
    assert main(_argv(out, "--resume")) == 130
    monkeypatch.undo()
    journal = Path(f"{out}.resume").read_bytes()
    capsys.readouterr()
    assert main([*_argv(out, "--resume"), "--kind", "link"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"baselinks: --resume: {out}.resume is the journal of another command (")
    assert "--kinds: None, now ['link']" in err and "remove the journal to start over" in err
    assert Path(f"{out}.resume").read_bytes() == journal  # kept, for the command that goes on
    # -j and -q change how, not what: the run goes on
    assert main(_argv(out, "--resume", "-j", "2", "-q")) == 1
    assert not Path(f"{out}.resume").exists()


def test_inputs_changed_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    for n in range(6):
        (folder / f"{n}.html").write_text(f'<a href="/{n}">{"x" * 5000}</a>' * 20)
    out = tmp_path / "links.jsonl"
    argv = ["extract", str(folder), "--url", "http://e.example/", "-o", str(out), "--resume"]
    monkeypatch.setattr(output_module._Whole, "write", _interrupt(40_000, KeyboardInterrupt()))
    assert main(argv) == 130
    monkeypatch.undo()
    capsys.readouterr()
    (folder / "0.html").write_text('<a href="/changed">x</a>')  # done already: changed
    assert main(argv) == 2
    assert f"--resume: {folder / '0.html'} changed since it was read" in capsys.readouterr().err
    (folder / "0.html").unlink()
    assert main(argv) == 2
    assert "--resume: the inputs changed: input 1 was " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["extract", "x.html", "--resume"], "--resume needs -o FILE"),
        (["extract", "-", "--resume", "-o", "{out}"], "standard input cannot be read again"),
        (["extract", "x.html", "--resume", "-o", "/dev/null"], "not a regular file"),
        (["extract", "x.html", "--resume", "-o", "{out}", "--stats"], "--stats keeps"),
        (["extract", "x.html", "--resume", "-o", "{out}", "--unique=run"], "--unique=run keeps"),
        (
            ["extract", "x.html", "--resume", "-o", "{out}", "--format", "parquet"],
            "--format parquet is one file",
        ),
    ],
)
def test_what_cannot_be_resumed_is_a_usage_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main([arg.replace("{out}", str(out)) for arg in argv]) == 2
    assert message in capsys.readouterr().err
    assert os.listdir(tmp_path) == []  # nothing written


def test_a_journal_cut_short_or_past_the_output_is_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill while the journal's line was written leaves half a line: dropped. A crash that
    lost the end of FILE.partial: the inputs past it are read again."""
    status, expected, _ = _reference(tmp_path, "links.tsv", capsys)
    out = tmp_path / "links.tsv"
    monkeypatch.setattr(output_module._Whole, "write", _interrupt(40_000, KeyboardInterrupt()))
    assert main(_argv(out, "--resume")) == 130
    monkeypatch.undo()
    journal = Path(f"{out}.resume")
    with journal.open("ab") as file:
        file.write(b'{"input": 99, "na')  # cut short
    partial = Path(f"{out}.partial")
    with partial.open("r+b") as file:
        file.truncate(partial.stat().st_size // 2)  # lost
    capsys.readouterr()
    assert main(_argv(out, "--resume")) == status
    assert out.read_bytes() == expected


# --- SIGKILL, in a process of its own ------------------------------------------------------------


def _killed_at(argv: list[str], journal: Path, lines: int) -> bool:
    """``baselinks`` run with ``argv``, killed (SIGKILL, its workers too) as soon as its journal
    has ``lines`` lines; False when it ended first."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "baselinks", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while proc.poll() is None:
            try:
                if journal.read_bytes().count(b"\n") >= lines:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    return True
            except FileNotFoundError:
                pass
            time.sleep(0.001)
        return False
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["links.tsv", "links.tsv.gz"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_killed_at_random_points_goes_on_to_the_same_bytes(
    name: str, jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5 kill points each, 20 in all: SIGKILL at a random input, the run then started again."""
    status, expected, _ = _reference(tmp_path, name, capsys)
    out = tmp_path / name
    journal = Path(f"{out}.resume")
    argv = _argv(out, "--resume", "-j", jobs, "-q")
    rng = random.Random(f"kill {name} {jobs}")
    inputs = sum(1 for path in INPUTS for _ in (path.rglob("*") if path.is_dir() else [path]))
    killed = 0
    for _ in range(5):
        out.unlink(missing_ok=True)
        killed += _killed_at(argv, journal, rng.randrange(2, inputs // 2))
        assert (
            subprocess.run([sys.executable, "-m", "baselinks", *argv], check=False).returncode
            == status
        )
        assert out.read_bytes() == expected
        assert not journal.exists()
    assert killed >= 4


def test_a_revisits_original_in_an_input_done_is_found_going_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """round2's revisits name originals in round1: a run cut after round1 goes on with the
    revisits' index of all the inputs (it looked only at those left: each revisit unresolved)."""
    dedup = FIXTURES / "containers" / "dedup"
    inputs = [str(dedup / "round1.warc.gz"), str(dedup / "round2.warc.gz")]
    whole, first, out = tmp_path / "whole.tsv", tmp_path / "first.tsv", tmp_path / "links.tsv"
    assert main(["extract", *inputs, "--format", "tsv", "-q", "-o", str(whole)]) == 0
    assert main(["extract", inputs[0], "--format", "tsv", "-q", "-o", str(first)]) == 0
    cut = _interrupt(first.stat().st_size, KeyboardInterrupt())  # round1 written, no more
    monkeypatch.setattr(output_module._Whole, "write", cut)
    assert main(["extract", *inputs, "--format", "tsv", "-o", str(out), "--resume"]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    assert main(["extract", *inputs, "--format", "tsv", "-o", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "going on after input 1 " in err and "without" not in err
    assert err.splitlines()[-1].startswith("baselinks: 2 files, 8 documents, 16 links; 0 failed")
    assert out.read_bytes() == whole.read_bytes()
