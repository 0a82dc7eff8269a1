"""Structure-aware fuzzing of the container readers (WARC/ARC, gzip, MIME/MHTML, HTTP).

    python fuzz/fuzz.py [--count 20000] [--seed 1] [--jobs 1] [--timeout 30] [--keep DIR]

Each seed (every file of fixtures/containers: hand-made and real WARC, MHTML and e-mail files)
is cut into its units (the gzip members of a .warc.gz, the records of a WARC, the parts of a
MIME message between delimiter lines) and each unit's documents are counted. A mutation then
damages some units and leaves the others intact:

    flip         1 to 8 bytes changed              truncate     the file cut anywhere
    insert       junk, NULs, a record or delimiter line written in
    delete       a range of bytes removed          header       a header line duplicated,
    length       a Content-Length made wrong                    or one without a colon added
    splice       a unit dropped, duplicated, swapped with another, or taken from another seed
    gzip         a member split in two, two joined, an empty one added, one recompressed,
                 junk inside or after one, its header damaged
    boundary     a MIME delimiter line damaged

Every mutated file is read by the library in a child process (address space capped with
RLIMIT_AS, a time limit per file: a child that does not answer is killed and restarted). A file
counts as a finding when reading it

    raises (a traceback)                 reports an "internal error"
    hangs (no answer in --timeout)       writes to stderr itself (a library's stray warning)
    grows the child's peak memory by more than 10 times the input (64 MiB at least: lxml's
    tree alone takes some 30 bytes per byte of markup, docs/guide/failures.md, "Limits")
    gives fewer documents than the units it left intact hold, with no error (a silent loss)

Findings are saved with their mutation in --keep (default: a temporary folder, printed).
tests/test_fuzz.py runs a short fixed-seed round of this in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import random
import re
import resource
import select
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fixtures" / "containers"
NOT_SEEDS = {"index.tsv", "make_warc.py"}
MEMORY_CAP = 2 << 30  # RLIMIT_AS of a child
MEMORY_FLOOR = 64 << 20
FINDINGS = ("traceback", "internal error", "hang", "stray stderr", "memory", "silent loss")


# --- seeds and their units ------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    docs: int  # documents the unit holds when read alone (WARC) or by its headers (MIME)
    line: bytes = b""  # a MIME unit's delimiter line
    holds_others: bool = False  # a MIME unit whose headers make the parts after it parts


@dataclass(frozen=True)
class Seed:
    name: str
    data: bytes
    kind: str  # "gzip-members", "records", "mime", "whole"
    units: tuple[Unit, ...]
    docs: int  # documents of the intact file


def count_documents(data: bytes) -> tuple[int, int]:
    """Documents and errors when ``data`` is read (in this process)."""
    from baselinks import extract_links
    from baselinks.api import Summary

    summary = Summary()
    errors: list[object] = []
    # a warning (an oddity repaired, nothing lost) is no error
    extract_links(data, name="seed", on_error=errors.append, on_warning=id, summary=summary)
    return summary.documents, len(errors)


def _members(data: bytes) -> list[tuple[int, int]] | None:
    spans = []
    start = 0
    while start < len(data):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            inflater.decompress(data[start:])
        except zlib.error:
            return None
        if not inflater.eof:
            return None
        end = len(data) - len(inflater.unused_data)
        spans.append((start, end))
        start = end
    return spans


_RECORD_START = re.compile(
    rb"(?:^|(?<=\n))(?:WARC/\d\.\d+\r?\n|[a-z]+:[^ \r\n]* [^ \r\n]+ \d{14} [^\r\n]*\r?\n)"
)
_DELIMITER = re.compile(rb"(?:^|(?<=\n))--[^\r\n]{1,200}\r?\n")
_HTML_TYPE = re.compile(rb"content-type:[ \t]*(?:text/html|application/xhtml\+xml)", re.I)
_CONTAINER_TYPE = re.compile(rb"content-type:[ \t]*(?:multipart/|message/)", re.I)


def _units(data: bytes) -> tuple[str, list[Unit]]:
    whole = [Unit(0, len(data), count_documents(data)[0])]
    members = _members(data) if data.startswith(b"\x1f\x8b") else None
    if members and len(members) > 1:
        return "gzip-members", [Unit(a, b, count_documents(data[a:b])[0]) for a, b in members]
    if data.lstrip().startswith((b"WARC/", b"filedesc://")):
        starts = [m.start() for m in _RECORD_START.finditer(data)]
        if len(starts) > 1 and starts[0] == len(data) - len(data.lstrip()):
            spans = list(zip([0, *starts[1:]], [*starts[1:], len(data)], strict=True))
            return "records", [Unit(a, b, count_documents(data[a:b])[0]) for a, b in spans]
    delimiters = list(_DELIMITER.finditer(data))
    if delimiters and data[:1].isalpha():
        starts = [0] + [m.start() for m in delimiters]
        units = []
        for index, (a, b) in enumerate(zip(starts, [*starts[1:], len(data)], strict=True)):
            block = data[a:b].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
            line = delimiters[index - 1].group().rstrip() if index else b""
            holds = index == 0 or _CONTAINER_TYPE.search(block) is not None
            units.append(Unit(a, b, 1 if _HTML_TYPE.search(block) else 0, line, holds))
        return "mime", units
    return "whole", whole


def load_seeds() -> list[Seed]:
    seeds = []
    for path in sorted(SEEDS.iterdir()):
        if not path.is_file() or path.name in NOT_SEEDS:
            continue
        data = path.read_bytes()
        kind, units = _units(data)
        docs = count_documents(data)[0]
        if sum(unit.docs for unit in units) != docs:  # the split does not explain the file
            kind, units = "whole", [Unit(0, len(data), docs)]
        seeds.append(Seed(path.name, data, kind, tuple(units), docs))
    return seeds


# --- mutations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    seed: str
    how: str  # the mutation and its parameters
    data: bytes
    expected: int  # documents the intact units hold: fewer, with no error, is a silent loss


def _touched(seed: Seed, positions: list[int]) -> set[int]:
    touched = set()
    for position in positions:
        for index, unit in enumerate(seed.units):
            if unit.start <= position < unit.end or (position == unit.end == len(seed.data)):
                touched.add(index)
                if position == unit.start and index:
                    touched.add(index - 1)  # between two units: the one before may end there
                if seed.kind == "mime" and position >= unit.end - 2:
                    touched.add(index + 1)  # RFC 2046: the line break belongs to the delimiter
    return touched


def _intact(seed: Seed, touched: set[int]) -> int:
    touched = {i for i in touched if i < len(seed.units)}
    if any(seed.units[i].holds_others for i in touched):
        return 0  # the headers that make the parts after them parts: any of them may go
    return sum(unit.docs for index, unit in enumerate(seed.units) if index not in touched)


JUNK = (
    b"\x00" * 16,
    b"\r\n",
    b"garbage\r\n",
    b"WARC/1.0\r\n",
    b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999\r\n\r\n",
    b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
    b"--\r\n",
    b'Content-Type: multipart/mixed; boundary="\\"\r\n\r\n',
    b"\r\n--b\r\n\r\n",
    "é\u2028\ufeff".encode(),
    bytes(range(256)),
)


def m_flip(rng: random.Random, seed: Seed) -> Mutant:
    data = bytearray(seed.data)
    positions = sorted(rng.randrange(len(data)) for _ in range(rng.randint(1, 8)))
    for position in positions:
        data[position] = rng.randrange(256)
    return Mutant(
        seed.name, f"flip {positions}", bytes(data), _intact(seed, _touched(seed, positions))
    )


def m_truncate(rng: random.Random, seed: Seed) -> Mutant:
    if rng.random() < 0.3:  # in the last bytes (a gzip trailer, the closing boundary)
        cut = max(0, len(seed.data) - rng.randint(1, 16))
    else:
        cut = rng.randrange(len(seed.data))
    expected = sum(u.docs for u in seed.units if u.end <= cut)
    return Mutant(seed.name, f"truncate at {cut}", seed.data[:cut], expected)


def m_insert(rng: random.Random, seed: Seed) -> Mutant:
    junk = rng.choice(JUNK) * rng.choice((1, 1, 3))
    if rng.random() < 0.5:
        position = rng.choice([u.start for u in seed.units] + [len(seed.data)])
    else:
        position = rng.randrange(len(seed.data) + 1)
    data = seed.data[:position] + junk + seed.data[position:]
    expected = _intact(seed, _touched(seed, [position]))
    return Mutant(seed.name, f"insert {junk[:24]!r} at {position}", data, expected)


def m_delete(rng: random.Random, seed: Seed) -> Mutant:
    start = rng.randrange(len(seed.data))
    end = min(len(seed.data), start + rng.choice((1, 2, 10, 100, 1000)))
    touched = {i for i, u in enumerate(seed.units) if u.start < end and start < u.end}
    touched |= _touched(seed, [start, max(start, end - 1)])  # (the line break before a unit)
    data = seed.data[:start] + seed.data[end:]
    return Mutant(seed.name, f"delete {start}-{end}", data, _intact(seed, touched))


_HEADER = re.compile(rb"(?m)^[A-Za-z][A-Za-z0-9-]{0,40}:[^\r\n]*\r?\n")


def m_header(rng: random.Random, seed: Seed) -> Mutant:
    headers = list(_HEADER.finditer(seed.data))
    if not headers:
        return m_flip(rng, seed)
    match = rng.choice(headers)
    line = match.group()
    choice = rng.randrange(4)
    if choice == 0:
        extra = line  # the same header twice
    elif choice == 1:
        name = line.split(b":", 1)[0]
        extra = (
            name + b": " + rng.choice((b"", b"text/html", b"0", b"x" * 300, b"\xff\xfe")) + b"\r\n"
        )
    elif choice == 2:
        extra = b"a header line without a colon\r\n"
    else:
        extra = line.rstrip(b"\r\n") + b"\r\n" + b" folded" * rng.randint(1, 50) + b"\r\n"
        data = seed.data[: match.start()] + extra + seed.data[match.end() :]
        touched = _touched(seed, [match.start()])
        return Mutant(seed.name, f"header fold at {match.start()}", data, _intact(seed, touched))
    data = seed.data[: match.end()] + extra + seed.data[match.end() :]
    touched = _touched(seed, [match.start(), match.end()])
    return Mutant(
        seed.name, f"header {extra[:40]!r} after {match.start()}", data, _intact(seed, touched)
    )


_LENGTH = re.compile(rb"(?i)(content-length:[ \t]*)(\d+)")


def m_length(rng: random.Random, seed: Seed) -> Mutant:
    lengths = list(_LENGTH.finditer(seed.data))
    if not lengths:
        return m_header(rng, seed)
    match = rng.choice(lengths)
    value = int(match.group(2))
    new = rng.choice(
        (
            str(value + rng.randint(1, 50)),
            str(max(0, value - rng.randint(1, 50))),
            "0",
            "-1",
            "99999999999",
            "abc",
            "",
            str(value) + " " + str(value),
        )
    ).encode()
    data = seed.data[: match.start(2)] + new + seed.data[match.end(2) :]
    touched = _touched(seed, [match.start()])
    return Mutant(seed.name, f"length {new!r} at {match.start(2)}", data, _intact(seed, touched))


def m_splice(rng: random.Random, seed: Seed, others: list[Seed]) -> Mutant:
    units = list(seed.units)
    if len(units) < 2 or seed.kind == "whole":
        return m_insert(rng, seed)
    movable = [i for i, u in enumerate(units) if i or seed.kind != "mime"]
    if seed.kind == "mime":  # not the closing delimiter's unit: what follows it is epilogue
        movable = [i for i in movable if not units[i].line.endswith(b"--")]
    if not movable:
        return m_insert(rng, seed)
    pieces = [seed.data[u.start : u.end] for u in units]
    docs = [u.docs for u in units]
    action = rng.choice(("drop", "duplicate", "swap", "graft"))
    i = rng.choice(movable)
    if action == "drop":
        del pieces[i], docs[i]
    elif action == "duplicate":
        pieces.insert(i, pieces[i])
        docs.insert(i, docs[i])
    elif action == "swap":
        same = [j for j in movable if j != i and units[j].line == units[i].line]
        if not same:
            return m_insert(rng, seed)
        j = rng.choice(same)
        if units[j].holds_others:
            i, j = j, i
        pieces[i], pieces[j] = pieces[j], pieces[i]
        docs[i], docs[j] = docs[j], docs[i]
    else:
        donors = [o for o in others if o.kind == seed.kind and o.kind != "mime" and o is not seed]
        if not donors:
            return m_insert(rng, seed)
        donor = rng.choice(donors)
        unit = rng.choice(donor.units)
        pieces.insert(i, donor.data[unit.start : unit.end])
        docs.insert(i, unit.docs)
        action += f" from {donor.name}"
    expected = sum(docs)
    if units[i].holds_others:  # the parts after it were its parts: they may go with it
        expected = 0
    return Mutant(seed.name, f"splice {action} unit {i}", b"".join(pieces), expected)


def m_gzip(rng: random.Random, seed: Seed) -> Mutant:
    if seed.kind != "gzip-members":
        return m_flip(rng, seed)
    units = list(seed.units)
    pieces = [seed.data[u.start : u.end] for u in units]
    docs = [u.docs for u in units]
    i = rng.randrange(len(units))
    content = zlib.decompress(pieces[i], 16 + zlib.MAX_WBITS)
    action = rng.choice(
        ("split", "join", "empty", "recompress", "junk inside", "junk after", "header")
    )
    if action == "split" and len(content) > 1:
        cut = rng.randrange(1, len(content))
        pieces[i] = gzip.compress(content[:cut], mtime=0) + gzip.compress(content[cut:], mtime=0)
        docs[i] = 0
    elif action == "join" and i + 1 < len(pieces):
        after = zlib.decompress(pieces[i + 1], 16 + zlib.MAX_WBITS)
        pieces[i : i + 2] = [gzip.compress(content + after, mtime=0)]
        docs[i : i + 2] = [0]
    elif action == "empty":
        pieces.insert(i, gzip.compress(b"", mtime=0) * rng.randint(1, 20))
        docs.insert(i, 0)
    elif action == "recompress":
        pieces[i] = gzip.compress(content, compresslevel=rng.randint(0, 9), mtime=0)
    elif action == "junk inside":
        pieces[i] = gzip.compress(content + rng.choice(JUNK), mtime=0)
        docs[i] = 0
    elif action == "junk after":
        pieces[i] += rng.choice(JUNK)
    else:
        damaged = bytearray(pieces[i])
        damaged[rng.randrange(min(10, len(damaged)))] ^= 1 << rng.randrange(8)
        pieces[i] = bytes(damaged)
        docs[i] = 0
    return Mutant(seed.name, f"gzip {action} member {i}", b"".join(pieces), sum(docs))


def m_boundary(rng: random.Random, seed: Seed) -> Mutant:
    lines = [i for i, u in enumerate(seed.units) if u.line]
    if seed.kind != "mime" or not lines:
        return m_header(rng, seed)
    i = rng.choice(lines)
    unit = seed.units[i]
    line = bytearray(unit.line)
    position = rng.randrange(len(line))
    line[position] = rng.choice(b'"\\-x\x00 ')
    data = seed.data[: unit.start] + bytes(line) + seed.data[unit.start + len(unit.line) :]
    touched = {i - 1, i}  # the part before takes the damaged part in
    return Mutant(seed.name, f"boundary {bytes(line)!r} unit {i}", data, _intact(seed, touched))


MUTATIONS: dict[str, Callable[..., Mutant]] = {
    "flip": m_flip,
    "truncate": m_truncate,
    "insert": m_insert,
    "delete": m_delete,
    "header": m_header,
    "length": m_length,
    "splice": m_splice,
    "gzip": m_gzip,
    "boundary": m_boundary,
}


def mutants(seeds: list[Seed], count: int, seed: int) -> Iterator[Mutant]:
    rng = random.Random(seed)
    for _ in range(count):
        chosen = rng.choice(seeds)
        name = rng.choice(list(MUTATIONS))
        mutate = MUTATIONS[name]
        yield mutate(rng, chosen, seeds) if name == "splice" else mutate(rng, chosen)


# --- the child: reads files, reports what happened ------------------------------------------


def _peak_reset() -> int:
    """Reset the peak RSS (Linux clear_refs), and return the current RSS in bytes."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    return _status("VmRSS")


