"""The fuzzing that checks the promise itself (issue 29), beside fuzz.py's mutation of real files:

    lost          archives and messages made here with known records and parts, each holding
                  one link of its own; damage of every kind (junk of many sorts, bytes
                  overwritten, a span deleted, the file cut) at random places and of random
                  sizes, spans over 64 KiB and across the 64 KiB chunks of the search among
                  them. Every record wholly outside the damage must come back with its link,
                  and no span an error reports skipped may hold one.
    bounded       each reader against inputs grown 1, 4, 16 (and 64 with --long) times along
                  one dimension a header, a line, a boundary, a nesting, an attribute list or a
                  document's output can grow: under RLIMIT_AS, memory within 10 times the input
                  (64 MiB at least), and past a limit an error naming the file; with --long,
                  the time per byte from one size to the next (reported, never asserted). And
                  the shapes of issue 36 (fuzz_shapes.py), each read beside a benign baseline
                  of its size: its memory and CPU time in proportion to the baseline's.
    differential  every case of the others and of fuzz.py's mutations read by the library, by
                  the command line with -j 1 and -j 2, and by the pure-Python path: the same
                  records, byte for byte.
    unicode       lone surrogates and noncharacters in every form each reader decodes, through
                  the library and every format (fuzz_unicode.py): text scalar where it enters,
                  every output UTF-8 with its records whole.

Each file is read in a child process (fuzz.Child: RLIMIT_AS, a time limit, restarted after a
hang). ``python fuzz/fuzz.py --family lost --count 2000`` runs one family; ``--long`` runs
them all at length; tests/test_fuzz.py runs a short fixed-seed round of each in CI.
"""

from __future__ import annotations

import random
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# --- made inputs: records and parts with a link each ------------------------------------


@dataclass(frozen=True)
class Record:
    start: int
    end: int
    url: str  # the link it holds, resolved


@dataclass(frozen=True)
class Made:
    kind: str
    data: bytes
    records: tuple[Record, ...]


def _page(number: int, rng: random.Random) -> bytes:
    filler = bytes(rng.choice(b"abcdefghij \n") for _ in range(rng.choice((0, 50, 400, 3000))))
    return b"<p>%s</p><a href=/l%d>x</a>" % (filler, number)


def _warc_record(number: int, rng: random.Random) -> bytes:
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + _page(number, rng)
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.example/%d\r\n" % number
    head += b"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(
        body
    )
    return head + body + b"\r\n\r\n"


def _arc_record(number: int, rng: random.Random) -> bytes:
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + _page(number, rng)
    line = b"http://e.example/%d 1.2.3.4 20200101000000 text/html %d\n" % (number, len(body))
    return line + body + b"\n"


def make_archive(rng: random.Random, kind: str, count: int) -> Made:
    """A WARC (``warc``, or ``warc.gz`` one member per record) or ARC file of ``count`` records."""
    pieces: list[bytes] = []
    records: list[Record] = []
    position = 0
    if kind == "arc":
        version = b"1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n"
        header = b"filedesc://made.arc 0.0.0.0 20200101000000 text/plain %d\n" % len(version)
        header += version + b"\n"
        pieces.append(header)
        position = len(header)
    for number in range(count):
        record = _arc_record(number, rng) if kind == "arc" else _warc_record(number, rng)
        if kind == "warc.gz":
            record = zlib.compress(record, rng.choice((1, 6, 9)), 31)
        pieces.append(record)
        records.append(Record(position, position + len(record), f"http://e.example/l{number}"))
        position += len(record)
    return Made(kind, b"".join(pieces), tuple(records))


def make_message(rng: random.Random, count: int) -> Made:
    """An MHTML message of ``count`` HTML parts, each at its own Content-Location."""
    head = b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="=_b"\r\n\r\n'
    pieces = [head]
    records = []
    position = len(head)
    for number in range(count):
        part = (
            b"--=_b\r\nContent-Type: text/html\r\nContent-Location: http://m.example/%d/\r\n\r\n"
            % number
        )
        part += _page(number, rng) + b"\r\n"
        pieces.append(part)
        records.append(Record(position, position + len(part), f"http://m.example/{number}/x"))
        position += len(part)
    pieces.append(b"--=_b--\r\n")
    made = Made("mime", b"".join(pieces), tuple(records))
    # the page's link: /l<n> against the part's location
    fixed = tuple(Record(r.start, r.end, f"http://m.example/l{n}") for n, r in enumerate(records))
    return Made(made.kind, made.data, fixed)


