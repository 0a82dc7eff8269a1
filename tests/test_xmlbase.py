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


def _chain(scopes: XMLBase, chain: tuple[str, ...]) -> Base:
    """The base of an element inside elements with the xml:base values ``chain``, outermost
    first, as the reader tells them: each element's start."""
    for value in chain:
        scopes.enter(value)
    return scopes.base


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
    assert _chain(XMLBase(RETRIEVAL, "rfc1808"), chain) == expected


def test_a_relative_xml_base_with_nothing_absolute_around_it_is_passed_over() -> None:
    assert _chain(XMLBase(Base("", BaseSource.DEFAULT), "rfc1808"), ("/blog/",)) == Base(
        "", BaseSource.DEFAULT
    )
    # an absolute one further in still anchors what is inside it
    scopes = XMLBase(Base("", BaseSource.DEFAULT), "rfc1808")
    assert _chain(scopes, ("/blog/", "http://b.example/", "x/")).url == "http://b.example/x/"


def test_an_xml_base_the_mode_cannot_resolve_leaves_the_parents() -> None:
    assert _chain(XMLBase(RETRIEVAL, "whatwg"), ("http://[bad/",)) == RETRIEVAL


def test_an_element_without_xml_base_has_its_parents_and_leaving_restores_it() -> None:
    scopes = XMLBase(RETRIEVAL, "rfc1808")
    outer = scopes.enter("/a/")
    assert scopes.enter(None) is outer  # the same Base, no resolution
    assert scopes.enter("b/").url == "http://news.example/a/b/"
    assert scopes.leave().base.url == "http://news.example/a/b/"
    assert scopes.leave().base is outer and scopes.base is outer
    scopes.leave()
    assert scopes.base == RETRIEVAL
    assert scopes.leave().base == RETRIEVAL  # more ends than starts (a damaged feed): the bottom


def _feed(nested: int, siblings: int, width: int = 20) -> bytes:
    """``nested`` elements each inside the one before with an xml:base of ``width`` characters
    and a link, then ``siblings`` entries inside them, each with an xml:base and a link."""
    opened = b"".join(
        b'<entry xml:base="%s/"><link href="n%d"/>' % ((b"d%d" % i).ljust(width, b"x"), i)
        for i in range(nested)
    )
    inner = b"".join(
        b'<entry xml:base="s%d/"><link href="a"/></entry>' % i for i in range(siblings)
    )
    return (
        b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">'
        + opened
        + inner
        + b"</entry>" * nested
        + b"</feed>"
    )


def test_each_xml_base_is_resolved_once_when_its_element_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 36: 2,000 nested xml:base values, then entries under them, each with its own: the
    # chain of each (a tuple of 2,000) was hashed for every link and, once 4,096 chains were
    # kept, resolved whole again for every entry (130 KB: 28 s; 547 KB: over 200 s). Each
    # value is now resolved once, against the base around it: as many resolutions as
    # xml:base attributes applied, whatever the nesting.
    from baselinks.base import xmlbase

    calls: list[str] = []
    apply = xmlbase.XMLBase._apply

    def counted(self: XMLBase, parent: Base, value: str) -> Base:
        calls.append(value)
        return apply(self, parent, value)

    monkeypatch.setattr(xmlbase.XMLBase, "_apply", counted)
    most = xmlbase.MAX_XML_BASE_DEPTH
    links = baselinks.extract_links(_feed(20, 5_000))
    assert len(links) == 5_020
    assert len(calls) == 1 + 20 + 5_000  # the feed's, the 20 nested ones, one per sibling
    nested = "".join(f"{f'd{i}'.ljust(20, 'x')}/" for i in range(20))
    assert links[-1].url == f"http://f.example/{nested}s4999/a"
    # nested past the limit: the feed's and the first 31 nested ones applied, no more
    calls.clear()
    errors: list[baselinks.InputError] = []
    links = baselinks.extract_links(_feed(2_000, 5_000), on_error=errors.append)
    assert len(links) == 7_000 and len(calls) == most
    nested = "".join(f"{f'd{i}'.ljust(20, 'x')}/" for i in range(most - 1))
    assert links[-1].url == f"http://f.example/{nested}a"
    assert [error.message for error in errors] == [
        f"xml:base nested more than {most} deep at line 1: the deeper ones are not applied "
        "(the links inside them resolve against the base around them)"
    ]


def test_xml_base_nested_to_the_limit_is_applied_whole_and_said_past_it() -> None:
    from baselinks.base.xmlbase import MAX_XML_BASE_DEPTH

    # the feed's xml:base is the first of them
    errors: list[baselinks.InputError] = []
    links = baselinks.extract_links(_feed(MAX_XML_BASE_DEPTH - 1, 0, 2), on_error=errors.append)
    assert errors == []
    assert (
        links[-1].url
        == "http://f.example/"
        + "".join(f"{f'd{i}'.ljust(2, 'x')}/" for i in range(MAX_XML_BASE_DEPTH - 1))
        + f"n{MAX_XML_BASE_DEPTH - 2}"
    )
    links = baselinks.extract_links(_feed(MAX_XML_BASE_DEPTH, 0, 2), on_error=errors.append)
    assert len(errors) == 1
    # the innermost's link, against the base around it
    assert links[-1].url == links[-2].url.rsplit("/", 1)[0] + f"/n{MAX_XML_BASE_DEPTH - 1}"


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