def _status(field: str) -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _errors_of(path: str, summary: object, urls: list[str] | None = None) -> list[object]:
    from baselinks import iter_links

    errors: list[object] = []
    # the errors alone: documents lost with no more than a warning said are a silent loss
    links = iter_links(path, on_error=errors.append, on_warning=id, summary=summary)  # type: ignore[arg-type]
    for link in links:
        if urls is not None:
            urls.append(link.url)
    return errors


def _outputs(path: str) -> dict[str, str]:
    """The records of ``path`` by the library and by the command line (-j 1 and -j 2), as
    digests of their JSON Lines: the differential family compares them (and the pure path's,
    from a child with BASELINKS_PURE=1)."""
    import hashlib

    from baselinks import extract_links
    from baselinks.cli import main
    from baselinks.write.formats import write_jsonl

    text = io.StringIO()
    write_jsonl(extract_links(path, on_error=lambda error: None), text)
    digests = {"library": hashlib.sha256(text.getvalue().encode()).hexdigest()}
    with tempfile.TemporaryDirectory(prefix="baselinks-fuzz-out-") as folder:
        for jobs in ("1", "2"):
            out = os.path.join(folder, f"j{jobs}.jsonl")
            main(["extract", "-q", "--format", "jsonl", "-j", jobs, "-o", out, path])
            with open(out, "rb") as written:
                digests[f"cli -j {jobs}"] = hashlib.sha256(written.read()).hexdigest()
    return digests


