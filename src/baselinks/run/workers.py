"""workers: tasks spread over processes, results in input order (``-j N``, ``workers=N``).

Processes, not threads: the walk and resolve stages are Python code, which holds the GIL. At
most ``window`` tasks are in flight, so a 1 GB WARC is never read ahead of the writer by more
than a few documents; results come back in the order the tasks went out, so ``-j 4`` writes
the same bytes as ``-j 1``. No more processes start than there are tasks.

A worker that dies (the OOM killer's SIGKILL) breaks the whole pool: every task in flight
fails with it. Those tasks are run again, one at a time, in a new pool; one that kills its
worker a second time is the cause: it is run again in pieces, and the piece that kills its
worker once more is given up (:class:`Recovery`); the run goes on.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing.process import BaseProcess

__all__ = [
    "MAX_WORKERS",
    "STOPPING",
    "Recovery",
    "ordered_map",
    "resolve_workers",
    "signals_held",
]

T = TypeVar("T")
R = TypeVar("R")

_POOL_NAMES = ("Future", "ProcessPoolExecutor", "BrokenProcessPool")


def _load_pool() -> None:
    """concurrent.futures, and multiprocessing under it (pickle, sockets: 30 ms, a tenth of
    the start-up of a run on one small file), are loaded when a pool is first needed, never
    for ``-j 1``; bound here as globals, unless a test has put its own there first."""
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    loaded = (Future, ProcessPoolExecutor, BrokenProcessPool)
    for name, value in zip(_POOL_NAMES, loaded, strict=True):
        globals().setdefault(name, value)


def __getattr__(name: str) -> Any:
    # workers.ProcessPoolExecutor (PEP 562) before any pool was made
    if name in _POOL_NAMES:
        _load_pool()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Recovery(Generic[T, R]):
    """What a worker's death gives. ``how`` says how it died (``was killed by SIGKILL``).

    ``died(how)``: the result that reports it, before the results of the tasks run again.
    ``lost(task, how)``: the result in place of a task that kills its worker each time.
    ``split(task)``, ``join(results)``: a task that killed its worker alone is run again in
    these pieces, their results joined, so that only the piece at fault is lost.
    """

    died: Callable[[str], R]
    lost: Callable[[T, str], R]
    split: Callable[[T], list[T]]
    join: Callable[[list[R]], R]


# The most worker processes a run starts (``-j``, ``workers=``): each is a Python with lxml
# (some 40 MB), and a number past the machine's (-j 99999999999999999999) is a mistake.
MAX_WORKERS = 1024


def resolve_workers(workers: int) -> int:
    """``workers`` as a process count: 0 means one per CPU the process may use."""
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if not 0 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 0 (one per CPU) to {MAX_WORKERS}, not {workers}")
    if workers == 0:
        return (
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1)
        )
    return workers


# The signals that stop a run: the command line handles them in the main process.
STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def signals_held() -> Iterator[None]:
    """The :data:`STOPPING` signals wait (blocked) until the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no fork either
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_start(parent: int) -> None:
    _worker_signals()
    _die_with(parent)


