"""WACZ (load/containers/wacz.py): the WARCs inside read in place, with provenance that finds
each record again, and every hostile zip one error line naming it, the other members read.

fixtures/containers/crawl.wacz is py-wacz's WACZ of crawl.warc.gz (fixtures/README.md); the
hostile cases are made from it here, as the research made them (zip bomb, '..' names,
overlapping entries, damaged members, sizes that lie).
"""

from __future__ import annotations

import gzip
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

import baselinks
from baselinks.cli import main
from baselinks.load.containers.sniff import Kind, sniff
from baselinks.load.containers.wacz import unsafe_name
from baselinks.url.surt import surt
from conftest import FIXTURES

WACZ = FIXTURES / "containers" / "crawl.wacz"
WARC = FIXTURES / "containers" / "crawl.warc.gz"
MEMBER = "archive/crawl.warc.gz"


def _links(
    source: object, errors: list[baselinks.InputError] | None = None
) -> list[baselinks.Link]:
    found = errors if errors is not None else []
    return list(baselinks.iter_links(source, on_error=found.append))  # type: ignore[arg-type]


def test_the_links_and_offsets_are_the_warcs() -> None:
    inside, alone = _links(WACZ), _links(WARC)
    assert [link.url for link in inside] == [link.url for link in alone]
    assert [(link.offset, link.length) for link in inside] == [
        (link.offset, link.length) for link in alone
    ]
    assert {link.file for link in inside} == {f"{WACZ}#{MEMBER}"}
    assert inside[0].document == f"{WACZ}#{MEMBER}#http://example.com/a/style.css" or inside[
        0
    ].document.startswith(f"{WACZ}#{MEMBER}#")


def test_offsets_are_those_of_the_waczs_own_cdxj_index() -> None:
    # indexes/index.cdx.gz, written by py-wacz (cdxj-indexer, which keys with the surt
    # package): each HTML record's offset and length, and its SURT key, as ours
    with zipfile.ZipFile(WACZ) as archive:
        lines = gzip.decompress(archive.read("indexes/index.cdx.gz")).decode().splitlines()
    index = {}
    for line in lines:
        key, _, rest = line.split(" ", 2)
        record = json.loads(rest)
        assert surt(record["url"]) == key
        if record.get("mime") == "text/html":
            index[record["url"]] = (int(record["offset"]), int(record["length"]))
    found = {
        link.page_url: (link.offset, link.length) for link in _links(WACZ) if link.page_url in index
    }
    assert found and found == {url: index[url] for url in found}


def test_a_stored_members_bytes_are_found_in_the_wacz_at_data_start_plus_offset() -> None:
    data = WACZ.read_bytes()
    info = zipfile.ZipFile(WACZ).getinfo(MEMBER)
    name_length, extra_length = struct.unpack_from("<HH", data, info.header_offset + 26)
    start = info.header_offset + 30 + name_length + extra_length
    link = _links(WACZ)[1]
    assert link.offset is not None and link.length is not None
    record = data[start + link.offset : start + link.offset + link.length]
    assert record == WARC.read_bytes()[link.offset : link.offset + link.length]
    assert gzip.decompress(record).startswith(b"WARC/1.")


def test_it_is_recognised_by_content_and_by_name() -> None:
    head = WACZ.read_bytes()[:8192]
    assert sniff(head, "x") is Kind.WACZ
    assert sniff(b"<html>", "crawl.wacz") is Kind.WACZ
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8\xff")
    assert sniff(plain.getvalue(), "photos.zip") is Kind.BINARY


def test_the_command_line_and_the_graph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", str(WACZ), "-q", "--level", "page", "-o", str(tmp_path / "wacz")]) == 0
    assert main(["graph", str(WARC), "-q", "--level", "page", "-o", str(tmp_path / "warc")]) == 0
    for name in ("vertices.tsv", "edges.tsv"):
        assert (tmp_path / "wacz" / name).read_text() == (tmp_path / "warc" / name).read_text()


# --- hostile zips --------------------------------------------------------------------------


