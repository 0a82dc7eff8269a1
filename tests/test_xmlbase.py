"""xml:base (base/xmlbase.py): each element's base, its chain resolved outermost first, down to
the document's own base; in each of the three modes (docs/reference.md, "Feeds")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import baselinks
from baselinks.base.layers import Base, BaseSource
from baselinks.base.xmlbase import XMLBase

RETRIEVAL = Base("http://news.example/feed.atom", BaseSource.RETRIEVAL)
CONTENT = BaseSource.CONTENT


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        ((), RETRIEVAL),  # no xml:base: the document's own base, as it came
        (("http://a.example/blog/",), Base("http://a.example/blog/", CONTENT)),
        (("http://a.example/blog/", "2024/"), Base("http://a.example/blog/2024/", CONTENT)),
        (("/blog/", "2024/", "../x/"), Base("http://news.example/blog/x/", CONTENT)),
        (("  /padded/  ",), Base("http://news.example/padded/", CONTENT)),  # XML Base §3
        (("",), Base("http://news.example/feed.atom", CONTENT)),  # the parent's, set again
        (("javascript:void(0)",), Base("javascript:void(0)", CONTENT)),  # XML Base refuses none
    ],
)
def test_a_chain_resolves_each_xml_base_against_its_parents(
    chain: tuple[str, ...], expected: Base
) -> None:
    assert XMLBase(RETRIEVAL, "rfc1808").base(chain) == expected


def test_a_relative_xml_base_with_nothing_absolute_around_it_is_passed_over() -> None:
    scopes = XMLBase(Base("", BaseSource.DEFAULT), "rfc1808")
    assert scopes.base(("/blog/",)) == Base("", BaseSource.DEFAULT)
    # an absolute one further in still anchors what is inside it
    assert scopes.base(("/blog/", "http://b.example/", "x/")).url == "http://b.example/x/"


def test_an_xml_base_the_mode_cannot_resolve_leaves_the_parents() -> None:
    scopes = XMLBase(RETRIEVAL, "whatwg")
    assert scopes.base(("http://[bad/",)) == RETRIEVAL


def test_each_chain_is_resolved_once_and_a_fresh_start_resolves_it_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from baselinks.base import xmlbase

    scopes = XMLBase(RETRIEVAL, "rfc1808")
    calls: list[str] = []
    apply = scopes._apply
    monkeypatch.setattr(
        scopes, "_apply", lambda parent, value: calls.append(value) or apply(parent, value)
    )
    chain = ("/a/", "b/", "c/")
    for depth in range(1, 4):
        scopes.base(chain[:depth])
    scopes.base(chain)
    assert calls == ["/a/", "b/", "c/"]
    monkeypatch.setattr(xmlbase, "_KEPT", 1)
    calls.clear()
    assert scopes.base(("/a/", "b/", "d/")).url == "http://news.example/a/b/d/"
    assert calls == ["/a/", "b/", "d/"]  # the parent was no longer kept: the chain whole


# The reference's table of what each mode does with an xml:base, run.
def _modes_table() -> list[list[str]]:
    reference = (Path(__file__).resolve().parents[1] / "docs" / "reference.md").read_text()
    section = reference.split("What each mode does with an `xml:base`", 1)[1]
    rows = re.search(r"(?m)^\|.*(?:\n\|.*)*", section)
    assert rows is not None
    return [
        [cell.strip().strip("`").replace('""', "") for cell in row.strip("|").split(" | ")]
        for row in rows[0].splitlines()[2:]
    ]


@pytest.mark.parametrize("row", _modes_table(), ids=lambda row: f"{row[0]}:{row[1]}")
def test_the_reference_table_of_the_modes(row: list[str]) -> None:
    mode, entry_base, href, expected, _ = row
    feed = (
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://a/b/c/d;p?q">'
        f'<entry xml:base="{entry_base}"><link href="{href}"/></entry></feed>'
    ).encode()
    [link] = baselinks.extract_links(feed, mode=mode)
    assert (link.url, link.base_source) == (expected, "content")