# prctl(2): "PR_SET_PDEATHSIG: set the parent-death signal of the calling process"
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """On Linux a worker is killed when the main process dies, even by SIGKILL (which no
    handler sees): an orphan would wait on its task queue forever, holding stdout open."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # in the worker only

    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # no prctl in this libc: an orphan is possible
        return
    if os.getppid() != parent:  # the main process died before the request was made
        os._exit(1)


def _worker_signals() -> None:
    # Ctrl-C reaches the whole process group: the main process handles it (and stops the
    # pool); a worker that raised KeyboardInterrupt too would only add tracebacks. SIGTERM
    # and SIGHUP end a worker at once: handlers the main process set, inherited through
    # fork, are not for workers. Forked with these signals blocked, it then takes them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOPPING:
        if signum != signal.SIGINT:
            signal.signal(signum, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    window: int = 0,
    recovery: Recovery[T, R] | None = None,
) -> Iterator[R]:
    """``map(function, items)``, on ``workers`` processes when more than one, in order.

    ``function`` and each item must pickle. ``window``: tasks in flight (default: 8 per worker).
    ``recovery``: without it, a worker that dies raises ``BrokenProcessPool``.
    """
    if workers <= 1:
        yield from map(function, items)
        return
    items = iter(items)
    first = list(islice(items, workers))  # never more processes than tasks
    if len(first) <= 1:
        yield from map(function, first)  # one task: no process to start
        return
    window = window or 8 * workers
    _load_pool()
    pool = _Pool(function, len(first), recovery)
    pending: deque[tuple[T, Future[R]]] = deque()
    finished = False
    try:
        for item in chain(first, items):
            pending.append((item, pool.submit(item)))
            if len(pending) >= window:
                yield pool.result(pending)
        while pending:
            yield pool.result(pending)
        finished = True
    finally:
        pool.close(finished)


class _Pool(Generic[T, R]):
    """A process pool that is started again when one of its workers dies."""

    def __init__(
        self, function: Callable[[T], R], size: int, recovery: Recovery[T, R] | None
    ) -> None:
        self.function = function
        self.size = size
        self.recovery = recovery
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        self.forked = False
        executor = ProcessPoolExecutor(
            self.size, initializer=_worker_start, initargs=(os.getpid(),)
        )
        _widen(executor)  # before the workers fork: the pipes are theirs too
        return executor

    def submit(self, item: T) -> Future[R]:
        try:
            if self.forked:
                return self.executor.submit(self.function, item)
            # The first task forks the workers. A signal handled while the parent runs its
            # fork handlers (logging's lock) is lost, and leaves that lock held: signals wait.
            with signals_held():
                future = self.executor.submit(self.function, item)
            self.forked = True
            return future
        except BrokenProcessPool as exc:  # a worker died while none of our tasks was running
            failed: Future[R] = Future()
            failed.set_exception(exc)
            return failed  # recovered in its turn, by result()

    def result(self, pending: deque[tuple[T, Future[R]]]) -> R:
        """The result of the first task in ``pending``, taken off it."""
        try:
            value = pending[0][1].result()
        except BrokenProcessPool:
            if self.recovery is None:
                raise
            return self._recover(pending, self.recovery)
        pending.popleft()
        return value

    def _recover(self, pending: deque[tuple[T, Future[R]]], recovery: Recovery[T, R]) -> R:
        """After a worker died: the report of it, and ``pending`` made of finished futures,
        each task the broken pool lost run again alone in a new pool."""
        how = self._restart()
        redone: list[tuple[T, Future[R]]] = []
        for item, future in pending:
            # The broken pool fails all its futures at once; waiting here takes no time.
            if isinstance(future.exception(), BrokenProcessPool):
                future = Future()
                future.set_result(self._alone(item, recovery))
            redone.append((item, future))
        pending.clear()
        pending.extend(redone)
        return recovery.died(how)

    def _alone(self, item: T, recovery: Recovery[T, R], split: bool = True) -> R:
        """``item`` run with nothing else in flight: what kills the worker now is its own."""
        try:
            return self.executor.submit(self.function, item).result()
        except BrokenProcessPool:
            how = self._restart()
        pieces = recovery.split(item) if split else [item]
        if len(pieces) == 1:
            return recovery.lost(item, how)
        return recovery.join([self._alone(piece, recovery, split=False) for piece in pieces])

    def _restart(self) -> str:
        """What became of the dead worker; the pool is started anew."""
        why = _death(self.executor)
        self.executor.shutdown(wait=True)
        self.executor = self._start()
        return why

    def close(self, finished: bool) -> None:
        if not finished:
            # An early end (an error, `| head`, Ctrl-C, SIGTERM): no result is wanted any more,
            # and a worker busy with a large document must not hold the exit, nor keep the
            # output pipe open after the main process is gone.
            processes = _processes(self.executor)
            for process in processes:
                process.terminate()
            _ended(processes)
            _result_pipe_closed(self.executor)
        self.executor.shutdown(wait=True, cancel_futures=True)


# How long a worker is given to end on SIGTERM (it takes it at once: its own handler is the
# default) before it is killed.
_TERM_SECONDS = 5.0


def _ended(processes: list[BaseProcess]) -> None:
    """Each of ``processes`` ended (killed past :data:`_TERM_SECONDS`), waited for by its
    sentinel: the pool's own thread joins them, and two waits for one child are one too many."""
    from multiprocessing.connection import wait

    waiting = {process.sentinel: process for process in processes}
    for _ in range(2):
        deadline = _TERM_SECONDS
        while waiting and deadline > 0:
            for ready in wait(list(waiting), timeout=0.1):
                waiting.pop(ready)  # type: ignore[arg-type]  # the sentinels given: ints
            deadline -= 0.1
        for process in waiting.values():
            process.kill()