# --- damage --------------------------------------------------------------------------------

JUNK: dict[str, Callable[[random.Random, int], bytes]] = {
    "random bytes": lambda rng, size: bytes(rng.randrange(256) for _ in range(size)),
    "letters": lambda rng, size: b"J" * size,
    "NULs": lambda rng, size: b"\x00" * size,
    "empty lines": lambda rng, size: b"\r\n" * (size // 2 + 1),
    "gzip magic": lambda rng, size: b"\x1f\x8b\x08" * (size // 3 + 1),
    "ARC lines": lambda rng, size: b"".join(
        b"http://junk.example/%d 1.2.3.4 20200101000000 text/html 99\n" % i
        for i in range(size // 55 + 1)
    ),
    "WARC lines": lambda rng, size: b"WARC/1.0\r\nWARC-Type: junk\r\n" * (size // 28 + 1),
}
# sizes of damage: small, and around the 64 KiB chunks of the resynchronisation's search
SIZES = (1, 3, 10, 100, 1000, 12_000, 52_000, 55_000, 64_000, 66_000, 70_000, 77_000, 140_000)


@dataclass(frozen=True)
class Damaged:
    made: Made
    how: str
    data: bytes
    intact: tuple[Record, ...]  # the records wholly outside the damage, where they are now


def damage(rng: random.Random, made: Made) -> Damaged:
    data, records = made.data, made.records
    action = rng.choice(("insert", "insert", "overwrite", "delete", "truncate"))
    size = rng.choice(SIZES)
    # a place: a record's edge, or anywhere
    edges = [r.start for r in records] + [r.end for r in records]
    at = rng.choice(edges) if rng.random() < 0.4 else rng.randrange(len(data) + 1)
    # MIME: the message's own headers are not damaged (every part is theirs)
    low = records[0].start if made.kind == "mime" else 0
    at = max(at, low)
    # a record is damaged by what touches it: in MIME the CRLF before a delimiter (RFC 2046:
    # it is the delimiter's); in ARC junk glued to its header line (the URL field it starts)
    margin = {"mime": 2, "arc": 1}.get(made.kind, 0)
    if action == "insert":
        name = rng.choice(list(JUNK))
        junk = JUNK[name](rng, size)[:size] if name != "ARC lines" else JUNK[name](rng, size)
        out = data[:at] + junk + data[at:]
        intact = [
            r if r.end <= at else Record(r.start + len(junk), r.end + len(junk), r.url)
            for r in records
            if r.end <= at or r.start - margin >= at
        ]
        return Damaged(made, f"insert {len(junk)} bytes of {name} at {at}", out, tuple(intact))
    end = min(len(data), at + size)
    if action == "truncate":
        end, at = len(data), at
    if action == "overwrite":
        out = data[:at] + bytes(rng.randrange(256) for _ in range(end - at)) + data[end:]
        shift = 0
    else:
        out = data[:at] + data[end:]
        shift = end - at
    intact = [
        r if r.end <= at else Record(r.start - shift, r.end - shift, r.url)
        for r in records
        if r.end <= at or r.start - margin >= end
    ]
    return Damaged(made, f"{action} bytes {at}-{end}", out, tuple(intact))


def lost_cases(rng: random.Random, count: int) -> Iterator[Damaged]:
    for _ in range(count):
        kind = rng.choice(("warc", "warc.gz", "warc.gz", "arc", "mime"))
        records = rng.choice((3, 10, 40, 200))
        made = make_message(rng, records) if kind == "mime" else make_archive(rng, kind, records)
        yield damage(rng, made)


_SKIPPED = re.compile(r"bytes (\d+)-(\d+) skipped")


def check_lost(case: Damaged, result: dict[str, Any]) -> list[tuple[str, str]]:
    """The findings of one damaged file: intact records lost, spans said skipped that hold
    one, and what fuzz.classify finds of any file."""
    found = []
    urls = set(result["urls"])
    lost = [r for r in case.intact if r.url not in urls]
    if lost:
        first = lost[0]
        found.append(
            ("intact record lost", f"{len(lost)} of {len(case.intact)}; first at {first.start}")
        )
    for error in result["errors"]:
        for match in _SKIPPED.finditer(error):
            start, end = int(match.group(1)), int(match.group(2))
            inside = [r for r in case.intact if start <= r.start and r.end <= end]
            if inside:
                found.append(
                    ("span over an intact record", f"{start}-{end} holds {inside[0].start}")
                )
    return found


# --- bounded: each dimension grown -------------------------------------------------------


def _gzip_of(head: bytes, piece: bytes, times: int) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    packed = [packer.compress(head), *(packer.compress(piece) for _ in range(times))]
    return b"".join([*packed, packer.flush()])


_RECORD = _warc_record(0, random.Random(0))
_GZ_RECORD = zlib.compress(_RECORD, 6, 31)


def _response_record(http_head: bytes) -> bytes:
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + http_head + b"\r\n<a href=x>"
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.example/\r\n"
    return head + b"Content-Length: %d\r\n\r\n" % len(body) + body + b"\r\n\r\n"


def _nested(levels: int, boundary: bool) -> bytes:
    inner = b"Content-Type: text/html\r\n\r\n<a href=x>"
    for level in range(levels):
        parameter = b'; boundary="b%d"' % level if boundary else b""
        inner = (
            b"Content-Type: multipart/mixed" + parameter + b"\r\n\r\n--b%d\r\n" % level
            + inner + b"\r\n--b%d--\r\n" % level
        )  # fmt: skip
    return b"MIME-Version: 1.0\r\n" + inner


def _mime_boundary(length: int) -> bytes:
    b = b"b" * length
    return (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="' + b + b'"\r\n\r\n--'
        + b + b"\r\nContent-Type: text/html\r\n\r\n<a href=x>\r\n--" + b + b"--\r\n"
    )  # fmt: skip


# dimension: (input of growth k, the base size; "cli": read by the command line, whose
# output per document is bounded, not by the library)
DIMENSIONS: dict[str, tuple[Callable[[int], bytes], str]] = {
    "WARC header line (gzip)": (
        lambda k: _GZ_RECORD + _gzip_of(b"WARC/1.0\r\nX: ", b"a" * 65_536, k) + _GZ_RECORD,
        "read",
    ),
    "WARC header lines (gzip)": (
        lambda k: _GZ_RECORD + _gzip_of(b"WARC/1.0\r\n", b"a: b\r\n" * 2_000, k) + _GZ_RECORD,
        "read",
    ),
    "WARC folded header lines": (
        lambda k: (
            _RECORD.replace(b"WARC-Type", b"X: a\r\n" + b" b\r\n" * (500 * k) + b"WARC-Type", 1)
            + _RECORD
        ),
        "read",
    ),
    "HTTP header lines": (lambda k: _response_record(b"a: b\r\n" * (1_000 * k)) + _RECORD, "read"),
    "HTTP header line": (
        lambda k: _response_record(b"X: " + b"a" * (16_000 * k) + b"\r\n"),
        "read",
    ),
    "empty lines between records": (lambda k: _RECORD + b"\r\n" * (100_000 * k) + _RECORD, "read"),
    "gzip magic in junk": (
        lambda k: _GZ_RECORD + b"\x1f\x8b\x08" * (20_000 * k) + _GZ_RECORD,
        "read",
    ),
    "ARC header line": (
        lambda k: (
            b"http://e.example/ 1.2.3.4 20200101000000 text/html 10 "
            + b"a" * (16_000 * k)
            + b"\n<a href=x>\n"
        ),
        "read",
    ),
    "chunks of a chunked body": (
        lambda k: (
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"1\r\nx\r\n" * (5_000 * k)
            + b"a\r\n<a href=x>\r\n0\r\n\r\n"
        ),
        "read",
    ),
    "MIME boundary": (lambda k: _mime_boundary(500 * k), "read"),
    "MIME nesting, no boundary": (lambda k: _nested(2 * k, boundary=False), "read"),
    "MIME nesting": (lambda k: _nested(2 * k, boundary=True), "read"),
    "MIME header lines": (
        lambda k: (
            b"MIME-Version: 1.0\r\n"
            + b"X-A: b\r\n" * (1_000 * k)
            + b"Content-Type: text/html\r\n\r\n<a href=x>"
        ),
        "read",
    ),
    "HTML nesting": (lambda k: b"<div>" * (500 * k) + b"<a href=x>", "read"),
    "attributes on one element": (
        lambda k: b"<a " + b"".join(b"a%d=1 " % i for i in range(100 * k)) + b"href=x><a href=y>",
        "read",
    ),
    "SVG attributes on one element": (
        lambda k: (
            b'<svg xmlns="http://www.w3.org/2000/svg"><a '
            + b"".join(b'a%d="1" ' % i for i in range(100 * k))
            + b'href="x"/></svg>'
        ),
        "svg",
    ),
    "a long <base> and many links (output)": (
        lambda k: (
            b'<base href="http://e.com/' + b"a" * 10_000 + b'/">' + b"<a href=x>y</a>" * (250 * k)
        ),
        "cli",
    ),
    "one long line of text": (lambda k: b"<p>" + b"x" * (200_000 * k) + b"<a href=x>", "read"),
}
GROWTH = (1, 4, 16)
GROWTH_LONG = (1, 4, 16, 64)


@dataclass
class Family:
    """One family's run: cases read, findings by kind, a few examples of each."""

    name: str
    cases: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    examples: list[tuple[str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def found(self, finding: str, case: str, detail: str) -> None:
        self.findings[finding] += 1
        if sum(1 for f, _, _ in self.examples if f == finding) < 10:
            self.examples.append((finding, case, detail))

    def line(self) -> str:
        counts = ", ".join(f"{n:,} {name}" for name, n in sorted(self.findings.items()))
        return f"{self.name}: {self.cases:,} cases, {sum(self.findings.values()):,} findings" + (
            f" ({counts})" if counts else ""
        )


def suffix_of(mode: str) -> str:
    return {"svg": ".svg", "cli": ".html", "read": ""}[mode]


def run_lost(child: Any, work: Path, count: int, seed: int, classify: Any) -> Family:
    family = Family("nothing lost")
    rng = random.Random(seed)
    path = work / "lost"
    for case in lost_cases(rng, count):
        path.write_bytes(case.data)
        result = child.read(str(path))
        family.cases += 1
        label = f"{case.made.kind} of {len(case.made.records)}: {case.how}"
        if result is None:
            family.found("hang", label, "no answer in time")
            continue
        for finding, detail in [*_generic(classify, case.data, result), *check_lost(case, result)]:
            family.found(finding, label, detail)
    return family


def _generic(classify: Any, data: bytes, result: dict[str, Any]) -> list[tuple[str, str]]:
    # fuzz.classify's findings but the silent loss, which check_lost decides here
    from types import SimpleNamespace

    mutant = SimpleNamespace(data=data, expected=0)
    return [(f, d) for f, d in classify(mutant, result) if f != "silent loss"]


def run_bounded(child: Any, work: Path, long: bool, classify: Any, memory_floor: int) -> Family:
    family = Family("bounded")
    _run_dimensions(family, child, work, long, classify)
    _run_shapes(family, child, work, long, classify)
    return family


def _run_shapes(family: Family, child: Any, work: Path, long: bool, classify: Any) -> None:
    """Each shape of fuzz_shapes.py at each growth, then its baseline of the same size, in the
    same child: the findings of fuzz.classify, and those of fuzz_shapes.judge."""
    from fuzz_shapes import SHAPES, judge, judge_growth

    for name, shape in SHAPES.items():
        times: list[tuple[int, float, float]] = []
        for growth in GROWTH_LONG if long else GROWTH:
            data = shape.make(growth)
            label = f"{name} x{growth} ({len(data):,} bytes)"
            path = work / shape.file
            path.write_bytes(data)
            result = child.read(str(path))
            baseline = None
            if shape.baseline is not None:
                path.write_bytes(shape.baseline(growth))
                baseline = child.read(str(path))
            family.cases += 1
            if result is None or (shape.baseline is not None and baseline is None):
                family.found("hang", label, "no answer in time")
                continue
            # memory against the baseline where there is one, else issue 29's rule
            checked = _Mutant(data if baseline is None else b"x" * len(data))
            for finding, detail in classify(checked, result):
                if finding != "silent loss" and (finding != "memory" or baseline is None):
                    family.found(finding, label, detail)
            for finding, detail in judge(shape, growth, len(data), result, baseline):
                family.found(finding, label, detail)
            if baseline is not None:
                times.append((len(data), float(result["cpu"]), float(baseline["cpu"])))
        for finding, detail in judge_growth(times):
            family.found(finding, name, detail)


def _run_dimensions(family: Family, child: Any, work: Path, long: bool, classify: Any) -> None:
    for name, (make, mode) in DIMENSIONS.items():
        per_byte: list[tuple[int, float]] = []
        for growth in GROWTH_LONG if long else GROWTH:
            data = make(growth)
            path = work / f"bounded{suffix_of(mode)}"
            path.write_bytes(data)
            result = child.read(str(path), mode="cli" if mode == "cli" else "read")
            family.cases += 1
            label = f"{name} x{growth} ({len(data):,} bytes)"
            if result is None:
                family.found("hang", label, "no answer in time")
                continue
            for finding, detail in classify(_Mutant(data), result):
                if finding != "silent loss":
                    family.found(finding, label, detail)
            per_byte.append((len(data), float(result["seconds"])))
        if long and len(per_byte) >= 2:
            (small, t_small), (big, t_big) = per_byte[-2], per_byte[-1]
            ratio = (t_big / big) / max(t_small / small, 1e-12)
            family.notes.append(
                f"{name}: time per byte x{ratio:.2f} from {small:,} to {big:,} bytes"
            )
            if ratio > 3 and t_big > 0.5:
                family.found("time per byte grows", name, f"x{ratio:.1f}")


def run_unicode(child: Any, work: Path, count: int, seed: int) -> Family:
    """fuzz_unicode.py's cases, each read by the library and written in every format by the
    command line, in the child (mode "formats"): each problem it names is a finding."""
    from fuzz_unicode import cases

    family = Family("unicode")
    for case in cases(random.Random(seed), count):
        path = work / case.file
        path.write_bytes(case.data)
        result = child.read(str(path), mode="formats")
        family.cases += 1
        label = f"{case.reader}: {', '.join(f'U+{code:04X}' for code in case.codes)}"
        if result is None:
            family.found("hang", label, "no answer in time")
            continue
        if result["crash"]:
            family.found("traceback", label, str(result["crash"]).strip().splitlines()[-1])
        for problem in result["errors"]:
            family.found(str(problem).split(":")[0], label, str(problem))
    return family


@dataclass(frozen=True)
class _Mutant:
    data: bytes
    expected: int = 0
    how: str = ""


def run_differential(
    children: tuple[Any, Any], work: Path, inputs: list[tuple[str, bytes]]
) -> Family:
    """Each input read four ways: the library, the command line -j 1 and -j 2 (compiled
    path), and the library on the pure path; one digest each, all equal."""
    family = Family("differential")
    compiled, pure = children
    for label, data in inputs:
        path = work / "differential"
        path.write_bytes(data)
        one, other = compiled.read(str(path), mode="diff"), pure.read(str(path), mode="diff")
        family.cases += 1
        if one is None or other is None:
            family.found("hang", label, "no answer in time")
            continue
        crash = one["crash"] or other["crash"]
        if crash:
            family.found("traceback", label, str(crash).strip().splitlines()[-1])
            continue
        digests = {**one["outputs"], "pure library": other["outputs"]["library"]}
        if len(set(digests.values())) != 1:
            family.found(
                "outputs differ", label, ", ".join(f"{k} {v[:8]}" for k, v in digests.items())
            )
    return family
