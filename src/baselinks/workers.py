"""workers: tasks spread over processes, results in input order (``-j N``, ``workers=N``).

Processes, not threads: the walk and resolve stages are Python code, which holds the GIL. At
most ``window`` tasks are in flight, so a 1 GB WARC is never read ahead of the writer by more
than a few documents; results come back in the order the tasks went out, so ``-j 4`` writes
the same bytes as ``-j 1``.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

__all__ = ["ordered_map", "resolve_workers"]

T = TypeVar("T")
R = TypeVar("R")


def resolve_workers(workers: int) -> int:
    """``workers`` as a process count: 0 means one per CPU the process may use."""
    if workers < 0:
        raise ValueError(f"workers must be 0 (one per CPU) or more, not {workers}")
    if workers == 0:
        return (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
    return workers


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the main process handles it (and stops the
    # pool); a worker that raised KeyboardInterrupt too would only add tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ordered_map(
    function: Callable[[T], R], items: Iterable[T], workers: int, window: int = 0
) -> Iterator[R]:
    """``map(function, items)``, on ``workers`` processes when more than one, in order.

    ``function`` and each item must pickle. ``window``: tasks in flight (default: 8 per worker).
    """
    if workers <= 1:
        yield from map(function, items)
        return
    window = window or 8 * workers
    pending: deque[Future[R]] = deque()
    pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts)
    try:
        for item in items:
            pending.append(pool.submit(function, item))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        # Early exit (an error, `| head`, Ctrl-C): nothing queued is started.
        pool.shutdown(wait=True, cancel_futures=True)
