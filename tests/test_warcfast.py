"""The fast WARC reader (load/containers/warcfast.py) against the careful path (warc.py over
warcio): the same entries, errors and warnings, byte for byte, on every archive of the fixtures
and on mutated ones (a fixed seed: fuzz/fuzz.py's mutations of its .warc.gz seeds); and an
intact file read by the fast reader alone."""

from __future__ import annotations

import importlib.util
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from baselinks.load.containers import warc, warcfast
from baselinks.load.containers.entries import Part

ROOT = Path(__file__).resolve().parent.parent
ARCHIVES = sorted(
    path
    for folder in ("containers", "discovery", "browser")
    for path in (ROOT / "fixtures" / folder).rglob("*")
    if path.is_file()
    and "expected" not in path.parts
    and path.name.endswith((".warc", ".warc.gz", ".arc", ".arc.gz", ".bad"))
)


def _entries(data: bytes, fast: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(warc, "FAST", fast)
    monkeypatch.delenv("BASELINKS_PURE", raising=False)
    return [repr(entry) for entry in warc.iter_records(io.BytesIO(data), "crawl.warc.gz")]


def _fast_alone(data: bytes) -> tuple[list[object], int | None]:
    reading = warcfast.fast_records(io.BytesIO(data), "crawl.warc.gz")
    entries: list[object] = []
    while True:
        try:
            entries.append(next(reading))
        except StopIteration as done:
            return entries, done.value


def test_the_fixtures_have_archives_of_each_kind() -> None:
    names = {path.name for path in ARCHIVES}
    assert {"crawl.warc.gz", "crawl-truncated.warc.gz", "example-wrong-chunks.warc.gz.bad"} <= names


@pytest.mark.parametrize("path", ARCHIVES, ids=[p.name for p in ARCHIVES])
def test_both_readers_give_the_same_entries(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    assert _entries(data, True, monkeypatch) == _entries(data, False, monkeypatch)


def test_an_intact_file_is_read_by_the_fast_reader_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = (ROOT / "fixtures" / "containers" / "crawl.warc.gz").read_bytes()
    entries, given = _fast_alone(data)
    assert given is None  # read to the end: the careful path is never started
    careful = _entries(data, False, monkeypatch)
    assert [repr(entry) for entry in entries] == careful
    # offsets and lengths: each record's gzip member, as `warcio index` writes them
    parts = [entry for entry in entries if isinstance(entry, Part)]
    assert parts and all(part.origin is not None for part in parts)
    for part in parts:
        assert part.origin is not None and part.origin.offset is not None
        assert part.origin.length is not None
        member = data[part.origin.offset : part.origin.offset + part.origin.length]
        assert member.startswith(b"\x1f\x8b")


def test_damage_hands_the_file_to_the_careful_path_after_the_records_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = (ROOT / "fixtures" / "containers" / "crawl-truncated.warc.gz").read_bytes()
    entries, given = _fast_alone(data)
    assert given is not None and given > 0  # the records before the cut
    both = _entries(data, True, monkeypatch)
    assert both == _entries(data, False, monkeypatch)
    assert both[: len(entries)] == [repr(entry) for entry in entries]
    assert any("cut short" in line for line in both)


@pytest.mark.parametrize("engine", sorted(warcfast.ENGINES))
def test_each_inflating_library_gives_the_same_entries(engine: str) -> None:
    data = (ROOT / "fixtures" / "containers" / "crawl.warc.gz").read_bytes()
    reading = warcfast.fast_records(io.BytesIO(data), "crawl.warc.gz", engine)
    zlib_reading = warcfast.fast_records(io.BytesIO(data), "crawl.warc.gz", "zlib")
    assert list(map(repr, reading)) == list(map(repr, zlib_reading))


def test_a_target_uri_warcio_rewrites_is_rewritten_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Wget 1.19's <...> and a URI with spaces: warcio strips the brackets and writes %20
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    for target in ("<http://example.com/a>", "http://example.com/b c", "http://example.com/d"):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        body = b'<a href="x y">x</a>'
        record = writer.create_warc_record(
            target, "response", payload=io.BytesIO(body), length=len(body), http_headers=http
        )
        record.rec_headers.replace_header("WARC-Target-URI", target)
        writer.write_record(record)
    data = out.getvalue()
    entries, given = _fast_alone(data)
    assert given is None
    assert [repr(entry) for entry in entries] == _entries(data, False, monkeypatch)
    names = [entry.name for entry in entries if isinstance(entry, Part)]
    assert names == [
        "crawl.warc.gz#http://example.com/a",
        "crawl.warc.gz#http://example.com/b%20c",
        "crawl.warc.gz#http://example.com/d",
    ]


def _fuzz() -> object:
    spec = importlib.util.spec_from_file_location("fuzz", ROOT / "fuzz" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fuzz", module)
    spec.loader.exec_module(module)
    return module


def _mutated(count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    fuzz: object = _fuzz()
    seeds = [s for s in fuzz.load_seeds() if s.kind == "gzip-members"]  # type: ignore[attr-defined]
    for mutant in fuzz.mutants(seeds, count, seed):  # type: ignore[attr-defined]
        yield f"{mutant.seed} {mutant.how}", mutant.data


@pytest.mark.slow  # ~10 s: 400 mutated archives, each read both ways
def test_mutated_archives_give_the_same_entries_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    differ = []
    fast_read = 0
    for how, data in _mutated(400, seed=35):
        if _entries(data, True, monkeypatch) != _entries(data, False, monkeypatch):
            differ.append(how)
        fast_read += _fast_alone(data)[1] is None
    assert differ == []
    assert fast_read > 0  # some mutants stay intact (a member swapped, one duplicated)


def test_offsets_and_lengths_are_warcio_index_s() -> None:
    from warcio.archiveiterator import ArchiveIterator

    for name in ("crawl.warc.gz", "dupes.warc.gz", "example-wpull.warc.gz"):
        data = (ROOT / "fixtures" / "containers" / name).read_bytes()
        indexed = set()
        for record in (iterator := ArchiveIterator(io.BytesIO(data))):
            record.raw_stream.read()
            indexed.add((iterator.get_record_offset(), iterator.get_record_length()))
        entries, given = _fast_alone(data)
        assert given is None, name
        found = {
            (entry.origin.offset, entry.origin.length)
            for entry in entries
            if isinstance(entry, Part) and entry.origin is not None
        }
        assert found and found <= indexed, name


class _Pipe(io.RawIOBase):
    """A stream that cannot seek back, as stdin or a pipe."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        return self.data.readinto(buffer)


@pytest.mark.parametrize("why", ["BASELINKS_PURE=1", "a stream that cannot seek"])
def test_the_careful_path_alone_where_the_fast_one_is_off(
    why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fast reader was used")

    data = (ROOT / "fixtures" / "containers" / "crawl.warc.gz").read_bytes()
    expected = _entries(data, False, monkeypatch)
    monkeypatch.setattr(warc, "fast_records", refused)
    monkeypatch.setattr(warc, "FAST", True)
    if why.startswith("BASELINKS_PURE"):
        monkeypatch.setenv("BASELINKS_PURE", "1")
        stream: io.RawIOBase | io.BytesIO = io.BytesIO(data)
    else:
        stream = _Pipe(data)
    found = [repr(entry) for entry in warc.iter_records(stream, "crawl.warc.gz")]  # type: ignore[arg-type]
    assert found == expected
