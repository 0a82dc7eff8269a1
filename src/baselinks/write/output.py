"""output: where the command line writes, and what it does when writing fails.

    -o FILE, a regular file or none yet   written to a temporary file beside it, renamed over it
                                          at the end: a reader never sees half a file. An existing
                                          file keeps its mode (and owner, where allowed), a new
                                          one gets the umask's; through a symlink, the target is
                                          replaced (the link stays), as the kernel follows it.
    -o /dev/stdout (/dev/fd/N...), a      written to directly, appended as ``>>`` would
    character device or a FIFO            (/dev/null, a tty, a named pipe)
    -o a directory, socket, block device  refused before anything is read
    -o NAME.gz, NAME.bz2, NAME.zst        compressed by the suffix's codec (a regular file)
    standard output                       written as it is

A write that fails (a full disk) is an :class:`OutputError` naming the output; the temporary
file is then removed. A closed standard error (``2>&-``) loses the messages, never the run.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import re
import stat
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO, TypeVar, cast

from ..errors import SCALAR
from .compress import Compressing, compression

__all__ = [
    "Output",
    "OutputError",
    "binary",
    "byte_writer",
    "compression",
    "open_output",
    "standard_error",
]

STDOUT = "standard output"


class OutputError(Exception):
    """The output cannot be opened or written: one line, naming it, in the system's words."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")


def _words(exc: OSError) -> str:
    return exc.strerror or str(exc)


_T = TypeVar("_T")  # what a stream writes: str or bytes


def _guarded(name: str, write: Callable[[_T], int], data: _T) -> int:
    """``write(data)``, a failure an :class:`OutputError` naming ``name`` (a closed pipe
    excepted: the reader went away, which is no error)."""
    try:
        return write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(name, _words(exc)) from None


def _flushed(name: str, flush: Callable[[], None]) -> None:
    try:
        flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(name, _words(exc)) from None


class _Guarded:
    """A text stream whose failed writes are :class:`OutputError`s (a closed pipe excepted:
    the reader went away, which is no error). ``utf8``: the binary stream under it, where
    UTF-8 bytes written there are what the same text would be (:func:`byte_writer`)."""

    def __init__(self, stream: TextIO, name: str, utf8: BinaryIO | None = None) -> None:
        self.stream = stream
        self.name = name
        self.utf8 = utf8
        self.held = False  # text written since the last flush (the text layer may hold it)

    def write(self, text: str) -> int:
        self.held = self.held or bool(text)
        return _guarded(self.name, self.stream.write, text)

    def flush(self) -> None:
        _flushed(self.name, self.stream.flush)
        self.held = False

    def isatty(self) -> bool:
        return self.stream.isatty()


class _GuardedBytes:
    """The bytes under a :class:`_Guarded` text stream, for a format of bytes (Parquet): writes
    guarded the same way; ``close`` only flushes (the :class:`Output` closes on commit)."""

    closed = False

    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, data: bytes) -> int:
        return _guarded(self.name, self.stream.write, data)

    def flush(self) -> None:
        _flushed(self.name, self.stream.flush)

    def close(self) -> None:
        self.flush()


class _Mixed:
    """Writes text to a :class:`_Guarded` stream and UTF-8 bytes to the binary stream under
    it, in the order written: text written to the stream (here, or before: a header) is
    flushed before bytes follow it (a text stream holds what it is given until its buffer
    fills)."""

    def __init__(self, stream: _Guarded, utf8: BinaryIO) -> None:
        self.stream = stream
        self.utf8 = utf8

    def write(self, data: str | bytes) -> int:
        if isinstance(data, str):
            return self.stream.write(data)
        if self.stream.held:
            self.stream.flush()
        return _guarded(self.stream.name, self.utf8.write, data)


def byte_writer(stream: TextIO) -> Callable[[str | bytes], int] | None:
    """A write of text or of UTF-8 bytes to ``stream`` (one :func:`open_output` gave): the
    bytes go to the binary stream under it as they are, what a format writing UTF-8 itself
    saves (write.utf8_render: the stream would decode nothing, encode nothing). None where the
    bytes would not be what the text gives: a stream of someone else's (a test's stand-in
    for standard output), another encoding than UTF-8, line buffering (a terminal: each line
    is flushed as it ends), or newlines translated (``os.linesep`` is not ``\\n``)."""
    if not isinstance(stream, _Guarded) or stream.utf8 is None:
        return None
    return _Mixed(stream, stream.utf8).write


def _utf8(raw: TextIO) -> BinaryIO | None:
    """The binary stream under ``raw`` (a text stream of :func:`_text`), where UTF-8 bytes
    written to it are what the same text written to ``raw`` gives; else None."""
    if not isinstance(raw, io.TextIOWrapper) or raw.line_buffering or os.linesep != "\n":
        return None
    return raw.buffer if codecs.lookup(raw.encoding).name == "utf-8" else None


