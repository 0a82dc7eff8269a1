"""resume: a run's journal, so that a run interrupted (Ctrl-C, a kill, a full disk) and started
again with the same command goes on after the last input written in full (``--resume``), its
output the same bytes as an uninterrupted run's.

The journal is a JSON Lines file beside the output (``OUT.resume`` for ``-o OUT``), only ever
appended to, one line written whole by one ``write``:

    {"journal": "baselinks resume", "version": 1, "command": {...}}       the run
    {"input": 1, "name": "a.warc.gz", "stamp": [81920, 1764979200000000000],
     "offset": 5678, "counts": {"files": 1, "links": 40, ...}}              an input written
    {"input": 2, ...}

- ``command``: what makes the output what it is: the subcommand, its inputs as given, every
  option but those that change only how fast or how quietly it runs (``-j``, ``-q``). A run
  started again with another command is refused, saying what differs.
- ``name``, ``stamp``: the input, and a local file's size and modification time in
  nanoseconds (null for a URL); checked again, input by input, before the run goes on after
  them: an input renamed, added before, or changed is refused.
- ``offset``: the output's length, in bytes, when the input was done. The output is flushed to
  the kernel before the line is written, so a killed process has lost none of it; whatever a
  run wrote past the last line's offset (the start of the next input) is cut off before the
  run goes on. A machine that crashed may have lost more: lines past the output's length are
  dropped.
- ``counts``: the run's counts so far (the summary line's), so that the last run's summary
  and exit status are the whole run's.

A last line cut short (a kill while it was written, a full disk) is dropped. When the run
ends with its output in place, the journal is removed. Nothing here knows what the output or
the counts are: ``extract --resume`` keeps one (cli/resuming.py; the output is
write/resumable.py's), and any command that reads inputs in order and writes each one's
output in turn can keep another.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

__all__ = ["JOURNAL", "Checkpoint", "Ended", "Journal", "ResumeError", "journal_name", "stamp"]

JOURNAL = "baselinks resume"  # the first line's "journal": what the file is
VERSION = 1
_SUFFIX = ".resume"

T = TypeVar("T")


class Ended(NamedTuple):
    """An input read to its end, every event of it before this one: a journal marks it done."""

    name: str


class ResumeError(Exception):
    """A journal that cannot be followed: another command, inputs changed, a journal damaged;
    one line saying which, and how to start over."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One input written: how many are done with it, its name and stamp, the output's length
    then, and the run's counts then."""

    input: int
    name: str
    stamp: tuple[int, int] | None
    offset: int
    counts: dict[str, Any]


def journal_name(output: str) -> str:
    """The journal of the output ``output`` (``-o`` FILE): beside it, ``FILE.resume``."""
    return output + _SUFFIX


