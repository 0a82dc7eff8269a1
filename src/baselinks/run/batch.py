"""batch: inputs → units of work → each document's links, in input order, counted.

    inputs ──read──► entries (Part, Skipped, InputError)     load/containers/, here or in a worker
           ──unit──► a list of entries, or a whole small file for a worker to read
           ──Task──► Done per document (links, or their rendered text), the rest passed on
           ──results► in order; files, documents, links, skips and failures counted

With one worker everything runs here, one entry at a time (output streams). With more, units
go to processes (:mod:`baselinks.run.workers`) and come back in order; a worker that dies costs
at most the one input or document that kills it, named (``_RECOVERY``). The per-document pipeline
(load → base → walk → resolve) is handed in as ``Task.extract``; nothing here knows HTML.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, BinaryIO, Generic, cast

from ..errors import InputError, InputWarning, SelectError, internal
from ..load.containers import Part, Skipped, iter_entries
from ..write.formats import output_budget, rendered_within
from .events import Done, Event, Failed, Opened, PartLinks, Read, T, Unreadable, Unused, records
from .inputs import Source, display_name, is_url, label, open_source
from .resume import Ended
from .revisits import UNRESOLVED, RevisitIndex, with_originals, with_revisits
from .summary import Summary, counted, skipped_text
from .workers import Recovery, ordered_map

if TYPE_CHECKING:
    from ..resolve.link import Link
    from ..write.stats import Stats

__all__ = [
    "Done",
    "Input",
    "Options",
    "Source",
    "Summary",
    "Task",
    "Unused",
    "counted",
    "display_name",
    "records",
    "results",
    "skipped_text",
]


@dataclass(frozen=True)
class Input:
    """One input of a batch, and how to read it."""

    source: Source
    name: str | None = None
    strict: bool = True  # False: an input that is no document is skipped, not an error
    # its URL in a mirrored site (base/mirror.py): the retrieval URL of its documents that have none
    # of their own (a WARC record's target, an MHTML snapshot's location), instead of Options.url
    mirrored: str | None = None


@dataclass(frozen=True)
class Options:
    url: str | None = None
    headers: tuple[tuple[str, str], ...] = ()
    charset: str | None = None
    # revisit records' originals looked for in the inputs before they are read (run/revisits.py),
    # or found already (a RevisitIndex: Spark's, of all the files of a job); False: not looked for
    revisits: bool | RevisitIndex = True


_READ_EVERY = 1 << 20  # bytes between two Read events of an input: one per document at most


def entries(given: Input, options: Options) -> Iterator[Event]:
    """What one input holds, in order: the opened mark, then its documents, skips and damage,
    with how many of its bytes were read as they are (:class:`Read`). A revisit record's
    document is its original's page, found in ``options.revisits`` (else it is skipped)."""
    opened = open_source(given.source, label(given.source, given.name), given.strict)
    if isinstance(opened, Skipped):
        yield opened
        return
    stream, name, fetched, headers = opened
    # a URL input's own URL (where its redirects ended) unless a URL is given: url= wins
    own = given.mirrored if given.mirrored is not None or options.url else fetched
    url = options.url if own is None else None
    try:
        yield Opened(name)
        found: Iterator[Event] = iter_entries(
            stream,
            name,
            url=url,
            headers=options.headers or headers,
            charset=options.charset,
            named=given.strict,
            where=fetched,
        )
        if own is not None:
            found = _mirrored(found, own)
        elif url:
            found = _said_unused(found, name, url)
        index = options.revisits if isinstance(options.revisits, RevisitIndex) else None
        found = with_originals(found, index, given.source)
        yield from _counted(found, stream)
        damage = getattr(stream, "damage", "")  # a fetched body cut short or undecodable
        if damage:
            yield InputError(damage, name)
    finally:
        if stream is not given.source:
            stream.close()


def _counted(found: Iterator[Event], stream: BinaryIO) -> Iterator[Event]:
    """An input's events, with :class:`Read` after one when a MiB more of the stream was read
    (its position: a .warc.gz's compressed bytes), and at its end; none when the stream does
    not tell its position (a pipe)."""
    told = _position(stream)
    if told is None:
        yield from found
        return
    for entry in found:
        yield entry
        position = _position(stream) or told
        if position - told >= _READ_EVERY:
            yield Read(position - told)
            told = position
    position = _position(stream) or told
    if position > told:
        yield Read(position - told)


