"""Containers, golden: each fixtures/containers/<case> beside expected/<case>.jsonl (its links)
and expected/<case>.errors (the error lines, when any), over every reader (MHTML/MIME, WARC/ARC,
raw HTTP, gzip). Regenerate after a deliberate change with
``BASELINKS_REGENERATE=1 pytest tests/test_containers.py`` and review the diff line by line.
The readers one by one: test_containers_mime.py, _warc.py, _http.py, _sniff.py, _inputs.py.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from baselinks import InputError, InputWarning, extract_links
from baselinks.find.linktable import HEADER_LINK_SOURCES
from baselinks.write.formats import write_jsonl
from conftest import FIXTURES, assert_golden

HERE = FIXTURES / "containers"


EXPECTED = HERE / "expected"


with open(HERE / "index.tsv", encoding="utf-8") as _index:
    CASES = list(csv.DictReader(_index, delimiter="\t"))


def _run(case: dict[str, str]) -> tuple[str, str]:
    errors: list[InputError] = []  # a warning (an oddity repaired) among them, so marked
    links = extract_links(
        HERE / case["case"],
        url=case["url"] or None,
        name=case["case"],
        on_error=errors.append,
        on_warning=errors.append,
    )
    out = io.StringIO()
    write_jsonl(links, out)
    said = (f"warning: {e}" if isinstance(e, InputWarning) else str(e) for e in errors)
    return out.getvalue(), "".join(f"{line}\n" for line in said)


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_golden(case: dict[str, str]) -> None:
    assert_golden(EXPECTED, case["case"], *_run(case))


def test_every_fixture_is_indexed() -> None:
    on_disk = {p.name for p in HERE.iterdir() if p.is_file()} - {"index.tsv", "make_warc.py"}
    assert on_disk == {c["case"] for c in CASES}
    assert all(c["what it exercises"] for c in CASES)


def _golden(case: str) -> list[dict[str, object]]:
    text = (EXPECTED / f"{case}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_every_header_link_source_has_a_fixture() -> None:
    seen = {(r["tag"], r["attr"]) for c in CASES for r in _golden(c["case"])}
    for source in HEADER_LINK_SOURCES:
        assert ("http", source.attr) in seen, source.attr
