"""resumable: ``-o FILE --resume``, an output that outlives the run writing it.

    FILE.partial   what is written so far, uncompressed (the records as the format gives
                   them); kept when the run is interrupted, cut back to the length the run's
                   journal says was written in full (run/resume.py) when the run goes on
    FILE           made at the end from FILE.partial: renamed to it, or compressed into it by
                   its suffix (.gz, .bz2, .zst) in one pass, then FILE.partial removed

The output without ``--resume`` is written to a temporary file and renamed over FILE
(output.py); this one is the same but for its name, kept, and the compression done at the end:
gzip, bzip2 and zstd give the same bytes whatever the pieces the data comes in, so FILE is the
same bytes as a run without ``--resume`` writes. ``--resume`` writes a regular file only: not
a device, a pipe or standard output (nothing there can be cut back), nor through a symbolic
link (FILE.partial would be beside the link, renamed over it).
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
from typing import cast

from .compress import Compressing, compression
from .output import Output, OutputError, _raw, _temporary, _text, _Whole, _words

__all__ = ["PARTIAL", "Resumable", "open_resumable", "resumable_place"]

PARTIAL = ".partial"  # FILE.partial: the output so far
_CHUNK = 1 << 20  # bytes read at a time from FILE.partial when compressing it


def resumable_place(path: str) -> str | None:
    """Why ``-o path`` cannot be written by a resumable run, or None when it can: a regular
    file, or none yet, not through a symbolic link."""
    if os.path.islink(path):
        return "a symbolic link (give the file it points to)"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _words(exc)
    return None if stat.S_ISREG(mode) else "not a regular file (a device, a pipe, a directory)"


def partial_length(path: str) -> int:
    """The length of ``path``'s FILE.partial, 0 when there is none."""
    try:
        return os.stat(path + PARTIAL).st_size
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise OutputError(path + PARTIAL, _words(exc)) from None


class Resumable(Output):
    """An :class:`Output` written to FILE.partial from ``start`` on (what was there before
    ``start`` kept); :meth:`offset` its length, flushed; :meth:`commit` makes FILE."""

    def __init__(self, name: str, raw: io.TextIOWrapper, fd: int) -> None:
        super().__init__(name, raw)
        self.fd = fd
        self.partial = name + PARTIAL

    def offset(self) -> int:
        """The bytes written so far, every one of them handed to the kernel (a process killed
        after this loses none)."""
        self.stream.flush()
        try:
            return os.lseek(self.fd, 0, os.SEEK_CUR)
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def commit(self) -> None:
        """FILE.partial made FILE: renamed, or compressed into it by FILE's suffix."""
        self.stream.flush()
        try:
            self.raw.close()
            suffix = compression(self.name)
            if suffix is None:
                os.replace(self.partial, self.name)
            else:
                _compressed(self.partial, self.name, suffix)
                os.unlink(self.partial)
        except OSError as exc:
            raise OutputError(self.name, _words(exc)) from None

    def discard(self) -> None:
        """FILE.partial kept, for the run that goes on (:meth:`remove` where no journal says
        what of it was written); never raises."""
        with contextlib.suppress(OSError):
            self.raw.close()

    def remove(self) -> None:
        """FILE.partial removed (a run that wrote nothing a journal marks); never raises."""
        self.discard()
        with contextlib.suppress(OSError):
            os.unlink(self.partial)


def open_resumable(path: str, start: int) -> Resumable:
    """``-o path --resume``: FILE.partial opened to write from byte ``start`` on (0: a new
    one), what is past it cut off."""
    partial = path + PARTIAL
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(partial, flags, 0o666)
        try:
            os.ftruncate(fd, start)
            os.lseek(fd, start, os.SEEK_SET)
            raw = _text(fd)
        except BaseException:
            os.close(fd)
            raise
    except OSError as exc:
        raise OutputError(partial, _words(exc)) from None
    return Resumable(path, cast(io.TextIOWrapper, raw), fd)


def _compressed(partial: str, path: str, suffix: str) -> None:
    """``partial`` compressed into ``path`` (a temporary file beside it, renamed over it)."""
    directory = os.open(os.path.dirname(path) or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fd, temp = _temporary(directory)
        under = _Whole(_raw(fd, True))
        try:
            packed = Compressing(suffix, under)
            with open(partial, "rb") as source:
                while chunk := source.read(_CHUNK):
                    packed.write(chunk)
            packed.close()
            os.replace(temp, os.path.basename(path), src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            # the file closed (its flush may fail again: the first failure is the one raised)
            with contextlib.suppress(BaseException):
                under.close()
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=directory)
            raise
    finally:
        os.close(directory)
