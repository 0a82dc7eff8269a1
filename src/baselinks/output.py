"""output: where the command line writes, and what it does when writing fails.

    -o FILE, a regular file or none yet   written to a temporary file beside it, renamed over it
                                          at the end: a reader never sees half a file. An existing
                                          file keeps its mode, a new one gets the umask's; through
                                          a symlink, the target is replaced (the link stays).
    -o FILE under /dev or /proc, a        written to directly, appended as ``>>`` would
    character device or a FIFO            (``/dev/null``, ``/dev/stdout`` in a pipeline, a tty)
    -o a directory, socket, block device  refused before anything is read
    standard output                       written as it is

A write that fails (a full disk) is an :class:`OutputError` naming the output; the temporary
file is then removed. A closed standard error (``2>&-``) loses the messages, never the run.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from typing import TextIO, cast

__all__ = ["Output", "OutputError", "open_output", "standard_error"]

STDOUT = "standard output"


class OutputError(Exception):
    """The output cannot be opened or written: one line, naming it, in the system's words."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")


def _words(exc: OSError) -> str:
    return exc.strerror or str(exc)


class _Guarded:
    """A text stream whose failed writes are :class:`OutputError`s (a closed pipe excepted:
    the reader went away, which is no error)."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def isatty(self) -> bool:
        return self.stream.isatty()


class Output:
    """An open output: ``stream`` to write to, then :meth:`commit` or :meth:`discard`."""

    def __init__(self, name: str, raw: TextIO, temp: str | None = None, target: str = "") -> None:
        self.name = name
        self.raw = raw
        self.stream = cast(TextIO, _Guarded(raw, name))
        self.temp = temp  # the temporary file, renamed to ``target`` by commit()
        self.target = target

    def commit(self) -> None:
        """Everything written: flushed, and the temporary file put in place."""
        self.stream.flush()
        if self.raw is sys.stdout or self.raw is sys.__stdout__:
            return
        try:
            self.raw.close()
            if self.temp is not None:
                os.replace(self.temp, self.target)
                self.temp = None
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def discard(self) -> None:
        """What was not committed is removed (nothing when all was); never raises."""
        if self.raw is sys.stdout or self.raw is sys.__stdout__:
            return
        with contextlib.suppress(OSError):  # a full disk again, as the buffer is flushed
            self.raw.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def open_output(path: str | None) -> Output:
    """Standard output (``path`` None), or ``-o path`` as the module docstring says."""
    if path is None:
        if sys.stdout is None:  # `>&-`: Python sets it to None
            raise OutputError(STDOUT, "closed")
        return Output(STDOUT, sys.stdout)
    try:
        if _direct(path):
            return Output(path, open(path, "a", encoding="utf-8", newline=""))
        target = os.path.realpath(path)  # through a symlink: its target is replaced
        try:
            status: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            status = None
        if status is not None and not stat.S_ISREG(status.st_mode):
            kind = "is a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
            raise OutputError(path, f"{kind}: not written")
        fd, temp = _temporary(os.path.dirname(target))
        try:
            if status is not None:
                os.fchmod(fd, stat.S_IMODE(status.st_mode))
            raw = open(fd, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except BaseException:
            os.close(fd)
            os.unlink(temp)
            raise
    except OSError as exc:
        raise OutputError(path, _words(exc)) from None
    return Output(path, raw, temp, target)


def _direct(path: str) -> bool:
    """Whether ``path`` is written to as it is: a device, a FIFO, ``/dev/stdout``..."""
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True  # never a temporary file and a rename there; /dev/stdout may be a file
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _temporary(directory: str) -> tuple[int, str]:
    """A new file in ``directory``, open to write, with the mode the umask gives (tempfile's
    are 0600, which the rename would pass on to the output)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        temp = os.path.join(directory, f".baselinks-{secrets.token_hex(6)}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue


def standard_error() -> None:
    """After ``2>&-`` Python sets ``sys.stderr`` to None, and ``print(file=None)`` writes to
    standard output: the messages would land among the links. Descriptor 2 is opened on
    /dev/null instead, before any file can take its number."""
    if sys.stderr is not None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    if devnull != 2:
        os.dup2(devnull, 2)
        os.close(devnull)
    sys.stderr = open(2, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115