def _zip(path: Path, members: list[tuple[str, bytes, int]]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, method in members:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return path


def _errors(path: Path) -> tuple[int, list[str]]:
    errors: list[baselinks.InputError] = []
    links = _links(path, errors)
    return len(links), [str(error) for error in errors]


def test_not_a_zip(tmp_path: Path) -> None:
    path = tmp_path / "not.wacz"
    path.write_bytes(b"<html>not a zip</html>\n")
    assert _errors(path) == (
        0,
        [f"{path}: not a readable zip (a WACZ is one): File is not a zip file"],
    )


def _local_only(data: bytes) -> bytes:
    """A zip without its central directory (a download stopped before the end)."""
    return data[: data.index(b"PK\x01\x02")]


def test_cut_short_inside_a_warc_keeps_its_records_before_the_cut(tmp_path: Path) -> None:
    # zipfile reads no member without the central directory at the end: the members are found
    # again by their local headers, and the stored WARC read as far as the file has it
    path = tmp_path / "cut.wacz"
    path.write_bytes(WACZ.read_bytes()[: WACZ.stat().st_size // 2])
    count, errors = _errors(path)
    whole = [link.url for link in _links(WACZ)]
    assert 0 < count < len(whole)
    assert [link.url for link in _links(path, [])] == whole[:count]
    assert errors[0] == (
        f"{path}: no readable central directory (File is not a zip file): 3 members found by "
        "their local headers, read as far as the file goes (cut short?)"
    )
    assert errors[-1] == (
        f"{path}#{MEMBER}: zip member cut short: 1,231 of its 2,556 bytes in the file; the "
        "records before the cut read"
    )
    assert len(errors) == 3 and "offset 1123: record cut short inside its header" in errors[1]


def test_cut_short_after_the_warcs_reads_them_all(tmp_path: Path) -> None:
    path = tmp_path / "cut.wacz"
    path.write_bytes(_local_only(WACZ.read_bytes()))
    count, errors = _errors(path)
    assert count == len(_links(WACZ))
    assert [link.url for link in _links(path, [])] == [link.url for link in _links(WACZ)]
    assert errors == [
        f"{path}: no readable central directory (File is not a zip file): 5 members found by "
        "their local headers, read as far as the file goes (cut short?)"
    ]


class _Pipe(io.RawIOBase):
    """A write-only stream, not seekable: zipfile writes each member's sizes after its data."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.written += data
        return len(data)


def _streamed(members: list[tuple[str, bytes, int]]) -> bytes:
    """A zip as a writer to a pipe makes it: each member's sizes in a data descriptor after
    its data (bit 3), the local header's sizes 0."""
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w") as archive:
        for name, data, method in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            with archive.open(info, "w") as member:
                member.write(data)
    return bytes(pipe.written)


def test_without_a_central_directory_deflated_and_descriptor_members_read(tmp_path: Path) -> None:
    warc = WARC.read_bytes()
    deflated = _zip(
        tmp_path / "deflated.wacz",
        [
            ("archive/a.warc", gzip.decompress(warc), zipfile.ZIP_DEFLATED),
            ("archive/b.warc.gz", warc, zipfile.ZIP_STORED),
        ],
    )
    deflated.write_bytes(_local_only(deflated.read_bytes()))

    written = _streamed(
        [
            (MEMBER, warc, zipfile.ZIP_STORED),
            ("archive/d.warc", gzip.decompress(warc), zipfile.ZIP_DEFLATED),
        ]
    )
    assert b"PK\x07\x08" in written  # data descriptors, the local sizes 0
    streamed = tmp_path / "streamed.wacz"
    streamed.write_bytes(_local_only(written))
    for path, members in ((deflated, 2), (streamed, 2)):
        count, errors = _errors(path)
        assert count == 2 * len(_links(WARC)), path
        assert errors == [
            f"{path}: no readable central directory (File is not a zip file): {members} members "
            "found by their local headers, read as far as the file goes (cut short?)"
        ]


def test_a_deflated_member_changed_without_a_central_directory_says_so(tmp_path: Path) -> None:
    path = _zip(
        tmp_path / "deflated.wacz",
        [("archive/a.warc", gzip.decompress(WARC.read_bytes()), zipfile.ZIP_DEFLATED)],
    )
    data = bytearray(_local_only(path.read_bytes()))
    data[-40:-20] = bytes(20)
    path.write_bytes(data)
    _, errors = _errors(path)
    assert errors[0].startswith(f"{path}: no readable central directory")
    assert errors[-1].startswith(f"{path}#archive/a.warc: damaged zip member: ")


def test_names_that_climb_out_are_refused_and_the_rest_read(tmp_path: Path) -> None:
    warc = WARC.read_bytes()
    path = _zip(
        tmp_path / "names.wacz",
        [
            ("archive/../../../tmp/evil.warc.gz", warc, zipfile.ZIP_STORED),
            ("/etc/abs.warc.gz", warc, zipfile.ZIP_STORED),
            ("archive/ok.warc.gz", warc, zipfile.ZIP_STORED),
        ],
    )
    count, errors = _errors(path)
    assert count == 10
    assert errors == [
        f"{path}: zip member 'archive/../../../tmp/evil.warc.gz' refused: '..' in the path",
        f"{path}: zip member '/etc/abs.warc.gz' refused: an absolute path",
    ]
    assert list(tmp_path.iterdir()) == [path]  # nothing written anywhere


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a/../b", "'..' in the path"),
        ("C:/x", "an absolute path"),
        ("a\x1b[2Jb", "a control character in the name"),
        ("archive/x.warc", None),
    ],
)
def test_unsafe_names(name: str, why: str | None) -> None:
    assert unsafe_name(name) == why


def test_a_zip_bomb_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "bomb.wacz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("archive/bomb.warc", b"\0" * (20 << 20))
    count, errors = _errors(path)
    assert count == 0 and len(errors) == 1
    assert errors[0].startswith(
        f"{path}: zip member 'archive/bomb.warc' refused: 20,971,520 bytes declared from "
    )
    assert errors[0].endswith("a zip bomb?")


def test_overlapping_entries_are_refused(tmp_path: Path) -> None:
    # Fifield's non-recursive bomb: two central records, one local file
    path = _zip(
        tmp_path / "overlap.wacz", [("archive/a.warc.gz", WARC.read_bytes(), zipfile.ZIP_STORED)]
    )
    data = bytearray(path.read_bytes())
    central, end = data.find(b"PK\x01\x02"), data.rfind(b"PK\x05\x06")
    record = bytes(data[central:end]).replace(b"archive/a.warc.gz", b"archive/b.warc.gz")
    patched = data[:end] + record + data[end:]
    at = end + len(record)
    size = struct.unpack_from("<I", patched, at + 12)[0]
    struct.pack_into("<HHI", patched, at + 8, 2, 2, size + len(record))
    path.write_bytes(patched)
    count, errors = _errors(path)
    assert count == 10
    assert errors == [
        f"{path}: zip member 'archive/b.warc.gz' refused: its data overlaps another member's (a zip bomb?)"
    ]


def test_a_damaged_deflated_member_is_named_and_the_next_read(tmp_path: Path) -> None:
    path = _zip(
        tmp_path / "deflated.wacz",
        [
            ("archive/a.warc", gzip.decompress(WARC.read_bytes()), zipfile.ZIP_DEFLATED),
            ("archive/b.warc.gz", WARC.read_bytes(), zipfile.ZIP_STORED),
        ],
    )
    data = bytearray(path.read_bytes())
    start = (
        zipfile.ZipFile(path).getinfo("archive/a.warc").header_offset + 30 + len("archive/a.warc")
    )
    data[start + 200 : start + 260] = b"\0" * 60
    path.write_bytes(data)
    count, errors = _errors(path)
    assert count >= 10  # b's ten, and what a read before the damage
    assert len(errors) == 1 and errors[0].startswith(f"{path}#archive/a.warc: damaged zip member: ")
    assert "internal error" not in errors[0]


def test_a_damaged_stored_member_keeps_what_reads_and_says_the_crc_is_wrong(tmp_path: Path) -> None:
    data = bytearray(WACZ.read_bytes())
    info = zipfile.ZipFile(WACZ).getinfo(MEMBER)
    start = info.header_offset + 30 + len(MEMBER) + len(info.extra)
    data[start + 900 : start + 940] = b"\xff" * 40
    path = tmp_path / "damaged.wacz"
    path.write_bytes(data)
    count, errors = _errors(path)
    assert count == 8
    assert (
        errors[-1]
        == f"{path}#{MEMBER}: damaged zip member: its CRC-32 does not match (bytes changed)"
    )
    assert any("offset 847" in error for error in errors)


def test_sizes_that_lie(tmp_path: Path) -> None:
    path = tmp_path / "liar.wacz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("archive/liar.warc", b"A" * (1 << 20))
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 22, 1000)  # the local header's uncompressed size
    struct.pack_into("<I", data, data.rfind(b"PK\x01\x02") + 24, 1000)  # the central one's
    path.write_bytes(data)
    count, errors = _errors(path)
    assert count == 0 and len(errors) == 1
    assert errors[0].startswith(f"{path}#archive/liar.warc: damaged zip member: ")


