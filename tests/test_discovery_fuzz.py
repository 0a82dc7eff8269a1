"""The feed, sitemap, robots.txt and JSON-LD readers fuzzed: mutated real files (a fixed seed, so
that a red run is reproducible), each read as its name and URL say. Every finding is a bug: an
exception that escapes, an "internal error", a link that is not a string, a raw value that was
not in the document. (fuzz/fuzz.py fuzzes the containers the same way.)"""

from __future__ import annotations

import csv
import gzip
import random
import zlib

import pytest

from baselinks import InputError, extract_links
from conftest import FIXTURES

HERE = FIXTURES / "discovery"
with open(HERE / "index.tsv", encoding="utf-8") as _index:
    SEEDS = [
        (row["case"], (HERE / row["case"]).read_bytes(), row["url"] or None)
        for row in csv.DictReader(_index, delimiter="\t")
        if not row["case"].endswith((".warc.gz", ".mhtml"))  # the containers' fuzzer's
    ]
SEEDS.append(("metadata.html", (FIXTURES / "html" / "metadata.html").read_bytes(), None))

JUNK = (
    b"<",
    b"&",
    b"&nbsp;",
    b"&#0;",
    b"]]>",
    b"<![CDATA[",
    b"<!--",
    b'<!DOCTYPE x [<!ENTITY a "&b;"><!ENTITY b "&a;">]>',
    b' xml:base="::/\\x"',
    b' xml:base=""',
    b'<x xmlns:media="" xmlns="urn:x">',
    b"<a>" * 3000,
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b'{"url": "',
    b'"sameAs": [',
    b"\\",
    b"\r",
    b"Sitemap:",
    "é\u2028".encode(),
)


def _mutant(rng: random.Random, data: bytes) -> bytes:
    if data.startswith(b"\x1f\x8b") and rng.random() < 0.5:
        inner = _mutant(rng, zlib.decompress(data, 16 + zlib.MAX_WBITS))
        return gzip.compress(inner, mtime=0)
    action = rng.randrange(5)
    position = rng.randrange(len(data) + 1)
    if action == 0:  # flip bytes
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    if action == 1:
        return data[:position]  # truncated
    if action == 2:
        return data[:position] + rng.choice(JUNK) * rng.choice((1, 1, 50)) + data[position:]
    if action == 3:
        end = min(len(data), position + rng.choice((1, 10, 100)))
        return data[:position] + data[end:]
    end = min(len(data), position + rng.randint(1, 200))
    return data[:end] + data[position:end] * rng.randint(2, 20) + data[end:]  # a run repeated


def _mutants(count: int, seed: int) -> list[tuple[str, str | None, bytes, int]]:
    rng = random.Random(seed)
    found = []
    for number in range(count):
        name, data, url = rng.choice(SEEDS)
        found.append((name, url, _mutant(rng, data), number))
    return found


@pytest.mark.parametrize(("name", "url", "data", "number"), _mutants(400, 27), ids=lambda v: "")
def test_a_mutated_file_gives_links_or_named_errors(
    name: str, url: str | None, data: bytes, number: int
) -> None:
    errors: list[InputError] = []
    links = extract_links(data, url=url, name=name, on_error=errors.append)
    assert all(type(link.url) is str and type(link.raw) is str for link in links)
    assert not [str(error) for error in errors if "internal error" in str(error)]
    assert all(error.name.startswith(name) for error in errors)