def binary(stream: TextIO) -> BinaryIO:
    """The binary stream under ``stream`` (one :func:`open_output` gave, or a text file with a
    ``buffer``), the text layer flushed first."""
    stream.flush()
    if isinstance(stream, _Guarded):
        return cast(BinaryIO, _GuardedBytes(stream.stream.buffer, stream.name))
    return stream.buffer


class _Whole(io.BufferedWriter):
    """A BufferedWriter that writes all it is given, or raises.

    A raw file's write may write less than it was given when the disk fills (the next one
    raises), and TextIOWrapper ignores the count. Python's stdout under PYTHONUNBUFFERED=1
    (set in many container images) is such a wrapper on the raw file: when the last write of
    a run met a full disk, the end of the output was lost with exit status 0 (found on a
    64 KiB tmpfs: a 100 KB document written, 65,536 bytes on disk, no error)."""

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            written = super().write(view[done:])
            if not written:
                self.flush()  # raises what stopped the write
                raise OSError(errno.EIO, "the write made no progress")
            done += written
        return done


def _raw(fd: int, closefd: bool) -> io.RawIOBase:
    return io.FileIO(fd, "w", closefd=closefd)


def _text(fd: int, *, closefd: bool = True, like: TextIO | None = None) -> TextIO:
    """A text stream on ``fd`` that writes everything or raises; ``like``: the stream whose
    newlines and line buffering it keeps (standard output), and its encoding on a terminal.

    The records are UTF-8 wherever they go but to a terminal (JSON Lines must be, RFC 8259
    §8.1; a CSV or a list of URLs read by a program is no different): under a C locale or
    ``PYTHONIOENCODING=ascii``, standard output's encoding could not write "é", and the first
    such URL was a UnicodeEncodeError traceback that lost every link of the run. A person at
    a terminal reads its encoding, what it cannot show written as Python escapes it. In UTF-8,
    what no UTF-8 holds (a lone surrogate) is U+FFFD (errors.SCALAR), never refused: a
    UnicodeEncodeError ended the run, and standard output's own ``surrogateescape`` (a C
    locale's) wrote bytes that are no UTF-8 into JSON Lines."""
    if like is None:
        raw = _Whole(_raw(fd, closefd))
        return io.TextIOWrapper(raw, encoding="utf-8", errors=SCALAR, newline="")
    terminal = _isatty(fd)
    encoding = like.encoding if terminal else "utf-8"
    utf8 = codecs.lookup(encoding).name == "utf-8"
    return io.TextIOWrapper(
        _Whole(_raw(fd, closefd)),
        encoding=encoding,
        errors=SCALAR if utf8 else "backslashreplace",
        line_buffering=bool(like.line_buffering),
        write_through=bool(getattr(like, "write_through", False)),  # PYTHONUNBUFFERED
    )


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _stdout() -> tuple[TextIO, bool]:
    """Standard output, and whether it is a stream of our own on descriptor 1 (then it is
    closed after use, descriptor 1 left open); a stand-in (a test's) is used as it is."""
    stdout = sys.stdout
    if stdout is None:  # `>&-`: Python sets it to None
        raise OutputError(STDOUT, "closed")
    own = stdout is sys.__stdout__  # not a test's stand-in
    fd = _descriptor(stdout) if own else -1
    if fd < 0:
        return stdout, False
    stdout.flush()
    return _text(fd, closefd=False, like=stdout), True


def _descriptor(stream: TextIO) -> int:
    try:
        return stream.fileno()
    except (OSError, ValueError):  # no descriptor (an embedding's stream)
        return -1


class Output:
    """An open output: ``stream`` to write to, then :meth:`commit` or :meth:`discard`."""

    def __init__(
        self,
        name: str,
        raw: TextIO,
        owned: bool = True,
        temp: str | None = None,
        place: _Place | None = None,
    ) -> None:
        self.name = name
        self.raw = raw
        self.owned = owned  # closed at the end (not a stand-in for standard output)
        # bytes straight to the binary stream only under a text stream of our own making
        self.stream = cast(TextIO, _Guarded(raw, name, _utf8(raw) if owned else None))
        self.temp = temp  # the temporary file's name, renamed to the place's by commit()
        self.place = place

    def commit(self) -> None:
        """Everything written: flushed, and the temporary file put in place."""
        self.stream.flush()
        if not self.owned:
            return
        try:
            self.raw.close()
            if self.temp is not None and self.place is not None:
                directory = self.place.directory
                os.replace(self.temp, self.place.name, src_dir_fd=directory, dst_dir_fd=directory)
                self.temp = None
                self.place.created = False
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def discard(self) -> None:
        """What was not committed is removed (nothing when all was); never raises."""
        if not self.owned:
            return
        with contextlib.suppress(OSError):  # a full disk again, as the buffer is flushed
            self.raw.close()
        place = self.place
        if place is not None:
            for name in (self.temp, place.name if place.created else None):
                if name is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=place.directory)
            place.close()
            self.place = None
        self.temp = None