def test_from_a_pipe_it_says_it_needs_a_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    read, write = __import__("os").pipe()
    with open(write, "wb") as end:
        end.write(WACZ.read_bytes())
    with open(read, "rb") as stream:
        errors: list[baselinks.InputError] = []
        assert list(baselinks.iter_links(stream, name="crawl.wacz", on_error=errors.append)) == []
    assert [str(e) for e in errors] == [
        "crawl.wacz: a WACZ is read from a file (its index is at its end), not a pipe"
    ]


def test_mutated_waczs_never_raise_nor_report_an_internal_error(tmp_path: Path) -> None:
    # a fixed-seed round over the fixture (fuzz/fuzz.py takes it as a seed too): bytes
    # flipped (a version field flipped once gave zipfile's NotImplementedError), cut, inserted
    import random

    rng, data = random.Random(28), WACZ.read_bytes()
    path = tmp_path / "mutant.wacz"
    for _ in range(300):
        mutant = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            mutant[rng.randrange(len(mutant))] = rng.randrange(256)
        if rng.random() < 0.3:
            mutant = mutant[: rng.randrange(len(mutant))]
        path.write_bytes(mutant)
        _, errors = _errors(path)
        assert not [error for error in errors if "internal error" in error], errors


def test_a_later_zip_version_is_one_line_and_the_members_still_read(tmp_path: Path) -> None:
    # "version needed to extract" flipped in the central directory (the fuzz round found
    # zipfile's NotImplementedError): zipfile lists no member; their local headers do
    data = WACZ.read_bytes()
    central = next(
        at
        for at in range(len(data))
        if data.startswith(b"PK\x01\x02", at) and data.startswith(MEMBER.encode(), at + 46)
    )
    mutant = bytearray(data)
    struct.pack_into("<H", mutant, central + 6, 146)
    path = tmp_path / "v.wacz"
    path.write_bytes(mutant)
    assert _errors(path) == (
        len(_links(WACZ)),
        [
            f"{path}: no readable central directory (zip file version 14.6): 5 members found "
            "by their local headers, read as far as the file goes (cut short?)"
        ],
    )


