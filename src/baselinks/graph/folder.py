"""folder: where a graph is written: the output folder checked, held by one run at a time, a
work folder of the run's own in it, and what ``--resume`` finds there again.

    GraphFolder.open(DIR)   DIR made if missing; refused in one line when it is a file, under
                            a file, a device (/dev/null) or not writable; locked (flock on
                            the folder itself: no lock file) for the whole run: a second run
                            into DIR is refused at once ("one wins whole, the other says
                            so"); the lock goes with the process, a kill too
    work()                  a new folder DIR/.baselinks-graph-XXXXXXXX (unique: mkdtemp) for
                            the sort's runs and the files being written, removed at the end
    resumable(key)          DIR/.baselinks-graph-resume: the same for a run with --resume,
                            kept when the run is cut, with its checkpoint (state.json): the
                            command's key, the inputs done, the sort's runs, the counts

A checkpoint is written whole or not at all (the runs fsync'd, then state.json by rename), so a
run killed at any point (SIGKILL too) is resumed from the last one, and files a cut run left
after it (runs not in the checkpoint) are removed first.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["FolderError", "GraphFolder", "Resumable"]

RESUME = ".baselinks-graph-resume"
_STATE = "state.json"


class FolderError(Exception):
    """The output folder cannot be used: one line for the user, naming it."""

    def __init__(self, folder: str, reason: str) -> None:
        super().__init__(f"{folder}: {reason}")
        self.folder, self.reason = folder, reason


def _words(exc: OSError) -> str:
    return exc.strerror.lower() if exc.strerror else str(exc)


class GraphFolder:
    """An output folder, checked and locked (:meth:`open`); :meth:`close` unlocks it."""

    def __init__(self, path: Path, lock: int) -> None:
        self.path, self.lock = path, lock

    @classmethod
    def open(cls, given: str | os.PathLike[str]) -> GraphFolder:
        path = Path(given)
        name = os.fspath(given)
        try:
            status = os.stat(path)
        except FileNotFoundError:
            status = None
        except OSError as exc:  # a path under a file: "not a directory"
            raise FolderError(name, _words(exc)) from None
        if status is not None and not stat.S_ISDIR(status.st_mode):
            kind = "a file" if stat.S_ISREG(status.st_mode) else "a device or a special file"
            raise FolderError(name, f"{kind}, not a folder: the graph is written in a folder")
        try:
            path.mkdir(parents=True, exist_ok=True)
            lock = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            if not os.access(path, os.W_OK):
                os.close(lock)
                raise PermissionError(13, "Permission denied")
        except OSError as exc:
            raise FolderError(name, _words(exc)) from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(lock)
            raise FolderError(name, "another baselinks run is writing in it: not written") from None
        return cls(path, lock)

    def work(self) -> Path:
        """A new work folder of this run's own, in the output folder (its disk)."""
        try:
            return Path(tempfile.mkdtemp(prefix=".baselinks-graph-", dir=self.path))
        except OSError as exc:
            raise FolderError(os.fspath(self.path), _words(exc)) from None

    def resumable(self, key: dict[str, Any]) -> Resumable:
        """The resume folder, and what it holds for the command ``key`` (nothing when none
        ran); :class:`FolderError` when it holds another command's checkpoint, saying what
        differs (as ``extract --resume`` refuses one)."""
        return Resumable(self.path / RESUME, key, os.fspath(self.path))

    def forget(self) -> None:
        """A checkpoint left by a run with --resume, removed: a run without it replaced the
        graph."""
        shutil.rmtree(self.path / RESUME, ignore_errors=True)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.lock)  # the lock with it


class Resumable:
    """The resume folder of a run with ``--resume``: its checkpoint, read and written."""

    def __init__(self, path: Path, key: dict[str, Any], folder: str = "") -> None:
        self.path, self.key = path, key
        self.state: dict[str, Any] = {}
        try:
            found = json.loads((path / _STATE).read_text("utf-8"))
        except (OSError, ValueError):  # none, or one cut short: no checkpoint was made
            found = None
        if isinstance(found, dict) and found.get("key") == key:
            self.state = found
        elif isinstance(found, dict):
            what = _differences(found.get("key", {}), key)
            raise FolderError(
                folder or os.fspath(path),
                f"--resume: it holds another command's checkpoint ({what}): run it again "
                "without --resume to start afresh",
            )
        else:
            shutil.rmtree(path, ignore_errors=True)
        path.mkdir(exist_ok=True)
        kept = {os.path.basename(p) for runs in self.runs().values() for p in runs}
        for leftover in path.iterdir():  # what a cut run wrote after its last checkpoint
            if leftover.name not in kept and leftover.name != _STATE:
                if leftover.is_dir():
                    shutil.rmtree(leftover, ignore_errors=True)
                else:
                    leftover.unlink(missing_ok=True)

    @property
    def done(self) -> int:
        """How many inputs the checkpoint holds (the run goes on after them)."""
        return int(self.state.get("done", 0))

    def runs(self) -> dict[str, list[str]]:
        saved = self.state.get("runs", {})
        return {kind: [str(self.path / name) for name in names] for kind, names in saved.items()}

    def counts(self) -> dict[str, Any]:
        found: dict[str, Any] = self.state.get("counts", {})
        return found

    def checkpoint(self, done: int, runs: dict[str, list[str]], counts: dict[str, Any]) -> None:
        """``done`` inputs are in ``runs`` (written): made durable, then recorded."""
        for paths in runs.values():
            for run in paths:
                with open(run, "rb") as opened:
                    os.fsync(opened.fileno())
        names = {kind: [os.path.basename(p) for p in paths] for kind, paths in runs.items()}
        self.state = {"key": self.key, "done": done, "runs": names, "counts": counts}
        partial = self.path / f"{_STATE}.partial"
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(self.state, out, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, self.path / _STATE)
        directory = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def _differences(then: dict[str, Any], now: dict[str, Any]) -> str:
    """What differs between two commands' keys, in a few words (``--level: 'host', now
    'domain'``; ``input 3 changed: a.warc.gz``)."""
    said = []
    before, after = then.get("options", {}), now.get("options", {})
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            said.append(f"--{key.replace('_', '-')}: {before.get(key)!r}, now {after.get(key)!r}")
    inputs, given = then.get("inputs", []), now.get("inputs", [])
    for number, (old, new) in enumerate(zip(inputs, given, strict=False), 1):
        if old != new:
            what = "changed" if old[0] == new[0] else f"was {old[0]}"
            said.append(f"input {number} {what}: {new[0]}")
            break
    if len(inputs) != len(given) and not said:
        said.append(f"{len(inputs):,} inputs, now {len(given):,}")
    return "; ".join(said[:3]) + ("; ..." if len(said) > 3 else "")
