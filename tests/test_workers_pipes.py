"""The pool's pipes are widened (workers._widen): a unit's rendered output crosses in a few
writes, not one per 64 KiB, and a system that refuses the width changes nothing but speed."""

from __future__ import annotations

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