def _command_line_errors(path: str) -> list[str]:
    from baselinks.cli import main

    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        main(["extract", "-q", "-o", os.devnull, path])
    return said.getvalue().splitlines()


def child() -> None:
    """Read one request per line of stdin (a path; or JSON: {"path", "mode"}, the mode "read",
    "diff", "cli" or "formats"); answer one JSON line per file on stdout."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    from baselinks.api import Summary

    answer = sys.stdout
    for line in sys.stdin:
        request = json.loads(line) if line.startswith("{") else {"path": line.rstrip("\n")}
        path, mode = request["path"], request.get("mode", "read")
        summary = Summary()
        errors: list[str] = []
        urls: list[str] = []
        outputs: dict[str, str] = {}
        stray = io.StringIO()
        before = _peak_reset()
        started, cpu = time.perf_counter(), time.process_time()
        crash = ""
        with contextlib.redirect_stderr(stray), contextlib.redirect_stdout(stray):
            try:
                if mode == "diff":
                    outputs = _outputs(path)
                elif mode == "formats":  # fuzz_unicode.py: every format, what is wrong
                    import fuzz_unicode

                    errors = fuzz_unicode.format_problems(path)
                elif mode == "cli":  # the command line's output: its errors are its stderr
                    errors = _command_line_errors(path)
                else:
                    for error in _errors_of(path, summary, urls):
                        errors.append(str(error))
            except BaseException:  # what escapes is the finding
                crash = traceback.format_exc()
        grown = _status("VmHWM") - before
        result = {
            "documents": summary.documents,
            "errors": errors,
            "crash": crash,
            "stray": stray.getvalue(),
            "grown": grown,
            "urls": urls,
            "outputs": outputs,
            "seconds": time.perf_counter() - started,
            "cpu": time.process_time() - cpu,  # CPU time: what the shapes compare (fuzz_shapes)
        }
        answer.write(json.dumps(result) + "\n")
        answer.flush()


class Child:
    """A child process that reads files on request, restarted after a hang."""

    def __init__(self, timeout: float, src: Path = ROOT / "src", pure: bool = False) -> None:
        self.timeout = timeout
        self.src = src
        self.pure = pure  # BASELINKS_PURE=1: the pure-Python path
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            env = {**os.environ, "PYTHONPATH": str(self.src)}
            if self.pure:
                env["BASELINKS_PURE"] = "1"
            self.process = subprocess.Popen(
                [sys.executable, __file__, "--child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
        return self.process

    def read(self, path: str, mode: str = "read") -> dict[str, object] | None:
        """The child's answer for ``path``; None when it did not come in time (killed)."""
        process = self.start()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"path": path, "mode": mode}) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], self.timeout)
        line = process.stdout.readline() if ready else ""
        if not line:
            self.stop()
            return None
        return dict(json.loads(line))

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
            self.process = None


