"""WARC (ISO 28500) and ARC files → their HTML pages, streamed one record at a time.

The reading of records is warcio's, chosen by measuring both maintained libraries on the 52
files of the shared corpus:

- FastWARC reads records about 3.6 times as fast (0.021 s against 0.075 s for the four largest
  files, 8.4 MB of payload). But records are under 3% of extraction time, so behaviour decides.
- FastWARC reads no ARC file (9 files fail on the first record), and stops at a record whose
  Content-Length is wrong where warcio reads on (pywb's example.warc: 5 records of 6).
- warcio refuses a gzip that is one member for all records (3 files), and its brotli decoder
  fails with brotli 1.2. Both are handled here: the first is read through a gzip stream, and
  bodies are decoded by :mod:`.httpmsg`, not by warcio (``no_record_parse``).

What warcio leaves unsaid, this module says (warcio and FastWARC both stop silently):

- a record whose block is shorter than its ``Content-Length`` (a file cut short) is extracted as
  far as it goes, then reported with its offset;
- a record not followed by the empty lines that end it (a wrong ``Content-Length``) is reported;
- after damage warcio cannot read past (junk, a broken gzip member, a record split over
  members), the next record is found (:mod:`.resync`), the span skipped reported, and warcio
  started again there: one damaged record never costs the records after it;
- a record whose gzip member ends inside it, its rest in the members after it, is read across
  them; a .warc.gz cut inside its last member's trailer is reported;
- a gzip file that is one member for all records (not per record) is read through a gzip
  stream instead of failing, when the input can seek back.

What one record holds (its page, or why none, and what it lacks) is :mod:`.warcrecord`'s;
this module reads the records and what lies between them.

Each document's :class:`~.entries.Origin` says where its record is stored: the offset and length
warcio's own index gives (``warcio index``, a CDX line), so that ``warcio extract FILE OFFSET``
finds it, its ``WARC-Record-ID`` and ``WARC-Date``.

The retrieval URL (RFC 1808 §3.3) of a record is its ``WARC-Target-URI``. The HTTP
``Content-Location`` header is not a base: RFC 2616 §14.14 made it one, RFC 7231 §3.1.4.2 (and
RFC 9110 §8.7) removed that, and browsers never applied it.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from typing import Any, BinaryIO, NamedTuple, cast

from warcio.exceptions import ArchiveLoadFailed

from ... import compiled
from ...errors import InputError, InputWarning
from .entries import Entry, Part
from .resync import Damage, Window, archive_inside, report_and_find
from .sniff import HEAD_BYTES
from .warcfast import fast_records
from .warcreader import READ_ERRORS, Records
from .warcrecord import (
    MAX_RECORD_BYTES,
    WrongLengths,
    is_cut,
    is_unframed,
    oversize,
    record_entries,
    record_name,
)
from .warcrecord import origin as record_origin

__all__ = ["FAST", "MAX_RECORD_BYTES", "RecordReader", "iter_records"]

# What one record is read for: warcio's record, its name and offset -> what it gives, in order
# (warcrecord.record_entries: its document, or why none; captures.record_captures: the capture).
RecordReader = Callable[[Any, str, int], Iterable[Any]]

# Whether an intact .warc.gz is read by warcfast.py (off with BASELINKS_PURE=1, as the compiled
# modules are: the whole suite then reads every WARC the careful way; the tests compare both).
FAST = True


def _located(
    entries: list[Entry], record: Any, file: str, offset: int, form: _Form, length: int | None
) -> list[Entry]:
    """The record's entries, its documents given its :class:`Origin` (an offset only where
    the stream is the file as stored)."""
    origin = record_origin(record, file, offset if form.stored else None, length)
    return [replace(one, origin=origin) if isinstance(one, Part) else one for one in entries]


def _with_origin(
    entries: list[Entry],
    record: Any,
    records: Records,
    file: str,
    offset: int,
    form: _Form,
    measured: bool = True,
) -> tuple[list[Entry], BaseException | None]:
    """The record's entries, its documents given their :class:`Origin`; and the error met
    reading to its end, to be raised after them (where warcio would have met it).

    The length is warcio's (``get_record_length``, as ``warcio index`` writes it: a gzip
    member's compressed length, or the record without the empty lines after it). warcio reads
    to the record's end for it, which it does anyway before the next record; a record that is
    damaged or cut short is left without one (what it holds is not all there), and so is an
    oversize one (``measured`` False: its block is never read).
    """
    length: int | None = None
    late: BaseException | None = None
    if measured and form.stored and not records.damage_met and not any(map(is_cut, entries)):
        try:
            length = records.get_record_length()
        except READ_ERRORS as exc:
            late = exc
        if records.damage_met:
            length = None
    return _located(entries, record, file, offset, form, length), late


def _segment(
    window: Window, file: str, form: _Form, skip: int
) -> Generator[Entry, None, Damage | None]:
    """The entries of the records from where ``window`` is, after the first ``skip``, up to
    the end of the file (None) or to the first damage warcio cannot read past."""
    records = Records(window, form.warc, form.gzipped)
    wrong_lengths = WrongLengths(records, form.warc)
    count = 0
    offset = window.tell()
    damaged = False  # the last record's own entries reported damage
    # A .warc.gz record cut short where its gzip member ends is held back until the next
    # member says whether it starts a record (the cut stands) or not (the record goes on in
    # it: warcio's example-wrong-chunks.warc.gz, read across its members below).
    held: list[Entry] = []
    held_type = ""  # the held record's WARC-Type
    try:
        for record in records:
            yield from wrong_lengths.errors()
            yield from _followed(held, held_type)
            held = []
            offset = records.offset
            count += 1
            name = record_name(record, file, offset)
            head_end = window.tell() - records.reader.rem_length()  # (uncompressed: in the file)
            entries = list(form.read(record, name, offset)) if count > skip else []
            damage_met = records.damage_met  # before _with_origin reads to the record's end
            big = oversize(record)  # (warcrecord.py's oversize rule: its block is not read)
            late = None
            if any(isinstance(entry, Part) for entry in entries):
                entries, late = _with_origin(entries, record, records, file, offset, form, not big)
            damaged = any(isinstance(entry, InputError) for entry in entries)
            if big and form.nested_stream:  # the reading ends here: said with the record
                entries = [_not_passed(entry) for entry in entries]
            if form.gzipped and not damage_met and any(map(is_cut, entries)):
                held, held_type = entries, record.rec_type or ""
            else:
                yield from entries
            if damage_met:
                return Damage(offset, offset + 1, damage_met, name)
            if big and form.gzipped:
                # read on at the next gzip member that starts a record, found in the
                # compressed bytes: the record's own is never inflated past its head
                return Damage(offset, offset + 1, "", name)
            if big and form.nested_stream:
                return None
            if not form.gzipped and any(map(is_unframed, entries)):
                # Said already. warcio took the rest of the file for its block (a member ends
                # it in a .warc.gz): the records in it are looked for, after its header, where
                # no record can start that has a length (its header would end where this one
                # does, with its lines). From the next byte, 2,650 such headers in a row were
                # each read to that end (quadratic: minutes for 74 KB).
                return Damage(offset, max(head_end, offset + 1), "", name)
            wrong_lengths.previous = (name, offset)
            if late is not None:
                raise late  # as warcio would have, reading to the record's end
    except ArchiveLoadFailed as exc:
        if "non-chunked gzip" in str(exc):
            raise _NotPerRecordGzip(count) from None
        return (yield from _no_record_here(window, file, form, offset, held, wrong_lengths))
    except READ_ERRORS as exc:
        yield from held
        message = " ".join(str(exc).split()) or type(exc).__name__
        return Damage(
            records.offset, records.offset + 1, f"cannot read the record: {message}", file
        )
    yield from held
    yield from wrong_lengths.errors()
    return (yield from _at_the_end(records, window, file, offset, damaged))


# The records that hold documents (warcrecord.record_entries): the others hold no links.
_DOCUMENT_RECORDS = ("response", "resource")


def _followed(held: list[Entry], rec_type: str) -> list[Entry]:
    """The entries of a record cut where its gzip member ends, now that the next member
    starts a record: the cut stands. A record that holds no links (a request, a metadata
    record) lost nothing that is read, and the next record is read whole: its cut is a
    warning (a damaged request record, issue 30). A response's cut lost its page's end."""
    if rec_type in _DOCUMENT_RECORDS:
        return held
    kind = rec_type or "untyped"
    return [
        InputWarning(
            f"{entry.message.replace(' (file truncated?)', '')}: a {kind} record, which holds "
            "no links; the next record is read",
            entry.name,
            entry.offset,
        )
        if isinstance(entry, InputError) and is_cut(entry)
        else entry
        for entry in held
    ]


def _no_record_here(
    window: Window,
    file: str,
    form: _Form,
    offset: int,
    held: list[Entry],
    wrong_lengths: WrongLengths,
) -> Generator[Entry, None, Damage]:
    """Where warcio found no record after the one at ``offset``: that record read across the
    gzip members after it (when it was ``held``, cut where its member ended), damage met,
    or a record that was not followed by its empty lines; the damage to read on after."""
    records = wrong_lengths.records
    whole = _across_members(window, file, form, offset) if held else None
    yield from held if whole is None else whole
    if whole is not None:  # read on after it, from the next member that starts a record
        return Damage(offset, offset + 1, "", file)
    if records.damage_met:
        return Damage(records.offset, records.offset + 1, records.damage_met, file)
    reported = wrong_lengths.pending()
    yield from wrong_lengths.errors()
    # A record read whole but not followed by its empty lines: warcio took the next
    # record's first line for one of them. The next record may begin inside the block.
    scan_from = records.offset + 1
    if reported and wrong_lengths.previous is not None:
        scan_from = wrong_lengths.previous[1] + 1
        if records.member_info is not None and not form.gzipped:
            # the end of its block. (Not of a gzip member: damage inside one can read as
            # deflate data on through the members after it, which ended where zlib failed,
            # 58 KB on: five intact records lost, in no span said skipped.)
            scan_from = sum(records.member_info)
    return Damage(records.offset, scan_from, "no WARC or ARC record starts here", file)


def _at_the_end(
    records: Records, window: Window, file: str, offset: int, damaged: bool
) -> Generator[Entry, None, Damage | None]:
    """When warcio found no more records: damage it met, a cut last member, bytes left."""
    if records.damage_met:
        return Damage(records.offset, records.offset + 1, records.damage_met, file)
    end = offset
    if records.member_info is not None:
        end = records.get_record_offset() + records.get_record_length()
    if records.member_cut and not damaged:
        yield InputError(
            "the last gzip member is cut short (file truncated?): the records in it were read",
            file,
            offset,
        )
    while window.read(65536):
        pass
    left = window.position - end
    if 0 < left <= len(window.tail(left)) and not window.tail(left).strip():
        return None  # the empty lines that end an uncompressed record
    if left > 0:
        return Damage(end, end, "bytes after the last complete record are no record", file)
    return None


def _across_members(window: Window, file: str, form: _Form, offset: int) -> list[Entry] | None:
    """The record at ``offset`` read through the gzip members that follow it as one stream,
    with an error saying so; None when it is not whole that way either."""
    if not window.rewind(offset):
        return None
    stream = cast(BinaryIO, gzip.GzipFile(fileobj=cast(BinaryIO, window)))
    try:
        record = next(iter(Records(Window(stream), form.warc, gzipped=False)))
        name = record_name(record, file, offset)
        entries = list(record_entries(record, name, offset))
    except (*READ_ERRORS, StopIteration):
        return None
    if any(map(is_cut, entries)):
        return None
    # its offset, the first member's; no length: the record is in no one member
    entries = _located(entries, record, file, offset, form, None)
    # repaired, nothing lost: a warning (a reader that takes a member for a record would
    # lose it; warcio's example-wrong-chunks.warc.gz)
    split = InputWarning(
        "record split over gzip members (one per record expected): read across them", name, offset
    )
    return [*entries, split]


class _Form(NamedTuple):
    warc: bool  # WARC records (else ARC, or not known)
    gzipped: bool  # one gzip member per record
    stored: bool = True  # the offsets are of the file as stored (not of bytes decompressed)
    # one gzip stream for many records, itself inside another gzip layer: what warcio passes
    # over is inflated, at up to a million bytes a byte of the file
    nested_stream: bool = False
    read: RecordReader = record_entries  # what a record gives (captures.py: what it captured)


def _not_passed(entry: Entry) -> Entry:
    """An oversize record's entry where its block cannot be passed over unread (the oversize
    rule, warcrecord.py): the records after it are not read, said with it."""
    if not isinstance(entry, InputError) or isinstance(entry, InputWarning):
        return entry
    message = (
        f"{entry.message}; it is in a gzip stream of many records inside another gzip layer, "
        "and the records after it are not read (passing over it would inflate it)"
    )
    return InputError(message, entry.name, entry.offset)


def _iterate(window: Window, file: str, form: _Form, skip: int = 0) -> Iterator[Entry]:
    """The entries of the records after the first ``skip``, and the damage met: after damage,
    the next record is found (:mod:`.resync`) and read on from."""
    while True:
        begun = window.tell()
        damage = yield from _segment(window, file, form, skip)
        if damage is None:
            return
        # warcio's offsets can fall before the place it was started at on garbage (a record
        # found there would be the one that failed: from the byte after it)
        damage = damage._replace(
            offset=max(damage.offset, begun), scan_from=max(damage.scan_from, begun + 1)
        )
        error, found = report_and_find(window, damage, form.gzipped, form.warc)
        if found is not None and found <= begun:
            # no progress: the record found is the one that failed (fuzzed: a one-member gzip
            # whose offsets warcio counts wrong). Reported, and the reading ends.
            what = damage.what or "damaged record"
            yield InputError(f"{what}: the rest is not read", damage.name, begun)
            return
        wrong_length_only = found is not None and found <= damage.offset
        if damage.what and not (wrong_length_only and damage.what.startswith("no WARC")):
            yield error  # (else: reported already, the record after it is read)
        if found is None:
            return
        window.rewind(found)
        skip = 0


class _NotPerRecordGzip(Exception):
    def __init__(self, records_read: int) -> None:
        super().__init__(records_read)
        self.records_read = records_read


def iter_records(
    stream: BinaryIO, file: str, stored: bool = True, read: RecordReader = record_entries
) -> Iterator[Entry]:
    """Every HTML page of the WARC or ARC ``stream`` (and what was skipped or damaged).

    ``stored``: the stream is the file as stored, so that its offsets find the records in it
    (False: it was decompressed from another gzip layer, and the documents have no offsets).
    ``read``: what each record gives, warcrecord.record_entries (its document) unless another
    reader is given (captures.record_captures: what the record captured, for a coverage scan),
    with the same damage found and read past.
    """
    window = Window(stream)
    start = window.tell()
    head = window.read(HEAD_BYTES)
    window.rewind(start)
    gzipped = head.startswith(b"\x1f\x8b") or archive_inside(head) == "gzip"
    if gzipped:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            head = b""
    # WARC records only (an ARC file starts with its filedesc:// record)
    warc = head.lstrip().startswith(b"WARC/") or (
        b"WARC/" in head and not head.lstrip().startswith(b"filedesc://")
    )
    skip = 0
    fast = FAST and read is record_entries and not compiled.disabled()  # documents only
    if gzipped and warc and stored and window.seekable and fast:
        # an intact .warc.gz, read without warcio (warcfast.py); from the first record it
        # does not vouch for, the whole file again by the careful path below
        stream.seek(start)
        given = yield from fast_records(stream, file)
        if given is None:
            return
        stream.seek(start)
        window, skip = Window(stream), given
    try:
        yield from _iterate(window, file, _Form(warc, gzipped, stored, read), skip)
    except _NotPerRecordGzip as exc:
        if not window.rewind(start):
            yield InputError(
                "gzip file is one member for many records: save it to a file to read it", file
            )
            return
        # Offsets from here on count uncompressed bytes: no record has one in the file.
        gunzipped = cast(BinaryIO, gzip.GzipFile(fileobj=cast(BinaryIO, window)))
        try:
            form = _Form(warc, False, stored=False, nested_stream=not stored, read=read)
            yield from _iterate(Window(gunzipped), file, form, exc.records_read)
        except (EOFError, OSError, zlib.error) as damage:  # the gzip stream breaks off
            message = " ".join(str(damage).split()) or type(damage).__name__
            yield InputError(f"damaged or cut gzip data: {message}", file)