def _position(stream: BinaryIO) -> int | None:
    try:
        return stream.tell()
    except (AttributeError, OSError, ValueError):  # a pipe; closed
        return None


def _mirrored(found: Iterator[Event], url: str) -> Iterator[Event]:
    """An input's documents, those without a retrieval URL of their own given ``url``, the
    input's in a mirrored site (a :class:`~baselinks.base.mirror.MirroredURL`)."""
    for entry in found:
        if isinstance(entry, Part) and entry.retrieval is None:
            entry = replace(entry, retrieval=url)
        yield entry


def _said_unused(found: Iterator[Event], label: str, url: str) -> Iterator[Event]:
    """An input's documents, with :class:`Unused` before the first whose retrieval URL is not
    the ``url`` given: only an archive's records have their own, which no option overrides
    (every other container hands ``url`` on to its documents)."""
    for entry in found:
        if isinstance(entry, Part) and entry.retrieval != url:
            yield Unused(label, entry.retrieval or "")
            yield entry
            yield from found
            return
        yield entry


def guarded(given: Input, options: Options) -> Iterator[Event]:
    """:func:`entries`, with an input that cannot be read ending as one event; then Ended."""
    try:
        yield from entries(given, options)
    except SelectError:
        raise
    except Exception as exc:
        yield Unreadable(label(given.source, given.name), exc)
    yield Ended(label(given.source, given.name))  # (in a worker too: after all the input's events)


@dataclass(frozen=True)
class Task(Generic[T]):
    """load → base → walk → resolve over a unit of work; picklable, for workers.

    A unit is a list of entries read by the main process (documents among them are
    extracted, the rest passed on), or a whole small input for the worker to read itself.
    """

    # one document: (part, mode, select) -> its links, what could not be read, its own URL
    extract: Callable[[Part, str, str | None], PartLinks]
    mode: str
    select: str | None
    kinds: frozenset[str] | None
    unique: bool
    render: Callable[[list[Link]], T]  # records, or text back instead of records
    options: Options = Options()
    # what else is counted of a document's links, where they are extracted: how many have no
    # base, and their Stats or None (api hands in write/stats.py's, as it hands in extract)
    count: Callable[[list[Link]], tuple[int, Stats | None]] | None = None
    unique_by: str = "url"  # with unique: the field kept once (url, or host, canonical...)
    every: bool = False  # a Done for every document, one without links too (graph/build.py)

    def __call__(self, unit: list[Event | Input]) -> list[Event]:
        return list(self.events(unit))

    def events(self, unit: list[Event | Input]) -> Iterator[Event]:
        """The unit's events as they come: in one process, a streamed document's pieces leave
        one at a time (:meth:`__call__`, for a worker, gathers them)."""
        for item in unit:
            for entry in guarded(item, self.options) if isinstance(item, Input) else (item,):
                if isinstance(entry, Part):
                    yield from self._done(entry)
                else:
                    yield entry

    def _done(self, part: Part) -> Iterator[Done[T] | Failed]:
        try:
            links, unread, page = self.extract(part, self.mode, self.select)
            if not isinstance(links, list) and self.every:  # (a graph's: one Done a page)
                links = [link for piece in links for link in piece]
                unread = cast(Callable[[], str], unread)()
        except SelectError:
            raise  # the caller's mistake, the same for every document
        except Exception as exc:
            # One document that cannot be read never stops the others in its file.
            yield Failed(part.name, internal(exc))
            return
        if isinstance(links, list):
            yield self._whole(part, links, cast(str, unread), page)
        else:
            yield from self._pieces(part, links, cast(Callable[[], str], unread), page)

    def _pieces(
        self, part: Part, pieces: Iterator[list[Link]], unread: Callable[[], str], page: str | None
    ) -> Iterator[Done[T] | Failed]:
        """A streamed document's links a piece at a time, each a Done with ``more``, then one
        saying what could not be read: kinds, unique and the output budget over the whole."""
        budget = output_budget(len(part.body or b""))
        seen: set[str | None] = set()
        left = 0  # links past the output budget
        try:
            for links in pieces:
                if self.kinds is not None:
                    links = [link for link in links if link.kind in self.kinds]
                if self.unique:
                    links = [link for link in links if _first(seen, getattr(link, self.unique_by))]
                if left:
                    left += len(links)
                    continue
                output, written = rendered_within(self.render, links, budget)
                budget -= len(output) if isinstance(output, str | bytes) else 0
                if written < len(links):
                    left, links = len(links) - written, links[:written]
                no_base, stats = (0, None) if self.count is None else self.count(links)
                yield Done(part.name, output, written, None, no_base, stats, page, more=True)
            said = unread()
        except SelectError:
            raise
        except Exception as exc:  # (a MemoryError: said, the rest read on)
            yield Failed(part.name, internal(exc))
            return
        if left:
            said = "; ".join(filter(None, (said, _cut(output_budget(len(part.body or b"")), left))))
        yield Done(part.name, self.render([]), 0, said or None, 0, None, page)

    def _whole(
        self, part: Part, links: list[Link], unread: str, page: str | None
    ) -> Done[T] | Failed:
        if self.kinds is not None:
            links = [link for link in links if link.kind in self.kinds]
        if self.unique:
            by_key: dict[str | None, Link] = {}
            for link in links:
                by_key.setdefault(getattr(link, self.unique_by), link)
            links = list(by_key.values())
        budget = output_budget(len(part.body or b""))
        try:
            output, written = rendered_within(self.render, links, budget)
        except MemoryError as exc:  # the records of a huge document: said, the rest read on
            return Failed(part.name, internal(exc))
        if written < len(links):
            cut = _cut(budget, len(links) - written)
            unread = f"{unread}; {cut}" if unread else cut
            links = links[:written]
        no_base, stats = (0, None) if self.count is None else self.count(links)
        return Done(part.name, output, written, unread or None, no_base, stats, page)


