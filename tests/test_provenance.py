"""Provenance: where each link's document is stored, found again with warcio and by IMAP's
numbering. A link's offset and length are checked against warcio itself (its index, and
``warcio extract`` at that offset), on clean and damaged archives; a MIME part's path against
RFC 3501's own example."""

from __future__ import annotations

import email.policy
import io
import json
import subprocess
import sys
import zlib
from email.message import EmailMessage

import pytest
from warcio.archiveiterator import ArchiveIterator

from baselinks import FIELDS, InputError, Link, Origin, extract_links, iter_warc_links
from baselinks.cli import main
from baselinks.dataflow import ROW_FIELDS
from baselinks.resolve.link import DEFAULT_FIELDS, ORIGIN_FIELDS, OWN_FIELDS
from conftest import FIXTURES, warc

CONTAINERS = FIXTURES / "containers"


def _index(data: bytes) -> dict[int, tuple[int, str | None, str]]:
    """warcio's own index of an archive (as ``warcio index`` writes it): offset -> (length,
    record ID, target URI)."""
    index = {}
    records = ArchiveIterator(io.BytesIO(data), arc2warc=True)
    for record in records:
        target = record.rec_headers.get_header("WARC-Target-URI")
        record_id = record.rec_headers.get_header("WARC-Record-ID")
        offset, length = records.get_record_offset(), records.get_record_length()
        index[offset] = (length, record_id, target)
    return index


def _at(data: bytes, offset: int) -> tuple[str | None, str, str | None]:
    """The record warcio reads at ``offset`` (seek, then read one): its ID, target and date."""
    stream = io.BytesIO(data)
    stream.seek(offset)
    record = next(iter(ArchiveIterator(stream, arc2warc=True)))
    headers = record.rec_headers
    return (
        headers.get_header("WARC-Record-ID"),
        headers.get_header("WARC-Target-URI"),
        headers.get_header("WARC-Date"),
    )


def _documents(links: list[Link]) -> dict[str, Origin]:
    return {link.document: link.origin for link in links}


@pytest.mark.parametrize("name", ["crawl.warc", "crawl.warc.gz", "dupes.warc.gz", "example.arc"])
def test_a_links_offset_finds_its_record_with_warcio(name: str) -> None:
    path = CONTAINERS / name
    data = path.read_bytes()
    index = _index(data)
    links = extract_links(path, name=name)
    assert links
    arc = name.endswith(".arc")
    for document, origin in _documents(links).items():
        assert origin.file == name
        assert origin.offset is not None and origin.length is not None
        record_id, target, date = _at(data, origin.offset)
        assert document == f"{name}#{target}"
        assert origin.date == date
        # warcio makes up a random ID for an ARC record, a new one at each reading: none kept
        assert origin.record_id == (None if arc else record_id)
        # the length warcio's index gives: a .warc.gz member's compressed length
        assert index[origin.offset][0] == origin.length


def test_the_arc_date_is_its_archive_date_in_iso_8601() -> None:
    (origin,) = set(_documents(extract_links(CONTAINERS / "example.arc")).values())
    # the ARC header line: "http://example.com/ 93.184.216.119 20140216050221 text/html 1591"
    assert b" 20140216050221 " in (CONTAINERS / "example.arc").read_bytes()
    assert (origin.date, origin.record_id) == ("2014-02-16T05:02:21Z", None)


def test_warcio_extract_at_a_links_offset_prints_its_record() -> None:
    path = CONTAINERS / "crawl.warc.gz"
    link = next(link for link in extract_links(path) if link.document.endswith("/old/"))
    assert link.offset is not None
    done = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "extract", "--headers", str(path), str(link.offset)],
        capture_output=True,
        text=True,
        check=True,
    )
    headers = done.stdout.split("\r\n\r\n")[0]
    assert f"WARC-Record-ID: {link.record_id}" in headers
    assert "WARC-Target-URI: http://example.com/old/" in headers


PAGES = [
    (f"http://example.com/{n}", "text/html", f'<a href="/to/{n}">{n}</a>'.encode())
    for n in range(6)
]


