"""build: WARC, ARC and WACZ inputs → WAT records, one per input record, gzipped one by one.

    an input ──sniff──► WARC/ARC (gz or not) ─► load/containers/warcframes.py: each record as
                        WACZ                      stored (its WARC members, each in place)
    a record ──► envelope.py: Container, Envelope (its headers, what its block was read as)
             ──► warcrecord.py: its page, as extract reads it ──► pipeline.part_links: links
             ──► html.py: HTML-Metadata (an HTML page's head, its links in the extractor's places)
             ──► record.py: a WARC metadata record of that JSON, a gzip member

One input's records are made in one process: :func:`wat_members` yields its gzip members and
its errors in order. :func:`write_wat` writes many inputs to one WAT (a ``warcinfo`` record
first), in input order, with ``workers`` processes (each input made whole in one, into a
temporary file beside the output, then copied in order).

Damage is an error line naming the file and the offset, and the records before and after it
are written (warcframes.py finds the next record); a record cut short is written as far as it
goes, and said. ``additions`` (``baselinks wat --additions``) adds what baselinks knows beyond
the extractor's keys, under ``Baselinks`` keys (keys.ADDITIONS).
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO, cast

from ..errors import InputError, describe, internal
from ..load.containers.doctypes import DocType
from ..load.containers.entries import Origin, Part
from ..load.containers.originals import archive_kind
from ..load.containers.sniff import HEAD_BYTES, sniff
from ..load.containers.wacz import iter_wacz
from ..load.containers.warcframes import FramedRecord, frames
from ..load.containers.warcrecord import record_entries, record_name
from ..load.document import Document
from ..pipeline import part_links
from ..resolve.link import Link
from ..run.inputs import display_name, open_input
from ..run.revisits import UNRESOLVED, RevisitIndex, index_revisits, revisited, without
from ..run.workers import Recovery, ordered_map
from ..url.resolve import MODES
from .envelope import JSON, container, envelope
from .html import addition, html_metadata, link_path
from .keys import ADDITIONS_KEY
from .record import WatDate, metadata_record, warcinfo_record

__all__ = ["WatOptions", "WatSummary", "wat_members", "wat_name", "write_wat"]


@dataclass(frozen=True)
class WatOptions:
    """How a WAT is made: the resolution mode and parser for the links (as ``extract``'s), the
    additions, the date its records carry (:class:`~.record.WatDate`); ``revisits``: the
    revisit records' originals in the inputs (run/revisits.py; :func:`write_wat` finds them)."""

    mode: str = MODES[0]  # rfc1808
    parser: str = "lxml"
    additions: bool = False
    date: WatDate = field(default_factory=WatDate)
    revisits: RevisitIndex | None = None


@dataclass
class WatSummary:
    """What a WAT holds: input files and records read, the documents among them, their links
    written in the extractor's places, those it has no place for (written with
    ``additions``), and what failed."""

    files: int = 0
    records: int = 0
    documents: int = 0
    links: int = 0
    others: int = 0
    failed: int = 0
    unresolved: int = 0  # revisits whose original is not in the inputs

    def add(self, other: WatSummary) -> None:
        for name in ("files", "records", "documents", "links", "others", "failed", "unresolved"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def line(self, additions: bool) -> str:
        from ..run.batch import counted

        more = f"{self.others:,} more {'in' if additions else 'with'} --additions"
        text = (
            f"{counted(self.files, 'file')}, {counted(self.records, 'record')}, "
            f"{counted(self.documents, 'document')}, {counted(self.links, 'link')} ({more})"
        )
        if self.unresolved:
            text += f"; {self.unresolved:,} {without(self.unresolved)} in the inputs"
        return text + f"; {self.failed:,} failed"


def wat_name(name: str) -> str:
    """The WAT of a WARC, named as Common Crawl names it: ``X.warc.gz`` → ``X.warc.wat.gz``
    (an ARC: ``X.arc.wat.gz``; anything else: ``X.wat.gz``), without the folder."""
    base = os.path.basename(name.rstrip("/")) or "baselinks"
    for suffix, wat in ((".warc.gz", ".warc.wat.gz"), (".warc", ".warc.wat.gz")):
        if base.endswith(suffix):
            return base[: -len(suffix)] + wat
    for suffix, wat in ((".arc.gz", ".arc.wat.gz"), (".arc", ".arc.wat.gz")):
        if base.endswith(suffix):
            return base[: -len(suffix)] + wat
    return base + ".wat.gz"


Item = bytes | InputError


WatSource = str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO


def wat_members(
    source: WatSource, name: str, options: WatOptions, summary: WatSummary
) -> Iterator[Item]:
    """The WAT records of one input (its gzip members, in order) and its errors; counted into
    ``summary``."""
    summary.files += 1
    try:
        if isinstance(source, bytes | bytearray | memoryview):
            stream: BinaryIO = io.BytesIO(bytes(source))
        elif isinstance(source, str | os.PathLike):
            stream = open_input(os.fspath(source))
        else:
            stream = source
    except InputError as exc:
        yield exc.located(name)
        return
    except OSError as exc:
        yield InputError(describe(exc), name)
        return
    try:
        head = _peek(stream)
        kind = archive_kind(head, name)
        if kind == "wacz":
            found: Iterator[Any] = iter_wacz(stream, name, _members(options, summary))
            yield from cast(Iterator[Item], found)
        elif kind == "warc":
            yield from _records(stream, name, options, summary, source)
        else:
            yield InputError(f"not a WARC, ARC or WACZ file ({sniff(head, name).value})", name)
    finally:
        if stream is not source:
            stream.close()


def _peek(stream: BinaryIO) -> bytes:
    if stream.seekable():
        position = stream.tell()
        head = stream.read(HEAD_BYTES)
        stream.seek(position)
        return head
    peek = getattr(stream, "peek", None)
    return peek(HEAD_BYTES)[:HEAD_BYTES] if peek is not None else b""


def _members(options: WatOptions, summary: WatSummary) -> Callable[[BinaryIO, str], Iterator[Any]]:
    def members(stream: BinaryIO, name: str) -> Iterator[Any]:
        return _records(stream, name, options, summary)

    return members


def _records(
    stream: BinaryIO, file: str, options: WatOptions, summary: WatSummary, source: Any = None
) -> Iterator[Item]:
    # the file's name without its folder (a WACZ member: the WACZ's, # and the member's path)
    wacz, hash_, member = file.partition("#")
    filename = os.path.basename(wacz) + hash_ + member
    for index, item in enumerate(frames(stream, file)):
        if isinstance(item, InputError):
            summary.failed += 1
            yield item
            continue
        summary.records += 1
        try:
            payload, errors, target, refers_to, date = _record_json(
                item, file, filename, options, summary, source
            )
        except InputError as exc:  # a record that cannot be read: said, the next one read
            item.finish()
            summary.failed += 1
            yield exc.located(file, item.offset)
            continue
        except Exception as exc:
            item.finish()
            summary.failed += 1
            yield InputError(internal(exc), record_name(item, file, item.offset or 0))
            continue
        identity = (filename, str(item.offset), str(index), refers_to or "")
        yield metadata_record(payload, target, refers_to, date, identity)
        for error in errors:
            summary.failed += 1
            yield error


def _record_json(
    record: FramedRecord,
    file: str,
    filename: str,
    options: WatOptions,
    summary: WatSummary,
    source: Any = None,
) -> tuple[JSON, list[InputError], str | None, str | None, WatDate]:
    """One record's WAT JSON, the errors met reading it, and its metadata record's
    WARC-Target-URI, WARC-Refers-To and WARC-Date."""
    offset = record.offset if record.offset is not None else 0
    name = record_name(record, file, offset)
    entries = list(record_entries(record, name, offset))
    record.finish()
    errors = [entry for entry in entries if isinstance(entry, InputError)]
    payload: JSON = {
        "Container": container(record, filename, record.compressed),
        "Envelope": envelope(record),
    }
    found = Found()
    for part in (entry for entry in entries if isinstance(entry, Part)):
        if part.revisit is not None:  # its links are its original's: additions alone
            errors.extend(_revisit(part, record, file, options, summary, found, source))
            continue
        summary.documents += 1
        errors.extend(_document(part, record, file, options, found))
    payload_metadata = payload["Envelope"]["Payload-Metadata"]
    http = payload_metadata.get("HTTP-Response-Metadata")
    others = found.others
    if found.html is not None and http is not None:
        http["HTML-Metadata"] = found.html
    elif found.html is not None:  # a resource record: the extractor reads no HTML in it
        others = found.placed + others
    summary.links += len(found.placed) if http is not None else 0
    summary.others += len(others)
    if options.additions and (found.base or others or found.revisit):
        extra: JSON = {}
        if found.base is not None:
            extra["Base"], extra["Base-Source"] = found.base
        if found.revisit:
            extra[found.revisit[0]] = found.revisit[1]
        if others:
            extra["Links"] = [
                {"path": link_path(link), "raw": link.raw, **addition(link)} for link in others
            ]
        payload_metadata[ADDITIONS_KEY] = extra
    target, refers_to, date = _refers(record, filename, options)
    return payload, errors, target, refers_to, date


@dataclass
class Found:
    """What a record's documents gave: the HTML page's HTML-Metadata, its links placed there
    and those with no place, its base."""

    html: JSON | None = None
    placed: list[Link] = field(default_factory=list)
    others: list[Link] = field(default_factory=list)
    base: tuple[str, str] | None = None
    revisit: tuple[str, str] | None = None  # ("Revisit-Of", ID) or ("Revisit-Unresolved", why)


def _revisit(
    part: Part,
    record: FramedRecord,
    file: str,
    options: WatOptions,
    summary: WatSummary,
    found: Found,
    source: Any,
) -> list[InputError]:
    """A revisit record's page: its original's, found in the inputs (run/revisits.py), its
    links with no place in the extractor's keys (it writes no HTML-Metadata for a revisit):
    the additions' alone, with ``Revisit-Of``; or why there are none."""
    where = Origin(file, record.offset, record.stored_length)
    made = revisited(replace(part, origin=where), options.revisits, source)
    errors: list[InputError] = []
    for entry in made:
        if isinstance(entry, Part):
            summary.documents += 1
            inner = Found()
            errors.extend(_document(entry, record, file, options, inner, revisit_of=True))
            found.others += inner.placed + inner.others
            found.base = inner.base
            found.revisit = ("Revisit-Of", entry.origin.revisit_of or "") if entry.origin else None
        elif isinstance(entry, InputError):
            errors.append(entry)
        elif entry.reason == UNRESOLVED:
            summary.unresolved += 1
            found.revisit = ("Revisit-Unresolved", "its original is not in the inputs")
        else:
            found.revisit = ("Revisit-Unresolved", entry.reason)
    return errors


def _document(
    part: Part,
    record: FramedRecord,
    file: str,
    options: WatOptions,
    found: Found,
    revisit_of: bool = False,
) -> list[InputError]:
    """A record's document through the pipeline, as extract reads it; its HTML page's head
    and links made into HTML-Metadata. (``revisit_of``: the part is a revisit's, its Origin
    made by run/revisits.py.)"""
    if not revisit_of:
        origin = Origin(
            file,
            record.offset,
            record.stored_length,
            record.rec_headers.get_header("WARC-Record-ID"),
            record.rec_headers.get_header("WARC-Date"),
        )
        part = replace(part, origin=origin)
    seen: list[Document] = []
    found_links, said, _ = part_links(
        part, options.mode, None, parser=options.parser, seen=seen.append
    )
    if isinstance(found_links, list):
        links, unread = found_links, cast(str, said)
    else:  # a document read as it comes (a sitemap, a feed): one WAT record holds all its links
        links = [link for piece in found_links for link in piece]
        unread = cast(Callable[[], str], said)()  # known once the pieces are read
    errors = [InputError(unread, part.name)] if unread else []
    if links and found.base is None:
        found.base = (links[-1].base, links[-1].base_source)
    if part.doctype is DocType.HTML and seen and found.html is None:
        own = [link for link in links if link.document == part.name and link.tag != "http"]
        headers = [link for link in links if link.tag == "http"]
        html, placed, others = html_metadata(seen[0].tree, own, options.additions)
        nested = [link for link in links if link.document != part.name]
        found.html = html
        found.placed = placed
        found.others += headers + others + nested
        if own:
            found.base = (own[0].base, own[0].base_source)
    else:
        found.others += links
    return errors


def _refers(
    record: FramedRecord, filename: str, options: WatOptions
) -> tuple[str | None, str | None, WatDate]:
    """The WAT record's WARC-Target-URI, WARC-Refers-To and WARC-Date, as the extractor's
    ``writeWARC`` and ``writeARC`` choose them."""
    headers = record.rec_headers
    if record.arc is not None:
        url, _, date, _, _ = record.arc
        import datetime

        try:
            moment = datetime.datetime.strptime(date, "%Y%m%d%H%M%S").replace(tzinfo=datetime.UTC)
            when = WatDate(moment)
        except ValueError:
            when = options.date
        return url, f"<urn:arc:{filename}:{record.offset}>", when
    if record.rec_type == "warcinfo":
        target = headers.get_header("WARC-Filename")
    else:
        target = headers.get_header("WARC-Target-URI")
    if target is not None:
        target = target.strip().strip("<>")
    return target, headers.get_header("WARC-Record-ID"), options.date


def write_wat(
    inputs: Iterable[tuple[WatSource, str]],
    out: BinaryIO,
    *,
    filename: str,
    options: WatOptions,
    workers: int = 1,
    on_error: Callable[[InputError], None],
) -> WatSummary:
    """Write one WAT of all ``inputs`` (``(source, name)``) to ``out``: its warcinfo record
    (``filename``: the WAT's own name), then every input's records in order. Each error goes
    to ``on_error``; the others are written all the same."""
    summary = WatSummary()
    out.write(warcinfo_record(display_name(filename), options.date))
    inputs = list(inputs)  # read twice: for the revisits' originals, then written
    if options.revisits is None:
        options = replace(options, revisits=index_revisits(inputs))
    if workers <= 1:
        for source, name in inputs:
            for item in wat_members(source, name, options, summary):
                if isinstance(item, bytes):
                    out.write(item)
                else:
                    on_error(item)
        return summary
    folder = tempfile.mkdtemp(prefix=".wat-")
    try:
        task = _FileTask(options, folder)
        given = ((index, source, name) for index, (source, name) in enumerate(inputs))
        recovery = Recovery(_died, _lost, lambda item: [item], _joined)
        for done in ordered_map(task, given, workers, recovery=recovery):
            summary.add(done.summary)
            for error in done.errors:
                on_error(error)
            if done.path is not None:
                with open(done.path, "rb") as part:
                    shutil.copyfileobj(part, out, 1 << 20)
                os.unlink(done.path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return summary


@dataclass(frozen=True)
class _Done:
    path: str | None
    summary: WatSummary
    errors: list[InputError]


@dataclass(frozen=True)
class _FileTask:
    """One input's WAT records, made in a worker into a file of ``folder``."""

    options: WatOptions
    folder: str

    def __call__(self, item: tuple[int, Any, str]) -> _Done:
        index, source, name = item
        summary = WatSummary()
        errors: list[InputError] = []
        path = str(Path(self.folder, f"{index:09d}.wat.gz"))
        with open(path, "wb") as out:
            for found in wat_members(source, name, self.options, summary):
                if isinstance(found, bytes):
                    out.write(found)
                else:
                    errors.append(found)
        return _Done(path, summary, errors)


def _died(how: str) -> _Done:
    message = f"a worker process {how}; the work it held was run again in a new one"
    return _Done(None, WatSummary(), [InputError(message)])


def _lost(item: tuple[int, Any, str], how: str) -> _Done:
    message = f"not read: the worker process reading it {how}, twice"
    return _Done(None, WatSummary(files=1, failed=1), [InputError(message, item[2])])


def _joined(results: list[_Done]) -> _Done:
    return results[0]
