"""The pool's pipes are widened (workers._widen): a unit's rendered output crosses in a few
writes, not one per 64 KiB, and a system that refuses the width changes nothing but speed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from baselinks.run import workers
from baselinks.run.workers import PIPE_BYTES, ordered_map

linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's (fcntl(2))"
)


def _pipe_max() -> int:
    return int(Path("/proc/sys/fs/pipe-max-size").read_text())


def _size(executor: object, queue: str) -> int:
    import fcntl

    reader = getattr(executor, queue)._reader
    return fcntl.fcntl(reader.fileno(), fcntl.F_GETPIPE_SZ)


@linux
def test_the_result_and_task_pipes_are_widened() -> None:
    if _pipe_max() < PIPE_BYTES:
        pytest.skip(f"this system allows pipes of {_pipe_max()} bytes at most")
    workers._load_pool()
    pool = workers._Pool(abs, 2, None)
    try:
        assert _size(pool.executor, "_result_queue") == PIPE_BYTES
        assert _size(pool.executor, "_call_queue") == PIPE_BYTES
        pool._restart()  # a pool started again after a worker died: widened too
        assert _size(pool.executor, "_result_queue") == PIPE_BYTES
    finally:
        pool.close(finished=True)


def _big(n: int) -> bytes:
    return bytes([n]) * (3 * PIPE_BYTES + n)  # more than the pipe holds: several writes


def test_results_larger_than_the_pipe_come_back_whole_and_in_order() -> None:
    assert list(ordered_map(_big, range(6), workers=2, window=3)) == [_big(n) for n in range(6)]


@linux
def test_a_pipe_width_refused_changes_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl

    refused: list[int] = []

    def refuse(fd: int, command: int, arg: int = 0) -> int:
        refused.append(command)
        raise PermissionError(1, "Operation not permitted")  # over pipe-user-pages-soft

    monkeypatch.setattr(fcntl, "fcntl", refuse)
    assert list(ordered_map(_big, range(4), workers=2)) == [_big(n) for n in range(4)]
    assert refused and set(refused) == {fcntl.F_SETPIPE_SZ}


_STOPPED_MID_SEND = """
import subprocess
import sys
from baselinks.run.workers import ordered_map

def big(item):
    return b"x" * (32 << 20)  # 32 times what the pipe holds: a worker is nearly always sending

if __name__ == "__main__":
    for trial in range(5):
        results = ordered_map(big, range(50), 2)
        next(results)
        results.close()  # an early end: the workers stopped, one of them mid-send
    print("closed")
"""


@pytest.mark.slow  # ~3 s: five pools, each with 64 MB in flight
def test_stopping_a_worker_in_the_middle_of_a_result_does_not_hang_the_close(
    tmp_path: Path,
) -> None:
    # issue 29 (and round 2's signal_orphans_workers_hang): -j 2 --format parquet | head -c
    # 100, or SIGINT/SIGTERM at the wrong moment, hung in _Pool.close: the pool's thread
    # waited forever for the rest of a result the stopped worker had half sent (the main
    # process holds the pipe's writing end too). Each close here met it before the fix.
    script = tmp_path / "stop.py"
    script.write_text(_STOPPED_MID_SEND)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "closed\n", "")
