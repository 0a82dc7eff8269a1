"""revisits: a WARC ``revisit`` record's page, made of its original's payload, found in the inputs.

A crawl written with deduplication stores a page fetched again with a payload seen before as a
``revisit`` record (WARC 1.1 §6.7): the new response's status and headers, no payload, and what
names the record that holds it. Its links are the original payload's, found on the revisit's
URL at the revisit's date: a crawl written with deduplication gives the graph the same crawl
written without it gives. Each such link carries ``revisit_of``, the original's record ID.

    index_revisits(inputs)   before the extraction, the inputs' records are read for the headers
                             that name them (load/containers/originals.py), blocks passed over:
                             1. the revisits, and what names each one's original;
                             2. only when there are any: for each, the first record in input
                                order it names, by ``WARC-Refers-To`` (the record ID), else
                                ``WARC-Refers-To-Target-URI`` and ``-Date``, else its
                                ``WARC-Payload-Digest`` (a response or resource record with
                                that payload: identical-payload-digest, URL-agnostic too)
    revisited(part, index)   during the extraction, a revisit's document: the original's page
                             read again at its offset (its body, charset, type), under the
                             revisit's name, URL, status, headers and Origin

Memory is one entry per revisit, not per record: the original may come after its revisit, in
another file, and is found all the same; with ``-j N`` the files that hold revisits are read by
the main process, which holds the index (the workers extract the pages it sends them). An input
that cannot be read twice (a stream, a FIFO) is not looked through, nor a remote one (fetched
once; a Spark job looks through all its files: spark/revisits.py): its revisits are unresolved. A
revisit whose original is not in the inputs is skipped, counted, and named in the summary
(``Summary.unresolved``), never dropped unsaid.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, TypeVar

from ..errors import InputError
from ..load.containers.entries import Part, Revisit, Skipped
from ..load.containers.sniff import Kind, sniff
from .inputs import is_url, local_path, open_input

if TYPE_CHECKING:
    # (load/containers/originals.py reads archives, with warcio: imported where an input is
    # one, so that a run of HTML pages loads no archive reader: tests/test_startup.py)
    from ..load.containers.originals import Keyed

__all__ = [
    "CANDIDATES_KEPT",
    "OFF",
    "UNRESOLVED",
    "UNRESOLVED_NAMED",
    "Original",
    "RevisitIndex",
    "index_revisits",
    "names",
    "original",
    "records_of",
    "revisit_of",
    "revisited",
    "unresolved_text",
    "wanted",
    "with_originals",
    "with_revisits",
    "without",
]

# The reason a revisit whose original is not found is skipped for (grouped as "revisit record").
UNRESOLVED = "revisit record (its original is not in the inputs)"
OFF = "revisit record"  # revisits=False: a revisit skipped, as before they were looked into
_DIGEST_PROFILE = "identical-payload-digest"


class Original(NamedTuple):
    """Where a revisit's original is: the input to open again (a path or URL), its offset
    there (in a WACZ, in its ``member``), its WARC-Record-ID (or ``file@offset``)."""

    source: str
    offset: int
    member: str | None
    record_id: str


@dataclass
class RevisitIndex:
    """Each revisit found, by the file its documents name and its offset, with its original
    (None: not in the inputs); ``files``: the files that hold revisits."""

    originals: dict[tuple[str, int], Original | None] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)

    def holds(self, file: str) -> bool:
        """Whether ``file`` (or a WACZ member of it) holds a revisit."""
        return any(one == file or one.startswith(file + "#") for one in self.files)

    def original(self, file: str | None, offset: int | None) -> Original | None:
        if file is None or offset is None:
            return None
        return self.originals.get((file, offset))


def _readable(source: Any, remote: bool = False) -> bool:
    """An input that can be read again: a regular file, bytes; with ``remote``, a URL but an
    http(s) one (a Spark job's files). A stream cannot, nor a FIFO, a device, /dev/stdin:
    opened to look, it would block or be consumed; a remote file is fetched once, as it is
    read, not twice (but where all of a job's files are looked through: spark/revisits.py)."""
    if isinstance(source, bytes | bytearray | memoryview):
        return True
    if not isinstance(source, str | os.PathLike):
        return False
    text = os.fspath(source)
    local = local_path(text) if is_url(text) else text
    if local is None:  # another scheme than file://: fsspec's
        return remote and not text.lower().startswith(("http://", "https://"))
    try:
        return stat.S_ISREG(os.stat(local).st_mode)
    except (OSError, ValueError):
        return False  # not found...: the extraction says so


def _open(source: Any) -> BinaryIO:
    if isinstance(source, bytes | bytearray | memoryview):
        return io.BytesIO(bytes(source))
    return open_input(os.fspath(source))


def records_of(source: Any, name: str, remote: bool = False) -> Iterator[Keyed]:
    """Every record of one input that can be read again (``name``: its label, what its
    documents' ``file`` says), by what names it; nothing of another input (``remote``: a
    remote file is read too)."""
    if not _readable(source, remote):
        return
    try:
        stream = _open(source)
    except (OSError, InputError):
        return  # the extraction says why
    try:
        head = stream.read(_PEEK)
        if sniff(head, name) not in _ARCHIVES:
            return  # an HTML page, a style sheet...: no record in it
        from ..load.containers.originals import record_keys

        stream.seek(0)
        yield from record_keys(stream, name)
    except Exception:  # damage is the extraction's to report: the index holds what was read
        return
    finally:
        stream.close()


# What of an input is read to tell an archive (a WARC, ARC, WACZ or gzip) from a document.
_PEEK = 4096
_ARCHIVES = frozenset({Kind.WARC, Kind.ARC, Kind.GZIP, Kind.WACZ})


def _records(inputs: Iterable[tuple[Any, str]]) -> Iterator[tuple[Any, str, Keyed]]:
    """Every record of the inputs that can be read again, with the input and its label."""
    for source, name in inputs:
        for keyed in records_of(source, name):
            yield source, name, keyed


def _uri(value: str | None) -> str | None:
    return None if value is None else value.strip().strip("<>") or None


def _digest(value: str | None) -> str | None:
    """A payload digest compared as written, but for the case of its algorithm's label."""
    if not value:
        return None
    algorithm, colon, encoded = value.strip().partition(":")
    return f"{algorithm.lower()}:{encoded}" if colon else value.strip()


def wanted(revisit: Revisit) -> list[tuple[int, tuple[str, ...]]]:
    """What a revisit's original is named by, best first: (rank, key)."""
    keys: list[tuple[int, tuple[str, ...]]] = []
    if revisit.refers_to:
        keys.append((0, ("id", revisit.refers_to.strip())))
    target, date = _uri(revisit.target), (revisit.date or "").strip()
    if target and date:
        keys.append((1, ("uri-date", target, date)))
    digest = _digest(revisit.digest)
    profile = (revisit.profile or "").lower()
    if digest and (not profile or _DIGEST_PROFILE in profile):
        keys.append((2, ("digest", digest)))
    return keys


def names(keyed: Keyed) -> list[tuple[str, ...]]:
    """What names a response or resource record (none for a record of another type)."""
    if keyed.rec_type not in ("response", "resource"):
        return []
    headers = keyed.headers
    keys: list[tuple[str, ...]] = []
    if headers.get("warc-record-id"):
        keys.append(("id", headers["warc-record-id"]))
    target, date = _uri(headers.get("warc-target-uri")), headers.get("warc-date", "")
    if target and date:
        keys.append(("uri-date", target, date))
    digest = _digest(headers.get("warc-payload-digest"))
    if digest:
        keys.append(("digest", digest))
    return keys


def revisit_of(keyed: Keyed) -> Revisit:
    headers = keyed.headers
    return Revisit(
        headers.get("warc-refers-to"),
        headers.get("warc-refers-to-target-uri"),
        headers.get("warc-refers-to-date"),
        headers.get("warc-payload-digest"),
        headers.get("warc-profile"),
    )


# The records' names kept from the first look (each name's first record): when the inputs hold
# more (some 40 MB of them), the originals are looked for in a second one instead.
CANDIDATES_KEPT = 1 << 17


def index_revisits(inputs: Iterable[tuple[Any, str]]) -> RevisitIndex:
    """The revisits of ``inputs`` (``(source, label)``: the label their documents' ``file``
    names) and each one's original: the first record in input order of the best rank that
    names it (see the module's docstring). One look through the inputs when their records'
    names fit in :data:`CANDIDATES_KEPT`, two when they do not."""
    inputs = [(source, name) for source, name in inputs if _readable(source)]
    index = RevisitIndex()
    wanting: dict[tuple[str, ...], list[tuple[int, tuple[str, int]]]] = {}
    seen: dict[tuple[str, ...], Original] | None = {}  # each name's first record
    for source, name, keyed in _records(inputs):
        if keyed.rec_type == "revisit":
            place = (keyed.file, keyed.offset)
            index.originals[place] = None
            index.files.add(keyed.file)
            for rank, key in wanted(revisit_of(keyed)):
                wanting.setdefault(key, []).append((rank, place))
        elif seen is not None:
            for key in names(keyed):
                if key not in seen:
                    seen[key] = original(source, name, keyed)
            if len(seen) > CANDIDATES_KEPT:
                seen = None  # too many to keep: a second look
    if not wanting:
        return index
    found = _named(((key, one) for key, one in seen.items()), wanting) if seen is not None else {}
    if seen is None:
        found = _named(
            ((key, original(source, name, keyed)) for source, name, keyed in _records(inputs)
             for key in names(keyed)),
            wanting,
        )  # fmt: skip
    index.originals.update(found)
    return index


def _named(
    names_of: Iterable[tuple[tuple[str, ...], Original]],
    wanting: dict[tuple[str, ...], list[tuple[int, tuple[str, int]]]],
) -> dict[tuple[str, int], Original]:
    """Each wanting revisit's original: of the records' names (in input order), the first of
    the best rank."""
    best: dict[tuple[str, int], int] = {}
    found: dict[tuple[str, int], Original] = {}
    for key, one in names_of:
        for rank, place in wanting.get(key, ()):
            if rank < best.get(place, 3):
                best[place] = rank
                found[place] = one
    return found


def original(source: Any, name: str, keyed: Keyed) -> Original:
    """Where the record ``keyed`` of the input ``source`` (labelled ``name``) is, to read it
    again (bytes: read from the input itself, ``source`` "")."""
    member = keyed.file[len(name) + 1 :] if keyed.file != name else None
    record_id = keyed.headers.get("warc-record-id") or f"{keyed.file}@{keyed.offset}"
    path = "" if isinstance(source, bytes | bytearray | memoryview) else os.fspath(source)
    return Original(path, keyed.offset, member, record_id)


def revisited(part: Part, index: RevisitIndex | None, source: Any = None) -> list[Any]:
    """A revisit's document: its original's page under the revisit's name, URL, status,
    headers and Origin (``revisit_of`` set); or why there is none (Skipped), or the error met
    reading the original again. ``source``: the input, when an original is in it and it is
    bytes (read again from memory)."""
    where = part.origin
    found = None if index is None or where is None else index.original(where.file, where.offset)
    if found is None:
        return [Skipped(part.name, UNRESOLVED)]
    try:
        stream = _open(source if not found.source and source is not None else found.source)
    except (OSError, InputError) as exc:
        message = exc.message if isinstance(exc, InputError) else exc.strerror or str(exc)
        return [InputError(f"its original cannot be read again: {message}", part.name)]
    try:
        from ..load.containers.originals import record_at

        file = found.source if found.member is None else f"{found.source}#{found.member}"
        entries = record_at(stream, found.source or "-", found.offset, found.member)
    finally:
        stream.close()
    made: list[Any] = []
    for entry in entries:
        if isinstance(entry, Part):
            origin = where._replace(revisit_of=found.record_id) if where is not None else None
            made.append(
                replace(
                    entry,
                    name=part.name,
                    retrieval=part.retrieval,
                    status=part.status if part.status is not None else entry.status,
                    headers=part.headers or entry.headers,
                    origin=origin,
                    revisit=None,
                )
            )
        elif isinstance(entry, Skipped):
            made.append(Skipped(part.name, f"revisit record ({entry.reason})"))
        else:
            made.append(
                type(entry)(
                    f"its original ({file}, offset {found.offset}) read again: {entry.message}",
                    part.name,
                    where.offset if where is not None else None,
                )
            )
    return made


E = TypeVar("E")


def with_originals(
    found: Iterator[E], index: RevisitIndex | None, source: Any, looked: bool = True
) -> Iterator[E | Any]:
    """An input's entries, each revisit record's document its original's page (or skipped).
    ``looked`` False: revisits are not looked into (``revisits=False``), each skipped as a
    ``revisit record``, not as one whose original is missing."""
    for entry in found:
        if isinstance(entry, Part) and entry.revisit is not None:
            if looked:
                yield from revisited(entry, index, source)
            else:
                yield Skipped(entry.name, OFF)
        else:
            yield entry


In = TypeVar("In")


def with_revisits(
    inputs: Iterable[In],
    revisits: bool | RevisitIndex,
    sources: Callable[[In], tuple[Any, str]],
) -> tuple[Iterable[In], RevisitIndex | None]:
    """The inputs (a list, when they are to be read twice) and their revisits' index:
    ``revisits`` itself when given one, found in them when True (``sources``: an input's
    source and label), None when False."""
    if isinstance(revisits, RevisitIndex):
        return inputs, revisits
    if not revisits:
        return inputs, None
    listed = list(inputs)  # read twice: for the revisits' originals, then extracted
    return listed, index_revisits(sources(given) for given in listed)


# The revisits without their original named in the summary line; the others counted.
UNRESOLVED_NAMED = 3


def unresolved_text(count: int, names: list[str]) -> str:
    """``1 revisit without its original in the inputs (crawl.warc.gz#http://e.com/)``."""
    shown = ", ".join(names)
    if count > len(names):
        shown += f" and {count - len(names):,} more"
    return f"{count:,} {without(count)} in the inputs ({shown})"


def without(count: int) -> str:
    """``revisit without its original``, ``revisits without their originals``."""
    return "revisit without its original" if count == 1 else "revisits without their originals"
