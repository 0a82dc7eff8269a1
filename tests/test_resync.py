"""WARC/ARC damage: the damaged span reported, then every intact record after it read.

Each case damages a copy of a fixture (``crawl.warc.gz``: one gzip member per record;
``crawl.warc``: the same records uncompressed) at a known place and checks that the records
after the damage give exactly the links they give in the intact file.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from typing import BinaryIO

import pytest

from baselinks import InputError, InputWarning, extract_links
from baselinks.api import Summary
from baselinks.load.containers.resync import Window, next_record
from conftest import FIXTURES

HERE = FIXTURES / "containers"
GZ = (HERE / "crawl.warc.gz").read_bytes()
PLAIN = (HERE / "crawl.warc").read_bytes()
WRONG_CHUNKS = (HERE / "example-wrong-chunks.warc.gz.bad").read_bytes()


def _members(data: bytes) -> list[int]:
    """The offset of each gzip member of ``data``, and its end."""
    offsets = [0]
    while offsets[-1] < len(data):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        inflater.decompress(data[offsets[-1] :])
        offsets.append(len(data) - len(inflater.unused_data))
    return offsets


MEMBERS = _members(GZ)  # 10 records: warcinfo, request, 5 responses, revisit, resource, metadata
# uncompressed: where each record starts
RECORDS = [i for i in range(len(PLAIN)) if PLAIN.startswith(b"WARC/1.1\r\n", i)]


def _read(data: bytes | BinaryIO) -> tuple[list[tuple[str, str]], list[InputError], Summary]:
    errors: list[InputError] = []  # the warnings among them (InputWarning: a repair)
    summary = Summary()
    links = extract_links(
        data, name="f", on_error=errors.append, on_warning=errors.append, summary=summary
    )
    return [(link.document, link.url) for link in links], errors, summary


INTACT, _, INTACT_SUMMARY = _read(GZ)


def test_the_fixture_is_what_the_cases_assume() -> None:
    assert len(MEMBERS) == 11 and len(RECORDS) == 10
    assert INTACT_SUMMARY.documents == 5 and INTACT_SUMMARY.failed == 0


def test_a_record_split_over_gzip_members_between_intact_records() -> None:
    # warcio's example-wrong-chunks.warc.gz between the third and fourth records: warcio (and
    # baselinks before) stopped at its body's member, losing every record after it. The
    # record is read across its members, and every record after it.
    data = GZ[: MEMBERS[3]] + WRONG_CHUNKS + GZ[MEMBERS[3] :]
    links, errors, summary = _read(data)
    split = ("f#http://example.com/", "http://www.iana.org/domains/example")
    # the first three records' links (the response's five) before it, the rest after it
    assert links == [*INTACT[:5], split, *INTACT[5:]]
    assert summary.documents == INTACT_SUMMARY.documents + 1
    assert [(e.name, e.offset, e.message) for e in errors] == [
        (
            "f#http://example.com/",
            MEMBERS[3],
            "record split over gzip members (one per record expected): read across them",
        )
    ]
    # read in full, nothing lost: a warning, never a failure
    assert isinstance(errors[0], InputWarning)
    assert (summary.warnings, summary.failed) == (1, 0)


def test_a_record_cut_at_its_member_end_is_not_read_across_a_member_that_is_no_record() -> None:
    # the body's member gone: the record cannot be read whole, the cut is reported, and the
    # member after it (the end of that record, then the next record) is read from its record
    data = GZ[: MEMBERS[3]] + WRONG_CHUNKS[:516] + WRONG_CHUNKS[1130:] + GZ[MEMBERS[3] :]
    links, errors, _ = _read(data)
    assert links == INTACT
    assert [e.message for e in errors] == [
        "record cut short: 343 of its 1613 bytes (file truncated?)"
    ]


def test_a_damaged_gzip_member_is_skipped() -> None:
    data = bytearray(GZ)
    data[MEMBERS[3] + 150] ^= 0xFF  # inside the deflate data of the fourth record's member
    links, errors, _ = _read(bytes(data))
    assert links == [link for link in INTACT if link[0] != "f#http://example.com/old/"]
    assert len(errors) == 1
    assert errors[0].offset == MEMBERS[3]
    assert errors[0].message.endswith(
        f"bytes {MEMBERS[3]}-{MEMBERS[4]} skipped, read on from the next record at offset "
        f"{MEMBERS[4]}"
    )


def test_garbage_between_gzip_members() -> None:
    data = GZ[: MEMBERS[3]] + b"\x00garbage\x1f\x8b\x08 not a member" * 5 + GZ[MEMBERS[3] :]
    links, errors, _ = _read(data)
    assert links == INTACT
    assert len(errors) == 1 and errors[0].offset == MEMBERS[3]
    assert "bytes" in errors[0].message and "skipped" in errors[0].message


def test_a_missing_record_separator_in_an_uncompressed_warc() -> None:
    # The fourth record follows the third's block directly: no CRLF CRLF between them.
    cut = RECORDS[3] - 4
    assert PLAIN[cut : RECORDS[3]] == b"\r\n\r\n"
    links, errors, _ = _read(PLAIN[:cut] + PLAIN[RECORDS[3] :])
    assert links == _read(PLAIN)[0]
    assert [(e.name, e.offset, e.message) for e in errors] == [
        (
            "f#http://example.com/a/page",
            RECORDS[2],
            "record not followed by an empty line: its Content-Length is probably wrong",
        )
    ]


def test_garbage_lines_in_an_uncompressed_warc() -> None:
    data = PLAIN[: RECORDS[4]] + b"junk line\r\nmore junk\r\n\r\n" + PLAIN[RECORDS[4] :]
    links, errors, _ = _read(data)
    assert links == _read(PLAIN)[0]
    assert [e.offset for e in errors] == [RECORDS[4]]
    assert errors[0].message == (
        "no WARC or ARC record starts here (first line 'junk line'); bytes "
        f"{RECORDS[4]}-{RECORDS[4] + 24} skipped, read on from the next record at offset "
        f"{RECORDS[4] + 24}"
    )


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, delivering a few bytes per read (a pipe)."""

    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.position = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), 700, len(self.data) - self.position)
        buffer[:size] = self.data[self.position : self.position + size]
        self.position += size
        return size