# --- the run --------------------------------------------------------------------------------


@dataclass
class Report:
    files: int = 0
    bytes: int = 0
    findings: Counter[str] | None = None
    by_mutation: Counter[str] | None = None
    seconds: float = 0.0
    examples: list[tuple[str, Mutant, str]] | None = None

    def __post_init__(self) -> None:
        self.findings = Counter({name: 0 for name in FINDINGS})
        self.by_mutation = Counter()
        self.examples = []


def classify(mutant: Mutant, result: dict[str, object] | None) -> list[tuple[str, str]]:
    """The findings for one file, each with a line of detail."""
    if result is None:
        return [("hang", "no answer in time")]
    found = []
    crash = str(result["crash"])
    errors = [str(e) for e in result["errors"]]  # type: ignore[attr-defined]
    if crash:
        found.append(("traceback", crash.strip().splitlines()[-1]))
    internal = [e for e in errors if "internal error" in e]
    if internal:
        found.append(("internal error", internal[0]))
    if result["stray"]:
        found.append(("stray stderr", str(result["stray"])[:200]))
    if int(result["grown"]) > max(10 * len(mutant.data), MEMORY_FLOOR):  # type: ignore[call-overload]
        found.append(("memory", f"peak grew by {result['grown']} bytes"))
    documents = int(result["documents"])  # type: ignore[call-overload]
    if documents < mutant.expected and not errors and not crash:
        found.append(("silent loss", f"{documents} documents, {mutant.expected} intact"))
    return found