def _result_pipe_closed(executor: ProcessPoolExecutor) -> None:
    """This process's end of the pipe the workers write their results to, closed.

    A worker stopped while it writes a large result (a unit's JSON Lines: half a megabyte,
    more than the pipe holds) leaves half a message in the pipe. The pool's thread reads on,
    waiting for the rest, and since this process holds the pipe's writing end too, no end of
    file ever comes: ``shutdown`` waited for that thread forever (``-j 2 --format parquet |
    head -c 100``; SIGTERM or Ctrl-C at the wrong moment: 2 runs in 30). Closed, the read ends
    (EOFError), the pool breaks, and it shuts down as a broken pool does. CPython keeps the
    queue as ``_result_queue`` (a SimpleQueue: ``_writer``)."""
    writer = getattr(getattr(executor, "_result_queue", None), "_writer", None)
    if writer is not None:
        with suppress(OSError):
            writer.close()


# fcntl(2): "F_SETPIPE_SZ: change the capacity of the pipe referred to by fd to be at least
# arg bytes. An unprivileged process can adjust the pipe capacity to any value between the
# system page size and the limit defined in /proc/sys/fs/pipe-max-size" (1 MiB by default).
PIPE_BYTES = 1 << 20


def _widen(executor: ProcessPoolExecutor) -> None:
    """The pool's pipes widened from 64 KiB to :data:`PIPE_BYTES`, where the system allows.

    A unit's rendered output (JSON Lines: about 0.5 MB a unit) comes back through the result
    pipe, which every worker writes under one lock: at 64 KiB a time, the sender waits on the
    main process 8 times a unit, and the other worker waits for the lock. Measured on 1,896
    pages (225 MB of JSON Lines, ``-o`` a file), ``-j 2`` alternating with 64 KiB pipes:
    2.17 -> 2.03 s wall (medians of 3; ``-j 1`` 3.41 s; two ``-j 1`` on halves 1.89 s); more
    on a loaded machine, where each of those waits costs a turn of the scheduler (5.2 -> 3.6 s
    there). The task pipe carries the documents the main process reads (a WARC's records):
    widened too. Where the call fails (no Linux, a user over pipe-user-pages-soft), the pipes
    stay as they are: only slower.
    """
    try:
        from fcntl import F_SETPIPE_SZ, fcntl  # Linux only
    except ImportError:
        return
    for name in ("_result_queue", "_call_queue"):
        # CPython's queues (a SimpleQueue, a Queue): a pipe, read through ``_reader``
        reader = getattr(getattr(executor, name, None), "_reader", None)
        if reader is None:
            continue
        with suppress(OSError):  # refused: this pipe stays as it was
            fcntl(reader.fileno(), F_SETPIPE_SZ, PIPE_BYTES)  # the pipe's, both ends'


def _processes(executor: ProcessPoolExecutor) -> list[BaseProcess]:
    # The pool's processes: CPython keeps them in ``_processes`` (pid -> Process), the only
    # way to learn how a worker died or to stop one at once.
    processes: dict[int, BaseProcess] = getattr(executor, "_processes", None) or {}
    return list(processes.values())


def _death(executor: ProcessPoolExecutor) -> str:
    """``was killed by SIGKILL``: how the worker that broke the pool ended."""
    processes = _processes(executor)
    for process in processes:
        # A dead worker's pipes close a moment before it can be waited for; the pool ends
        # the others (SIGTERM) as soon as it sees the death.
        process.join(timeout=30)
    codes = [process.exitcode for process in processes]
    # The pool terminates (SIGTERM) the workers that outlived the dead one; the dead one may
    # be gone from the pool's table by then (seen under load: only -15 left). A SIGTERM is
    # then the pool's own, never named as the cause: "died" says less, and nothing untrue.
    dead = [code for code in codes if code not in (None, 0, -signal.SIGTERM)]
    if not dead:
        return "died"
    if dead[0] < 0:
        return f"was killed by {signal.Signals(-dead[0]).name}"
    return f"exited with status {dead[0]}"
