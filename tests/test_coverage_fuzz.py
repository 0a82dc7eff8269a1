"""Coverage's readers under damage (a fixed seed, so CI's run is reproducible): the capture scan
(load/containers/captures.py) never raises and loses no record that the damage left whole; the
index reader (coverage/index.py) reads every line it can and names each one it cannot; the
command checks the rest of a damaged crawl and says the damage once."""

from __future__ import annotations

import io
import random
import zlib
from pathlib import Path

import pytest

from baselinks.coverage import check_coverage
from baselinks.coverage.index import iter_index
from baselinks.errors import InputError
from baselinks.load.containers.captures import Capture, iter_captures
from conftest import FIXTURES

SEEDS = [
    FIXTURES / "coverage" / "site.warc.gz",
    FIXTURES / "containers" / "crawl.warc.gz",
    FIXTURES / "containers" / "dupes.warc.gz",
    FIXTURES / "containers" / "example-wpull.warc.gz",
]
ROUNDS = 60  # mutants per seed file


def _members(data: bytes) -> list[bytes]:
    """A .warc.gz's gzip members (one record each)."""
    members, rest = [], data
    while rest:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        inflater.decompress(rest)
        used = len(rest) - len(inflater.unused_data)
        members.append(rest[:used])
        rest = inflater.unused_data
    return members


def _captures(data: bytes) -> list[tuple[str, str | None, str, int | None]]:
    found = iter_captures(io.BytesIO(data), "mutant.warc.gz")
    return [(c.url, c.date, c.record, c.status) for c in found if isinstance(c, Capture)]


def _mutated(rng: random.Random, member: bytes) -> bytes:
    how = rng.choice(("flip", "cut", "delete", "junk"))
    at = rng.randrange(len(member))
    if how == "flip":
        return member[:at] + bytes([member[at] ^ (1 << rng.randrange(8))]) + member[at + 1 :]
    if how == "cut":
        return member[:at]
    if how == "delete":
        return member[:at] + member[at + rng.randrange(1, 64) :]
    return member[:at] + rng.randbytes(rng.randrange(1, 64)) + member[at:]


@pytest.mark.parametrize("seed", SEEDS, ids=[path.name for path in SEEDS])
def test_no_whole_record_is_lost_to_damage_in_another(seed: Path) -> None:
    rng = random.Random(39)
    members = _members(seed.read_bytes())
    alone = [_captures(member) for member in members]
    assert sum(map(len, alone)) >= 2
    for _ in range(ROUNDS):
        damaged = rng.randrange(len(members))
        mutant = b"".join(
            _mutated(rng, member) if i == damaged else member for i, member in enumerate(members)
        )
        found = _captures(mutant)  # never raises: damage is extraction's to say
        whole = [c for i, caps in enumerate(alone) if i != damaged for c in caps]
        missing = [c for c in whole if c not in found]
        assert not missing, (seed.name, damaged)


def test_an_index_with_damaged_lines_reads_every_line_it_can() -> None:
    rng = random.Random(39)
    lines = (FIXTURES / "coverage" / "site.cdxj").read_bytes().splitlines(keepends=True) * 20
    for _ in range(200):
        kept = list(lines)
        broken = set(rng.sample(range(len(kept)), 5))
        for i in broken:
            line = kept[i]
            at = rng.randrange(len(line))
            kept[i] = (
                line[:at] + rng.choice((b"", b"\x00", b"{", b"\xff\xfe", b" ")) + line[at + 1 :]
            )
        found = list(iter_index(io.BytesIO(b"".join(kept)), "index.cdxj"))
        errors = [one for one in found if isinstance(one, InputError)]
        captures = [one for one in found if isinstance(one, Capture)]
        assert len(errors) <= len(broken)
        assert len(captures) >= len(lines) - len(broken)
        assert all(str(error).startswith("index.cdxj: line ") for error in errors)


def test_a_damaged_crawl_is_checked_as_far_as_it_can_be(tmp_path: Path) -> None:
    rng = random.Random(39)
    members = _members(SEEDS[0].read_bytes())
    for n in range(10):
        damaged = rng.randrange(len(members))
        mutant = tmp_path / f"mutant-{n}.warc.gz"
        mutant.write_bytes(
            b"".join(_mutated(rng, m) if i == damaged else m for i, m in enumerate(members))
        )
        errors: list[InputError] = []
        covered, made = check_coverage([mutant], on_error=errors.append)
        assert made.links == len(covered)
        assert all(str(mutant) in str(error) for error in errors)