def _cut(budget: int, left: int) -> str:
    return (
        f"output over {budget:,} bytes (the limit for a document of this size): the last "
        f"{counted(left, 'link')} not written"
    )


def _first(seen: set[str | None], key: str | None) -> bool:
    """Whether ``key`` is met the first time (then it is kept in ``seen``)."""
    if key in seen:
        return False
    seen.add(key)
    return True


# With workers, a unit of work holds documents up to this many bytes (or this many entries):
# big enough that sending it costs little next to extracting it, small enough to keep memory
# flat and the workers evenly fed. A file up to _WORKER_READS bytes is read by the worker
# itself (the main process then only writes); a larger one, or a stream, is read by the main
# process and its documents sent.
_UNIT_BYTES = 512 << 10
_UNIT_ENTRIES = 32
_WORKER_READS = 4 << 20


def _worker_reads(given: Input) -> int | None:
    """The size of a file small enough for a worker to read itself, else None."""
    if not isinstance(given.source, str | os.PathLike) or is_url(given.source):
        return None  # a stream, a URL: read here
    try:
        status = os.stat(given.source)
    except OSError:
        return 0  # the worker meets the error and reports it in its place
    if not stat.S_ISREG(status.st_mode):
        return None  # a stream (a FIFO, `<(zcat ...)`) is read here; one in a walk skipped here
    return status.st_size if status.st_size <= _WORKER_READS else None


def units(
    inputs: Iterable[Input], options: Options, workers: int, guard: bool
) -> Iterator[list[Event | Input]]:
    """The work in order, cut into units: entries read here, or small files to read there
    (not one that holds a revisit: its original is read again here, where the index is)."""
    read = guarded if guard else entries
    if workers <= 1:
        for given in inputs:
            for entry in read(given, options):
                yield [entry]  # one at a time: each document's links leave as soon as they exist
        return
    unit: list[Event | Input] = []
    size = 0
    for given in inputs:
        small = _worker_reads(given) if guard else None
        if isinstance(options.revisits, RevisitIndex) and options.revisits.holds(_label(given)):
            small = None
        if small is not None:
            unit.append(given)
            size += small
        else:
            for entry in read(given, options):
                unit.append(entry)
                if isinstance(entry, Part):
                    size += len(entry.body or b"")
                if size >= _UNIT_BYTES or len(unit) >= _UNIT_ENTRIES:
                    yield unit
                    unit, size = [], 0
        if size >= _UNIT_BYTES or len(unit) >= _UNIT_ENTRIES:
            yield unit
            unit, size = [], 0
    if unit:
        yield unit