def _members(data: bytes) -> list[bytes]:
    """A .warc.gz's gzip members, one per record."""
    members = []
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        inflater.decompress(data)
        end = len(data) - len(inflater.unused_data)
        members.append(data[:end])
        data = inflater.unused_data
    return members


def _check_against_warcio(data: bytes, links: list[Link]) -> None:
    for document, origin in _documents(links).items():
        assert origin.offset is not None
        record_id, target, _ = _at(data, origin.offset)
        assert (document, origin.record_id) == (f"w#{target}", record_id)


@pytest.mark.parametrize("damage", ["junk between members", "a member's data broken"])
def test_offsets_after_damage_in_a_gzip_warc_are_still_right(damage: str) -> None:
    members = _members(warc(PAGES))
    assert len(members) == len(PAGES)
    if damage == "junk between members":
        members.insert(3, b"\x00garbage that is no gzip member\n" * 5)
    else:
        broken = bytearray(members[2])
        broken[30:60] = b"\xff" * 30  # deflate data that does not inflate
        members[2] = bytes(broken)
    data = b"".join(members)
    errors: list[InputError] = []
    links = extract_links(data, name="w", on_error=errors.append)
    assert errors  # the damage is reported...
    found = [link.document for link in links]
    # ...and every record after it read, at its own offset in the damaged file
    assert found[-3:] == [f"w#http://example.com/{n}" for n in (3, 4, 5)]
    _check_against_warcio(data, links)
    lengths = {link.offset: link.length for link in links}
    offsets = sorted(lengths)
    for start, end in zip(offsets[-3:], offsets[-2:], strict=False):
        assert lengths[start] == end - start  # member after member: lengths tile the file


def test_offsets_after_junk_in_an_uncompressed_warc_are_still_right() -> None:
    data = warc(PAGES, gzip=False)
    cut = data.index(b"WARC/1", data.index(b"http://example.com/3") - 400)
    data = data[:cut] + b"junk that is no record\r\n" * 3 + data[cut:]
    errors: list[InputError] = []
    links = extract_links(data, name="w", on_error=errors.append)
    assert errors
    assert [link.document for link in links][-1] == "w#http://example.com/5"
    _check_against_warcio(data, links)