# --- no central directory: the cases a review found (load/containers/ziplocal.py) ------------


PLAIN = gzip.decompress(WARC.read_bytes())


def test_a_streamed_stored_member_cut_short_says_so_not_a_wrong_crc(tmp_path: Path) -> None:
    data = _streamed([("archive/a.warc", PLAIN, zipfile.ZIP_STORED)])
    path = tmp_path / "streamed.wacz"
    path.write_bytes(data[: len(data) // 2])
    count, errors = _errors(path)
    assert 0 < count < len(_links(WARC))
    assert errors[-1] == (
        f"{path}#archive/a.warc: zip member runs to the end of the file: its sizes come after "
        "its data and no data descriptor was found (cut short?); the records before the end read"
    )
    assert not [error for error in errors if "CRC" in error]


def test_a_deflated_member_cut_short_keeps_the_records_before_the_cut(tmp_path: Path) -> None:
    path = _zip(tmp_path / "d.wacz", [("archive/a.warc", PLAIN * 40, zipfile.ZIP_DEFLATED)])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 3 // 4])
    count, errors = _errors(path)
    assert count > 40 * len(_links(WARC)) // 2  # most of the 40 copies' records
    assert errors[-1].startswith(
        f"{path}#archive/a.warc: zip member cut short: the file ends inside its deflated data ("
    )


def test_sizes_in_the_header_and_a_descriptor_after_the_data(tmp_path: Path) -> None:
    # bit 3 set with the sizes also in the local header (some writers), and a ZIP64 descriptor
    # holding sizes under 4 GiB: the walk steps over each descriptor to the next member
    warc = WARC.read_bytes()
    crc, size = zlib.crc32(warc), len(warc)
    for zip64 in (False, True):
        streamed = bytearray(_streamed([(MEMBER, warc, 0), ("archive/b.warc.gz", warc, 0)]))
        at = 0
        while (at := streamed.find(b"PK\x03\x04", at)) >= 0:
            struct.pack_into("<III", streamed, at + 14, crc, size, size)
            at += 4
        if zip64:  # each descriptor written again with 8-byte sizes
            streamed = bytearray(
                streamed.replace(
                    struct.pack("<4sIII", b"PK\x07\x08", crc, size, size),
                    struct.pack("<4sIQQ", b"PK\x07\x08", crc, size, size),
                )
            )
        path = tmp_path / f"sized-{zip64}.wacz"
        path.write_bytes(_local_only(bytes(streamed)))
        count, errors = _errors(path)
        assert count == 2 * len(_links(WARC)), (zip64, errors)
        assert len(errors) == 1 and "2 members found" in errors[0]


def test_zip64_local_headers(tmp_path: Path) -> None:
    # sizes 0xFFFFFFFF in the local header, the real ones in its ZIP64 extra field
    path = tmp_path / "z64.wacz"
    with zipfile.ZipFile(path, "w") as archive:
        for name in (MEMBER, "archive/b.warc.gz"):
            with archive.open(zipfile.ZipInfo(name), "w", force_zip64=True) as member:
                member.write(WARC.read_bytes())
    path.write_bytes(_local_only(path.read_bytes()))
    count, errors = _errors(path)
    assert count == 2 * len(_links(WARC))
    assert len(errors) == 1 and "2 members found" in errors[0]


def test_cut_after_a_zip_inside_a_warc_is_not_that_zips_directory(tmp_path: Path) -> None:
    # cut short just after a captured .docx (a zip) inside the WARC: zipfile finds the .docx's
    # own directory at the end and lists its members, none of them the WACZ's
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as docx:
        docx.writestr("word/document.xml", "<w/>" * 10)
    payload = inner.getvalue()
    http = b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n\r\n" + payload
    record = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/x.docx\r\n"
        b"WARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2020-01-01T00:00:00Z\r\n"
        b"Content-Type: application/http; msgtype=response\r\n"
        b"Content-Length: %d\r\n\r\n" % len(http) + http + b"\r\n\r\n"
    )
    path = _zip(tmp_path / "docx.wacz", [("archive/a.warc", PLAIN + record + PLAIN, 0)])
    data = path.read_bytes()
    path.write_bytes(data[: data.index(payload) + len(payload)])
    count, errors = _errors(path)
    assert count == len(_links(WARC))  # the records before the .docx
    assert errors[0] == (
        f"{path}: no readable central directory (the one at its end lists no member at its "
        "start: another zip's, stored inside it): 1 member found by their local headers, read "
        "as far as the file goes (cut short?)"
    )


def test_a_wacz_inside_a_wacz_is_not_read(tmp_path: Path) -> None:
    # each member's bytes a zip again, 400 deep (22 KB): a RecursionError before; and stored
    # sizes that lie, each member's view covering the next headers: links doubling per header
    nested = WACZ.read_bytes()
    for depth in range(400):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(zipfile.ZipInfo(f"archive/n{depth}.warc"), nested)
        nested = buffer.getvalue()
    path = tmp_path / "nested.wacz"
    path.write_bytes(nested)
    count, errors = _errors(path)
    assert count == 0
    assert errors == [
        f"{path}#archive/n399.warc: a zip where a WARC belongs: not read (no WACZ inside a WACZ)"
    ]
    lying = bytearray(
        _local_only(
            _zip(
                tmp_path / "l.wacz", [(f"archive/a{i}.warc", PLAIN, 0) for i in range(12)]
            ).read_bytes()
        )
    )
    at = 0
    while (at := lying.find(b"PK\x03\x04", at)) >= 0:
        struct.pack_into("<I", lying, at + 18, 0)  # compressed size 0, uncompressed size kept
        at += 4
    path.write_bytes(lying)
    count, errors = _errors(path)
    assert count == 0 and len(errors) == 3  # the walk stops at the WARC where a header was said
    assert "refused: stored, but 3,376 bytes declared from 0 (sizes that lie)" in errors[1]
    assert errors[2] == (
        f"{path}: the zip's local headers stop: no local header at byte 45 (damage?); nothing "
        "after read"
    )


# --- the promise, with no central directory: nothing lost, work linear --------------------


def _records_warc(count: int) -> tuple[bytes, list[int]]:
    """A WARC of ``count`` one-link responses, a gzip member each, and where each record ends."""
    out, ends = bytearray(), []
    for i in range(count):
        http = f'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href="/l{i}">x</a>'.encode()
        head = (
            f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://h{i}.example/\r\n"
            f"WARC-Record-ID: <urn:uuid:{i}>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n"
        )
        out += gzip.compress(head.encode() + http + b"\r\n\r\n")
        ends.append(len(out))
    return bytes(out), ends


def test_every_record_wholly_before_a_cut_comes_back() -> None:
    # a fixed-seed round: WACZs of 1-30 records cut anywhere in or after their stored WARC;
    # every record that ends before the cut is read, and the cut is said
    import random

    rng = random.Random(5)
    for _ in range(120):
        warc, ends = _records_warc(rng.randint(1, 30))
        zipped = io.BytesIO()
        with zipfile.ZipFile(zipped, "w") as archive:
            archive.writestr("datapackage.json", b"{}")
            archive.writestr(zipfile.ZipInfo(MEMBER), warc)
        data = zipped.getvalue()
        start = data.index(MEMBER.encode()) + len(MEMBER)
        cut = rng.randrange(start, len(data))
        errors: list[baselinks.InputError] = []
        found = {link.url for link in _links(io.BytesIO(data[:cut]), errors)}
        kept = {f"http://h{i}.example/l{i}" for i, end in enumerate(ends) if start + end <= cut}
        assert kept <= found, (cut, len(data))
        assert errors and "no readable central directory" in str(errors[0])


class _Counted(io.BytesIO):
    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.read_bytes += len(data)
        return data


@pytest.mark.parametrize(
    "member",
    [
        # a member of no bytes, its sizes in a descriptor: one short search each
        b"PK\x03\x04\x14\x00\x08\x00"
        + bytes(18)
        + b"\x01\x00\x00\x00x"
        + b"PK\x07\x08"
        + bytes(12),
        # a stored member of 60 bytes full of descriptor signatures that match no size
        b"PK\x03\x04\x14\x00\x00\x00"
        + bytes(10)
        + struct.pack("<II", 60, 60)
        + b"\x01\x00\x00\x00x"
        + b"PK\x07\x08" * 15,
    ],
    ids=["empty-with-descriptor", "signatures-in-data"],
)
def test_the_local_walk_reads_each_byte_a_bounded_number_of_times(member: bytes) -> None:
    # the walk grown 4, 16 and 64 times: bytes read per byte of the file stay the same (a
    # machine-independent measure of its work; time itself is bench_hostile's)
    from baselinks.load.containers.ziplocal import local_members

    ratios = []
    for times in (1, 4, 16, 64):
        stream = _Counted(member * (256 * times))
        walk = local_members(stream, 200)
        assert len(walk.members) == 256 * times and walk.stopped is None
        ratios.append(stream.read_bytes / len(stream.getvalue()))
    assert max(ratios) <= 1.05 * min(ratios) and max(ratios) < 64, ratios


@pytest.mark.parametrize("directory", [True, False])
def test_a_member_named_with_a_nul_is_refused_by_name_not_passed_over(
    tmp_path: Path, directory: bool
) -> None:
    # issue 36: zipfile's filename ends at a NUL: "archive/b\0.warc.gz" was "archive/b", no
    # WARC's name, and its records were passed over without a word (exit 0). It is a name of
    # a control character: refused by name, as the others are; the members beside it read
    warc = WARC.read_bytes()
    path = _zip(
        tmp_path / "nul.wacz",
        [
            ("archive/a.warc.gz", warc, zipfile.ZIP_STORED),
            ("archive/b#.warc.gz", warc, zipfile.ZIP_STORED),
            ("archive/c.warc.gz", warc, zipfile.ZIP_STORED),
        ],
    )
    data = path.read_bytes().replace(b"archive/b#.warc.gz", b"archive/b\0.warc.gz")
    path.write_bytes(data if directory else _local_only(data))
    count, errors = _errors(path)
    assert count == 20  # the two others' links
    assert errors[-1] == (
        f"{path}: zip member 'archive/b\\x00.warc.gz' refused: a control character in the name"
    )
