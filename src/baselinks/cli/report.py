"""What ``baselinks extract`` (and ``graph``) says on stderr while it runs: a line per failure
or warning, escaped, above the progress bar of the bytes read, with the time left where the
inputs' size is known. app.py wires them.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..errors import InputError, InputWarning, describe, printable, say

if TYPE_CHECKING:
    from ..run.batch import Summary, Unused

__all__ = ["Progress", "Teller", "on_terminal", "total_size"]


class Teller:
    """What ``extract`` says on stderr while it runs: one line per failure, escaped."""

    def __init__(
        self, out: TextIO, summary: Summary, tell: Callable[[str], None], quiet: bool
    ) -> None:
        self.out, self.summary, self.tell, self.quiet = out, summary, tell, quiet

    def say(self, message: str) -> None:
        # the links written so far first: with 2>&1 an error line follows the links before it
        # whatever the buffering (a pipe's, or PYTHONUNBUFFERED's), so the order is the input's
        self.out.flush()
        self.tell(message)

    def failed(self, error: InputError) -> None:
        self.say(str(error) if error.name else error.message)  # nameless: the run's (a worker)

    def note(self, message: str) -> None:
        self.say(message)

    def warned(self, warning: InputWarning) -> None:
        # its own prefix: an oddity repaired, nothing lost (exit 0 unless --strict)
        self.say(f"warning: {warning}")

    def unlisted(self, exc: OSError) -> None:
        from ..run.batch import display_name

        self.say(f"{display_name(str(exc.filename))}: {exc.strerror or exc}")
        self.summary.failed += 1

    def unreadable(self, name: str, exc: Exception) -> None:
        self.say(f"{name}: {describe(exc)}")  # a bug is said to be one; the other inputs go on

    def unused(self, event: Unused) -> None:
        if not self.quiet:
            self.say(event.message("--url"))


def on_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal: not when it is None (no stdin at all), closed, or
    an object that only has a ``buffer`` (as a caller may set ``sys.stdin`` to)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return callable(isatty) and bool(isatty())
    except (OSError, ValueError):  # closed
        return False


def total_size(paths: Sequence[str]) -> int | None:
    """The bytes the inputs hold, for the progress bar's total and time left: the sizes of the
    files named and of those under the directories; None when one is stdin, a URL, or no
    regular file (a FIFO: its size is no promise)."""
    from ..run.inputs import is_directory, is_url, walk

    total = 0
    for given in paths or ["-"]:
        if given == "-" or is_url(given):
            return None
        found = walk(given, lambda exc: None) if is_directory(given) else [given]
        for path in found:
            try:
                status = os.stat(path)
            except OSError:
                continue  # its error is said when it is read
            if not stat.S_ISREG(status.st_mode):
                if path == given:
                    return None
                continue  # a FIFO in a directory is skipped, not read
            total += status.st_size
    return total


class Progress:
    """A tqdm bar on stderr (a terminal) of the bytes of the inputs read (inside a file too: a
    WARC's records as they are read), against their total where it is known, with the time
    left; documents, files and links beside. Shown only once a run has taken half a second, so
    a single page never flashes one."""

    DELAY = 0.5  # seconds before the bar shows
    EVERY = 0.1  # seconds between redraws at most

    def __init__(self, summary: Summary, total: int | None = None) -> None:
        from tqdm import tqdm  # only for a terminal: a pipe never pays the import

        self.summary = summary
        self.bar = tqdm(
            desc="baselinks",
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            delay=self.DELAY,
            mininterval=self.EVERY,
            leave=False,
            file=sys.stderr,
        )

    def advance(self) -> None:
        from ..run.batch import counted

        tally = self.summary
        counts = (counted(tally.documents, "document"), counted(tally.files, "file"))
        self.bar.set_postfix_str(f"{', '.join(counts)}, {counted(tally.links, 'link')}", False)
        self.bar.update(tally.read - self.bar.n)  # redrawn at most every EVERY seconds

    def say(self, message: str) -> None:
        self.bar.write(f"baselinks: {printable(message)}", file=sys.stderr)  # above the bar

    def close(self) -> None:
        self.bar.close()


def slow_path_once() -> None:
    """On a terminal, one line the first time the pure-Python path runs where nobody asked
    for it (compiled.slow_path): said once per user and version, marked by an empty file in
    the user's cache folder ($XDG_CACHE_HOME/baselinks, ~/.cache/baselinks); where that
    cannot be written, never said (a line on every run would be noise)."""
    from .. import compiled
    from .._version import __version__

    why = compiled.slow_path()
    if why is None or not on_terminal(sys.stderr):
        return
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    marker = os.path.join(cache, "baselinks", f"slow-path-said-{__version__}")
    try:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, "x"):
            pass
    except OSError:  # said before (FileExistsError), or nowhere to mark it
        return
    say(f"note: {why} (said once; baselinks --version tells the path)")