def test_resync_in_a_stream_that_cannot_seek() -> None:
    data = bytearray(GZ)
    data[MEMBERS[3] + 150] ^= 0xFF
    links, errors, _ = _read(io.BufferedReader(_Pipe(bytes(data))))
    assert links == [link for link in INTACT if link[0] != "f#http://example.com/old/"]
    assert len(errors) == 1


@pytest.mark.parametrize("cut", [1, 3, 8])
def test_a_warc_gz_cut_inside_its_last_bytes_is_reported(cut: int) -> None:
    # The last member's trailer (CRC-32, length) cut: every record was read, and said so.
    links, errors, _ = _read(GZ[:-cut])
    assert links == INTACT
    assert [(e.offset, e.message) for e in errors] == [
        (
            MEMBERS[-2],
            "the last gzip member is cut short (file truncated?): the records in it were read",
        )
    ]


def test_damage_with_no_record_after_it() -> None:
    links, errors, _ = _read(GZ[: MEMBERS[9]] + b"\x1f\x8b\x08\x00garbage" * 3)
    assert links == INTACT
    assert len(errors) == 1 and errors[0].offset == MEMBERS[9]
    assert errors[0].message.endswith(
        f"no record after it: bytes {MEMBERS[9]}-{MEMBERS[9] + 33} skipped"
    )


def test_next_record_finds_a_record_line_across_chunk_edges() -> None:
    filler = b"x" * 70_000 + b"\n"
    data = filler + b"WARC/1.0\r\nWARC-Type: resource\r\n"
    window = Window(io.BytesIO(data))
    assert next_record(window, 1, gzipped=False) == len(filler)
    arc = filler * 2 + b"http://a.example/ 1.2.3.4 20080430204825 text/html 12\n"
    assert next_record(Window(io.BytesIO(arc)), 5, gzipped=False) == 2 * len(filler)
    assert next_record(Window(io.BytesIO(filler * 3)), 1, gzipped=False) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"\xc3\xa9\xe2\x80\xa8 junk\r\n" + data,  # bytes before the first record
        lambda data: b"\x00" * 16 + data,
        lambda data: data[:2] + b"x" + data[3:],  # its first line: "WAxC/1.1" or gzip's magic
    ],
)
@pytest.mark.parametrize("source", ["plain", "gzip"])
def test_damage_at_the_start_is_reported_and_the_rest_read(
    damage: Callable[[bytes], bytes], source: str
) -> None:
    # was: not recognised as an archive, read as one text document: 1 document, no error
    data = damage(GZ if source == "gzip" else PLAIN)
    links, errors, summary = _read(data)
    assert links == INTACT
    assert summary.documents == INTACT_SUMMARY.documents
    assert len(errors) == 1 and errors[0].offset == 0
    assert "skipped, read on from the next record" in errors[0].message