class _Pipe(io.RawIOBase):
    """A stream that cannot seek or tell, as stdin from a pipe."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        chunk = self.data.read(min(len(buffer), 997))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def test_offsets_read_from_a_pipe_are_the_files() -> None:
    data = (CONTAINERS / "crawl.warc.gz").read_bytes()
    piped = extract_links(io.BufferedReader(_Pipe(data)), name="-")
    assert [link.origin[1:] for link in piped] == [
        link.origin[1:] for link in extract_links(data, name="-")
    ]
    assert {link.file for link in piped} == {"-"}


def test_no_offsets_where_the_file_holds_none() -> None:
    # one gzip member for the whole file: no record starts at a byte of the file
    links = extract_links(CONTAINERS / "crawl-one-member.warc.gz", name="one")
    assert {(link.offset, link.length) for link in links} == {(None, None)}
    assert all(link.record_id and link.date for link in links)
    # a record split over gzip members: its first member's offset, and no length
    errors: list[InputError] = []
    split = extract_links(
        CONTAINERS / "example-wrong-chunks.warc.gz.bad", name="s", on_warning=errors.append
    )
    assert {(link.offset, link.length) for link in split} == {(0, None)}


def test_workers_give_the_same_origins() -> None:
    path = CONTAINERS / "dupes.warc.gz"
    assert [link.origin for link in extract_links(path, workers=2)] == [
        link.origin for link in extract_links(path)
    ]


# RFC 3501 §6.4.5's example of part numbers, each part's content type, with text/html put
# where the RFC has TEXT/PLAIN and TEXT/RICHTEXT, so that each is a document found:
#   1 TEXT/PLAIN  2 APPLICATION/OCTET-STREAM  3 MESSAGE/RFC822  3.1 TEXT/PLAIN
#   3.2 APPLICATION/OCTET-STREAM  4 MULTIPART/MIXED  4.1 IMAGE/GIF  4.2 MESSAGE/RFC822
#   4.2.1 TEXT/PLAIN  4.2.2 MULTIPART/ALTERNATIVE  4.2.2.1 TEXT/PLAIN  4.2.2.2 TEXT/RICHTEXT
RFC3501_PARTS = ["1", "3.1", "4.2.1", "4.2.2.1", "4.2.2.2"]


def _html(section: str) -> EmailMessage:
    part = EmailMessage()
    part.set_content(f'<a href="http://e.example/{section}">{section}</a>', subtype="html")
    return part


def _binary(subtype: str) -> EmailMessage:
    part = EmailMessage()
    part.set_content(b"GIF89a", maintype="image" if subtype == "gif" else "application",
                     subtype=subtype)  # fmt: skip
    return part


def _multipart(subtype: str, *parts: EmailMessage) -> EmailMessage:
    message = EmailMessage()
    message.make_mixed() if subtype == "mixed" else message.make_alternative()
    for part in parts:
        message.attach(part)
    return message


def _rfc822(message: EmailMessage) -> EmailMessage:
    part = EmailMessage()
    part.set_content(message)  # message/rfc822
    return part


def _rfc3501_message() -> bytes:
    inner_3 = _multipart("mixed", _html("3.1"), _binary("octet-stream"))
    inner_42 = _multipart(
        "mixed", _html("4.2.1"), _multipart("alternative", _html("4.2.2.1"), _html("4.2.2.2"))
    )
    message = _multipart(
        "mixed",
        _html("1"),
        _binary("octet-stream"),
        _rfc822(inner_3),
        _multipart("mixed", _binary("gif"), _rfc822(inner_42)),
    )
    return message.as_bytes(policy=email.policy.SMTP)


def test_mime_part_paths_are_imaps_on_rfc3501s_example() -> None:
    links = extract_links(_rfc3501_message(), name="m.eml")
    assert [(link.url, link.part) for link in links] == [
        (f"http://e.example/{section}", section) for section in RFC3501_PARTS
    ]
    assert {link.file for link in links} == {"m.eml"}


def test_a_message_that_is_not_multipart_is_part_1_and_so_is_a_forwarded_ones_body() -> None:
    single = _html("x").as_bytes(policy=email.policy.SMTP)
    assert {link.part for link in extract_links(single)} == {"1"}
    forwarded = _multipart("mixed", _binary("octet-stream"), _rfc822(_html("2.1")))
    assert [link.part for link in extract_links(forwarded.as_bytes())] == ["2.1"]


CB = "http://contentbase.example/cb/"


def test_mime_part_paths_on_the_nested_fixtures() -> None:
    links = extract_links(CONTAINERS / "mail-nested-bases.eml", name="n")
    # a part, a message/rfc822 holding multipart/alternative (text/plain, then HTML), a part
    assert sorted(_documents(links).items()) == [
        # page_url: each part's base headers resolved, outermost first (RFC 1808 §3.2); of
        # one entity's, Content-Base before Content-Location, as its base
        ("n#http://location.example/loc/page.html", Origin("n", part="3", page_url=CB)),
        ("n#part-1", Origin("n", part="1", page_url="http://base.example/a/b/")),
        # the label counts the rfc822 as a level
        ("n#part-2.1.2", Origin("n", part="2.2", page_url="http://base.example/a/b/sub/")),
    ]
    mhtml = extract_links(CONTAINERS / "mhtml-layers.mhtml", name="h")
    assert [origin.part for origin in _documents(mhtml).values()] == ["1", "2", "3"]


def test_a_plain_file_gives_its_file_alone() -> None:
    links = extract_links(FIXTURES / "html" / "base-late.html", name="page.html")
    assert {link.origin for link in links} == {Origin("page.html")}


def test_jsonl_has_every_field_always_and_csv_the_twelve_unless_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(CONTAINERS / "mail-nested-bases.eml")
    assert main(["extract", path, "--format", "jsonl", "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {tuple(record) for record in records} == {FIELDS}
    assert {record["offset"] for record in records} == {None}
    assert main(["extract", path, "--format", "csv", "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == ",".join(DEFAULT_FIELDS)
    warc_path = str(CONTAINERS / "crawl.warc")
    assert main(["extract", warc_path, "--format", "tsv", "-q", "--fields", "offset,length"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[:3] == ["offset\tlength", "495\t623", "495\t623"]
    assert main(["extract", path, "--format", "tsv", "-q", "--fields", "part,offset"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["part\toffset", "1\t"]  # None: empty


def test_dataflow_rows_carry_the_origin() -> None:
    assert (*OWN_FIELDS, *ORIGIN_FIELDS, "warc") == ROW_FIELDS
    path = str(CONTAINERS / "crawl.warc.gz")
    rows = [dict(zip(ROW_FIELDS, row, strict=True)) for row in iter_warc_links(path)]
    assert rows[0]["offset"] == 374 and rows[0]["length"] == 473
    assert rows[0]["record_id"] == "<urn:uuid:00000000-0000-0000-0000-000000000003>"
    assert {row["file"] for row in rows} == {row["warc"] for row in rows} == {path}
    assert all(isinstance(row["problems"], list) for row in rows)


def test_a_link_made_by_hand_has_no_origin() -> None:
    link = Link("u", "r", "b", "retrieval", "a", "href", 1, "d", "", "", "link", ())
    assert link.origin == Origin() and link.file is None and link.offset is None
    assert link.as_dict()["part"] is None


def _reference_table() -> list[tuple[str, str]]:
    """docs/reference.md's table of the link record: (field, type) per row, in order."""
    text = (FIXTURES.parent / "docs" / "reference.md").read_text(encoding="utf-8")
    section = text.split("## The link record\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| `")]
    return [(cells[0].strip("| `"), cells[1]) for cells in rows]