def run(
    count: int,
    seed: int = 1,
    timeout: float = 30.0,
    keep: Path | None = None,
    progress: Callable[[Report], None] | None = None,
    src: Path = ROOT / "src",
) -> Report:
    seeds = load_seeds()
    report = Report()
    child_process = Child(timeout, src)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="baselinks-fuzz-") as work:
        path = Path(work) / "input"
        try:
            for number, mutant in enumerate(mutants(seeds, count, seed)):
                path.write_bytes(mutant.data)
                result = child_process.read(str(path))
                report.files += 1
                report.bytes += len(mutant.data)
                assert report.findings is not None and report.by_mutation is not None
                for finding, detail in classify(mutant, result):
                    report.findings[finding] += 1
                    report.by_mutation[mutant.how.split()[0]] += 1
                    assert report.examples is not None
                    if sum(1 for f, _, _ in report.examples if f == finding) < 20:
                        report.examples.append((finding, mutant, detail))
                    if keep is not None:
                        keep.mkdir(parents=True, exist_ok=True)
                        stem = f"{finding.replace(' ', '-')}-{number}-{mutant.seed}"
                        (keep / stem).write_bytes(mutant.data)
                        (keep / f"{stem}.txt").write_text(f"{mutant.how}\n{detail}\n")
                if progress is not None and report.files % 500 == 0:
                    report.seconds = time.monotonic() - started
                    progress(report)
        finally:
            child_process.stop()
    report.seconds = time.monotonic() - started
    return report