def stamp(source: object) -> tuple[int, int] | None:
    """A local file's size and modification time (ns): what says it is unchanged; None for a
    URL, a stream, or a path that cannot be read (its run says why)."""
    if not isinstance(source, str | os.PathLike) or "://" in os.fspath(source):
        return None
    try:
        status = os.stat(source)
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples as lists): what two commands compare as."""
    return json.loads(json.dumps(value))


class Journal:
    """The journal at ``path`` of a run of ``command`` (JSON types): the inputs it says are
    done (:attr:`done`), then each one more that :meth:`add` is told of."""

    def __init__(self, path: str, command: Mapping[str, Any]) -> None:
        self.path = path
        self.command = _plain(dict(command))
        self.done: list[Checkpoint] = []
        self.length = 0  # the bytes of its whole lines: what a cut line is truncated to
        self._fd: int | None = None
        self._pending: deque[tuple[str, tuple[int, int] | None]] = deque()  # handed on, not done

    @classmethod
    def load(cls, path: str, command: Mapping[str, Any]) -> Journal:
        """The journal at ``path``, checked against ``command``; an empty one where there is
        none. :class:`ResumeError` for another command's, or a file that is none."""
        journal = cls(path, command)
        try:
            with open(path, "rb") as file:
                data = file.read()
        except FileNotFoundError:
            return journal
        except OSError as exc:
            raise ResumeError(f"{path}: {exc.strerror or exc}") from None
        whole = data[: data.rfind(b"\n") + 1]  # a last line cut short is no line
        lines = whole.splitlines()
        if not lines:
            return journal  # killed while the first line was written: nothing was done
        journal._check_header(lines[0])
        for number, line in enumerate(lines[1:], 2):
            journal.done.append(journal._checkpoint(line, number))
        journal.length = len(whole)
        return journal

    def _check_header(self, line: bytes) -> None:
        try:
            header = json.loads(line)
            known = header["journal"] == JOURNAL and header["version"] == VERSION
        except (ValueError, TypeError, KeyError):
            known = False
        if not known:
            raise ResumeError(
                f"{self.path}: not a journal of this baselinks: remove it to start over"
            )
        if header["command"] != self.command:
            raise ResumeError(
                f"--resume: {self.path} is the journal of another command ("
                + _differences(header["command"], self.command)
                + "): run that one again to go on, or remove the journal to start over"
            )

    def _checkpoint(self, line: bytes, number: int) -> Checkpoint:
        try:
            fields = json.loads(line)
            found = fields["stamp"]
            checkpoint = Checkpoint(
                int(fields["input"]),
                str(fields["name"]),
                None if found is None else (int(found[0]), int(found[1])),
                int(fields["offset"]),
                dict(fields["counts"]),
            )
        except (ValueError, TypeError, KeyError, IndexError):
            checkpoint = None
        if checkpoint is None or checkpoint.input != len(self.done) + 1:
            raise ResumeError(f"{self.path}: line {number} damaged: remove it to start over")
        return checkpoint

    def keep_within(self, length: int) -> None:
        """Drop the inputs whose output goes past ``length`` bytes, what the output holds (a
        machine that crashed may have lost the end of it): they are read again."""
        if self.done and self.done[-1].offset > length:
            while self.done and self.done[-1].offset > length:
                self.done.pop()
            self.length = -1  # rewritten whole at the next add: the lines dropped go too

    @property
    def offset(self) -> int:
        """The output's length when the last input done was: where the run goes on writing."""
        return self.done[-1].offset if self.done else 0

    def add(
        self, name: str, found: tuple[int, int] | None, offset: int, counts: Mapping[str, Any]
    ) -> None:
        """One input more written: ``offset`` the output's length after it, flushed."""
        checkpoint = Checkpoint(len(self.done) + 1, name, found, offset, _plain(dict(counts)))
        if self._fd is None:
            self._open()
        self._write(_line(checkpoint))
        self.done.append(checkpoint)

    def _open(self) -> None:
        """The journal opened to append: a cut last line (or lines dropped) truncated away;
        a new one (or one rewritten) starts with the command."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
        self._fd = os.open(self.path, flags, 0o666)
        if self.length < 0 or not self.done:  # rewritten: the command, then what is kept
            os.ftruncate(self._fd, 0)
            self._write({"journal": JOURNAL, "version": VERSION, "command": self.command})
            for each in self.done:
                self._write(_line(each))
        else:
            os.ftruncate(self._fd, self.length)

    def _write(self, line: Mapping[str, Any]) -> None:
        assert self._fd is not None
        data = (json.dumps(line, ensure_ascii=True) + "\n").encode("ascii")
        written = os.write(self._fd, data)
        if written != len(data):  # a full disk: the line is cut, and read back as none
            raise OSError(28, "No space left on device")

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        """The run ended with its output in place: the journal goes."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def after(
        self, inputs: Iterable[T], name: Callable[[T], str], source: Callable[[T], object]
    ) -> Iterator[T]:
        """``inputs`` after those done, each of the done checked to be the same input as it was
        (its name, and a file's stamp); then each one handed on remembered, for :meth:`ended`
        to mark. :class:`ResumeError` at once (nothing read) when an input done is not."""
        given = iter(inputs)
        for each in self.done:
            item = next(given, None)
            if item is None:
                raise ResumeError(
                    f"--resume: the inputs changed: {each.name}, input {each.input:,} of the "
                    "run interrupted, is no longer given; remove the journal to start over"
                )
            now = name(item)
            if now != each.name:
                raise ResumeError(
                    f"--resume: the inputs changed: input {each.input:,} was {each.name}, is "
                    f"now {now}; remove the journal to start over"
                )
            if stamp(source(item)) != each.stamp:
                raise ResumeError(
                    f"--resume: {now} changed since it was read (its size or time); remove "
                    "the journal to start over"
                )
        return self._remembered(given, name, source)

    def _remembered(
        self, given: Iterator[T], name: Callable[[T], str], source: Callable[[T], object]
    ) -> Iterator[T]:
        for item in given:
            self._pending.append((name(item), stamp(source(item))))
            yield item

    def ended(self, event: Ended, offset: Callable[[], int], counts: Mapping[str, Any]) -> None:
        """``event``'s input written in full (its output handed over): marked done, with the
        output's length that ``offset`` gives (flushing it) and the run's ``counts``."""
        name, found = self._pending.popleft()
        if name != event.name:  # inputs are done in the order they are given: a bug else
            raise AssertionError(f"input {event.name!r} ended, {name!r} expected")
        self.add(name, found, offset(), counts)


def _line(checkpoint: Checkpoint) -> dict[str, Any]:
    return {
        "input": checkpoint.input,
        "name": checkpoint.name,
        "stamp": checkpoint.stamp,
        "offset": checkpoint.offset,
        "counts": checkpoint.counts,
    }


def _differences(then: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """What differs between two commands, in a few words: ``--format: csv, now jsonl``."""
    said = []
    for key in sorted(set(then) | set(now)):
        if then.get(key) != now.get(key):
            option = "the inputs" if key == "paths" else "--" + key.replace("_", "-")
            said.append(f"{option}: {then.get(key)!r}, now {now.get(key)!r}")
    return "; ".join(said[:3]) + ("; ..." if len(said) > 3 else "")