_JSON_TYPES = {
    "string": str,
    "integer": int,
    "boolean": bool,
    "null": type(None),
    "list of strings": list,
}


def test_the_reference_table_is_the_record() -> None:
    from baselinks.resolve.link import CHOOSABLE

    table = _reference_table()
    assert tuple(field for field, _ in table) == CHOOSABLE  # the computed fields after them
    declared = {field: {_JSON_TYPES[t] for t in kind.split(" or ")} for field, kind in table}
    # the types of every value of every golden file (containers: the origin's too)
    seen: dict[str, set[type]] = {field: set() for field in FIELDS}
    for path in sorted(FIXTURES.glob("**/expected/*.jsonl")) + sorted(
        FIXTURES.glob("html/*.jsonl")
    ):
        for line in path.read_text(encoding="utf-8").splitlines():
            for field, value in json.loads(line).items():
                seen[field].add(type(value))
    for field in FIELDS:
        assert seen[field], field  # every field occurs in some golden file
        assert seen[field] <= declared[field], field


def test_every_link_of_a_record_has_its_origin_header_srcdoc_and_style_sheet_too() -> None:
    data = warc(
        [
            (
                "http://e.example/p",
                "text/html",
                b'<iframe srcdoc="<a href=in.html>x</a>"></iframe>',
            ),
            ("http://e.example/s.css", "text/css", b"body { background: url(bg.png) }"),
        ],
        ("Link", "</h.css>; rel=stylesheet"),
    )
    links = extract_links(data, name="w")
    index = _index(data)
    by_url: dict[str, Link] = {}
    for link in links:
        by_url.setdefault(link.url, link)  # the Link header is the sheet's too: the page's first
    page, sheet = sorted({link.offset for link in links})
    assert index[page][2] == "http://e.example/p" and index[sheet][2] == "http://e.example/s.css"
    assert by_url["http://e.example/h.css"].offset == page  # the HTTP Link header's
    assert by_url["http://e.example/in.html"].offset == page  # the srcdoc document's
    assert by_url["http://e.example/in.html"].document == "w#http://e.example/p#srcdoc@1"
    assert by_url["http://e.example/bg.png"].offset == sheet  # the style sheet's
    assert {link.length for link in links} == {index[page][0], index[sheet][0]}