def test_a_damaged_one_member_gzip_ends_with_one_error() -> None:
    # found by the fuzzer: warcio's offsets in a damaged one-member gzip fell before the
    # start, and the resynchronisation found the same record again and again (a hang)
    data = bytearray((HERE / "example-bad.warc.gz.bad").read_bytes())
    for position, value in ((149, 170), (491, 57), (1697, 224), (1705, 241), (1920, 33)):
        data[position] = value
    _, errors, _ = _read(bytes(data))
    assert len(errors) == 1


def test_an_arc_without_the_newline_after_each_record_is_read_whole_and_clean() -> None:
    # each ARC header line follows the record before it directly; warcio reads on, the
    # lengths being right: no record lost, so no error (it was 8 "failed" records)
    errors: list[InputError] = []
    arc = FIXTURES / "containers" / "IAH-20080430204825-00000-blackbook-truncated.arc"
    links = extract_links(str(arc), on_error=errors.append)
    assert len(links) == 168 + 172  # its pages', and its RSS feed's (a document since issue 27)
    assert errors == []


def _response(number: int, filler: bytes = b"") -> bytes:
    """A WARC response record of one link, its target http://e.example/<number>."""
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/l%d>x</a>" % number + filler
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.example/%d\r\n" % number
    head += b"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(
        body
    )
    return head + body + b"\r\n\r\n"


@pytest.mark.parametrize("junk", [1_000, 52_000, 55_000, 64_000, 70_000, 140_000])
def test_every_member_after_damage_of_any_length_is_found(junk: int) -> None:
    # issue 29: past the first 64 KiB chunk the search began at a negative index, which find()
    # counts from the end: the members 52-77 KiB past the damage were never looked at (80 of
    # 600 records lost inside a reported "bytes A-B skipped" span).
    members = [zlib.compress(_response(i, b" " * 300), 9, 31) for i in range(200)]
    data = members[0] + b"J" * junk + b"".join(members[1:])
    links, errors, summary = _read(data)
    assert summary.documents == 200
    assert [url for _, url in links] == [f"http://e.example/l{i}" for i in range(200)]
    assert [(e.offset, e.message.split("; ")[1]) for e in errors] == [
        (
            len(members[0]),
            f"bytes {len(members[0])}-{len(members[0]) + junk} skipped, read on from the next "
            f"record at offset {len(members[0]) + junk}",
        )
    ]


@pytest.mark.parametrize("junk", [1_000, 52_000, 55_000, 70_000, 140_000])
def test_every_record_after_damage_of_any_length_is_found_uncompressed(junk: int) -> None:
    records = [_response(i) for i in range(100)]
    data = records[0] + b"JUNK " * (junk // 5) + b"".join(records[1:])
    links, errors, summary = _read(data)
    assert len(links) == 100
    assert summary.documents == 100
    assert len(errors) == 1 and errors[0].offset == len(records[0])
    assert f"read on from the next record at offset {len(records[0]) + junk // 5 * 5}" in str(
        errors[0]
    )


def test_arc_lines_in_a_damaged_span_of_a_warc_are_one_error() -> None:
    # issue 29: the lines of an ARC index (URL IP date type length) in a WARC were each taken
    # for a record: 20 such lines gave 80 error lines for one damaged span
    record = _response(1)
    arc_lines = b"".join(
        b"http://e.example/%d 1.2.3.4 20200101000000 text/html 10\n" % i for i in range(20)
    )
    links, errors, _ = _read(record + arc_lines + record)
    assert len(links) == 2
    assert [(e.offset, e.message.split(" (")[0]) for e in errors] == [
        (len(record), "no WARC or ARC record starts here")
    ]
    assert f"bytes {len(record)}-{len(record) + len(arc_lines)} skipped" in errors[0].message


def test_junk_made_of_gzip_magic_bytes_is_passed_over() -> None:
    # issue 29: 1 MB of "1f 8b 08" is a candidate member every 3 bytes; each was copied and
    # inflated as far as its header ran on (18 s). The time is bench_hostile's; here, the
    # answer, and that no candidate is inflated past its first bytes.
    members = [zlib.compress(_response(i), 9, 31) for i in range(3)]
    data = members[0] + b"\x1f\x8b\x08" * 20_000 + b"".join(members[1:])
    links, errors, _ = _read(data)
    assert len(links) == 3
    assert (
        len(errors) == 1
        and f"read on from the next record at offset {len(data) - len(members[1]) - len(members[2])}"
        in errors[0].message
    )