def _label(given: Input) -> str:
    return label(given.source, given.name)


def _sources(given: Input) -> tuple[Source, str]:
    return given.source, _label(given)


def _died(how: str) -> list[Event]:
    # No input to name: the fault is the run's; the work is not lost.
    return [InputError(f"a worker process {how}; the work it held was run again in a new one")]


def _lost(unit: list[Event | Input], how: str) -> list[Event]:
    """In place of a unit of work that kills its worker process each time: each input and
    document it held, failed; what the main process had read, passed on."""
    hint = " (out of memory?)" if "SIGKILL" in how else ""
    message = f"not read: the worker process reading it {how}, twice{hint}"
    events: list[Event] = []
    for item in unit:
        if isinstance(item, Input):
            events.append(InputError(message, label(item.source, item.name)))
        elif isinstance(item, Part):
            events.append(Failed(item.name, message))
        else:
            events.append(item)
    return events


def _pieces(unit: list[Event | Input]) -> list[list[Event | Input]]:
    return [[item] for item in unit]


def _joined(results: list[list[Event]]) -> list[Event]:
    return [event for events in results for event in events]


# A worker that dies takes one input or document with it, at most: the one that killed it.
_RECOVERY = Recovery(_died, _lost, _pieces, _joined)


def results(
    inputs: Iterable[Input],
    task: Task[T],
    workers: int,
    tally: Summary,
    report: Callable[[InputError], None],
    unreadable: Callable[[str, Exception], None] | None = None,
    unused: Callable[[Unused], None] | None = None,
    warn: Callable[[InputWarning], None] | None = None,
    ended: Callable[[Ended], None] | None = None,
) -> Iterator[Done[T]]:
    """Each document's result, in input order; everything else counted into ``tally``.

    ``unreadable``: called when an input cannot be opened or read at all, and the batch goes
    on; without it, that error is raised. ``unused``: told when the retrieval URL given is
    not used for an input (:class:`Unused`). ``warn``: given each oddity repaired
    (:class:`~baselinks.InputWarning`, counted in ``tally.warnings``, not ``failed``); without
    it, ``report`` is. ``ended``: told of each input done, after its documents were handled.
    """
    inputs, index = with_revisits(inputs, task.options.revisits, _sources)
    here = replace(task.options, revisits=index or False)  # (read here: with the index)
    # the workers need no index (a file holding revisits is read here): none is sent them
    task = replace(task, options=replace(task.options, revisits=False))
    work = units(inputs, here, workers, guard=unreadable is not None)
    # one process: each unit's events as they come (a streamed document's pieces one by one)
    run = task if workers > 1 else cast(Callable[[list[Event | Input]], list[Event]], task.events)
    for events in ordered_map(run, work, workers, recovery=_RECOVERY):
        for event in events:
            if isinstance(event, Done):
                # A document read in part gives its links and its error; one that could not
                # be read at all, its error alone.
                tally.documents += 0 if event.more else 1
                tally.links += event.found
                tally.no_base += event.no_base
                if event.stats is not None and tally.stats is not None:
                    tally.stats.merge(event.stats)
                if event.found or task.every:
                    yield event
                if event.error is not None:
                    tally.failed += 1
                    report(InputError(event.error, event.name))
            elif isinstance(event, Failed):
                tally.documents += 1
                tally.failed += 1
                report(InputError(event.error, event.name))
            elif isinstance(event, Opened):
                tally.files += 1
            elif isinstance(event, Read):
                tally.read += event.size
            elif isinstance(event, InputWarning):
                tally.warnings += 1
                (report if warn is None else warn)(event)
            elif isinstance(event, InputError):
                tally.failed += 1
                report(event)
            elif isinstance(event, Skipped):
                tally.skipped[event.reason] += 1
                if event.reason == UNRESOLVED:
                    tally.revisit_unresolved(event.name)
            elif isinstance(event, Unused):
                if unused is not None:
                    unused(event)
            elif isinstance(event, Unreadable):
                tally.failed += 1
                if unreadable is None:
                    raise event.error
                unreadable(event.name, event.error)
            elif isinstance(event, Ended) and ended is not None:
                ended(event)
