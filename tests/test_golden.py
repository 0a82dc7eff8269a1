"""Golden files: each fixtures/html/<case>.html beside <case>.jsonl, its expected links.

Each case is read by both parsers (docs/guide/parsers.md): <case>.jsonl is the HTML5 parser's
answer, and <case>.lxml.jsonl lxml's where it differs, only for a case of a documented class
of difference (tests/test_parsers.py lists them; the other cases give the same under both).

fixtures/html/index.tsv gives each case's retrieval URL and what it exercises. After a
deliberate change of output, regenerate with ``BASELINKS_REGENERATE=1 pytest tests/test_golden.py``
and review the diff line by line before committing it.
"""

from __future__ import annotations

import csv
import json
import os
from typing import Any

import pytest

from baselinks import extract_links
from baselinks.find.linktable import HEADER_LINK_SOURCES, LINK_SOURCES, METADATA, TEXT_SYNTAXES
from baselinks.resolve.link import OWN_FIELDS
from baselinks.write.formats import write_jsonl
from conftest import FIXTURES, PARSERS

HTML = FIXTURES / "html"
with open(HTML / "index.tsv", encoding="utf-8") as _index:
    CASES = list(csv.DictReader(_index, delimiter="\t"))


def _output(case: dict[str, str], parser: str) -> str:
    links = extract_links(
        (HTML / case["case"]).read_bytes(),
        url=case["url"] or None,
        name=case["case"],
        parser=parser,
    )
    from io import StringIO

    out = StringIO()
    # the link's own fields: a page's origin is its file alone (test_extract, test_provenance)
    write_jsonl(links, out, OWN_FIELDS)
    return out.getvalue()


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_golden(case: dict[str, str], parser: str) -> None:
    expected_path = HTML / case["case"].replace(".html", ".jsonl")
    lxml_path = expected_path.with_suffix(".lxml.jsonl")
    actual = _output(case, parser)
    if os.environ.get("BASELINKS_REGENERATE"):
        if parser == "html5":
            expected_path.write_text(actual, encoding="utf-8")
        elif actual != expected_path.read_text(encoding="utf-8"):
            lxml_path.write_text(actual, encoding="utf-8")
        else:
            lxml_path.unlink(missing_ok=True)
    if parser == "lxml" and lxml_path.exists():
        expected_path = lxml_path
    assert actual == expected_path.read_text(encoding="utf-8")


def test_every_fixture_is_indexed() -> None:
    on_disk = {p.name for p in HTML.glob("*.html")}
    assert on_disk == {c["case"] for c in CASES}
    assert all(c["what it exercises"] for c in CASES)


def _all_golden_records() -> list[dict[str, Any]]:
    # both parsers': a row may be met under one alone (<image src> is libxml2's element; HTML's
    # parser makes it an <img>)
    records = []
    for case in CASES:
        path = HTML / case["case"].replace(".html", ".jsonl")
        for each in (path, path.with_suffix(".lxml.jsonl")):
            if each.exists():
                lines = each.read_text(encoding="utf-8").splitlines()
                records += [json.loads(line) for line in lines]
    return records


def test_every_row_of_the_link_source_table_has_a_fixture() -> None:
    seen = {(r["tag"], r["attr"]) for r in _all_golden_records()}
    attrs_seen = {attr for _, attr in seen}
    missing = []
    for source in LINK_SOURCES:
        if source.syntax in ("srcdoc", "css-text", "json-ld"):
            continue  # their links carry their own tag and attr: srcdoc.html; below
        if source.tags is None:
            if source.attr not in attrs_seen:
                missing.append(source.attr)
        else:
            missing += [
                f"{tag}[{source.attr}]"
                for tag in sorted(source.tags)
                if (tag, source.attr) not in seen
            ]
    assert missing == []
    assert {("style", "url()"), ("style", "@import"), ("style", "image-set()")} <= seen
    # the rows that share an attribute (meta content) or read a text (JSON-LD): by their code
    codes = {code for r in _all_golden_records() for code in r["problems"]}
    assert set(METADATA) <= codes
    assert {(r["tag"], r["kind"]) for r in _all_golden_records() if "json-ld" in r["problems"]} == {
        ("script", "link"),
        ("script", "resource"),
        ("script", "other"),  # an @id
    }


def test_the_reference_table_lists_every_link_source() -> None:
    readme = (FIXTURES.parent / "docs" / "reference.md").read_text(encoding="utf-8")
    for source in LINK_SOURCES:
        if source.syntax in TEXT_SYNTAXES:
            when = f" ({source.when})" if source.when else ""
            assert f"| {', '.join(sorted(source.tags or ()))}{when} (element text) |" in readme
            continue
        if source.tags is None:
            elements = {
                "svg-or-math": "any element in SVG/MathML",
                "foreign-href": "any element in SVG/MathML",
                "custom-element": "any custom element (`<lazy-image>`: a hyphen in the name)",
            }.get(source.when, "any element")
        else:
            elements = ", ".join(sorted(source.tags))
            if source.when and source.when not in ("svg-or-math", "foreign-href"):
                elements += f" ({source.when})"
        assert f"| {elements} | `{source.attr}` |" in readme, (elements, source.attr)
    for source in HEADER_LINK_SOURCES:
        elements = "http (3xx)" if source.when == "3xx" else "http"
        assert f"| {elements} | `{source.attr}` |" in readme, source.attr
