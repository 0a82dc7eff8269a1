"""``extract --resume -o FILE``: its rule, its journal and output opened, and the wiring of both
into the run (app.py calls these; the journal is run/resume.py's, the output
write/resumable.py's).

    a first run          FILE.partial written, FILE.resume marking each input written in full
    interrupted          both kept (Ctrl-C, SIGTERM, SIGKILL, a full disk, a failed write)
    the same command     FILE.partial cut back to the last input marked; the inputs before it
                         checked unchanged and skipped; the run goes on after it, its counts
                         the whole run's
    at the end           FILE made from FILE.partial (compressed by its suffix), both removed

Refused (a usage error, before anything is written): no ``-o``; standard input (it cannot be
read again); ``--format parquet`` (one file whose footer comes last); ``--unique=run`` and
``--stats`` (what they keep of the run is in memory only); ``-o`` a device, a pipe, a
symbolic link.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..run.batch import Summary
    from ..run.resume import Ended, Journal
    from ..write.resumable import Resumable

__all__ = ["Resumed", "add_resume", "open_resumed"]

# Options that change how fast or how quietly a run goes, never what it writes: a run may go on
# with others (-j 2 after -j 1). The rest is the command a journal is of.
_VOLATILE = frozenset({"jobs", "quiet", "resume", "subparsers", "generate", "output"})
# The summary's counts a journal keeps (Summary's fields but stats, which --resume refuses).
_COUNTS = ("files", "documents", "links", "failed", "no_base", "warnings", "read", "unresolved")


def add_resume(ext: argparse.ArgumentParser) -> None:
    ext.add_argument(
        "--resume",
        action="store_true",
        help="with -o FILE: keep a journal (FILE.resume) and FILE.partial; started again with "
        "the same command after an interruption, go on after the last input written in full",
    )


def _refused(args: argparse.Namespace) -> str | None:
    """Why this run cannot be resumed, or None."""
    from ..write.resumable import resumable_place

    if args.output is None:
        return "--resume needs -o FILE: the output it goes on writing"
    if not args.paths or "-" in args.paths:
        return "--resume: standard input cannot be read again: name the inputs"
    if args.format == "parquet":
        return (
            "--resume: --format parquet is one file whose footer comes last: use jsonl, csv or tsv"
        )
    if args.unique == "run" or args.stats:
        option = "--unique=run" if args.unique == "run" else "--stats"
        return f"--resume: {option} keeps what it counts of the run in memory: not with --resume"
    place = resumable_place(args.output)
    return None if place is None else f"--resume: -o {args.output}: {place}"


def command(args: argparse.Namespace) -> dict[str, Any]:
    """What a journal is of: the subcommand, the inputs, the options that shape the output."""
    return {
        key: value
        for key, value in sorted(vars(args).items())
        if key not in _VOLATILE and not key.startswith("_")
    }


class Resumed:
    """A resumable run's journal and output, and what the run needs of them."""

    def __init__(self, journal: Journal, output: Resumable) -> None:
        self.journal = journal
        self.output = output
        self.committed = False

    @property
    def going_on(self) -> bool:
        """Whether an interrupted run's inputs are done already (its header written too)."""
        return bool(self.journal.done)

    def restore(self, summary: Summary) -> None:
        """``summary`` set to the counts of the inputs done."""
        if not self.journal.done:
            return
        counts = self.journal.done[-1].counts
        for name in _COUNTS:
            setattr(summary, name, int(counts.get(name, 0)))
        summary.skipped = Counter({str(k): int(v) for k, v in counts.get("skipped", {}).items()})
        summary.unresolved_names = [str(name) for name in counts.get("unresolved_names", [])]

    def note(self) -> str | None:
        """What the run says as it goes on (None when it starts from the first input)."""
        if not self.journal.done:
            return None
        last = self.journal.done[-1]
        links = int(last.counts.get("links", 0))
        return (
            f"--resume: going on after input {last.input:,} ({last.name}), "
            f"{links:,} link{'' if links == 1 else 's'} written before"
        )

    def going_on_after(
        self,
        inputs: Iterable[tuple[Any, str, bool, str | None]],
        summary: Summary,
        note: Callable[[str], None],
        quiet: bool = False,
        revisits: Any = True,
    ) -> tuple[Iterator[tuple[Any, str, bool, str | None]], Any]:
        """The command line's inputs (source, name, named, URL) after those done, each of
        those checked unchanged; ``summary`` given their counts, and the run's going on
        said (``note``, unless ``quiet``). And the revisits' originals to look in: when the
        run goes on, the index of all the inputs (a revisit's may be in an input done)."""
        if revisits is True and self.going_on:
            inputs, revisits = all_looked_at(inputs)
        rest = self.journal.after(inputs, lambda given: given[1], lambda given: given[0])
        self.restore(summary)
        said = self.note()
        if said is not None and not quiet:
            note(said)
        return rest, revisits

    def ended(self, summary: Summary) -> Callable[[Ended], None]:
        """What is told of each input done: it is marked, with the output's length and the
        counts so far."""

        def mark(event: Ended) -> None:
            counts: dict[str, Any] = {name: getattr(summary, name) for name in _COUNTS}
            counts["skipped"] = dict(summary.skipped)
            counts["unresolved_names"] = list(summary.unresolved_names)
            self.journal.ended(event, self.output.offset, counts)

        return mark

    def commit(self) -> None:
        """FILE made from FILE.partial: the journal goes."""
        self.output.commit()
        self.journal.remove()
        self.committed = True

    def close(self) -> None:
        """After the command, FILE made or not: a journal that marks no input goes, with
        FILE.partial (the next run starts over); one that does is kept, for it to go on."""
        if self.committed:
            return
        if self.journal.done:
            self.journal.close()
        else:
            self.journal.remove()
            self.output.remove()


def open_resumed(args: argparse.Namespace) -> Resumed:
    """The journal of ``-o FILE`` (checked against this command) and FILE.partial opened after
    the last input it marks; :class:`~baselinks.run.resume.ResumeError` when it cannot be
    followed, or this run cannot be resumed."""
    from ..run.resume import Journal, ResumeError, journal_name
    from ..write.resumable import open_resumable, partial_length

    refused = _refused(args)
    if refused is not None:
        raise ResumeError(refused)
    journal = Journal.load(journal_name(args.output), command(args))
    journal.keep_within(partial_length(args.output))
    return Resumed(journal, open_resumable(args.output, journal.offset))


def all_looked_at(
    inputs: Iterable[tuple[Any, str, bool, str | None]],
) -> tuple[Iterator[tuple[Any, str, bool, str | None]], Any]:
    """The inputs, and the index of the revisits' originals in all of them: a run going on
    after the inputs done finds a revisit's original in one of those as the whole run did."""
    from ..run.inputs import label
    from ..run.revisits import with_revisits

    listed, index = with_revisits(inputs, True, lambda given: (given[0], label(*given[:2])))
    return iter(listed), index