def summary(report: Report) -> str:
    assert report.findings is not None
    counts = ", ".join(f"{n:,} {name}" for name, n in report.findings.items())
    return (
        f"{report.files:,} mutated files ({report.bytes / 2**20:.1f} MiB) in "
        f"{report.seconds:.0f} s: {counts}"
    )


FAMILIES = ("mutate", "lost", "bounded", "differential", "unicode")


def run_families(
    families: tuple[str, ...],
    count: int,
    seed: int,
    long: bool = False,
    timeout: float = 30.0,
    src: Path = ROOT / "src",
) -> list[Any]:
    """The families of fuzz_families.py (and this module's mutations, "mutate", as one more),
    ``count`` cases each (bounded: every dimension at each size), at ``seed``; one
    fuzz_families.Family each, in order."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import fuzz_families

    done: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="baselinks-fuzz-") as folder:
        work = Path(folder)
        compiled, pure = Child(timeout, src), Child(timeout, src, pure=True)
        try:
            for name in families:
                if name == "mutate":
                    report = run(count, seed, timeout, src=src)
                    family = fuzz_families.Family("mutate", report.files)
                    assert report.findings is not None and report.examples is not None
                    family.findings.update({k: v for k, v in report.findings.items() if v})
                    family.examples += [(f, m.how, d) for f, m, d in report.examples]
                elif name == "lost":
                    family = fuzz_families.run_lost(compiled, work, count, seed, classify)
                elif name == "bounded":
                    family = fuzz_families.run_bounded(compiled, work, long, classify, MEMORY_FLOOR)
                elif name == "unicode":
                    family = fuzz_families.run_unicode(compiled, work, count, seed)
                else:
                    family = fuzz_families.run_differential(
                        (compiled, pure), work, _differential_inputs(count, seed)
                    )
                done.append(family)
        finally:
            compiled.stop()
            pure.stop()
    return done


def _differential_inputs(count: int, seed: int) -> list[tuple[str, bytes]]:
    """What the differential family reads: made archives damaged, fuzz.py's mutants, and
    each bounded dimension at its smallest, ``count`` in all."""
    import fuzz_families

    rng = random.Random(seed)
    inputs: list[tuple[str, bytes]] = [
        (f"{name} x1", make(1))
        for name, (make, mode) in fuzz_families.DIMENSIONS.items()
        if mode == "read" and len(make(1)) < 4 << 20
    ]
    third = max(1, (count - len(inputs)) // 2)
    inputs += [(case.how, case.data) for case in fuzz_families.lost_cases(rng, third)]
    inputs += [(m.how, m.data) for m in mutants(load_seeds(), max(0, count - len(inputs)), seed)]
    return inputs[:count]


def main() -> None:
    if "--child" in sys.argv:
        child()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--family",
        choices=(*FAMILIES, "all"),
        help="a family of fuzz/fuzz_families.py (or mutate, this module's), or all; "
        "without it, the mutations as before",
    )
    parser.add_argument(
        "--long",
        action="store_true",
        help="every family at length: 20,000 cases each (bounded: up to 64 times), and the "
        "time per byte of each dimension reported",
    )
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per file")
    parser.add_argument("--keep", type=Path, help="where findings are saved")
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the baselinks sources to fuzz (another checkout's src/, to compare)",
    )
    args = parser.parse_args()
    if args.long or args.family:
        chosen = FAMILIES if args.long or args.family == "all" else (args.family,)
        started = time.monotonic()
        families = run_families(chosen, args.count, args.seed, args.long, args.timeout, args.src)
        for family in families:
            print(family.line(), flush=True)
            for finding, case, detail in family.examples:
                print(f"  {finding}: {case[:100]}: {detail[:160]}")
            for note in family.notes:
                print(f"  {note}")
        print(f"{time.monotonic() - started:.0f} s")
        return
    keep = args.keep or Path(tempfile.mkdtemp(prefix="baselinks-fuzz-findings-"))
    report = run(
        args.count,
        args.seed,
        args.timeout,
        keep,
        progress=lambda r: print(summary(r), flush=True),
        src=args.src,
    )
    print(summary(report))
    assert report.examples is not None
    for finding, mutant, detail in report.examples:
        print(f"  {finding}: {mutant.seed}: {mutant.how[:100]}: {detail[:160]}")
    print(f"findings saved in {keep}")


if __name__ == "__main__":
    main()