def open_output(path: str | None) -> Output:
    """Standard output (``path`` None), or ``-o path`` as the module docstring says."""
    if path is None:
        return Output(STDOUT, *_stdout())
    try:
        if _direct(path):
            return Output(path, _text(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)))
        place = _Place.of(path)
        try:
            fd, temp = _temporary(place.directory)
            try:
                if place.status is not None:
                    os.fchmod(fd, stat.S_IMODE(place.status.st_mode))
                    if (place.status.st_uid, place.status.st_gid) != (os.geteuid(), os.getegid()):
                        # root writing a user's file leaves it theirs (others may not chown)
                        with contextlib.suppress(PermissionError):
                            os.fchown(fd, place.status.st_uid, place.status.st_gid)
                suffix = compression(path)
                if suffix is None:
                    raw = _text(fd)
                else:
                    packed = Compressing(suffix, _Whole(_raw(fd, True)))
                    raw = io.TextIOWrapper(
                        cast(BinaryIO, packed), encoding="utf-8", errors=SCALAR, newline=""
                    )
            except BaseException:
                os.close(fd)
                os.unlink(temp, dir_fd=place.directory)
                raise
        except BaseException:
            place.close()
            raise
    except OSError as exc:
        raise OutputError(path, _words(exc)) from None
    return Output(path, raw, True, temp, place)


class _Place:
    """Where ``-o`` writes: a directory, open, and a name in it; what is there now.

    The name given is never resolved here. A symbolic link is followed by the kernel, by
    opening it: where /proc/sys/fs/protected_symlinks is set (every distribution's default),
    the kernel refuses to follow a link in a sticky world-writable directory (/tmp) that
    another user owns. Resolving it by hand (``os.path.realpath``) bypassed that: a link
    planted by ``nobody`` in /tmp made a run as root replace the link's target, a file only
    root may write (a cron line, in the reproducer). The temporary file is then made, and
    renamed, in the directory the kernel found, by its descriptor: no path is walked twice.
    """

    def __init__(self, directory: int, name: str, status: os.stat_result | None) -> None:
        self.directory = directory  # a descriptor of the directory written to
        self.name = name  # the file's name in it
        self.status = status  # the file there (its mode and owner are kept), None if none
        self.created = False  # an empty file made through a dangling link, to remove on failure

    @classmethod
    def of(cls, path: str) -> _Place:
        if not os.path.islink(path):
            directory, name = os.path.split(path)
            try:
                status: os.stat_result | None = os.stat(path)
            except FileNotFoundError:
                status = None
            return cls._opened(directory, name, status, path)
        return cls._through_link(path)

    @classmethod
    def _through_link(cls, path: str) -> _Place:
        flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC  # opens nothing else
        created = False
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:  # a dangling link: its target made, as `>` would
            fd = os.open(path, flags | os.O_CREAT, 0o666)
            created = True
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise OutputError(path, "not a regular file: not written")
            target = _resolved(fd, path)
        finally:
            os.close(fd)
        directory, name = os.path.split(target)
        place = cls._opened(directory, name, status, path)
        place.created = created
        try:
            there = os.stat(name, dir_fd=place.directory, follow_symlinks=False)
            if (there.st_dev, there.st_ino) != (status.st_dev, status.st_ino):
                raise OutputError(path, "changed while it was opened: not written")
        except BaseException:
            place.close()
            raise
        return place

    @classmethod
    def _opened(cls, directory: str, name: str, status: os.stat_result | None, path: str) -> _Place:
        if status is not None and not stat.S_ISREG(status.st_mode):
            kind = "is a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
            raise OutputError(path, f"{kind}: not written")
        fd = os.open(directory or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        return cls(fd, name, status)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.directory)


def _resolved(fd: int, path: str) -> str:
    """The path of the file open on ``fd``, as the kernel reached it (Linux: /proc); else
    ``path`` resolved here, which :meth:`_Place._through_link` then checks is that file."""
    with contextlib.suppress(OSError):
        target = os.readlink(f"/proc/self/fd/{fd}")
        if target.startswith("/") and not target.endswith(" (deleted)"):
            return target
    return os.path.realpath(path)


# /dev/stdout, /dev/fd/1, /proc/self/fd/1: a descriptor the caller opened, maybe on a file
# (``>> log``), never replaced. Anchored, no nested repetition: no backtracking.
_STREAM = re.compile(r"/dev/(?:stdout|stderr|fd/\d+)|/proc/(?:self|\d+)/fd/\d+")


def _direct(path: str) -> bool:
    """Whether ``path`` is written to as it is: a device, a FIFO, ``/dev/stdout``..."""
    if _STREAM.fullmatch(os.path.abspath(path)):
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _temporary(directory: int) -> tuple[int, str]:
    """A new file in the directory open on ``directory``, open to write, with the mode the
    umask gives (tempfile's are 0600, which the rename would pass on to the output); and its
    name there."""
    import secrets  # random and hashlib under it: only a run that writes a file pays for them

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    while True:
        temp = f".baselinks-{secrets.token_hex(6)}.tmp"
        try:
            return os.open(temp, flags, 0o666, dir_fd=directory), temp
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
